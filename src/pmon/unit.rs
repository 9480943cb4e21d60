//! The PMON IP: the global block (discovery, control, status), the unit's
//! discovery, box control and status, the counters and the APB front-end.
//! Mirrors `rtl/pmon/pmon_box.sv`.
//!
//! Contract (docs/semantics.md P1..P13): one bus operation per cycle, taken
//! in its APB ACCESS cycle; a read returns the registers before the cycle's
//! commit (P12); `step` computes the whole next state, then commits it.
//! External inputs (lane values, offsets) are checked and refused with a
//! typed error instead of being truncated.

use super::counter::{default_sub_events, CounterInputs, CounterState, CounterWrite, Events, SubEvents};
use super::regs::{self, box_ctl, gsts_l, udis_l, Target, NUM_COUNTERS_MAX, WINDOW_SIZE};
use crate::common::bus::{BusOp, BusResult};

/// Mirrors the `pmon_box` parameters (P13).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PmonConfig {
    pub num_counters: usize,
    pub num_events: usize,
    /// Bits per lane increment.
    pub inc_w: u32,
    /// Which event codes have sub-events (P5); bits at and above
    /// `num_events` name no source and are ignored.
    pub sub_events: SubEvents,
}

impl Default for PmonConfig {
    fn default() -> PmonConfig {
        PmonConfig { num_counters: 4, num_events: 4, inc_w: 4, sub_events: default_sub_events() }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PmonConfigError {
    NumCounters(usize),
    NumEvents(usize),
    IncW(u32),
}

impl std::fmt::Display for PmonConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PmonConfigError::NumCounters(n) => write!(f, "PMON: {n} counters out of range (expected 1..=8)"),
            PmonConfigError::NumEvents(n) => write!(f, "PMON: {n} event sources out of range (expected 1..=256)"),
            PmonConfigError::IncW(w) => write!(f, "PMON: lane width {w} out of range (expected 1..=5)"),
        }
    }
}

impl std::error::Error for PmonConfigError {}

impl PmonConfig {
    pub fn validate(&self) -> Result<(), PmonConfigError> {
        if !(1..=NUM_COUNTERS_MAX).contains(&self.num_counters) {
            return Err(PmonConfigError::NumCounters(self.num_counters));
        }
        if !(1..=256).contains(&self.num_events) {
            return Err(PmonConfigError::NumEvents(self.num_events));
        }
        if !(1..=5).contains(&self.inc_w) {
            return Err(PmonConfigError::IncW(self.inc_w));
        }
        Ok(())
    }
}

/// A cycle's inputs the box cannot take (the RTL's ports are narrower).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputError {
    /// `lanes` must hold `num_events * 8` entries.
    LaneCount { expected: usize, got: usize },
    /// A lane value does not fit `inc_w` bits.
    LaneValue { lane: usize, value: u8, inc_w: u32 },
    /// The offset does not fit the 9-bit PADDR (P1).
    Offset(u16),
}

impl std::fmt::Display for InputError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            InputError::LaneCount { expected, got } => write!(f, "PMON: {got} event lanes, expected {expected}"),
            InputError::LaneValue { lane, value, inc_w } => {
                write!(f, "PMON: lane {lane} carries {value}, wider than {inc_w} bits")
            }
            InputError::Offset(o) => write!(f, "PMON: offset {o:#x} outside the 9-bit CSR space"),
        }
    }
}

impl std::error::Error for InputError {}

/// Inputs of one clock cycle.
#[derive(Clone, Copy, Debug)]
pub struct PmonInputs<'a> {
    /// `lanes[e * 8 + l]`: lane `l` of source `e` (P5).
    pub lanes: &'a [u8],
    /// Global freeze (P9).
    pub freeze: bool,
    pub bus: Option<BusOp>,
}

/// A PMON box (`pmon_box` of the RTL).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PmonBox {
    cfg: PmonConfig,
    /// BOX_CTL.Freeze (P9).
    pub freeze: bool,
    /// BOX_STATUS.Cntr_Ov, bit j = counter j (P8).
    pub status: u8,
    /// GSTS_L.UnitBlock_Ov[0] (P9).
    pub gsts: bool,
    pub counters: Vec<CounterState>,
}

impl PmonBox {
    /// A box just out of reset (P1: everything 0).
    pub fn new(cfg: PmonConfig) -> Result<PmonBox, PmonConfigError> {
        cfg.validate()?;
        Ok(PmonBox {
            cfg,
            freeze: false,
            status: 0,
            gsts: false,
            counters: vec![CounterState::default(); cfg.num_counters],
        })
    }

    pub fn config(&self) -> &PmonConfig {
        &self.cfg
    }

    /// A cycle's lanes with this box's `SubEvents` (P5).
    pub fn events<'a>(&'a self, lanes: &'a [u8]) -> Events<'a> {
        Events { lanes, sub_events: &self.cfg.sub_events }
    }

    /// `ovf_o` (P9): a status bit is set.
    pub fn ovf(&self) -> bool {
        self.status != 0
    }

    /// The register at `target` as a read sees it this cycle (P3, P12).
    pub fn read(&self, target: Target) -> u32 {
        match target {
            Target::BoxCtl => box_ctl::FREEZE.set(0, u32::from(self.freeze)),
            Target::BoxStatus => u32::from(self.status),
            Target::GstsL => gsts_l::UNITBLOCK_OV.set(0, u32::from(self.gsts)),
            Target::UdisL => udis_l::NUM_CNTR.set(udis_l::RESET, self.cfg.num_counters as u32),
            Target::Const(v) => v,
            Target::Reserved => 0,
            Target::Ctl0(j) => self.counters[j].ctl0,
            Target::Ctl1(j) => self.counters[j].ctl1,
            Target::DataLo(j) => self.counters[j].data as u32,
            Target::DataHi(j) => (self.counters[j].data >> 32) as u32,
        }
    }

    fn check(&self, inp: &PmonInputs) -> Result<(), InputError> {
        let expected = self.cfg.num_events * 8;
        if inp.lanes.len() != expected {
            return Err(InputError::LaneCount { expected, got: inp.lanes.len() });
        }
        if let Some((lane, &value)) = inp.lanes.iter().enumerate().find(|(_, &v)| u32::from(v) >> self.cfg.inc_w != 0) {
            return Err(InputError::LaneValue { lane, value, inc_w: self.cfg.inc_w });
        }
        match inp.bus {
            Some(BusOp::Read { offset } | BusOp::Write { offset, .. }) if offset >= WINDOW_SIZE => {
                Err(InputError::Offset(offset))
            }
            _ => Ok(()),
        }
    }

    /// Run one clock: answer the bus operation from this cycle's registers,
    /// then compute and commit the next state. On an input error nothing
    /// changes.
    pub fn step(&mut self, inp: &PmonInputs) -> Result<BusResult, InputError> {
        self.check(inp)?;
        let mut result = BusResult::default();
        let mut write: Option<(Target, u32)> = None;
        match inp.bus {
            None => {}
            Some(BusOp::Read { offset }) => match regs::decode(offset, self.cfg.num_counters) {
                None => result.slverr = true,
                Some(t) => result.rdata = self.read(t),
            },
            Some(BusOp::Write { offset, data, strb }) => match regs::decode(offset, self.cfg.num_counters) {
                // P1: partial strobes are refused like unmapped offsets.
                _ if strb != 0xf => result.slverr = true,
                None => result.slverr = true,
                Some(t) => write = Some((t, data)),
            },
        }
        let box_write = match write {
            Some((Target::BoxCtl, v)) => Some(v),
            _ => None,
        };
        let rst_ctrl = box_write.is_some_and(|v| box_ctl::RST_CTRL.get(v) != 0);
        let rst_cntr = box_write.is_some_and(|v| box_ctl::RST_CNTR.get(v) != 0);
        let count_en = !self.freeze && !inp.freeze;
        let mut ovf = 0u8;
        let mut frz_req = false;
        let next: Vec<CounterState> = self
            .counters
            .iter()
            .enumerate()
            .map(|(j, c)| {
                let cw = match write {
                    Some((Target::Ctl0(k), v)) if k == j => Some(CounterWrite::Ctl0(v)),
                    Some((Target::Ctl1(k), v)) if k == j => Some(CounterWrite::Ctl1(v)),
                    Some((Target::DataLo(k), v)) if k == j => Some(CounterWrite::DataLo(v)),
                    Some((Target::DataHi(k), v)) if k == j => Some(CounterWrite::DataHi(v)),
                    _ => None,
                };
                let s = c.next(self.events(inp.lanes), &CounterInputs { count_en, rst_ctrl, rst_cntr, write: cw });
                ovf |= u8::from(s.ovf) << j;
                frz_req |= s.frz_req;
                s.next
            })
            .collect();
        let mut freeze = self.freeze;
        let mut status = self.status;
        let mut gsts = self.gsts;
        if let Some((Target::GstsL, v)) = write {
            gsts &= gsts_l::UNITBLOCK_OV.get(v) == 0;
        }
        if let Some(v) = box_write {
            freeze = box_ctl::FREEZE.get(v) != 0;
        }
        if let Some((Target::BoxStatus, v)) = write {
            status &= !(v as u8);
        }
        // P8, P9: the hardware sets win over the same cycle's software write.
        // An overflow with Frz_On_Ov goes to the global status, and the
        // global control's freeze sets this unit's Freeze (P9).
        freeze |= frz_req;
        gsts |= frz_req;
        status |= ovf;
        // Commit.
        self.counters = next;
        self.freeze = freeze;
        self.status = status;
        self.gsts = gsts;
        Ok(result)
    }
}
