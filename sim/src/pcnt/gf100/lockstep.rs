//! The GF100+ PCOUNTER in lockstep (docs/design/gf100.md 3.4): the
//! Verilated `pcnt_gf100_top` of a preset and the model's `Gf100Pcounter`,
//! one bus clock at a time. Compared after every clock: every domain's
//! register view, every set's and MAIN's (what a read would return in that
//! cycle, docs/semantics.md S25.0), PRDATA, PSLVERR and PREADY.
//! The scenario-script commands run on it unchanged (`script::Target`).

use std::path::Path;

use bitvec::prelude::*;
use pcounter::pcnt::gf100::config::GfConfig;
use pcounter::pcnt::gf100::regs::{self as gregs, GF_NUM_DOM_REGS, GF_NUM_MAIN_REGS, GF_NUM_SET_REGS};
use pcounter::pcnt::gf100::{Gf100Pcounter, GfBusOp, GfCycleInputs};
use pcounter::{common::bus::BusResult, pcnt::domain::Signals};

use super::bins::Stats;
use super::ffi::{self, Rtl};
use crate::engine::assertion::Assertion;
use crate::engine::compare::{Diffs, History, RegWave};
use crate::engine::coverage::Coverage;
use crate::engine::device::Lockstep;
use crate::engine::mismatch::Mismatch;
use crate::engine::wave::ExtraTrace;
use crate::pcnt::axi_mem::AxiMem;
use crate::pcnt::script::{ClockSpec, Cmd, Counter, GlobalInput, Target, GF_MMIO_FIRST};

/// The bus in one clock: APB SETUP or ACCESS of an operation, or idle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Phase {
    Idle,
    Setup(GfBusOp),
    Access(GfBusOp),
}

/// Names of the compared words, in view order, wave-safe (GTKWave reads
/// brackets as bit ranges and dots as scopes): `CTRL_gpc1_0` (GPC 1's
/// domain 0), `SIG_STATUS_3_hub_2`, `SET_CTRL_part0`, `MAIN_RECORD_POS`.
pub fn view_names(cfg: &GfConfig) -> Vec<String> {
    let mut v = Vec::new();
    for dom in 0..cfg.num_domains() {
        let p = cfg.place(dom).expect("flat domain in range");
        let at = match p.kind {
            pcounter::pcnt::gf100::config::SetKind::Hub => format!("hub_{}", p.idx),
            k => format!("{}{}_{}", k.name(), p.unit, p.idx),
        };
        v.extend(gregs::GF_DOM_REGS.iter().map(|r| format!("{}_{at}", crate::pcnt::lockstep::wave_name(r.name))));
    }
    for set in 0..cfg.num_sets() {
        let at = set_label(cfg, set);
        v.extend(gregs::GF_SET_REGS.iter().map(|r| format!("SET_{}_{at}", r.name)));
    }
    v.extend(gregs::GF_MAIN_REGS.iter().map(|r| format!("MAIN_{}", r.name)));
    v
}

fn set_label(cfg: &GfConfig, set: usize) -> String {
    if set < cfg.num_gpc {
        format!("gpc{set}")
    } else if set < cfg.num_gpc + cfg.num_part {
        format!("part{}", set - cfg.num_gpc)
    } else {
        "hub".into()
    }
}

pub struct GfLockstep {
    pub cfg: GfConfig,
    pub preset: String,
    pub model: Gf100Pcounter,
    /// Step the model and compare (false: the RTL alone, benchmarks).
    pub model_on: bool,
    rtl: Option<Rtl>,
    names: Vec<String>,
    sig: Vec<Signals>,
    sig_words: Vec<u32>,
    clock: Vec<ClockSpec>,
    pmc_enable: bool,
    pub cycle: u64,
    keep_going: bool,
    /// An RTL assertion that failed while reset was held: reported as the
    /// first compared clock's failure.
    fired_in_reset: Option<Assertion>,
    history: History,
    pub stats: Stats,
    wave: Option<RegWave>,
    /// Model views of this cycle (flat: domains, sets, MAIN).
    view: Vec<u32>,
    dom_view: Vec<[u32; GF_NUM_DOM_REGS]>,
    set_view: Vec<[u32; GF_NUM_SET_REGS]>,
    main_view: [u32; GF_NUM_MAIN_REGS],
    /// RTL views of this cycle, the same layout.
    dut: Vec<u32>,
    /// Records the model cannot run (`mem` etc. are refused by the parser).
    mem: AxiMem,
}

/// Seed of the RTL's random initial values for scripts.
pub const X_SEED: u32 = crate::pcnt::lockstep::X_SEED;

impl GfLockstep {
    /// A run from reset of `preset` (`fermi`, `kepler`, ...; a fault build
    /// runs on the preset it was built on, whatever `preset` says), or the
    /// model alone when `rtl` is false.
    pub fn new(
        preset: &str,
        rtl: bool,
        fault: Option<&str>,
        clocks: &[(u8, ClockSpec)],
        x_seed: u32,
    ) -> Result<GfLockstep, String> {
        // A fault build is on its own preset (its file's `config:`).
        let preset = fault.and_then(ffi::fault_base).unwrap_or(preset);
        let cfg = GfConfig::preset(preset).map_err(|e| e.to_string())?;
        let n = cfg.num_domains();
        let mut clock = vec![ClockSpec::Ratio { m: 1, n: 1 }; n];
        for &(d, spec) in clocks {
            *clock.get_mut(usize::from(d)).ok_or(format!("clock for domain {d}, but only {n} domain(s)"))? = spec;
        }
        let model = Gf100Pcounter::new(cfg.clone()).map_err(|e| e.to_string())?;
        let words = n * GF_NUM_DOM_REGS + cfg.num_sets() * GF_NUM_SET_REGS + GF_NUM_MAIN_REGS;
        let mut l = GfLockstep {
            names: view_names(&cfg),
            preset: preset.to_string(),
            model,
            model_on: true,
            rtl: if rtl { Some(Rtl::new(preset, fault, x_seed)?) } else { None },
            sig: vec![BitArray::ZERO; n],
            sig_words: vec![0; n * 8],
            clock,
            pmc_enable: true,
            cycle: 0,
            keep_going: false,
            fired_in_reset: None,
            history: History::default(),
            stats: Stats::new(&cfg),
            wave: None,
            view: vec![0; words],
            dom_view: vec![[0; GF_NUM_DOM_REGS]; n],
            set_view: vec![[0; GF_NUM_SET_REGS]; cfg.num_sets()],
            main_view: [0; GF_NUM_MAIN_REGS],
            dut: vec![0; words],
            mem: AxiMem::default(),
            cfg,
        };
        // Two clocks with rst_ni low; the model starts in its reset state.
        if l.rtl.is_some() {
            let mut i = l.idle_in(0);
            i.rst_n = 0;
            for _ in 0..2 {
                let (_, fired) = l.rtl_cycle(&i);
                l.fired_in_reset = l.fired_in_reset.take().or(fired);
            }
        }
        Ok(l)
    }

    fn idle_in(&self, ticks: u64) -> ffi::In {
        ffi::In {
            rst_n: 1,
            pmc_enable: u32::from(self.pmc_enable),
            psel: 0,
            penable: 0,
            pwrite: 0,
            paddr: 0,
            pwdata: 0,
            pstrb: 0,
            dom_tick: [ticks as u32, (ticks >> 32) as u32],
            sig: self.sig_words.as_ptr(),
        }
    }

    /// One clock of the RTL: its bus answer, and the assertion that failed
    /// at the clock's edge if one did.
    fn rtl_cycle(&mut self, i: &ffi::In) -> (BusResult, Option<Assertion>) {
        let n = self.cfg.num_domains() * GF_NUM_DOM_REGS;
        let s = self.cfg.num_sets() * GF_NUM_SET_REGS;
        let (dom, rest) = self.dut.split_at_mut(n);
        let (set, main) = rest.split_at_mut(s);
        let mut o = ffi::Out {
            prdata: 0,
            pready: 0,
            pslverr: 0,
            dom_regs: dom.as_mut_ptr(),
            set_regs: set.as_mut_ptr(),
            main_regs: main.as_mut_ptr(),
        };
        let rtl = self.rtl.as_mut().expect("rtl_cycle with an RTL");
        let fired = rtl.cycle(i, &mut o);
        (BusResult { rdata: o.prdata, slverr: o.pslverr != 0, ready: o.pready != 0 }, fired)
    }

    /// Execute one command (its `run` in the command table).
    pub fn exec(&mut self, cmd: &Cmd) -> Result<Option<BusResult>, Box<Mismatch>> {
        self.history.note(self.cycle, cmd);
        cmd.run(self)
    }

    /// One APB transfer: SETUP, then ACCESS until PREADY (S0, S15).
    pub fn transfer(&mut self, op: GfBusOp) -> Result<BusResult, Box<Mismatch>> {
        self.clock(Phase::Setup(op))?;
        loop {
            let res = self.clock(Phase::Access(op))?;
            if res.ready {
                return Ok(res);
            }
        }
    }

    /// One clock on both sides, compared. Returns the model's bus result.
    fn clock(&mut self, phase: Phase) -> Result<BusResult, Box<Mismatch>> {
        for (d, s) in self.sig.iter().enumerate() {
            self.sig_words[d * 8..d * 8 + 8].copy_from_slice(s.as_raw_slice());
        }
        let bus = match phase {
            Phase::Access(op) => Some(op),
            _ => None,
        };
        let ticks = self.clock.iter().enumerate().fold(0u64, |t, (d, c)| t | u64::from(c.ticks(self.cycle)) << d);
        let mut rtl_res = None;
        let mut fired = self.fired_in_reset.take();
        if self.rtl.is_some() {
            let mut i = self.idle_in(ticks);
            if let Phase::Setup(op) | Phase::Access(op) = phase {
                i.psel = 1;
                i.penable = u32::from(matches!(phase, Phase::Access(_)));
                match op {
                    GfBusOp::Write { paddr, data, strb } => {
                        (i.pwrite, i.paddr, i.pwdata, i.pstrb) = (1, paddr, data, u32::from(strb))
                    }
                    GfBusOp::Read { paddr } => i.paddr = paddr,
                }
            }
            let (res, f) = self.rtl_cycle(&i);
            rtl_res = Some(res);
            fired = fired.or(f);
        }
        if !self.model_on {
            self.cycle += 1;
            return Ok(rtl_res.expect("an engine runs the RTL, the model or both"));
        }
        let inp = GfCycleInputs { sig: &self.sig, bus, ticks, pmc_enable: self.pmc_enable };
        let lockstep = self.rtl.is_some();
        if lockstep || self.wave.is_some() {
            self.model.view(&inp, &mut self.dom_view, &mut self.set_view, &mut self.main_view);
            let words = self.dom_view.iter().flatten().chain(self.set_view.iter().flatten()).chain(&self.main_view);
            for (k, w) in words.enumerate() {
                self.view[k] = *w;
            }
        }
        if lockstep {
            self.stats.count(&self.model, &inp);
        }
        let res = self.model.step(&inp);
        let mut diffs = Diffs(Vec::new(), fired);
        if let Some(r) = rtl_res {
            if self.dut != self.view {
                diffs.regs(&self.names, &self.view, &self.dut);
            }
            let what = match bus {
                Some(GfBusOp::Read { paddr }) => format!("read {:#08x}", GF_MMIO_FIRST + paddr),
                Some(GfBusOp::Write { paddr, .. }) => format!("write {:#08x}", GF_MMIO_FIRST + paddr),
                None => "a cycle without ACCESS".into(),
            };
            let answer = [
                (res.rdata, r.rdata),
                (u32::from(res.slverr), u32::from(r.slverr)),
                (u32::from(res.ready), u32::from(r.ready)),
            ];
            diffs.bus(&what, answer);
        }
        if let Some(w) = &mut self.wave {
            w.record(self.cycle, &self.view, lockstep.then_some(self.dut.as_slice()), !diffs.is_empty());
        }
        self.cycle += 1;
        if diffs.is_empty() || self.keep_going {
            return Ok(res);
        }
        Err(diffs.mismatch(self.cycle - 1, |w| self.names.iter().any(|n| n == w), fields, &self.history))
    }
}

/// A domain register with fields (CTRL, STATE, USER_TRIGGER, FILTER, ...)
/// decoded for reports (docs/design/gf100.md 1.2).
fn fields(name: &str, v: u32) -> Option<String> {
    let r = gregs::GF_DOM_REGS.iter().find(|r| name.starts_with(&format!("{}_", r.name)))?;
    (r.fields.len() > 1)
        .then(|| r.fields.iter().map(|f| format!("{}={:#x}", f.name, f.get(v))).collect::<Vec<_>>().join(" "))
}

impl GfLockstep {
    /// `cmd`'s script expectation against its result `r`: a failure of the
    /// run when unmet (random stimulus has none).
    pub fn expectation(&self, cmd: &Cmd, r: Option<&BusResult>) -> Result<(), Box<Mismatch>> {
        crate::pcnt::script::unmet_expectation(self.cycle, cmd, r, || self.history.to_vec())
    }
}

impl Target for GfLockstep {
    fn write(&mut self, addr: u32, data: u32, strb: u8) -> Result<BusResult, Box<Mismatch>> {
        // The parser only lets GF100 scripts name the GF100 window.
        self.transfer(GfBusOp::Write { paddr: addr.wrapping_sub(GF_MMIO_FIRST) & 0x3_ffff, data, strb })
    }

    fn read(&mut self, addr: u32) -> Result<BusResult, Box<Mismatch>> {
        self.transfer(GfBusOp::Read { paddr: addr.wrapping_sub(GF_MMIO_FIRST) & 0x3_ffff })
    }

    fn idle(&mut self, cycles: u64) -> Result<(), Box<Mismatch>> {
        for _ in 0..cycles {
            self.clock(Phase::Idle)?;
        }
        Ok(())
    }

    fn set_signal(&mut self, dom: u8, sig: u8, value: bool) {
        self.sig[usize::from(dom)].set(usize::from(sig), value);
    }

    /// The S14 backdoor on both sides, before the next clock. GF100
    /// counters are 32 bits (S25.0), the PERIODIC counter 17.
    fn poke(&mut self, dom: u8, counter: Counter, value: u64) {
        let dom = usize::from(dom);
        let width = if counter == Counter::PeriodicCnt { 17 } else { 32 };
        let value = value & ((1u64 << width) - 1);
        let e = &mut self.model.domains[dom].engine;
        let v32 = value as u32; // masked to 32 bits or fewer above
        match counter {
            Counter::Cycles => e.ctr_cycles = value,
            Counter::Event => e.ctr_event = value,
            Counter::Start => e.ctr_start = value,
            Counter::Pre => e.ctr_pre = v32,
            Counter::Stop => e.ctr_stop = v32,
            Counter::ShCycles => e.shadow[pcounter::pcnt::dom_core::shadow::CYCLES] = v32,
            Counter::ShEvent => e.shadow[pcounter::pcnt::dom_core::shadow::EVENT] = v32,
            Counter::ShStart => e.shadow[pcounter::pcnt::dom_core::shadow::START] = v32,
            Counter::ShPre => e.shadow[pcounter::pcnt::dom_core::shadow::PRE] = v32,
            Counter::ShStop => e.shadow[pcounter::pcnt::dom_core::shadow::STOP] = v32,
            Counter::PeriodicCnt => e.periodic_cnt = v32,
            // Refused before a GF100 script runs (no record mode, S25.15).
            Counter::RecCycles | Counter::RecCyclesHi | Counter::RecStop | Counter::RecEv(_) => return,
        }
        if let Some(rtl) = &mut self.rtl {
            let (var, lsb) = counter.rtl_flop();
            rtl.poke(dom, var, lsb, width, value).unwrap_or_else(|e| panic!("RTL backdoor: {e}"));
        }
    }

    /// The parser refuses `pulse` for GF100 (no PGRAPH inputs, S25.0).
    fn pulse(&mut self, _input: &GlobalInput, _cycles: u32) {}

    /// The parser refuses `mem` for GF100 (no record memory, S25.15).
    fn mem_word(&mut self, _addr: u64) -> Result<u32, Box<Mismatch>> {
        Ok(0)
    }

    fn mem(&mut self) -> &mut AxiMem {
        &mut self.mem
    }

    fn pmc_enable(&mut self, on: bool) {
        self.pmc_enable = on;
    }
}

/// GF100 as the engine drives a device (`engine::device`).
impl Lockstep for GfLockstep {
    type Cmd = Cmd;

    fn exec_cmd(&mut self, cmd: &Cmd) -> Result<(), Box<Mismatch>> {
        let r = self.exec(cmd)?;
        self.expectation(cmd, r.as_ref())
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
        self.wave = Some(RegWave::new(&self.names));
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
