//! The NV10 layout in the random stimulus (docs/semantics.md S24): the
//! shared CTRL and QUAD_ACK_TRIGGER, the own SETFLAG/CLRFLAG selections,
//! THRESHOLD_HI, the 40-bit counters near 2^32, 2^39 and 2^40, and driver
//! reads of a counter's two halves.
//!
//! RNG discipline: everything here draws only on generations that use it
//! (the NV10 layout, `wide_counters`, `flag_src`), so the stream of every
//! NV40-layout seed is the one it was before these generations existed.

use pcounter::pcnt::regs::{self, RegLayout, DOM_REGS, GLOBAL_REGS, SHARED_FIELDS};
use rand::Rng;

use crate::pcnt::script::{Cmd, Counter};

use super::*;

/// The view registers a layout addresses (view order), per domain and global.
pub(super) fn layout_regs(layout: RegLayout) -> (Vec<usize>, Vec<usize>) {
    let dom = (0..DOM_REGS.len()).filter(|&i| DOM_REGS[i].place(layout).is_some()).collect();
    let glob = (0..GLOBAL_REGS.len()).filter(|&i| GLOBAL_REGS[i].place(layout).is_some()).collect();
    (dom, glob)
}

/// The shared register value `word` with domain `dom`'s fields of view
/// register `target` taken from `value` (the inverse of the delivery, S24).
fn compose(word: u32, g: usize, dom: usize, target: usize, value: u32) -> u32 {
    SHARED_FIELDS.iter().filter(|f| f.glob == g && f.dom == dom && f.target == target).fold(word, |w, f| {
        let bits = (value >> f.target_field.lsb) & (f.field.mask() >> f.field.lsb);
        f.field.set(w, bits)
    })
}

impl RandomStim {
    /// A write of view register `idx` of domain `dom` on the NV10 layout: at
    /// its address, or through the shared register that carries it (CTRL,
    /// QUAD_ACK_TRIGGER); registers the layout lacks are not written.
    pub(super) fn write_nv10(&mut self, dom: usize, idx: usize, data: u32) {
        if let Some(off) = DOM_REGS[idx].offset_of(RegLayout::Nv10, dom) {
            self.queue.push_back(Cmd::Write { addr: Self::addr(off), data, strb: 0xf });
            return;
        }
        let Some(g) = (0..GLOBAL_REGS.len()).find(|&g| regs::shared_target(g) == Some(idx)) else { return };
        let word = if g == regs::SHARED_CTRL { self.shared_ctrl } else { 0 };
        let mut v = compose(word, g, dom, idx, data);
        if g == regs::SHARED_CTRL {
            self.shared_ctrl = v;
        } else if self.pm(250) {
            // Both domains' ACK bits at once now and then (S24).
            v = (0..self.domains).fold(v, |w, d| compose(w, g, d, idx, 1));
        }
        self.queue.push_back(Cmd::Write { addr: Self::addr(GLOBAL_REGS[g].offset), data: v, strb: 0xf });
    }

    /// One shared CTRL for a single-mode episode (S24): every domain's CTRL
    /// fields, random TVOUT bits, written once before the domains start (a
    /// shared CTRL write aborts both, N6).
    pub(super) fn shared_ctrl_episode(&mut self) {
        let mut v = self.rng.gen_range(0..4); // TVOUT_DEBUG_SEL / _ENABLE
        for dom in 0..self.domains {
            let ctrl = self.ctrl_value();
            v = compose(v, regs::SHARED_CTRL, dom, regs::CTRL, ctrl);
        }
        if self.pm(100) {
            v |= self.rng.gen::<u32>() & 0xf0fa_fc80; // read-only and unknown bits
        }
        self.shared_ctrl = v;
        self.queue.push_back(Cmd::Write {
            addr: Self::addr(GLOBAL_REGS[regs::SHARED_CTRL].offset),
            data: v,
            strb: 0xf,
        });
    }

    /// The NV10:NV30 extras of programming a single run (S24): own
    /// SETFLAG/CLRFLAG selections and THRESHOLD_HI, where the generation has
    /// them.
    pub(super) fn single_extras(&mut self, dom: usize, writes: &mut Vec<(usize, u32)>) {
        for src in [regs::SETFLAG_SRC, regs::CLRFLAG_SRC] {
            if DOM_REGS[src].present(self.gen) && self.pm(800) {
                let v = self.src_value(dom);
                writes.push((src, v));
            }
        }
        if DOM_REGS[regs::THRESHOLD_HI].present(self.gen) {
            let hi = if self.pm(800) { 0 } else { self.rng.gen_range(0..4) | self.rng.gen::<u32>() & 0xffff_ff00 };
            writes.push((regs::THRESHOLD_HI, hi));
        }
    }

    /// The backdoor (S14) takes a 40-bit counter just below 2^32, 2^39 or
    /// 2^40 (S24): the carry into the HI part, bit 39 set by a carry, and the
    /// wrap of the low 39 bits with bit 39 kept. CTR_START steps once per
    /// period, so it starts one or two steps below.
    pub(super) fn wide_boundary_poke(&mut self) {
        let dom = self.rng.gen_range(0..self.domains) as u8;
        let counter = [Counter::Cycles, Counter::Event, Counter::Start][self.rng.gen_range(0..3)];
        let k = if counter == Counter::Start { self.rng.gen_range(1..3) } else { self.rng.gen_range(1..64) };
        let top: u64 = [1 << 32, 1 << 39, 1 << 40][self.rng.gen_range(0..3)];
        self.queue.push_back(Cmd::Poke { dom, counter, value: top - k });
    }

    /// A driver's read of a 40-bit counter (S24): LO then HI, or HI, LO, HI.
    /// Returns false on generations without them.
    pub(super) fn wide_read(&mut self) -> bool {
        if !self.gen.features().wide_counters || !self.pm(300) {
            return false;
        }
        let dom = self.rng.gen_range(0..self.domains);
        let (lo, hi) = [
            (regs::CTR_CYCLES, regs::CTR_CYCLES_HI),
            (regs::CTR_CYCLES_ALT, regs::CTR_CYCLES_ALT_HI),
            (regs::CTR_EVENT, regs::CTR_EVENT_HI),
            (regs::CTR_START, regs::CTR_START_HI),
        ][self.rng.gen_range(0..4)];
        let order: &[usize] = if self.rng.gen() { &[lo, hi] } else { &[hi, lo, hi] };
        for &idx in order {
            if let Some(off) = DOM_REGS[idx].offset_of(RegLayout::Nv10, dom) {
                self.queue.push_back(Cmd::Read { addr: Self::addr(off), expect: None });
            }
        }
        true
    }
}
