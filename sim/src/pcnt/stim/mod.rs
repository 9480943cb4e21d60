//! Constrained-random stimulus: a deterministic stream of scenario-script
//! commands (`script::Cmd`) from a seed.
//!
//! The stream depends only on (seed, generation, domain count) — never on what
//! the RTL or the model answer — so a failing run can be regenerated exactly,
//! saved as a script, and replayed. The generator is ChaCha8 (pinned
//! algorithm, platform-independent), never a std default.
//!
//! Shape: episodes. Most program a single event run the way a driver would
//! (selections, truth tables, CTR_PRE/CTR_STOP, THRESHOLD, CTRL, then PRE_OP)
//! and let it run with signal activity, reads and rare disturbing writes;
//! others storm random registers (unmapped offsets, absent domains, every
//! side-effecting register) or switch modes. Values are biased toward the
//! interesting ones: single-argument truth tables, small period counts,
//! thresholds near the counts, signals inside and outside the trailer.

use std::collections::VecDeque;

use pcounter::pcnt::regs::{self, Gen, RegLayout, DOM_REGS, GLOBAL_REGS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::pcnt::script::{ClockSpec, Cmd, Counter, GlobalInput};

mod nv10;
mod record;

/// MMIO base of the PCOUNTER window (seed 003 "MMIO registers").
pub const MMIO_BASE: u32 = 0xa000;

/// How a driven signal behaves during an episode.
#[derive(Clone, Copy, Debug)]
enum Activity {
    /// Held at one value.
    Stuck,
    /// Changes to a random value with this probability (per mille) per cycle.
    Rate(u32),
    /// Toggles every cycle.
    Toggle,
}

#[derive(Clone, Copy, Debug)]
struct Driven {
    sig: u8,
    activity: Activity,
    value: bool,
}

pub struct RandomStim {
    rng: ChaCha8Rng,
    gen: Gen,
    layout: RegLayout,
    domains: usize,
    queue: VecDeque<Cmd>,
    /// The view registers the layout addresses (per domain, global).
    dom_regs: Vec<usize>,
    glob_regs: Vec<usize>,
    /// NV10 layout: the shared CTRL last written (S24).
    shared_ctrl: u32,
    /// Per domain: the signals this episode drives.
    driven: Vec<Vec<Driven>>,
    /// Per-cycle probabilities (per mille) of this episode.
    read_rate: u32,
    disturb_rate: u32,
    pulse_rate: u32,
    /// Per-mille rate of QUAD_ACK_TRIGGER writes this episode.
    ack_rate: u32,
    /// Tick patterns chosen for this seed (S15), fixed for the run.
    clocks: Vec<(u8, ClockSpec)>,
    /// Record mode (S21): last CTRL written per domain by a record episode
    /// (FAULT_CLEAR writes repeat it), per-mille rates of this episode.
    rec_ctrl: Vec<u32>,
    rec_rate: u32,
    /// A record episode bound the channel the driver's way (S21 (a)), or
    /// will after `rec_bind_due` more run cycles.
    rec_bound: bool,
    rec_bind_due: Option<u32>,
}

/// Record buffers (S21): domain d uses 16 MiB at REC_BASE + d * 16 MiB;
/// FAULT_REGION holds the seed's SLVERR range, used by few episodes.
const REC_BASE: u32 = 0x1000_0000;
const FAULT_REGION: u32 = 0x7000_0000;

/// Truth tables worth hitting: each single argument, its negation, all/none,
/// a few two-argument functions (seed 003 "Input selection" step 8).
const TRUTH_TABLES: [u32; 12] =
    [0xaaaa, 0xcccc, 0xf0f0, 0xff00, 0x5555, 0x3333, 0xffff, 0x0000, 0x8888, 0xeeee, 0x6666, 0x8000];

impl RandomStim {
    pub fn new(seed: u64, gen: Gen, domains: usize) -> RandomStim {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Mixed clock rates (S15): 1/1, 1/2, 2/3, 1/N, irregular.
        let mut clocks = Vec::new();
        for dom in 0..domains as u8 {
            let spec = match rng.gen_range(0..8) {
                0..=2 => continue,
                3 => ClockSpec::Ratio { m: 1, n: 2 },
                4 => ClockSpec::Ratio { m: 2, n: 3 },
                5 => ClockSpec::Ratio { m: 1, n: rng.gen_range(3..6) },
                _ => ClockSpec::Irregular { seed: rng.gen() },
            };
            clocks.push((dom, spec));
        }
        // The memory (S21): latency profile and, for some seeds, a fault range.
        let mut queue = VecDeque::new();
        let (min, max) = [(0, 0), (0, 2), (0, 8), (1, 20), (0, 60)][rng.gen_range(0..5)];
        queue.push_back(Cmd::Latency { min, max, seed: rng.gen() });
        if rng.gen_range(0..10) < 4 {
            let lo = u64::from(FAULT_REGION) + rng.gen_range(0..0x40u64) * 0x20;
            queue.push_back(Cmd::Fault { lo, hi: lo + rng.gen_range(0..0x200) });
        }
        let (dom_regs, glob_regs) = nv10::layout_regs(gen.reg_layout());
        RandomStim {
            rng,
            gen,
            layout: gen.reg_layout(),
            domains,
            queue,
            dom_regs,
            glob_regs,
            shared_ctrl: 0,
            driven: vec![Vec::new(); domains],
            read_rate: 20,
            disturb_rate: 2,
            pulse_rate: 5,
            ack_rate: 0,
            clocks,
            rec_ctrl: vec![0; domains],
            rec_rate: 0,
            rec_bound: false,
            rec_bind_due: None,
        }
    }

    /// The clock patterns of this seed, for the engine and saved scripts.
    pub fn clocks(&self) -> &[(u8, ClockSpec)] {
        &self.clocks
    }

    fn pm(&mut self, per_mille: u32) -> bool {
        self.rng.gen_range(0..1000) < per_mille
    }

    fn addr(offset: u16) -> u32 {
        MMIO_BASE + u32::from(offset)
    }

    fn write(&mut self, dom: usize, idx: usize, data: u32) {
        match self.layout {
            RegLayout::Nv40 => {
                if let Some(off) = DOM_REGS[idx].offset_of(RegLayout::Nv40, dom) {
                    self.queue.push_back(Cmd::Write { addr: Self::addr(off), data, strb: 0xf });
                }
            }
            RegLayout::Nv10 => self.write_nv10(dom, idx, data),
        }
    }

    /// A signal number for a selection: mostly one this episode drives,
    /// sometimes a trailer position or any signal.
    fn pick_signal(&mut self, dom: usize) -> u32 {
        match self.rng.gen_range(0..10) {
            0..=6 if !self.driven[dom].is_empty() => {
                let i = self.rng.gen_range(0..self.driven[dom].len());
                u32::from(self.driven[dom][i].sig)
            }
            // Trailer (base 0xe0 + 0x0c..0x1f): own EVENT/FLAG, PM_TRIGGER, ...
            // USER_0/1, ZERO, PERIODIC, WRCACHE_FLUSH, PM_TRIGGER, DOM[k].EVENT/FLAG
            7 | 8 => 0xea + self.rng.gen_range(0..22),
            _ => self.rng.gen_range(0..256),
        }
    }

    fn src_value(&mut self, dom: usize) -> u32 {
        (0..4).fold(0, |v, j| v | self.pick_signal(dom) << (8 * j))
    }

    fn op_value(&mut self) -> u32 {
        let tt = if self.pm(750) {
            TRUTH_TABLES[self.rng.gen_range(0..TRUTH_TABLES.len())]
        } else {
            self.rng.gen::<u32>() & 0xffff
        };
        // Delay / replace / SETFLAG bits 16..20, each now and then; plus
        // undefined high bits to check they are dropped (S8).
        let mut hi = 0;
        for b in 16..=20 {
            if self.pm(200) {
                hi |= 1 << b;
            }
        }
        if self.pm(50) {
            hi |= self.rng.gen::<u32>() & 0xffe0_0000;
        }
        tt | hi
    }

    fn small_count(&mut self) -> u32 {
        match self.rng.gen_range(0..20) {
            0..=15 => self.rng.gen_range(0..4),
            16..=18 => self.rng.gen_range(0..40),
            _ => self.rng.gen(),
        }
    }

    fn ctrl_value(&mut self) -> u32 {
        let mode = match self.rng.gen_range(0..20) {
            0..=11 => 0,
            12..=18 => 1,
            _ => self.rng.gen_range(2..4),
        };
        self.ctrl_with_mode(mode)
    }

    fn ctrl_with_mode(&mut self, mode: u32) -> u32 {
        // The defined modes (with B4/B6/B2) most of the time; reserved 5..7 rarely.
        let ctr_mode = if self.pm(850) { self.rng.gen_range(0..5) } else { self.rng.gen_range(5..8) };
        let mut v = mode | ctr_mode << 4;
        if self.pm(500) {
            v |= 1 << 8; // EVENT_CTR_PERIOD = ALL
        }
        // Import modes (S16), PERIODIC period (S18): short periods mostly,
        // so runs see several pulses.
        v |= u32::from(self.rng.gen::<bool>()) << 11 | u32::from(self.rng.gen::<bool>()) << 13;
        let period = match self.rng.gen_range(0..10) {
            0..=2 => 0,
            3..=6 => 1,
            7 | 8 => 2,
            _ => self.rng.gen_range(3..8),
        };
        v |= period << 21;
        if self.pm(100) {
            v |= self.rng.gen::<u32>() & !0xff; // any other bits: ro/wo/unknown
        }
        v
    }

    /// New driven-signal pool for every domain.
    fn new_signals(&mut self) {
        for dom in 0..self.domains {
            let n = self.rng.gen_range(2..10);
            let mut pool = Vec::with_capacity(n);
            for _ in 0..n {
                // Mostly below the trailer; sometimes in the trailer area
                // (base 0xe0), where inputs at internal positions must be
                // ignored and NV40's +0x0c/+0x0d are external (S9).
                let sig = if self.pm(150) { self.rng.gen_range(0xe0..=0xff) } else { self.rng.gen_range(0..0xe0) };
                let activity = match self.rng.gen_range(0..10) {
                    0 | 1 => Activity::Stuck,
                    2 => Activity::Toggle,
                    3..=5 => Activity::Rate(self.rng.gen_range(5..60)),
                    _ => Activity::Rate(self.rng.gen_range(100..700)),
                };
                let value = self.rng.gen();
                pool.push(Driven { sig, activity, value });
                self.queue.push_back(Cmd::Set { dom: dom as u8, sig, value });
            }
            self.driven[dom] = pool;
        }
        self.read_rate = [2, 20, 100][self.rng.gen_range(0..3)];
        self.ack_rate = [0, 2, 20][self.rng.gen_range(0..3)];
        self.disturb_rate = [0, 1, 5][self.rng.gen_range(0..3)];
        self.pulse_rate = [0, 5, 50][self.rng.gen_range(0..3)];
    }

    /// Program domain `dom` for a single event run and start it.
    fn program_single(&mut self, dom: usize) {
        let mut writes: Vec<(usize, u32)> = Vec::new();
        for src in [regs::PRE_SRC, regs::START_SRC, regs::EVENT_SRC, regs::STOP_SRC] {
            if self.pm(800) {
                let v = self.src_value(dom);
                writes.push((src, v));
            }
        }
        for op in [regs::START_OP, regs::EVENT_OP, regs::STOP_OP, regs::SETFLAG_OP, regs::CLRFLAG_OP] {
            if self.pm(800) {
                let v = self.op_value();
                writes.push((op, v));
            }
        }
        let pre = self.small_count();
        let stop = self.small_count();
        let threshold = match self.rng.gen_range(0..4) {
            0 => 0,
            1 | 2 => self.rng.gen_range(0..50),
            _ => self.rng.gen(),
        };
        writes.push((regs::CTR_PRE, pre));
        writes.push((regs::CTR_STOP, stop));
        writes.push((regs::THRESHOLD, threshold));
        match self.layout {
            RegLayout::Nv40 => {
                let ctrl = self.ctrl_value();
                writes.push((regs::CTRL, ctrl));
            }
            // The episode wrote the shared CTRL for every domain (S24).
            RegLayout::Nv10 => self.single_extras(dom, &mut writes),
        }
        // Driver order varies; PRE_OP (the start) comes last.
        for i in (1..writes.len()).rev() {
            let j = self.rng.gen_range(0..=i);
            writes.swap(i, j);
        }
        for (idx, v) in writes {
            // Signals keep moving while the driver programs (the delay
            // registers then see selection changes, S10).
            if self.pm(500) {
                self.signal_changes();
            }
            self.write(dom, idx, v);
        }
        let pre_op = self.op_value();
        self.write(dom, regs::PRE_OP, pre_op);
    }

    /// Program domain `dom` for quad event mode (S17): selections, the SWAP
    /// signal (G84+), CTRL with MODE = QUAD. Swaps then come from the SWAP
    /// signal, PRE_OP writes (G84+) or PM_TRIGGER (NV40).
    fn program_quad(&mut self, dom: usize) {
        for src in [regs::PRE_SRC, regs::START_SRC, regs::EVENT_SRC, regs::STOP_SRC] {
            if self.pm(700) {
                let v = self.src_value(dom);
                self.write(dom, src, v);
            }
        }
        for op in [regs::PRE_OP, regs::START_OP, regs::EVENT_OP, regs::STOP_OP] {
            if self.pm(600) {
                let v = self.op_value();
                self.write(dom, op, v);
            }
        }
        if DOM_REGS[regs::SPEC_SRC].present(self.gen) {
            let swap = self.pick_signal(dom);
            let unk8 = self.rng.gen_range(0..256);
            self.write(dom, regs::SPEC_SRC, swap | unk8 << 8);
        }
        let ctrl = self.ctrl_with_mode(1);
        self.write(dom, regs::CTRL, ctrl);
    }

    /// Any register access, including unmapped offsets and absent domains.
    fn random_access(&mut self) {
        let offset: u16 = match self.rng.gen_range(0..10) {
            0 => self.rng.gen_range(0..0x400) & !3,
            1 => GLOBAL_REGS[self.glob_regs[self.rng.gen_range(0..self.glob_regs.len())]].offset,
            2 => self.rng.gen_range(0..0x1000) & !3,
            _ => {
                let idx = self.dom_regs[self.rng.gen_range(0..self.dom_regs.len())];
                // Mostly present domains; sometimes one past the count (on the
                // NV10 layout the registers domain 0 alone has answer there).
                let dom = self.rng.gen_range(0..(self.domains + 1).min(8));
                let reg = &DOM_REGS[idx];
                reg.offset_of(self.layout, dom).or(reg.offset_of(self.layout, 0)).unwrap_or_default()
            }
        };
        // PADDR[1:0] are ignored (S0): set them now and then.
        let low = if self.pm(200) { self.rng.gen_range(0..4) } else { 0 };
        let addr = Self::addr(offset) | low;
        if self.pm(400) {
            self.queue.push_back(Cmd::Read { addr, expect: None });
        } else {
            let data = match self.rng.gen_range(0..4) {
                0 => self.op_value(),
                1 => self.small_count(),
                2 => self.ctrl_value(),
                _ => self.rng.gen(),
            };
            // Now and then a partial write, which must be refused (S0).
            let strb = if self.pm(100) { self.rng.gen_range(0..0xf) } else { 0xf };
            self.queue.push_back(Cmd::Write { addr, data, strb });
        }
    }

    fn random_read(&mut self) {
        if self.wide_read() {
            return;
        }
        let dom = self.rng.gen_range(0..self.domains);
        let idx = self.dom_regs[self.rng.gen_range(0..self.dom_regs.len())];
        let addr = match DOM_REGS[idx].offset_of(self.layout, dom) {
            Some(off) => Self::addr(off),
            // NV10 layout: the second half of SIG_STATUS is domain 0's; read
            // the shared CTRL instead (S24).
            None => Self::addr(GLOBAL_REGS[regs::SHARED_CTRL].offset),
        };
        self.queue.push_back(Cmd::Read { addr, expect: None });
    }

    /// Signal changes of one cycle, per the episode's activities.
    fn signal_changes(&mut self) {
        for dom in 0..self.domains {
            for i in 0..self.driven[dom].len() {
                let d = self.driven[dom][i];
                let next = match d.activity {
                    Activity::Stuck => d.value,
                    Activity::Toggle => !d.value,
                    Activity::Rate(p) => {
                        if self.pm(p) {
                            self.rng.gen()
                        } else {
                            d.value
                        }
                    }
                };
                if next != d.value {
                    self.driven[dom][i].value = next;
                    self.queue.push_back(Cmd::Set { dom: dom as u8, sig: d.sig, value: next });
                }
            }
        }
        if self.pm(self.pulse_rate) {
            let input = if self.rng.gen() { GlobalInput::PmTrigger } else { GlobalInput::WrcacheFlush };
            // 1..3 clocks, so pulses also cover the ACCESS cycle of a following transfer.
            let cycles = self.rng.gen_range(1..=3);
            self.queue.push_back(Cmd::Pulse { input, cycles });
        }
    }

    /// One cycle of the run phase: signal changes, then a bus access or a wait.
    fn run_cycle(&mut self) {
        self.signal_changes();
        if let Some(n) = self.rec_bind_due {
            self.rec_bind_due = n.checked_sub(1);
            if n == 0 {
                self.driver_bind();
                return;
            }
        }
        if self.record_action() {
        } else if self.pm(self.disturb_rate) {
            self.random_access();
        } else if self.pm(self.read_rate) {
            self.random_read();
        } else if self.pm(1) {
            // Backdoor preload near the top, so saturation (S6) is reached
            // without 2^32 cycles (docs/semantics.md S14).
            let dom = self.rng.gen_range(0..self.domains) as u8;
            let counter = Counter::ALL[self.rng.gen_range(0..Counter::ALL.len())];
            let value = match counter {
                // Near the end of the longest PERIODIC period (S18), so the
                // 0x8000/0x10000 periods wrap within an episode.
                Counter::PeriodicCnt => 0xffff - self.rng.gen_range(0..300),
                // CTR_START steps once per counting period, and a PRE_OP
                // write restarts the process (S2): start within a few steps.
                Counter::Start => u32::MAX - self.rng.gen_range(0..3),
                _ => u32::MAX - self.rng.gen_range(0..300),
            };
            self.queue.push_back(Cmd::Poke { dom, counter, value: u64::from(value) });
        } else if self.gen.features().wide_counters && self.pm(3) {
            self.wide_boundary_poke();
        } else if self.pm(self.ack_rate) {
            // Driver acknowledges a quad counter set (S17).
            let dom = self.rng.gen_range(0..self.domains);
            let v = if self.pm(900) { 1 } else { self.rng.gen() };
            self.write(dom, regs::QUAD_ACK_TRIGGER, v);
        } else if DOM_REGS[regs::USER_TRIGGER].present(self.gen) && self.pm(2) {
            // USER signals, with and without pulse mode (S19).
            let dom = self.rng.gen_range(0..self.domains);
            let v = self.rng.gen_range(0..16);
            self.write(dom, regs::USER_TRIGGER, v);
        } else if self.pm(3) {
            // PRE_OP while a run is active: the process restarts (S2); a swap in quad mode (S17).
            let dom = self.rng.gen_range(0..self.domains);
            let v = self.op_value();
            self.write(dom, regs::PRE_OP, v);
        } else {
            self.queue.push_back(Cmd::Wait { cycles: 1 });
        }
    }

    fn episode(&mut self) {
        self.new_signals();
        self.rec_rate = 0;
        match self.rng.gen_range(0..20) {
            14..=19 if self.gen.features().record => {
                // Record mode (S21): most domains record, the others count.
                self.rec_rate = [2, 10, 40][self.rng.gen_range(0..3)];
                if !self.rec_bound {
                    self.record_bind();
                }
                for dom in 0..self.domains {
                    match self.rng.gen_range(0..10) {
                        0 => self.program_single(dom),
                        1 => self.program_quad(dom),
                        _ => self.program_record(dom),
                    }
                }
            }
            0 | 1 => {
                for _ in 0..self.rng.gen_range(5..30) {
                    self.random_access();
                }
            }
            2 => {
                if GLOBAL_REGS[regs::GCTRL].present(self.gen) {
                    let v = self.rng.gen::<u32>() & 0x11;
                    self.queue.push_back(Cmd::Write {
                        addr: Self::addr(GLOBAL_REGS[regs::GCTRL].offset),
                        data: v,
                        strb: 0xf,
                    });
                }
            }
            3..=9 => {
                for dom in 0..self.domains {
                    if dom == 0 || self.pm(700) {
                        self.program_quad(dom);
                    }
                }
            }
            _ => {
                if self.layout == RegLayout::Nv10 {
                    self.shared_ctrl_episode();
                }
                for dom in 0..self.domains {
                    if dom == 0 || self.pm(700) {
                        self.program_single(dom);
                    }
                }
            }
        }
        let len = match self.rng.gen_range(0..10) {
            0..=5 => self.rng.gen_range(10..300),
            6..=8 => self.rng.gen_range(300..3000),
            _ => self.rng.gen_range(3000..20000),
        };
        for _ in 0..len {
            self.run_cycle();
        }
    }
}

impl Iterator for RandomStim {
    type Item = Cmd;
    fn next(&mut self) -> Option<Cmd> {
        while self.queue.is_empty() {
            self.episode();
        }
        self.queue.pop_front()
    }
}
