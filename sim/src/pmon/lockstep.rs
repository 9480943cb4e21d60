//! PMON RTL and model in lockstep: one bus clock at a time, every
//! MMIO-visible register with state (BOX_CTL, BOX_STATUS, GSTS_L, every
//! counter's CTL0, CTL1, DATA_LO, DATA_HI; the discovery constants are
//! compared by the reads that reach them), `ovf_o`, PRDATA, PSLVERR and
//! PREADY compared every cycle. The RTL's registers come from its flops (csrc/pmon_shim.cpp), the
//! model's from `PmonBox::read`, so both sides are seen as a read would see
//! them (P3, P12). The RTL is optional (`--model-only` scripts).

use std::path::Path;

use pcounter::pmon::regs::{self, Target};
use pcounter::pmon::{PmonBox, PmonConfig, PmonInputs};
use pcounter::{common::bus::BusOp, common::bus::BusResult};

use super::bins::Stats;
use super::cmd::{Cmd, LANES, LANE_BITS};
use super::ffi::{self, Rtl};
use crate::engine::assertion::Assertion;
use crate::engine::compare::{check_read, Diffs, History, RegWave};
use crate::engine::coverage::Coverage;
use crate::engine::device::Lockstep;
use crate::engine::mismatch::Mismatch;
use crate::engine::wave::ExtraTrace;

/// The compared registers of one side, in `reg_names` order.
pub type Regs = Vec<u32>;

/// Names of the compared registers of a box with `n` counters (wave and
/// report names).
pub fn reg_names(n: usize) -> Vec<String> {
    let mut v = vec!["BOX_CTL".to_string(), "BOX_STATUS".to_string(), "GSTS_L".to_string(), "ovf_o".to_string()];
    for j in 0..n {
        for r in ["CTL0", "CTL1", "DATA_LO", "DATA_HI"] {
            v.push(format!("{r}_{j}"));
        }
    }
    v
}

fn model_regs(m: &PmonBox) -> Regs {
    let mut v = vec![m.read(Target::BoxCtl), m.read(Target::BoxStatus), m.read(Target::GstsL), u32::from(m.ovf())];
    for j in 0..m.config().num_counters {
        for t in [Target::Ctl0(j), Target::Ctl1(j), Target::DataLo(j), Target::DataHi(j)] {
            v.push(m.read(t));
        }
    }
    v
}

fn rtl_regs(o: &ffi::Out, n: usize) -> Regs {
    let mut v = vec![o.freeze, o.status, o.gsts, o.ovf];
    for j in 0..n {
        v.extend([o.ctl0[j], o.ctl1[j], o.data_lo[j], o.data_hi[j]]);
    }
    v
}

/// A CTL0 value decoded into its fields, for reports.
fn fields(name: &str, v: u32) -> Option<String> {
    use regs::ctl0 as c;
    name.starts_with("CTL0").then(|| {
        format!(
            "Evnt_Sel={:#x} Umask={:#x} Edge={} Frz_On_Ov={} Invert={} Thresh={:#x}",
            c::EVNT_SEL.get(v),
            c::UMASK.get(v),
            c::EDGE.get(v),
            c::FRZ_ON_OV.get(v),
            c::INVERT.get(v),
            c::THRESH.get(v)
        )
    })
}

/// The bus in one clock: APB SETUP or ACCESS of an operation, or idle.
#[derive(Clone, Copy)]
enum Phase {
    Idle,
    Setup(BusOp),
    Access(BusOp),
}

pub struct PmonLockstep {
    pub model: PmonBox,
    /// Step the model and compare (false: the RTL alone, `pcnt bench`).
    pub model_on: bool,
    rtl: Option<Rtl>,
    names: Vec<String>,
    /// Lane increments held (`events`, `lane`), 4 bits per lane.
    lanes: u128,
    freeze: bool,
    pub cycle: u64,
    keep_going: bool,
    /// An RTL assertion that failed while reset was held: reported as the
    /// first compared clock's failure.
    fired_in_reset: Option<Assertion>,
    history: History,
    pub stats: Stats,
    wave: Option<RegWave>,
}

/// Seed of the RTL's random initial values for scripts.
pub const X_SEED: u32 = 1;

impl PmonLockstep {
    /// A run from reset: the default build (or `fault`'s), or the model
    /// alone when `rtl` is false.
    pub fn new(rtl: bool, fault: Option<&str>, x_seed: u32) -> Result<PmonLockstep, String> {
        let model = PmonBox::new(PmonConfig::default()).map_err(|e| e.to_string())?;
        let n = model.config().num_counters;
        let mut l = PmonLockstep {
            model,
            model_on: true,
            rtl: if rtl { Some(ffi::rtl(fault, x_seed)?) } else { None },
            names: reg_names(n),
            lanes: 0,
            freeze: false,
            cycle: 0,
            keep_going: false,
            fired_in_reset: None,
            history: History::default(),
            stats: Stats::new(n),
            wave: None,
        };
        // Two clocks with rst_ni low; the model starts in its reset state.
        if let Some(r) = &mut l.rtl {
            let words = [0u32; 4];
            let mut i = idle_in(&words);
            i.rst_n = 0;
            l.fired_in_reset = r.cycle(&i).or(r.cycle(&i));
            if r.out.num_counters as usize != n {
                return Err(format!("PMON build {}: {} counters visible, model has {n}", r.name(), r.out.num_counters));
            }
        }
        Ok(l)
    }

    fn lane_vec(&self) -> [u8; LANES] {
        std::array::from_fn(|k| ((self.lanes >> (LANE_BITS as usize * k)) & 0xf) as u8)
    }

    /// One clock on both sides, compared. Returns the model's bus result.
    fn clock(&mut self, phase: Phase) -> Result<BusResult, Box<Mismatch>> {
        let lanes = self.lane_vec();
        let bus = match phase {
            Phase::Access(op) => Some(op),
            _ => None,
        };
        let (before, mut res) = if self.model_on {
            let before = model_regs(&self.model);
            self.stats.count(&self.model, &lanes, self.freeze, bus);
            let res = self
                .model
                .step(&PmonInputs { lanes: &lanes, freeze: self.freeze, bus })
                .expect("PMON stimulus fits the box");
            (before, res)
        } else {
            (Vec::new(), BusResult::default())
        };
        let mut diffs = Diffs::default();
        let mut dut: Option<Regs> = None;
        if let Some(r) = &mut self.rtl {
            let words: [u32; 4] = std::array::from_fn(|w| (self.lanes >> (32 * w)) as u32);
            let mut i = idle_in(&words);
            i.freeze = u32::from(self.freeze);
            if let Phase::Setup(op) | Phase::Access(op) = phase {
                i.psel = 1;
                i.penable = u32::from(matches!(phase, Phase::Access(_)));
                match op {
                    BusOp::Read { offset } => i.paddr = u32::from(offset),
                    BusOp::Write { offset, data, strb } => {
                        (i.pwrite, i.paddr, i.pwdata, i.pstrb) = (1, u32::from(offset), data, u32::from(strb))
                    }
                }
            }
            diffs.1 = self.fired_in_reset.take().or(r.cycle(&i));
            if !self.model_on {
                // The RTL alone: its bus answer stands for the result.
                let o = r.out;
                res = BusResult { rdata: o.prdata, slverr: o.pslverr != 0, ready: o.pready != 0 };
                self.cycle += 1;
                return Ok(res);
            }
            let got = rtl_regs(&r.out, self.model.config().num_counters);
            diffs.regs(&self.names, &before, &got);
            let what = match bus {
                Some(BusOp::Read { offset }) => format!("read {offset:#04x}"),
                Some(BusOp::Write { offset, .. }) => format!("write {offset:#04x}"),
                None => "idle bus".into(),
            };
            let o = r.out;
            let answer = [(res.rdata, o.prdata), (u32::from(res.slverr), o.pslverr), (u32::from(res.ready), o.pready)];
            diffs.bus(&what, answer);
            dut = Some(got);
        }
        if let Some(w) = &mut self.wave {
            w.record(self.cycle, &before, dut.as_deref(), !diffs.is_empty());
        }
        self.cycle += 1;
        if diffs.is_empty() || self.keep_going {
            return Ok(res);
        }
        Err(diffs.mismatch(self.cycle - 1, |w| self.names.iter().any(|n| n == w), fields, &self.history))
    }

    /// Execute one command on both sides. Reads and writes return the
    /// model's result of their ACCESS clock (a write's PSLVERR, P1);
    /// a script's expectation that does not hold is an error too (after
    /// the compare: a lockstep mismatch is reported first).
    pub fn exec(&mut self, cmd: &Cmd) -> Result<Option<BusResult>, Box<Mismatch>> {
        self.history.note(self.cycle, cmd);
        match *cmd {
            Cmd::Write { off, data, strb } => {
                let op = BusOp::Write { offset: off, data, strb };
                self.clock(Phase::Setup(op))?;
                self.clock(Phase::Access(op)).map(Some)
            }
            Cmd::Read { off, expect } => {
                let op = BusOp::Read { offset: off };
                self.clock(Phase::Setup(op))?;
                let r = self.clock(Phase::Access(op))?;
                if let Some(m) = check_read(self.cycle - 1, cmd, expect, r.rdata, r.slverr, &self.history) {
                    return Err(m);
                }
                Ok(Some(r))
            }
            Cmd::Wait { cycles } => {
                for _ in 0..cycles {
                    self.clock(Phase::Idle)?;
                }
                Ok(None)
            }
            Cmd::Events(v) => {
                self.lanes = v;
                Ok(None)
            }
            Cmd::Lane { src, lane, value } => {
                let k = LANE_BITS as usize * (usize::from(src) * 8 + usize::from(lane));
                self.lanes = (self.lanes & !(0xf << k)) | (u128::from(value) << k);
                Ok(None)
            }
            Cmd::Freeze(on) => {
                self.freeze = on;
                Ok(None)
            }
        }
    }
}

fn idle_in(events: &[u32; 4]) -> ffi::In {
    ffi::In {
        rst_n: 1,
        psel: 0,
        penable: 0,
        pwrite: 0,
        paddr: 0,
        pwdata: 0,
        pstrb: 0,
        freeze: 0,
        events: events.as_ptr(),
    }
}

/// PMON as the engine drives a device (`engine::device`).
impl Lockstep for PmonLockstep {
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
        self.stats.coverage()
    }
    fn start_trace(&mut self, rtl_vcd: &Path) -> Result<(), String> {
        if let Some(r) = &mut self.rtl {
            r.trace_open(rtl_vcd)?;
        }
        // ovf_o has a wire per counter (P2).
        let n = self.model.config().num_counters as u32;
        self.wave = Some(RegWave::with_widths(&self.names, |r| if r == "ovf_o" { n } else { 32 }));
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
