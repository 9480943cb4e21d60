//! The GF100+ register layout written by hand from docs/design/gf100.md
//! section 1 (its tables 1.1, 1.2, 1.3, the CTRL and STATE field lists), each
//! row citing where it comes from: "003:L" is line L of seed 003, "ref" is
//! shared/ref/gf100-layout.md, "rnndb" envytools gf100_pcounter.xml as the
//! design digests it. Independent of `regmap/pcounter.rdl`, which generates
//! both `src/pcnt/gf100/regs.rs` and `rtl/pcnt/pcnt_gf_reg_pkg.sv`: a wrong
//! mask or offset there would reach both and pass a suite that takes its
//! expectations from them.
//!
//! Masks: `store` = bits a write stores and a read returns when no hardware
//! update intervenes (a shadow register's write sets the running shadow, G4;
//! CTR_PRE/CTR_STOP store a hidden initial value a read does not return, so
//! 0); `ro` = bits a read takes from hardware state.

use pcounter::pcnt::gf100::regs::{self, field, GfAccess, GfField, GfKind, GfReg, GfUnit};
use rstest::rstest;

/// The design's access column (1.2 "Access").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    /// rw stored (CTRL: with read-only state bits).
    Rw,
    /// ro hardware state: a write stores nothing.
    Ro,
    /// wo: acts on the write, reads 0.
    Wo,
    /// CTR_PRE/CTR_STOP: reads the counter, a write sets the initial value.
    Init,
    /// sh: reads the running quad shadow; a write sets it (G4).
    Sh,
    /// zero: present (no PSLVERR), reads 0, a write does nothing.
    Zero,
}
use Access::*;

fn access_of(k: GfKind) -> Access {
    match k {
        GfKind::Storage => Rw,
        GfKind::Status | GfKind::Counter => Ro,
        GfKind::Trigger => Wo,
        GfKind::Init => Init,
        GfKind::Shadow => Sh,
        GfKind::Zero => Zero,
    }
}

const ALL: u32 = 0xffff_ffff;

/// One row of the design's tables.
struct Row<'a> {
    off: u32,
    name: &'a str,
    acc: Access,
    store: u32,
    ro: u32,
    aborts: bool,
    cite: &'a str,
}

/// Check one row against the generated view entry at `off` in `table`
/// (through `index`, the generated offset decoder of that block).
fn check_row(table: &[GfReg], index: fn(u32) -> Option<usize>, row: &Row) -> usize {
    let Row { off, name, acc, store, ro, aborts, cite } = *row;
    let idx = index(off).unwrap_or_else(|| panic!("{name} @{off:#x} ({cite}): not decoded"));
    let r = &table[idx];
    assert_eq!(r.name, name, "@{off:#x} ({cite})");
    assert_eq!(r.offset, off, "{name} ({cite})");
    assert_eq!(access_of(r.kind), acc, "{name} access ({cite})");
    assert_eq!(r.store_mask, store, "{name} store mask ({cite})");
    assert_eq!(r.ro_mask, ro, "{name} read-only mask ({cite})");
    assert_eq!(r.aborts, aborts, "{name} aborts single event mode ({cite}; G5)");
    // Reset 0 for every stored bit (S8): nothing in the table to compare,
    // but a register must not both store and show state in the same bit.
    assert_eq!(r.store_mask & r.ro_mask, 0, "{name}: a bit both stored and read-only");
    idx
}

// ---------------------------------------------------------------- 1.2 one domain

/// Design 1.2, one row per 32-bit register. Every domain of every unit
/// decodes the same way: GPC 0 domain 0, GPC 31 domain 7, PART 15 domain 7,
/// HUB domain 7 (1.1) and a middle one.
#[rstest]
#[case::sig_status_0(0x00, "SIG_STATUS[0]", Ro, 0, ALL, false, "003:169, 003:203; rnndb STATUS length 8")]
#[case::sig_status_1(0x04, "SIG_STATUS[1]", Ro, 0, ALL, false, "003:169; rnndb")]
#[case::sig_status_2(0x08, "SIG_STATUS[2]", Ro, 0, ALL, false, "003:169; rnndb")]
#[case::sig_status_3(0x0c, "SIG_STATUS[3]", Ro, 0, ALL, false, "003:169; rnndb")]
#[case::sig_status_4(0x10, "SIG_STATUS[4]", Ro, 0, ALL, false, "003:169; rnndb")]
#[case::sig_status_5(0x14, "SIG_STATUS[5]", Ro, 0, ALL, false, "003:169; rnndb")]
#[case::sig_status_6(
    0x18,
    "SIG_STATUS[6]",
    Ro,
    0,
    ALL,
    false,
    "003:169; rnndb (USER_0..3 of a 0xe0-signal domain, G9)"
)]
#[case::sig_status_7(0x1c, "SIG_STATUS[7]", Ro, 0, ALL, false, "003:169; rnndb (signals 0xe0..0xff)")]
#[case::sig_status_8(0x20, "SIG_STATUS_HI[0]", Zero, 0, 0, false, "003:169 i<16; rnndb length 8: D1")]
#[case::sig_status_9(0x24, "SIG_STATUS_HI[1]", Zero, 0, 0, false, "003:169; D1")]
#[case::sig_status_10(0x28, "SIG_STATUS_HI[2]", Zero, 0, 0, false, "003:169; D1")]
#[case::sig_status_11(0x2c, "SIG_STATUS_HI[3]", Zero, 0, 0, false, "003:169; D1")]
#[case::sig_status_12(0x30, "SIG_STATUS_HI[4]", Zero, 0, 0, false, "003:169; D1")]
#[case::sig_status_13(0x34, "SIG_STATUS_HI[5]", Zero, 0, 0, false, "003:169; D1")]
#[case::sig_status_14(0x38, "SIG_STATUS_HI[6]", Zero, 0, 0, false, "003:169; D1")]
#[case::sig_status_15(
    0x3c,
    "SIG_STATUS_HI[7]",
    Zero,
    0,
    0,
    false,
    "003:169; D1 (signals >= 256 do not exist, 003:194)"
)]
#[case::pre_src(0x40, "PRE_SRC", Rw, ALL, 0, false, "003:352-359 (4 x 8-bit signal); rnndb")]
// Bit 18 is rnndb's UNUSED18 (not stored), 19 ARG2, 20 ARG3_SRC: D2.
#[case::pre_op(
    0x44,
    "PRE_OP",
    Rw,
    0x001b_ffff,
    0,
    false,
    "003:434-443, 003:517; rnndb PRE_OP: D2; no start, no swap: G3, G5"
)]
#[case::start_src(0x48, "START_SRC", Rw, ALL, 0, false, "003:366")]
#[case::start_op(0x4c, "START_OP", Rw, 0x001b_ffff, 0, false, "003:450-459; rnndb: D2")]
#[case::event_src(0x50, "EVENT_SRC", Rw, ALL, 0, false, "003:373")]
#[case::event_op(0x54, "EVENT_OP", Rw, 0x001f_ffff, 0, false, "003:463-475 (18 SETFLAG, 19, 20); rnndb")]
#[case::stop_src(0x58, "STOP_SRC", Rw, ALL, 0, false, "003:380")]
#[case::stop_op(0x5c, "STOP_OP", Rw, 0x001f_ffff, 0, false, "003:479-491; rnndb")]
#[case::setflag_op(0x60, "SETFLAG_OP", Rw, 0x001b_ffff, 0, false, "003:495-504; rnndb: D2")]
#[case::clrflag_op(0x64, "CLRFLAG_OP", Rw, 0x001b_ffff, 0, false, "003:508-513; rnndb: D2")]
#[case::src_status(
    0x68,
    "SRC_STATUS",
    Ro,
    0,
    0x00ff_ffff,
    false,
    "003:396-402 bits 0-15; rnndb SETFLAG 16-19, CLRFLAG 20-23; ref"
)]
#[case::swap_src(0x6c, "SWAP_SRC", Rw, 0xff, 0, false, "003:528-530 bits 0-7; ref")]
#[case::ctr_cycles(0x70, "CTR_CYCLES", Ro, 0, ALL, false, "rnndb; nouveau read +0x070")]
#[case::unk74(0x74, "UNK74", Rw, 0xffff_0000, 0, false, "rnndb comment 0/ffff0000/0; ref; G16")]
#[case::ctr_cycles_next_ro(0x78, "CTR_CYCLES_NEXT_RO", Sh, 0, ALL, false, "rnndb (?); ref: sh read only")]
#[case::unk7c(0x7c, "UNK7C", Rw, ALL, 0, false, "rnndb; ref; G16")]
#[case::ctr_event(0x80, "CTR_EVENT", Ro, 0, ALL, false, "rnndb; nouveau slot 2")]
#[case::unk84(0x84, "UNK84", Rw, ALL, 0, false, "rnndb; ref; G16")]
#[case::ctr_start(0x88, "CTR_START", Ro, 0, ALL, false, "rnndb; nouveau slot 1")]
#[case::ctr_pre(0x8c, "CTR_PRE", Init, 0, ALL, false, "rnndb; 003:605-613")]
#[case::ctr_stop(0x90, "CTR_STOP", Init, 0, ALL, false, "rnndb; 003:611-613")]
#[case::single_abort_trigger(
    0x94,
    "SINGLE_ABORT_TRIGGER",
    Wo,
    0,
    0,
    true,
    "rnndb; ref; G5 (the only aborting register)"
)]
#[case::threshold(0x98, "THRESHOLD", Rw, ALL, 0, false, "rnndb; 003:846")]
// Stored: 0-16, 18-23, 26-27, 31; read-only QUAD_STATE 25:24, SINGLE_STATE
// 29:28; 17 and 30 named by no source.
#[case::ctrl(0x9c, "CTRL", Rw, 0x8cfd_ffff, 0x3300_0000, false, "rnndb CTRL; ref \"CTRL (0x9c) on GF100\"; D3")]
#[case::quad_ack_trigger(0xa0, "QUAD_ACK_TRIGGER", Wo, 0, 0, false, "003:180, 003:879-881")]
#[case::ctr_event_next(0xa4, "CTR_EVENT_NEXT", Sh, ALL, 0, false, "rnndb; ref (readable and writable); G4")]
#[case::ctr_pre_next(0xa8, "CTR_PRE_NEXT", Sh, ALL, 0, false, "rnndb; ref; G4")]
#[case::ctr_start_next(0xac, "CTR_START_NEXT", Sh, ALL, 0, false, "rnndb; ref; G4")]
#[case::ctr_stop_next(0xb0, "CTR_STOP_NEXT", Sh, ALL, 0, false, "rnndb; ref; G4")]
#[case::unk0b4(0xb4, "UNK0B4", Zero, 0, 0, false, "rnndb only: D4, G16")]
#[case::unk0b8(0xb8, "UNK0B8", Zero, 0, 0, false, "rnndb only: D4, G16")]
#[case::ctr_cycles_next(0xbc, "CTR_CYCLES_NEXT", Sh, ALL, 0, false, "rnndb; ref; G4")]
#[case::ctr_cycles_next_high(0xc0, "CTR_CYCLES_NEXT_HIGH", Zero, 0, 0, false, "rnndb; ref; G4 (32-bit shadows)")]
#[case::ctr_record_stop_next(0xc4, "CTR_RECORD_STOP_NEXT", Zero, 0, 0, false, "rnndb; ref; G15")]
#[case::vstatus(0xc8, "VSTATUS", Zero, 0, 0, false, "rnndb; ref; G16")]
#[case::unk0cc_0(0xcc, "UNK0CC[0]", Zero, 0, 0, false, "rnndb only: D4")]
#[case::unk0cc_1(0xd0, "UNK0CC[1]", Zero, 0, 0, false, "rnndb only: D4")]
#[case::unk0d4(0xd4, "UNK0D4", Zero, 0, 0, false, "rnndb only: D4")]
#[case::unk0d8_0(0xd8, "UNK0D8[0]", Zero, 0, 0, false, "rnndb only: D4")]
#[case::unk0d8_1(0xdc, "UNK0D8[1]", Zero, 0, 0, false, "rnndb only: D4")]
#[case::single_begin_trigger(0xe0, "SINGLE_BEGIN_TRIGGER", Wo, 0, 0, false, "rnndb; ref; G5 (starts, does not abort)")]
// 1:0, 3:2, 4..7, 11:8, 12, 19:16, 20..27, 30, 31.
#[case::state(0xe4, "STATE", Ro, 0, 0xcfff_1fff, false, "rnndb STATE; ref; G6")]
#[case::unk0e8(0xe8, "UNK0E8", Zero, 0, 0, false, "rnndb access=r; ref; G16")]
#[case::user_trigger(
    0xec,
    "USER_TRIGGER",
    Rw,
    0xff,
    0,
    false,
    "003:311-318 (4 values + 4 pulse modes, read/write); G7"
)]
#[case::filter(0x100, "FILTER", Rw, ALL, 0, false, "rnndb (0-30 SRC_MASK, 31 ENABLE); ref; G8")]
fn gf100_dom_reg(
    #[case] off: u32,
    #[case] name: &str,
    #[case] acc: Access,
    #[case] store: u32,
    #[case] ro: u32,
    #[case] aborts: bool,
    #[case] cite: &str,
) {
    let idx = check_row(&regs::GF_DOM_REGS, regs::dom_index, &Row { off, name, acc, store, ro, aborts, cite });
    // 1.1: GPC_DOM[g][d] at 0x00000 + g*0x1000 + d*0x200, PART_DOM at
    // 0x20000 + p*0x1000 + d*0x200, HUB_DOM[d] at 0x30000 + d*0x200.
    for (unit, base, u, d) in [
        (GfUnit::GpcDom, 0x00000, 0, 0),
        (GfUnit::GpcDom, 0x00000, 31, 7),
        (GfUnit::GpcDom, 0x00000, 5, 3),
        (GfUnit::PartDom, 0x20000, 0, 0),
        (GfUnit::PartDom, 0x20000, 15, 7),
        (GfUnit::HubDom, 0x30000, 0, 7),
    ] {
        let paddr = base + u * 0x1000 + d * 0x200 + off;
        let got = regs::decode(paddr).unwrap_or_else(|| panic!("{name} @{paddr:#x}: not decoded"));
        assert_eq!(
            (got.unit, got.unit_idx, got.dom, got.idx),
            (unit, u as usize, d as usize, idx),
            "{name} @{paddr:#x}"
        );
        // Bits 1:0 are ignored (S0).
        assert_eq!(regs::decode(paddr | 3), Some(got), "{name} @{paddr:#x} | 3");
    }
}

/// 1.2 "others: hole": 0xf0..0xfc and 0x104..0x1fc; every other word of the
/// block is one of the 61 registers above.
#[test]
fn gf100_dom_holes() {
    let hole = |off: u32| (0xf0..=0xfc).contains(&off) || (0x104..=0x1fc).contains(&off);
    let mut present = 0;
    for off in (0..0x200).step_by(4) {
        assert_eq!(regs::dom_index(off).is_none(), hole(off), "domain block offset {off:#x}");
        assert_eq!(regs::decode(0x1f000 + 0xe00 + off).is_none(), hole(off), "GPC 31 dom 7 + {off:#x}");
        present += usize::from(!hole(off));
    }
    // 16 SIG_STATUS words, 0x40..0xec every word, FILTER.
    assert_eq!(present, 16 + 44 + 1);
    assert_eq!(regs::GF_NUM_DOM_REGS, present);
}

// ---------------------------------------------------------------- 1.3 sets, MAIN

/// Design 1.3, a domain set's registers, at GPC_DSET 0 and 31, PART_DSET 15
/// and HUB_DSET (1.1: 0x38000 + g*0x200, 0x3c000 + p*0x200, 0x3e000).
#[rstest]
#[case::ctrl(
    0x00,
    "CTRL",
    Rw,
    0xa000_0031,
    0,
    false,
    "ref (0 RECORD_RESET, 4 PERIODIC_RESET, 5 UNK5, 29 UNK29, 31 UNK31); rnndb; G12"
)]
#[case::vstatus_0(0x10, "VSTATUS_0", Zero, 0, 0, false, "rnndb; ref: D4, G16")]
#[case::vstatus_1(0x14, "VSTATUS_1", Zero, 0, 0, false, "rnndb; ref (3 bits per domain): G16")]
fn gf100_set_reg(
    #[case] off: u32,
    #[case] name: &str,
    #[case] acc: Access,
    #[case] store: u32,
    #[case] ro: u32,
    #[case] aborts: bool,
    #[case] cite: &str,
) {
    let idx = check_row(&regs::GF_SET_REGS, regs::set_index, &Row { off, name, acc, store, ro, aborts, cite });
    for (unit, base, u) in [
        (GfUnit::GpcDset, 0x38000, 0),
        (GfUnit::GpcDset, 0x38000, 31),
        (GfUnit::PartDset, 0x3c000, 0),
        (GfUnit::PartDset, 0x3c000, 15),
        (GfUnit::HubDset, 0x3e000, 0),
    ] {
        let paddr = base + u * 0x200 + off;
        let got = regs::decode(paddr).unwrap_or_else(|| panic!("{name} @{paddr:#x}: not decoded"));
        assert_eq!((got.unit, got.unit_idx, got.dom, got.idx), (unit, u as usize, 0, idx), "{name} @{paddr:#x}");
    }
}

#[rstest]
#[case::record_chan(0x70, "RECORD_CHAN", Rw, 0xbfff_ffff, 0, false, "ref (0-29 CHAN, 31 VALID); rnndb; G15")]
#[case::record_start(0x74, "RECORD_START", Rw, 0xffff_fff0, 0, false, "ref; rnndb; bits 4-31 as 003:939; G15")]
#[case::record_address_high(0x78, "RECORD_ADDRESS_HIGH", Rw, 0xff, 0, false, "ref; rnndb; 8 bits as 003:963")]
#[case::record_limit(0x7c, "RECORD_LIMIT", Rw, 0xffff_fff0, 0, false, "ref; rnndb; bits 4-31 as G84")]
#[case::record_pos(0x80, "RECORD_POS", Ro, 0, 0xffff_fff0, false, "ref; rnndb; G15 (RECORD_START's bits 31:4)")]
#[case::record_count(0x84, "RECORD_COUNT", Zero, 0, 0, false, "ref; rnndb; G15")]
#[case::vstatus(0xa4, "VSTATUS", Zero, 0, 0, false, "ref; rnndb; G16")]
fn gf100_main_reg(
    #[case] off: u32,
    #[case] name: &str,
    #[case] acc: Access,
    #[case] store: u32,
    #[case] ro: u32,
    #[case] aborts: bool,
    #[case] cite: &str,
) {
    let idx = check_row(&regs::GF_MAIN_REGS, regs::main_index, &Row { off, name, acc, store, ro, aborts, cite });
    let got = regs::decode(0x34000 + off).unwrap_or_else(|| panic!("MAIN {name}: not decoded"));
    assert_eq!((got.unit, got.unit_idx, got.dom, got.idx), (GfUnit::Main, 0, 0, idx), "MAIN {name}");
}

/// Every word of a set block and of MAIN's 0x4000 bytes that 1.3 does not
/// list is a hole, including the GK104 SLCG registers (DSET + 0x18, MAIN +
/// 0x124; G0).
#[test]
fn gf100_set_and_main_holes() {
    for off in (0..0x200).step_by(4) {
        let listed = [0x00, 0x10, 0x14].contains(&off);
        assert_eq!(regs::set_index(off).is_some(), listed, "set block {off:#x}");
        assert_eq!(regs::decode(0x3e000 + off).is_some(), listed, "HUB_DSET + {off:#x}");
    }
    for off in (0..0x4000).step_by(4) {
        let listed = [0x70, 0x74, 0x78, 0x7c, 0x80, 0x84, 0xa4].contains(&off);
        assert_eq!(regs::decode(0x34000 + off).is_some(), listed, "MAIN + {off:#x}");
    }
    assert_eq!((regs::GF_NUM_SET_REGS, regs::GF_NUM_MAIN_REGS), (3, 7));
}

// ---------------------------------------------------------------- 1.1 decode

type Want = Option<(GfUnit, usize, usize, &'static str)>;

/// PADDR = MMIO address - 0x180000 (1.1); what it names, or None.
#[rstest]
#[case::gpc0_sig_status(0x00000, Some((GfUnit::GpcDom, 0, 0, "SIG_STATUS[0]")), "003:169; 1.1")]
#[case::gpc0_dom1_ctrl(0x0029c, Some((GfUnit::GpcDom, 0, 1, "CTRL")), "domain stride 0x200: ref; nouveau (gpc, 0x180000, 0x1000, 0x200)")]
#[case::gpc1_dom0_ctrl(0x0109c, Some((GfUnit::GpcDom, 1, 0, "CTRL")), "unit stride 0x1000: ref")]
#[case::gpc2_absent_in_fermi(0x02000, Some((GfUnit::GpcDom, 2, 0, "SIG_STATUS[0]")), "presence is the top's check: 3.8 gf100_decode.pcs 0x182000")]
#[case::gpc0_dom1_absent_in_fermi(0x00200, Some((GfUnit::GpcDom, 0, 1, "SIG_STATUS[0]")), "3.8 gf100_decode.pcs 0x180200")]
#[case::gpc31_dom7_filter(0x1ff00, Some((GfUnit::GpcDom, 31, 7, "FILTER")), "GPC_DOM length 32 x 8: rnndb; ref")]
#[case::gpc31_dom7_last_hole(0x1fffc, None, "1.2 hole 0x104..0x1fc")]
#[case::gpc_zero_sig_status_hi(0x00020, Some((GfUnit::GpcDom, 0, 0, "SIG_STATUS_HI[0]")), "D1; 3.8 zero register 0x180020")]
#[case::gpc_zero_cycles_next_high(0x000c0, Some((GfUnit::GpcDom, 0, 0, "CTR_CYCLES_NEXT_HIGH")), "3.8 zero register 0x1800c0")]
#[case::gpc_zero_unk0e8(0x000e8, Some((GfUnit::GpcDom, 0, 0, "UNK0E8")), "3.8 zero register 0x1800e8")]
#[case::gpc_hole_f0(0x000f0, None, "1.2 hole 0xf0..0xfc")]
#[case::gpc_hole_104(0x00104, None, "1.2 hole; 3.8 gf100_decode.pcs 0x180104")]
#[case::part0_ctrl(0x2009c, Some((GfUnit::PartDom, 0, 0, "CTRL")), "PART_DOM 0x20000: ref; nouveau 0x1a0000")]
#[case::part15_dom7_user(0x2feec, Some((GfUnit::PartDom, 15, 7, "USER_TRIGGER")), "PART_DOM length 16 x 8: rnndb")]
#[case::hub_dom0(0x30000, Some((GfUnit::HubDom, 0, 0, "SIG_STATUS[0]")), "HUB_DOM 0x30000: ref; nouveau 0x1b0000")]
#[case::hub_dom7_swap_src(0x30e6c, Some((GfUnit::HubDom, 0, 7, "SWAP_SRC")), "HUB_DOM length 8: rnndb")]
#[case::after_hub_dom7(0x31000, None, "no HUB_DOM[8]: 1.1")]
#[case::below_main(0x33ffc, None, "1.1: nothing between HUB_DOM and MAIN")]
#[case::main_base_hole(0x34000, None, "MAIN + 0: not in 1.3")]
#[case::main_record_chan(0x34070, Some((GfUnit::Main, 0, 0, "RECORD_CHAN")), "MAIN 0x34000 + 0x70: ref; rnndb")]
#[case::main_record_pos(0x34080, Some((GfUnit::Main, 0, 0, "RECORD_POS")), "ref; rnndb")]
#[case::main_vstatus(0x340a4, Some((GfUnit::Main, 0, 0, "VSTATUS")), "ref; rnndb")]
#[case::main_slcg_gk104(0x34124, None, "rnndb SLCG variants GK104-: 1.3, G0")]
#[case::gpc_dset0_ctrl(0x38000, Some((GfUnit::GpcDset, 0, 0, "CTRL")), "GPC_DSET 0x38000: ref; rnndb")]
#[case::gpc_dset1_ctrl(0x38200, Some((GfUnit::GpcDset, 1, 0, "CTRL")), "GPC_DSET stride 0x200: rnndb")]
#[case::gpc_dset31_vstatus_1(0x3be14, Some((GfUnit::GpcDset, 31, 0, "VSTATUS_1")), "GPC_DSET length 32: rnndb")]
#[case::gpc_dset_slcg_gk104(0x38018, None, "rnndb SLCG GK104-: G0")]
#[case::gpc_dset_hole(0x38004, None, "1.3 lists +0x00, +0x10, +0x14")]
#[case::part_dset0_ctrl(0x3c000, Some((GfUnit::PartDset, 0, 0, "CTRL")), "PART_DSET 0x3c000: ref; rnndb")]
#[case::part_dset15_vstatus_0(0x3de10, Some((GfUnit::PartDset, 15, 0, "VSTATUS_0")), "PART_DSET length 16: rnndb")]
#[case::hub_dset_ctrl(0x3e000, Some((GfUnit::HubDset, 0, 0, "CTRL")), "HUB_DSET 0x3e000: ref; rnndb")]
#[case::hub_dset_ctrl_byte3(0x3e003, Some((GfUnit::HubDset, 0, 0, "CTRL")), "PADDR[1:0] ignored: S0")]
#[case::after_hub_dset(0x3e200, None, "HUB_DSET length 1: rnndb")]
#[case::window_end(0x3fffc, None, "1.1")]
#[case::outside_window(0x40000, None, "window 0x180000..0x1bffff: 003:57")]
fn gf100_decode(#[case] paddr: u32, #[case] want: Want, #[case] cite: &str) {
    let got = regs::decode(paddr).map(|d| (d.unit, d.unit_idx, d.dom, d.unit.regs()[d.idx].name));
    assert_eq!(got, want, "PADDR {paddr:#x} (MMIO {:#x}; {cite})", 0x180000 + paddr);
    if let Some((unit, u, d, _)) = want {
        let idx = regs::decode(paddr).map(|x| x.idx).unwrap_or_default();
        assert_eq!(unit.paddr(u, d, idx), Some(paddr & !3), "the inverse of decode");
    }
}

// ---------------------------------------------------------------- fields

/// Field positions the RTL and model code against (1.2 CTRL, STATE,
/// USER_TRIGGER, FILTER, SWAP_SRC, OP bits; 1.3 DSET CTRL, MAIN).
#[rstest]
#[case::ctrl_mode(field::CTRL_MODE, 0, 3, GfAccess::Rw, "rnndb MODE 0-2; ref; G1")]
#[case::ctrl_ctr_mode(field::CTRL_CTR_MODE, 3, 3, GfAccess::Rw, "rnndb CTR_MODE 3-5; ref")]
#[case::ctrl_event_ctr_period(field::CTRL_EVENT_CTR_PERIOD, 6, 1, GfAccess::Rw, "rnndb; ref")]
#[case::ctrl_event_import_mode(field::CTRL_EVENT_IMPORT_MODE, 7, 1, GfAccess::Rw, "rnndb; ref")]
#[case::ctrl_flag_import_mode(field::CTRL_FLAG_IMPORT_MODE, 8, 1, GfAccess::Rw, "rnndb; ref")]
#[case::ctrl_unk9(field::CTRL_UNK9, 9, 8, GfAccess::Rw, "rnndb UNK9 9-16; ref")]
#[case::ctrl_unk18(field::CTRL_UNK18, 18, 3, GfAccess::Rw, "rnndb UNK18 18-20; ref")]
#[case::ctrl_periodic_period(field::CTRL_PERIODIC_PERIOD, 21, 3, GfAccess::Rw, "rnndb; ref; S18")]
#[case::ctrl_quad_state(field::CTRL_QUAD_STATE, 24, 2, GfAccess::Ro, "rnndb; ref; S17")]
#[case::ctrl_unk26(field::CTRL_UNK26, 26, 2, GfAccess::Rw, "rnndb; ref")]
#[case::ctrl_single_state(field::CTRL_SINGLE_STATE, 28, 2, GfAccess::Ro, "rnndb; ref; S12")]
#[case::ctrl_unk31(field::CTRL_UNK31, 31, 1, GfAccess::Rw, "rnndb; ref")]
#[case::state_single_state(field::STATE_SINGLE_STATE, 0, 2, GfAccess::Ro, "rnndb STATE; ref")]
#[case::state_quad_state(field::STATE_QUAD_STATE, 2, 2, GfAccess::Ro, "rnndb; ref")]
#[case::state_flag_next(field::STATE_FLAG_NEXT, 4, 1, GfAccess::Ro, "rnndb; ref")]
#[case::state_flag_cur(field::STATE_FLAG_CUR, 5, 1, GfAccess::Ro, "rnndb; ref")]
#[case::state_event_toggle(field::STATE_EVENT_TOGGLE, 7, 1, GfAccess::Ro, "rnndb; ref")]
#[case::state_event_src(field::STATE_EVENT_SRC, 8, 4, GfAccess::Ro, "rnndb; ref")]
#[case::state_swap(field::STATE_SWAP, 12, 1, GfAccess::Ro, "rnndb; ref")]
#[case::state_stop_src(field::STATE_STOP_SRC, 16, 4, GfAccess::Ro, "rnndb; ref")]
#[case::state_pre_src2(field::STATE_PRE_SRC2, 20, 1, GfAccess::Ro, "rnndb")]
#[case::state_start_src3(field::STATE_START_SRC3, 23, 1, GfAccess::Ro, "rnndb")]
#[case::state_event(field::STATE_EVENT, 24, 1, GfAccess::Ro, "rnndb; ref")]
#[case::state_pre(field::STATE_PRE, 25, 1, GfAccess::Ro, "rnndb; ref")]
#[case::state_start(field::STATE_START, 26, 1, GfAccess::Ro, "rnndb; ref")]
#[case::state_stop(field::STATE_STOP, 27, 1, GfAccess::Ro, "rnndb; ref")]
#[case::user_trigger_val(field::USER_TRIGGER_VAL, 0, 4, GfAccess::Rw, "003:315 bits 0-3")]
#[case::user_trigger_pulse(field::USER_TRIGGER_PULSE, 4, 4, GfAccess::Rw, "003:316 bits 4-7")]
#[case::filter_src_mask(field::FILTER_SRC_MASK, 0, 31, GfAccess::Rw, "rnndb 0-30; ref")]
#[case::filter_enable(field::FILTER_ENABLE, 31, 1, GfAccess::Rw, "rnndb 31; ref")]
#[case::swap_src(field::SWAP_SRC_SWAP, 0, 8, GfAccess::Rw, "003:530 bits 0-7")]
#[case::pre_op_logic(field::PRE_OP_LOGIC_OP, 0, 16, GfAccess::Rw, "003:435")]
#[case::pre_op_delay1(field::PRE_OP_DELAY1, 17, 1, GfAccess::Rw, "003:437")]
#[case::pre_op_arg2(field::PRE_OP_ARG2_SRC0_DELAYED, 19, 1, GfAccess::Rw, "rnndb ARG2 19: D2")]
#[case::pre_op_arg3(field::PRE_OP_ARG3_SRC1_DELAYED, 20, 1, GfAccess::Rw, "rnndb ARG3_SRC 20: D2")]
#[case::clrflag_op_arg2(field::CLRFLAG_OP_ARG2_SRC0_DELAYED, 19, 1, GfAccess::Rw, "rnndb: D2")]
#[case::event_op_setflag(field::EVENT_OP_ARG3_SETFLAG, 18, 1, GfAccess::Rw, "003:467; rnndb")]
#[case::stop_op_arg3(field::STOP_OP_ARG3_SRC1_DELAYED, 20, 1, GfAccess::Rw, "003:489; rnndb")]
#[case::src_status_clrflag(field::SRC_STATUS_CLRFLAG, 20, 4, GfAccess::Ro, "rnndb; ref")]
#[case::set_ctrl_record_reset(field::SET_CTRL_RECORD_RESET, 0, 1, GfAccess::Rw, "ref; rnndb")]
#[case::set_ctrl_periodic_reset(field::SET_CTRL_PERIODIC_RESET, 4, 1, GfAccess::Rw, "ref; rnndb; G12")]
#[case::set_ctrl_unk5(field::SET_CTRL_UNK5, 5, 1, GfAccess::Rw, "ref; rnndb")]
#[case::set_ctrl_unk29(field::SET_CTRL_UNK29, 29, 1, GfAccess::Rw, "ref; rnndb")]
#[case::set_ctrl_unk31(field::SET_CTRL_UNK31, 31, 1, GfAccess::Rw, "ref; rnndb")]
#[case::main_record_chan(field::MAIN_RECORD_CHAN_CHAN, 0, 30, GfAccess::Rw, "ref bits 0-29")]
#[case::main_record_valid(field::MAIN_RECORD_CHAN_VALID, 31, 1, GfAccess::Rw, "ref bit 31")]
#[case::main_record_start(field::MAIN_RECORD_START_START, 4, 28, GfAccess::Rw, "003:939 bits 4-31")]
#[case::main_record_pos(field::MAIN_RECORD_POS_POSITION, 4, 28, GfAccess::Ro, "G15")]
fn gf100_field(#[case] f: GfField, #[case] lsb: u32, #[case] width: u32, #[case] access: GfAccess, #[case] cite: &str) {
    assert_eq!((f.lsb, f.width, f.access), (lsb, width, access), "{} ({cite})", f.name);
}
