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
    /// A discovery constant: reads `reset`, a write is ignored (P2).
    Const,
}
use PmonKind::*;

/// One register as the seed and the semantics describe it.
pub struct PmonSeedReg {
    pub name: &'static str,
    /// Offset from I_PMON_BAR of counter 0's register (or of the global,
    /// discovery or box register).
    pub offset: u16,
    /// Address step per counter; 0 for the others.
    pub stride: u16,
    pub kind: PmonKind,
    /// Stored bits (Storage) or state bits (W1c), default 4 counters.
    pub mask: u32,
    /// Bits that act on a write of 1 and are never stored (P7, P10).
    pub acts: u32,
    /// Value read right after reset (a constant's value, default build).
    pub reset: u32,
    pub cite: &'static str,
}

/// Counters of the default build (P2, P13).
pub const COUNTERS: usize = 4;

/// A discovery constant of the default build (UG 817760 5.4.1, 5.4.4).
const fn disc(name: &'static str, offset: u16, reset: u32, cite: &'static str) -> PmonSeedReg {
    PmonSeedReg { name, offset, stride: 0, kind: Const, mask: 0, acts: 0, reset, cite }
}

/// A register whose bits are all reserved (P3).
const fn rsvd(name: &'static str, offset: u16, cite: &'static str) -> PmonSeedReg {
    PmonSeedReg { name, offset, stride: 0, kind: Reserved, mask: 0, acts: 0, reset: 0, cite }
}

/// Every register of the default build, from I_PMON_BAR = 0 (P2).
pub static PMON_REGS: &[PmonSeedReg] = &[
    disc("GDIS_L", 0x000, 0x0001_2000, "P2, UG 817760 5.4.1: UnitType 0 [7:0], BlockStride 0x20 [15:8], MaxBlocks 1 [25:16]"),
    disc("GDIS_H", 0x004, 0x2000_0000, "P2, UG 817760 5.4.1: AccessType 3'b001 (MMIO) [31:29]"),
    disc("GCADR_L", 0x008, 0x18, "P2, UG 817760 5.4.1: GCAddress_L 32'h18"),
    disc("GCADR_H", 0x00c, 0, "P2, UG 817760 5.4.1: GCAddress_H 0"),
    disc("GSOFF_L", 0x010, 0x08, "P2, UG 817760 5.4.1: GblStatAdr_offset 8'h08 [7:0]"),
    rsvd("GSOFF_H", 0x014, "P2: no field in the pages read, reserved"),
    rsvd("GCTRL_L", 0x018, "P2, P9, UG 817760 5.4.2: reserved in every revision"),
    rsvd("GCTRL_H", 0x01c, "P2, UG 817760 5.4.2: reserved"),
    PmonSeedReg {
        name: "GSTS_L",
        offset: 0x020,
        stride: 0,
        kind: W1c,
        mask: 0x0000_0001,
        acts: 0,
        reset: 0,
        cite: "P2, P9 (UG 817760 5.4.3 UnitBlock_Ov, marked RV): bit 0 for the one unit, R-W1C; 31:1 reserved (P3)",
    },
    rsvd("GSTS_H", 0x024, "P2, UG 817760 5.4.3: reserved"),
    disc("UDIS_L", 0x100, 0x5030_1004, "P2, UG 817760 5.4.4: NumCntr = NumCounters 4, UnitCntrCtrlAdr_offset 0x10, CntrWidth 0x30, UnitCntrDataAdr_offset 0x50"),
    disc("UDIS_H", 0x104, 0x2000_0008, "P2, UG 817760 5.4.4: UnitStatAdr_offset 0x08 [7:0], AccessType 3'b001 [31:29]"),
    disc("UCADR_L", 0x108, 0x118, "P2, UG 817760 5.4.4: UCAddress_L 32'h118"),
    disc("UCADR_H", 0x10c, 0, "P2, UG 817760 5.4.4: UCAddress_H 0"),
    disc("UIDT_L", 0x110, 0, "P2, UG 817760 5.4.4: UnitType 0 [15:0]"),
    rsvd("UIDT_H", 0x114, "P2: no field in the pages read, reserved"),
    PmonSeedReg {
        name: "BOX_CTL",
        offset: 0x118,
        stride: 0,
        kind: Storage,
        mask: 0x0000_0001,
        acts: 0x0000_0300,
        reset: 0,
        cite: "P2 (UG 817760 5.4.5 PMON_UCTRL_L): Freeze bit 0 stored (P9); Rst_Ctrl 8, Rst_Cntr 9 act and read 0 (P10); 7:1, 31:10 reserved (P3); reset 0 (P1)",
    },
    PmonSeedReg {
        name: "BOX_CTL_HI",
        offset: 0x11c,
        stride: 0,
        kind: Reserved,
        mask: 0,
        acts: 0,
        reset: 0,
        cite: "P2 (UG 817760 5.4.5 PMON_UCTRL_H): all bits reserved (P3)",
    },
    PmonSeedReg {
        name: "BOX_STATUS",
        offset: 0x120,
        stride: 0,
        kind: W1c,
        mask: 0x0000_000f,
        acts: 0,
        reset: 0,
        cite: "P2 (UG 817760 5.4.6 PMON_USTS_L): Cntr_Ov bits NumCounters-1:0, R-W1C (P8); 31:NumCounters reserved (P3); reset 0 (P1)",
    },
    PmonSeedReg {
        name: "BOX_STATUS_HI",
        offset: 0x124,
        stride: 0,
        kind: Reserved,
        mask: 0,
        acts: 0,
        reset: 0,
        cite: "P2 (UG 817760 5.4.6 PMON_USTS_H): all bits reserved (P3)",
    },
    PmonSeedReg {
        name: "CTL0",
        offset: 0x128,
        stride: 8,
        kind: Storage,
        // Evnt_Sel 7:0, Umask 15:8, Edge 18, Frz_On_Ov 20, Invert 23, Thresh 31:24.
        mask: 0xff94_ffff,
        acts: 0x0002_0000,
        reset: 0,
        cite: "seed 001 first table (defaults 0); Cntr_Rst 17 acts and reads 0 (P7); Frz_On_Ov one bit (P4); RV 16, 19, 21, 22 (P3); address 0x128 + 8j (P2)",
    },
    PmonSeedReg {
        name: "CTL1",
        offset: 0x12c,
        stride: 8,
        kind: Storage,
        mask: 0x0000_0001,
        acts: 0,
        reset: 0,
        cite: "seed 001 second table: Max bit 0, RV 31:1 (P3); placed at +4 of the slot (P2)",
    },
    PmonSeedReg {
        name: "DATA_LO",
        offset: 0x168,
        stride: 8,
        kind: Storage,
        mask: 0xffff_ffff,
        acts: 0,
        reset: 0,
        cite: "P2 (UG 817760 5.4.8 I_PMON_UCDATA_L, RW-V): counter bits 31:0; reset 0 (P1)",
    },
    PmonSeedReg {
        name: "DATA_HI",
        offset: 0x16c,
        stride: 8,
        kind: Storage,
        mask: 0x0000_ffff,
        acts: 0,
        reset: 0,
        cite: "P2 (UG 817760 5.4.8 I_PMON_UCDATA_H): counter bits 47:32 in 15:0 (CntrWidth 48), 31:16 reserved (P3); reset 0 (P1)",
    },
];
