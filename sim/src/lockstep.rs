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
use pcounter::domain::event;
use pcounter::record::{self, AxiOut};
use pcounter::regs::{self, Gen, NUM_DOM_REGS, NUM_GLOBAL_REGS};
use pcounter::{BusOp, BusResult, Config, CycleInputs, PcounterSet, Signals};

use crate::axi_mem::AxiMem;
use crate::coverage::{BinDecl, Coverage};
use crate::ffi::{PcntIn, Rtl};
use crate::script::{ClockSpec, Cmd, Counter, GlobalInput};
use crate::stim::MMIO_BASE;
use crate::wave::{ExtraSignal, ExtraTrace};

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

/// The first disagreement between RTL and model.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub cycle: u64,
    /// Domain of the register, `None` for global registers and the bus.
    pub dom: Option<usize>,
    /// Register (e.g. `CTR_EVENT[0]`) or bus signal (`PRDATA of read 0xa680`).
    pub what: String,
    pub expected: u32,
    pub actual: u32,
    /// Field-decoded expected / actual, when `what` is a register.
    pub fields: Option<(String, String)>,
    /// Name of the failing register's signals in the wave file (`CTRL`,
    /// `SIG_STATUS_7`; `_dut`/`_model` appended), when it is a register.
    pub wave_reg: Option<String>,
    /// Every other register that disagreed in the same cycle.
    pub also: Vec<String>,
    /// The last stimulus events before the mismatch: (cycle, command).
    pub history: Vec<(u64, String)>,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "MISMATCH at cycle {}: {}", self.cycle, self.what)?;
        if let Some(d) = self.dom {
            writeln!(f, "  domain:   {d}")?;
        }
        writeln!(f, "  expected: {:#010x} (model)", self.expected)?;
        writeln!(f, "  actual:   {:#010x} (RTL)", self.actual)?;
        if let Some((e, a)) = &self.fields {
            writeln!(f, "  expected fields: {e}")?;
            writeln!(f, "  actual fields:   {a}")?;
        }
        if !self.also.is_empty() {
            writeln!(f, "  also differing this cycle: {}", self.also.join(", "))?;
        }
        writeln!(f, "  last {} stimulus events (cycle: command):", self.history.len())?;
        for (c, e) in &self.history {
            writeln!(f, "    {c:>10}: {e}")?;
        }
        Ok(())
    }
}

/// What the stimulus reached, counted on the model (merged over runs by the
/// regression summary). Evidence that the random stimulus exercises the
/// design, not a coverage model (that is a later issue).
#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Single event state transitions [from][to] (S12), all domains.
    pub transitions: [[u64; 4]; 4],
    /// COUNTING cycles per CTRL.CTR_MODE (S6).
    pub counting_by_mode: [u64; 8],
    /// Quad mode (S17): QUAD_STATE transitions [from][to] (0 EMPTY, 1 VALID,
    /// 3 OVERFLOW), swaps by cause, acks, ticks per CTR_MODE, saturated ticks.
    pub quad_transitions: [[u64; 4]; 4],
    pub swaps_signal: u64,
    pub swaps_pre_op: u64,
    pub acks: u64,
    pub quad_ticks_by_mode: [u64; 8],
    /// Ticks with an imported signal at 1 from a domain with another clock
    /// (S16): [EVENT, FLAG][CONTINUOUS, PULSE].
    pub imports: [[u64; 2]; 2],
    /// PERIODIC pulses per CTRL.PERIODIC_PERIOD (S18).
    pub periodic_pulses: [u64; 8],
    /// Ticks with a USER signal high in pulse mode (S19).
    pub user_pulses: u64,
    pub slverr: u64,
    /// Aborting writes by the single state they hit (S2).
    pub aborts_by_state: [u64; 4],
    /// Ticks of a running domain whose OP registers use each argument source
    /// (S10): DELAY0, DELAY1, ARG2 delay-replace, ARG3 delay-replace, SETFLAG.
    pub arg_sources: [u64; 5],
    /// Ticks with each counter at 0xffffffff: CTR_CYCLES, CTR_EVENT, CTR_PRE,
    /// CTR_START (single mode), then the five quad shadows (S6, S17).
    pub saturated_by_counter: [u64; 9],
    /// Ticks with a USER signal high without pulse mode (S19).
    pub user_levels: u64,
    /// Completed writes / reads per register (domain view index, then global).
    pub reg_written: Vec<u64>,
    pub reg_read: Vec<u64>,
    /// Record mode (S21): ticks with each `record::event` bit (by bit index).
    pub record: Vec<u64>,
    /// Record ticks by CTRL.RECORD_FORMAT (LONG, SHORT).
    pub record_ticks: [u64; 2],
    /// Packets done with an error (VM fault), FAULT_CLEAR writes that
    /// cleared a FAULT, ticks in record mode with GCTRL.RECORD_RESET = 1,
    /// bind events, ticks a trigger waited on a wedged domain.
    pub rec_faults: u64,
    pub rec_fault_clears: u64,
    pub rec_reset_ticks: u64,
    pub rec_binds: u64,
    /// RECORD_CHAN writes with VALID before any RECORD_DMA write (S21 (a)).
    pub rec_bind_wrong_order: u64,
    pub rec_wedged_waits: u64,
    /// Pulse synchronizers and driver-facing defaults (S2, S16, S22), see
    /// `SYNC_EVENTS`.
    pub sync: [u64; 5],
    /// Refused accesses (hole, absent register, partial PSTRB) answered
    /// silently under StrictDecode = 0 (S8).
    pub lax_refused: u64,
    /// Bus cycles run per named signal layout (default, real, odd; S9, S19).
    pub layout_cycles: [u64; 3],
}

/// Names of the `Stats::sync` counts, for bins and the summary: PM_TRIGGER
/// delivered to a domain whose clock is not 1/1; PM_TRIGGER delivered with
/// more pulses still pending; a PULSE import delivered with more edges
/// pending; a quad swap on G84+ by SPEC_SRC at its reset value (PM_TRIGGER);
/// a PRE_OP write that restarted a running single event process.
pub const SYNC_EVENTS: [&str; 5] = [
    "global.pm_trigger.slow_domain",
    "global.pm_trigger.backlog",
    "import.pulse.backlog",
    "quad.swap.spec_src_reset",
    "single.pre_op_restart",
];

/// Names of the `record::event` bits, for bins and the summary.
pub const RECORD_EVENTS: [&str; 15] = [
    "send",
    "send.stop",
    "send.near_overflow",
    "send.stop_gt1",
    "limit_hit",
    "wrap_4g",
    "send.short",
    "send.long",
    "trigger_blocked",
    "saturate.ev",
    "saturate.stop",
    "unbound_fault",
    "drop_after_limit",
    "bogus_packet",
    "short_hidden_counter_held",
];

const SINGLE_STATES: [&str; 4] = ["INACTIVE", "WAIT_PRE", "WAIT_START", "COUNTING"];
const SATURATING: [&str; 9] =
    ["ctr_cycles", "ctr_event", "ctr_pre", "ctr_start", "sh_cycles", "sh_event", "sh_start", "sh_pre", "sh_stop"];

type Emit<'a> = &'a mut dyn FnMut(String, u64);

fn one(out: Emit, name: &str, n: u64) {
    out(name.to_string(), n);
}

/// The PCOUNTER coverage bins (docs/coverage-plan.md), each declared once
/// with how it is counted, in plan order.
pub static BINS: &[BinDecl<Stats>] = &[
    BinDecl {
        name: "single.*->*",
        count: |s, out| {
            for (from, to) in [(0, 1), (1, 2), (2, 3), (3, 2), (3, 0)] {
                out(format!("single.{}->{}", SINGLE_STATES[from], SINGLE_STATES[to]), s.transitions[from][to]);
            }
        },
    },
    BinDecl {
        name: "single.abort.*",
        count: |s, out| {
            for (st, name) in SINGLE_STATES.iter().enumerate().skip(1) {
                out(format!("single.abort.{name}"), s.aborts_by_state[st]);
            }
        },
    },
    BinDecl {
        name: "quad.*->*",
        count: |s, out| {
            for (from, to, name) in
                [(0, 1, "EMPTY->VALID"), (1, 3, "VALID->OVERFLOW"), (1, 0, "VALID->EMPTY"), (3, 1, "OVERFLOW->VALID")]
            {
                out(format!("quad.{name}"), s.quad_transitions[from][to]);
            }
        },
    },
    BinDecl { name: "quad.swap.signal", count: |s, out| one(out, "quad.swap.signal", s.swaps_signal) },
    BinDecl { name: "quad.swap.pre_op", count: |s, out| one(out, "quad.swap.pre_op", s.swaps_pre_op) },
    BinDecl { name: "quad.ack", count: |s, out| one(out, "quad.ack", s.acks) },
    BinDecl {
        name: "ctr_mode.*",
        count: |s, out| {
            for (kind, by_mode) in [("single", &s.counting_by_mode), ("quad", &s.quad_ticks_by_mode)] {
                for (m, n) in by_mode.iter().enumerate() {
                    out(format!("ctr_mode.{kind}.{m}"), *n);
                }
            }
        },
    },
    BinDecl {
        name: "arg.*",
        count: |s, out| {
            for (i, n) in ["delay0", "delay1", "replace_arg2", "replace_arg3", "setflag"].iter().enumerate() {
                out(format!("arg.{n}"), s.arg_sources[i]);
            }
        },
    },
    BinDecl {
        name: "saturate.*",
        count: |s, out| {
            for (i, n) in SATURATING.iter().enumerate() {
                out(format!("saturate.{n}"), s.saturated_by_counter[i]);
            }
        },
    },
    BinDecl {
        name: "import.*",
        count: |s, out| {
            for (i, sig) in ["event", "flag"].iter().enumerate() {
                for (m, mode) in ["continuous", "pulse"].iter().enumerate() {
                    out(format!("import.{sig}.{mode}"), s.imports[i][m]);
                }
            }
        },
    },
    BinDecl {
        name: "periodic.period*",
        count: |s, out| {
            for p in 1..8 {
                out(format!("periodic.period{p}"), s.periodic_pulses[p]);
            }
        },
    },
    BinDecl { name: "user.pulse", count: |s, out| one(out, "user.pulse", s.user_pulses) },
    BinDecl { name: "user.level", count: |s, out| one(out, "user.level", s.user_levels) },
    BinDecl { name: "bus.pslverr", count: |s, out| one(out, "bus.pslverr", s.slverr) },
    BinDecl { name: "bus.lax_refused", count: |s, out| one(out, "bus.lax_refused", s.lax_refused) },
    BinDecl {
        name: "layout.real",
        count: |s, out| one(out, "layout.real", s.layout_cycles[pcounter::Layout::Real as usize]),
    },
    BinDecl {
        name: "layout.odd",
        count: |s, out| one(out, "layout.odd", s.layout_cycles[pcounter::Layout::Odd as usize]),
    },
    BinDecl {
        name: "record.<event>",
        count: |s, out| {
            for (i, n) in RECORD_EVENTS.iter().enumerate() {
                out(format!("record.{n}"), s.record.get(i).copied().unwrap_or(0));
            }
        },
    },
    BinDecl { name: "record.format.long", count: |s, out| one(out, "record.format.long", s.record_ticks[0]) },
    BinDecl { name: "record.format.short", count: |s, out| one(out, "record.format.short", s.record_ticks[1]) },
    BinDecl { name: "record.vm_fault", count: |s, out| one(out, "record.vm_fault", s.rec_faults) },
    BinDecl { name: "record.wedged_wait", count: |s, out| one(out, "record.wedged_wait", s.rec_wedged_waits) },
    BinDecl { name: "record.fault_clear", count: |s, out| one(out, "record.fault_clear", s.rec_fault_clears) },
    BinDecl { name: "record.record_reset", count: |s, out| one(out, "record.record_reset", s.rec_reset_ticks) },
    BinDecl { name: "record.bind", count: |s, out| one(out, "record.bind", s.rec_binds) },
    BinDecl {
        name: "record.bind_wrong_order",
        count: |s, out| one(out, "record.bind_wrong_order", s.rec_bind_wrong_order),
    },
    BinDecl {
        name: "<sync event>",
        count: |s, out| {
            for (n, c) in SYNC_EVENTS.iter().zip(s.sync.iter()) {
                out(n.to_string(), *c);
            }
        },
    },
    BinDecl {
        name: "reg.write.* / reg.read.*",
        count: |s, out| {
            let names = regs::DOM_REGS.iter().chain(regs::GLOBAL_REGS.iter()).map(|r| r.name);
            for (i, n) in names.enumerate() {
                out(format!("reg.write.{n}"), s.reg_written.get(i).copied().unwrap_or(0));
                out(format!("reg.read.{n}"), s.reg_read.get(i).copied().unwrap_or(0));
            }
        },
    },
];

impl Stats {
    pub fn coverage(&self) -> Coverage {
        Coverage::of(BINS, self)
    }
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
    pub layout: pcounter::Layout,
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
            layout: pcounter::Layout::Default,
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
            packets: None,
            corrupt_at: None,
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
                rtl.cycle(&i, &self.sig_words);
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

    /// Execute one command. Returns the model's bus result for reads.
    pub fn exec(&mut self, cmd: &Cmd) -> Result<Option<BusResult>, Box<Mismatch>> {
        self.note(cmd);
        match *cmd {
            Cmd::Write { addr, data, strb } => {
                self.transfer(BusOp::Write { offset: offset(addr), data, strb }).map(Some)
            }
            Cmd::Read { addr, .. } => self.transfer(BusOp::Read { offset: offset(addr) }).map(Some),
            Cmd::Wait { cycles } => {
                for _ in 0..cycles {
                    self.clock(Apb::Idle)?;
                }
                Ok(None)
            }
            Cmd::Set { dom, sig, value } => {
                self.sig[usize::from(dom)].set(usize::from(sig), value);
                self.sig_dirty = true;
                Ok(None)
            }
            Cmd::Poke { dom, counter, value } => {
                self.poke(usize::from(dom), counter, value);
                Ok(None)
            }
            Cmd::Pulse { ref input, cycles } => {
                let left = match input {
                    GlobalInput::PmTrigger => &mut self.pm_trigger,
                    GlobalInput::WrcacheFlush => &mut self.wrcache_flush,
                };
                *left = (*left).max(cycles);
                Ok(None)
            }
            Cmd::Mem { addr, .. } => {
                let model = self.mem.word(1, addr);
                if self.rtl.is_some() {
                    let rtl = self.mem.word(0, addr);
                    if rtl != model {
                        return Err(Box::new(self.mismatch(format!("memory word {addr:#012x}"), model, rtl)));
                    }
                }
                // In RTL-alone runs image 1 follows the RTL too.
                Ok(Some(BusResult { rdata: model, slverr: false, ready: true }))
            }
            Cmd::Fault { lo, hi } => {
                self.mem.add_fault(lo, hi);
                Ok(None)
            }
            Cmd::Latency { min, max, seed } => {
                self.mem.set_latency(min, max, seed);
                Ok(None)
            }
        }
    }

    /// One APB transfer: SETUP, then ACCESS until PREADY (S0, S15).
    fn transfer(&mut self, op: BusOp) -> Result<BusResult, Box<Mismatch>> {
        self.clock(Apb::Setup(op))?;
        loop {
            let res = self.clock(Apb::Access(op))?;
            if res.ready {
                return Ok(res);
            }
        }
    }

    /// A mismatch outside the register compare (memory, end of run).
    fn mismatch(&self, what: String, expected: u32, actual: u32) -> Mismatch {
        Mismatch {
            cycle: self.cycle,
            dom: None,
            what,
            expected,
            actual,
            fields: None,
            wave_reg: None,
            also: Vec::new(),
            history: self.history.iter().map(|(c, cmd)| (*c, cmd.to_string())).collect(),
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

    /// The verification backdoor (docs/semantics.md S14): the same counter
    /// value in the model and in the RTL flop, before the next clock.
    fn poke(&mut self, dom: usize, counter: Counter, value: u32) {
        // Narrow counters (PERIODIC S18, record S21): both sides get the same bits.
        let width = counter.width();
        let value = if width < 32 { value & ((1 << width) - 1) } else { value };
        let d = &mut self.model.domains[dom];
        match counter {
            // CTR_CYCLES_ALT is a copy of CTR_CYCLES (S5): one poke sets both.
            Counter::Cycles => (d.ctr_cycles, d.ctr_cycles_alt) = (value, value),
            Counter::Event => d.ctr_event = value,
            Counter::Start => d.ctr_start = value,
            Counter::Pre => d.ctr_pre = value,
            Counter::Stop => d.ctr_stop = value,
            Counter::ShCycles => d.sh_cycles = value,
            Counter::ShEvent => d.sh_event = value,
            Counter::ShStart => d.sh_start = value,
            Counter::ShPre => d.sh_pre = value,
            Counter::ShStop => d.sh_stop = value,
            Counter::PeriodicCnt => d.periodic_cnt = value,
            Counter::RecCycles => d.rec.cycles = d.rec.cycles & !0xffff_ffff | u64::from(value),
            Counter::RecCyclesHi => d.rec.cycles = d.rec.cycles & 0xffff_ffff | u64::from(value) << 32,
            Counter::RecStop => d.rec.stop = value as u16,
            Counter::RecEv(i) => d.rec.ev[usize::from(i)] = value as u16,
        }
        if let Some(rtl) = &mut self.rtl {
            let (var, lsb) = counter.rtl_flop();
            rtl.poke(dom, var, lsb, width, value).unwrap_or_else(|e| panic!("RTL backdoor: {e}"));
        }
    }

    /// One bus clock on both sides, then compare.
    fn clock(&mut self, apb: Apb) -> Result<BusResult, Box<Mismatch>> {
        if self.corrupt_at == Some(self.cycle) {
            let flipped = !self.model.domains[0].ctr_cycles & 1;
            if let Some(rtl) = &mut self.rtl {
                rtl.poke(0, "ctr_cycles_q", 0, 1, flipped).unwrap_or_else(|e| panic!("RTL backdoor: {e}"));
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
            rtl.cycle(&i, &self.sig_words);
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
                let pending =
                    |p: &pcounter::pulse_sync::PulseSync| pcounter::pulse_sync::gray2bin(p.p2).wrapping_sub(p.seen) & 7;
                *b = Before {
                    single: d.single_state as usize,
                    quad: d.quad_state,
                    imported: d.imported(dom, present),
                    pm_pending: pending(&d.glob[pcounter::domain::GLOB_PM_TRIGGER]),
                    import_pending: d.ev_pulse.iter().chain(d.fl_pulse.iter()).map(pending).max().unwrap_or(0),
                    spec_src: d.stored[regs::SPEC_SRC],
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
            self.count_record(m_bind, ticks);
        }
        let mut mismatch = self.compare(bus, res, &glob);
        if mismatch.is_none() {
            mismatch = self.compare_axi(&m_axi, m_bind);
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

    fn count(&mut self, bus: Option<BusOp>, res: BusResult, before: &[Before; 8], ticks: u8) {
        let st = &mut self.stats;
        for (dom, d) in self.model.domains.iter().enumerate() {
            if ticks >> dom & 1 == 0 {
                continue;
            }
            let b = &before[dom];
            let ctrl = self.view[dom][regs::CTRL];
            let ctr_mode = regs::field::CTRL_CTR_MODE.get(ctrl) as usize;
            let (from, to) = (b.single, d.single_state as usize);
            if from != to {
                st.transitions[from][to] += 1;
            }
            let quad = regs::field::CTRL_MODE.get(ctrl) == 1;
            if from == 3 {
                st.counting_by_mode[ctr_mode] += 1;
                let ctrs = [d.ctr_cycles, d.ctr_event, d.ctr_pre, d.ctr_start];
                for (i, c) in ctrs.iter().enumerate() {
                    st.saturated_by_counter[i] += u64::from(*c == u32::MAX);
                }
            }
            if quad {
                st.quad_ticks_by_mode[ctr_mode] += 1;
                let sh = [d.sh_cycles, d.sh_event, d.sh_start, d.sh_pre, d.sh_stop];
                for (i, c) in sh.iter().enumerate() {
                    st.saturated_by_counter[4 + i] += u64::from(*c == u32::MAX);
                }
            }
            // Argument sources in use while the domain counts (S10).
            if from != 0 || quad {
                let ops = [regs::PRE_OP, regs::START_OP, regs::SETFLAG_OP, regs::CLRFLAG_OP];
                let plain = ops.iter().fold(0u32, |a, &i| a | d.stored[i]);
                let event_like = d.stored[regs::EVENT_OP] | d.stored[regs::STOP_OP];
                let any = plain | event_like;
                let used = [
                    any >> 16 & 1,
                    any >> 17 & 1,
                    (plain >> 18 | event_like >> 19) & 1,
                    (plain >> 19 | event_like >> 20) & 1,
                    event_like >> 18 & 1,
                ];
                for (i, u) in used.iter().enumerate() {
                    st.arg_sources[i] += u64::from(*u);
                }
            }
            st.user_levels += u64::from(d.user & !d.user_pulse & 3 != 0);
            if b.quad != d.quad_state {
                st.quad_transitions[usize::from(b.quad)][usize::from(d.quad_state)] += 1;
            }
            st.swaps_signal += u64::from(d.events & event::SWAP_SIGNAL != 0);
            // S22: global pulse deliveries; S2: the driver's default swap.
            let slow = !matches!(self.clock[dom], ClockSpec::Ratio { m, n } if m == n);
            st.sync[0] += u64::from(b.pm_pending > 0 && slow);
            st.sync[1] += u64::from(b.pm_pending > 1);
            st.sync[2] += u64::from(b.import_pending > 1);
            let reset_swap = u32::from(self.cfg.trailer_base[dom]) + 0x0f;
            st.sync[3] += u64::from(
                d.events & event::SWAP_SIGNAL != 0
                    && self.cfg.gen.features().swap_src
                    && b.spec_src & 0xff == reset_swap,
            );
            st.swaps_pre_op += u64::from(d.events & event::SWAP_PRE_OP != 0);
            st.acks += u64::from(d.events & event::ACK != 0);
            if d.periodic {
                st.periodic_pulses[regs::field::CTRL_PERIODIC_PERIOD.get(ctrl) as usize] += 1;
            }
            st.user_pulses += u64::from(d.user & d.user_pulse != 0);
            // Imports that are 1 in this tick, from a domain with another clock (S16).
            let (ev, fl, ev_pulse, fl_pulse) = b.imported;
            for k in 0..self.cfg.num_domains {
                if self.clock[k] != self.clock[dom] {
                    st.imports[0][usize::from(ev_pulse)] += u64::from(ev >> k & 1);
                    st.imports[1][usize::from(fl_pulse)] += u64::from(fl >> k & 1);
                }
            }
        }
        match bus {
            Some(BusOp::Write { .. }) if !res.ready => {}
            Some(BusOp::Write { offset, strb, .. }) => {
                let target = pcounter::domain::target(&self.cfg, offset);
                if let (0xf, Some(pcounter::domain::Target::Dom { dom, idx })) = (strb, target) {
                    if regs::DOM_REGS[idx].aborts && before[dom].single != 0 {
                        st.aborts_by_state[before[dom].single] += 1;
                    }
                    // S2: a running process is single mode, so PRE_OP restarts it.
                    st.sync[4] += u64::from(idx == regs::PRE_OP && before[dom].single != 0);
                }
                if let (0xf, Some(t)) = (strb, target) {
                    bump(&mut st.reg_written, reg_index(t));
                }
            }
            Some(BusOp::Read { offset }) => {
                if let Some(t) = pcounter::domain::target(&self.cfg, offset) {
                    bump(&mut st.reg_read, reg_index(t));
                }
            }
            None => {}
        }
        st.slverr += u64::from(res.slverr);
        st.layout_cycles[self.layout as usize] += 1;
        if !self.cfg.strict_decode && res.ready {
            let refused = match bus {
                Some(BusOp::Write { offset, strb, .. }) => {
                    strb != 0xf || pcounter::domain::target(&self.cfg, offset).is_none()
                }
                Some(BusOp::Read { offset }) => pcounter::domain::target(&self.cfg, offset).is_none(),
                None => false,
            };
            st.lax_refused += u64::from(refused);
        }
    }

    /// Record-mode reach counts (S21), from the model's last step.
    fn count_record(&mut self, bind: bool, ticks: u8) {
        let st = &mut self.stats;
        if st.record.len() < RECORD_EVENTS.len() {
            st.record.resize(RECORD_EVENTS.len(), 0);
        }
        let rr = regs::field::GCTRL_RECORD_RESET.get(self.model.global[regs::GCTRL]) != 0;
        for (dom, d) in self.model.domains.iter().enumerate() {
            if ticks >> dom & 1 == 0 {
                continue;
            }
            let ctrl = d.stored[regs::CTRL];
            if self.cfg.gen.features().record && regs::field::CTRL_MODE.get(ctrl) == 2 {
                st.record_ticks[regs::field::CTRL_RECORD_FORMAT.get(ctrl) as usize] += 1;
                st.rec_reset_ticks += u64::from(rr);
                let wedged = self.model.slots[dom].wedged;
                st.rec_wedged_waits += u64::from(wedged && d.rec_events & record::event::TRIGGER_BLOCKED != 0);
            }
            for (i, n) in st.record.iter_mut().enumerate() {
                *n += u64::from(d.rec_events >> i & 1);
            }
        }
        st.rec_binds += u64::from(bind);
        st.rec_bind_wrong_order += u64::from(self.model.bind_wrong_order);
        // Only a VM fault sets FAULT/wedged and only FAULT_CLEAR clears FAULT.
        let mask = |f: fn(&record::Slot) -> bool| {
            self.model.slots.iter().enumerate().fold(0u8, |m, (d, s)| m | u8::from(f(s)) << d)
        };
        let (wedged, fault) = (mask(|s| s.wedged), mask(|s| s.fault));
        // An unbound send wedges too (S21 (b)); it is counted as unbound_fault.
        let unbound = self
            .model
            .domains
            .iter()
            .enumerate()
            .fold(0u8, |m, (d, s)| m | u8::from(s.rec_events & record::event::UNBOUND_FAULT != 0) << d);
        st.rec_faults += u64::from((wedged & !self.rec_masks.0 & !unbound).count_ones());
        st.rec_fault_clears += u64::from((self.rec_masks.1 & !fault).count_ones());
        self.rec_masks = (wedged, fault);
    }

    /// The memory port's outputs and the bind event, every cycle (S21).
    fn compare_axi(&self, m: &AxiOut, m_bind: bool) -> Option<Mismatch> {
        let rtl = self.rtl.as_ref()?;
        let r = &rtl.out.axi;
        let fields: [(&str, u128, u128); 11] = [
            ("AWVALID", m.awvalid.into(), r.awvalid.into()),
            ("AWADDR", m.awaddr.into(), r.awaddr.into()),
            ("AWLEN", m.awlen.into(), r.awlen.into()),
            ("AWSIZE", m.awsize.into(), r.awsize.into()),
            ("AWBURST", m.awburst.into(), r.awburst.into()),
            ("WVALID", m.wvalid.into(), r.wvalid.into()),
            ("WDATA", m.wdata, r.wdata),
            ("WSTRB", m.wstrb.into(), r.wstrb.into()),
            ("WLAST", m.wlast.into(), r.wlast.into()),
            ("BREADY", m.bready.into(), r.bready.into()),
            ("rec_bind_o", m_bind.into(), rtl.out.bind.into()),
        ];
        let diffs: Vec<&(&str, u128, u128)> = fields.iter().filter(|f| f.1 != f.2).collect();
        let (name, e, a) = **diffs.first()?;
        // The name alone identifies the failure (shrinking matches on it); the
        // full values (WDATA is 128 bits) go in the field lines.
        let mut m = self.mismatch(format!("AXI {name} of the record memory port"), e as u32, a as u32);
        m.fields = Some((format!("{name}={e:#x}"), format!("{name}={a:#x}")));
        m.also = diffs.iter().skip(1).map(|d| d.0.to_string()).collect();
        Some(m)
    }

    fn compare(&self, bus: Option<BusOp>, res: BusResult, glob: &[u32; NUM_GLOBAL_REGS]) -> Option<Mismatch> {
        let rtl = self.rtl.as_ref()?;
        // (domain, what, expected, actual, register for field decoding)
        type Diff = (Option<usize>, String, u32, u32, Option<&'static regs::Reg>);
        let mut diffs: Vec<Diff> = Vec::new();
        for (dom, view) in self.view.iter().enumerate() {
            let got = &rtl.out.dom_regs[dom * NUM_DOM_REGS..(dom + 1) * NUM_DOM_REGS];
            if got != view {
                for (idx, r) in regs::DOM_REGS.iter().enumerate() {
                    if got[idx] != view[idx] {
                        diffs.push((Some(dom), dom_reg_name(dom, idx), view[idx], got[idx], Some(r)));
                    }
                }
            }
        }
        for (idx, r) in regs::GLOBAL_REGS.iter().enumerate() {
            if rtl.out.glob_regs[idx] != glob[idx] {
                diffs.push((None, r.name.to_string(), glob[idx], rtl.out.glob_regs[idx], Some(r)));
            }
        }
        // The bus outputs are compared in every cycle (S0): outside a read's
        // ACCESS cycle the model's result is PRDATA 0, PSLVERR 0.
        let at = match bus {
            Some(BusOp::Write { offset, .. }) => format!("write {:#06x}", MMIO_BASE + u32::from(offset)),
            Some(BusOp::Read { offset }) => format!("read {:#06x}", MMIO_BASE + u32::from(offset)),
            None => "a cycle without ACCESS".to_string(),
        };
        if rtl.out.prdata != res.rdata {
            diffs.push((None, format!("PRDATA in {at}"), res.rdata, rtl.out.prdata, None));
        }
        if rtl.out.pslverr != res.slverr {
            diffs.push((None, format!("PSLVERR in {at}"), res.slverr.into(), rtl.out.pslverr.into(), None));
        }
        if rtl.out.pready != res.ready {
            diffs.push((None, format!("PREADY in {at}"), res.ready.into(), rtl.out.pready.into(), None));
        }
        let (dom, what, expected, actual, reg) = diffs.first()?.clone();
        Some(Mismatch {
            cycle: self.cycle,
            dom,
            what,
            expected,
            actual,
            fields: reg.map(|r| (r.decode_fields(expected), r.decode_fields(actual))),
            wave_reg: reg.map(|r| wave_name(r.name)),
            also: diffs.iter().skip(1).map(|d| d.1.clone()).collect(),
            history: self.history.iter().map(|(c, cmd)| (*c, cmd.to_string())).collect(),
        })
    }

    fn record_wave(&mut self, glob: &[u32; NUM_GLOBAL_REGS], mismatch: bool) {
        let Some(w) = &mut self.wave else { return };
        let t = self.cycle * 10;
        let mut put = |sig: usize, v: u64| {
            if w.last[sig] != Some(v) {
                w.last[sig] = Some(v);
                w.trace.changes.push((t, sig, v));
            }
        };
        put(W_MISMATCH, mismatch.into());
        put(W_CYCLE, self.cycle & 0xffff_ffff);
        let mut s = 2;
        for (dom, view) in self.view.iter().enumerate() {
            for (idx, v) in view.iter().enumerate() {
                let dut = self.rtl.as_ref().map_or(*v, |r| r.out.dom_regs[dom * NUM_DOM_REGS + idx]);
                put(s, dut.into());
                put(s + 1, (*v).into());
                s += 2;
            }
        }
        for (idx, v) in glob.iter().enumerate() {
            let dut = self.rtl.as_ref().map_or(*v, |r| r.out.glob_regs[idx]);
            put(s, dut.into());
            put(s + 1, (*v).into());
            s += 2;
        }
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

/// Index of a bus target in the per-register coverage counts.
fn reg_index(t: pcounter::domain::Target) -> usize {
    match t {
        pcounter::domain::Target::Dom { idx, .. } => idx,
        pcounter::domain::Target::Global { idx } => NUM_DOM_REGS + idx,
    }
}

fn bump(v: &mut Vec<u64>, i: usize) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += 1;
}

/// `SIG_STATUS[3]` -> `SIG_STATUS_3`: brackets mean bit ranges to GTKWave.
pub fn wave_name(reg: &str) -> String {
    reg.replace('[', "_").replace(']', "")
}

fn offset(addr: u32) -> u16 {
    (addr.wrapping_sub(MMIO_BASE) & 0xfff) as u16
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
