//! One R10000/R12000 counter: its control register and 32-bit count.
//! Mirrors `rtl/r10k/r10k_counter.sv`.
//!
//! Contract (docs/semantics.md R4..R10): `next` computes this cycle's next
//! state from the current one and the cycle's inputs; the unit commits both
//! counters at once.

use super::regs::{ctl, Variant};

/// The CP0 Status fields the count-enable bits match (seed "THE CONTROL
/// REGISTERS"): KSU 1:0, EXL, ERL.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Mode {
    pub ksu: u8,
    pub exl: bool,
    pub erl: bool,
}

impl Mode {
    pub const USER: Mode = Mode { ksu: 2, exl: false, erl: false };
    pub const SUPERVISOR: Mode = Mode { ksu: 1, exl: false, erl: false };
    pub const KERNEL: Mode = Mode { ksu: 0, exl: false, erl: false };
    pub const EXL: Mode = Mode { ksu: 0, exl: true, erl: false };

    /// The enable bit (bit index in the control register) this mode
    /// matches, if any (R7): U for KSU 2, S for 1, K for 0, EXL for EXL = 1;
    /// ERL = 1 and KSU = 3 match none.
    pub fn enable_bit(self) -> Option<u32> {
        match (self.erl, self.exl, self.ksu) {
            (true, ..) => None,
            (false, true, _) => Some(ctl::EXL.lsb),
            (false, false, 2) => Some(ctl::U.lsb),
            (false, false, 1) => Some(ctl::S.lsb),
            (false, false, 0) => Some(ctl::K.lsb),
            _ => None,
        }
    }
}

/// The registers of one counter (`_q` in the RTL).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CounterState {
    /// Stored control bits (`Variant::ctl_wr_mask`, R3).
    pub ctl: u32,
    /// The 32-bit count (R8).
    pub cnt: u32,
}

/// The accepted bus write to one of this counter's registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterWrite {
    Ctl(u32),
    Cnt(u32),
}

impl CounterState {
    /// The selected event's source on the port (R4).
    pub fn source(&self, v: Variant, j: usize) -> usize {
        v.source(j, v.event_field().get(self.ctl))
    }

    /// The selected event's increment of this cycle (R5): 1 for the cycle
    /// count, else the source's input.
    pub fn increment(&self, v: Variant, j: usize, events: &[u8]) -> u8 {
        let src = self.source(v, j);
        if v.is_cycles(src) {
            1
        } else {
            events[src]
        }
    }

    /// Does the counter count in `mode` (R7)?
    pub fn enabled(&self, mode: Mode) -> bool {
        mode.enable_bit().is_some_and(|b| self.ctl >> b & 1 != 0)
    }

    /// The counted value of this cycle, before writes (R8: wraps at 2^32).
    pub fn counted(&self, v: Variant, j: usize, events: &[u8], mode: Mode) -> u32 {
        if self.enabled(mode) {
            self.cnt.wrapping_add(u32::from(self.increment(v, j, events)))
        } else {
            self.cnt
        }
    }

    /// `cnt[31] & IE` (R9).
    pub fn irq(&self) -> bool {
        self.cnt >> 31 != 0 && ctl::IE.get(self.ctl) != 0
    }

    /// This cycle's next state (R10): a count write replaces the count of
    /// the cycle; a control write is stored, the cycle counts with the old
    /// control.
    pub fn next(&self, v: Variant, j: usize, events: &[u8], mode: Mode, write: Option<CounterWrite>) -> CounterState {
        let mut n = CounterState { ctl: self.ctl, cnt: self.counted(v, j, events, mode) };
        match write {
            Some(CounterWrite::Cnt(x)) => n.cnt = x,
            Some(CounterWrite::Ctl(x)) => n.ctl = x & v.ctl_wr_mask(),
            None => {}
        }
        n
    }
}
