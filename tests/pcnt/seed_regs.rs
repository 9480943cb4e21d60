//! The MMIO register map written by hand from seed 003, independent of
//! `regmap/pcounter.rdl` (which generates both the RTL's and the model's
//! masks, so a wrong mask there would pass a suite that takes its
//! expectations from it). Where the seed leaves a point open, the row cites
//! the docs/semantics.md decision instead.
//!
//! Two tables, one per MMIO layout (seed 003 "MMIO registers": "NV10" and
//! "NV40"), each with one column per generation of that layout in the order
//! of `Gen::ALL`: [`SEED_REGS`] NV40 (the seed's "all"), G84, G92, GT215;
//! [`SEED_REGS_NV10`] NV10, NV15, NV20, NV30. Seed sections are quoted by
//! their title in the seed text: "MMIO registers" (the address tables, their
//! "Variants" column giving presence), and per register the
//! `reg32 pcounter-...` block of its section.

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
    /// Domains the layout addresses it for (`dom < doms`); 1 for a global.
    pub doms: usize,
    pub kind: SeedKind,
    /// Present on each generation of the table's layout (module doc).
    pub present: [bool; 4],
    /// Bits stored as written, per generation (0 where absent).
    pub rw: [u32; 4],
    /// Read-only bits of a storage register that show state (CTRL), per
    /// generation.
    pub ro: [u32; 4],
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
            doms: if $stride == 0 { 1 } else { 8 },
            kind: $kind,
            present: $present,
            rw: $rw,
            ro: [0; 4],
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
        doms: 8,
        kind: Storage,
        present: ALL,
        rw: CTRL_RW,
        ro: [0x3300_0000; 4],
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

// The NV10 layout: columns NV10, NV15, NV20, NV30. "all" in the seed's NV10
// table is these four; "NV10:NV30" is the first three, "NV30:NV40" NV30.
const NV10_ALL: [bool; 4] = [true; 4];
const NV10_NV30: [bool; 4] = [true, true, true, false];
const NV30_ON: [bool; 4] = [false, false, false, true];
/// PRE_OP/START_OP/SETFLAG_OP/CLRFLAG_OP: the truth table 15:0 and the
/// argument delays 16/17; the delay-replace selects are "[G92-]".
const OP10: [u32; 4] = [0x3_ffff; 4];
/// EVENT_OP/STOP_OP: as OP10, plus bit 18 ARG3_SETFLAG "[NV30-]".
const OP10_FLAG: [u32; 4] = [0x3_ffff, 0x3_ffff, 0x3_ffff, 0x7_ffff];
/// `_HI` of a 40-bit value: bits 7:0 = bits 39:32, "[NV10:NV30]".
const HI8: [u32; 4] = [0xff, 0xff, 0xff, 0];
/// The shared CTRL ("pcounter-ctrl-nv10"): TVOUT_DEBUG_SEL 0,
/// TVOUT_DEBUG_ENABLE 1, CTR_MODE 2 (all); DOM0_EVENT_CTR_PERIOD 8
/// [NV15:NV40]; DOM1_EVENT_CTR_PERIOD 9 [NV20:NV40]; DOM0_MODE 16 and
/// DOM1_MODE 18 [NV30:NV40]. With both domains configured.
const CTRL10_RW: [u32; 4] = [0x0000_0007, 0x0000_0107, 0x0000_0307, 0x0005_0307];
/// Its read-only state: DOM0_SINGLE_STATE 4:3 (all), DOM1_SINGLE_STATE 6:5
/// [NV20:NV40], DOM0/DOM1_QUAD_STATE 25:24/27:26 [NV30:NV40].
const CTRL10_RO: [u32; 4] = [0x0000_0018, 0x0000_0018, 0x0000_0078, 0x0f00_0078];

macro_rules! reg10 {
    ($name:literal, $off:literal, $doms:literal, $kind:expr, $present:expr, $rw:expr, $cite:literal) => {
        SeedReg {
            name: $name,
            offset: $off,
            dom_stride: 0x100,
            doms: $doms,
            kind: $kind,
            present: $present,
            rw: $rw,
            ro: [0; 4],
            reset: ZERO,
            cite: $cite,
        }
    };
}

/// Every register of the seed's NV10 table ("MMIO registers", "NV10";
/// "nv10-pcounter" lines of each `reg32` block): per-domain registers at
/// 0x400 + dom*0x100 (dom < 2: domain 1 from NV20, seed "Introduction"),
/// the shared CTRL and QUAD_ACK_TRIGGER once. Every stored bit resets to 0
/// (S8; the seed gives no reset values). The register view names the two
/// shared registers SHARED_*, as it also holds the per-domain CTRL and
/// QUAD_ACK_TRIGGER of the NV40 layout (not addressable here).
pub static SEED_REGS_NV10: &[SeedReg] = &[
    reg10!("PRE_SRC", 0x400, 2, Storage, NV10_ALL, SRC, "seed \"MMIO registers\" NV10, pcounter-pre-src; S8"),
    reg10!("PRE_OP", 0x404, 2, Storage, NV10_ALL, OP10, "seed pcounter-pre-op (bits 18/19 [G92-]); S8"),
    reg10!("START_SRC", 0x408, 2, Storage, NV10_ALL, SRC, "seed pcounter-start-src; S8"),
    reg10!("START_OP", 0x40c, 2, Storage, NV10_ALL, OP10, "seed pcounter-start-op; S8"),
    reg10!("EVENT_SRC", 0x410, 2, Storage, NV10_ALL, SRC, "seed pcounter-event-src; S8"),
    reg10!("EVENT_OP", 0x414, 2, Storage, NV10_ALL, OP10_FLAG, "seed pcounter-event-op (bit 18 ARG3_SETFLAG [NV30-]); S8"),
    reg10!("STOP_SRC", 0x418, 2, Storage, NV10_ALL, SRC, "seed pcounter-stop-src; S8"),
    reg10!("STOP_OP", 0x41c, 2, Storage, NV10_ALL, OP10_FLAG, "seed pcounter-stop-op (as EVENT_OP); S8"),
    reg10!("SETFLAG_SRC", 0x420, 2, Storage, NV10_NV30, SRC, "seed pcounter-setflag-src [NV10:NV30]; S8"),
    reg10!("SETFLAG_OP", 0x424, 2, Storage, NV10_ALL, OP10, "seed pcounter-setflag-op; S8"),
    reg10!("CLRFLAG_SRC", 0x428, 2, Storage, NV10_NV30, SRC, "seed pcounter-clrflag-src [NV10:NV30]; S8"),
    reg10!("CLRFLAG_OP", 0x42c, 2, Storage, NV10_ALL, OP10, "seed pcounter-clrflag-op; S8"),
    // SIG_STATUS[dom][hi][lo] at 0x430 + dom*0x100 + hi*0x200 + lo*4, index
    // i = hi*4 + lo. Domain 1's hi = 1 half would be 0x730..0x73c, on top of
    // QUAD_ACK_TRIGGER and CTRL: not decoded (design N12), so doms 1.
    reg10!("SIG_STATUS[0]", 0x430, 2, ReadOnly, NV10_ALL, ZERO, "seed \"The STATUS registers\" (read-only, signals 0 after reset)"),
    reg10!("SIG_STATUS[1]", 0x434, 2, ReadOnly, NV10_ALL, ZERO, "seed \"The STATUS registers\""),
    reg10!("SIG_STATUS[2]", 0x438, 2, ReadOnly, NV10_ALL, ZERO, "seed \"The STATUS registers\""),
    reg10!("SIG_STATUS[3]", 0x43c, 2, ReadOnly, NV10_ALL, ZERO, "seed \"The STATUS registers\""),
    reg10!("SIG_STATUS[4]", 0x630, 1, ReadOnly, NV10_ALL, ZERO, "seed \"The STATUS registers\" hi = 1; domain 1: design N12"),
    reg10!("SIG_STATUS[5]", 0x634, 1, ReadOnly, NV10_ALL, ZERO, "seed \"The STATUS registers\" hi = 1; N12"),
    reg10!("SIG_STATUS[6]", 0x638, 1, ReadOnly, NV10_ALL, ZERO, "seed \"The STATUS registers\" hi = 1; N12"),
    reg10!("SIG_STATUS[7]", 0x63c, 1, ReadOnly, NV10_ALL, ZERO, "seed \"The STATUS registers\" hi = 1 (trailer 0 after reset); N12"),
    reg10!("CTR_CYCLES", 0x600, 2, ReadOnly, NV10_ALL, ZERO, "seed \"Counters\" pcounter-ctr-cycles \"Read-only\" (low 32 bits on NV10:NV30)"),
    reg10!("CTR_CYCLES_HI", 0x604, 2, ReadOnly, NV10_NV30, ZERO, "seed pcounter-ctr-cycles-hi [NV10:NV30] \"Read-only\", high 8 bits"),
    reg10!("CTR_CYCLES_ALT", 0x608, 2, ReadOnly, NV10_ALL, ZERO, "seed pcounter-ctr-cycles-alt \"Read-only\""),
    reg10!("CTR_CYCLES_ALT_HI", 0x60c, 2, ReadOnly, NV10_NV30, ZERO, "seed pcounter-ctr-cycles-alt-hi [NV10:NV30]"),
    reg10!("CTR_EVENT", 0x610, 2, ReadOnly, NV10_ALL, ZERO, "seed pcounter-ctr-event \"Read-only\""),
    reg10!("CTR_EVENT_HI", 0x614, 2, ReadOnly, NV10_NV30, ZERO, "seed pcounter-ctr-event-hi [NV10:NV30]"),
    reg10!("CTR_START", 0x618, 2, ReadOnly, NV10_ALL, ZERO, "seed pcounter-ctr-start \"Read-only\""),
    reg10!("CTR_START_HI", 0x61c, 2, ReadOnly, NV10_NV30, ZERO, "seed pcounter-ctr-start-hi [NV10:NV30]"),
    reg10!("CTR_PRE", 0x620, 2, Init, NV10_ALL, ZERO, "seed pcounter-ctr-pre (write sets the initial value, read the current; 32-bit)"),
    reg10!("CTR_STOP", 0x624, 2, Init, NV10_ALL, ZERO, "seed pcounter-ctr-stop (as CTR_PRE)"),
    reg10!("THRESHOLD", 0x628, 2, Storage, NV10_ALL, [0xffff_ffff; 4], "seed \"Single event mode\" pcounter-threshold (low 32 bits on NV10:NV30); S8"),
    reg10!("THRESHOLD_HI", 0x62c, 2, Storage, NV10_NV30, HI8, "seed pcounter-threshold-hi [NV10:NV30] \"The high 8 bits\"; S8"),
    SeedReg {
        name: "SHARED_QUAD_ACK_TRIGGER",
        offset: 0x738,
        dom_stride: 0,
        doms: 1,
        kind: WriteOnly,
        present: NV30_ON,
        rw: ZERO,
        ro: ZERO,
        reset: ZERO,
        cite: "seed \"Quad event mode\" pcounter-quad-ack-trigger-nv30 [NV30:NV40] (write-only; bit 0 DOM0, bit 8 DOM1, design D5); reads 0: S8",
    },
    SeedReg {
        name: "SHARED_CTRL",
        offset: 0x73c,
        dom_stride: 0,
        doms: 1,
        kind: Storage,
        present: NV10_ALL,
        rw: CTRL10_RW,
        ro: CTRL10_RO,
        reset: ZERO,
        cite: "seed \"Control registers\" pcounter-ctrl-nv10 (one CTRL shared by both domains); reset 0: S8",
    },
];
