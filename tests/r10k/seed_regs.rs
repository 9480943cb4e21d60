//! The R10000/R12000 counters' registers written by hand from seed 002
//! (`002_402b4141d12f561e.clean.txt`, cited by line) and docs/semantics.md
//! R1..R3, independent of `src/r10k/regs.rs` and `rtl/r10k/r10k_reg_pkg.sv`:
//! those two are generated from one source (regmap/r10k.rdl), so a wrong
//! mask or offset there would reach both and pass a suite that takes its
//! expectations from them. This table stays hand-written for that reason.

use pcounter::r10k::Variant;

/// One register as the seed and the semantics describe it.
pub struct R10kSeedReg {
    pub name: &'static str,
    /// Offset of counter 0's register (R1: 4 * CP0 select).
    pub offset: u8,
    /// Address step to counter 1's register.
    pub stride: u8,
    /// Stored bits on the R10000 and on the R12000; every other bit reads 0.
    pub mask_r10000: u32,
    pub mask_r12000: u32,
    /// Value read right after reset.
    pub reset: u32,
    pub cite: &'static str,
}

impl R10kSeedReg {
    pub fn mask(&self, v: Variant) -> u32 {
        match v {
            Variant::R10000 => self.mask_r10000,
            Variant::R12000 => self.mask_r12000,
        }
    }
}

/// Counters (s002:25 "two performance counters", s002:31..32).
pub const COUNTERS: usize = 2;

/// Every register of the unit.
pub static R10K_REGS: &[R10kSeedReg] = &[
    R10kSeedReg {
        name: "PerfCtl",
        offset: 0x00,
        stride: 0x08,
        mask_r10000: 0x0000_01ff,
        mask_r12000: 0x0000_03ff,
        reset: 0,
        cite: "s002:56..58: 31:9 zero, Event 8:5, IE 4, U 3, S 2, K 1, EXL 0; R2: the R12000's 32 events \
               (s002:32..33) take Event 9:5; R3: other bits read 0; R11: reset 0; R1: selects 0 and 2",
    },
    R10kSeedReg {
        name: "PerfCnt",
        offset: 0x04,
        stride: 0x08,
        mask_r10000: 0xffff_ffff,
        mask_r12000: 0xffff_ffff,
        reset: 0,
        cite: "s002:38 \"Each counter is a 32-bit read / write register\"; R11: reset 0; R1: selects 1 and 3",
    },
];
