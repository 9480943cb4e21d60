//! Constrained-random PMON stimulus: a deterministic stream of script
//! commands from a seed. It writes and reads every register of the CSR
//! space, the global block and the discovery constants included (reserved
//! bits set, unmapped and unaligned offsets, partial strobes), changes the event
//! lanes often (bursts, sparse lanes, quiet gaps so Edge sees rising edges),
//! toggles `freeze_i`, presets counters just below 2^48 so they overflow,
//! and resets or freezes counters and the box while they count.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use pcounter::pmon::regs::{self, box_ctl, ctl0, ctl1, REGS, WINDOW_SIZE};

use super::cmd::{Cmd, LANES, LANE_BITS};

/// Counters of the default build.
const NUM_COUNTERS: usize = 4;

pub struct RandomStim {
    rng: ChaCha8Rng,
    /// Commands queued by a multi-command action (a preset is two writes).
    queue: Vec<Cmd>,
}

impl RandomStim {
    pub fn new(seed: u64) -> RandomStim {
        RandomStim { rng: ChaCha8Rng::seed_from_u64(seed ^ 0x504d_4f4e), queue: Vec::new() }
    }

    fn events(&mut self) -> Cmd {
        let r = &mut self.rng;
        let mut v = 0u128;
        match r.gen_range(0..10) {
            // Quiet: every lane 0 (the next burst is a rising edge).
            0..=2 => {}
            // Burst: every lane of one source, one value.
            3..=5 => {
                let (src, val) = (r.gen_range(0..4usize), r.gen_range(1..16u128));
                for l in 0..8 {
                    v |= val << (LANE_BITS as usize * (src * 8 + l));
                }
            }
            // Sparse: each lane non-zero with probability 1/3.
            _ => {
                for k in 0..LANES {
                    if r.gen_ratio(1, 3) {
                        v |= r.gen_range(1..16u128) << (LANE_BITS as usize * k);
                    }
                }
            }
        }
        Cmd::Events(v)
    }

    fn ctl0_value(&mut self) -> u32 {
        let r = &mut self.rng;
        if r.gen_ratio(1, 20) {
            return r.gen(); // every bit, reserved ones included
        }
        let sel = if r.gen_ratio(1, 10) { r.gen_range(4..256) } else { r.gen_range(0..4) };
        // Umask 0 often: the whole of a source without sub-events, nothing
        // of one with them (P5).
        let umask = match r.gen_range(0..8) {
            0 => 0,
            1 | 2 => 0xff,
            _ => r.gen_range(0..256),
        };
        let thresh = match r.gen_range(0..4) {
            0 | 1 => 0,
            2 => r.gen_range(1..16),
            _ => r.gen_range(1..128),
        };
        let mut v = ctl0::EVNT_SEL.set(0, sel);
        v = ctl0::UMASK.set(v, umask);
        v = ctl0::EDGE.set(v, u32::from(r.gen_ratio(1, 3)));
        v = ctl0::FRZ_ON_OV.set(v, u32::from(r.gen_ratio(1, 4)));
        v = ctl0::INVERT.set(v, u32::from(r.gen_ratio(1, 4)));
        v = ctl0::THRESH.set(v, thresh);
        v = ctl0::CNTR_RST.set(v, u32::from(r.gen_ratio(1, 8)));
        if r.gen_ratio(1, 8) {
            v |= r.gen::<u32>() & !ctl0::WR_MASK; // reserved bits: ignored (P3)
        }
        v
    }

    fn offset(&mut self) -> u16 {
        let r = &mut self.rng;
        let j = r.gen_range(0..NUM_COUNTERS);
        let o = match r.gen_range(0..14) {
            // The global block and the discovery registers (P2): any
            // register of the map without a stride.
            12 => {
                let global: Vec<u16> = REGS.iter().filter(|g| g.stride == 0).map(|g| g.offset).collect();
                global[r.gen_range(0..global.len())]
            }
            13 => regs::GSTS_L,
            0 => regs::BOX_CTL,
            1 => regs::BOX_STATUS,
            2 => [regs::BOX_CTL_HI, regs::BOX_STATUS_HI][r.gen_range(0..2)],
            3 | 4 => regs::ctl0(j),
            5 => regs::ctl1(j),
            6 | 7 => regs::data_lo(j),
            8 | 9 => regs::data_hi(j),
            // Counters the build lacks, past the map, anything.
            10 => regs::ctl0(r.gen_range(NUM_COUNTERS..8)),
            _ => r.gen_range(0..WINDOW_SIZE),
        };
        // Now and then an unaligned offset (PADDR[1:0] ignored, P1).
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
            0..=29 => self.events(),
            30..=49 => Cmd::Wait { cycles: self.rng.gen_range(1..8) },
            50..=61 => {
                let v = self.ctl0_value();
                Self::write(regs::ctl0(j), v)
            }
            62..=65 => {
                let v = if self.rng.gen_ratio(1, 4) { self.rng.gen() } else { self.rng.gen_range(0..2) };
                Self::write(regs::ctl1(j), v & if self.rng.gen_ratio(1, 2) { ctl1::WR_MASK } else { !0 })
            }
            // Preset just below 2^48 (the profiler's sampling setup): DATA_HI
            // then DATA_LO, queued in reverse.
            66..=70 => {
                let lo = 0u32.wrapping_sub(self.rng.gen_range(1..400));
                self.queue.push(Self::write(regs::data_lo(j), lo));
                Self::write(regs::data_hi(j), 0xffff | if self.rng.gen_ratio(1, 4) { self.rng.gen() } else { 0 })
            }
            71..=73 => {
                let v = if self.rng.gen_ratio(1, 2) { self.rng.gen_range(0..64) } else { self.rng.gen() };
                Self::write(regs::data_lo(j), v)
            }
            74..=77 => {
                let mut v = box_ctl::FREEZE.set(0, u32::from(self.rng.gen_ratio(1, 3)));
                v = box_ctl::RST_CTRL.set(v, u32::from(self.rng.gen_ratio(1, 10)));
                v = box_ctl::RST_CNTR.set(v, u32::from(self.rng.gen_ratio(1, 5)));
                if self.rng.gen_ratio(1, 8) {
                    v |= self.rng.gen::<u32>() & !0x301;
                }
                Self::write(regs::BOX_CTL, v)
            }
            78..=79 => Self::write(regs::BOX_STATUS, self.rng.gen::<u32>() >> self.rng.gen_range(0..32)),
            // GSTS_L: write 1 to clear UnitBlock_Ov, with reserved bits (P9).
            80 => Self::write(regs::GSTS_L, self.rng.gen::<u32>() >> self.rng.gen_range(0..32)),
            81..=90 => Cmd::Read { off: self.offset(), expect: None },
            91..=94 => {
                let strb = if self.rng.gen_ratio(1, 3) { self.rng.gen_range(0..15) } else { 0xf };
                Cmd::Write { off: self.offset(), data: self.rng.gen(), strb }
            }
            _ => Cmd::Freeze(self.rng.gen_ratio(1, 3)),
        };
        Some(cmd)
    }
}
