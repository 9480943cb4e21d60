//! One GF100+ PCOUNTER domain: the register shell of the GF100 layout
//! around the layout-free counting engine (`dom_core.rs`). Mirrors
//! `rtl/pcnt/pcnt_gf_domain.sv` (the import synchronizers, which the RTL
//! instantiates in `pcnt_gf100_top`, are kept here as per-destination bit
//! masks, as `domain.rs` does for NV40).
//!
//! Contract (docs/design/gf100.md section 2): storage by GF100 view index
//! with the generated masks; CTRL decode (S25.1, S25.2: MODE 0 HALTED, 1 SINGLE,
//! 2 QUAD, every other MODE counts nothing); the OP words remapped to the
//! engine's GT215 format (D2); SINGLE_BEGIN / SINGLE_ABORT and a CTRL write
//! leaving SINGLE (S25.5); NEXT reads and writes through the engine's shadow
//! port (S25.4); STATE from flops only (S25.6); four USER signals (S25.7); FILTER and
//! the UNK registers stored with no effect (S25.8, S25.16); the trailer at
//! B = SigCount - 0x40 (S25.9); SRC_STATUS with the flag arguments (S25.10);
//! PAUSED = MODE is HALTED (S25.11). A write in tick t is seen from t+1 (S1);
//! everything advances only at the domain's ticks (S15); every stored bit
//! resets to 0 (S8, S25.13).

use crate::common::pulse_sync::{self, PulseSync};
use crate::pcnt::dom_core::{self, input, shadow, Comb, Controls, EngineState};
use crate::pcnt::domain::{Exports, Signals};
use crate::pcnt::regs::Gen;

use super::config::DomPlace;
use super::regs::{self as gr, field, GfKind, GF_DOM_REGS, GF_NUM_DOM_REGS};

/// CTRL.MODE codes (S25.1; S25.1).
pub const MODE_HALTED: u32 = 0;
pub const MODE_SINGLE: u32 = 1;
pub const MODE_QUAD: u32 = 2;

/// Internal positions of the domain's last signal word (signals SigCount -
/// 0x20 .. SigCount - 1 = trailer B+0x20..B+0x3f, S25.9): USER_0..3 (+0x27..
/// +0x2a), PAUSED (+0x2c), PERIODIC (+0x2e), DOM[k].EVENT (+0x30..+0x37),
/// DOM[k].FLAG (+0x38..+0x3f). Every other bit is the external input.
pub const TRAILER_INTERNAL: u32 = 0xffff_5780;
const USER_BIT: u32 = 0x07;
const PAUSED_BIT: u32 = 0x0c;
const PERIODIC_BIT: u32 = 0x0e;

/// The view index of each NEXT register and the shadow it reads (S25.4).
const NEXT_REGS: [(usize, usize); 5] = [
    (gr::CTR_CYCLES_NEXT, shadow::CYCLES),
    (gr::CTR_EVENT_NEXT, shadow::EVENT),
    (gr::CTR_START_NEXT, shadow::START),
    (gr::CTR_PRE_NEXT, shadow::PRE),
    (gr::CTR_STOP_NEXT, shadow::STOP),
];

/// What a domain sees in one bus cycle.
#[derive(Clone, Copy)]
pub struct GfDomainInputs<'a> {
    /// The domain's external signal inputs (internal positions ignored).
    pub sig: &'a Signals,
    /// Accepted write to this domain in this cycle: (view index, data). Only
    /// in a tick (the front-end holds PREADY low until then, S15).
    pub write: Option<(usize, u32)>,
    /// This domain's clock enable (S15).
    pub tick: bool,
    /// The exported flops of the domain's set, index k = domain k of the set
    /// (S16; S25.12: nothing from other sets).
    pub exports: Exports,
    /// The set's DSET CTRL.PERIODIC_RESET (S25.12, S18).
    pub periodic_reset: bool,
}

/// The registers of one GF100 domain (`_q` in the RTL).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GfDomain {
    /// Where the domain sits (configuration, not state).
    pub place: DomPlace,
    /// Stored bits of the `GfKind::Storage` registers by view index, masked
    /// with their `store_mask` (USER_TRIGGER is kept in `user`/`user_pulse`).
    pub stored: [u32; GF_NUM_DOM_REGS],
    /// The counting engine: counters, shadows, single and quad state, FLAG,
    /// EVENT/FLAG signals and edge counts, PERIODIC, previous selections.
    pub engine: EngineState,
    /// USER_0..3 values and their pulse-mode bits (S25.7).
    pub user: u8,
    pub user_pulse: u8,
    /// STATE flops (S25.6): the previous tick's raw SWAP signal and PRE, START,
    /// STOP logic-op results.
    pub swap_prev: bool,
    pub pre_prev: bool,
    pub start_prev: bool,
    pub stop_prev: bool,
    /// Destination side of the imports inside the set (S16): CONTINUOUS
    /// stages s1/s2, bit k = from domain k of the set; PULSE synchronizers
    /// indexed by k.
    pub ev_s: [u8; 2],
    pub fl_s: [u8; 2],
    pub ev_pulse: [PulseSync; 8],
    pub fl_pulse: [PulseSync; 8],
}

/// GF100 OP bits 19/20 (ARG2 <- SRC[0] delayed, ARG3 <- SRC[1] delayed) of
/// PRE/START/SETFLAG/CLRFLAG_OP into the engine's GT215 slots 18/19 (D2);
/// EVENT_OP / STOP_OP already have the GT215 layout (18 SETFLAG, 19, 20).
pub fn plain_op(op: u32) -> u32 {
    (op & 0x3_ffff) | ((op >> 19) & 1) << 18 | ((op >> 20) & 1) << 19
}

impl GfDomain {
    /// A domain just out of reset (S8, S25.13): every stored bit 0, MODE HALTED.
    pub fn new(place: DomPlace) -> GfDomain {
        GfDomain {
            place,
            stored: [0; GF_NUM_DOM_REGS],
            engine: EngineState::default(),
            user: 0,
            user_pulse: 0,
            swap_prev: false,
            pre_prev: false,
            start_prev: false,
            stop_prev: false,
            ev_s: [0; 2],
            fl_s: [0; 2],
            ev_pulse: [PulseSync::default(); 8],
            fl_pulse: [PulseSync::default(); 8],
        }
    }

    /// The stored CTRL.MODE.
    pub fn mode(&self) -> u32 {
        field::CTRL_MODE.get(self.stored[gr::CTRL])
    }

    /// Bit mask of the set's domains other than this one.
    fn others(&self) -> u8 {
        let all = ((1u16 << self.place.set_size) - 1) as u8;
        all & !(1u8 << self.place.idx)
    }

    /// DOM[k].EVENT / DOM[k].FLAG as this domain sees them (bit k): its own
    /// signals directly, the set's others through the import CTRL bits 7/8
    /// select (S16, S25.9); k >= the set's size: 0.
    pub fn imports(&self) -> (u8, u8) {
        let ctrl = self.stored[gr::CTRL];
        let pulses = |p: &[PulseSync; 8]| p.iter().enumerate().fold(0u8, |a, (k, x)| a | u8::from(x.pulse()) << k);
        let pick = |pulse: bool, s: &[u8; 2], p: &[PulseSync; 8]| if pulse { pulses(p) } else { s[1] };
        let others = self.others();
        let ev = pick(field::CTRL_EVENT_IMPORT_MODE.get(ctrl) == 1, &self.ev_s, &self.ev_pulse) & others;
        let fl = pick(field::CTRL_FLAG_IMPORT_MODE.get(ctrl) == 1, &self.fl_s, &self.fl_pulse) & others;
        let own = self.place.idx;
        (ev | u8::from(self.engine.event_sig) << own, fl | u8::from(self.engine.flag_sig) << own)
    }

    /// This domain's exports to its set's synchronizers (S16), as domain
    /// `place.idx` of the set.
    pub fn export_into(&self, x: &mut Exports) {
        let k = self.place.idx;
        x.event_sig |= u8::from(self.engine.event_sig) << k;
        // The FLAG register itself (S16), not the delayed FLAG signal.
        x.flag_sig |= u8::from(self.engine.flag) << k;
        x.event_cnt[k] = self.engine.event_cnt;
        x.flag_cnt[k] = self.engine.flag_cnt;
    }

    /// The 256 signals as every consumer inside the domain sees them (S9,
    /// S25.9): external inputs, the internal trailer in the last word, 0 at and
    /// past SigCount.
    pub fn effective_signals(&self, inp: &GfDomainInputs) -> [u32; 8] {
        let mut w = inp.sig.into_inner();
        // SigCount is a multiple of 0x20 in 0x20..0x100 (GfConfig::validate).
        let words = usize::from(self.place.sig_count) / 32;
        for word in w.iter_mut().skip(words) {
            *word = 0;
        }
        let (ev, fl) = self.imports();
        let mut t = u32::from(self.user & 0xf) << USER_BIT;
        t |= u32::from(self.mode() == MODE_HALTED) << PAUSED_BIT;
        t |= u32::from(self.engine.periodic) << PERIODIC_BIT;
        for k in 0..8 {
            t |= u32::from((ev >> k) & 1) << (0x17 - k);
            t |= u32::from((fl >> k) & 1) << (0x1f - k);
        }
        let last = &mut w[words - 1];
        *last = (*last & !TRAILER_INTERNAL) | t;
        w
    }

    fn srcs(&self) -> [u32; input::COUNT] {
        let st = &self.stored;
        // No SETFLAG_SRC / CLRFLAG_SRC: the flag ops take START/PRE args (S10).
        [st[gr::PRE_SRC], st[gr::START_SRC], st[gr::EVENT_SRC], st[gr::STOP_SRC], 0, 0]
    }

    /// The raw signal SWAP_SRC selects (S25.3).
    fn swap_signal(&self, eff: &[u32; 8]) -> bool {
        let s = field::SWAP_SRC_SWAP.get(self.stored[gr::SWAP_SRC]) as usize;
        (eff[s / 32] >> (s % 32)) & 1 != 0
    }

    /// The engine's controls of a tick: stored registers decoded (S25.1, S25.2,
    /// D2) and this tick's write's side effects (S25.4, S25.5, S17).
    fn controls(&self, eff: [u32; 8], write: Option<(usize, u32)>, periodic_reset: bool) -> Controls {
        let st = &self.stored;
        let ctrl = st[gr::CTRL];
        let written = |idx: usize| write.filter(|w| w.0 == idx).map(|w| w.1);
        let mode = self.mode();
        let new_mode = written(gr::CTRL).map(|v| field::CTRL_MODE.get(v));
        Controls {
            sig: eff,
            src: self.srcs(),
            op: [
                plain_op(st[gr::PRE_OP]),
                plain_op(st[gr::START_OP]),
                st[gr::EVENT_OP],
                st[gr::STOP_OP],
                plain_op(st[gr::SETFLAG_OP]),
                plain_op(st[gr::CLRFLAG_OP]),
            ],
            threshold: u64::from(st[gr::THRESHOLD]),
            gen: Gen::Gt215,
            wide_counters: false,
            flag_src: false,
            mode_single: mode == MODE_SINGLE,
            mode_quad: mode == MODE_QUAD,
            ctr_mode: field::CTRL_CTR_MODE.get(ctrl),
            event_ctr_period: field::CTRL_EVENT_CTR_PERIOD.get(ctrl) != 0,
            periodic_period: field::CTRL_PERIODIC_PERIOD.get(ctrl),
            periodic_reset,
            // S25.5: only SINGLE_BEGIN starts, only in MODE = SINGLE.
            start: mode == MODE_SINGLE && written(gr::SINGLE_BEGIN_TRIGGER).is_some(),
            // S25.5: SINGLE_ABORT, or a CTRL write whose MODE is not SINGLE.
            abort: write.is_some_and(|(idx, _)| GF_DOM_REGS[idx].aborts) || new_mode.is_some_and(|m| m != MODE_SINGLE),
            swap: self.swap_signal(&eff),
            ack: written(gr::QUAD_ACK_TRIGGER).is_some_and(|v| v & 1 != 0),
            // S17, S25.2: a CTRL write entering QUAD from another mode.
            quad_enter: mode != MODE_QUAD && new_mode == Some(MODE_QUAD),
            init_pre: written(gr::CTR_PRE),
            init_stop: written(gr::CTR_STOP),
            // S25.4: the five writable NEXT registers (CTR_CYCLES_NEXT_RO,
            // _HIGH and CTR_RECORD_STOP_NEXT are not among them).
            shadow_write: write.and_then(|(idx, v)| NEXT_REGS.iter().find(|r| r.0 == idx).map(|r| (r.1, v))),
        }
    }

    /// CTRL as read (S25.2): stored bits, QUAD_STATE, SINGLE_STATE.
    pub fn ctrl_view(&self) -> u32 {
        self.stored[gr::CTRL]
            | field::CTRL_QUAD_STATE.set(0, u32::from(self.engine.quad_state))
            | field::CTRL_SINGLE_STATE.set(0, self.engine.single_state as u32)
    }

    /// STATE (S25.6): flops only.
    pub fn state_view(&self) -> u32 {
        let e = &self.engine;
        let prev = e.src_prev;
        let b = |v: bool, n: u32| u32::from(v) << n;
        e.single_state as u32
            | u32::from(e.quad_state) << 2
            | b(e.flag, 4)
            | b(e.flag_sig, 5)
            // The parity of the Gray edge count = bit 0 of its binary value.
            | b(pulse_sync::gray2bin(e.event_cnt) & 1 != 0, 7)
            | ((prev >> 8) & 0xf) << 8
            | b(self.swap_prev, 12)
            | ((prev >> 12) & 0xf) << 16
            | ((prev >> 2) & 0x3) << 20
            | ((prev >> 6) & 0x3) << 22
            | b(e.event_sig, 24)
            | b(self.pre_prev, 25)
            | b(self.start_prev, 26)
            | b(self.stop_prev, 27)
    }

    /// SRC_STATUS (S25.10): bits 15:0 as S9, then SETFLAG's arguments
    /// (START_SRC[2], START_SRC[3], PRE_SRC[0], PRE_SRC[1]) and CLRFLAG's
    /// (PRE_SRC[2], PRE_SRC[3], START_SRC[0], START_SRC[1]) of this cycle.
    pub fn src_status(&self, eff: &[u32; 8]) -> u32 {
        let sel = dom_core::select(eff, &self.srcs(), false) & 0xffff;
        let pick = |bits: [u32; 4]| bits.iter().enumerate().fold(0, |a, (j, &n)| a | ((sel >> n) & 1) << j);
        sel | pick([6, 7, 0, 1]) << 16 | pick([2, 3, 4, 5]) << 20
    }

    /// The register view of this cycle (S25.0): what a read of each
    /// register returns. Triggers and zero registers read 0.
    pub fn view(&self, inp: &GfDomainInputs, out: &mut [u32; GF_NUM_DOM_REGS]) {
        for (idx, reg) in GF_DOM_REGS.iter().enumerate() {
            out[idx] = match reg.kind {
                GfKind::Storage => self.stored[idx] & reg.store_mask,
                _ => 0,
            };
        }
        let eff = self.effective_signals(inp);
        out[gr::SIG_STATUS..gr::SIG_STATUS + gr::SIG_STATUS_COUNT].copy_from_slice(&eff);
        out[gr::SRC_STATUS] = self.src_status(&eff);
        out[gr::CTRL] = self.ctrl_view();
        out[gr::STATE] = self.state_view();
        out[gr::USER_TRIGGER] = u32::from(self.user_pulse & 0xf) << 4 | u32::from(self.user & 0xf);
        let e = &self.engine;
        // Counters are 32-bit here (wide_counters off): the casts lose nothing.
        out[gr::CTR_CYCLES] = e.ctr_cycles as u32;
        out[gr::CTR_EVENT] = e.ctr_event as u32;
        out[gr::CTR_START] = e.ctr_start as u32;
        out[gr::CTR_PRE] = e.ctr_pre;
        out[gr::CTR_STOP] = e.ctr_stop;
        for (idx, s) in NEXT_REGS {
            out[idx] = e.shadow[s];
        }
        out[gr::CTR_CYCLES_NEXT_RO] = e.shadow[shadow::CYCLES];
    }

    /// Compute the next state from this cycle's inputs and commit it. Only a
    /// tick changes anything (S15).
    pub fn step(&mut self, inp: &GfDomainInputs) -> Comb {
        if !inp.tick {
            assert!(inp.write.is_none(), "a write reached a GF100 domain outside a tick (S15)");
            return Comb::default();
        }
        let eff = self.effective_signals(inp);
        let mut d = self.clone();
        if let Some((idx, data)) = inp.write {
            let reg = &GF_DOM_REGS[idx];
            if reg.kind == GfKind::Storage && idx != gr::USER_TRIGGER {
                d.stored[idx] = data & reg.store_mask;
            }
        }
        let ctl = self.controls(eff, inp.write, inp.periodic_reset);
        let c = d.engine.step(&ctl);

        // S25.6: the STATE flops of this tick.
        d.swap_prev = ctl.swap;
        (d.pre_prev, d.start_prev, d.stop_prev) = (c.pre, c.start, c.stop);

        // S25.7: a USER_TRIGGER write sets the values and the pulse bits; every
        // other tick clears the values in pulse mode.
        match inp.write {
            Some((gr::USER_TRIGGER, v)) => (d.user, d.user_pulse) = ((v & 0xf) as u8, ((v >> 4) & 0xf) as u8),
            _ => d.user = self.user & !self.user_pulse,
        }

        // S16, S25.12: the destination stages sample the set's other domains.
        let others = self.others();
        let x = &inp.exports;
        d.ev_s = [x.event_sig & others, self.ev_s[0]];
        d.fl_s = [x.flag_sig & others, self.fl_s[0]];
        for k in 0..8 {
            let there = others >> k & 1 != 0;
            d.ev_pulse[k] = self.ev_pulse[k].next(if there { x.event_cnt[k] } else { 0 });
            d.fl_pulse[k] = self.fl_pulse[k].next(if there { x.flag_cnt[k] } else { 0 });
        }
        *self = d;
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pcnt::gf100::config::SetKind;
    use rstest::rstest;

    /// Flat domain 0 of `fermi`: GPC0 domain 0, 0xe0 signals, a set of one
    /// (docs/design/gf100.md 1.4); trailer base B = 0xa0 (S25.9).
    fn fermi_dom0() -> GfDomain {
        GfDomain::new(DomPlace {
            kind: SetKind::Gpc,
            unit: 0,
            idx: 0,
            set: 0,
            set_base: 0,
            set_size: 1,
            sig_count: 0xe0,
        })
    }

    /// One tick of the domain with external signals `sig` and an optional write.
    fn tick(d: &mut GfDomain, sig: &Signals, write: Option<(usize, u32)>) {
        let inp = GfDomainInputs { sig, write, tick: true, exports: Exports::default(), periodic_reset: false };
        let mut x = Exports::default();
        d.export_into(&mut x);
        d.step(&GfDomainInputs { exports: x, ..inp });
    }

    fn view(d: &GfDomain, sig: &Signals) -> [u32; GF_NUM_DOM_REGS] {
        let mut x = Exports::default();
        d.export_into(&mut x);
        let inp = GfDomainInputs { sig, write: None, tick: false, exports: x, periodic_reset: false };
        let mut out = [0; GF_NUM_DOM_REGS];
        d.view(&inp, &mut out);
        out
    }

    const SWAP_SIG: usize = 0x10;

    /// S25.4. Tick 0 writes CTRL (`mode`; entering QUAD clears the shadows,
    /// that tick runs HALTED), SWAP_SRC = external signal 0x10 at tick 1,
    /// ticks 2..5 idle, tick 6 writes `reg` = 50 with the SWAP signal
    /// `swap`. Expected after tick 6, by hand: in QUAD the shadows counted
    /// ticks 1..5 (the first QUAD tick is 1: CYCLES 5, EVENT 5 with
    /// EVENT_OP 0xffff); the written one is 50 instead of its increment.
    #[rstest]
    // Outside QUAD the shadows hold ("a written value waits").
    #[case::halted_cycles(MODE_HALTED, false, gr::CTR_CYCLES_NEXT, [50, 0], 0, 0)]
    #[case::single_event(MODE_SINGLE, false, gr::CTR_EVENT_NEXT, [0, 50], 0, 0)]
    // QUAD, no swap: the other shadow counts tick 6 (6), the written one is 50.
    #[case::quad_cycles(MODE_QUAD, false, gr::CTR_CYCLES_NEXT, [50, 6], 0, 0)]
    #[case::quad_event(MODE_QUAD, false, gr::CTR_EVENT_NEXT, [6, 50], 0, 0)]
    // QUAD, swap tick: CTR_CYCLES takes the closing 5 (no increment),
    // QUAD_STATE VALID, the new period starts at 1 except the written 50.
    #[case::swap_cycles(MODE_QUAD, true, gr::CTR_CYCLES_NEXT, [50, 1], 5, 1)]
    #[case::swap_event(MODE_QUAD, true, gr::CTR_EVENT_NEXT, [1, 50], 5, 1)]
    // The read-only copy and the zero registers write nothing.
    #[case::quad_next_ro(MODE_QUAD, false, gr::CTR_CYCLES_NEXT_RO, [6, 6], 0, 0)]
    #[case::quad_next_high(MODE_QUAD, false, gr::CTR_CYCLES_NEXT_HIGH, [6, 6], 0, 0)]
    fn gf100_next_write(
        #[case] mode: u32,
        #[case] swap: bool,
        #[case] reg: usize,
        #[case] want_next: [u32; 2],
        #[case] want_cycles: u32,
        #[case] want_qs: u32,
    ) {
        let mut d = fermi_dom0();
        let mut sig = Signals::ZERO;
        d.stored[gr::EVENT_OP] = 0xffff;
        tick(&mut d, &sig, Some((gr::CTRL, mode)));
        tick(&mut d, &sig, Some((gr::SWAP_SRC, SWAP_SIG as u32)));
        for _ in 2..6 {
            tick(&mut d, &sig, None);
        }
        sig.set(SWAP_SIG, swap);
        tick(&mut d, &sig, Some((reg, 50)));
        let v = view(&d, &sig);
        assert_eq!([v[gr::CTR_CYCLES_NEXT], v[gr::CTR_EVENT_NEXT]], want_next, "CYCLES_NEXT, EVENT_NEXT");
        assert_eq!(v[gr::CTR_CYCLES_NEXT_RO], want_next[0], "CTR_CYCLES_NEXT_RO reads the cycles shadow");
        assert_eq!(v[gr::CTR_CYCLES_NEXT_HIGH], 0);
        assert_eq!(v[gr::CTR_CYCLES], want_cycles, "CTR_CYCLES");
        assert_eq!(field::CTRL_QUAD_STATE.get(v[gr::CTRL]), want_qs, "QUAD_STATE");
    }

    /// S25.5. PRE_OP = START_OP = 0xffff (always 1), CTRL MODE SINGLE at tick
    /// 2, SINGLE_BEGIN at tick 3: WAIT_FOR_PRE after 3, WAIT_FOR_START after
    /// 4, COUNTING after 5 (CTR_CYCLES 0), CTR_CYCLES 2 after tick 7. Tick 8
    /// writes `write`; expected (SINGLE_STATE, CTR_CYCLES) after it.
    #[rstest]
    #[case::nothing(None, 3, 3)]
    // Only the triggers start and abort (S25.5), not PRE_OP or a config write.
    #[case::pre_op(Some((gr::PRE_OP, 0xffff)), 3, 3)]
    #[case::start_op(Some((gr::START_OP, 0xaaaa)), 3, 3)]
    #[case::threshold(Some((gr::THRESHOLD, 7)), 3, 3)]
    #[case::ctr_pre(Some((gr::CTR_PRE, 9)), 3, 3)]
    #[case::ctrl_keeps_single(Some((gr::CTRL, 0x0004_0001)), 3, 3)]
    #[case::next_write(Some((gr::CTR_CYCLES_NEXT, 1)), 3, 3)]
    #[case::user(Some((gr::USER_TRIGGER, 0x1)), 3, 3)]
    // Aborts: INACTIVE in the write's tick, which counts nothing.
    #[case::abort(Some((gr::SINGLE_ABORT_TRIGGER, 0)), 0, 2)]
    #[case::ctrl_halted(Some((gr::CTRL, MODE_HALTED)), 0, 2)]
    #[case::ctrl_quad(Some((gr::CTRL, MODE_QUAD)), 0, 2)]
    #[case::ctrl_unk3(Some((gr::CTRL, 3)), 0, 2)]
    // Restart: INACTIVE first, counters initialised, WAIT_FOR_PRE next.
    #[case::begin_restart(Some((gr::SINGLE_BEGIN_TRIGGER, 0)), 1, 0)]
    fn gf100_single_triggers(#[case] write: Option<(usize, u32)>, #[case] want_state: u32, #[case] want_cycles: u32) {
        let mut d = fermi_dom0();
        let sig = Signals::ZERO;
        tick(&mut d, &sig, Some((gr::PRE_OP, 0xffff)));
        tick(&mut d, &sig, Some((gr::START_OP, 0xffff)));
        tick(&mut d, &sig, Some((gr::CTRL, MODE_SINGLE)));
        tick(&mut d, &sig, Some((gr::SINGLE_BEGIN_TRIGGER, 0x1234)));
        assert_eq!(d.engine.single_state as u32, 1, "WAIT_FOR_PRE after SINGLE_BEGIN");
        for _ in 4..8 {
            tick(&mut d, &sig, None);
        }
        assert_eq!((d.engine.single_state as u32, d.engine.ctr_cycles), (3, 2), "COUNTING before the row");
        tick(&mut d, &sig, write);
        let v = view(&d, &sig);
        assert_eq!(field::CTRL_SINGLE_STATE.get(v[gr::CTRL]), want_state, "CTRL.SINGLE_STATE");
        assert_eq!(v[gr::STATE] & 3, want_state, "STATE.SINGLE_STATE (S25.6)");
        assert_eq!(v[gr::CTR_CYCLES], want_cycles, "CTR_CYCLES");
        assert_eq!(v[gr::SINGLE_BEGIN_TRIGGER] | v[gr::SINGLE_ABORT_TRIGGER], 0, "triggers read 0");
    }

    // S25.5: "The triggers do nothing outside SINGLE".
    #[rstest]
    #[case::halted(MODE_HALTED)]
    #[case::quad(MODE_QUAD)]
    #[case::unk7(7)]
    fn gf100_single_begin_outside_single(#[case] mode: u32) {
        let mut d = fermi_dom0();
        let sig = Signals::ZERO;
        tick(&mut d, &sig, Some((gr::PRE_OP, 0xffff)));
        tick(&mut d, &sig, Some((gr::CTRL, mode)));
        tick(&mut d, &sig, Some((gr::SINGLE_BEGIN_TRIGGER, 0)));
        tick(&mut d, &sig, None);
        assert_eq!(d.engine.single_state as u32, 0);
    }

    /// S25.7: USER_TRIGGER = `data` at tick 0; (USER_TRIGGER read, USER_0 at
    /// signal 0xc7 = B + 0x27, SIG_STATUS[6] bit 7) after ticks 0, 1, 2.
    #[rstest]
    // nouveau's 0x11: USER_0 = 1 for exactly one tick, then reads 0x10.
    #[case::pulse(0x11, [(0x11, true), (0x10, false), (0x10, false)])]
    #[case::level(0x01, [(0x01, true), (0x01, true), (0x01, true)])]
    // Pulse bits of other USERs do not clear USER_0.
    #[case::other_pulse(0xe1, [(0xe1, true), (0xe1, true), (0xe1, true)])]
    #[case::all_pulse(0xff, [(0xff, true), (0xf0, false), (0xf0, false)])]
    fn gf100_user_pulse(#[case] data: u32, #[case] want: [(u32, bool); 3]) {
        let mut d = fermi_dom0();
        let sig = Signals::ZERO;
        tick(&mut d, &sig, Some((gr::USER_TRIGGER, data)));
        for (t, &(read, user0)) in want.iter().enumerate() {
            let v = view(&d, &sig);
            assert_eq!(v[gr::USER_TRIGGER], read, "USER_TRIGGER after tick {t}");
            assert_eq!(v[gr::SIG_STATUS + 6] >> 7 & 1 != 0, user0, "USER_0 after tick {t}");
            tick(&mut d, &sig, None);
        }
    }

    /// D2, S25.10, S25.6: PRE_SRC = 0x05 (SRC[0] = signal 5, SRC[1..3] = signal
    /// 0), PRE_OP = truth table 0xf0f0 (= ARG2) with GF100 bit 19 (ARG2 <-
    /// SRC[0] delayed) and bit 18 (not stored). Signal 5 rises at tick 2:
    /// PRE is 0 in tick 2 (previous SRC[0] 0) and 1 from tick 3; STATE.PRE
    /// (bit 25) shows it one tick later (S25.6). SRC_STATUS follows the current
    /// cycle: PRE_SRC[0] at bit 0 and as SETFLAG's third argument at bit 18.
    #[test]
    fn gf100_op_remap_src_status_state() {
        let mut d = fermi_dom0();
        let mut sig = Signals::ZERO;
        tick(&mut d, &sig, Some((gr::PRE_SRC, 0x05)));
        tick(&mut d, &sig, Some((gr::PRE_OP, 0x000c_f0f0)));
        assert_eq!(view(&d, &sig)[gr::PRE_OP], 0x0008_f0f0, "bit 18 not stored");
        sig.set(5, true);
        assert_eq!(view(&d, &sig)[gr::SRC_STATUS], 0x0004_0001, "SRC_STATUS this cycle");
        tick(&mut d, &sig, None);
        assert_eq!(view(&d, &sig)[gr::STATE], 0, "tick 2: PRE 0 (delayed SRC[0] was 0)");
        tick(&mut d, &sig, None);
        assert_eq!(view(&d, &sig)[gr::STATE], 1 << 25, "tick 3: PRE 1");
        sig.set(5, false);
        assert_eq!(view(&d, &sig)[gr::SRC_STATUS], 0);
        tick(&mut d, &sig, None);
        assert_eq!(view(&d, &sig)[gr::STATE], 1 << 25, "tick 4: PRE = delayed SRC[0] = 1");
    }

    /// S25.8: FILTER stores all 32 bits and changes no counting: QUAD from
    /// tick 0, FILTER = 0xffffffff at tick 1; after tick 10 the cycles and
    /// event shadows (EVENT_OP 0xffff) hold ticks 1..10 = 10.
    #[rstest]
    #[case::enable(0xffff_ffff)]
    #[case::zero(0)]
    fn gf100_filter_no_effect(#[case] filter: u32) {
        let mut d = fermi_dom0();
        let sig = Signals::ZERO;
        d.stored[gr::EVENT_OP] = 0xffff;
        tick(&mut d, &sig, Some((gr::CTRL, MODE_QUAD)));
        tick(&mut d, &sig, Some((gr::FILTER, filter)));
        for _ in 2..11 {
            tick(&mut d, &sig, None);
        }
        let v = view(&d, &sig);
        assert_eq!(v[gr::FILTER], filter);
        assert_eq!([v[gr::CTR_CYCLES_NEXT], v[gr::CTR_EVENT_NEXT]], [10, 10]);
    }

    // S25.9, S25.11: the trailer of a 0xe0 domain after reset: PAUSED (B+0x2c =
    // 0xcc, word 6 bit 12) is 1 in HALTED; external inputs at the internal
    // positions are not seen, the others pass; nothing at or past 0xe0.
    #[test]
    fn gf100_trailer_after_reset() {
        let d = fermi_dom0();
        let mut sig = Signals::ZERO;
        sig.as_raw_mut_slice()[6] = 0xffff_ffff;
        sig.as_raw_mut_slice()[7] = 0xffff_ffff;
        sig.set(0x05, true);
        let v = view(&d, &sig);
        assert_eq!(v[gr::SIG_STATUS + 6], 0x0000_a87f | 1 << 12, "externals 0-6, 11, 13, 15; PAUSED");
        assert_eq!(v[gr::SIG_STATUS + 7], 0);
        assert_eq!(v[gr::SIG_STATUS], 1 << 5);
    }
}
