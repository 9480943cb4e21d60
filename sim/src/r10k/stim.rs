//! Constrained-random R10K stimulus: a deterministic stream of script
//! commands from a seed and the variant. It changes the CP0 mode often
//! (every KSU value, EXL, ERL), drives event bursts within each source's
//! per-cycle maximum (docs/semantics.md R6), writes every control value
//! (reserved bits set, every event of the variant, every mode-bit
//! combination, IE on and off), writes counters while they count, presets
//! them just below 2^31 (the profiler's sampling) and 2^32 (the wrap), and
//! queues a control write that lands on the cycle a counter reaches bit 31.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use pcounter::r10k::regs::{self, ctl, Variant, INC_W, NUM_COUNTERS, NUM_SOURCES};
use pcounter::r10k::Mode;

use super::cmd::Cmd;

pub struct RandomStim {
    rng: ChaCha8Rng,
    variant: Variant,
    /// Commands queued by a multi-command action, popped from the end.
    queue: Vec<Cmd>,
}

impl RandomStim {
    pub fn new(seed: u64, variant: Variant) -> RandomStim {
        RandomStim { rng: ChaCha8Rng::seed_from_u64(seed ^ 0x5231_304b), variant, queue: Vec::new() }
    }

    fn events(&mut self) -> Cmd {
        let (r, v) = (&mut self.rng, self.variant);
        let mut x = 0u128;
        let put = |x: &mut u128, s: usize, val: u8| *x |= u128::from(val) << (INC_W as usize * s);
        match r.gen_range(0..10) {
            0 | 1 => {}
            // Everything at its maximum.
            2 => (0..NUM_SOURCES).for_each(|s| put(&mut x, s, v.max_inc(s))),
            _ => {
                for s in 0..NUM_SOURCES {
                    if r.gen_ratio(1, 2) {
                        put(&mut x, s, r.gen_range(0..=v.max_inc(s)));
                    }
                }
            }
        }
        Cmd::Events(x)
    }

    fn mode(&mut self) -> Mode {
        let r = &mut self.rng;
        Mode { ksu: [2, 2, 2, 0, 0, 1, 1, 3][r.gen_range(0..8)], exl: r.gen_ratio(1, 5), erl: r.gen_ratio(1, 10) }
    }

    fn ctl_value(&mut self) -> u32 {
        let (r, v) = (&mut self.rng, self.variant);
        if r.gen_ratio(1, 20) {
            return r.gen(); // every bit, reserved ones included
        }
        let mut x = v.event_field().set(0, r.gen_range(0..v.events_per_counter()));
        x = ctl::MODE.set(x, r.gen_range(0..16));
        x = ctl::IE.set(x, u32::from(r.gen_ratio(1, 2)));
        if r.gen_ratio(1, 8) {
            x |= r.gen::<u32>() & !v.ctl_wr_mask(); // reserved bits: ignored (R3)
        }
        x
    }

    fn offset(&mut self) -> u16 {
        let r = &mut self.rng;
        let o = match r.gen_range(0..8) {
            0..=5 => r.gen_range(0..4) * 4,
            6 => r.gen_range(0x10..0x20),
            _ => u16::from(r.gen::<u8>()),
        };
        // Now and then an unaligned offset (PADDR[1:0] ignored, R1).
        o | if r.gen_ratio(1, 16) { r.gen_range(1..4) } else { 0 }
    }

    fn write(off: u16, data: u32) -> Cmd {
        Cmd::Write { off, data, strb: 0xf }
    }
}

impl Iterator for RandomStim {
    type Item = Cmd;

    fn next(&mut self) -> Option<Cmd> {
        if let Some(c) = self.queue.pop() {
            return Some(c);
        }
        let j = self.rng.gen_range(0..NUM_COUNTERS);
        let cmd = match self.rng.gen_range(0..100) {
            0..=19 => self.events(),
            20..=27 => {
                let m = self.mode();
                Cmd::Mode(m)
            }
            28..=44 => Cmd::Wait { cycles: self.rng.gen_range(1..8) },
            45..=59 => {
                let v = self.ctl_value();
                Self::write(regs::ctl(j), v)
            }
            // Preset just below 2^31 (sampling) or 2^32 (the wrap).
            60..=69 => {
                let top = if self.rng.gen_ratio(1, 3) { 0u32 } else { 1 << 31 };
                Self::write(regs::cnt(j), top.wrapping_sub(self.rng.gen_range(1..40)))
            }
            70..=72 => {
                let v = if self.rng.gen_ratio(1, 2) { self.rng.gen_range(0..64) } else { self.rng.gen() };
                Self::write(regs::cnt(j), v)
            }
            // A control write on the cycle of an overflow: counter j counts
            // cycles (Event 0: 1 every cycle, R5) in every mode but ERL and
            // KSU 3, preset to 2^31 - 2 in kernel mode: the next write's
            // SETUP cycle brings it to 2^31 - 1, its ACCESS cycle to 2^31.
            73..=75 => {
                let next = self.ctl_value();
                let arm = ctl::IE.set(ctl::MODE.set(0, 0xf), u32::from(self.rng.gen_ratio(1, 2)));
                self.queue.extend([
                    Self::write(regs::ctl(j), next),
                    Self::write(regs::cnt(j), 0x7fff_fffe),
                    Cmd::Mode(Mode::KERNEL),
                    Self::write(regs::ctl(j), arm),
                ]);
                self.queue.pop().expect("queued")
            }
            76..=87 => Cmd::Read { off: self.offset(), expect: None },
            _ => {
                let strb = if self.rng.gen_ratio(1, 3) { self.rng.gen_range(0..15) } else { 0xf };
                Cmd::Write { off: self.offset(), data: self.rng.gen(), strb }
            }
        };
        Some(cmd)
    }
}
