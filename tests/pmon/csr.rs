//! PMON's CSR target (tests/csr.rs runs the shared suite on it: reset
//! values P1, rw, bit_bash, aliasing with the action bits' resets P7, P10)
//! and its own CSR tests, with the expectations from a hand-written table
//! of seed 001 and docs/semantics.md P1..P14 (`seed_regs.rs`), not from
//! `src/pmon/regs.rs`:
//!
//! - table_matches_register_map: the table and `pcounter::pmon::regs` agree
//!   on every register's offset, kind and masks, and on which offsets decode;
//! - side effects while counting: Cntr_Rst, Rst_Cntr, Rst_Ctrl, overflow
//!   into BOX_STATUS and its write-1-to-clear, Frz_On_Ov setting the global
//!   status and the box's Freeze, with exact values;
//! - decode holes: unmapped offsets and partial strobes answer PSLVERR and
//!   change nothing; PADDR bits 1:0 are ignored (P1, P2).
//!
//! Every access runs through the PMON lockstep, so the RTL is compared with
//! the model on every cycle. The event lanes stay 0, but with a threshold
//! and Invert a counter counts every cycle (P6: `0 < Thresh`) and Max
//! replaces 0 by 1, so the target holds the global freeze input `freeze_i`,
//! which stops counting and not writes (P9, P11).

use pcounter::pmon::regs::{self, box_ctl, ctl0, ctl1, gsts_l, Target};
use pcounter::pmon::PmonConfig;
use pcounter::common::bus::BusResult;
use pcounter_sim::pmon::cmd::Cmd;
use pcounter_sim::pmon::lockstep::{PmonLockstep, X_SEED};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[path = "seed_regs.rs"]
mod seed_regs;
use seed_regs::{PmonKind, PmonSeedReg, COUNTERS, PMON_REGS};

/// A register of the default box: name, offset, row, counter.
struct Reg {
    name: String,
    off: u16,
    row: &'static PmonSeedReg,
    ctr: Option<usize>,
}

fn registers() -> Vec<Reg> {
    let mut v = Vec::new();
    for row in PMON_REGS {
        if row.stride == 0 {
            v.push(Reg { name: row.name.into(), off: row.offset, row, ctr: None });
        } else {
            for j in 0..COUNTERS {
                let off = row.offset + row.stride * j as u16;
                v.push(Reg { name: format!("{}[{j}]", row.name), off, row, ctr: Some(j) });
            }
        }
    }
    v
}

fn engine(x_seed: u32) -> PmonLockstep {
    PmonLockstep::new(true, None, x_seed).unwrap()
}

/// An engine with counting stopped by `freeze_i` (P9).
fn frozen() -> PmonLockstep {
    let mut l = engine(X_SEED);
    l.exec(&Cmd::Freeze(true)).unwrap();
    l
}

fn access(l: &mut PmonLockstep, c: &Cmd) -> BusResult {
    match l.exec(c) {
        Ok(Some(r)) => r,
        Ok(None) => unreachable!("a bus access returns a result"),
        Err(m) => panic!("`{c}`: lockstep mismatch:\n{m}"),
    }
}

fn read(l: &mut PmonLockstep, off: u16) -> u32 {
    let r = access(l, &Cmd::Read { off, expect: None });
    assert!(!r.slverr, "read {off:#04x}: PSLVERR on a present register");
    r.rdata
}

fn write(l: &mut PmonLockstep, off: u16, data: u32) {
    let r = access(l, &Cmd::Write { off, data, strb: 0xf });
    assert!(!r.slverr, "write {off:#04x}: PSLVERR on a present register");
}

fn wait(l: &mut PmonLockstep, cycles: u64) {
    l.exec(&Cmd::Wait { cycles }).unwrap_or_else(|m| panic!("lockstep mismatch:\n{m}"));
}

fn freeze_in(l: &mut PmonLockstep, on: bool) {
    l.exec(&Cmd::Freeze(on)).unwrap();
}

/// The stored bits of every storage register (0 for the others).
fn stored(l: &mut PmonLockstep, all: &[Reg]) -> Vec<u32> {
    all.iter().map(|r| if r.row.kind == PmonKind::Storage { read(l, r.off) & r.row.mask } else { 0 }).collect()
}

/// Random values in every storage register, action bits clear.
fn fill(l: &mut PmonLockstep, all: &[Reg], rng: &mut ChaCha8Rng) {
    for r in all.iter().filter(|r| r.row.kind == PmonKind::Storage) {
        write(l, r.off, rng.gen::<u32>() & !r.row.acts);
    }
}

/// The table against `pcounter::pmon::regs` (which `rtl/pmon/pmon_reg_pkg.sv`
/// mirrors): every disagreement is listed, neither side adjusted.
#[test]
fn table_matches_register_map() {
    assert_eq!(PmonConfig::default().num_counters, COUNTERS, "the table is for the default box");
    let mut diffs = Vec::new();
    let ctl0_fields = [ctl0::EVNT_SEL, ctl0::UMASK, ctl0::EDGE, ctl0::FRZ_ON_OV, ctl0::INVERT, ctl0::THRESH];
    let ctl0_named = ctl0_fields.iter().fold(0, |m, f| m | f.mask());
    if ctl0_named != ctl0::WR_MASK {
        diffs.push(format!("CTL0: named fields {ctl0_named:#010x}, write mask {:#010x}", ctl0::WR_MASK));
    }
    if regs::CNTR_W != 48 {
        diffs.push(format!("counter width {}, P2 (CntrWidth) 48", regs::CNTR_W));
    }
    let status = (1u32 << COUNTERS) - 1;
    let rst = box_ctl::RST_CTRL.mask() | box_ctl::RST_CNTR.mask();
    for row in PMON_REGS {
        // (offset, stride, mask, acts) as the register map gives them; a
        // constant's "mask" is its value (decode gives it).
        let constant = |off: u16| match regs::decode(off, COUNTERS) {
            Some(Target::Const(v)) => (off, 0, v, 0),
            Some(Target::UdisL) => (off, 0, udis_l_value(), 0),
            t => (off, 0, u32::MAX, u32::from(t.is_some())),
        };
        let reserved = |off: u16| (off, 0, 0, 0);
        let (off, stride, mask, acts) = match row.name {
            "GDIS_L" => constant(regs::GDIS_L),
            "GDIS_H" => constant(regs::GDIS_H),
            "GCADR_L" => constant(regs::GCADR_L),
            "GCADR_H" => constant(regs::GCADR_H),
            "GSOFF_L" => constant(regs::GSOFF_L),
            "GSOFF_H" => reserved(regs::GSOFF_H),
            "GCTRL_L" => reserved(regs::GCTRL_L),
            "GCTRL_H" => reserved(regs::GCTRL_H),
            "GSTS_L" => (regs::GSTS_L, 0, gsts_l::W1C_MASK, 0),
            "GSTS_H" => reserved(regs::GSTS_H),
            "UDIS_L" => constant(regs::UDIS_L),
            "UDIS_H" => constant(regs::UDIS_H),
            "UCADR_L" => constant(regs::UCADR_L),
            "UCADR_H" => constant(regs::UCADR_H),
            "UIDT_L" => constant(regs::UIDT_L),
            "UIDT_H" => reserved(regs::UIDT_H),
            "BOX_CTL" => (regs::BOX_CTL, 0, box_ctl::WR_MASK, rst),
            "BOX_CTL_HI" => (regs::BOX_CTL_HI, 0, 0, 0),
            "BOX_STATUS" => (regs::BOX_STATUS, 0, status, 0),
            "BOX_STATUS_HI" => (regs::BOX_STATUS_HI, 0, 0, 0),
            "CTL0" => (regs::ctl0(0), regs::ctl0(1) - regs::ctl0(0), ctl0::WR_MASK, ctl0::CNTR_RST.mask()),
            "CTL1" => (regs::ctl1(0), regs::ctl1(1) - regs::ctl1(0), ctl1::WR_MASK, 0),
            "DATA_LO" => (regs::data_lo(0), regs::data_lo(1) - regs::data_lo(0), u32::MAX, 0),
            "DATA_HI" => (regs::data_hi(0), regs::data_hi(1) - regs::data_hi(0), regs::DATA_HI_WR_MASK, 0),
            other => {
                diffs.push(format!("{other}: in the table, not in the register map"));
                continue;
            }
        };
        let got = (off, stride, mask, acts);
        let want_mask = if row.kind == PmonKind::Const { row.reset } else { row.mask };
        let want = (row.offset, row.stride, want_mask, row.acts);
        if got != want {
            diffs.push(format!("{}: map (offset, stride, mask, acts) {got:x?}, table {want:x?}", row.name));
        }
    }
    for r in registers() {
        let want = match (r.row.name, r.ctr) {
            ("BOX_CTL", _) => Target::BoxCtl,
            ("BOX_STATUS", _) => Target::BoxStatus,
            ("GSTS_L", _) => Target::GstsL,
            ("UDIS_L", _) => Target::UdisL,
            (_, None) if r.row.kind == PmonKind::Const => Target::Const(r.row.reset),
            (_, None) if r.row.kind == PmonKind::Reserved => Target::Reserved,
            ("CTL0", Some(j)) => Target::Ctl0(j),
            ("CTL1", Some(j)) => Target::Ctl1(j),
            ("DATA_LO", Some(j)) => Target::DataLo(j),
            ("DATA_HI", Some(j)) => Target::DataHi(j),
            _ => unreachable!("{}", r.name),
        };
        let got = regs::decode(r.off, COUNTERS);
        if got != Some(want) {
            diffs.push(format!("{} at {:#04x}: decodes to {got:?}, table {want:?}", r.name, r.off));
        }
    }
    // Every other offset of the 9-bit CSR space is a hole (P2).
    let all = registers();
    for off in (0..regs::WINDOW_SIZE).step_by(4) {
        if !all.iter().any(|r| r.off == off) {
            if let Some(t) = regs::decode(off, COUNTERS) {
                diffs.push(format!("{off:#04x}: decodes to {t:?}, not in the table"));
            }
        }
    }
    assert!(diffs.is_empty(), "PMON table vs register map:\n{}", diffs.join("\n"));
}

/// UDIS_L of the default build, from the generated reset value with the
/// build's NumCntr (P2; the table holds the value typed from the guide).
fn udis_l_value() -> u32 {
    regs::udis_l::NUM_CNTR.set(regs::udis_l::RESET, COUNTERS as u32)
}

/// What `other` stores after `v` was written to `w`, from `before`: the
/// action bits' resets (P7: Cntr_Rst clears its own counter; P10: Rst_Ctrl
/// clears every CTL0 and CTL1, Rst_Cntr every counter), else unchanged.
fn after_write(w: &crate::CsrReg, v: u32, other: &crate::CsrReg, before: u32) -> u32 {
    let cleared = match (w.row, other.row) {
        ("BOX_CTL", "CTL0" | "CTL1") => v & 0x100 != 0,
        ("BOX_CTL", "DATA_LO" | "DATA_HI") => v & 0x200 != 0,
        ("CTL0", "DATA_LO" | "DATA_HI") => v & 0x2_0000 != 0 && w.index == other.index,
        _ => false,
    };
    if cleared {
        0
    } else {
        before
    }
}

impl crate::Bus for PmonLockstep {
    fn read(&mut self, addr: u32) -> u32 {
        read(self, addr as u16)
    }
    fn write(&mut self, addr: u32, data: u32) {
        write(self, addr as u16, data)
    }
}

/// The default box, frozen by `freeze_i`.
pub fn targets() -> Vec<crate::Target> {
    let regs = registers()
        .into_iter()
        .map(|r| crate::CsrReg {
            name: r.name,
            row: r.row.name,
            index: r.ctr,
            addr: u32::from(r.off),
            reset: r.row.reset,
            back: match r.row.kind {
                PmonKind::Storage => crate::Back::Stored,
                PmonKind::W1c | PmonKind::Reserved => crate::Back::Zero,
                PmonKind::Const => crate::Back::Reset,
            },
            mask: if r.row.kind == PmonKind::Storage { r.row.mask } else { 0 },
            state: 0,
            acts: r.row.acts,
            cite: r.row.cite,
        })
        .collect();
    vec![crate::Target {
        device: "pmon",
        label: "PMON default box (4 counters)".into(),
        regs,
        open: Box::new(|x_seed| {
            let mut l = engine(x_seed);
            l.exec(&Cmd::Freeze(true)).unwrap();
            Box::new(l)
        }),
        after_write,
        reset_only: false,
    }]
}

/// CTL0 that counts 1 every cycle with the lanes at 0: Thresh 1, Invert
/// (P6: `inc = 0 < 1`).
const COUNT_EVERY_CYCLE: u32 = 0x0180_0000;
const CNTR_RST: u32 = 0x0002_0000;
const FRZ_ON_OV: u32 = 0x0010_0000;

/// Preset counter `j` (two writes; counting stopped around them, P11).
fn preset(l: &mut PmonLockstep, j: usize, v: u64) {
    write(l, regs::data_lo(j), v as u32);
    write(l, regs::data_hi(j), (v >> 32) as u32);
}

fn data(l: &mut PmonLockstep, j: usize) -> u64 {
    u64::from(read(l, regs::data_lo(j))) | (u64::from(read(l, regs::data_hi(j))) << 32)
}

/// Cntr_Rst while counting (P7): the counter is 0 from the write's next
/// edge, CTL0 takes the other fields and reads bit 17 as 0; the other
/// counters keep counting.
#[test]
fn cntr_rst_while_counting() {
    let mut l = frozen();
    for j in 0..COUNTERS {
        preset(&mut l, j, 1000 * j as u64 + 7);
        write(&mut l, regs::ctl0(j), COUNT_EVERY_CYCLE);
    }
    freeze_in(&mut l, false);
    wait(&mut l, 10);
    // Both clocks of the write count on the other counters; counter 1's
    // ACCESS-cycle increment is dropped by the clear.
    write(&mut l, regs::ctl0(1), COUNT_EVERY_CYCLE | CNTR_RST | 0x42);
    freeze_in(&mut l, true);
    assert_eq!(read(&mut l, regs::ctl0(1)), COUNT_EVERY_CYCLE | 0x42, "Cntr_Rst reads 0 (P7)");
    assert_eq!(data(&mut l, 1), 0, "counter 1 after Cntr_Rst (P7)");
    for j in [0, 2, 3] {
        assert_eq!(data(&mut l, j), 1000 * j as u64 + 7 + 12, "counter {j} counted 10 + 2 cycles");
    }
    // Counting resumes from 0.
    freeze_in(&mut l, false);
    wait(&mut l, 3);
    freeze_in(&mut l, true);
    assert_eq!(data(&mut l, 1), 3);
}

/// Rst_Cntr and Rst_Ctrl while counting (P10), and the Freeze bit (P9).
#[test]
fn box_resets_and_freeze_while_counting() {
    let mut l = frozen();
    for j in 0..COUNTERS {
        preset(&mut l, j, 0x0012_3456_789a + j as u64);
        write(&mut l, regs::ctl0(j), COUNT_EVERY_CYCLE);
        write(&mut l, regs::ctl1(j), 0);
    }
    freeze_in(&mut l, false);
    wait(&mut l, 4);
    // Rst_Cntr: the ACCESS cycle's count is dropped, the controls stay.
    write(&mut l, regs::BOX_CTL, 0x200);
    freeze_in(&mut l, true);
    assert_eq!(read(&mut l, regs::BOX_CTL), 0, "Rst_Cntr reads 0 (P10)");
    for j in 0..COUNTERS {
        assert_eq!(data(&mut l, j), 0, "counter {j} after Rst_Cntr");
        assert_eq!(read(&mut l, regs::ctl0(j)), COUNT_EVERY_CYCLE, "CTL0[{j}] kept by Rst_Cntr");
    }
    // The box Freeze bit stops counting; the write's own ACCESS cycle
    // still counts (the bit acts from the next cycle, P1).
    freeze_in(&mut l, false);
    wait(&mut l, 5);
    write(&mut l, regs::BOX_CTL, 1);
    wait(&mut l, 20);
    assert_eq!(read(&mut l, regs::BOX_CTL), 1);
    for j in 0..COUNTERS {
        assert_eq!(data(&mut l, j), 7, "counter {j}: 5 + 2 cycles, then frozen by BOX_CTL.Freeze");
    }
    // Rst_Ctrl with Freeze cleared in the same write: both clocks of the
    // write are still frozen (the stored bit changes at the ACCESS edge),
    // so nothing counts before the controls are cleared.
    write(&mut l, regs::BOX_CTL, 0x100);
    freeze_in(&mut l, true);
    for j in 0..COUNTERS {
        assert_eq!(read(&mut l, regs::ctl0(j)), 0, "CTL0[{j}] after Rst_Ctrl");
        assert_eq!(data(&mut l, j), 7, "counter {j}: frozen through the write");
    }
    // With the controls cleared nothing counts (Umask 0, Thresh 0: P5, P6).
    freeze_in(&mut l, false);
    wait(&mut l, 10);
    freeze_in(&mut l, true);
    for j in 0..COUNTERS {
        assert_eq!(data(&mut l, j), 7, "counter {j} with cleared controls");
    }
}

/// Overflow at 2^48 wraps and sets BOX_STATUS (P8), which only a write of
/// 1 clears; with Frz_On_Ov the overflow sets the global status and the
/// global freeze stops the box from the next cycle (P9).
#[test]
fn overflow_status_w1c_and_frz_on_ov() {
    let top = (1u64 << 48) - 2;
    let mut l = frozen();
    preset(&mut l, 3, top);
    write(&mut l, regs::ctl0(3), COUNT_EVERY_CYCLE);
    freeze_in(&mut l, false);
    wait(&mut l, 5);
    freeze_in(&mut l, true);
    assert_eq!(data(&mut l, 3), 3, "2^48 - 2 + 5 wraps to 3 (P8)");
    assert_eq!(read(&mut l, regs::BOX_STATUS), 0x8);
    assert_eq!(read(&mut l, regs::BOX_CTL), 0, "no Frz_On_Ov: the box does not freeze");
    assert_eq!(read(&mut l, regs::GSTS_L), 0, "no Frz_On_Ov: nothing sent to the global status (P9)");
    for (v, want) in [(0x7, 0x8), (0xffff_fff7, 0x8), (0x8, 0)] {
        write(&mut l, regs::BOX_STATUS, v);
        assert_eq!(read(&mut l, regs::BOX_STATUS), want, "BOX_STATUS after writing {v:#x} (W1C)");
    }
    // Frz_On_Ov on counter 0; counter 1 counts beside it.
    preset(&mut l, 0, top);
    preset(&mut l, 1, 0);
    write(&mut l, regs::ctl0(0), COUNT_EVERY_CYCLE | FRZ_ON_OV);
    write(&mut l, regs::ctl0(1), COUNT_EVERY_CYCLE);
    write(&mut l, regs::ctl0(3), 0);
    freeze_in(&mut l, false);
    wait(&mut l, 5);
    // Cycle 1: 2^48 - 1; cycle 2: wraps to 0, sets status and Freeze;
    // cycles 3..5 frozen. Counter 1 counted the same two cycles.
    assert_eq!(read(&mut l, regs::BOX_CTL), 1, "Frz_On_Ov set BOX_CTL.Freeze (P9)");
    assert_eq!(read(&mut l, regs::GSTS_L), 1, "Frz_On_Ov set GSTS_L.UnitBlock_Ov[0] (P9)");
    write(&mut l, regs::GSTS_L, 0xffff_fffe);
    assert_eq!(read(&mut l, regs::GSTS_L), 1, "a write of 0 to bit 0 keeps it (W1C)");
    write(&mut l, regs::GSTS_L, 1);
    assert_eq!(read(&mut l, regs::GSTS_L), 0, "a write of 1 clears it (W1C)");
    assert_eq!(read(&mut l, regs::BOX_CTL), 1, "clearing the global status leaves the unit frozen");
    assert_eq!(read(&mut l, regs::BOX_STATUS), 0x1);
    assert_eq!(data(&mut l, 0), 0);
    assert_eq!(data(&mut l, 1), 2);
    // Software unfreezes; counter 0 counts on from the wrapped value.
    write(&mut l, regs::BOX_CTL, 0);
    write(&mut l, regs::BOX_STATUS, 0x1);
    freeze_in(&mut l, true);
    assert_eq!(data(&mut l, 0), 2, "the unfreeze acts after its ACCESS clock: the 2 clocks of the W1C write count");
    assert_eq!(read(&mut l, regs::BOX_STATUS), 0);
}

/// P1, P2: every aligned offset with no register reads 0 with PSLVERR and
/// ignores a write (PSLVERR too); a write with a partial strobe is refused
/// the same way on a present register; PADDR bits 1:0 are ignored.
#[test]
fn decode_holes_and_strobes() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xd0c);
    let mut l = frozen();
    let all = registers();
    fill(&mut l, &all, &mut rng);
    let before = stored(&mut l, &all);
    let mut holes = 0;
    for off in (0..regs::WINDOW_SIZE).step_by(4) {
        if all.iter().any(|r| r.off == off) {
            continue;
        }
        holes += 1;
        for sub in 0..4 {
            let r = access(&mut l, &Cmd::Read { off: off + sub, expect: None });
            assert_eq!((r.rdata, r.slverr), (0, true), "read of hole {:#04x}", off + sub);
            let w = access(&mut l, &Cmd::Write { off: off + sub, data: 0xffff_ffff, strb: 0xf });
            assert!(w.slverr, "write to hole {:#04x}", off + sub);
        }
    }
    // 0x028..0x0ff between the global block and the unit discovery,
    // 0x148..0x167 and 0x188..0x1a7 (counters 4..7 absent), 0x1a8..0x1ff.
    assert_eq!(holes, 54 + 8 + 8 + 22);
    for r in &all {
        for strb in 0..0xfu8 {
            let w = access(&mut l, &Cmd::Write { off: r.off, data: !before_of(&all, &before, r.off), strb });
            assert!(w.slverr, "{} written with strobe {strb:#x}", r.name);
        }
    }
    assert_eq!(stored(&mut l, &all), before, "a refused write changed a register");
    // Bits 1:0 of PADDR: a read and a write at off+1..3 reach the register.
    for r in all.iter().filter(|r| r.row.kind == PmonKind::Storage) {
        for sub in 1..4 {
            let v = rng.gen::<u32>() & !r.row.acts;
            write(&mut l, r.off + sub, v);
            assert_eq!(read(&mut l, r.off + (4 - sub) % 4), v & r.row.mask, "{} via {:#04x}", r.name, r.off + sub);
        }
    }
}

fn before_of(all: &[Reg], before: &[u32], off: u16) -> u32 {
    before[all.iter().position(|r| r.off == off).unwrap()]
}
