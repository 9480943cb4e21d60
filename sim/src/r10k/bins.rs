//! R10K coverage: run counts (`Stats`, counted every cycle from the model's
//! state and the cycle's inputs, before the commit) and the declared bins
//! (`BINS`, one row per bin of docs/coverage-plan.md's R10K part).

use pcounter::common::bus::BusOp;
use pcounter::r10k::regs::{self, ctl, Target, Variant, NUM_COUNTERS};
use pcounter::r10k::{Mode, R10kUnit};

use crate::engine::coverage::{BinDecl, Coverage};

/// Mode bits in control-register order (EXL 0, K 1, S 2, U 3).
const BITS: [&str; 4] = ["exl", "k", "s", "u"];

#[derive(Clone, Debug, Default)]
pub struct Stats {
    /// [variant][counter][event]: the counter counted (a non-zero
    /// increment in a matching mode) with this Event selected.
    pub event: [[[u64; 32]; NUM_COUNTERS]; 2],
    /// [U/S/K/EXL combination]: a counter with these mode bits saw a
    /// non-zero increment, ERL = 0 (counted or not).
    pub modebits: [u64; 16],
    /// [bit]: counted because the mode matched this bit (R7).
    pub matched: [u64; 4],
    /// [bit]: ERL = 1 with this bit set and an increment: not counted.
    pub erl: [u64; 4],
    /// KSU = 3, EXL = ERL = 0, mode bits set: not counted.
    pub ksu3: u64,
    /// EXL = 1 with the bit of the KSU mode set but EXL clear: not counted.
    pub exl_over_ksu: u64,
    /// Mode bits set, none matching the mode: not counted.
    pub nomatch: u64,
    pub ovf_ie: u64,
    pub ovf_no_ie: u64,
    /// Crossing into bit 31 with an increment above 1.
    pub ovf_multi: u64,
    /// A control write to the counter in the cycle its count reaches bit 31.
    pub ovf_ctl_write: u64,
    /// Counting with bit 31 already set, no wrap.
    pub past31: u64,
    /// Counting wraps at 2^32.
    pub wrap: u64,
    /// A count write with bit 31 clear to a counter requesting the interrupt.
    pub irq_cnt_clear: u64,
    /// A control write with IE clear to a counter requesting the interrupt.
    pub irq_ie_clear: u64,
    /// Both counters request the interrupt.
    pub irq_both: u64,
    pub cnt_write_counting: u64,
    pub ctl_write_counting: u64,
    /// A control write with bits outside the variant's mask (R3).
    pub ctl_reserved: u64,
    pub reads: [u64; 2],
    pub writes: [u64; 2],
    pub slverr_unmapped: u64,
    pub slverr_strb: u64,
    /// An accepted access with PADDR[1:0] != 0.
    pub unaligned: u64,
}

fn kind(t: Target) -> usize {
    match t {
        Target::Ctl(_) => 0,
        Target::Cnt(_) => 1,
    }
}

impl Stats {
    pub fn coverage(&self) -> Coverage {
        Coverage::of(BINS, self)
    }

    /// Count one cycle: the model's state before the commit, the cycle's
    /// event inputs and mode, and the bus operation in its ACCESS cycle.
    pub fn count(&mut self, m: &R10kUnit, events: &[u8], mode: Mode, bus: Option<BusOp>) {
        let v = m.variant();
        let vi = usize::from(v == Variant::R12000);
        let write = match bus {
            Some(BusOp::Write { offset, data, strb: 0xf }) => regs::decode(offset).map(|t| (t, data)),
            _ => None,
        };
        for (j, c) in m.counters.iter().enumerate() {
            let inc = c.increment(v, j, events);
            let en = c.enabled(mode);
            let bits = ctl::MODE.get(c.ctl);
            let counting = en && inc > 0;
            if counting {
                self.event[vi][j][v.event_field().get(c.ctl) as usize] += 1;
                if let Some(b) = mode.enable_bit() {
                    self.matched[b as usize] += 1;
                }
            }
            if inc > 0 && !mode.erl {
                self.modebits[bits as usize] += 1;
            }
            if inc > 0 && bits != 0 && !en {
                self.nomatch += 1;
                if mode.erl {
                    (0..4).filter(|b| bits >> b & 1 != 0).for_each(|b| self.erl[b] += 1);
                } else if !mode.exl && mode.ksu == 3 {
                    self.ksu3 += 1;
                } else if mode.exl && (Mode { exl: false, ..mode }).enable_bit().is_some_and(|b| bits >> b & 1 != 0) {
                    self.exl_over_ksu += 1;
                }
            }
            let (ctl_w, cnt_w) = match write {
                Some((Target::Ctl(k), x)) if k == j => (Some(x), None),
                Some((Target::Cnt(k), x)) if k == j => (None, Some(x)),
                _ => (None, None),
            };
            if counting {
                let sum = u64::from(c.cnt) + u64::from(inc);
                let crosses = c.cnt >> 31 == 0 && sum >> 31 == 1;
                if crosses && cnt_w.is_none() {
                    if ctl::IE.get(c.ctl) != 0 {
                        self.ovf_ie += 1;
                    } else {
                        self.ovf_no_ie += 1;
                    }
                    self.ovf_multi += u64::from(inc > 1);
                    self.ovf_ctl_write += u64::from(ctl_w.is_some());
                }
                if c.cnt >> 31 == 1 && sum < 1 << 32 {
                    self.past31 += 1;
                }
                self.wrap += u64::from(sum >> 32 != 0 && cnt_w.is_none());
                self.cnt_write_counting += u64::from(cnt_w.is_some());
                self.ctl_write_counting += u64::from(ctl_w.is_some());
            }
            if c.irq() {
                self.irq_cnt_clear += u64::from(cnt_w.is_some_and(|x| x >> 31 == 0));
                self.irq_ie_clear += u64::from(ctl_w.is_some_and(|x| ctl::IE.get(x) == 0));
            }
            if ctl_w.is_some_and(|x| x & !v.ctl_wr_mask() != 0) {
                self.ctl_reserved += 1;
            }
        }
        self.irq_both += u64::from(m.counters.iter().all(|c| c.irq()));
        match bus {
            None => {}
            Some(BusOp::Read { offset }) => match regs::decode(offset) {
                None => self.slverr_unmapped += 1,
                Some(t) => {
                    self.reads[kind(t)] += 1;
                    self.unaligned += u64::from(offset & 3 != 0);
                }
            },
            Some(BusOp::Write { offset, strb, .. }) => match regs::decode(offset) {
                _ if strb != 0xf => self.slverr_strb += 1,
                None => self.slverr_unmapped += 1,
                Some(t) => {
                    self.writes[kind(t)] += 1;
                    self.unaligned += u64::from(offset & 3 != 0);
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

/// The R10K bins, in plan order (docs/coverage-plan.md, R10K part).
pub static BINS: &[BinDecl<Stats>] = &[
    BinDecl {
        name: "r10k.event.*",
        count: |s, out| {
            for v in Variant::ALL {
                let vi = usize::from(v == Variant::R12000);
                for j in 0..NUM_COUNTERS {
                    for e in 0..v.events_per_counter() as usize {
                        out(format!("r10k.event.{}.c{j}.e{e}", v.name()), s.event[vi][j][e]);
                    }
                }
            }
        },
    },
    BinDecl {
        name: "r10k.modebits.*",
        count: |s, out| {
            for (k, n) in s.modebits.iter().enumerate() {
                out(format!("r10k.modebits.{k:x}"), *n);
            }
        },
    },
    BinDecl {
        name: "r10k.match.*",
        count: |s, out| {
            for (b, name) in BITS.iter().enumerate() {
                out(format!("r10k.match.{name}"), s.matched[b]);
            }
        },
    },
    BinDecl {
        name: "r10k.erl.*",
        count: |s, out| {
            for (b, name) in BITS.iter().enumerate() {
                out(format!("r10k.erl.{name}"), s.erl[b]);
            }
        },
    },
    bin!("r10k.nomatch.any", nomatch),
    bin!("r10k.nomatch.ksu3", ksu3),
    bin!("r10k.nomatch.exl_over_ksu", exl_over_ksu),
    bin!("r10k.ovf.ie", ovf_ie),
    bin!("r10k.ovf.no_ie", ovf_no_ie),
    bin!("r10k.ovf.multi", ovf_multi),
    bin!("r10k.ovf.ctl_write", ovf_ctl_write),
    bin!("r10k.ovf.past31", past31),
    bin!("r10k.ovf.wrap", wrap),
    bin!("r10k.irq.cnt_clear", irq_cnt_clear),
    bin!("r10k.irq.ie_clear", irq_ie_clear),
    bin!("r10k.irq.both", irq_both),
    bin!("r10k.counting.cnt_write", cnt_write_counting),
    bin!("r10k.counting.ctl_write", ctl_write_counting),
    bin!("r10k.ctl.reserved", ctl_reserved),
    BinDecl {
        name: "r10k.read.*",
        count: |s, out| {
            out("r10k.read.ctl".into(), s.reads[0]);
            out("r10k.read.cnt".into(), s.reads[1]);
        },
    },
    BinDecl {
        name: "r10k.write.*",
        count: |s, out| {
            out("r10k.write.ctl".into(), s.writes[0]);
            out("r10k.write.cnt".into(), s.writes[1]);
        },
    },
    bin!("r10k.bus.slverr_unmapped", slverr_unmapped),
    bin!("r10k.bus.slverr_strb", slverr_strb),
    bin!("r10k.bus.unaligned", unaligned),
];
