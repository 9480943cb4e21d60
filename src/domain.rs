//! One PCOUNTER domain: storage registers, input selection, FLAG, and the
//! single event counting process. Mirrors `rtl/pcnt_domain.sv`.
//!
//! Contract (docs/semantics.md): a write in cycle t is seen from t+1 (S1); an
//! aborting write (S2) makes the state INACTIVE before the state switch, so
//! the cycle counts nothing; PRE_OP in INACTIVE with MODE = SINGLE starts the
//! process. Counters are 32-bit and saturate (S6). FLAG: CLRFLAG wins, frozen
//! in single-mode INACTIVE, cleared entering WAIT_FOR_PRE; the FLAG and EVENT
//! trailer signals are registered copies (S3, S4). Everything resets to 0 (S8).

use crate::config::Config;
use crate::logic_op::{self, OpLayout};
use crate::regs::{self, Decoded, Gen, Kind, DOM_REGS, NUM_DOM_REGS};
use crate::set::Signals;

/// CTRL.SINGLE_STATE encoding (seed 003 "Control registers", NV10 CTRL).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SingleState {
    #[default]
    Inactive = 0,
    WaitPre = 1,
    WaitStart = 2,
    Counting = 3,
}

/// CTRL.MODE value of single event mode.
pub const MODE_SINGLE: u32 = 0;

/// CTRL.CTR_MODE values (seed 003 "Special counter modes").
pub mod ctr_mode {
    pub const SIMPLE: u32 = 0;
    pub const EVENT_B4: u32 = 1;
    pub const EVENT_B6: u32 = 2;
    pub const EXTRA_B4: u32 = 3;
    pub const EXTRA_B6_EVENT_B2: u32 = 4;
}

/// The registers of one domain (`_q` in the RTL).
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct DomainState {
    /// Stored bits of `Kind::Storage` registers, by view index (others unused).
    pub stored: [u32; NUM_DOM_REGS],
    pub ctr_cycles: u32,
    pub ctr_cycles_alt: u32,
    pub ctr_event: u32,
    pub ctr_start: u32,
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
    /// Selected signals of the previous cycle, bit layout of SRC_STATUS (S10).
    pub src_prev: u16,
}

/// What a domain sees in one cycle.
pub struct DomainInputs<'a> {
    /// External signals of this domain (trailer positions are ignored).
    pub sig: &'a Signals,
    pub pm_trigger: bool,
    pub wrcache_flush: bool,
    /// Accepted write to this domain in this cycle: (view index, data).
    pub write: Option<(usize, u32)>,
}

/// Per-cycle combinational values, shared by the view and the step.
struct Comb {
    /// SRC_STATUS layout: PRE_SRC[0..3], START_SRC[0..3], EVENT_SRC, STOP_SRC.
    sel: u16,
    pre: bool,
    start: bool,
    event: bool,
    stop: bool,
    setflag: bool,
    clrflag: bool,
}

fn bit16(v: u16, n: usize) -> bool {
    (v >> n) & 1 != 0
}

impl DomainState {
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
        // Trailer, NV40:GF100 list (seed 003 "Trailer signals"); own EVENT/FLAG
        // directly, other domains' with the domain-set issue, absent domains 0.
        // PERIODIC reads 0 until the PERIODIC issue (S9, known deviation).
        let g84 = cfg.gen >= Gen::G84;
        let base = usize::from(cfg.trailer_base[dom]) / 32;
        // ZERO (+0x0c) and PERIODIC (+0x0d) are G84+; on NV40 those two
        // positions stay external signals.
        let external = if g84 { 0x0000_0fff } else { 0x0000_3fff };
        let mut t = 0u32;
        t |= u32::from(g84 && inp.wrcache_flush) << 0x0e;
        t |= u32::from(inp.pm_trigger) << 0x0f;
        t |= u32::from(self.event_sig) << (0x17 - dom);
        t |= u32::from(self.flag_sig) << (0x1f - dom);
        w[base] = (w[base] & external) | t;
        w
    }

    fn comb(&self, cfg: &Config, eff: &[u32; 8]) -> Comb {
        let st = &self.stored;
        let mut sel = 0u16;
        for (r, srcreg) in [regs::PRE_SRC, regs::START_SRC, regs::EVENT_SRC, regs::STOP_SRC]
            .iter()
            .enumerate()
        {
            for j in 0..4 {
                let s = ((st[*srcreg] >> (8 * j)) & 0xff) as usize;
                if (eff[s / 32] >> (s % 32)) & 1 != 0 {
                    sel |= 1 << (4 * r + j);
                }
            }
        }
        let gen = cfg.gen;
        let src = |i: [usize; 4]| i.map(|n| bit16(sel, n));
        let prev = |i: [usize; 2]| i.map(|n| bit16(self.src_prev, n));
        // SETFLAG: START_SRC[2], START_SRC[3], PRE_SRC[0], PRE_SRC[1];
        // CLRFLAG: PRE_SRC[2], PRE_SRC[3], START_SRC[0], START_SRC[1] (S10).
        let setflag = logic_op::eval(
            st[regs::SETFLAG_OP],
            OpLayout::Plain,
            gen,
            src([6, 7, 0, 1]),
            prev([6, 7]),
            false,
        );
        let clrflag = logic_op::eval(
            st[regs::CLRFLAG_OP],
            OpLayout::Plain,
            gen,
            src([2, 3, 4, 5]),
            prev([2, 3]),
            false,
        );
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
        }
    }

    /// The register view of this cycle (S11): what a read of each register returns.
    pub fn view(&self, cfg: &Config, dom: usize, inp: &DomainInputs, out: &mut [u32; NUM_DOM_REGS]) {
        let gen = cfg.gen;
        for (idx, reg) in DOM_REGS.iter().enumerate() {
            out[idx] = match reg.kind {
                Kind::Storage => self.stored[idx],
                _ => 0,
            };
            // Registers absent on this generation read 0 in the view too.
            if !reg.present(gen) {
                out[idx] = 0;
            }
        }
        out[regs::CTRL] = self.stored[regs::CTRL] | regs::field::CTRL_SINGLE_STATE.set(0, self.single_state as u32);
        let eff = self.effective_signals(cfg, dom, inp);
        out[regs::SRC_STATUS] = u32::from(self.comb(cfg, &eff).sel);
        out[regs::CTR_CYCLES] = self.ctr_cycles;
        out[regs::CTR_CYCLES_ALT] = self.ctr_cycles_alt;
        out[regs::CTR_EVENT] = self.ctr_event;
        out[regs::CTR_START] = self.ctr_start;
        out[regs::CTR_PRE] = self.ctr_pre;
        out[regs::CTR_STOP] = self.ctr_stop;
        out[regs::SIG_STATUS..regs::SIG_STATUS + regs::SIG_STATUS_COUNT].copy_from_slice(&eff);
    }

    /// Compute the next state from this cycle's inputs and commit it.
    pub fn step(&mut self, cfg: &Config, dom: usize, inp: &DomainInputs) {
        let c = self.comb(cfg, &self.effective_signals(cfg, dom, inp));
        let mut d = self.clone();
        let mut state = self.single_state;

        if let Some((idx, data)) = inp.write {
            let reg = &DOM_REGS[idx];
            match reg.kind {
                Kind::Storage => d.stored[idx] = data & reg.rw_mask(cfg.gen),
                Kind::Init if idx == regs::CTR_PRE => d.ctr_pre_init = data,
                Kind::Init if idx == regs::CTR_STOP => d.ctr_stop_init = data,
                _ => {}
            }
            // S1/S2: abort first, then the state switch runs on INACTIVE.
            if reg.aborts {
                state = SingleState::Inactive;
            }
        }
        let pre_op_written = inp.write.is_some_and(|(idx, _)| idx == regs::PRE_OP);
        let single_mode = self.ctrl_field(regs::field::CTRL_MODE) == MODE_SINGLE;

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
                d.ctr_cycles = self.ctr_cycles.saturating_add(1);
                d.ctr_cycles_alt = self.ctr_cycles_alt.saturating_add(1);
                d.ctr_event = self.ctr_event.saturating_add(inc_event);
                d.ctr_pre = self.ctr_pre.saturating_add(inc_pre);
                if c.stop {
                    // S5: compare after this cycle's increment.
                    if d.ctr_event >= self.stored[regs::THRESHOLD] {
                        d.ctr_start = self.ctr_start.saturating_add(1);
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

        d.src_prev = c.sel;
        d.event_sig = c.event;
        d.flag_sig = self.flag;
        *self = d;
    }

    /// (CTR_EVENT, CTR_PRE) increments of a COUNTING cycle (S6, S7).
    fn increments(&self, c: &Comb) -> (u32, u32) {
        let b4 = u32::from(c.sel >> 4) & 0xf;
        let b6 = b4 | (u32::from(c.sel >> 10) & 0x3) << 4;
        let b2 = u32::from(c.sel >> 8) & 0x3;
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
    match regs::decode(offset)? {
        Decoded::Dom { dom, idx } => {
            (dom < cfg.num_domains && DOM_REGS[idx].present(cfg.gen)).then_some(Target::Dom { dom, idx })
        }
        Decoded::Global { idx } => regs::GLOBAL_REGS[idx]
            .present(cfg.gen)
            .then_some(Target::Global { idx }),
    }
}
