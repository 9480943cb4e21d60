//! One PMON counter: control registers CTL0/CTL1 (seed 001), 48-bit data,
//! edge history, and the per-cycle increment pipeline. Mirrors
//! `rtl/pmon/pmon_counter.sv`.
//!
//! Contract (docs/semantics.md P5..P11): `next` computes this cycle's next
//! state from the current one and the cycle's inputs and returns it with the
//! overflow it commits; the box commits every counter at once.

use bitvec::prelude::*;

use super::regs::{ctl0, ctl1, CNTR_MASK};

/// Bit `e`: event code `e` has sub-events (P5; `pmon_box`'s `SubEvents`).
pub type SubEvents = BitArr!(for 256, in u64);

/// The default `SubEvents`, as `pmon_box`'s: every code from 2 up has
/// sub-events, code 1 has none (so the default build has both kinds; code 0
/// is COUNTER_IDLE, which the parameter does not change).
pub fn default_sub_events() -> SubEvents {
    let mut s = SubEvents::ZERO;
    s[2..].fill(true);
    s
}

/// A cycle's event inputs as a counter sees them (P5).
#[derive(Clone, Copy, Debug)]
pub struct Events<'a> {
    /// `lanes[e * 8 + l]`: lane `l` of source `e`.
    pub lanes: &'a [u8],
    pub sub_events: &'a SubEvents,
}

/// The registers of one counter (`_q` in the RTL).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CounterState {
    /// Stored CTL0 bits (`ctl0::WR_MASK`, P3).
    pub ctl0: u32,
    /// Stored CTL1 bits (`ctl1::WR_MASK`).
    pub ctl1: u32,
    /// Counter value, 48 bits (P8).
    pub data: u64,
    /// Asserted condition of the previous cycle (P6 step 3).
    pub prev: bool,
}

/// What the box hands a counter in one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CounterInputs {
    /// Counting enabled: box not frozen, `freeze_i` low (P9).
    pub count_en: bool,
    /// Box Rst_Ctrl / Rst_Cntr written this cycle (P10).
    pub rst_ctrl: bool,
    pub rst_cntr: bool,
    /// The accepted bus write to one of this counter's registers, if any.
    pub write: Option<CounterWrite>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CounterWrite {
    Ctl0(u32),
    Ctl1(u32),
    DataLo(u32),
    DataHi(u32),
}

/// The result of one counter's cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    pub next: CounterState,
    /// An overflow committed at this edge (P8).
    pub ovf: bool,
    /// ... from a counter with Frz_On_Ov (P9).
    pub frz_req: bool,
}

/// The intermediate values of the pipeline (P5, P6), for tests and the
/// harness's coverage.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pipeline {
    pub inc: u16,
    pub v: u16,
    pub asserted: bool,
    pub d: u16,
}

impl CounterState {
    /// P5: Evnt_Sel 0 (COUNTER_IDLE) and codes without a source count 0; a
    /// source with sub-events gives the sum of the lanes Umask selects, one
    /// without gives its lane 0 whatever Umask holds.
    pub fn raw_increment(&self, ev: Events) -> u16 {
        let sel = ctl0::EVNT_SEL.get(self.ctl0) as usize;
        let umask = ctl0::UMASK.get(self.ctl0);
        let num_events = ev.lanes.len() / 8;
        if sel == 0 || sel >= num_events {
            return 0;
        }
        let lanes = &ev.lanes[sel * 8..sel * 8 + 8];
        if !ev.sub_events[sel] {
            return u16::from(lanes[0]);
        }
        (0..8).filter(|l| umask >> l & 1 != 0).map(|l| u16::from(lanes[l])).fold(0u16, u16::wrapping_add)
    }

    /// P6 steps 1..3 from this cycle's raw increment and `prev`.
    pub fn pipeline(&self, ev: Events) -> Pipeline {
        let inc = self.raw_increment(ev);
        let thresh = ctl0::THRESH.get(self.ctl0) as u16;
        let invert = ctl0::INVERT.get(self.ctl0) != 0;
        let v = if thresh == 0 {
            inc
        } else {
            let cond = if invert { inc < thresh } else { inc >= thresh };
            u16::from(cond)
        };
        let asserted = v != 0;
        let edge = ctl0::EDGE.get(self.ctl0) != 0;
        let d = if !edge || (asserted && !self.prev) { v } else { 0 };
        Pipeline { inc, v, asserted, d }
    }

    /// P6 step 4: the counted value and its overflow.
    fn count(&self, d: u16) -> (u64, bool) {
        let d = u64::from(d);
        if ctl1::MAX.get(self.ctl1) != 0 {
            // "greater than": equal does not replace; a Max counter never overflows.
            (if d > self.data { d } else { self.data }, false)
        } else {
            let sum = self.data.wrapping_add(d);
            (sum & CNTR_MASK, sum > CNTR_MASK)
        }
    }

    /// This cycle's next state (P7, P10, P11): nothing is committed here.
    pub fn next(&self, ev: Events, inp: &CounterInputs) -> Step {
        let p = self.pipeline(ev);
        let mut next = *self;
        let mut ovf = false;
        next.data = match inp.write {
            _ if inp.rst_cntr => 0,
            Some(CounterWrite::Ctl0(v)) if ctl0::CNTR_RST.get(v) != 0 => 0,
            Some(CounterWrite::DataLo(v)) => (self.data & !0xffff_ffff) | u64::from(v),
            Some(CounterWrite::DataHi(v)) => (self.data & 0xffff_ffff) | (u64::from(v) & 0xffff) << 32,
            _ if inp.count_en => {
                let (data, o) = self.count(p.d);
                ovf = o;
                data
            }
            _ => self.data,
        };
        next.prev = p.asserted && !inp.rst_cntr;
        match inp.write {
            Some(CounterWrite::Ctl0(v)) => next.ctl0 = v & ctl0::WR_MASK,
            Some(CounterWrite::Ctl1(v)) => next.ctl1 = v & ctl1::WR_MASK,
            _ => {}
        }
        if inp.rst_ctrl {
            (next.ctl0, next.ctl1) = (0, 0);
        }
        let frz_req = ovf && ctl0::FRZ_ON_OV.get(self.ctl0) != 0;
        Step { next, ovf, frz_req }
    }
}
