//! Coverage of the PCOUNTER lockstep runs: what each cycle reached, counted
//! on the model (`Stats`), and the bins declared on it (`BINS`,
//! docs/coverage-plan.md).

use pcounter::pcnt::domain::event;
use pcounter::pcnt::record::{self};
use pcounter::pcnt::regs::{self, NUM_DOM_REGS};
use pcounter::{common::bus::BusOp, common::bus::BusResult};

use crate::engine::coverage::{BinDecl, Coverage};
use crate::pcnt::script::ClockSpec;

use super::{Before, Engine};

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
    /// The NV10:NV40 generations (S24).
    pub nv10: super::bins_nv10::Nv10Stats,
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
        count: |s, out| one(out, "layout.real", s.layout_cycles[pcounter::pcnt::config::Layout::Real as usize]),
    },
    BinDecl {
        name: "layout.odd",
        count: |s, out| one(out, "layout.odd", s.layout_cycles[pcounter::pcnt::config::Layout::Odd as usize]),
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
        let mut c = Coverage::of(BINS, self);
        c.merge(&Coverage::of(super::bins_nv10::BINS_NV10, &self.nv10));
        c
    }
}

impl Engine {
    pub(super) fn count(&mut self, bus: Option<BusOp>, res: BusResult, before: &[Before; 8], ticks: u8) {
        let st = &mut self.stats;
        for (dom, d) in self.model.domains.iter().enumerate() {
            if ticks >> dom & 1 == 0 {
                continue;
            }
            let b = &before[dom];
            let ctrl = self.view[dom][regs::CTRL];
            let ctr_mode = regs::field::CTRL_CTR_MODE.get(ctrl) as usize;
            let (from, to) = (b.single, d.core.single_state as usize);
            if from != to {
                st.transitions[from][to] += 1;
            }
            let quad = regs::field::CTRL_MODE.get(ctrl) == 1;
            if from == 3 {
                st.counting_by_mode[ctr_mode] += 1;
                // 40-bit counters (S24) wrap instead; CTR_PRE saturates everywhere.
                let wide = self.model.config().gen.features().wide_counters;
                let ctrs = [
                    (d.core.ctr_cycles, wide),
                    (d.core.ctr_event, wide),
                    (u64::from(d.core.ctr_pre), false),
                    (d.core.ctr_start, wide),
                ];
                for (i, (c, wide)) in ctrs.iter().enumerate() {
                    st.saturated_by_counter[i] += u64::from(!wide && *c == u64::from(u32::MAX));
                }
            }
            if quad {
                st.quad_ticks_by_mode[ctr_mode] += 1;
                let sh = d.core.shadow;
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
            if b.quad != d.core.quad_state {
                st.quad_transitions[usize::from(b.quad)][usize::from(d.core.quad_state)] += 1;
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
            if d.core.periodic {
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
                let target = pcounter::pcnt::domain::target(&self.cfg, offset);
                if let (0xf, Some(pcounter::pcnt::domain::Target::Dom { dom, idx })) = (strb, target) {
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
                if let Some(t) = pcounter::pcnt::domain::target(&self.cfg, offset) {
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
                    strb != 0xf || pcounter::pcnt::domain::target(&self.cfg, offset).is_none()
                }
                Some(BusOp::Read { offset }) => pcounter::pcnt::domain::target(&self.cfg, offset).is_none(),
                None => false,
            };
            st.lax_refused += u64::from(refused);
        }
    }

    /// Record-mode reach counts (S21), from the model's last step.
    pub(super) fn count_record(&mut self, bind: bool, ticks: u8) {
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
}

/// Index of a bus target in the per-register coverage counts.
fn reg_index(t: pcounter::pcnt::domain::Target) -> usize {
    match t {
        pcounter::pcnt::domain::Target::Dom { idx, .. } => idx,
        pcounter::pcnt::domain::Target::Global { idx } => NUM_DOM_REGS + idx,
    }
}

fn bump(v: &mut Vec<u64>, i: usize) {
    if v.len() <= i {
        v.resize(i + 1, 0);
    }
    v[i] += 1;
}
