//! The toy's Verilated RTL (the `toy_<config>` builds sim/build.rs makes
//! from tests/toy/device.toml) and its lockstep with the model: CTRL, COUNT
//! and PRDATA, PSLVERR, PREADY compared every bus clock.

use std::path::Path;

use pcounter::{common::bus::BusOp, common::bus::BusResult};

use super::cmd::Cmd;
use super::model::{ToyCounter, COUNT};
use crate::engine::assertion::Assertion;
use crate::engine::compare::{check_read, Diffs, History, RegWave};
use crate::engine::coverage::{BinDecl, Coverage};
use crate::engine::device::Lockstep;
use crate::engine::mismatch::Mismatch;
use crate::engine::verilated;
use crate::engine::wave::ExtraTrace;

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct In {
    pub rst_n: u32,
    pub psel: u32,
    pub penable: u32,
    pub pwrite: u32,
    pub paddr: u32,
    pub pwdata: u32,
    pub pstrb: u32,
    pub event: u32,
}

#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Out {
    pub prdata: u32,
    pub pready: u32,
    pub pslverr: u32,
    pub ctrl: u32,
    pub count: u32,
    pub found: u32,
}

/// A toy build (sim/build.rs `toy_models.rs`).
pub type DevFns = verilated::DevFns<In, Out>;

include!(concat!(env!("OUT_DIR"), "/toy_models.rs"));

/// The toy's injected-fault builds (tests/toy/faults/).
pub fn faults() -> Vec<&'static str> {
    verilated::faults(MODELS)
}

type Rtl = verilated::Model<In, Out>;

/// Run counts for the toy's bins (tests/toy/plan.md).
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub counting: u64,
    pub event_disabled: u64,
    pub wrap: u64,
    pub write_wins: u64,
    pub slverr: u64,
}

pub static BINS: &[BinDecl<Stats>] = &[
    BinDecl { name: "toy.count", count: |s, out| out("toy.count".into(), s.counting) },
    BinDecl { name: "toy.event_disabled", count: |s, out| out("toy.event_disabled".into(), s.event_disabled) },
    BinDecl { name: "toy.wrap", count: |s, out| out("toy.wrap".into(), s.wrap) },
    BinDecl { name: "toy.write_wins", count: |s, out| out("toy.write_wins".into(), s.write_wins) },
    BinDecl { name: "toy.bus.slverr", count: |s, out| out("toy.bus.slverr".into(), s.slverr) },
];

const NAMES: [&str; 2] = ["CTRL", "COUNT"];

pub struct ToyLockstep {
    pub model: ToyCounter,
    pub model_on: bool,
    rtl: Option<Rtl>,
    event: bool,
    pub cycle: u64,
    keep_going: bool,
    fired_in_reset: Option<Assertion>,
    history: History,
    pub stats: Stats,
    wave: Option<RegWave>,
}

/// Seed of the RTL's random initial values for scripts.
pub const X_SEED: u32 = 1;

impl ToyLockstep {
    pub fn new(rtl: bool, fault: Option<&str>, x_seed: u32) -> Result<ToyLockstep, String> {
        let mut l = ToyLockstep {
            model: ToyCounter::default(),
            model_on: true,
            rtl: if rtl { Some(Rtl::open(verilated::find(MODELS, "TOY", fault, None)?, x_seed)) } else { None },
            event: false,
            cycle: 0,
            keep_going: false,
            fired_in_reset: None,
            history: History::default(),
            stats: Stats::default(),
            wave: None,
        };
        if let Some(r) = &mut l.rtl {
            let i = In::default();
            l.fired_in_reset = r.cycle(&i).or(r.cycle(&i));
            if r.out.found == 0 {
                return Err(format!("TOY build {}: its register flops are not visible", r.name()));
            }
        }
        Ok(l)
    }

    /// One clock on both sides, compared; `access` is the ACCESS-cycle
    /// operation, `setup` the SETUP one.
    fn clock(&mut self, setup: Option<BusOp>, access: Option<BusOp>) -> Result<BusResult, Box<Mismatch>> {
        let m = &self.model;
        let before = vec![u32::from(m.en), m.count];
        let mut res = BusResult::default();
        if self.model_on {
            let s = &mut self.stats;
            s.counting += u64::from(m.en && self.event);
            s.event_disabled += u64::from(!m.en && self.event);
            s.wrap += u64::from(m.en && self.event && m.count == u32::MAX);
            let count_write = matches!(access, Some(BusOp::Write { offset: COUNT, strb: 0xf, .. }));
            s.write_wins += u64::from(count_write && m.en && self.event);
            res = self.model.step(self.event, access);
            s.slverr += u64::from(res.slverr);
        }
        let mut diffs = Diffs::default();
        let mut dut = None;
        if let Some(r) = &mut self.rtl {
            let mut i = In { rst_n: 1, event: u32::from(self.event), ..In::default() };
            if let Some(op) = access.or(setup) {
                (i.psel, i.penable) = (1, u32::from(access.is_some()));
                match op {
                    BusOp::Read { offset } => i.paddr = u32::from(offset),
                    BusOp::Write { offset, data, strb } => {
                        (i.pwrite, i.paddr, i.pwdata, i.pstrb) = (1, u32::from(offset), data, u32::from(strb))
                    }
                }
            }
            diffs.1 = self.fired_in_reset.take().or(r.cycle(&i));
            let o = r.out;
            if !self.model_on {
                self.cycle += 1;
                return Ok(BusResult { rdata: o.prdata, slverr: o.pslverr != 0, ready: o.pready != 0 });
            }
            let got = vec![o.ctrl, o.count];
            diffs.regs(&NAMES, &before, &got);
            let what = match access {
                Some(BusOp::Read { offset }) => format!("read {offset:#03x}"),
                Some(BusOp::Write { offset, .. }) => format!("write {offset:#03x}"),
                None => "no access".into(),
            };
            diffs.bus(
                &what,
                [(res.rdata, o.prdata), (u32::from(res.slverr), o.pslverr), (u32::from(res.ready), o.pready)],
            );
            dut = Some(got);
        }
        if let Some(w) = &mut self.wave {
            w.record(self.cycle, &before, dut.as_deref(), !diffs.is_empty());
        }
        self.cycle += 1;
        if diffs.is_empty() || self.keep_going {
            return Ok(res);
        }
        Err(diffs.mismatch(self.cycle - 1, |w| NAMES.contains(&w), |_, _| None, &self.history))
    }
}

impl ToyLockstep {
    /// Execute one command on both sides; a read or write returns the
    /// model's answer of its ACCESS clock.
    pub fn exec(&mut self, cmd: &Cmd) -> Result<Option<BusResult>, Box<Mismatch>> {
        self.history.note(self.cycle, cmd);
        match *cmd {
            Cmd::Write { off, data, strb } => {
                let op = BusOp::Write { offset: off, data, strb };
                self.clock(Some(op), None)?;
                self.clock(None, Some(op)).map(Some)
            }
            Cmd::Read { off, expect } => {
                let op = BusOp::Read { offset: off };
                self.clock(Some(op), None)?;
                let r = self.clock(None, Some(op))?;
                match check_read(self.cycle - 1, cmd, expect, r.rdata, r.slverr, &self.history) {
                    Some(m) => Err(m),
                    None => Ok(Some(r)),
                }
            }
            Cmd::Wait { cycles } => (0..cycles).try_for_each(|_| self.clock(None, None).map(drop)).map(|()| None),
            Cmd::Event(on) => {
                self.event = on;
                Ok(None)
            }
        }
    }
}

impl Lockstep for ToyLockstep {
    type Cmd = Cmd;

    fn exec_cmd(&mut self, cmd: &Cmd) -> Result<(), Box<Mismatch>> {
        self.exec(cmd).map(drop)
    }
    fn finish_run(&self) -> Result<(), Box<Mismatch>> {
        Ok(())
    }
    fn cycles(&self) -> u64 {
        self.cycle
    }
    fn run_coverage(&self) -> Coverage {
        Coverage::of(BINS, &self.stats)
    }
    fn start_trace(&mut self, rtl_vcd: &Path) -> Result<(), String> {
        if let Some(r) = &mut self.rtl {
            r.trace_open(rtl_vcd)?;
        }
        self.wave = Some(RegWave::new(&NAMES));
        Ok(())
    }
    fn take_trace(&mut self) -> Option<ExtraTrace> {
        if let Some(r) = &mut self.rtl {
            r.trace_close();
        }
        self.wave.take().map(RegWave::into_trace)
    }
    fn keep_going(&mut self) {
        self.keep_going = true;
    }
}
