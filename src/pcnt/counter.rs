//! Counter arithmetic (docs/semantics.md S6, S24).
//!
//! NV30 on: 32-bit counters that saturate at 0xffffffff (S6). NV10, NV15,
//! NV20: CTR_CYCLES, CTR_CYCLES_ALT, CTR_EVENT, CTR_START are 40 bits; the low
//! 39 bits wrap and bit 39 is sticky (seed 003 "Counters": 0xffffffffff + 1 =
//! 0x8000000000), with an increment n > 1 by the same rule (S24).

/// Bit 39 of a 40-bit counter ("has ever reached 2^39").
pub const BIT39: u64 = 1 << 39;
const LOW39: u64 = BIT39 - 1;

/// `c + n` on a 40-bit counter: `low = c[38:0] + n` mod 2^39, bit 39 = c[39]
/// or the carry out of bit 38 (S24). Mirrors `pcnt_pkg::sticky_add40`.
pub fn sticky_add40(c: u64, n: u32) -> u64 {
    let sum = (c & LOW39).wrapping_add(u64::from(n));
    (c & BIT39) | (sum & BIT39) | (sum & LOW39)
}

/// A counter increment on a generation with (`wide`) or without 40-bit
/// counters. Mirrors `pcnt_pkg::ctr_add`.
pub fn ctr_add(c: u64, n: u32, wide: bool) -> u64 {
    if wide {
        sticky_add40(c, n)
    } else {
        u64::from((c as u32).saturating_add(n))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    // S24 examples; seed 003 "Counters" gives the 0xffffffffff row.
    #[test]
    fn sticky_bit39() {
        for (c, n, want) in [
            (0x00_ffff_ffff, 1, 0x01_0000_0000),
            (0x7f_ffff_ffff, 1, 0x80_0000_0000),
            (0xff_ffff_ffff, 1, 0x80_0000_0000),
            (0x80_0000_0005, 1, 0x80_0000_0006),
            (0xff_ffff_fffe, 15, 0x80_0000_000d),
            (0x12_3456_789a, 0, 0x12_3456_789a),
        ] {
            assert_eq!(sticky_add40(c, n), want, "{c:#x} + {n}");
        }
    }

    #[test]
    fn narrow_saturates() {
        assert_eq!(ctr_add(0xffff_fffe, 15, false), 0xffff_ffff);
        assert_eq!(ctr_add(0xffff_ffff, 1, true), 0x1_0000_0000);
    }
}
