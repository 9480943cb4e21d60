//! One PCOUNTER domain: storage registers, input selection, FLAG, the single
//! and quad event counting processes, PERIODIC, USER signals and the
//! destination side of the cross-domain imports. Mirrors `rtl/pcnt/pcnt_domain.sv`
//! (the import synchronizers, which the RTL instantiates in `pcnt_top`, are
//! kept here as per-destination bit masks).
//!
//! Contract (docs/semantics.md): a write in cycle t is seen from t+1 (S1); an
//! aborting write (S2) makes the state INACTIVE before the state switch, so
//! the cycle counts nothing; PRE_OP in INACTIVE with MODE = SINGLE starts the
//! process. Counters are 32-bit and saturate (S6), or on NV10:NV30 40-bit
//! with a sticky bit 39 (S24). FLAG: CLRFLAG wins, frozen
//! in single-mode INACTIVE, cleared entering WAIT_FOR_PRE; the FLAG and EVENT
//! trailer signals are registered copies (S3, S4). Everything resets to 0 (S8).
//! All state advances only at the domain's ticks (S15); quad mode S17,
//! imports S16, PERIODIC S18, USER S19; the NV10:NV30 differences (own
//! SETFLAG/CLRFLAG selections, the trailer by generation) S24.

use bitvec::prelude::*;

use crate::config::Config;
use crate::counter::ctr_add;
use crate::logic_op::{self, OpLayout};
use crate::pulse_sync::{self, PulseSync};
use crate::record::{Packet, RecordInputs, RecordState};
use crate::regs::{self, Decoded, Kind, DOM_REGS, NUM_DOM_REGS};

/// The 256 external signal inputs of one domain.
pub type Signals = BitArr!(for 256, in u32, Lsb0);

/// CTRL.SINGLE_STATE encoding (seed 003 "Control registers", NV10 CTRL).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SingleState {
    #[default]
    Inactive = 0,
    WaitPre = 1,
    WaitStart = 2,
    Counting = 3,
}

/// CTRL.MODE values (seed 003 "Control registers").
pub const MODE_SINGLE: u32 = 0;
pub const MODE_QUAD: u32 = 1;
pub const MODE_RECORD: u32 = 2;

/// What happened in a domain's last step, for the harness's reach counts
/// (observation only: no behaviour depends on it).
pub mod event {
    pub const SWAP_SIGNAL: u8 = 1;
    pub const SWAP_PRE_OP: u8 = 2;
    pub const ACK: u8 = 4;
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

/// Stored register bits by view index (an array type with `Default`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Stored(pub [u32; NUM_DOM_REGS]);

impl Default for Stored {
    fn default() -> Stored {
        Stored([0; NUM_DOM_REGS])
    }
}

impl std::ops::Deref for Stored {
    type Target = [u32; NUM_DOM_REGS];
    fn deref(&self) -> &Self::Target {
        &self.0
    }
}

impl std::ops::DerefMut for Stored {
    fn deref_mut(&mut self) -> &mut Self::Target {
        &mut self.0
    }
}

/// The registers of one domain (`_q` in the RTL).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DomainState {
    /// Stored bits of `Kind::Storage` registers, by view index (others unused).
    pub stored: Stored,
    /// 40 bits on generations with `wide_counters`, else below 2^32 (S24).
    pub ctr_cycles: u64,
    pub ctr_cycles_alt: u64,
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
    /// Selected signals of the previous cycle, bit layout of `Comb::sel` (S10).
    pub src_prev: u32,
    /// Quad event mode (S17): state and the invisible shadow counters.
    pub quad_state: u8,
    pub sh_cycles: u32,
    pub sh_event: u32,
    pub sh_start: u32,
    pub sh_pre: u32,
    pub sh_stop: u32,
    /// PERIODIC generator (S18).
    pub periodic_cnt: u32,
    pub periodic: bool,
    /// USER_0/USER_1 values and pulse-mode bits (S19).
    pub user: u8,
    pub user_pulse: u8,
    /// Source side of the PULSE imports: Gray counts of rising edges (S16, S22).
    pub event_cnt: u8,
    pub flag_cnt: u8,
    /// Destination side of the imports (S16): CONTINUOUS stages s1/s2, bit
    /// k = from domain k; PULSE synchronizers indexed by source domain k.
    pub ev_s: [u8; 2],
    pub fl_s: [u8; 2],
    pub ev_pulse: [PulseSync; 8],
    pub fl_pulse: [PulseSync; 8],
    /// Synchronizers of the global pulses PM_TRIGGER, WRCACHE_FLUSH (S22).
    pub glob: [PulseSync; 2],
    /// `event::*` bits of the last step (observation only).
    pub events: u8,
    /// Record mode (S21): counters and buffer; the packet sent and the
    /// reach events of the last step.
    pub rec: RecordState,
    pub rec_sent: Option<Packet>,
    pub rec_events: u16,
}

/// The flops of every domain that other domains synchronize (S16), bit k =
/// domain k, as of the current cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Exports {
    pub event_sig: u8,
    pub flag_sig: u8,
    /// Gray edge counts (S22), index k = domain k.
    pub event_cnt: [u8; 8],
    pub flag_cnt: [u8; 8],
}

/// Index of the global pulses in `DomainInputs::glob_cnt` / `DomainState::glob`.
pub const GLOB_PM_TRIGGER: usize = 0;
pub const GLOB_WRCACHE_FLUSH: usize = 1;

/// What a domain sees in one cycle.
pub struct DomainInputs<'a> {
    /// External signals of this domain (trailer positions are ignored).
    pub sig: &'a Signals,
    /// Bus-clock edge counts of PM_TRIGGER and WRCACHE_FLUSH (S22).
    pub glob_cnt: [u8; 2],
    /// Accepted write to this domain in this cycle: (view index, data).
    /// Only in a tick (the front-end holds PREADY low until then, S15).
    pub write: Option<(usize, u32)>,
    /// This domain's clock enable (S15).
    pub tick: bool,
    /// Every domain's exported flops (S16).
    pub exports: Exports,
    /// Bit mask of the present domains.
    pub present: u8,
    /// GCTRL.PERIODIC_RESET (S18, S20).
    pub periodic_reset: bool,
    /// GCTRL.RECORD_RESET (S21).
    pub record_reset: bool,
    /// Memory-port state of this domain (S21): slot busy or wedged; FAULT.
    pub rec_blocked: bool,
    /// The channel binding of the set (S21 (a)).
    pub rec_bound: bool,
    pub rec_fault: bool,
}

/// Per-cycle combinational values, shared by the view and the step.
struct Comb {
    /// SRC_STATUS layout in bits 15:0: PRE_SRC[0..3], START_SRC[0..3],
    /// EVENT_SRC, STOP_SRC; then SETFLAG_SRC[0..3] (19:16) and CLRFLAG_SRC[0..3]
    /// (23:20) on generations with `flag_src` (S24), 0 elsewhere.
    sel: u32,
    pre: bool,
    start: bool,
    event: bool,
    stop: bool,
    setflag: bool,
    clrflag: bool,
    /// PM_TRIGGER as the domain samples it (NV40 quad SWAP, S17).
    pm_trigger: bool,
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

fn bit(v: u32, n: usize) -> bool {
    (v >> n) & 1 != 0
}

impl DomainState {
    /// Domain `dom` just out of reset (S8): everything 0 except SPEC_SRC.SWAP
    /// on G84+, which selects the domain's PM_TRIGGER trailer signal
    /// (base + 0x0f, S2: inferred from the Linux driver).
    pub fn new(cfg: &Config, dom: usize) -> DomainState {
        let mut d = DomainState::default();
        if DOM_REGS[regs::SPEC_SRC].present(cfg.gen) {
            d.stored[regs::SPEC_SRC] = u32::from(cfg.trailer_base[dom]) + 0x0f;
        }
        d
    }

    fn ctrl_field(&self, f: regs::Field) -> u32 {
        f.get(self.stored[regs::CTRL])
    }

    /// The 256 signals as every consumer inside domain `dom` sees them (S9):
    /// external inputs, the internal trailer at base+0x0c..0x1f, 0 past SigCount.
    pub fn effective_signals(&self, cfg: &Config, dom: usize, inp: &DomainInputs) -> [u32; 8] {
        let mut w = inp.sig.into_inner();
        let count = usize::from(cfg.sig_count[dom]);
        for (i, word) in w.iter_mut().enumerate() {
            let lo = i * 32;
            if count <= lo {
                *word = 0;
            } else if count < lo + 32 {
                *word &= (1u32 << (count - lo)) - 1;
            }
        }
        // Trailer (seed 003 "Trailer signals"): the internal positions by
        // generation (S9, S24); every other position is the external input.
        let feat = cfg.gen.features();
        let base = usize::from(cfg.trailer_base[dom]) / 32;
        let (ev, fl) = self.imports(dom, inp.present);
        let (external, t) = if feat.trailer40 {
            // NV40:GF100 list (S9). ZERO (+0x0c) and PERIODIC (+0x0d) are
            // G84+; otherwise those positions are external signals.
            let external: u32 = if feat.periodic { 0x0000_0fff } else { 0x0000_3fff };
            let mut t = 0u32;
            t |= u32::from(feat.periodic && self.periodic) << 0x0d;
            // The global pulses after this domain's synchronizers (S22).
            t |= u32::from(feat.wrcache_flush && self.glob[GLOB_WRCACHE_FLUSH].pulse()) << 0x0e;
            t |= u32::from(self.glob[GLOB_PM_TRIGGER].pulse()) << 0x0f;
            // DOM[k].EVENT at +0x10+(7-k), DOM[k].FLAG at +0x18+(7-k): own
            // signals directly, others through the selected import (S16).
            for k in 0..8 {
                t |= u32::from((ev >> k) & 1) << (0x17 - k);
                t |= u32::from((fl >> k) & 1) << (0x1f - k);
            }
            (external, t)
        } else if feat.trailer20 {
            // NV20, NV30 (S24): +0x1d PM_TRIGGER, +0x1e DOM[1].FLAG, +0x1f DOM[0].FLAG.
            let t = u32::from(self.glob[GLOB_PM_TRIGGER].pulse()) << 0x1d
                | u32::from(fl >> 1 & 1) << 0x1e
                | u32::from(fl & 1) << 0x1f;
            (0x1fff_ffffu32, t)
        } else {
            // NV10, NV15 (S24): +0x1f the domain's FLAG only.
            (0x7fff_ffffu32, u32::from(self.flag_sig) << 0x1f)
        };
        w[base] = (w[base] & external) | t;
        // USER_0/USER_1 at the domain's USER position (GT215, S19); before
        // GT215 those positions are external signals.
        if feat.user_signals {
            for (i, pos) in [cfg.user_pos[dom], cfg.user_pos[dom] + 1].into_iter().enumerate() {
                let (word, bit) = (usize::from(pos) / 32, pos % 32);
                w[word] = (w[word] & !(1 << bit)) | u32::from(self.user >> i & 1) << bit;
            }
        }
        w
    }

    /// DOM[k].EVENT / DOM[k].FLAG as domain `dom` sees them (bit k): own
    /// signals directly, the others from the synchronizer CTRL selects (S16).
    fn imports(&self, dom: usize, present: u8) -> (u8, u8) {
        let others = present & !(1 << dom);
        let pulses = |p: &[PulseSync; 8]| p.iter().enumerate().fold(0u8, |a, (k, x)| a | u8::from(x.pulse()) << k);
        let pick = |pulse_mode: bool, s: &[u8; 2], p: &[PulseSync; 8]| if pulse_mode { pulses(p) } else { s[1] };
        let ev = pick(self.ctrl_field(regs::field::CTRL_EVENT_IMPORT_MODE) == 1, &self.ev_s, &self.ev_pulse) & others;
        let fl = pick(self.ctrl_field(regs::field::CTRL_FLAG_IMPORT_MODE) == 1, &self.fl_s, &self.fl_pulse) & others;
        (ev | u8::from(self.event_sig) << dom, fl | u8::from(self.flag_sig) << dom)
    }

    /// Imported DOM[k].EVENT / DOM[k].FLAG of this cycle (bit k, own domain
    /// excluded) and whether each uses PULSE mode (S16), for reach counts.
    pub fn imported(&self, dom: usize, present: u8) -> (u8, u8, bool, bool) {
        let (ev, fl) = self.imports(dom, present);
        let own = !(1u8 << dom);
        (
            ev & own,
            fl & own,
            self.ctrl_field(regs::field::CTRL_EVENT_IMPORT_MODE) == 1,
            self.ctrl_field(regs::field::CTRL_FLAG_IMPORT_MODE) == 1,
        )
    }

    /// What this domain exports to the others' synchronizers (S16).
    /// Adds this domain's exports to `x`.
    pub fn export_into(&self, dom: usize, x: &mut Exports) {
        x.event_sig |= u8::from(self.event_sig) << dom;
        // The FLAG register itself (S16), not the delayed FLAG signal.
        x.flag_sig |= u8::from(self.flag) << dom;
        x.event_cnt[dom] = self.event_cnt;
        x.flag_cnt[dom] = self.flag_cnt;
    }

    fn comb(&self, cfg: &Config, eff: &[u32; 8]) -> Comb {
        let st = &self.stored;
        let gen = cfg.gen;
        let flag_src = gen.features().flag_src;
        let srcs: &[usize] = if flag_src {
            &[regs::PRE_SRC, regs::START_SRC, regs::EVENT_SRC, regs::STOP_SRC, regs::SETFLAG_SRC, regs::CLRFLAG_SRC]
        } else {
            &[regs::PRE_SRC, regs::START_SRC, regs::EVENT_SRC, regs::STOP_SRC]
        };
        let mut sel = 0u32;
        for (r, srcreg) in srcs.iter().enumerate() {
            for j in 0..4 {
                let s = ((st[*srcreg] >> (8 * j)) & 0xff) as usize;
                if (eff[s / 32] >> (s % 32)) & 1 != 0 {
                    sel |= 1 << (4 * r + j);
                }
            }
        }
        let src = |i: [usize; 4]| i.map(|n| bit(sel, n));
        let prev = |i: [usize; 2]| i.map(|n| bit(self.src_prev, n));
        // NV30+: SETFLAG takes START_SRC[2], START_SRC[3], PRE_SRC[0],
        // PRE_SRC[1]; CLRFLAG PRE_SRC[2], PRE_SRC[3], START_SRC[0], START_SRC[1]
        // (S10). NV10:NV30: their own SETFLAG_SRC / CLRFLAG_SRC (S24).
        let (set_args, set_prev, clr_args, clr_prev) = if flag_src {
            ([16, 17, 18, 19], [16, 17], [20, 21, 22, 23], [20, 21])
        } else {
            ([6, 7, 0, 1], [6, 7], [2, 3, 4, 5], [2, 3])
        };
        let setflag = logic_op::eval(st[regs::SETFLAG_OP], OpLayout::Plain, gen, src(set_args), prev(set_prev), false);
        let clrflag = logic_op::eval(st[regs::CLRFLAG_OP], OpLayout::Plain, gen, src(clr_args), prev(clr_prev), false);
        let op = |reg: usize, layout, first: usize| {
            logic_op::eval(
                st[reg],
                layout,
                gen,
                src([first, first + 1, first + 2, first + 3]),
                prev([first, first + 1]),
                setflag,
            )
        };
        Comb {
            sel,
            pre: op(regs::PRE_OP, OpLayout::Plain, 0),
            start: op(regs::START_OP, OpLayout::Plain, 4),
            event: op(regs::EVENT_OP, OpLayout::EventLike, 8),
            stop: op(regs::STOP_OP, OpLayout::EventLike, 12),
            setflag,
            clrflag,
            pm_trigger: false,
        }
    }

    /// CTRL as the view shows it (S11): stored bits and the two states.
    pub fn ctrl_view(&self) -> u32 {
        self.stored[regs::CTRL]
            | regs::field::CTRL_SINGLE_STATE.set(0, self.single_state as u32)
            | regs::field::CTRL_QUAD_STATE.set(0, u32::from(self.quad_state))
    }

    /// The register view of this cycle (S11): what a read of each register returns.
    pub fn view(&self, cfg: &Config, dom: usize, inp: &DomainInputs, out: &mut [u32; NUM_DOM_REGS]) {
        let gen = cfg.gen;
        let masks = &regs::DOM_RW_MASKS[gen as usize];
        for (idx, reg) in DOM_REGS.iter().enumerate() {
            // Stored bits as the generation has them (a register it lacks
            // stores nothing and reads 0, S8); everything else is set below.
            out[idx] = match reg.kind {
                Kind::Storage => self.stored[idx] & masks[idx],
                _ => 0,
            };
        }
        out[regs::CTRL] = self.ctrl_view();
        let eff = self.effective_signals(cfg, dom, inp);
        out[regs::SRC_STATUS] = self.comb(cfg, &eff).sel & 0xffff;
        // 40-bit counters read as two halves, both live (S24).
        let (lo, hi) = (|c: u64| c as u32, |c: u64| (c >> 32) as u32);
        out[regs::CTR_CYCLES] = lo(self.ctr_cycles);
        out[regs::CTR_CYCLES_ALT] = lo(self.ctr_cycles_alt);
        out[regs::CTR_EVENT] = lo(self.ctr_event);
        out[regs::CTR_START] = lo(self.ctr_start);
        out[regs::CTR_CYCLES_HI] = hi(self.ctr_cycles);
        out[regs::CTR_CYCLES_ALT_HI] = hi(self.ctr_cycles_alt);
        out[regs::CTR_EVENT_HI] = hi(self.ctr_event);
        out[regs::CTR_START_HI] = hi(self.ctr_start);
        out[regs::CTR_PRE] = self.ctr_pre;
        out[regs::CTR_STOP] = self.ctr_stop;
        out[regs::SIG_STATUS..regs::SIG_STATUS + regs::SIG_STATUS_COUNT].copy_from_slice(&eff);
        if DOM_REGS[regs::RECORD_STATUS].present(gen) {
            out[regs::RECORD_STATUS] = self.rec.position | u32::from(inp.rec_fault);
        }
    }

    /// Compute the next state from this cycle's inputs and commit it. Only a
    /// tick changes anything (S15).
    pub fn step(&mut self, cfg: &Config, dom: usize, inp: &DomainInputs) {
        self.events = 0;
        self.rec_sent = None;
        self.rec_events = 0;
        if !inp.tick {
            assert!(inp.write.is_none(), "a write reached domain {dom} outside a tick (S15)");
            return;
        }
        let eff = self.effective_signals(cfg, dom, inp);
        let c = Comb { pm_trigger: self.glob[GLOB_PM_TRIGGER].pulse(), ..self.comb(cfg, &eff) };
        let mut d = self.clone();
        let mut state = self.single_state;
        let gen = cfg.gen;
        let mode = self.ctrl_field(regs::field::CTRL_MODE);
        let written = |idx: usize| inp.write.filter(|w| w.0 == idx).map(|w| w.1);

        if let Some((idx, data)) = inp.write {
            let reg = &DOM_REGS[idx];
            match reg.kind {
                Kind::Storage => d.stored[idx] = data & reg.rw_mask(gen),
                Kind::Init if idx == regs::CTR_PRE => d.ctr_pre_init = data,
                Kind::Init if idx == regs::CTR_STOP => d.ctr_stop_init = data,
                _ => {}
            }
            // S1/S2: abort first, then the state switch runs on INACTIVE.
            if reg.aborts {
                state = SingleState::Inactive;
            }
        }
        let pre_op_written = written(regs::PRE_OP).is_some();
        let single_mode = mode == MODE_SINGLE;
        // S2: PRE_OP in single event mode (re)starts the process from any
        // state: it goes through INACTIVE in this tick like an abort.
        if pre_op_written && single_mode {
            state = SingleState::Inactive;
        }

        // S3: the FLAG follows SETFLAG/CLRFLAG except in single-mode INACTIVE.
        if !single_mode || state != SingleState::Inactive {
            if c.clrflag {
                d.flag = false;
            } else if c.setflag {
                d.flag = true;
            }
        }

        d.single_state = state;
        match state {
            SingleState::Inactive => {
                if pre_op_written && single_mode {
                    d.ctr_event = 0;
                    d.ctr_start = 0;
                    d.ctr_cycles = 0;
                    d.ctr_cycles_alt = 0;
                    d.ctr_pre = self.ctr_pre_init;
                    d.ctr_stop = self.ctr_stop_init;
                    d.flag = false;
                    d.single_state = SingleState::WaitPre;
                }
            }
            SingleState::WaitPre => {
                if c.pre {
                    if self.ctr_pre != 0 {
                        d.ctr_pre = self.ctr_pre - 1;
                    } else {
                        d.single_state = SingleState::WaitStart;
                    }
                }
            }
            SingleState::WaitStart => {
                if c.start {
                    d.ctr_cycles = 0;
                    d.ctr_cycles_alt = 0;
                    if self.ctrl_field(regs::field::CTRL_EVENT_CTR_PERIOD) == 0 {
                        d.ctr_event = 0;
                    }
                    d.single_state = SingleState::Counting;
                }
            }
            SingleState::Counting => {
                let (inc_event, inc_pre) = self.increments(&c);
                let wide = gen.features().wide_counters;
                d.ctr_cycles = ctr_add(self.ctr_cycles, 1, wide);
                d.ctr_cycles_alt = ctr_add(self.ctr_cycles_alt, 1, wide);
                d.ctr_event = ctr_add(self.ctr_event, inc_event, wide);
                d.ctr_pre = self.ctr_pre.saturating_add(inc_pre);
                if c.stop {
                    // S5: compare after this cycle's increment; over 40 bits
                    // with THRESHOLD_HI on NV10:NV30 (S24; 0 elsewhere).
                    let threshold = u64::from(self.stored[regs::THRESHOLD_HI] & 0xff) << 32
                        | u64::from(self.stored[regs::THRESHOLD]);
                    if d.ctr_event >= threshold {
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

        if mode == MODE_QUAD {
            self.quad_step(&mut d, cfg, &c, &eff, written(regs::QUAD_ACK_TRIGGER), pre_op_written);
        } else if let Some(v) = written(regs::CTRL) {
            // S17: entering QUAD clears the shadows and QUAD_STATE.
            if regs::field::CTRL_MODE.get(v) == MODE_QUAD {
                (d.sh_cycles, d.sh_event, d.sh_start, d.sh_pre, d.sh_stop) = (0, 0, 0, 0, 0);
                d.quad_state = quad_state::EMPTY;
            }
        }

        // S18: PERIODIC generator (G84+).
        let period = self.ctrl_field(regs::field::CTRL_PERIODIC_PERIOD);
        if !gen.features().periodic || inp.periodic_reset || period == 0 {
            (d.periodic_cnt, d.periodic) = (0, false);
        } else if self.periodic_cnt >= (0x400 << (period - 1)) - 1 {
            (d.periodic_cnt, d.periodic) = (0, true);
        } else {
            (d.periodic_cnt, d.periodic) = (self.periodic_cnt + 1, false);
        }

        // S19: USER signals (USER_TRIGGER exists on GT215 only).
        match written(regs::USER_TRIGGER) {
            Some(v) => (d.user, d.user_pulse) = ((v & 3) as u8, ((v >> 2) & 3) as u8),
            None => d.user = self.user & !self.user_pulse,
        }

        // S16, S22: source edge counts advance where the exported signal
        // rises; the destination stages sample the other present domains'
        // flops (absent and own domains have no synchronizer: input 0).
        d.event_cnt = pulse_sync::count_edge(self.event_cnt, c.event && !self.event_sig);
        d.flag_cnt = pulse_sync::count_edge(self.flag_cnt, d.flag && !self.flag);
        let others = inp.present & !(1 << dom);
        let x = &inp.exports;
        d.ev_s = [x.event_sig & others, self.ev_s[0]];
        d.fl_s = [x.flag_sig & others, self.fl_s[0]];
        for k in 0..8 {
            let there = others >> k & 1 != 0;
            d.ev_pulse[k] = self.ev_pulse[k].next(if there { x.event_cnt[k] } else { 0 });
            d.fl_pulse[k] = self.fl_pulse[k].next(if there { x.flag_cnt[k] } else { 0 });
        }
        for (g, cnt) in inp.glob_cnt.iter().enumerate() {
            d.glob[g] = self.glob[g].next(*cnt);
        }

        // S21: record mode.
        let rinp = RecordInputs {
            record_mode: gen.features().record && mode == MODE_RECORD,
            sel: (c.sel & 0xfff) as u16,
            stop: c.stop,
            record_reset: inp.record_reset,
            bound: inp.rec_bound,
            start_write: written(regs::RECORD_START),
            limit: self.stored[regs::RECORD_LIMIT],
            addr_high: self.stored[regs::RECORD_ADDRESS_HIGH] as u8,
            long: self.ctrl_field(regs::field::CTRL_RECORD_FORMAT) == 0,
            blocked: inp.rec_blocked,
        };
        (d.rec, d.rec_sent, d.rec_events) = self.rec.step(&rinp);

        d.src_prev = c.sel;
        d.event_sig = c.event;
        d.flag_sig = self.flag;
        *self = d;
    }

    /// One quad-mode tick (S17): ack, then swap, then count into the shadows.
    fn quad_step(&self, d: &mut DomainState, cfg: &Config, c: &Comb, eff: &[u32; 8], ack: Option<u32>, pre_op: bool) {
        let mut qs = self.quad_state;
        if ack.is_some_and(|v| v & 1 != 0) {
            d.events |= event::ACK;
            qs = match qs {
                quad_state::OVERFLOW => quad_state::VALID,
                _ => quad_state::EMPTY,
            };
        }
        let swap_sig = if cfg.gen.features().swap_src {
            let s = regs::field::SPEC_SRC_SWAP.get(self.stored[regs::SPEC_SRC]) as usize;
            (eff[s / 32] >> (s % 32)) & 1 != 0
        } else {
            // NV40: SWAP is hardwired to PM_TRIGGER.
            c.pm_trigger
        };
        let swap = swap_sig || (cfg.gen.features().pre_op_swap && pre_op);
        if swap_sig {
            d.events |= event::SWAP_SIGNAL;
        } else if swap {
            d.events |= event::SWAP_PRE_OP;
        }
        let mut base = [self.sh_cycles, self.sh_event, self.sh_start, self.sh_pre, self.sh_stop];
        if swap {
            // Quad mode is NV30+: 32-bit counters (S17, S24).
            (d.ctr_cycles, d.ctr_event, d.ctr_start, d.ctr_pre, d.ctr_stop) =
                (u64::from(base[0]), u64::from(base[1]), u64::from(base[2]), base[3], base[4]);
            d.ctr_cycles_alt = u64::from(base[0]);
            base = [0; 5];
            qs = if qs == quad_state::EMPTY { quad_state::VALID } else { quad_state::OVERFLOW };
        }
        let (inc_event, _) = self.increments(c);
        let (_, b4, b6) = c.ints();
        let inc_start = match self.ctrl_field(regs::field::CTRL_CTR_MODE) {
            ctr_mode::EXTRA_B4 => b4,
            ctr_mode::EXTRA_B6_EVENT_B2 => b6,
            _ => u32::from(c.start),
        };
        d.sh_cycles = base[0].saturating_add(1);
        d.sh_event = base[1].saturating_add(inc_event);
        d.sh_start = base[2].saturating_add(inc_start);
        d.sh_pre = base[3].saturating_add(u32::from(c.pre));
        d.sh_stop = base[4].saturating_add(u32::from(c.stop));
        d.quad_state = qs;
    }

    /// (CTR_EVENT, CTR_PRE) increments of a COUNTING cycle (S6, S7).
    fn increments(&self, c: &Comb) -> (u32, u32) {
        let (b2, b4, b6) = c.ints();
        let ev = u32::from(c.event);
        match self.ctrl_field(regs::field::CTRL_CTR_MODE) {
            ctr_mode::EVENT_B4 => (ev * b4, 0),
            ctr_mode::EVENT_B6 => (ev * b6, 0),
            ctr_mode::EXTRA_B4 => (ev, b4),
            ctr_mode::EXTRA_B6_EVENT_B2 => (b2, b6),
            // SIMPLE and the reserved 5..7 (S6).
            _ => (ev, 0),
        }
    }
}

/// Decoded bus target, after presence checks (S8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Dom { dom: usize, idx: usize },
    Global { idx: usize },
}

/// Resolve an offset for this configuration; `None` means PSLVERR (S8).
pub fn target(cfg: &Config, offset: u16) -> Option<Target> {
    match regs::decode(cfg.gen.reg_layout(), offset)? {
        Decoded::Dom { dom, idx } => {
            (dom < cfg.num_domains && DOM_REGS[idx].present(cfg.gen)).then_some(Target::Dom { dom, idx })
        }
        Decoded::Global { idx } => regs::GLOBAL_REGS[idx].present(cfg.gen).then_some(Target::Global { idx }),
    }
}
