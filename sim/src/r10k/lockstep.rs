//! R10K RTL and model in lockstep: one bus clock at a time, both counters'
//! control and count registers, `irq_o`, PRDATA, PSLVERR and PREADY
//! compared every cycle. The RTL's registers come from its flops
//! (csrc/r10k_shim.cpp), the model's from `R10kUnit::read`, so both sides
//! are seen as a read would see them. The RTL is optional (`--model-only`
//! scripts, and `model_on` off for the bench's RTL-alone row).

use std::collections::VecDeque;
use std::path::Path;

use pcounter::r10k::regs::{ctl, Target, Variant, INC_W, NUM_COUNTERS, NUM_SOURCES};
use pcounter::r10k::{Mode, R10kInputs, R10kUnit};
use pcounter::{BusOp, BusResult};

use super::bins::Stats;
use super::cmd::{Cmd, Expect};
use super::ffi::{self, Rtl};
use crate::engine::coverage::Coverage;
use crate::engine::device::Lockstep;
use crate::engine::mismatch::Mismatch;
use crate::engine::wave::{ExtraSignal, ExtraTrace};

/// Stimulus commands kept for a mismatch report.
const HISTORY: usize = 16;

/// Names of the compared registers (wave and report names).
pub const REG_NAMES: [&str; 5] = ["CTL0", "CNT0", "CTL1", "CNT1", "irq_o"];

fn model_regs(m: &R10kUnit) -> Vec<u32> {
    let mut v = Vec::new();
    for j in 0..NUM_COUNTERS {
        v.extend([m.read(Target::Ctl(j)), m.read(Target::Cnt(j))]);
    }
    v.push(u32::from(m.irq()));
    v
}

fn rtl_regs(o: &ffi::Out) -> Vec<u32> {
    vec![o.ctl[0], o.cnt[0], o.ctl[1], o.cnt[1], o.irq]
}

/// A control value decoded into its fields, for reports.
fn fields(name: &str, v: u32, variant: Variant) -> Option<String> {
    name.starts_with("CTL").then(|| {
        format!(
            "Event={} IE={} U={} S={} K={} EXL={}",
            variant.event_field().get(v),
            ctl::IE.get(v),
            ctl::U.get(v),
            ctl::S.get(v),
            ctl::K.get(v),
            ctl::EXL.get(v)
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

struct WaveRec {
    trace: ExtraTrace,
    last: Vec<Option<u64>>,
}

pub struct R10kLockstep {
    pub model: R10kUnit,
    /// Step the model and compare (false: the RTL alone, `pcnt bench`).
    pub model_on: bool,
    rtl: Option<Rtl>,
    /// Source increments held (`events`, `event`), 3 bits per source.
    events: u128,
    mode: Mode,
    pub cycle: u64,
    keep_going: bool,
    history: VecDeque<(u64, String)>,
    pub stats: Stats,
    wave: Option<WaveRec>,
}

/// Seed of the RTL's random initial values for scripts.
pub const X_SEED: u32 = 1;

impl R10kLockstep {
    /// A run from reset: the build of `variant` (or `fault`'s), or the model
    /// alone when `rtl` is false.
    pub fn new(variant: Variant, rtl: bool, fault: Option<&str>, x_seed: u32) -> Result<R10kLockstep, String> {
        let mut l = R10kLockstep {
            model: R10kUnit::new(variant),
            model_on: true,
            rtl: if rtl { Some(Rtl::new(variant, fault, x_seed)?) } else { None },
            events: 0,
            mode: Mode::KERNEL,
            cycle: 0,
            keep_going: false,
            history: VecDeque::new(),
            stats: Stats::default(),
            wave: None,
        };
        // Two clocks with rst_ni low; the model starts in its reset state.
        if let Some(r) = &mut l.rtl {
            let words = [0u32; 3];
            let mut i = idle_in(&words, Mode::KERNEL);
            i.rst_n = 0;
            r.cycle(&i);
            r.cycle(&i);
            if r.out.num_counters as usize != NUM_COUNTERS {
                return Err(format!("R10K build {}: {} counters visible", r.name(), r.out.num_counters));
            }
        }
        Ok(l)
    }

    fn event_vec(&self) -> [u8; NUM_SOURCES] {
        std::array::from_fn(|s| ((self.events >> (INC_W as usize * s)) & 7) as u8)
    }

    /// One clock on both sides, compared. Returns the model's bus result.
    fn clock(&mut self, phase: Phase) -> Result<BusResult, Box<Mismatch>> {
        let events = self.event_vec();
        let bus = match phase {
            Phase::Access(op) => Some(op),
            _ => None,
        };
        let (before, mut res) = if self.model_on {
            let before = model_regs(&self.model);
            self.stats.count(&self.model, &events, self.mode, bus);
            let res = self
                .model
                .step(&R10kInputs { events: &events, mode: self.mode, bus })
                .expect("R10K stimulus fits the unit");
            (before, res)
        } else {
            (Vec::new(), BusResult::default())
        };
        let mut diffs: Vec<(String, u32, u32)> = Vec::new();
        let mut dut = None;
        if let Some(r) = &mut self.rtl {
            let words: [u32; 3] = std::array::from_fn(|w| (self.events >> (32 * w)) as u32);
            let mut i = idle_in(&words, self.mode);
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
            r.cycle(&i);
            let o = r.out;
            if !self.model_on {
                // The RTL alone: its bus answer stands for the result.
                res = BusResult { rdata: o.prdata, slverr: o.pslverr != 0, ready: o.pready != 0 };
                self.cycle += 1;
                return Ok(res);
            }
            let got = rtl_regs(&o);
            for (k, (e, a)) in before.iter().zip(&got).enumerate() {
                if e != a {
                    diffs.push((REG_NAMES[k].to_string(), *e, *a));
                }
            }
            let what = match bus {
                Some(BusOp::Read { offset }) => format!("read {offset:#04x}"),
                Some(BusOp::Write { offset, .. }) => format!("write {offset:#04x}"),
                None => "idle bus".into(),
            };
            for (sig, e, a) in [
                ("PRDATA", res.rdata, o.prdata),
                ("PSLVERR", u32::from(res.slverr), o.pslverr),
                ("PREADY", u32::from(res.ready), o.pready),
            ] {
                if e != a {
                    diffs.push((format!("{sig} of {what}"), e, a));
                }
            }
            dut = Some(got);
        }
        self.record_wave(&before, dut.as_deref(), !diffs.is_empty());
        self.cycle += 1;
        if diffs.is_empty() || self.keep_going {
            return Ok(res);
        }
        let (what, e, a) = diffs[0].clone();
        let reg = REG_NAMES.contains(&what.as_str());
        let v = self.model.variant();
        Err(Box::new(Mismatch {
            cycle: self.cycle - 1,
            scope: reg.then(|| "regs".to_string()),
            fields: fields(&what, e, v).zip(fields(&what, a, v)),
            wave_reg: reg.then(|| what.clone()),
            what,
            expected: e,
            actual: a,
            also: diffs[1..].iter().map(|d| d.0.clone()).collect(),
            history: self.history.iter().cloned().collect(),
        }))
    }

    fn note(&mut self, cmd: &Cmd) {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back((self.cycle, cmd.to_string()));
    }

    fn expectation(&self, cmd: &Cmd, expected: u32, actual: u32, fields: Option<(String, String)>) -> Box<Mismatch> {
        Box::new(Mismatch {
            cycle: self.cycle.saturating_sub(1),
            scope: None,
            what: format!("script expectation of `{cmd}`"),
            expected,
            actual,
            fields,
            wave_reg: None,
            also: Vec::new(),
            history: self.history.iter().cloned().collect(),
        })
    }

    /// Execute one command on both sides. Reads and writes return the
    /// model's result of their ACCESS clock; a script's expectation that
    /// does not hold is an error too (after the compare: a lockstep
    /// mismatch is reported first).
    pub fn exec(&mut self, cmd: &Cmd) -> Result<Option<BusResult>, Box<Mismatch>> {
        self.note(cmd);
        match *cmd {
            Cmd::Write { off, data, strb } => {
                let op = BusOp::Write { offset: u16::from(off), data, strb };
                self.clock(Phase::Setup(op))?;
                self.clock(Phase::Access(op)).map(Some)
            }
            Cmd::Read { off, expect } => {
                let op = BusOp::Read { offset: u16::from(off) };
                self.clock(Phase::Setup(op))?;
                let r = self.clock(Phase::Access(op))?;
                let ok = match expect {
                    None => true,
                    Some(Expect::Err) => r.slverr,
                    Some(Expect::Value(v)) => !r.slverr && r.rdata == v,
                };
                if !ok {
                    let e = match expect {
                        Some(Expect::Value(v)) => v,
                        _ => 0,
                    };
                    let f = r.slverr.then(|| ("a value".to_string(), "PSLVERR".to_string()));
                    return Err(self.expectation(cmd, e, r.rdata, f));
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
                self.events = v;
                Ok(None)
            }
            Cmd::Event { src, value } => {
                let k = INC_W as usize * usize::from(src);
                self.events = (self.events & !(7 << k)) | (u128::from(value) << k);
                Ok(None)
            }
            Cmd::Mode(m) => {
                self.mode = m;
                Ok(None)
            }
            // irq_o is a level from flops (R9): the state between two clocks
            // is the coming cycle's; the RTL's irq_o is compared with it on
            // that clock.
            Cmd::Irq(want) => {
                let got = self.model.irq();
                if got != want {
                    return Err(self.expectation(cmd, u32::from(want), u32::from(got), None));
                }
                Ok(None)
            }
        }
    }

    fn record_wave(&mut self, model: &[u32], dut: Option<&[u32]>, mismatch: bool) {
        let Some(w) = &mut self.wave else { return };
        let t = self.cycle * 10;
        let mut vals = vec![u64::from(mismatch), self.cycle & 0xffff_ffff];
        for (k, m) in model.iter().enumerate() {
            vals.push(dut.map_or(0, |d| u64::from(d[k])));
            vals.push(u64::from(*m));
        }
        for (i, v) in vals.into_iter().enumerate() {
            if w.last[i] != Some(v) {
                w.trace.changes.push((t, i, v));
                w.last[i] = Some(v);
            }
        }
    }
}

fn idle_in(events: &[u32; 3], m: Mode) -> ffi::In {
    ffi::In {
        rst_n: 1,
        psel: 0,
        penable: 0,
        pwrite: 0,
        paddr: 0,
        pwdata: 0,
        pstrb: 0,
        ksu: u32::from(m.ksu),
        exl: u32::from(m.exl),
        erl: u32::from(m.erl),
        events: events.as_ptr(),
    }
}

/// R10K as the engine drives a device (`engine::device`).
impl Lockstep for R10kLockstep {
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
        let mut signals = vec![
            ExtraSignal { scope: vec![], name: "mismatch".into(), width: 1 },
            ExtraSignal { scope: vec![], name: "cycle".into(), width: 32 },
        ];
        for n in REG_NAMES {
            for side in ["dut", "model"] {
                signals.push(ExtraSignal { scope: vec!["regs".into()], name: format!("{n}_{side}"), width: 32 });
            }
        }
        let last = vec![None; signals.len()];
        self.wave = Some(WaveRec { trace: ExtraTrace { signals, changes: Vec::new() }, last });
        Ok(())
    }
    fn take_trace(&mut self) -> Option<ExtraTrace> {
        if let Some(r) = &mut self.rtl {
            r.trace_close();
        }
        self.wave.take().map(|w| w.trace)
    }
    fn keep_going(&mut self) {
        self.keep_going = true;
    }
}
