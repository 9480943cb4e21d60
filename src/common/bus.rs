//! The bus types every device model shares: one APB operation in its
//! ACCESS cycle and the completer's answer (mirrors the APB ports of every
//! top in rtl/).

/// The APB ACCESS-phase operation of a cycle (offset inside the window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusOp {
    Write { offset: u16, data: u32, strb: u8 },
    Read { offset: u16 },
}

/// What the completer answers in a cycle (PRDATA/PSLVERR are 0 except in
/// the completing ACCESS cycle; `ready` is PREADY, S0/S15).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BusResult {
    pub rdata: u32,
    pub slverr: bool,
    pub ready: bool,
}

impl Default for BusResult {
    fn default() -> BusResult {
        BusResult { rdata: 0, slverr: false, ready: true }
    }
}
