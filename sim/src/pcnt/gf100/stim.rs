//! Constrained-random stimulus of the GF100 top (docs/design/gf100.md 3.5):
//! a deterministic stream of script commands from (seed, preset), ChaCha8.
//!
//! Episodes, each on one domain of a random set: the driver's quad sequence
//! (nouveau `gf100_perfctr_*`: CTRL QUAD, FILTER, SRC/OP per slot, SWAP_SRC
//! on a USER signal and a USER_TRIGGER pulse, reads of the counters, NEXT
//! and STATE), single event mode with the begin/abort triggers and writes
//! while running, NEXT writes (some in a tick the swap signal is held),
//! random register storms over the whole window (absent units, holes, zero
//! registers, DSET, MAIN, partial strobes; then a stored register written
//! and read back) and, rarely, PMC.ENABLE low for a
//! few cycles. Between commands, external signals change at random.

use std::collections::VecDeque;

use pcounter::pcnt::gf100::config::GfConfig;
use pcounter::pcnt::gf100::regs::{self as gregs, GfKind, GfUnit, GF_DOM_REGS};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::pcnt::script::{ClockSpec, Cmd, GF_MMIO_FIRST};

pub struct GfStim {
    rng: ChaCha8Rng,
    cfg: GfConfig,
    queue: VecDeque<Cmd>,
    clocks: Vec<(u8, ClockSpec)>,
}

impl GfStim {
    pub fn new(seed: u64, cfg: &GfConfig) -> GfStim {
        // A stream of its own: the GF100 runs never share a seed's stream
        // with the pre-GF100 stimulus.
        let mut rng = ChaCha8Rng::seed_from_u64(seed ^ 0x6f10_0000_0000_0000);
        let n = cfg.num_domains();
        let mut clocks = Vec::new();
        // Half the runs: some domains on slower clocks (S15).
        if rng.gen_bool(0.5) {
            for d in 0..n {
                if rng.gen_bool(0.3) {
                    let nn = rng.gen_range(2..=4u32);
                    let m = rng.gen_range(1..nn);
                    clocks.push((d as u8, ClockSpec::Ratio { m, n: nn }));
                }
            }
        }
        GfStim { rng, cfg: cfg.clone(), queue: VecDeque::new(), clocks }
    }

    pub fn clocks(&self) -> &[(u8, ClockSpec)] {
        &self.clocks
    }

    fn pm(&mut self, per_mille: u32) -> bool {
        self.rng.gen_range(0..1000) < per_mille
    }

    /// MMIO address of register `idx` of flat domain `dom`.
    fn dom_reg(&self, dom: usize, idx: usize) -> u32 {
        self.cfg.dom_addr(dom).expect("flat domain in range") + GF_DOM_REGS[idx].offset
    }

    fn write(&mut self, dom: usize, idx: usize, data: u32) {
        let addr = self.dom_reg(dom, idx);
        self.queue.push_back(Cmd::Write { addr, data, strb: 0xf });
    }

    fn read(&mut self, dom: usize, idx: usize) {
        let addr = self.dom_reg(dom, idx);
        self.queue.push_back(Cmd::Read { addr, expect: None });
    }

    fn wait(&mut self, cycles: u64) {
        self.queue.push_back(Cmd::Wait { cycles });
    }

    /// Trailer base B = SigCount - 0x40 (S25.9), as a signal number (may be < 0).
    fn base(&self, dom: usize) -> i32 {
        i32::from(self.cfg.place(dom).expect("domain").sig_count) - 0x40
    }

    /// A signal worth selecting: mostly the trailer (USER, PAUSED, PERIODIC,
    /// the set's EVENT/FLAG), else a low external signal or any.
    fn pick_signal(&mut self, dom: usize) -> u32 {
        let b = self.base(dom);
        let sc = i32::from(self.cfg.place(dom).expect("domain").sig_count);
        let s = match self.rng.gen_range(0..10) {
            0..=4 => b + self.rng.gen_range(0x27..0x40),
            5..=7 => self.rng.gen_range(0..8),
            _ => self.rng.gen_range(0..0x100),
        };
        // Positions below 0 do not exist (S25.9); beyond SigCount read 0.
        if !(0..0x100).contains(&s) {
            self.rng.gen_range(0..sc.min(0x100)) as u32
        } else {
            s as u32
        }
    }

    fn src_value(&mut self, dom: usize) -> u32 {
        (0..4).fold(0, |v, k| v | self.pick_signal(dom) << (8 * k))
    }

    /// A logic op with GF100's argument bits (D2: 16, 17 delays; 18 SETFLAG
    /// on EVENT/STOP; 19, 20 the delayed arguments).
    fn op_value(&mut self) -> u32 {
        let func = match self.rng.gen_range(0..6) {
            0 => 0xaaaa,
            1 => 0xcccc,
            2 => 0xffff,
            3 => 0x0000,
            4 => 0x8888,
            _ => self.rng.gen::<u16>().into(),
        };
        let args = if self.pm(300) { self.rng.gen_range(0..32u32) << 16 } else { 0 };
        func | args
    }

    /// CTRL with `mode`: random CTR_MODE, EVENT_CTR_PERIOD, import modes,
    /// UNK fields and PERIODIC_PERIOD (short periods only sometimes).
    fn ctrl(&mut self, mode: u32) -> u32 {
        let ctr_mode = self.rng.gen_range(0..8u32);
        let mut v = mode | ctr_mode << 3 | self.rng.gen_range(0..8u32) << 6;
        if self.pm(300) {
            v |= self.rng.gen_range(0..0x100u32) << 9 | self.rng.gen_range(0..8u32) << 18;
        }
        if self.pm(200) {
            v |= 1 << 21; // PERIODIC_PERIOD 1: 0x400 ticks
        }
        if self.pm(100) {
            v |= self.rng.gen_range(0..4u32) << 26 | u32::from(self.rng.gen_bool(0.5)) << 31;
        }
        v
    }

    fn pick_dom(&mut self) -> usize {
        self.rng.gen_range(0..self.cfg.num_domains())
    }

    fn signal_changes(&mut self, dom: usize) {
        for _ in 0..self.rng.gen_range(0..4) {
            let sig = self.pick_signal(dom) as u8;
            let d = if self.pm(700) { dom } else { self.pick_dom() };
            let value = self.rng.gen_bool(0.5);
            self.queue.push_back(Cmd::Set { dom: d as u8, sig, value });
        }
    }

    /// Run `n` short stretches with signal activity and reads.
    fn run(&mut self, dom: usize, n: u32) {
        for _ in 0..n {
            self.signal_changes(dom);
            let w = self.rng.gen_range(1..40);
            self.wait(w);
            if self.pm(400) {
                let idx = match self.rng.gen_range(0..8) {
                    0 => gregs::CTR_CYCLES,
                    1 => gregs::CTR_EVENT,
                    2 => gregs::STATE,
                    3 => gregs::CTRL,
                    4 => gregs::CTR_EVENT_NEXT,
                    5 => gregs::CTR_CYCLES_NEXT,
                    6 => gregs::USER_TRIGGER,
                    _ => self.rng.gen_range(0..GF_DOM_REGS.len()),
                };
                self.read(dom, idx);
            }
        }
    }

    /// nouveau's sequence: init per slot (CTRL, FILTER, SRC, OP), next (SWAP_SRC
    /// = USER_i, USER_TRIGGER pulse), workload, next again, read per slot.
    fn driver_quad(&mut self, dom: usize) {
        let ctrl = if self.pm(600) { 0x0004_0002 } else { self.ctrl(2) };
        for (src, op) in [
            (gregs::PRE_SRC, gregs::PRE_OP),
            (gregs::START_SRC, gregs::START_OP),
            (gregs::EVENT_SRC, gregs::EVENT_OP),
            (gregs::STOP_SRC, gregs::STOP_OP),
        ] {
            self.write(dom, gregs::CTRL, ctrl);
            let filter = if self.pm(800) { 0 } else { self.rng.gen() };
            self.write(dom, gregs::FILTER, filter);
            let s = self.src_value(dom);
            self.write(dom, src, s);
            let o = self.op_value();
            self.write(dom, op, o);
        }
        if self.pm(300) {
            let o = self.op_value();
            self.write(dom, gregs::SETFLAG_OP, o);
            let o = self.op_value();
            self.write(dom, gregs::CLRFLAG_OP, o);
        }
        for _ in 0..self.rng.gen_range(1..4) {
            let swap = self.swap_src(dom);
            self.write(dom, gregs::SWAP_SRC, swap);
            let user = self.user_value();
            self.write(dom, gregs::USER_TRIGGER, user);
            let n = self.rng.gen_range(1..6);
            self.run(dom, n);
            if self.pm(300) {
                self.write(dom, gregs::QUAD_ACK_TRIGGER, 1);
            }
            for r in [gregs::CTR_PRE, gregs::CTR_START, gregs::CTR_EVENT, gregs::CTR_STOP] {
                if self.pm(500) {
                    self.read(dom, r);
                    self.read(dom, gregs::CTR_CYCLES);
                }
            }
        }
    }

    /// SWAP_SRC: USER_i mostly, else any signal worth selecting.
    fn swap_src(&mut self, dom: usize) -> u32 {
        let user0 = self.base(dom) + 0x27;
        if self.pm(700) && user0 >= 0 {
            (user0 + self.rng.gen_range(0..4)) as u32
        } else {
            self.pick_signal(dom)
        }
    }

    /// USER_TRIGGER: the driver's 0x11 half the time, else random levels/pulses.
    fn user_value(&mut self) -> u32 {
        if self.pm(500) {
            0x11
        } else {
            self.rng.gen_range(0..0x100)
        }
    }

    fn single(&mut self, dom: usize) {
        let c = self.ctrl(1);
        self.write(dom, gregs::CTRL, c);
        for (src, op) in [
            (gregs::PRE_SRC, gregs::PRE_OP),
            (gregs::START_SRC, gregs::START_OP),
            (gregs::EVENT_SRC, gregs::EVENT_OP),
            (gregs::STOP_SRC, gregs::STOP_OP),
        ] {
            let s = self.src_value(dom);
            self.write(dom, src, s);
            let o = self.op_value();
            self.write(dom, op, o);
        }
        let (p, s, t) = (self.rng.gen_range(0..4), self.rng.gen_range(0..4), self.rng.gen_range(0..20));
        self.write(dom, gregs::CTR_PRE, p);
        self.write(dom, gregs::CTR_STOP, s);
        self.write(dom, gregs::THRESHOLD, t);
        // A PRE_OP write in SINGLE starts nothing on GF100 (S25.5).
        let o = self.op_value();
        self.write(dom, gregs::PRE_OP, o);
        let any = self.rng.gen();
        self.write(dom, gregs::SINGLE_BEGIN_TRIGGER, any);
        let n = self.rng.gen_range(2..8);
        for _ in 0..n {
            self.run(dom, 1);
            match self.rng.gen_range(0..20) {
                0 => self.write(dom, gregs::SINGLE_ABORT_TRIGGER, 0),
                1 => self.write(dom, gregs::SINGLE_BEGIN_TRIGGER, 0),
                2 => {
                    let o = self.op_value();
                    self.write(dom, gregs::START_OP, o);
                }
                3 => {
                    let mode = self.rng.gen_range(0..8);
                    let c = self.ctrl(mode);
                    self.write(dom, gregs::CTRL, c);
                }
                _ => {}
            }
        }
        for r in [gregs::CTR_CYCLES, gregs::CTR_EVENT, gregs::CTR_START, gregs::CTR_PRE, gregs::CTR_STOP, gregs::STATE]
        {
            self.read(dom, r);
        }
    }

    /// NEXT writes, some in a tick whose swap signal is held (S25.4).
    fn next_writes(&mut self, dom: usize) {
        if self.pm(500) {
            self.write(dom, gregs::CTRL, 0x0004_0002);
        }
        let swap = self.pick_signal(dom);
        self.write(dom, gregs::SWAP_SRC, swap);
        for _ in 0..self.rng.gen_range(1..6) {
            let idx = [
                gregs::CTR_CYCLES_NEXT,
                gregs::CTR_EVENT_NEXT,
                gregs::CTR_START_NEXT,
                gregs::CTR_PRE_NEXT,
                gregs::CTR_STOP_NEXT,
            ][self.rng.gen_range(0..5)];
            let v = if self.pm(200) { 0xffff_fff0 | self.rng.gen_range(0..16) } else { self.rng.gen_range(0..0x2000) };
            let held = self.pm(300);
            if held {
                self.queue.push_back(Cmd::Set { dom: dom as u8, sig: swap as u8, value: true });
            }
            self.write(dom, idx, v);
            if held {
                self.queue.push_back(Cmd::Set { dom: dom as u8, sig: swap as u8, value: false });
            }
            self.run(dom, 1);
            self.read(dom, idx);
        }
    }

    /// Random accesses over the whole window: every unit kind, absent units
    /// and domains, holes, zero registers, DSET and MAIN, partial strobes;
    /// then one stored register of a domain written and read back, which
    /// is the only way the stimulus exercises the unknown stored registers
    /// (UNK74, UNK7C, UNK84, S25.16: no driver writes them), and a random
    /// access seldom reads back what it wrote.
    fn storm(&mut self) {
        self.storm_window();
        let stored: Vec<usize> = (0..GF_DOM_REGS.len()).filter(|&i| GF_DOM_REGS[i].kind == GfKind::Storage).collect();
        let dom = self.pick_dom();
        let idx = stored[self.rng.gen_range(0..stored.len())];
        let v = self.rng.gen();
        self.write(dom, idx, v);
        self.read(dom, idx);
    }

    fn storm_window(&mut self) {
        for _ in 0..self.rng.gen_range(2..12) {
            let unit = GfUnit::ALL[self.rng.gen_range(0..GfUnit::ALL.len())];
            let units = match unit {
                GfUnit::GpcDom | GfUnit::GpcDset => self.cfg.num_gpc + 1,
                GfUnit::PartDom | GfUnit::PartDset => self.cfg.num_part + 1,
                _ => 1,
            };
            let ui = self.rng.gen_range(0..units.min(unit.units()));
            let doms = if unit.block() == gregs::GfBlock::Dom { unit.doms().min(9) } else { 1 };
            let d = self.rng.gen_range(0..doms);
            let regs = unit.regs();
            let off = if self.pm(100) {
                self.rng.gen_range(0..0x80u32) * 4 // holes too
            } else {
                regs[self.rng.gen_range(0..regs.len())].offset
            };
            let base = unit.base() + ui as u32 * unit.unit_stride() + d as u32 * unit.dom_stride();
            let addr = GF_MMIO_FIRST + base + off;
            if self.rng.gen_bool(0.5) {
                self.queue.push_back(Cmd::Read { addr, expect: None });
            } else {
                let strb = if self.pm(100) { self.rng.gen_range(0..0xf) } else { 0xf };
                let data = self.rng.gen();
                self.queue.push_back(Cmd::Write { addr, data, strb });
            }
        }
    }

    /// A set's PERIODIC_RESET toggled while its domains run PERIODIC (S25.12).
    fn dset_periodic(&mut self) {
        let sets = self.cfg.num_sets();
        let set = self.rng.gen_range(0..sets);
        let addr = GF_MMIO_FIRST
            + if set < self.cfg.num_gpc {
                0x38000 + 0x200 * set as u32
            } else if set < self.cfg.num_gpc + self.cfg.num_part {
                0x3c000 + 0x200 * (set - self.cfg.num_gpc) as u32
            } else {
                0x3e000
            };
        let v = if self.rng.gen_bool(0.5) { 0x10 } else { 0 };
        self.queue.push_back(Cmd::Write { addr, data: v | self.rng.gen_range(0..2), strb: 0xf });
    }

    fn episode(&mut self) {
        let dom = self.pick_dom();
        match self.rng.gen_range(0..100) {
            0..=34 => self.driver_quad(dom),
            35..=54 => self.single(dom),
            55..=69 => self.next_writes(dom),
            70..=84 => self.storm(),
            85..=92 => self.dset_periodic(),
            93..=96 => {
                let n = self.rng.gen_range(1..5);
                self.queue.push_back(Cmd::PmcEnable { on: false });
                self.wait(n);
                if self.pm(300) {
                    self.read(dom, gregs::CTRL);
                }
                self.queue.push_back(Cmd::PmcEnable { on: true });
            }
            _ => {
                let n = self.rng.gen_range(1..10);
                self.run(dom, n);
            }
        }
    }
}

impl Iterator for GfStim {
    type Item = Cmd;

    fn next(&mut self) -> Option<Cmd> {
        while self.queue.is_empty() {
            self.episode();
        }
        self.queue.pop_front()
    }
}
