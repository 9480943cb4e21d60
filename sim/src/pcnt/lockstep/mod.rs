//! The lockstep engine: executes scenario-script commands on the Verilated RTL
//! and the model at once, one bus clock at a time, and compares after every
//! clock (docs/semantics.md S11): the whole register view of every domain and
//! the global registers, and PRDATA/PSLVERR/PREADY of every APB access.
//!
//! APB timing (S0, S1): `write`/`read` take two clocks, SETUP then ACCESS; the
//! operation takes effect in the ACCESS clock. `set` changes a signal from the
//! next clock on; `pulse` raises a global input for exactly the next clock.

use std::collections::VecDeque;

use bitvec::prelude::*;
use pcounter::pcnt::dom_core::shadow;
use pcounter::pcnt::record::{self};
use pcounter::pcnt::regs::{self, Gen, NUM_DOM_REGS};
use pcounter::{
    common::bus::BusOp, common::bus::BusResult, pcnt::config::Config, pcnt::domain::Signals, pcnt::top::CycleInputs,
    pcnt::top::PcounterSet,
};

use crate::engine::assertion::Assertion;
pub use crate::engine::mismatch::Mismatch;
use crate::engine::wave::{ExtraSignal, ExtraTrace};
use crate::pcnt::axi_mem::AxiMem;
use crate::pcnt::ffi::{PcntIn, Rtl};
use crate::pcnt::script::{ClockSpec, Cmd, Counter, GlobalInput, Target};

mod bins;
mod bins_nv10;
mod compare;

pub use bins::{Stats, BINS, RECORD_EVENTS, SYNC_EVENTS};

/// Initial-value seed of the RTL for scripts (random runs use their seed).
pub const X_SEED: u32 = 0x5eed;

/// How many stimulus events a mismatch report shows.
pub const HISTORY: usize = 20;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Apb {
    Idle,
    Setup(BusOp),
    Access(BusOp),
}

/// A domain's state before a step, for the reach counts.
#[derive(Clone, Copy, Default)]
struct Before {
    single: usize,
    quad: u8,
    imported: (u8, u8, bool, bool),
    /// Undelivered PM_TRIGGER pulses and the most undelivered edges of any
    /// PULSE import synchronizer (S22), before the tick.
    pm_pending: u8,
    import_pending: u8,
    spec_src: u32,
    /// CTR_CYCLES, CTR_EVENT, CTR_START and FLAG before the tick (S24 reach counts).
    wide: [u64; 3],
    flag: bool,
}

/// Records DUT and model register values for the wave file.
struct WaveRec {
    start: u64,
    trace: ExtraTrace,
    last: Vec<Option<u64>>,
}

/// Signal indices inside the wave record.
const W_MISMATCH: usize = 0;
const W_CYCLE: usize = 1;

pub struct Engine {
    cfg: Config,
    /// The named signal layout the configuration came from (reach counts).
    pub layout: pcounter::pcnt::config::Layout,
    model: PcounterSet,
    rtl: Option<Rtl>,
    sig: Vec<Signals>,
    sig_words: Vec<u32>,
    sig_dirty: bool,
    /// Clocks left of the current `pulse` on each global input.
    pm_trigger: u32,
    wrcache_flush: u32,
    /// Bus clocks run since reset.
    pub cycle: u64,
    /// Formatted only when a mismatch is reported (the hot path stores commands).
    history: VecDeque<(u64, Cmd)>,
    view: Vec<[u32; NUM_DOM_REGS]>,
    wave: Option<WaveRec>,
    /// Keep running after a mismatch (used while recording waves).
    pub continue_on_mismatch: bool,
    pub stats: Stats,
    /// Tick pattern of each domain (S15).
    clock: Vec<ClockSpec>,
    /// False: the RTL runs alone, no model and no compare (benchmarks only).
    pub model_on: bool,
    /// The record-mode memory (S21).
    pub mem: AxiMem,
    /// (wedged, FAULT) bit masks of the last cycle, for the reach counts.
    rec_masks: (u8, u8),
    /// Packets the model sent (cycle, domain, packet), when enabled
    /// (`pcnt script --packets`, `pcnt record-dump`).
    pub packets: Option<Vec<(u64, usize, record::Packet)>>,
    /// Harness self-test: at this cycle, flip bit 0 of the RTL's CTR_CYCLES
    /// flop of domain 0 (not the model's), a divergence the compare must
    /// report in that very cycle.
    pub corrupt_at: Option<u64>,
    /// Per domain and 40-bit counter: the HI view of the cycle its LO part
    /// was last read (the torn-read reach count, S24).
    lo_hi: [[Option<u32>; 3]; 8],
    /// An RTL assertion that failed while reset was held (before the first
    /// compared clock): reported as that clock's failure.
    fired_in_reset: Option<Assertion>,
}

impl Engine {
    /// `rtl = false` runs the model alone (`--model-only`).
    /// `clocks`: per-domain tick patterns (S15); domains not listed tick every cycle.
    pub fn new(
        gen: Gen,
        domains: usize,
        rtl: bool,
        fault: Option<&str>,
        clocks: &[(u8, ClockSpec)],
    ) -> Result<Engine, String> {
        Engine::new_seeded(gen, domains, rtl, fault, clocks, X_SEED)
    }

    /// [`Engine::new`] with the RTL's initial-value seed (see [`Rtl::new`]).
    pub fn new_seeded(
        gen: Gen,
        domains: usize,
        rtl: bool,
        fault: Option<&str>,
        clocks: &[(u8, ClockSpec)],
        x_seed: u32,
    ) -> Result<Engine, String> {
        let cfg = Config::new(gen, domains).map_err(|e| e.to_string())?;
        Engine::with_config(cfg, rtl, fault, clocks, x_seed)
    }

    /// [`Engine::new_seeded`] for any model configuration (e.g. StrictDecode
    /// off, S8); the RTL build must match it.
    pub fn with_config(
        cfg: Config,
        rtl: bool,
        fault: Option<&str>,
        clocks: &[(u8, ClockSpec)],
        x_seed: u32,
    ) -> Result<Engine, String> {
        let domains = cfg.num_domains;
        let mut clock = vec![ClockSpec::Ratio { m: 1, n: 1 }; domains];
        for &(d, spec) in clocks {
            *clock.get_mut(usize::from(d)).ok_or(format!("clock for domain {d}, but only {domains} domain(s)"))? = spec;
        }
        let model = PcounterSet::new(cfg.clone()).map_err(|e| e.to_string())?;
        let rtl = if rtl { Some(Rtl::new(&cfg, fault, x_seed)?) } else { None };
        let mut e = Engine {
            layout: pcounter::pcnt::config::Layout::Default,
            cfg,
            model,
            rtl,
            sig: vec![BitArray::ZERO; domains],
            sig_words: vec![0; domains * 8],
            sig_dirty: false,
            pm_trigger: 0,
            wrcache_flush: 0,
            cycle: 0,
            history: VecDeque::with_capacity(HISTORY + 1),
            view: vec![[0; NUM_DOM_REGS]; domains],
            wave: None,
            continue_on_mismatch: false,
            stats: Stats::default(),
            clock,
            model_on: true,
            mem: AxiMem::default(),
            rec_masks: (0, 0),
            lo_hi: [[None; 3]; 8],
            packets: None,
            corrupt_at: None,
            fired_in_reset: None,
        };
        e.reset_rtl();
        Ok(e)
    }

    /// Two clocks with rst_ni low; the model starts in its reset state (S8).
    fn reset_rtl(&mut self) {
        if let Some(rtl) = &mut self.rtl {
            let mut i = idle_in(self.cfg.gen);
            i.rst_n = 0;
            for _ in 0..2 {
                let fired = rtl.cycle(&i, &self.sig_words);
                self.fired_in_reset = self.fired_in_reset.take().or(fired);
            }
        }
    }

    /// Start recording waves: the RTL's VCD goes to `rtl_vcd`, DUT/model
    /// register values are kept for `take_wave`.
    pub fn start_wave(&mut self, rtl_vcd: Option<&std::path::Path>) -> Result<(), String> {
        if let (Some(rtl), Some(p)) = (&mut self.rtl, rtl_vcd) {
            rtl.trace_open(p)?;
        }
        let mut signals = vec![
            ExtraSignal { scope: vec![], name: "mismatch".into(), width: 1 },
            ExtraSignal { scope: vec![], name: "cycle".into(), width: 32 },
        ];
        for dom in 0..self.cfg.num_domains {
            for r in regs::DOM_REGS.iter() {
                for side in ["dut", "model"] {
                    signals.push(ExtraSignal {
                        scope: vec![format!("dom{dom}")],
                        name: format!("{}_{side}", wave_name(r.name)),
                        width: 32,
                    });
                }
            }
        }
        for r in regs::GLOBAL_REGS.iter() {
            for side in ["dut", "model"] {
                signals.push(ExtraSignal {
                    scope: vec!["global".into()],
                    name: format!("{}_{side}", r.name),
                    width: 32,
                });
            }
        }
        let n = signals.len();
        self.wave = Some(WaveRec {
            start: self.cycle,
            trace: ExtraTrace { signals, changes: Vec::new() },
            last: vec![None; n],
        });
        Ok(())
    }

    /// Stop recording; returns the DUT/model trace (times = 10 * cycle, as the
    /// RTL VCD) after closing the RTL VCD.
    pub fn take_wave(&mut self) -> Option<(u64, ExtraTrace)> {
        if let Some(rtl) = &mut self.rtl {
            rtl.trace_close();
        }
        self.wave.take().map(|w| (w.start, w.trace))
    }

    fn note(&mut self, cmd: &Cmd) {
        if self.history.len() == HISTORY {
            self.history.pop_front();
        }
        self.history.push_back((self.cycle, cmd.clone()));
    }

    /// Execute one command (its `run` in the command table, on this
    /// engine's primitives). Returns the bus result of reads.
    pub fn exec(&mut self, cmd: &Cmd) -> Result<Option<BusResult>, Box<Mismatch>> {
        self.note(cmd);
        cmd.run(self)
    }

    /// `cmd`'s script expectation against its result `r`: a failure of the
    /// run when unmet (random stimulus has none).
    pub fn expectation(&self, cmd: &Cmd, r: Option<&BusResult>) -> Result<(), Box<Mismatch>> {
        crate::pcnt::script::unmet_expectation(self.cycle, cmd, r, || self.history_vec())
    }

    /// The recent commands, for a failure report.
    fn history_vec(&self) -> Vec<(u64, String)> {
        self.history.iter().map(|(c, cmd)| (*c, cmd.to_string())).collect()
    }

    /// A mismatch outside the register compare (memory, end of run).
    fn mismatch(&self, what: String, expected: u32, actual: u32) -> Mismatch {
        Mismatch {
            cycle: self.cycle,
            scope: None,
            what,
            expected,
            actual,
            fields: None,
            wave_reg: None,
            also: Vec::new(),
            history: self.history_vec(),
            assertion: None,
            expectation: false,
        }
    }

    /// End of a run: the RTL's and the model's memory images must be equal
    /// (S21).
    pub fn finish(&self) -> Result<(), Box<Mismatch>> {
        if self.rtl.is_none() || !self.model_on {
            return Ok(());
        }
        match self.mem.first_difference() {
            None => Ok(()),
            Some((addr, model, rtl)) => Err(Box::new(self.mismatch(
                format!("memory image at end of run, line {addr:#012x}: model {model:#034x}, RTL {rtl:#034x}"),
                model as u32,
                rtl as u32,
            ))),
        }
    }

    /// One bus clock on both sides, then compare.
    fn clock(&mut self, apb: Apb) -> Result<BusResult, Box<Mismatch>> {
        if self.corrupt_at == Some(self.cycle) {
            let flipped = !self.model.domains[0].core.ctr_cycles & 1;
            if let Some(rtl) = &mut self.rtl {
                rtl.poke(0, "u_core.ctr_cycles_q", 0, 1, flipped).unwrap_or_else(|e| panic!("RTL backdoor: {e}"));
            }
        }
        if self.sig_dirty {
            for (d, s) in self.sig.iter().enumerate() {
                self.sig_words[d * 8..d * 8 + 8].copy_from_slice(s.as_raw_slice());
            }
            self.sig_dirty = false;
        }
        let (pm_trigger, wrcache_flush) = (self.pm_trigger > 0, self.wrcache_flush > 0);
        let bus = match apb {
            Apb::Access(op) => Some(op),
            _ => None,
        };
        let ticks = self.clock.iter().enumerate().fold(0u8, |t, (d, c)| t | u8::from(c.ticks(self.cycle)) << d);
        let axi = self.mem.inputs();
        let inp = CycleInputs { sig: &self.sig, pm_trigger, wrcache_flush, bus, ticks, axi };
        let mut fired = self.fired_in_reset.take();
        if let Some(rtl) = &mut self.rtl {
            let mut i = idle_in(self.cfg.gen);
            i.awready = u32::from(axi.awready);
            i.wready = u32::from(axi.wready);
            i.bvalid = u32::from(axi.bvalid);
            i.bresp = u32::from(axi.bresp);
            i.dom_tick = u32::from(ticks);
            i.pm_trigger = u32::from(pm_trigger);
            i.wrcache_flush = u32::from(wrcache_flush);
            if let Apb::Setup(op) | Apb::Access(op) = apb {
                i.psel = 1;
                i.penable = u32::from(matches!(apb, Apb::Access(_)));
                match op {
                    BusOp::Write { offset, data, strb } => {
                        i.pwrite = 1;
                        i.paddr = u32::from(offset);
                        i.pwdata = data;
                        i.pstrb = u32::from(strb);
                    }
                    BusOp::Read { offset } => i.paddr = u32::from(offset),
                }
            }
            fired = fired.or(rtl.cycle(&i, &self.sig_words));
        }
        if !self.model_on {
            // RTL alone (benchmarks): the bus answer comes from the RTL.
            let o = &self.rtl.as_ref().expect("an engine runs the RTL, the model or both").out;
            let res = BusResult { rdata: o.prdata, slverr: o.pslverr, ready: o.pready };
            let rtl_axi = o.axi;
            self.mem.update(&rtl_axi, &rtl_axi, &axi);
            self.end_cycle();
            return Ok(res);
        }
        let lockstep = self.rtl.is_some();
        // The view is what the compare and the waves need; the model alone does not.
        if lockstep || self.wave.is_some() {
            self.model.view(&inp, &mut self.view);
        }
        let glob = self.model.global_view();
        let mut before = [Before::default(); 8];
        if lockstep {
            let present = ((1u16 << self.cfg.num_domains) - 1) as u8;
            for (dom, (b, d)) in before.iter_mut().zip(self.model.domains.iter()).enumerate() {
                let pending = |p: &pcounter::common::pulse_sync::PulseSync| {
                    pcounter::common::pulse_sync::gray2bin(p.p2).wrapping_sub(p.seen) & 7
                };
                *b = Before {
                    single: d.core.single_state as usize,
                    quad: d.core.quad_state,
                    imported: d.imported(dom, present),
                    pm_pending: pending(&d.glob[pcounter::pcnt::domain::GLOB_PM_TRIGGER]),
                    import_pending: d.ev_pulse.iter().chain(d.fl_pulse.iter()).map(pending).max().unwrap_or(0),
                    spec_src: d.stored[regs::SPEC_SRC],
                    wide: [d.core.ctr_cycles, d.core.ctr_event, d.core.ctr_start],
                    flag: d.core.flag,
                };
            }
        }
        // Moore outputs of this cycle, before the state moves on (S21).
        let (m_axi, m_bind) = (self.model.axi_out(), self.model.bind);
        let res = self.model.step(&inp);
        if let Some(log) = &mut self.packets {
            for (dom, d) in self.model.domains.iter().enumerate() {
                if let Some(p) = d.rec_sent {
                    log.push((self.cycle, dom, p));
                }
            }
        }
        if lockstep {
            self.count(bus, res, &before, ticks);
            self.count_nv10(bus, res, &before, ticks);
            self.count_record(m_bind, ticks);
        }
        let mut mismatch = self.compare(bus, res, &glob);
        if mismatch.is_none() {
            mismatch = self.compare_axi(&m_axi, m_bind);
        }
        // An assertion evaluated at this clock's edge: the values sampled
        // before the edge are reported first, the assertion beside them.
        match (&mut mismatch, fired) {
            (None, Some(a)) => mismatch = Some(*Mismatch::of_assertion(&a, self.cycle, self.history_vec())),
            (Some(m), Some(a)) => m.also.push(a.what()),
            (_, None) => {}
        }
        let rtl_axi = self.rtl.as_ref().map_or(m_axi, |r| r.out.axi);
        self.mem.update(&rtl_axi, &m_axi, &axi);
        self.record_wave(&glob, mismatch.is_some());
        self.end_cycle();
        match mismatch {
            Some(m) => {
                if self.continue_on_mismatch {
                    Ok(res)
                } else {
                    Err(Box::new(m))
                }
            }
            None => Ok(res),
        }
    }

    fn end_cycle(&mut self) {
        self.pm_trigger = self.pm_trigger.saturating_sub(1);
        self.wrcache_flush = self.wrcache_flush.saturating_sub(1);
        self.cycle += 1;
    }
}

/// Seed-style name of a domain register: `CTRL[1]`, `SIG_STATUS[1][3]`.
pub fn dom_reg_name(dom: usize, idx: usize) -> String {
    let name = regs::DOM_REGS[idx].name;
    match name.split_once('[') {
        Some((base, rest)) => format!("{base}[{dom}][{rest}"),
        None => format!("{name}[{dom}]"),
    }
}

/// The primitives the script commands are built from (`script::Target`).
impl Engine {
    /// One APB transfer: SETUP, then ACCESS until PREADY (S0, S15).
    pub fn transfer(&mut self, op: BusOp) -> Result<BusResult, Box<Mismatch>> {
        self.clock(Apb::Setup(op))?;
        loop {
            let res = self.clock(Apb::Access(op))?;
            if res.ready {
                return Ok(res);
            }
        }
    }
}

impl Target for Engine {
    fn write(&mut self, addr: u32, data: u32, strb: u8) -> Result<BusResult, Box<Mismatch>> {
        self.transfer(BusOp::Write { offset: crate::pcnt::script::offset(addr), data, strb })
    }

    fn read(&mut self, addr: u32) -> Result<BusResult, Box<Mismatch>> {
        self.transfer(BusOp::Read { offset: crate::pcnt::script::offset(addr) })
    }

    fn idle(&mut self, cycles: u64) -> Result<(), Box<Mismatch>> {
        for _ in 0..cycles {
            self.clock(Apb::Idle)?;
        }
        Ok(())
    }

    fn set_signal(&mut self, dom: u8, sig: u8, value: bool) {
        self.sig[usize::from(dom)].set(usize::from(sig), value);
        self.sig_dirty = true;
    }

    /// The verification backdoor (docs/semantics.md S14): the same counter
    /// value in the model and in the RTL flop, before the next clock.
    fn poke(&mut self, dom: u8, counter: Counter, value: u64) {
        let dom = usize::from(dom);
        // Both sides get the counter's bits on this generation (PERIODIC
        // S18, record S21, 40-bit counters S24); scripts are checked to fit.
        let width = counter.width(self.model.config().gen.features());
        let value = value & ((1u64 << width) - 1);
        let d = &mut self.model.domains[dom];
        let value32 = value as u32;
        let core = &mut d.core;
        match counter {
            // CTR_CYCLES_ALT is a copy of CTR_CYCLES (S5): one counter.
            Counter::Cycles => core.ctr_cycles = value,
            Counter::Event => core.ctr_event = value,
            Counter::Start => core.ctr_start = value,
            Counter::Pre => core.ctr_pre = value32,
            Counter::Stop => core.ctr_stop = value32,
            Counter::ShCycles => core.shadow[shadow::CYCLES] = value32,
            Counter::ShEvent => core.shadow[shadow::EVENT] = value32,
            Counter::ShStart => core.shadow[shadow::START] = value32,
            Counter::ShPre => core.shadow[shadow::PRE] = value32,
            Counter::ShStop => core.shadow[shadow::STOP] = value32,
            Counter::PeriodicCnt => core.periodic_cnt = value32,
            Counter::RecCycles => d.rec.cycles = d.rec.cycles & !0xffff_ffff | u64::from(value32),
            Counter::RecCyclesHi => d.rec.cycles = d.rec.cycles & 0xffff_ffff | u64::from(value32) << 32,
            Counter::RecStop => d.rec.stop = value32 as u16,
            Counter::RecEv(i) => d.rec.ev[usize::from(i)] = value32 as u16,
        }
        if let Some(rtl) = &mut self.rtl {
            let (var, lsb) = counter.rtl_flop();
            rtl.poke(dom, var, lsb, width, value).unwrap_or_else(|e| panic!("RTL backdoor: {e}"));
        }
    }

    fn pulse(&mut self, input: &GlobalInput, cycles: u32) {
        let left = match input {
            GlobalInput::PmTrigger => &mut self.pm_trigger,
            GlobalInput::WrcacheFlush => &mut self.wrcache_flush,
        };
        *left = (*left).max(cycles);
    }

    fn mem_word(&mut self, addr: u64) -> Result<u32, Box<Mismatch>> {
        let model = self.mem.word(1, addr);
        if self.rtl.is_some() {
            let rtl = self.mem.word(0, addr);
            if rtl != model {
                return Err(Box::new(self.mismatch(format!("memory word {addr:#012x}"), model, rtl)));
            }
        }
        // In RTL-alone runs image 1 follows the RTL too.
        Ok(model)
    }

    /// The parser refuses `pmc_enable` before GF100 (no such input).
    fn pmc_enable(&mut self, _on: bool) {}

    fn mem(&mut self) -> &mut AxiMem {
        &mut self.mem
    }
}

/// `SIG_STATUS[3]` -> `SIG_STATUS_3`: brackets mean bit ranges to GTKWave.
pub fn wave_name(reg: &str) -> String {
    reg.replace('[', "_").replace(']', "")
}

fn idle_in(gen: Gen) -> PcntIn {
    PcntIn {
        rst_n: 1,
        gen: gen as u32,
        psel: 0,
        penable: 0,
        pwrite: 0,
        paddr: 0,
        pwdata: 0,
        pstrb: 0,
        pm_trigger: 0,
        wrcache_flush: 0,
        dom_tick: 0,
        sig: std::ptr::null(),
        awready: 0,
        wready: 0,
        bvalid: 0,
        bresp: 0,
    }
}

/// PCOUNTER as the engine drives a device (`engine::device`).
impl crate::engine::device::Lockstep for Engine {
    type Cmd = Cmd;

    fn exec_cmd(&mut self, cmd: &Cmd) -> Result<(), Box<Mismatch>> {
        let r = self.exec(cmd)?;
        self.expectation(cmd, r.as_ref())
    }
    fn finish_run(&self) -> Result<(), Box<Mismatch>> {
        self.finish()
    }
    fn cycles(&self) -> u64 {
        self.cycle
    }
    fn run_coverage(&self) -> crate::engine::coverage::Coverage {
        self.stats.coverage()
    }
    fn start_trace(&mut self, rtl_vcd: &std::path::Path) -> Result<(), String> {
        self.start_wave(Some(rtl_vcd))
    }
    fn take_trace(&mut self) -> Option<ExtraTrace> {
        self.take_wave().map(|(_, t)| t)
    }
    fn keep_going(&mut self) {
        self.continue_on_mismatch = true;
    }
}
