//! GF100 coverage: run counts (`Stats`, counted every cycle from the
//! model's state and the cycle's inputs, before the commit) and the declared
//! bins (`BINS`, one row per bin of docs/coverage-plan.md's GF100 section).

use pcounter::engine::SingleState;
use pcounter::gf100::config::{GfConfig, SetKind};
use pcounter::gf100::domain::{MODE_QUAD, MODE_SINGLE};
use pcounter::gf100::regs::{self as gregs, GfUnit};
use pcounter::gf100::{Gf100Pcounter, GfBusOp, GfCycleInputs};

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
    /// NEXT writes taken in QUAD, per register.
    pub next_write: [u64; 5],
    /// USER_TRIGGER writes with a PULSE bit set / with levels only.
    pub user_pulse: u64,
    pub user_level: u64,
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
        if !m.pmc_en {
            self.pmc_access += u64::from(inp.bus.is_some() && self.pmc_disabled > 0);
            return;
        }
        for (d, dom) in m.domains.iter().enumerate() {
            if inp.ticks >> d & 1 == 0 {
                continue;
            }
            let mode = dom.mode();
            let counting =
                mode == MODE_QUAD || (mode == MODE_SINGLE && dom.engine.single_state == SingleState::Counting);
            if counting {
                let k = KINDS.iter().position(|&k| k == dom.place.kind).unwrap_or(0);
                self.set_counting[k] += 1;
                let filter = dom.stored[gregs::FILTER];
                self.filter_enable += u64::from(filter >> 31 & 1 == 1);
            }
            if mode == MODE_QUAD {
                // USER_0 sits at trailer base + 0x27, base = SigCount - 0x40 (S25.9).
                let user0 = i32::from(dom.place.sig_count) - 0x40 + 0x27;
                let swap = (dom.stored[gregs::SWAP_SRC] & 0xff) as i32;
                if (user0..user0 + 4).contains(&swap) {
                    let u = (swap - user0) as usize;
                    self.swap_user[u] += u64::from(dom.user >> u & 1);
                }
            }
        }
        let Some(op) = inp.bus else { return };
        // A partial-strobe write is refused (PSLVERR, S8): not a write here.
        let (paddr, write, data) = match op {
            GfBusOp::Write { paddr, data, strb } => (paddr, strb == 0xf, data),
            GfBusOp::Read { paddr } => (paddr, false, 0),
        };
        // Presence against the configuration (PSLVERR otherwise, S25.0).
        if pcounter::gf100::top::target(m.config(), paddr).is_none() {
            self.decode_absent += 1;
            return;
        }
        let Some(dec) = gregs::decode(paddr) else { return };
        match dec.unit.block() {
            gregs::GfBlock::Set => self.dset_write += u64::from(write),
            gregs::GfBlock::Main => self.main_write += u64::from(write),
            gregs::GfBlock::Dom if write => {
                let Some(d) = m.config().flat(kind_of(dec.unit), dec.unit_idx, dec.dom) else { return };
                // A domain write is taken at the domain's tick (S15).
                if inp.ticks >> d & 1 == 0 {
                    return;
                }
                let dom = &m.domains[d];
                if let Some(i) = NEXT.iter().position(|&(r, _)| r == dec.idx) {
                    if dom.mode() == MODE_QUAD {
                        self.next_write[i] += 1;
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
            gregs::GfBlock::Dom => {}
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
    BinDecl {
        name: "gf.next.write.*",
        count: |s, out| {
            for ((_, name), n) in NEXT.iter().zip(s.next_write) {
                out(format!("gf.next.write.{name}"), n);
            }
        },
    },
    BinDecl { name: "gf.user.pulse", count: |s, out| out("gf.user.pulse".into(), s.user_pulse) },
    BinDecl { name: "gf.user.level", count: |s, out| out("gf.user.level".into(), s.user_level) },
    BinDecl { name: "gf.single.begin", count: |s, out| out("gf.single.begin".into(), s.single_begin) },
    BinDecl { name: "gf.single.abort", count: |s, out| out("gf.single.abort".into(), s.single_abort) },
    BinDecl { name: "gf.filter.enable", count: |s, out| out("gf.filter.enable".into(), s.filter_enable) },
    BinDecl { name: "gf.pmc.disabled", count: |s, out| out("gf.pmc.disabled".into(), s.pmc_disabled) },
    BinDecl { name: "gf.pmc.access_disabled", count: |s, out| out("gf.pmc.access_disabled".into(), s.pmc_access) },
    BinDecl { name: "gf.dset.write", count: |s, out| out("gf.dset.write".into(), s.dset_write) },
    BinDecl { name: "gf.main.write", count: |s, out| out("gf.main.write".into(), s.main_write) },
    BinDecl { name: "gf.decode.absent", count: |s, out| out("gf.decode.absent".into(), s.decode_absent) },
];
