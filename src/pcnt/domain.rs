//! One PCOUNTER domain of NV10:GF100, the shell around the counting engine
//! (`dom_core.rs`): storage registers, the generation's features, the
//! effective signals (trailer, USER), the side effects of register writes,
//! USER signals, record mode, the view, and the destination side of the
//! cross-domain imports. Mirrors `rtl/pcnt/pcnt_domain.sv` (the import
//! synchronizers, which the RTL instantiates in `pcnt_top`, are kept here as
//! per-destination bit masks).
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

use crate::common::pulse_sync::PulseSync;
use crate::pcnt::config::Config;
use crate::pcnt::dom_core::{self, input, Controls, EngineState};
pub use crate::pcnt::dom_core::{ctr_mode, quad_state, SingleState};
use crate::pcnt::record::{Packet, RecordInputs, RecordState};
use crate::pcnt::regs::{self, Decoded, Kind, DOM_REGS, NUM_DOM_REGS};

/// The 256 external signal inputs of one domain.
pub type Signals = BitArr!(for 256, in u32, Lsb0);

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
    /// The counting engine: counters, single and quad state, FLAG, the
    /// EVENT/FLAG signals and their edge counts, PERIODIC.
    pub core: EngineState,
    /// USER_0/USER_1 values and pulse-mode bits (S19).
    pub user: u8,
    pub user_pulse: u8,
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
            t |= u32::from(feat.periodic && self.core.periodic) << 0x0d;
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
            (0x7fff_ffffu32, u32::from(self.core.flag_sig) << 0x1f)
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
        (ev | u8::from(self.core.event_sig) << dom, fl | u8::from(self.core.flag_sig) << dom)
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
        x.event_sig |= u8::from(self.core.event_sig) << dom;
        // The FLAG register itself (S16), not the delayed FLAG signal.
        x.flag_sig |= u8::from(self.core.flag) << dom;
        x.event_cnt[dom] = self.core.event_cnt;
        x.flag_cnt[dom] = self.core.flag_cnt;
    }

    /// The six SRC words in the engine's order (`dom_core::input`);
    /// SETFLAG_SRC / CLRFLAG_SRC store nothing from NV30 on (S24).
    fn srcs(&self) -> [u32; input::COUNT] {
        let st = &self.stored;
        [
            st[regs::PRE_SRC],
            st[regs::START_SRC],
            st[regs::EVENT_SRC],
            st[regs::STOP_SRC],
            st[regs::SETFLAG_SRC],
            st[regs::CLRFLAG_SRC],
        ]
    }

    /// The engine's controls of this tick: the stored registers decoded by
    /// the generation, and the side effects of this tick's write `write`
    /// (S1, S2, S8, S17).
    fn controls(
        &self,
        cfg: &Config,
        sig: [u32; 8],
        write: Option<(usize, u32)>,
        swap: bool,
        periodic_reset: bool,
    ) -> Controls {
        let st = &self.stored;
        let feat = cfg.gen.features();
        let written = |idx: usize| write.filter(|w| w.0 == idx).map(|w| w.1);
        let mode = self.ctrl_field(regs::field::CTRL_MODE);
        let mode_single = mode == MODE_SINGLE;
        let mode_quad = mode == MODE_QUAD;
        Controls {
            sig,
            src: self.srcs(),
            op: [
                st[regs::PRE_OP],
                st[regs::START_OP],
                st[regs::EVENT_OP],
                st[regs::STOP_OP],
                st[regs::SETFLAG_OP],
                st[regs::CLRFLAG_OP],
            ],
            // S5, S24: THRESHOLD_HI holds bits 39:32 on NV10:NV30, 0 elsewhere.
            threshold: u64::from(st[regs::THRESHOLD_HI] & 0xff) << 32 | u64::from(st[regs::THRESHOLD]),
            gen: cfg.gen,
            wide_counters: feat.wide_counters,
            flag_src: feat.flag_src,
            mode_single,
            mode_quad,
            ctr_mode: self.ctrl_field(regs::field::CTRL_CTR_MODE),
            event_ctr_period: self.ctrl_field(regs::field::CTRL_EVENT_CTR_PERIOD) != 0,
            // S18: no PERIODIC before G84 (period 0 holds the generator).
            periodic_period: if feat.periodic { self.ctrl_field(regs::field::CTRL_PERIODIC_PERIOD) } else { 0 },
            periodic_reset,
            // S2: PRE_OP in single event mode (re)starts the process from
            // any state.
            start: mode_single && written(regs::PRE_OP).is_some(),
            abort: write.is_some_and(|(idx, _)| DOM_REGS[idx].aborts),
            swap,
            ack: written(regs::QUAD_ACK_TRIGGER).is_some_and(|v| v & 1 != 0),
            // S17: a CTRL write changing MODE to QUAD from another mode.
            quad_enter: !mode_quad && written(regs::CTRL).is_some_and(|v| regs::field::CTRL_MODE.get(v) == MODE_QUAD),
            init_pre: written(regs::CTR_PRE),
            init_stop: written(regs::CTR_STOP),
            shadow_write: None,
        }
    }

    /// CTRL as the view shows it (S11): stored bits and the two states.
    pub fn ctrl_view(&self) -> u32 {
        self.stored[regs::CTRL]
            | regs::field::CTRL_SINGLE_STATE.set(0, self.core.single_state as u32)
            | regs::field::CTRL_QUAD_STATE.set(0, u32::from(self.core.quad_state))
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
        out[regs::SRC_STATUS] = dom_core::select(&eff, &self.srcs(), gen.features().flag_src) & 0xffff;
        // 40-bit counters read as two halves, both live (S24); CTR_CYCLES_ALT
        // is a copy of CTR_CYCLES (S5).
        let (lo, hi) = (|c: u64| c as u32, |c: u64| (c >> 32) as u32);
        let core = &self.core;
        out[regs::CTR_CYCLES] = lo(core.ctr_cycles);
        out[regs::CTR_CYCLES_ALT] = lo(core.ctr_cycles);
        out[regs::CTR_EVENT] = lo(core.ctr_event);
        out[regs::CTR_START] = lo(core.ctr_start);
        out[regs::CTR_CYCLES_HI] = hi(core.ctr_cycles);
        out[regs::CTR_CYCLES_ALT_HI] = hi(core.ctr_cycles);
        out[regs::CTR_EVENT_HI] = hi(core.ctr_event);
        out[regs::CTR_START_HI] = hi(core.ctr_start);
        out[regs::CTR_PRE] = core.ctr_pre;
        out[regs::CTR_STOP] = core.ctr_stop;
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
        // Next values of the shell's own registers are computed from this
        // tick's ones into locals and committed together at the end; the
        // engine commits its own block (nothing below reads it). No copy of
        // the whole domain per tick.
        let eff = self.effective_signals(cfg, dom, inp);
        let gen = cfg.gen;
        let feat = gen.features();
        let mode = self.ctrl_field(regs::field::CTRL_MODE);
        let written = |idx: usize| inp.write.filter(|w| w.0 == idx).map(|w| w.1);

        // S17: SWAP is the signal SPEC_SRC.SWAP selects (raw, S9) on G84+,
        // PM_TRIGGER on NV40; a PRE_OP write also swaps on G84+.
        let swap_sig = if feat.swap_src {
            let s = regs::field::SPEC_SRC_SWAP.get(self.stored[regs::SPEC_SRC]) as usize;
            (eff[s / 32] >> (s % 32)) & 1 != 0
        } else {
            self.glob[GLOB_PM_TRIGGER].pulse()
        };
        let swap = swap_sig || (feat.pre_op_swap && written(regs::PRE_OP).is_some());
        let ctl = self.controls(cfg, eff, inp.write, swap, inp.periodic_reset);
        let mut events = 0;
        if ctl.mode_quad {
            if ctl.ack {
                events |= event::ACK;
            }
            if swap_sig {
                events |= event::SWAP_SIGNAL;
            } else if swap {
                events |= event::SWAP_PRE_OP;
            }
        }
        let c = self.core.step(&ctl);

        // S19: USER signals (USER_TRIGGER exists on GT215 only).
        let (user_d, user_pulse_d) = match written(regs::USER_TRIGGER) {
            Some(v) => ((v & 3) as u8, ((v >> 2) & 3) as u8),
            None => (self.user & !self.user_pulse, self.user_pulse),
        };

        // S21: record mode.
        let rinp = RecordInputs {
            record_mode: feat.record && mode == MODE_RECORD,
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
        let (rec_d, rec_sent, rec_events) = self.rec.step(&rinp);

        // Commit (S1: a write is seen from the next tick).
        if let Some((idx, data)) = inp.write {
            let reg = &DOM_REGS[idx];
            if reg.kind == Kind::Storage {
                self.stored[idx] = data & reg.rw_mask(gen);
            }
        }
        self.events = events;
        (self.user, self.user_pulse) = (user_d, user_pulse_d);
        (self.rec, self.rec_sent, self.rec_events) = (rec_d, rec_sent, rec_events);
        // S16, S22: the destination stages sample the other present domains'
        // flops (absent and own domains have no synchronizer: input 0). Each
        // stage's next value depends only on its own state and the inputs,
        // so they commit in place.
        let others = inp.present & !(1 << dom);
        let x = &inp.exports;
        self.ev_s = [x.event_sig & others, self.ev_s[0]];
        self.fl_s = [x.flag_sig & others, self.fl_s[0]];
        for k in 0..8 {
            let there = others >> k & 1 != 0;
            self.ev_pulse[k] = self.ev_pulse[k].next(if there { x.event_cnt[k] } else { 0 });
            self.fl_pulse[k] = self.fl_pulse[k].next(if there { x.flag_cnt[k] } else { 0 });
        }
        for (g, cnt) in inp.glob_cnt.iter().enumerate() {
            self.glob[g] = self.glob[g].next(*cnt);
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
