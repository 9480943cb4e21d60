//! PMON coverage: run counts (`Stats`, counted every cycle from the model's
//! state and the cycle's inputs, before the commit) and the declared bins
//! (`BINS`, one row per bin of docs/coverage-plan.md's PMON part).

use pcounter::common::bus::BusOp;
use pcounter::pmon::regs::{self, box_ctl, ctl0, ctl1, Target};
use pcounter::pmon::PmonBox;

use crate::engine::coverage::{BinDecl, Coverage};

/// Register kinds, for the per-register bus bins.
const KINDS: [&str; 9] =
    ["box_ctl", "box_status", "reserved", "ctl0", "ctl1", "data_lo", "data_hi", "gsts", "discovery"];

fn kind(t: Target) -> usize {
    match t {
        Target::BoxCtl => 0,
        Target::BoxStatus => 1,
        Target::Reserved => 2,
        Target::Ctl0(_) => 3,
        Target::Ctl1(_) => 4,
        Target::DataLo(_) => 5,
        Target::DataHi(_) => 6,
        Target::GstsL => 7,
        Target::UdisL | Target::Const(_) => 8,
    }
}

/// CTL0 fields (and CTL1's Max) in plan order, for `pmon.field.*`.
const FIELDS: [&str; 7] = ["evnt_sel", "umask", "edge", "frz_on_ov", "invert", "thresh", "max"];

#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// A counter counted (d != 0, enabled) with this field non-zero.
    pub field: [u64; FIELDS.len()],
    pub reads: [u64; KINDS.len()],
    pub writes: [u64; KINDS.len()],
    pub slverr_unmapped: u64,
    pub slverr_strb: u64,
    pub max_no_thresh: u64,
    pub max_thresh: u64,
    /// Max kept the data (d > 0 but not greater; P6).
    pub max_keep: u64,
    pub edge_no_thresh: u64,
    pub edge_thresh: u64,
    /// Edge set, condition held from the previous cycle: not counted.
    pub edge_held: u64,
    pub invert_thresh: u64,
    /// Invert without a threshold (ignored, P6).
    pub invert_no_thresh: u64,
    /// Increment exactly at the threshold (counts: >=).
    pub thresh_equal: u64,
    /// Increment below a threshold (does not count).
    pub thresh_below: u64,
    /// P5: Evnt_Sel 0 with selected source-0 lanes non-zero (idle).
    pub event_idle: u64,
    /// P5: counting from a source without sub-events, Umask 0 / != 0.
    pub no_sub_umask0: u64,
    pub no_sub_umask_set: u64,
    /// P5: Umask 0 on a source with sub-events, a lane non-zero.
    pub sub_umask0: u64,
    pub ovf_no_freeze: u64,
    pub ovf_freeze: u64,
    /// BOX_STATUS write 1 clearing a set bit.
    pub status_clear: u64,
    /// P9: GSTS_L.UnitBlock_Ov set (0 to 1) by an overflow with Frz_On_Ov.
    pub gsts_set: u64,
    /// P9: GSTS_L write 1 clearing the set bit (no overflow that cycle).
    pub gsts_clear: u64,
    /// P9: an overflow with Frz_On_Ov while UnitBlock_Ov is already set.
    pub gsts_set_again: u64,
    pub cntr_rst_counting: u64,
    pub data_write_counting: u64,
    pub box_freeze_counting: u64,
    pub box_rst_cntr_counting: u64,
    pub box_rst_ctrl_counting: u64,
    /// `freeze_i` high while a counter would count.
    pub freeze_i_counting: u64,
    /// Counting while the box is frozen by hardware after Frz_On_Ov.
    pub frozen_after_ovf: u64,
    /// The box's Freeze came from an overflow with Frz_On_Ov (no BOX_CTL
    /// write since).
    hw_frozen: bool,
}

impl Stats {
    pub fn new(_num_counters: usize) -> Stats {
        Stats::default()
    }

    pub fn coverage(&self) -> Coverage {
        Coverage::of(BINS, self)
    }

    /// Count one cycle: the model's state before the commit, the cycle's
    /// lanes, `freeze_i` and the bus operation in its ACCESS cycle.
    pub fn count(&mut self, m: &PmonBox, lanes: &[u8], freeze_i: bool, bus: Option<BusOp>) {
        let n = m.config().num_counters;
        let en = !m.freeze && !freeze_i;
        let mut any_would_count = false;
        let mut frz_ovf = false;
        for c in &m.counters {
            let p = c.pipeline(m.events(lanes));
            let thresh = ctl0::THRESH.get(c.ctl0);
            let max = ctl1::MAX.get(c.ctl1) != 0;
            let edge = ctl0::EDGE.get(c.ctl0) != 0;
            let invert = ctl0::INVERT.get(c.ctl0) != 0;
            any_would_count |= p.d != 0;
            if edge && p.asserted && c.prev && en {
                self.edge_held += 1;
            }
            if thresh != 0 && !invert && en {
                if u32::from(p.inc) == thresh {
                    self.thresh_equal += 1;
                } else if u32::from(p.inc) < thresh && p.inc > 0 {
                    self.thresh_below += 1;
                }
            }
            let (sel, umask) = (ctl0::EVNT_SEL.get(c.ctl0) as usize, ctl0::UMASK.get(c.ctl0));
            let source = lanes.get(sel * 8..sel * 8 + 8).unwrap_or(&[]);
            if en && sel == 0 && (0..8).any(|l| umask >> l & 1 != 0 && source[l] != 0) {
                self.event_idle += 1;
            }
            let sub = m.config().sub_events[sel];
            if en && sel != 0 && sub && umask == 0 && source.iter().any(|&v| v != 0) {
                self.sub_umask0 += 1;
            }
            if p.d == 0 || !en {
                continue;
            }
            if sel != 0 && !sub {
                if umask == 0 {
                    self.no_sub_umask0 += 1;
                } else {
                    self.no_sub_umask_set += 1;
                }
            }
            let vals = [
                ctl0::EVNT_SEL.get(c.ctl0),
                ctl0::UMASK.get(c.ctl0),
                u32::from(edge),
                ctl0::FRZ_ON_OV.get(c.ctl0),
                u32::from(invert),
                thresh,
                u32::from(max),
            ];
            for (k, v) in vals.iter().enumerate() {
                self.field[k] += u64::from(*v != 0);
            }
            if max {
                if thresh == 0 {
                    self.max_no_thresh += 1;
                } else {
                    self.max_thresh += 1;
                }
                self.max_keep += u64::from(u64::from(p.d) <= c.data);
            }
            if edge {
                if thresh == 0 {
                    self.edge_no_thresh += 1;
                } else {
                    self.edge_thresh += 1;
                }
            }
            if invert {
                if thresh == 0 {
                    self.invert_no_thresh += 1;
                } else {
                    self.invert_thresh += 1;
                }
            }
            if !max && c.data + u64::from(p.d) > regs::CNTR_MASK {
                if ctl0::FRZ_ON_OV.get(c.ctl0) != 0 {
                    self.ovf_freeze += 1;
                    frz_ovf = true;
                } else {
                    self.ovf_no_freeze += 1;
                }
            }
        }
        if freeze_i && !m.freeze && any_would_count {
            self.freeze_i_counting += 1;
        }
        if m.freeze && self.hw_frozen && any_would_count {
            self.frozen_after_ovf += 1;
        }
        // A counting overflow with Frz_On_Ov freezes the box at this edge
        // (P9); a BOX_CTL write this cycle does not undo it (the set wins).
        if frz_ovf {
            self.hw_frozen = true;
            if m.gsts {
                self.gsts_set_again += 1;
            } else {
                self.gsts_set += 1;
            }
        } else if let Some(BusOp::Write { offset, strb: 0xf, .. }) = bus {
            if regs::decode(offset, n) == Some(Target::BoxCtl) {
                self.hw_frozen = false;
            }
        }
        let counting = en && any_would_count;
        match bus {
            None => {}
            Some(BusOp::Read { offset }) => match regs::decode(offset, n) {
                None => self.slverr_unmapped += 1,
                Some(t) => self.reads[kind(t)] += 1,
            },
            Some(BusOp::Write { offset, data, strb }) => match regs::decode(offset, n) {
                _ if strb != 0xf => self.slverr_strb += 1,
                None => self.slverr_unmapped += 1,
                Some(t) => {
                    self.writes[kind(t)] += 1;
                    match t {
                        Target::BoxCtl if counting => {
                            self.box_freeze_counting += u64::from(box_ctl::FREEZE.get(data) != 0);
                            self.box_rst_cntr_counting += u64::from(box_ctl::RST_CNTR.get(data) != 0);
                            self.box_rst_ctrl_counting += u64::from(box_ctl::RST_CTRL.get(data) != 0);
                        }
                        Target::BoxStatus => self.status_clear += u64::from(u32::from(m.status) & data != 0),
                        Target::GstsL => self.gsts_clear += u64::from(m.gsts && data & 1 != 0 && !frz_ovf),
                        Target::Ctl0(j) if ctl0::CNTR_RST.get(data) != 0 => {
                            self.cntr_rst_counting += u64::from(en && m.counters[j].pipeline(m.events(lanes)).d != 0)
                        }
                        Target::DataLo(j) | Target::DataHi(j) => {
                            self.data_write_counting += u64::from(en && m.counters[j].pipeline(m.events(lanes)).d != 0)
                        }
                        _ => {}
                    }
                }
            },
        }
    }
}

macro_rules! bin {
    ($name:literal, $field:ident) => {
        BinDecl { name: $name, count: |s: &Stats, out| out($name.into(), s.$field) }
    };
}

/// The PMON bins, in plan order (docs/coverage-plan.md, PMON part).
pub static BINS: &[BinDecl<Stats>] = &[
    BinDecl {
        name: "pmon.field.*",
        count: |s, out| {
            for (k, f) in FIELDS.iter().enumerate() {
                out(format!("pmon.field.{f}"), s.field[k]);
            }
        },
    },
    bin!("pmon.field.cntr_rst", cntr_rst_counting),
    BinDecl {
        name: "pmon.read.*",
        count: |s, out| {
            for (k, r) in KINDS.iter().enumerate() {
                out(format!("pmon.read.{r}"), s.reads[k]);
            }
        },
    },
    BinDecl {
        name: "pmon.write.*",
        count: |s, out| {
            for (k, r) in KINDS.iter().enumerate() {
                out(format!("pmon.write.{r}"), s.writes[k]);
            }
        },
    },
    bin!("pmon.bus.slverr_unmapped", slverr_unmapped),
    bin!("pmon.bus.slverr_strb", slverr_strb),
    bin!("pmon.max.no_thresh", max_no_thresh),
    bin!("pmon.max.thresh", max_thresh),
    bin!("pmon.max.keep", max_keep),
    bin!("pmon.edge.no_thresh", edge_no_thresh),
    bin!("pmon.edge.thresh", edge_thresh),
    bin!("pmon.edge.held", edge_held),
    bin!("pmon.invert.thresh", invert_thresh),
    bin!("pmon.invert.no_thresh", invert_no_thresh),
    bin!("pmon.thresh.equal", thresh_equal),
    bin!("pmon.thresh.below", thresh_below),
    bin!("pmon.event.idle", event_idle),
    bin!("pmon.event.no_sub_umask0", no_sub_umask0),
    bin!("pmon.event.no_sub_umask_set", no_sub_umask_set),
    bin!("pmon.event.sub_umask0", sub_umask0),
    bin!("pmon.ovf.no_freeze", ovf_no_freeze),
    bin!("pmon.ovf.freeze", ovf_freeze),
    bin!("pmon.ovf.frozen_after", frozen_after_ovf),
    bin!("pmon.ovf.status_clear", status_clear),
    bin!("pmon.gsts.set", gsts_set),
    bin!("pmon.gsts.set_again", gsts_set_again),
    bin!("pmon.gsts.clear", gsts_clear),
    bin!("pmon.counting.data_write", data_write_counting),
    bin!("pmon.counting.box_freeze", box_freeze_counting),
    bin!("pmon.counting.box_rst_cntr", box_rst_cntr_counting),
    bin!("pmon.counting.box_rst_ctrl", box_rst_ctrl_counting),
    bin!("pmon.counting.freeze_i", freeze_i_counting),
];
