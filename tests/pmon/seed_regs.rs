//! The PMON box's register map written by hand from seed 001 and
//! docs/semantics.md P1..P14 (which cite UG 817760 for the registers the
//! seed does not give), independent of `src/pmon/regs.rs` and
//! `rtl/pmon/pmon_reg_pkg.sv`: those two are generated from one source
//! (regmap/pmon.rdl), so a wrong mask there would reach both and pass a
//! suite that takes its expectations from them.

/// How a register answers a write (P2, P3, P8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PmonKind {
    /// Stores the bits of `mask` and reads them back; `acts` bits act on a
    /// write and read 0.
    Storage,
    /// Holds the bits of `mask` as state; a write of 1 clears a bit (R-W1C).
    W1c,
    /// Present, every bit reserved: reads 0, a write is ignored (P3).
    Reserved,
}
use PmonKind::*;

/// One register as the seed and the semantics describe it.
pub struct PmonSeedReg {
    pub name: &'static str,
    /// Offset of counter 0's register (or of the box register).
    pub offset: u8,
    /// Address step per counter; 0 for a box register.
    pub stride: u8,
    pub kind: PmonKind,
    /// Stored bits (Storage) or state bits (W1c), default 4 counters.
    pub mask: u32,
    /// Bits that act on a write of 1 and are never stored (P7, P10).
    pub acts: u32,
    /// Value read right after reset.
    pub reset: u32,
    pub cite: &'static str,
}

/// Counters of the default build (P2, P13).
pub const COUNTERS: usize = 4;

/// Every register of the default box.
pub static PMON_REGS: &[PmonSeedReg] = &[
    PmonSeedReg {
        name: "BOX_CTL",
        offset: 0x00,
        stride: 0,
        kind: Storage,
        mask: 0x0000_0001,
        acts: 0x0000_0300,
        reset: 0,
        cite: "P2 (UG 817760 5.4.5 PMON_UCTRL_L): Freeze bit 0 stored (P9); Rst_Ctrl 8, Rst_Cntr 9 act and read 0 (P10); 7:1, 31:10 reserved (P3); reset 0 (P1)",
    },
    PmonSeedReg {
        name: "BOX_CTL_HI",
        offset: 0x04,
        stride: 0,
        kind: Reserved,
        mask: 0,
        acts: 0,
        reset: 0,
        cite: "P2 (UG 817760 5.4.5 PMON_UCTRL_H): all bits reserved (P3)",
    },
    PmonSeedReg {
        name: "BOX_STATUS",
        offset: 0x08,
        stride: 0,
        kind: W1c,
        mask: 0x0000_000f,
        acts: 0,
        reset: 0,
        cite: "P2 (UG 817760 5.4.6 PMON_USTS_L): Cntr_Ov bits NumCounters-1:0, R-W1C (P8); 31:NumCounters reserved (P3); reset 0 (P1)",
    },
    PmonSeedReg {
        name: "BOX_STATUS_HI",
        offset: 0x0c,
        stride: 0,
        kind: Reserved,
        mask: 0,
        acts: 0,
        reset: 0,
        cite: "P2 (UG 817760 5.4.6 PMON_USTS_H): all bits reserved (P3)",
    },
    PmonSeedReg {
        name: "CTL0",
        offset: 0x10,
        stride: 8,
        kind: Storage,
        // Evnt_Sel 7:0, Umask 15:8, Edge 18, Frz_On_Ov 20, Invert 23, Thresh 31:24.
        mask: 0xff94_ffff,
        acts: 0x0002_0000,
        reset: 0,
        cite: "seed 001 first table (defaults 0); Cntr_Rst 17 acts and reads 0 (P7); Frz_On_Ov one bit (P4); RV 16, 19, 21, 22 (P3); address 0x10 + 8j (P2)",
    },
    PmonSeedReg {
        name: "CTL1",
        offset: 0x14,
        stride: 8,
        kind: Storage,
        mask: 0x0000_0001,
        acts: 0,
        reset: 0,
        cite: "seed 001 second table: Max bit 0, RV 31:1 (P3); placed at +4 of the slot (P2)",
    },
    PmonSeedReg {
        name: "DATA_LO",
        offset: 0x50,
        stride: 8,
        kind: Storage,
        mask: 0xffff_ffff,
        acts: 0,
        reset: 0,
        cite: "P2 (UG 817760 5.4.8 I_PMON_UCDATA_L, RW-V): counter bits 31:0; reset 0 (P1)",
    },
    PmonSeedReg {
        name: "DATA_HI",
        offset: 0x54,
        stride: 8,
        kind: Storage,
        mask: 0x0000_ffff,
        acts: 0,
        reset: 0,
        cite: "P2 (UG 817760 5.4.8 I_PMON_UCDATA_H): counter bits 47:32 in 15:0 (CntrWidth 48), 31:16 reserved (P3); reset 0 (P1)",
    },
];
