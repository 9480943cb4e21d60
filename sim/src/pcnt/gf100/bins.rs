//! GF100 coverage: run counts (`Stats`, counted every cycle from the
//! model's state and the cycle's inputs, before the commit) and the declared
//! bins (`BINS`, one row per bin of docs/coverage-plan.md's GF100 section).

use pcounter::pcnt::dom_core::SingleState;
use pcounter::pcnt::gf100::config::{GfConfig, SetKind};
use pcounter::pcnt::gf100::domain::{MODE_HALTED, MODE_QUAD, MODE_SINGLE, TRAILER_INTERNAL};
use pcounter::pcnt::gf100::regs::{self as gregs, GfKind, GfUnit, GF_DOM_REGS};
use pcounter::pcnt::gf100::{Gf100Pcounter, GfBusOp, GfCycleInputs};

use crate::engine::coverage::{BinDecl, Coverage};

const KINDS: [SetKind; 3] = [SetKind::Gpc, SetKind::Part, SetKind::Hub];

/// The NEXT registers a write sets (S25.4), in `gf.next.write.*` order.
const NEXT: [(usize, &str); 5] = [
    (gregs::CTR_CYCLES_NEXT, "cycles"),
    (gregs::CTR_EVENT_NEXT, "event"),
    (gregs::CTR_START_NEXT, "start"),
    (gregs::CTR_PRE_NEXT, "pre"),
    (gregs::CTR_STOP_NEXT, "stop"),
];

#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// Ticks of a domain of each set kind counting (SINGLE COUNTING or QUAD).
    pub set_counting: [u64; 3],
    /// Ticks in QUAD whose SWAP_SRC names USER_i while USER_i is 1.
    pub swap_user: [u64; 4],
    /// Ticks in QUAD whose SWAP_SRC names another domain's EVENT or FLAG of
    /// the set (S25.9) / an external signal, while it is 1: a swap by it.
    pub swap_import: u64,
    pub swap_external: u64,
    /// Ticks in which an import of the set (another domain's EVENT / FLAG)
    /// shows 1, per CTRL import mode (bit 7 / 8: 0 CONTINUOUS, 1 PULSE; S16).
    pub import_event: [u64; 2],
    pub import_flag: [u64; 2],
    /// NEXT writes taken in QUAD, per register.
    pub next_write: [u64; 5],
    /// USER_TRIGGER writes with a PULSE bit set / with levels only.
    pub user_pulse: u64,
    pub user_level: u64,
    /// USER_TRIGGER writes setting USER_i as a one-tick pulse (VAL_i and
    /// PULSE_i both 1, S25.7), per i.
    pub user_pulse_bit: [u64; 4],
    /// A USER_TRIGGER read while a USER value is 1.
    pub user_read_back: u64,
    /// CTRL writes taken per MODE value 0..7 (S25.1).
    pub mode_written: [u64; 8],
    /// In MODE SINGLE with the process running (not INACTIVE): a
    /// SINGLE_BEGIN write (restart), a CTRL write leaving SINGLE, a
    /// *_SRC / *_OP / THRESHOLD write that does not abort (S25.5).
    pub single_restart: u64,
    pub single_leave: u64,
    pub single_config_running: u64,
    /// A PRE_OP write taken in QUAD: no swap on GF100 (S25.3).
    pub quad_pre_op: u64,
    /// A STATE read with a bit of 31:4 set (S25.6).
    pub state_read: u64,
    /// A NEXT read in QUAD while its shadow is non-zero: the running
    /// period's count (S25.4).
    pub next_read_running: u64,
    /// A NEXT write taken in a tick that swaps (the write sets the new
    /// period's shadow; G4, S25.4).
    pub next_write_at_swap: u64,
    /// Ticks of a HALTED domain (PAUSED = 1, S25.11) with a source selecting
    /// its PAUSED position B+0x2c.
    pub paused_selected: u64,
    /// Counting ticks per CTRL.PERIODIC_PERIOD 1..7 (S18, S25.2).
    pub periodic_period: [u64; 8],
    /// QUAD ticks per CTRL.CTR_MODE 0..7 (S25.2: the engine's CTR_MODE, as
    /// PCOUNTER's `ctr_mode.quad.*`).
    pub quad_ctr_mode: [u64; 8],
    /// QUAD ticks with a shadow counter at 0xffffffff, per shadow in the
    /// engine's order (cycles, event, start, pre, stop; S25.4: saturating as
    /// PCOUNTER's `saturate.sh_*`).
    pub shadow_saturated: [u64; 5],
    /// The PMC.ENABLE input driven 0 while a domain counts (S25.14).
    pub pmc_disable_running: u64,
    /// Refused accesses by cause (S25.0): no register at the address, an
    /// absent GPC or partition (or the hub), an absent domain of a present
    /// unit; and reads of a decoded zero register (S25.16).
    pub decode_hole: u64,
    /// A refused access (hole, absent unit or domain, partial strobe)
    /// answered silently under StrictDecode = 0 (S8, S25.0).
    pub lax_refused: u64,
    pub decode_absent_unit: u64,
    pub decode_absent_dom: u64,
    pub zero_read: u64,
    /// DSET CTRL writes per set kind, and with PERIODIC_RESET (bit 4) set.
    pub dset_write_kind: [u64; 3],
    pub dset_periodic_reset: u64,
    /// SINGLE_BEGIN / SINGLE_ABORT written with MODE = SINGLE.
    pub single_begin: u64,
    pub single_abort: u64,
    /// Counting ticks with FILTER.ENABLE = 1 (S25.8: no effect).
    pub filter_enable: u64,
    /// Cycles with the PMC.ENABLE input driven 0; APB accesses while the
    /// unit is held in reset by it (S25.14).
    pub pmc_disabled: u64,
    pub pmc_access: u64,
    /// ACCESS cycles to a DSET CTRL / a MAIN register.
    pub dset_write: u64,
    pub main_write: u64,
    /// ACCESS cycles to an address no present register decodes to.
    pub decode_absent: u64,
}

impl Stats {
    pub fn new(_cfg: &GfConfig) -> Stats {
        Stats::default()
    }

    pub fn coverage(&self) -> Coverage {
        Coverage::of(BINS, self)
    }

    /// Count one cycle: the model's state before the commit and the inputs.
    pub fn count(&mut self, m: &Gf100Pcounter, inp: &GfCycleInputs) {
        // Driven low by the stimulus (not the reset's own first cycle, where
        // pmc_en_q is still 0 with the input high).
        self.pmc_disabled += u64::from(!inp.pmc_enable);
        if m.pmc_en && !inp.pmc_enable {
            self.pmc_disable_running += u64::from(m.domains.iter().any(|d| {
                d.mode() == MODE_QUAD || (d.mode() == MODE_SINGLE && d.engine.single_state == SingleState::Counting)
            }));
        }
        if !m.pmc_en {
            self.pmc_access += u64::from(inp.bus.is_some() && self.pmc_disabled > 0);
            return;
        }
        // Domains whose selected SWAP signal is 1 in this tick (S25.3).
        let mut swapping = 0u64;
        for (d, dom) in m.domains.iter().enumerate() {
            if inp.ticks >> d & 1 == 0 {
                continue;
            }
            let mode = dom.mode();
            let paused = i32::from(dom.place.sig_count) - 0x40 + 0x2c;
            let selects = |v: u32| (0..4).any(|b| (v >> (8 * b) & 0xff) as i32 == paused);
            let srcs = [gregs::PRE_SRC, gregs::START_SRC, gregs::EVENT_SRC, gregs::STOP_SRC];
            self.paused_selected += u64::from(mode == MODE_HALTED && srcs.iter().any(|&r| selects(dom.stored[r])));
            let counting =
                mode == MODE_QUAD || (mode == MODE_SINGLE && dom.engine.single_state == SingleState::Counting);
            if counting {
                // CTRL bits 23:21 (rnndb PERIODIC_PERIOD; S25.2).
                self.periodic_period[(dom.stored[gregs::CTRL] >> 21 & 7) as usize] += 1;
                let k = KINDS.iter().position(|&k| k == dom.place.kind).unwrap_or(0);
                self.set_counting[k] += 1;
                let filter = dom.stored[gregs::FILTER];
                self.filter_enable += u64::from(filter >> 31 & 1 == 1);
            }
            let (ev, fl) = dom.imports();
            let others = !(1u8 << dom.place.idx);
            let ctrl = dom.stored[gregs::CTRL];
            self.import_event[(ctrl >> 7 & 1) as usize] += u64::from(ev & others != 0);
            self.import_flag[(ctrl >> 8 & 1) as usize] += u64::from(fl & others != 0);
            if mode == MODE_QUAD {
                self.quad_ctr_mode[(dom.stored[gregs::CTRL] >> 3 & 7) as usize] += 1;
                for (n, c) in self.shadow_saturated.iter_mut().zip(dom.engine.shadow) {
                    *n += u64::from(c == u32::MAX);
                }
                // USER_0 sits at trailer base + 0x27, base = SigCount - 0x40 (S25.9).
                let base = i32::from(dom.place.sig_count) - 0x40;
                let user0 = base + 0x27;
                let swap = (dom.stored[gregs::SWAP_SRC] & 0xff) as i32;
                let rel = swap - base;
                let mut on = false;
                if (user0..user0 + 4).contains(&swap) {
                    let u = (swap - user0) as usize;
                    on = dom.user >> u & 1 == 1;
                    self.swap_user[u] += u64::from(on);
                } else if (0x30..0x40).contains(&rel) {
                    // DOM[k].EVENT at +0x30 + (7 - k), DOM[k].FLAG at +0x38 + (7 - k).
                    let k = (7 - (rel - 0x30) % 8) as usize;
                    let v = if rel < 0x38 { ev } else { fl };
                    on = v >> k & 1 == 1;
                    self.swap_import += u64::from(k != dom.place.idx && on);
                } else if swap < i32::from(dom.place.sig_count)
                    && !((0x20..0x40).contains(&rel) && TRAILER_INTERNAL >> (rel - 0x20) & 1 == 1)
                {
                    on = inp.sig[d][swap as usize];
                    self.swap_external += u64::from(on);
                }
                swapping |= u64::from(on) << d;
            }
        }
        let Some(op) = inp.bus else { return };
        // A partial-strobe write is refused (PSLVERR, S8): not a write here.
        let (paddr, write, data) = match op {
            GfBusOp::Write { paddr, data, strb } => (paddr, strb == 0xf, data),
            GfBusOp::Read { paddr } => (paddr, false, 0),
        };
        let partial = matches!(op, GfBusOp::Write { strb, .. } if strb != 0xf);
        let absent = pcounter::pcnt::gf100::top::target(m.config(), paddr).is_none();
        self.lax_refused += u64::from(!m.config().strict_decode && (partial || absent));
        // Presence against the configuration (PSLVERR otherwise, S25.0).
        let Some(dec) = gregs::decode(paddr) else {
            self.decode_absent += 1;
            self.decode_hole += 1;
            return;
        };
        if pcounter::pcnt::gf100::top::target(m.config(), paddr).is_none() {
            self.decode_absent += 1;
            let kind = kind_of(dec.unit);
            if dec.unit.block() == gregs::GfBlock::Dom && dec.unit_idx < m.config().units(kind) {
                self.decode_absent_dom += 1;
            } else {
                self.decode_absent_unit += 1;
            }
            return;
        }
        match dec.unit.block() {
            gregs::GfBlock::Set => {
                self.dset_write += u64::from(write);
                if write && dec.idx == gregs::SET_CTRL {
                    let k = KINDS.iter().position(|&k| k == kind_of(dec.unit)).unwrap_or(0);
                    self.dset_write_kind[k] += 1;
                    self.dset_periodic_reset += u64::from(data >> 4 & 1 == 1);
                }
            }
            gregs::GfBlock::Main => self.main_write += u64::from(write),
            gregs::GfBlock::Dom if write => {
                let Some(d) = m.config().flat(kind_of(dec.unit), dec.unit_idx, dec.dom) else { return };
                // A domain write is taken at the domain's tick (S15).
                if inp.ticks >> d & 1 == 0 {
                    return;
                }
                let dom = &m.domains[d];
                let running = dom.mode() == MODE_SINGLE && dom.engine.single_state != SingleState::Inactive;
                let reg = &GF_DOM_REGS[dec.idx];
                match dec.idx {
                    gregs::CTRL => {
                        self.mode_written[(data & 7) as usize] += 1;
                        self.single_leave += u64::from(running && data & 7 != MODE_SINGLE);
                    }
                    gregs::SINGLE_BEGIN_TRIGGER => self.single_restart += u64::from(running),
                    gregs::PRE_OP => self.quad_pre_op += u64::from(dom.mode() == MODE_QUAD),
                    _ => {}
                }
                if running && reg.kind == GfKind::Storage && !reg.aborts && dec.idx != gregs::CTRL {
                    self.single_config_running += u64::from(matches!(
                        dec.idx,
                        gregs::PRE_SRC
                            | gregs::START_SRC
                            | gregs::EVENT_SRC
                            | gregs::STOP_SRC
                            | gregs::EVENT_OP
                            | gregs::STOP_OP
                            | gregs::SETFLAG_OP
                            | gregs::CLRFLAG_OP
                            | gregs::THRESHOLD
                    ));
                }
                if dec.idx == gregs::USER_TRIGGER {
                    for i in 0..4 {
                        self.user_pulse_bit[i] += u64::from(data >> i & 1 == 1 && data >> (4 + i) & 1 == 1);
                    }
                }
                if let Some(i) = NEXT.iter().position(|&(r, _)| r == dec.idx) {
                    if dom.mode() == MODE_QUAD {
                        self.next_write[i] += 1;
                        self.next_write_at_swap += swapping >> d & 1;
                    }
                }
                match dec.idx {
                    gregs::USER_TRIGGER if data & 0xf0 != 0 => self.user_pulse += 1,
                    gregs::USER_TRIGGER => self.user_level += 1,
                    gregs::SINGLE_BEGIN_TRIGGER if dom.mode() == MODE_SINGLE => self.single_begin += 1,
                    gregs::SINGLE_ABORT_TRIGGER if dom.mode() == MODE_SINGLE => self.single_abort += 1,
                    _ => {}
                }
            }
            gregs::GfBlock::Dom => {
                let Some(d) = m.config().flat(kind_of(dec.unit), dec.unit_idx, dec.dom) else { return };
                let dom = &m.domains[d];
                if let Some(i) = NEXT.iter().position(|&(r, _)| r == dec.idx) {
                    // NEXT's order is the engine's shadow order (S25.4).
                    self.next_read_running += u64::from(dom.mode() == MODE_QUAD && dom.engine.shadow[i] != 0);
                }
                match dec.idx {
                    gregs::STATE => self.state_read += u64::from(dom.state_view() >> 4 != 0),
                    gregs::USER_TRIGGER => self.user_read_back += u64::from(dom.user != 0),
                    i if GF_DOM_REGS[i].kind == GfKind::Zero => self.zero_read += 1,
                    _ => {}
                }
            }
        }
    }
}

fn kind_of(u: GfUnit) -> SetKind {
    match u {
        GfUnit::GpcDom | GfUnit::GpcDset => SetKind::Gpc,
        GfUnit::PartDom | GfUnit::PartDset => SetKind::Part,
        _ => SetKind::Hub,
    }
}

/// A bin counting one `Stats` field.
macro_rules! bin {
    ($name:literal, $field:ident) => {
        BinDecl { name: $name, count: |s: &Stats, out| out($name.into(), s.$field) }
    };
}

/// Declared bins, in docs/coverage-plan.md order (section GF100).
pub const BINS: &[BinDecl<Stats>] = &[
    BinDecl {
        name: "gf.set.*",
        count: |s, out| {
            for (k, n) in KINDS.iter().zip(s.set_counting) {
                out(format!("gf.set.{}", k.name()), n);
            }
        },
    },
    BinDecl {
        name: "gf.quad.swap.user*",
        count: |s, out| {
            for (i, n) in s.swap_user.iter().enumerate() {
                out(format!("gf.quad.swap.user{i}"), *n);
            }
        },
    },
    bin!("gf.quad.swap.import", swap_import),
    bin!("gf.quad.swap.external", swap_external),
    BinDecl {
        name: "gf.import.*",
        count: |s, out| {
            for (m, mode) in ["continuous", "pulse"].iter().enumerate() {
                out(format!("gf.import.event.{mode}"), s.import_event[m]);
                out(format!("gf.import.flag.{mode}"), s.import_flag[m]);
            }
        },
    },
    BinDecl {
        name: "gf.next.write.*",
        count: |s, out| {
            for ((_, name), n) in NEXT.iter().zip(s.next_write) {
                out(format!("gf.next.write.{name}"), n);
            }
        },
    },
    bin!("gf.user.pulse", user_pulse),
    BinDecl {
        name: "gf.user.pulse.*",
        count: |s, out| {
            for (i, n) in s.user_pulse_bit.iter().enumerate() {
                out(format!("gf.user.pulse.{i}"), *n);
            }
        },
    },
    bin!("gf.user.level", user_level),
    bin!("gf.user.read_back", user_read_back),
    BinDecl {
        name: "gf.mode.*",
        count: |s, out| {
            for (m, name) in [(0, "halted"), (3, "unk3"), (4, "unk4"), (5, "unk5"), (6, "unk6"), (7, "unk7")] {
                out(format!("gf.mode.{name}"), s.mode_written[m]);
            }
        },
    },
    bin!("gf.quad.pre_op_no_swap", quad_pre_op),
    bin!("gf.single.begin", single_begin),
    bin!("gf.single.begin_restart", single_restart),
    bin!("gf.single.abort", single_abort),
    bin!("gf.single.leave_mode", single_leave),
    bin!("gf.single.config_write_running", single_config_running),
    bin!("gf.state.read", state_read),
    bin!("gf.next.read_running", next_read_running),
    bin!("gf.next.write_at_swap", next_write_at_swap),
    bin!("gf.paused", paused_selected),
    BinDecl {
        name: "gf.periodic.period*",
        count: |s, out| {
            for k in 1..8 {
                out(format!("gf.periodic.period{k}"), s.periodic_period[k]);
            }
        },
    },
    bin!("gf.filter.enable", filter_enable),
    BinDecl {
        name: "gf.ctr_mode.quad.*",
        count: |s, out| {
            for (m, n) in s.quad_ctr_mode.iter().enumerate() {
                out(format!("gf.ctr_mode.quad.{m}"), *n);
            }
        },
    },
    BinDecl {
        name: "gf.saturate.sh_*",
        count: |s, out| {
            for (name, n) in ["cycles", "event", "start", "pre", "stop"].iter().zip(s.shadow_saturated) {
                out(format!("gf.saturate.sh_{name}"), n);
            }
        },
    },
    bin!("gf.pmc.disabled", pmc_disabled),
    bin!("gf.pmc.access_disabled", pmc_access),
    bin!("gf.pmc.disable_running", pmc_disable_running),
    bin!("gf.dset.write", dset_write),
    BinDecl {
        name: "gf.dset.write.*",
        count: |s, out| {
            for (k, n) in KINDS.iter().zip(s.dset_write_kind) {
                out(format!("gf.dset.write.{}", k.name()), n);
            }
        },
    },
    bin!("gf.dset.periodic_reset", dset_periodic_reset),
    bin!("gf.main.write", main_write),
    bin!("gf.decode.absent", decode_absent),
    bin!("gf.decode.hole", decode_hole),
    bin!("gf.decode.lax_refused", lax_refused),
    bin!("gf.decode.absent_unit", decode_absent_unit),
    bin!("gf.decode.absent_dom", decode_absent_dom),
    bin!("gf.decode.zero_reg", zero_read),
];
