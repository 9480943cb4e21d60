//! R10K RTL and model in lockstep: one bus clock at a time, both counters'
//! control and count registers, `irq_o`, PRDATA, PSLVERR and PREADY
//! compared every cycle. The RTL's registers come from its flops
//! (csrc/r10k_shim.cpp), the model's from `R10kUnit::read`, so both sides
//! are seen as a read would see them. The RTL is optional (`--model-only`
//! scripts, and `model_on` off for the bench's RTL-alone row).

use std::path::Path;

use pcounter::r10k::regs::{ctl, Target, Variant, INC_W, NUM_COUNTERS, NUM_SOURCES};
use pcounter::r10k::{Mode, R10kInputs, R10kUnit};
use pcounter::{common::bus::BusOp, common::bus::BusResult};

use super::bins::Stats;
use super::cmd::Cmd;
use super::ffi::{self, Rtl};
use crate::engine::assertion::Assertion;
use crate::engine::compare::{self, check_read, Diffs, History, RegWave};
use crate::engine::coverage::Coverage;
use crate::engine::device::Lockstep;
use crate::engine::mismatch::Mismatch;
use crate::engine::wave::ExtraTrace;

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
    /// An RTL assertion that failed while reset was held: reported as the
    /// first compared clock's failure.
    fired_in_reset: Option<Assertion>,
    history: History,
    pub stats: Stats,
    wave: Option<RegWave>,
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
            rtl: if rtl { Some(ffi::rtl(variant, fault, x_seed)?) } else { None },
            events: 0,
            mode: Mode::KERNEL,
            cycle: 0,
            keep_going: false,
            fired_in_reset: None,
            history: History::default(),
            stats: Stats::default(),
            wave: None,
        };
        // Two clocks with rst_ni low; the model starts in its reset state.
        if let Some(r) = &mut l.rtl {
            let words = [0u32; 3];
            let mut i = idle_in(&words, Mode::KERNEL);
            i.rst_n = 0;
            l.fired_in_reset = r.cycle(&i).or(r.cycle(&i));
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
        let mut diffs = Diffs::default();
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
            diffs.1 = self.fired_in_reset.take().or(r.cycle(&i));
            let o = r.out;
            if !self.model_on {
                // The RTL alone: its bus answer stands for the result.
                res = BusResult { rdata: o.prdata, slverr: o.pslverr != 0, ready: o.pready != 0 };
                self.cycle += 1;
                return Ok(res);
            }
            let got = rtl_regs(&o);
            diffs.regs(&REG_NAMES, &before, &got);
            let what = match bus {
                Some(BusOp::Read { offset }) => format!("read {offset:#04x}"),
                Some(BusOp::Write { offset, .. }) => format!("write {offset:#04x}"),
                None => "idle bus".into(),
            };
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
        let v = self.model.variant();
        let reg = |w: &str| REG_NAMES.contains(&w);
        Err(diffs.mismatch(self.cycle - 1, reg, |w, x| fields(w, x, v), &self.history))
    }

    /// Execute one command on both sides. Reads and writes return the
    /// model's result of their ACCESS clock; a script's expectation that
    /// does not hold is an error too (after the compare: a lockstep
    /// mismatch is reported first).
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
                    let cycle = self.cycle.saturating_sub(1);
                    return Err(compare::expectation(cycle, cmd, u32::from(want), u32::from(got), None, &self.history));
                }
                Ok(None)
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
        // irq_o is one wire (R9).
        self.wave = Some(RegWave::with_widths(&REG_NAMES, |n| if n == "irq_o" { 1 } else { 32 }));
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
