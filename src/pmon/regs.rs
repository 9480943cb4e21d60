//! PMON register map (docs/semantics.md P2, P3, P4): offsets, fields, write
//! masks. Hand-written, mirroring `rtl/pmon/pmon_reg_pkg.sv`: the project's
//! generator (tools/regmap.py from SystemRDL) is specific to PCOUNTER's
//! per-domain arrays and generations, so PMON has no `.rdl` yet; the table
//! tests and the lockstep compare catch a disagreement between the two.

/// Counter width (UG 817760 5.4.4 CntrWidth default).
pub const CNTR_W: u32 = 48;
pub const CNTR_MASK: u64 = (1u64 << CNTR_W) - 1;
/// Counters the offsets leave room for (P2).
pub const NUM_COUNTERS_MAX: usize = 8;

pub const BOX_CTL: u16 = 0x00;
pub const BOX_CTL_HI: u16 = 0x04;
pub const BOX_STATUS: u16 = 0x08;
pub const BOX_STATUS_HI: u16 = 0x0c;
pub const CTL0_BASE: u16 = 0x10;
pub const CTL1_BASE: u16 = 0x14;
pub const DATA_LO_BASE: u16 = 0x50;
pub const DATA_HI_BASE: u16 = 0x54;
pub const CTR_STRIDE: u16 = 0x08;
/// First offset past the map (P2).
pub const WINDOW_END: u16 = DATA_LO_BASE + CTR_STRIDE * NUM_COUNTERS_MAX as u16;

pub const fn ctl0(j: usize) -> u16 {
    CTL0_BASE + CTR_STRIDE * j as u16
}
pub const fn ctl1(j: usize) -> u16 {
    CTL1_BASE + CTR_STRIDE * j as u16
}
pub const fn data_lo(j: usize) -> u16 {
    DATA_LO_BASE + CTR_STRIDE * j as u16
}
pub const fn data_hi(j: usize) -> u16 {
    DATA_HI_BASE + CTR_STRIDE * j as u16
}

/// A field of a 32-bit register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub lsb: u32,
    pub width: u32,
}

impl Field {
    pub const fn mask(self) -> u32 {
        (((1u64 << self.width) - 1) as u32) << self.lsb
    }
    pub const fn get(self, v: u32) -> u32 {
        (v & self.mask()) >> self.lsb
    }
    pub const fn set(self, v: u32, x: u32) -> u32 {
        (v & !self.mask()) | ((x << self.lsb) & self.mask())
    }
}

/// CTL0 (seed 001 first table; P4: Frz_On_Ov one bit).
pub mod ctl0 {
    use super::Field;
    pub const EVNT_SEL: Field = Field { lsb: 0, width: 8 };
    pub const UMASK: Field = Field { lsb: 8, width: 8 };
    pub const CNTR_RST: Field = Field { lsb: 17, width: 1 };
    pub const EDGE: Field = Field { lsb: 18, width: 1 };
    pub const FRZ_ON_OV: Field = Field { lsb: 20, width: 1 };
    pub const INVERT: Field = Field { lsb: 23, width: 1 };
    pub const THRESH: Field = Field { lsb: 24, width: 8 };
    /// Stored bits (P3); bit 17 acts and reads 0 (P7).
    pub const WR_MASK: u32 = 0xff94_ffff;
}

/// CTL1 (seed 001 second table).
pub mod ctl1 {
    use super::Field;
    pub const MAX: Field = Field { lsb: 0, width: 1 };
    pub const WR_MASK: u32 = 0x0000_0001;
}

/// BOX_CTL (UG 817760 5.4.5 PMON_UCTRL_L).
pub mod box_ctl {
    use super::Field;
    pub const FREEZE: Field = Field { lsb: 0, width: 1 };
    pub const RST_CTRL: Field = Field { lsb: 8, width: 1 };
    pub const RST_CNTR: Field = Field { lsb: 9, width: 1 };
    pub const WR_MASK: u32 = 0x0000_0001;
}

/// DATA_HI holds counter bits 47:32 (UG 817760 5.4.8).
pub const DATA_HI_WR_MASK: u32 = 0x0000_ffff;

/// What an offset names (P2), for a box with `num_counters` counters.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    BoxCtl,
    BoxStatus,
    /// BOX_CTL_HI, BOX_STATUS_HI: present, all bits reserved (P3).
    Reserved,
    Ctl0(usize),
    Ctl1(usize),
    DataLo(usize),
    DataHi(usize),
}

/// Decode an offset (bits 1:0 ignored, P1); None: no register (PSLVERR).
pub fn decode(offset: u16, num_counters: usize) -> Option<Target> {
    let a = offset & 0xfc;
    if offset > 0xff {
        return None;
    }
    let t = match a {
        BOX_CTL => Target::BoxCtl,
        BOX_STATUS => Target::BoxStatus,
        BOX_CTL_HI | BOX_STATUS_HI => Target::Reserved,
        _ if (CTL0_BASE..DATA_LO_BASE).contains(&a) => {
            let j = usize::from((a - CTL0_BASE) / CTR_STRIDE);
            if a & 4 == 0 {
                Target::Ctl0(j)
            } else {
                Target::Ctl1(j)
            }
        }
        _ if (DATA_LO_BASE..WINDOW_END).contains(&a) => {
            let j = usize::from((a - DATA_LO_BASE) / CTR_STRIDE);
            if a & 4 == 0 {
                Target::DataLo(j)
            } else {
                Target::DataHi(j)
            }
        }
        _ => return None,
    };
    match t {
        Target::Ctl0(j) | Target::Ctl1(j) | Target::DataLo(j) | Target::DataHi(j) if j >= num_counters => None,
        t => Some(t),
    }
}
