//! The layout-free counting engine of one PCOUNTER domain: input selection
//! and the six logic operations, the counter increments, the single event
//! process, quad event mode with its shadows, FLAG, the EVENT and FLAG
//! signals with their edge counts, and PERIODIC. Mirrors
//! `rtl/pcnt/pcnt_dom_core.sv`. It knows no register address, no stored
//! register and no generation feature: a shell (`domain.rs` for NV10:GF100,
//! the GF100 domain later) decodes its registers into `Controls` every tick
//! and reads the state back for its view.
//!
//! Contract (docs/semantics.md): `EngineState::step` computes the next state
//! from the current one and this tick's `Controls`, then commits it; the
//! shell calls it only at the domain's ticks (S15). Order inside a tick:
//! (1) an abort or a start makes the single state INACTIVE before the state
//! switch (S1, S2); (2) the state switch and its counters (S5, S6, S7, S12;
//! 40-bit sticky counters with `wide_counters`, S24); FLAG with CLRFLAG
//! winning, frozen in INACTIVE while `mode_single` (S3, S13); (3) quad mode,
//! while `mode_quad`: ack, swap, count into the shadows (S17); entering QUAD
//! clears the shadows and QUAD_STATE instead; (4) a shadow write replaces
//! that shadow's next value in every mode (docs/semantics.md S25.4); (5)
//! PERIODIC (S18); (6) the registered EVENT and FLAG signals, their edge
//! counts (S3, S4, S16, S22) and the previous-tick selections (S10).
//! Everything resets to 0 (S8).

use crate::common::pulse_sync;
use crate::pcnt::counter::ctr_add;
use crate::pcnt::logic_op::{self, OpLayout};
use crate::pcnt::regs::Gen;

/// CTRL.SINGLE_STATE encoding (seed 003 "Control registers", NV10 CTRL).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SingleState {
    #[default]
    Inactive = 0,
    WaitPre = 1,
    WaitStart = 2,
    Counting = 3,
}

/// CTRL.QUAD_STATE encoding (S17).
pub mod quad_state {
    pub const EMPTY: u8 = 0;
    pub const VALID: u8 = 1;
    pub const OVERFLOW: u8 = 3;
}

/// CTRL.CTR_MODE values (seed 003 "Special counter modes").
pub mod ctr_mode {
    pub const SIMPLE: u32 = 0;
    pub const EVENT_B4: u32 = 1;
    pub const EVENT_B6: u32 = 2;
    pub const EXTRA_B4: u32 = 3;
    pub const EXTRA_B6_EVENT_B2: u32 = 4;
}

/// Index of each quad shadow counter in `EngineState::shadow` and in
/// `Controls::shadow_write` (the `pcnt_pkg::Quad*` order).
pub mod shadow {
    pub const CYCLES: usize = 0;
    pub const EVENT: usize = 1;
    pub const START: usize = 2;
    pub const PRE: usize = 3;
    pub const STOP: usize = 4;
    pub const COUNT: usize = 5;
}

/// Index of each input in `Controls::src` and `Controls::op`.
pub mod input {
    pub const PRE: usize = 0;
    pub const START: usize = 1;
    pub const EVENT: usize = 2;
    pub const STOP: usize = 3;
    pub const SETFLAG: usize = 4;
    pub const CLRFLAG: usize = 5;
    pub const COUNT: usize = 6;
}

/// What the engine sees in one tick: the shell's decoded registers and this
/// tick's events. Built by the shell every tick; nothing here is stored.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Controls {
    /// The effective 256-bit signal vector of the domain (S9), word w =
    /// signals 32w..32w+31.
    pub sig: [u32; 8],
    /// PRE_SRC, START_SRC, EVENT_SRC, STOP_SRC, SETFLAG_SRC, CLRFLAG_SRC
    /// (`input::*` order): four 8-bit selections each (S10, S24).
    pub src: [u32; input::COUNT],
    /// The six OP words in the NV40 bit format (`logic_op`), `input::*` order.
    pub op: [u32; input::COUNT],
    /// The STOP compare's threshold, 40 bits (S5, S24).
    pub threshold: u64,
    /// The generation, for the logic operations' delay bits (S10).
    pub gen: Gen,
    /// 40-bit counters with a sticky bit 39 (S24); 32-bit saturating else.
    pub wide_counters: bool,
    /// SETFLAG/CLRFLAG take their own SETFLAG_SRC/CLRFLAG_SRC (S24) rather
    /// than the shared START_SRC/PRE_SRC arguments (S10).
    pub flag_src: bool,
    /// The single event process runs (MODE = SINGLE, S12).
    pub mode_single: bool,
    /// Quad event mode runs (MODE = QUAD, S17).
    pub mode_quad: bool,
    /// CTRL.CTR_MODE (S6).
    pub ctr_mode: u32,
    /// CTRL.EVENT_CTR_PERIOD: 0 = START clears CTR_EVENT (one period), 1 =
    /// CTR_EVENT keeps counting over periods (S5).
    pub event_ctr_period: bool,
    /// CTRL.PERIODIC_PERIOD; 0 = off, and 0 where the generation has no
    /// PERIODIC (S18).
    pub periodic_period: u32,
    /// GCTRL.PERIODIC_RESET (S18, S20).
    pub periodic_reset: bool,
    /// Start of the single event process in this tick (NV10:GF100: a PRE_OP
    /// write with MODE = SINGLE, S2); ignored without `mode_single`.
    pub start: bool,
    /// An aborting write in this tick (S1, S2).
    pub abort: bool,
    /// A swap request in this tick (S17); ignored without `mode_quad`.
    pub swap: bool,
    /// A quad ack in this tick (S17); ignored without `mode_quad`.
    pub ack: bool,
    /// This tick's CTRL write enters QUAD from another mode (S17).
    pub quad_enter: bool,
    /// Writes of the hidden initial values of CTR_PRE / CTR_STOP (S8).
    pub init_pre: Option<u32>,
    pub init_stop: Option<u32>,
    /// A write of quad shadow `shadow::*` with its data (docs/design/gf100.md
    /// G4; no NV10:GF100 register writes a shadow).
    pub shadow_write: Option<(usize, u32)>,
}

/// The combinational values of a tick (S10): what the view and the shell's
/// other blocks (record mode, S21) read besides the state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Comb {
    /// The 24 selected signals: SRC_STATUS layout in bits 15:0 (PRE_SRC[0..3],
    /// START_SRC[0..3], EVENT_SRC, STOP_SRC); then SETFLAG_SRC[0..3] (19:16)
    /// and CLRFLAG_SRC[0..3] (23:20) with `flag_src` (S24), 0 elsewhere.
    pub sel: u32,
    /// The six logic-op results.
    pub pre: bool,
    pub start: bool,
    pub event: bool,
    pub stop: bool,
    pub setflag: bool,
    pub clrflag: bool,
}

impl Comb {
    /// (B2, B4, B6) of seed 003 "Special counter modes": the raw selected
    /// signals of this cycle (S7).
    fn ints(&self) -> (u32, u32, u32) {
        let b4 = (self.sel >> 4) & 0xf;
        let b6 = b4 | ((self.sel >> 10) & 0x3) << 4;
        let b2 = (self.sel >> 8) & 0x3;
        (b2, b4, b6)
    }
}

/// The registers of the engine (`_q` in the RTL).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct EngineState {
    /// 40 bits with `wide_counters`, else below 2^32 (S24). CTR_CYCLES_ALT
    /// is the same counter (S5).
    pub ctr_cycles: u64,
    pub ctr_event: u64,
    pub ctr_start: u64,
    pub ctr_pre: u32,
    pub ctr_stop: u32,
    /// Hidden initial values written through CTR_PRE / CTR_STOP.
    pub ctr_pre_init: u32,
    pub ctr_stop_init: u32,
    pub single_state: SingleState,
    pub flag: bool,
    /// FLAG trailer signal: FLAG one cycle later (S3).
    pub flag_sig: bool,
    /// EVENT trailer signal: EVENT one cycle later (S4).
    pub event_sig: bool,
    /// Selected signals of the previous tick, bit layout of `Comb::sel` (S10).
    pub src_prev: u32,
    /// Quad event mode (S17): state and the shadow counters (`shadow::*`).
    pub quad_state: u8,
    pub shadow: [u32; shadow::COUNT],
    /// PERIODIC generator (S18).
    pub periodic_cnt: u32,
    pub periodic: bool,
    /// Source side of the PULSE imports: Gray counts of rising edges of the
    /// EVENT signal and of FLAG (S16, S22).
    pub event_cnt: u8,
    pub flag_cnt: u8,
}

fn bit(v: u32, n: usize) -> bool {
    (v >> n) & 1 != 0
}

/// The 24 selected signals of `Comb::sel` (S10): bit 4r + j is the signal
/// field j of SRC word r selects; SETFLAG_SRC / CLRFLAG_SRC only with
/// `flag_src` (S24).
pub fn select(sig: &[u32; 8], src: &[u32; input::COUNT], flag_src: bool) -> u32 {
    let groups = if flag_src { input::COUNT } else { input::SETFLAG };
    let mut sel = 0u32;
    for (r, word) in src[..groups].iter().enumerate() {
        // Branch-free: the signals are random in a regression run.
        for (j, s) in word.to_le_bytes().into_iter().enumerate() {
            let s = usize::from(s);
            sel |= (sig[s / 32] >> (s % 32) & 1) << (4 * r + j);
        }
    }
    sel
}

impl EngineState {
    /// This tick's selections and logic-op results (S10), from the state and
    /// the controls.
    pub fn comb(&self, c: &Controls) -> Comb {
        let sel = select(&c.sig, &c.src, c.flag_src);
        let src = |i: [usize; 4]| i.map(|n| bit(sel, n));
        let prev = |i: [usize; 2]| i.map(|n| bit(self.src_prev, n));
        // NV30+: SETFLAG takes START_SRC[2], START_SRC[3], PRE_SRC[0],
        // PRE_SRC[1]; CLRFLAG PRE_SRC[2], PRE_SRC[3], START_SRC[0], START_SRC[1]
        // (S10). NV10:NV30: their own SETFLAG_SRC / CLRFLAG_SRC (S24).
        let (set_args, set_prev, clr_args, clr_prev) = if c.flag_src {
            ([16, 17, 18, 19], [16, 17], [20, 21, 22, 23], [20, 21])
        } else {
            ([6, 7, 0, 1], [6, 7], [2, 3, 4, 5], [2, 3])
        };
        let gen = c.gen;
        let setflag = logic_op::eval(c.op[input::SETFLAG], OpLayout::Plain, gen, src(set_args), prev(set_prev), false);
        let clrflag = logic_op::eval(c.op[input::CLRFLAG], OpLayout::Plain, gen, src(clr_args), prev(clr_prev), false);
        let op = |i: usize, layout| {
            let first = 4 * i;
            logic_op::eval(
                c.op[i],
                layout,
                gen,
                src([first, first + 1, first + 2, first + 3]),
                prev([first, first + 1]),
                setflag,
            )
        };
        Comb {
            sel,
            pre: op(input::PRE, OpLayout::Plain),
            start: op(input::START, OpLayout::Plain),
            event: op(input::EVENT, OpLayout::EventLike),
            stop: op(input::STOP, OpLayout::EventLike),
            setflag,
            clrflag,
        }
    }

    /// Compute the next state from this tick's controls and commit it;
    /// returns the tick's combinational values (computed before the commit).
    pub fn step(&mut self, c: &Controls) -> Comb {
        let k = self.comb(c);
        let mut d = *self;
        if let Some(v) = c.init_pre {
            d.ctr_pre_init = v;
        }
        if let Some(v) = c.init_stop {
            d.ctr_stop_init = v;
        }
        let start = c.start && c.mode_single;
        // S1/S2: an abort, or a start from any state, makes this tick's state
        // INACTIVE before the state switch runs.
        let state = if c.abort || start { SingleState::Inactive } else { self.single_state };

        // S3: the FLAG follows SETFLAG/CLRFLAG except in single-mode INACTIVE.
        if !c.mode_single || state != SingleState::Inactive {
            if k.clrflag {
                d.flag = false;
            } else if k.setflag {
                d.flag = true;
            }
        }

        d.single_state = state;
        match state {
            SingleState::Inactive => {
                if start {
                    d.ctr_event = 0;
                    d.ctr_start = 0;
                    d.ctr_cycles = 0;
                    d.ctr_pre = self.ctr_pre_init;
                    d.ctr_stop = self.ctr_stop_init;
                    d.flag = false;
                    d.single_state = SingleState::WaitPre;
                }
            }
            SingleState::WaitPre => {
                if k.pre {
                    if self.ctr_pre != 0 {
                        d.ctr_pre = self.ctr_pre - 1;
                    } else {
                        d.single_state = SingleState::WaitStart;
                    }
                }
            }
            SingleState::WaitStart => {
                if k.start {
                    d.ctr_cycles = 0;
                    if !c.event_ctr_period {
                        d.ctr_event = 0;
                    }
                    d.single_state = SingleState::Counting;
                }
            }
            SingleState::Counting => {
                let (inc_event, inc_pre) = increments(c.ctr_mode, &k);
                let wide = c.wide_counters;
                d.ctr_cycles = ctr_add(self.ctr_cycles, 1, wide);
                d.ctr_event = ctr_add(self.ctr_event, inc_event, wide);
                d.ctr_pre = self.ctr_pre.saturating_add(inc_pre);
                if k.stop {
                    // S5: compare after this cycle's increment; over 40 bits
                    // with THRESHOLD_HI on NV10:NV30 (S24; 0 elsewhere).
                    if d.ctr_event >= c.threshold {
                        d.ctr_start = ctr_add(self.ctr_start, 1, wide);
                    }
                    if self.ctr_stop != 0 {
                        d.ctr_stop = self.ctr_stop - 1;
                        d.single_state = SingleState::WaitStart;
                    } else {
                        d.single_state = SingleState::Inactive;
                    }
                }
            }
        }

        if c.mode_quad {
            self.quad_step(&mut d, c, &k);
        }
        if c.quad_enter {
            // S17: entering QUAD clears the shadows and QUAD_STATE; that
            // tick still runs the old mode.
            d.shadow = [0; shadow::COUNT];
            d.quad_state = quad_state::EMPTY;
        }
        // G4: a shadow write sets the shadow's next value in every mode. It
        // replaces this tick's increment; at a swap CTR_* already took the
        // closing set above and the written value wins over the restart.
        // Entering QUAD wins (one register write per tick: never both).
        if let Some((i, v)) = c.shadow_write {
            if !c.quad_enter {
                d.shadow[i] = v;
            }
        }

        // S18: PERIODIC generator; period 0 holds it (also where the
        // generation has no PERIODIC: the shell passes 0 there).
        let period = c.periodic_period;
        if c.periodic_reset || period == 0 {
            (d.periodic_cnt, d.periodic) = (0, false);
        } else if self.periodic_cnt >= (0x400 << (period - 1)) - 1 {
            (d.periodic_cnt, d.periodic) = (0, true);
        } else {
            (d.periodic_cnt, d.periodic) = (self.periodic_cnt + 1, false);
        }

        // S16, S22: source edge counts advance where the exported signal
        // rises (the EVENT signal; FLAG itself).
        d.event_cnt = pulse_sync::count_edge(self.event_cnt, k.event && !self.event_sig);
        d.flag_cnt = pulse_sync::count_edge(self.flag_cnt, d.flag && !self.flag);

        d.src_prev = k.sel;
        d.event_sig = k.event;
        d.flag_sig = self.flag;
        *self = d;
        k
    }

    /// One quad-mode tick (S17): ack, then swap, then count into the shadows.
    fn quad_step(&self, d: &mut EngineState, c: &Controls, k: &Comb) {
        let mut qs = self.quad_state;
        if c.ack {
            qs = match qs {
                quad_state::OVERFLOW => quad_state::VALID,
                _ => quad_state::EMPTY,
            };
        }
        let mut base = self.shadow;
        if c.swap {
            // Quad mode is NV30+: 32-bit counters (S17, S24).
            d.ctr_cycles = u64::from(base[shadow::CYCLES]);
            d.ctr_event = u64::from(base[shadow::EVENT]);
            d.ctr_start = u64::from(base[shadow::START]);
            d.ctr_pre = base[shadow::PRE];
            d.ctr_stop = base[shadow::STOP];
            base = [0; shadow::COUNT];
            qs = if qs == quad_state::EMPTY { quad_state::VALID } else { quad_state::OVERFLOW };
        }
        let (inc_event, _) = increments(c.ctr_mode, k);
        let (_, b4, b6) = k.ints();
        let inc_start = match c.ctr_mode {
            ctr_mode::EXTRA_B4 => b4,
            ctr_mode::EXTRA_B6_EVENT_B2 => b6,
            _ => u32::from(k.start),
        };
        d.shadow[shadow::CYCLES] = base[shadow::CYCLES].saturating_add(1);
        d.shadow[shadow::EVENT] = base[shadow::EVENT].saturating_add(inc_event);
        d.shadow[shadow::START] = base[shadow::START].saturating_add(inc_start);
        d.shadow[shadow::PRE] = base[shadow::PRE].saturating_add(u32::from(k.pre));
        d.shadow[shadow::STOP] = base[shadow::STOP].saturating_add(u32::from(k.stop));
        d.quad_state = qs;
    }
}

/// (CTR_EVENT, CTR_PRE) increments of a COUNTING cycle (S6, S7).
fn increments(mode: u32, k: &Comb) -> (u32, u32) {
    let (b2, b4, b6) = k.ints();
    let ev = u32::from(k.event);
    match mode {
        ctr_mode::EVENT_B4 => (ev * b4, 0),
        ctr_mode::EVENT_B6 => (ev * b6, 0),
        ctr_mode::EXTRA_B4 => (ev, b4),
        ctr_mode::EXTRA_B6_EVENT_B2 => (b2, b6),
        // SIMPLE and the reserved 5..7 (S6).
        _ => (ev, 0),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rstest::rstest;

    /// Controls of a tick where every logic op is 1 (truth table 0xffff), so
    /// a quad tick adds exactly 1 to each shadow (SIMPLE, S6, S17).
    fn controls(mode_single: bool, mode_quad: bool) -> Controls {
        Controls {
            sig: [0; 8],
            src: [0; input::COUNT],
            op: [0xffff; input::COUNT],
            threshold: 0,
            gen: Gen::Gt215,
            wide_counters: false,
            flag_src: false,
            mode_single,
            mode_quad,
            ctr_mode: ctr_mode::SIMPLE,
            event_ctr_period: false,
            periodic_period: 0,
            periodic_reset: false,
            start: false,
            abort: false,
            swap: false,
            ack: false,
            quad_enter: false,
            init_pre: None,
            init_stop: None,
            shadow_write: None,
        }
    }

    /// Counters [CYCLES, EVENT, START, PRE, STOP] as one array.
    fn ctrs(e: &EngineState) -> [u64; 5] {
        [e.ctr_cycles, e.ctr_event, e.ctr_start, u64::from(e.ctr_pre), u64::from(e.ctr_stop)]
    }

    #[derive(Clone, Copy, Debug)]
    enum Mode {
        Halted,
        Single,
        Quad,
    }

    // docs/semantics.md S25.4: "A write of CTR_x_NEXT at tick t sets
    // shadow_x(t+1) = wdata, in every mode: it replaces that tick's
    // increment, and if the tick also swaps, the swap still copies the
    // closing set (shadow_x(t) with no increment, S17) to CTR_x and bumps
    // QUAD_STATE, and the write then wins over the swap's restart". Before
    // every row: shadows [10, 20, 30, 40, 50], counters [1, 2, 3, 4, 5].
    #[rstest]
    // "in every mode": outside QUAD the other shadows and the counters hold
    // ("Outside QUAD the shadows hold, so a written value waits").
    #[case::halted_event(Mode::Halted, false, quad_state::VALID, shadow::EVENT, 0x1234,
        ([10, 0x1234, 30, 40, 50], [1, 2, 3, 4, 5], quad_state::VALID))]
    #[case::single_cycles(Mode::Single, false, quad_state::EMPTY, shadow::CYCLES, 7,
        ([7, 20, 30, 40, 50], [1, 2, 3, 4, 5], quad_state::EMPTY))]
    // QUAD without a swap: "it replaces that tick's increment" (the others
    // count +1; the written one is wdata, not wdata + 1).
    #[case::quad_pre(Mode::Quad, false, quad_state::VALID, shadow::PRE, 0xdead_beef,
        ([11, 21, 31, 0xdead_beef, 51], [1, 2, 3, 4, 5], quad_state::VALID))]
    #[case::quad_cycles_zero(Mode::Quad, false, quad_state::EMPTY, shadow::CYCLES, 0,
        ([0, 21, 31, 41, 51], [1, 2, 3, 4, 5], quad_state::EMPTY))]
    // A swap tick: CTR_* take the closing set as it was at t (no increment),
    // QUAD_STATE goes up, the new period starts at 1 (this tick's events)
    // except the written shadow, which starts at wdata.
    #[case::swap_stop(Mode::Quad, true, quad_state::EMPTY, shadow::STOP, 99,
        ([1, 1, 1, 1, 99], [10, 20, 30, 40, 50], quad_state::VALID))]
    #[case::swap_event_overflow(Mode::Quad, true, quad_state::VALID, shadow::EVENT, 5,
        ([1, 5, 1, 1, 1], [10, 20, 30, 40, 50], quad_state::OVERFLOW))]
    #[case::swap_start_saturated(Mode::Quad, true, quad_state::OVERFLOW, shadow::START, u32::MAX,
        ([1, 1, u32::MAX, 1, 1], [10, 20, 30, 40, 50], quad_state::OVERFLOW))]
    fn shadow_write(
        #[case] mode: Mode,
        #[case] swap: bool,
        #[case] qs: u8,
        #[case] index: usize,
        #[case] wdata: u32,
        #[case] (want_shadow, want_ctrs, want_qs): ([u32; 5], [u64; 5], u8),
    ) {
        let mut e = EngineState {
            shadow: [10, 20, 30, 40, 50],
            ctr_cycles: 1,
            ctr_event: 2,
            ctr_start: 3,
            ctr_pre: 4,
            ctr_stop: 5,
            quad_state: qs,
            ..EngineState::default()
        };
        let c = Controls {
            swap,
            shadow_write: Some((index, wdata)),
            ..controls(matches!(mode, Mode::Single), matches!(mode, Mode::Quad))
        };
        e.step(&c);
        assert_eq!(e.shadow, want_shadow, "shadows");
        assert_eq!(ctrs(&e), want_ctrs, "counters");
        assert_eq!(e.quad_state, want_qs, "QUAD_STATE");
        assert_eq!(e.single_state, SingleState::Inactive, "no single process runs");
    }

    // The same tick without the write: every shadow counts (+1) or restarts
    // at the swap; so the rows above differ only where the write lands.
    #[rstest]
    #[case::no_swap(false, [11, 21, 31, 41, 51], [1, 2, 3, 4, 5])]
    #[case::swap(true, [1, 1, 1, 1, 1], [10, 20, 30, 40, 50])]
    fn quad_tick_without_write(#[case] swap: bool, #[case] want_shadow: [u32; 5], #[case] want_ctrs: [u64; 5]) {
        let mut e = EngineState {
            shadow: [10, 20, 30, 40, 50],
            ctr_cycles: 1,
            ctr_event: 2,
            ctr_start: 3,
            ctr_pre: 4,
            ctr_stop: 5,
            ..EngineState::default()
        };
        e.step(&Controls { swap, ..controls(false, true) });
        assert_eq!(e.shadow, want_shadow);
        assert_eq!(ctrs(&e), want_ctrs);
    }

    // G4 / S17: entering QUAD clears the shadows, also over a shadow write of
    // the same tick (one write per tick: it cannot happen, the rule is fixed).
    #[test]
    fn quad_enter_wins_over_shadow_write() {
        let mut e =
            EngineState { shadow: [10, 20, 30, 40, 50], quad_state: quad_state::OVERFLOW, ..Default::default() };
        e.step(&Controls { quad_enter: true, shadow_write: Some((shadow::PRE, 9)), ..controls(false, false) });
        assert_eq!(e.shadow, [0; 5]);
        assert_eq!(e.quad_state, quad_state::EMPTY);
    }

    // S18: PERIODIC_PERIOD = 0 (what the shell passes where the generation
    // has no PERIODIC) holds the generator at 0 with the output low, from any
    // counter value; period 1 wraps at 0x3ff (P = 0x400).
    #[rstest]
    #[case::off_from_zero(0, false, 0, 0, false)]
    #[case::off_from_middle(0, false, 0x1_2345, 0, false)]
    #[case::off_at_wrap(0, false, 0x3ff, 0, false)]
    #[case::reset(1, true, 0x3ff, 0, false)]
    #[case::count(1, false, 0x3fd, 0x3fe, false)]
    #[case::wrap(1, false, 0x3ff, 0, true)]
    #[case::wrap_period7(7, false, 0xffff, 0, true)]
    fn periodic(
        #[case] period: u32,
        #[case] reset: bool,
        #[case] cnt: u32,
        #[case] want_cnt: u32,
        #[case] want_out: bool,
    ) {
        let mut e = EngineState { periodic_cnt: cnt, periodic: true, ..Default::default() };
        e.step(&Controls { periodic_period: period, periodic_reset: reset, ..controls(false, false) });
        assert_eq!((e.periodic_cnt, e.periodic), (want_cnt, want_out));
    }
}
