//! Reach counts of the NV10:NV40 generations (docs/semantics.md S24,
//! docs/coverage-plan.md "NV10:NV40"): the 40-bit counters, the own
//! SETFLAG/CLRFLAG selections, the shared CTRL and QUAD_ACK_TRIGGER, the
//! trailer by generation, and bus cycles per generation.

use pcounter::pcnt::counter::BIT39;
use pcounter::pcnt::domain::{event, Target};
use pcounter::pcnt::regs::{self, Gen};
use pcounter::{common::bus::BusOp, common::bus::BusResult};

use crate::engine::coverage::BinDecl;

use super::{Before, Engine};

/// The 40-bit counters and their halves (view indices), S24.
const WIDE: [(&str, usize, usize); 3] = [
    ("ctr_cycles", regs::CTR_CYCLES, regs::CTR_CYCLES_HI),
    ("ctr_event", regs::CTR_EVENT, regs::CTR_EVENT_HI),
    ("ctr_start", regs::CTR_START, regs::CTR_START_HI),
];
const WIDE_KINDS: [&str; 3] = ["carry32", "set39", "sticky39"];

/// Counts kept per generation (index = `Gen as usize`).
#[derive(Clone, Debug, Default)]
pub struct Nv10Stats {
    /// [carry32, set39, sticky39][counter]: a counting tick that carries
    /// into bit 32, sets bit 39 by a carry, or wraps the low 39 bits with
    /// bit 39 kept.
    pub wide: [[u64; 3]; 3],
    /// A HI read that differs from the HI of the cycle its LO was read in.
    pub read_torn: u64,
    /// A STOP tick compared against a THRESHOLD_HI != 0.
    pub threshold_hi: u64,
    /// FLAG set / cleared by SETFLAG / CLRFLAG with their own selection in use.
    pub flag_src: [u64; 2],
    /// A shared write taken by one domain in a cycle the other did not take it.
    pub shared_split: u64,
    /// A shared CTRL write taken by domain d while its process ran.
    pub shared_abort: [u64; 2],
    /// Domain 1 COUNTING in EVENT_B4 from the shared CTR_MODE bit.
    pub shared_b4_dom1: u64,
    /// A completed shared CTRL write with a TVOUT bit set.
    pub shared_tvout: u64,
    /// QUAD_ACK_TRIGGER acks of domain 0, domain 1, and writes with both bits.
    pub shared_ack: [u64; 3],
    /// START with EVENT_CTR_PERIOD = ALL, per generation.
    pub ecp_all: [u64; 8],
    /// Quad swaps per generation.
    pub quad_swaps: [u64; 8],
    /// Trailer: +0x1f FLAG at 1 without the NV20 list; +0x1d PM_TRIGGER at 1
    /// and the other domain's FLAG at 1 with it.
    pub trailer: [u64; 3],
    /// Bus cycles per generation.
    pub gen_cycles: [u64; 8],
}

fn per_gen(out: &mut dyn FnMut(String, u64), prefix: &str, v: &[u64; 8], gens: &[Gen]) {
    for g in gens {
        out(format!("{prefix}.{}", g.name()), v[*g as usize]);
    }
}

/// Generations with a field, for the per-generation bins.
fn with(f: fn(Gen) -> bool) -> Vec<Gen> {
    Gen::ALL.into_iter().filter(|g| f(*g)).collect()
}

pub(super) static BINS_NV10: &[BinDecl<Nv10Stats>] = &[
    BinDecl {
        name: "wide.*",
        count: |s, out| {
            for (k, kind) in WIDE_KINDS.iter().enumerate() {
                for (c, (name, _, _)) in WIDE.iter().enumerate() {
                    out(format!("wide.{kind}.{name}"), s.wide[k][c]);
                }
            }
            out("wide.read_torn".into(), s.read_torn);
            out("wide.threshold_hi".into(), s.threshold_hi);
        },
    },
    BinDecl {
        name: "flag_src.*",
        count: |s, out| {
            out("flag_src.setflag".into(), s.flag_src[0]);
            out("flag_src.clrflag".into(), s.flag_src[1]);
        },
    },
    BinDecl {
        name: "shared_ctrl.*",
        count: |s, out| {
            out("shared_ctrl.split_take".into(), s.shared_split);
            out("shared_ctrl.abort.dom0".into(), s.shared_abort[0]);
            out("shared_ctrl.abort.dom1".into(), s.shared_abort[1]);
            out("shared_ctrl.event_b4.dom1".into(), s.shared_b4_dom1);
            out("shared_ctrl.tvout".into(), s.shared_tvout);
            out("shared_ack.dom0".into(), s.shared_ack[0]);
            out("shared_ack.dom1".into(), s.shared_ack[1]);
            out("shared_ack.both".into(), s.shared_ack[2]);
        },
    },
    BinDecl {
        name: "ecp.all.*",
        count: |s, out| {
            let gens = with(|g| regs::field::CTRL_EVENT_CTR_PERIOD.present(g));
            per_gen(out, "ecp.all", &s.ecp_all, &gens);
        },
    },
    BinDecl {
        name: "quad.swap.gen.*",
        count: |s, out| {
            let gens = with(|g| regs::field::CTRL_MODE.present(g));
            per_gen(out, "quad.swap.gen", &s.quad_swaps, &gens);
        },
    },
    BinDecl {
        name: "trailer.*",
        count: |s, out| {
            out("trailer.nv10.flag".into(), s.trailer[0]);
            out("trailer.nv20.pm_trigger".into(), s.trailer[1]);
            out("trailer.nv20.flag_import".into(), s.trailer[2]);
        },
    },
    BinDecl { name: "gen.*", count: |s, out| per_gen(out, "gen", &s.gen_cycles, &Gen::ALL) },
];

impl Engine {
    /// The NV10:NV40 reach counts of one cycle (after the model's step).
    pub(super) fn count_nv10(&mut self, bus: Option<BusOp>, res: BusResult, before: &[Before; 8], ticks: u8) {
        let gen = self.cfg.gen;
        let feat = gen.features();
        let g = gen as usize;
        let st = &mut self.stats.nv10;
        st.gen_cycles[g] += 1;
        let took = self.model.shared_took;
        if took != 0 && took.count_ones() < self.cfg.num_domains.min(2) as u32 {
            st.shared_split += 1;
        }
        for (dom, d) in self.model.domains.iter().enumerate() {
            if ticks >> dom & 1 == 0 {
                continue;
            }
            let b = &before[dom];
            let view = &self.view[dom];
            if feat.wide_counters {
                for (c, now) in [d.core.ctr_cycles, d.core.ctr_event, d.core.ctr_start].into_iter().enumerate() {
                    let was = b.wide[c];
                    let counted = b.single == 3 && now != was;
                    st.wide[0][c] += u64::from(counted && now >> 32 != was >> 32 && now & BIT39 == was & BIT39);
                    st.wide[1][c] += u64::from(counted && was & BIT39 == 0 && now & BIT39 != 0);
                    st.wide[2][c] += u64::from(counted && was & BIT39 != 0 && now & (BIT39 - 1) < was & (BIT39 - 1));
                }
                let stopped = b.single == 3 && d.core.single_state as usize != 3;
                st.threshold_hi += u64::from(stopped && d.stored[regs::THRESHOLD_HI] != 0);
            }
            if feat.flag_src && b.single != 0 {
                st.flag_src[0] += u64::from(!b.flag && d.core.flag && d.stored[regs::SETFLAG_SRC] != 0);
                st.flag_src[1] += u64::from(b.flag && !d.core.flag && d.stored[regs::CLRFLAG_SRC] != 0);
            }
            if took >> dom & 1 != 0 && regs::shared_target(regs::SHARED_CTRL) == Some(regs::CTRL) {
                let ctrl_write = matches!(bus, Some(BusOp::Write { offset, .. })
                    if pcounter::pcnt::domain::target(&self.cfg, offset) == Some(Target::Global { idx: regs::SHARED_CTRL }));
                if ctrl_write && b.single != 0 && dom < 2 {
                    st.shared_abort[dom] += 1;
                }
            }
            let ctr_mode = regs::field::CTRL_CTR_MODE.get(view[regs::CTRL]);
            let nv10_layout = gen.reg_layout() == regs::RegLayout::Nv10;
            st.shared_b4_dom1 += u64::from(nv10_layout && dom == 1 && b.single == 3 && ctr_mode == 1);
            if nv10_layout && d.events & event::ACK != 0 && dom < 2 {
                st.shared_ack[dom] += 1;
            }
            let ecp = regs::field::CTRL_EVENT_CTR_PERIOD.get(view[regs::CTRL]) == 1;
            st.ecp_all[g] += u64::from(b.single == 2 && d.core.single_state as usize == 3 && ecp);
            st.quad_swaps[g] += u64::from(d.events & (event::SWAP_SIGNAL | event::SWAP_PRE_OP) != 0);
            // The trailer word of this cycle (SIG_STATUS of the trailer base).
            let word = view[regs::SIG_STATUS + usize::from(self.cfg.trailer_base[dom]) / 32];
            if !feat.trailer40 && !feat.trailer20 {
                st.trailer[0] += u64::from(word >> 0x1f & 1 != 0);
            }
            if feat.trailer20 {
                st.trailer[1] += u64::from(word >> 0x1d & 1 != 0);
                // The other domain's FLAG: +0x1e for domain 1, +0x1f for domain 0.
                let other = if dom == 0 { 0x1e } else { 0x1f };
                st.trailer[2] += u64::from(self.cfg.num_domains > 1 && word >> other & 1 != 0);
            }
        }
        match bus {
            Some(BusOp::Write { offset, data, strb: 0xf }) if res.ready => {
                match pcounter::pcnt::domain::target(&self.cfg, offset) {
                    Some(Target::Global { idx: regs::SHARED_CTRL }) => st.shared_tvout += u64::from(data & 3 != 0),
                    Some(Target::Global { idx: regs::SHARED_QUAD_ACK_TRIGGER }) => {
                        st.shared_ack[2] += u64::from(data & 0x101 == 0x101)
                    }
                    _ => {}
                }
            }
            Some(BusOp::Read { offset }) if feat.wide_counters => {
                if let Some(Target::Dom { dom, idx }) = pcounter::pcnt::domain::target(&self.cfg, offset) {
                    for (c, (_, lo, hi)) in WIDE.iter().enumerate() {
                        if idx == *lo {
                            self.lo_hi[dom][c] = Some(self.view[dom][*hi]);
                        } else if idx == *hi {
                            if let Some(h) = self.lo_hi[dom][c].take() {
                                st.read_torn += u64::from(h != res.rdata);
                            }
                        }
                    }
                }
            }
            _ => {}
        }
    }
}
