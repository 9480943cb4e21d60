//! The MMIO register map written by hand from seed 003, independent of
//! `regmap/pcounter.rdl` (which generates both the RTL's and the model's
//! masks, so a wrong mask there would pass a suite that takes its
//! expectations from it). Where the seed leaves a point open, the row cites
//! the docs/semantics.md decision instead.
//!
//! Generations in the order of `Gen::ALL`: NV40 (the seed's "all"), G84, G92,
//! GT215. Seed sections are quoted by their title in the seed text: "MMIO
//! registers" (the NV40 address table, its "Variants" column giving
//! presence), and per register the `reg32 pcounter-...` block of its section.

/// How a register answers (seed wording, S8 for the read side).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SeedKind {
    /// Stores the bits of `rw` and reads them back.
    Storage,
    /// "write-only": acts on a write, reads 0 (S8).
    WriteOnly,
    /// "read-only" / status: a write stores nothing; the read shows state.
    ReadOnly,
    /// CTR_PRE / CTR_STOP: a write sets the hidden initial value, a read
    /// returns the current counter (seed "Counters").
    Init,
}
use SeedKind::*;

/// One register as the seed describes it.
pub struct SeedReg {
    pub name: &'static str,
    /// Offset of domain 0 (or of the global register) in the 0x1000 window.
    pub offset: u16,
    /// Address step per domain; 0 for a global register.
    pub dom_stride: u16,
    pub kind: SeedKind,
    /// Present on NV40, G84, G92, GT215.
    pub present: [bool; 4],
    /// Bits stored as written, per generation (0 where absent).
    pub rw: [u32; 4],
    /// Read-only bits of a storage register that show state (CTRL).
    pub ro: u32,
    /// Value read right after reset, per generation (signals all 0).
    pub reset: [u32; 4],
    /// Where the row comes from.
    pub cite: &'static str,
}

const ALL: [bool; 4] = [true; 4];
const G84_ON: [bool; 4] = [false, true, true, true];
const G92_ON: [bool; 4] = [false, false, true, true];
const GT215_ON: [bool; 4] = [false, false, false, true];
const ZERO: [u32; 4] = [0; 4];

/// A `*_SRC` register: "bits 0-7: signal 0 ... bits 24-31: signal 3".
const SRC: [u32; 4] = [0xffff_ffff; 4];
/// PRE_OP, START_OP, SETFLAG_OP, CLRFLAG_OP: bits 0-15 the truth table,
/// 16/17 the argument delays, 18/19 the delay-replace selects "[G92-]".
const OP: [u32; 4] = [0x3_ffff, 0x3_ffff, 0xf_ffff, 0xf_ffff];
/// EVENT_OP, STOP_OP: bits 0-17 as above, bit 18 "argument 3 = SETFLAG
/// [NV30-]" (so every generation here), bits 19/20 "[G92-]".
const OP_FLAG: [u32; 4] = [0x7_ffff, 0x7_ffff, 0x1f_ffff, 0x1f_ffff];
/// CTRL "pcounter-ctrl-nv40": MODE 1:0, CTR_MODE 6:4, EVENT_CTR_PERIOD 8,
/// EVENT_IMPORT_MODE 11, FLAG_IMPORT_MODE 13, bit 16 "???" (stored, S8);
/// G84: RECORD_FORMAT 20 and PERIODIC_PERIOD 23:21 "[G84:GF100]"; G92:
/// bit 30 "??? [G92:GF100]" (stored, S8). QUAD_STATE 25:24 and SINGLE_STATE
/// 29:28 are read-only state; FAULT_CLEAR 27 is write-only (reads 0, S8).
const CTRL_RW: [u32; 4] = [0x0001_2973, 0x00f1_2973, 0x40f1_2973, 0x40f1_2973];

macro_rules! reg {
    ($name:literal, $off:literal, $stride:literal, $kind:expr, $present:expr, $rw:expr, $reset:expr, $cite:literal) => {
        SeedReg {
            name: $name,
            offset: $off,
            dom_stride: $stride,
            kind: $kind,
            present: $present,
            rw: $rw,
            ro: 0,
            reset: $reset,
            cite: $cite,
        }
    };
}

/// Every register the seed's NV40 table lists for the generations built.
pub static SEED_REGS: &[SeedReg] = &[
    reg!("PRE_SRC", 0x400, 4, Storage, ALL, SRC, ZERO, "seed \"Input selection\" pcounter-pre-src; reset 0: S8"),
    reg!("PRE_OP", 0x420, 4, Storage, ALL, OP, ZERO, "seed \"Input selection\" pcounter-pre-op; S8"),
    reg!("START_SRC", 0x440, 4, Storage, ALL, SRC, ZERO, "seed pcounter-start-src (\"Like PRE_SRC\"); S8"),
    reg!("START_OP", 0x460, 4, Storage, ALL, OP, ZERO, "seed pcounter-start-op; S8"),
    reg!("EVENT_SRC", 0x480, 4, Storage, ALL, SRC, ZERO, "seed pcounter-event-src; S8"),
    reg!("EVENT_OP", 0x4a0, 4, Storage, ALL, OP_FLAG, ZERO, "seed pcounter-event-op (bits 18 NV30-, 19/20 G92-); S8"),
    reg!("STOP_SRC", 0x4c0, 4, Storage, ALL, SRC, ZERO, "seed pcounter-stop-src; S8"),
    reg!("STOP_OP", 0x4e0, 4, Storage, ALL, OP_FLAG, ZERO, "seed pcounter-stop-op (as EVENT_OP); S8"),
    reg!("SETFLAG_OP", 0x500, 4, Storage, ALL, OP, ZERO, "seed pcounter-setflag-op (bits 18/19 G92-); S8"),
    reg!("CLRFLAG_OP", 0x520, 4, Storage, ALL, OP, ZERO, "seed pcounter-clrflag-op (bits 18/19 G92-); S8"),
    reg!("SRC_STATUS", 0x540, 4, ReadOnly, ALL, ZERO, ZERO, "seed pcounter-src-status (current state of the selected signals: 0 after reset with every selection on signal 0, all signals 0); read-only: S8"),
    // The table's "all" for SPEC_SRC is overruled by its own prose ("on
    // G84:GF100 cards") and seed 004 ("[NV84-]"): S2. Its reset is not 0:
    // SWAP selects the PM_TRIGGER trailer signal, base 0xe0 + 0x0f (S2, S8).
    reg!("SPEC_SRC", 0x560, 4, Storage, G84_ON, [0, 0xffff, 0xffff, 0xffff], [0, 0xef, 0xef, 0xef], "seed \"Input selection\" pcounter-spec-src (SWAP 7:0, UNK8 15:8); presence and SWAP reset: S2, S8"),
    reg!("USER_TRIGGER", 0x580, 4, WriteOnly, GT215_ON, ZERO, ZERO, "seed \"The USER signals\" pcounter-user-trigger-tesla [GT215-], \"This register is write-only\"; reads 0: S8"),
    reg!("CTR_CYCLES", 0x600, 4, ReadOnly, ALL, ZERO, ZERO, "seed \"Counters\" pcounter-ctr-cycles \"Read-only\"; reset 0: S8"),
    reg!("CTR_CYCLES_ALT", 0x640, 4, ReadOnly, ALL, ZERO, ZERO, "seed pcounter-ctr-cycles-alt \"Read-only\"; S8"),
    reg!("CTR_EVENT", 0x680, 4, ReadOnly, ALL, ZERO, ZERO, "seed pcounter-ctr-event \"Read-only\"; S8"),
    reg!("CTR_START", 0x6c0, 4, ReadOnly, ALL, ZERO, ZERO, "seed pcounter-ctr-start \"Read-only\"; S8"),
    reg!("CTR_PRE", 0x700, 4, Init, ALL, ZERO, ZERO, "seed pcounter-ctr-pre (write sets the initial value, read the current); S8"),
    reg!("CTR_STOP", 0x740, 4, Init, ALL, ZERO, ZERO, "seed pcounter-ctr-stop (as CTR_PRE); S8"),
    reg!("THRESHOLD", 0x780, 4, Storage, ALL, [0xffff_ffff; 4], ZERO, "seed \"Single event mode\" pcounter-threshold (32 bits on NV30+); S8"),
    SeedReg {
        name: "CTRL",
        offset: 0x7c0,
        dom_stride: 4,
        kind: Storage,
        present: ALL,
        rw: CTRL_RW,
        ro: 0x3300_0000,
        reset: ZERO,
        cite: "seed \"Control registers\" pcounter-ctrl-nv40; bits 16 and 30 stored, FAULT_CLEAR reads 0, reset 0: S8",
    },
    reg!("QUAD_ACK_TRIGGER", 0x7e0, 4, WriteOnly, ALL, ZERO, ZERO, "seed \"Quad event mode\" pcounter-quad-ack-trigger-nv40 (\"write-only\"); reads 0: S8"),
    reg!("SIG_STATUS[0]", 0x800, 0x20, ReadOnly, ALL, ZERO, ZERO, "seed \"The STATUS registers\" (read-only; signals 0 after reset) and NV40 table 0x800+dom*0x20+i*0x4"),
    reg!("SIG_STATUS[1]", 0x804, 0x20, ReadOnly, ALL, ZERO, ZERO, "seed \"The STATUS registers\""),
    reg!("SIG_STATUS[2]", 0x808, 0x20, ReadOnly, ALL, ZERO, ZERO, "seed \"The STATUS registers\""),
    reg!("SIG_STATUS[3]", 0x80c, 0x20, ReadOnly, ALL, ZERO, ZERO, "seed \"The STATUS registers\""),
    reg!("SIG_STATUS[4]", 0x810, 0x20, ReadOnly, ALL, ZERO, ZERO, "seed \"The STATUS registers\""),
    reg!("SIG_STATUS[5]", 0x814, 0x20, ReadOnly, ALL, ZERO, ZERO, "seed \"The STATUS registers\""),
    reg!("SIG_STATUS[6]", 0x818, 0x20, ReadOnly, ALL, ZERO, ZERO, "seed \"The STATUS registers\""),
    reg!("SIG_STATUS[7]", 0x81c, 0x20, ReadOnly, ALL, ZERO, ZERO, "seed \"The STATUS registers\" (trailer signals all 0 after reset: S9)"),
    reg!("RECORD_ADDRESS_HIGH", 0x6a0, 4, Storage, G92_ON, [0, 0, 0xff, 0xff], ZERO, "seed \"Record mode setup\" pcounter-record-address-high [G92-] (high 8 bits); S8"),
    reg!("RECORD_STATUS", 0x6e0, 4, ReadOnly, G84_ON, ZERO, ZERO, "seed pcounter-record-status [G84-] \"This register is read-only\"; reset 0: S8"),
    reg!("RECORD_LIMIT", 0x720, 4, Storage, G84_ON, [0, 0xffff_fff0, 0xffff_fff0, 0xffff_fff0], ZERO, "seed pcounter-record-limit [G84-] \"Only bits 4-31 are valid\"; S8"),
    reg!("RECORD_START", 0x760, 4, Storage, G84_ON, [0, 0xffff_fff0, 0xffff_fff0, 0xffff_fff0], ZERO, "seed pcounter-record-start [G84-] \"Only bits 4-31 are valid\"; S8"),
    reg!("GCTRL", 0x7a8, 0, Storage, G84_ON, [0, 0x11, 0x11, 0x11], ZERO, "seed \"Control registers\" pcounter-gctrl-g84 (RECORD_RESET 0, PERIODIC_RESET 4); S8, S20"),
    reg!("RECORD_CHAN", 0x7a0, 0, Storage, G84_ON, [0, 0xbfff_ffff, 0xbfff_ffff, 0xbfff_ffff], ZERO, "seed pcounter-record-chan [G84-] (CHAN 29:0, VALID 31); S8"),
    reg!("RECORD_DMA", 0x7a4, 0, Storage, G84_ON, [0, 0xffff, 0xffff, 0xffff], ZERO, "seed pcounter-record-dma [G84-] (bits 0-15); S8"),
];
