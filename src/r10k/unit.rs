//! The R10000/R12000 counter unit: two counters, the APB window onto the
//! CP0 PerfCnt/PerfCtl registers and the overflow interrupt. Mirrors
//! `rtl/r10k/r10k_perf.sv`.
//!
//! Contract (docs/semantics.md R1..R12): one bus operation per cycle, taken
//! in its APB ACCESS cycle; a read returns the registers before the cycle's
//! commit; `step` computes the whole next state, then commits it. Inputs
//! the RTL's ports could not carry, or no CPU of the seed drives, are
//! refused with a typed error instead of being truncated.

use super::counter::{CounterState, CounterWrite, Mode};
use super::regs::{self, Target, Variant, INC_W, NUM_COUNTERS, NUM_SOURCES};
use crate::common::bus::{BusOp, BusResult};

/// A cycle's inputs the unit cannot take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputError {
    /// `events` must hold `NUM_SOURCES` entries.
    EventCount { got: usize },
    /// A source carries more than its per-cycle maximum (R6).
    EventValue { src: usize, value: u8, max: u8 },
    /// KSU is a 2-bit field.
    Ksu(u8),
    /// The offset does not fit the 8-bit PADDR (R1).
    Offset(u16),
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::EventCount { got } => write!(f, "R10K: {got} event sources, expected {NUM_SOURCES}"),
            InputError::EventValue { src, value, max } => {
                write!(f, "R10K: source {src} carries {value}, more than its per-cycle maximum {max}")
            }
            InputError::Ksu(k) => write!(f, "R10K: KSU {k} is not a 2-bit value"),
            InputError::Offset(o) => write!(f, "R10K: offset {o:#x} outside the 8-bit window"),
        }
    }
}

impl std::error::Error for InputError {}

/// Inputs of one clock cycle.
#[derive(Clone, Copy, Debug)]
pub struct R10kInputs<'a> {
    /// `events[s]`: source `s`'s increment this cycle (R4, R6).
    pub events: &'a [u8],
    /// CP0 Status KSU/EXL/ERL of this cycle (R7).
    pub mode: Mode,
    pub bus: Option<BusOp>,
}

/// The counter unit (`r10k_perf` of the RTL).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct R10kUnit {
    variant: Variant,
    pub counters: [CounterState; NUM_COUNTERS],
}

impl R10kUnit {
    /// A unit just out of reset (R11: everything 0).
    pub fn new(variant: Variant) -> R10kUnit {
        R10kUnit { variant, counters: [CounterState::default(); NUM_COUNTERS] }
    }

    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// `irq_o` (R9): a level, `cnt[31] & IE` of either counter.
    pub fn irq(&self) -> bool {
        self.counters.iter().any(CounterState::irq)
    }

    /// The register at `target` as a read sees it this cycle.
    pub fn read(&self, target: Target) -> u32 {
        match target {
            Target::Ctl(j) => self.counters[j].ctl,
            Target::Cnt(j) => self.counters[j].cnt,
        }
    }

    fn check(&self, inp: &R10kInputs) -> Result<(), InputError> {
        if inp.events.len() != NUM_SOURCES {
            return Err(InputError::EventCount { got: inp.events.len() });
        }
        for (src, &value) in inp.events.iter().enumerate() {
            // A cycle source's input is ignored (R5): any 3-bit value.
            let max = if self.variant.is_cycles(src) { (1 << INC_W) - 1 } else { self.variant.max_inc(src) };
            if value > max {
                return Err(InputError::EventValue { src, value, max });
            }
        }
        if inp.mode.ksu > 3 {
            return Err(InputError::Ksu(inp.mode.ksu));
        }
        match inp.bus {
            Some(BusOp::Read { offset } | BusOp::Write { offset, .. }) if offset > 0xff => {
                Err(InputError::Offset(offset))
            }
            _ => Ok(()),
        }
    }

    /// Run one clock: answer the bus operation from this cycle's registers,
    /// then compute and commit the next state. On an input error nothing
    /// changes.
    pub fn step(&mut self, inp: &R10kInputs) -> Result<BusResult, InputError> {
        self.check(inp)?;
        let mut result = BusResult::default();
        let mut write = None;
        match inp.bus {
            None => {}
            Some(BusOp::Read { offset }) => match regs::decode(offset) {
                None => result.slverr = true,
                Some(t) => result.rdata = self.read(t),
            },
            Some(BusOp::Write { offset, data, strb }) => match regs::decode(offset) {
                // R1: partial strobes are refused like unmapped offsets.
                _ if strb != 0xf => result.slverr = true,
                None => result.slverr = true,
                Some(t) => write = Some((t, data)),
            },
        }
        let v = self.variant;
        let next: [CounterState; NUM_COUNTERS] = std::array::from_fn(|j| {
            let w = match write {
                Some((Target::Ctl(k), x)) if k == j => Some(CounterWrite::Ctl(x)),
                Some((Target::Cnt(k), x)) if k == j => Some(CounterWrite::Cnt(x)),
                _ => None,
            };
            self.counters[j].next(v, j, inp.events, inp.mode, w)
        });
        self.counters = next;
        Ok(result)
    }
}
