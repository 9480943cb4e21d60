//! Record-mode stimulus (S21): buffers, binding the VM channel and DMA object
//! the way a driver does (and in the wrong order), triggers and faults.

use pcounter::pcnt::regs::{self, DOM_REGS, GLOBAL_REGS};
use rand::Rng;

use crate::pcnt::script::{Cmd, Counter};

use super::*;

impl RandomStim {
    /// Program domain `dom` for record mode (S21): selections, STOP_OP,
    /// CTRL with MODE = RECORD, buffer address / limit / high byte, in a
    /// driver's order (RECORD_START after CTRL) or, now and then, with
    /// RECORD_START first (the seed's bogus-packet case).
    pub(super) fn program_record(&mut self, dom: usize) {
        for src in [regs::PRE_SRC, regs::START_SRC, regs::EVENT_SRC, regs::STOP_SRC] {
            if self.pm(800) {
                let v = self.src_value(dom);
                self.write(dom, src, v);
            }
        }
        if self.pm(800) {
            // STOP = STOP_SRC[0] mostly: packet rate follows that signal.
            let v = if self.pm(700) { 0xaaaa } else { self.op_value() };
            self.write(dom, regs::STOP_OP, v);
        }
        let mut ctrl = self.ctrl_with_mode(2) & !(1 << 20);
        ctrl |= u32::from(self.pm(400)) << 20; // RECORD_FORMAT: SHORT
        let start = self.record_start(dom);
        let limit = match self.rng.gen_range(0..10) {
            0..=3 => start.wrapping_add(self.rng.gen_range(0..12) * 32),
            4 => start.wrapping_sub(self.rng.gen_range(0..4) * 16),
            5 => 0xffff_fff0,
            _ => start.wrapping_add(self.rng.gen_range(0..0x800) * 16),
        };
        if DOM_REGS[regs::RECORD_ADDRESS_HIGH].present(self.gen) && self.pm(500) {
            let hi = if self.pm(500) { 0 } else { self.rng.gen_range(0..256) };
            self.write(dom, regs::RECORD_ADDRESS_HIGH, hi);
        }
        self.write(dom, regs::RECORD_LIMIT, limit);
        let early = self.pm(100);
        if early {
            self.write(dom, regs::RECORD_START, start);
        }
        self.write(dom, regs::CTRL, ctrl);
        self.rec_ctrl[dom] = ctrl;
        if !early {
            self.write(dom, regs::RECORD_START, start);
        }
    }

    /// The channel bind of a record episode until one succeeded (S21 (a)): a
    /// driver's order (RECORD_DMA, then RECORD_CHAN with VALID) mostly; now
    /// and then the bind is late, or the channel comes first (no bind), and
    /// the driver's bind follows some run cycles later: triggers meanwhile
    /// fault (S21 (b)) and wedge their domains for the run.
    pub(super) fn record_bind(&mut self) {
        self.rec_bound = true;
        match self.rng.gen_range(0..16) {
            0..=1 => self.rec_bind_due = Some(self.rng.gen_range(0..2000)),
            2..=6 => {
                let chan = Self::addr(GLOBAL_REGS[regs::RECORD_CHAN].offset);
                let c = self.rng.gen::<u32>() | 1 << 31;
                self.queue.push_back(Cmd::Write { addr: chan, data: c, strb: 0xf });
                self.rec_bind_due = Some(self.rng.gen_range(0..2000));
            }
            _ => self.driver_bind(),
        }
    }

    /// RECORD_DMA, then RECORD_CHAN with VALID: a successful bind (S21 (a)).
    pub(super) fn driver_bind(&mut self) {
        let dma = Self::addr(GLOBAL_REGS[regs::RECORD_DMA].offset);
        let chan = Self::addr(GLOBAL_REGS[regs::RECORD_CHAN].offset);
        let d = self.rng.gen();
        let c = self.rng.gen::<u32>() | 1 << 31;
        self.queue.push_back(Cmd::Write { addr: dma, data: d, strb: 0xf });
        self.queue.push_back(Cmd::Write { addr: chan, data: c, strb: 0xf });
    }

    /// A buffer start: the domain's area mostly, sometimes just below 4 GiB
    /// (the position wraps, S21) or the fault region; low bits now and then
    /// (ignored).
    pub(super) fn record_start(&mut self, dom: usize) -> u32 {
        let base = match self.rng.gen_range(0..20) {
            0 | 1 => 0xffff_ff00 + self.rng.gen_range(0..16) * 16,
            2 => FAULT_REGION + self.rng.gen_range(0..0x100) * 16,
            _ => REC_BASE + dom as u32 * 0x0100_0000 + self.rng.gen_range(0..0x1000) * 0x1000,
        };
        base | if self.pm(100) { self.rng.gen_range(0..16) } else { 0 }
    }

    /// One record-mode disturbance of the run phase (S21), if any.
    pub(super) fn record_action(&mut self) -> bool {
        if !self.pm(self.rec_rate) {
            return false;
        }
        let dom = self.rng.gen_range(0..self.domains);
        match self.rng.gen_range(0..20) {
            // Counters near their trigger / saturation levels (S14 backdoor).
            0..=5 => {
                let (counter, value): (Counter, u32) = match self.rng.gen_range(0..4) {
                    0 => (Counter::RecEv(self.rng.gen_range(0..12)), 0xf000 - self.rng.gen_range(0..40)),
                    1 => (Counter::RecEv(self.rng.gen_range(0..12)), 0xffff - self.rng.gen_range(0..40)),
                    2 => (Counter::RecStop, 0xfff - self.rng.gen_range(0..20)),
                    _ => (Counter::RecCyclesHi, 0xffff),
                };
                self.queue.push_back(Cmd::Poke { dom: dom as u8, counter, value: u64::from(value) });
            }
            6 | 7 => {
                let start = self.record_start(dom);
                self.write(dom, regs::RECORD_START, start);
            }
            8 => {
                let limit = self.rng.gen::<u32>();
                self.write(dom, regs::RECORD_LIMIT, limit);
            }
            9 | 10 => {
                // FAULT_CLEAR with the episode's CTRL (S21): FAULT clears, the
                // domain stays wedged.
                let v = self.rec_ctrl[dom] | 1 << 27;
                self.write(dom, regs::CTRL, v);
            }
            11 | 12 => {
                // GCTRL.RECORD_RESET pulse of a few cycles.
                let gctrl = Self::addr(GLOBAL_REGS[regs::GCTRL].offset);
                self.queue.push_back(Cmd::Write { addr: gctrl, data: 1, strb: 0xf });
                let n = self.rng.gen_range(0..20);
                self.queue.push_back(Cmd::Wait { cycles: n });
                self.queue.push_back(Cmd::Write { addr: gctrl, data: 0, strb: 0xf });
            }
            13 | 14 => {
                // Channel / DMA binding (S21): VALID set mostly.
                let dma = Self::addr(GLOBAL_REGS[regs::RECORD_DMA].offset);
                let chan = Self::addr(GLOBAL_REGS[regs::RECORD_CHAN].offset);
                let d = self.rng.gen();
                self.queue.push_back(Cmd::Write { addr: dma, data: d, strb: 0xf });
                let c = self.rng.gen::<u32>() | u32::from(self.pm(800)) << 31;
                self.queue.push_back(Cmd::Write { addr: chan, data: c, strb: 0xf });
            }
            15 => {
                // Leave record mode and come back (counters hold, S21).
                let mode = self.rng.gen_range(0..2);
                let other = self.ctrl_with_mode(mode);
                self.write(dom, regs::CTRL, other);
                let n = self.rng.gen_range(0..50);
                self.queue.push_back(Cmd::Wait { cycles: n });
                let v = self.rec_ctrl[dom];
                self.write(dom, regs::CTRL, v);
            }
            _ => {
                let idx = [regs::RECORD_STATUS, regs::CTRL, regs::RECORD_START][self.rng.gen_range(0..3)];
                // Record mode is G84+, on the NV40 layout.
                if let Some(off) = DOM_REGS[idx].offset_of(self.layout, dom) {
                    self.queue.push_back(Cmd::Read { addr: Self::addr(off), expect: None });
                }
            }
        }
        true
    }
}
