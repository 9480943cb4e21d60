//! The pulse synchronizer (docs/semantics.md S16, S22): a source counts its
//! rising edges in Gray code (`rtl/common/prim_edge_cnt.sv`), a destination follows
//! the count through two stages on its own ticks and gives one tick of pulse
//! per step it has not delivered yet (`rtl/common/prim_pulse_sync.sv`). Used by the
//! PULSE imports and by the global PM_TRIGGER / WRCACHE_FLUSH pulses.

/// Width of the edge count (`pcnt_pkg::PulseCntW`): up to 2^W - 1 edges may
/// be pending in one synchronizer.
pub const CNT_W: u32 = 3;
const MASK: u8 = (1 << CNT_W) - 1;

pub fn bin2gray(b: u8) -> u8 {
    let b = b & MASK;
    b ^ (b >> 1)
}

pub fn gray2bin(g: u8) -> u8 {
    let mut b = g;
    for i in 1..CNT_W {
        b ^= g >> i;
    }
    b & MASK
}

/// Source side: the Gray count after a tick with (`rise`) or without an edge.
pub fn count_edge(gray: u8, rise: bool) -> u8 {
    if rise {
        bin2gray(gray2bin(gray).wrapping_add(1))
    } else {
        gray
    }
}

/// Destination side of one synchronizer (`_q` flops).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PulseSync {
    pub p1: u8,
    pub p2: u8,
    pub seen: u8,
}

impl PulseSync {
    /// The pulse output of this cycle (from the flops only).
    pub fn pulse(&self) -> bool {
        gray2bin(self.p2) != self.seen
    }

    /// The flops after a destination tick that samples the source count `gray`.
    pub fn next(&self, gray: u8) -> PulseSync {
        PulseSync { p1: gray & MASK, p2: self.p1, seen: self.seen.wrapping_add(u8::from(self.pulse())) & MASK }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gray_round_trip_and_one_bit_steps() {
        for b in 0..=MASK {
            assert_eq!(gray2bin(bin2gray(b)), b);
            let next = bin2gray(b.wrapping_add(1) & MASK);
            assert_eq!((bin2gray(b) ^ next).count_ones(), 1, "step {b}");
        }
    }

    #[test]
    fn count_wraps_after_eight_edges() {
        let mut g = 0;
        for n in 1..=16u8 {
            g = count_edge(g, true);
            assert_eq!(gray2bin(g), n & MASK, "after {n} edges");
        }
    }

    #[test]
    fn three_edges_between_ticks_give_three_pulses() {
        let mut g = 0;
        for _ in 0..3 {
            g = count_edge(g, true);
        }
        let mut s = PulseSync::default();
        let mut pulses = Vec::new();
        for _ in 0..8 {
            pulses.push(s.pulse());
            s = s.next(g);
        }
        assert_eq!(pulses, [false, false, true, true, true, false, false, false]);
    }
}
