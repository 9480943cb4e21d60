//! R10K's CSR targets (tests/csr.rs runs the shared suite on both variants:
//! every register reads 0 after reset, R11; rw, bit_bash, aliasing) and its
//! own CSR tests, with the expectations from a hand-written table of seed
//! 002 and docs/semantics.md R1..R3 (`seed_regs.rs`), not from
//! `src/r10k/regs.rs`:
//!
//! - table_matches_register_map: the table and `pcounter::r10k::regs` agree
//!   on every register's offset and stored mask, and on which offsets decode;
//! - side effects while counting: a count write and a control write in a
//!   counting cycle, the overflow into bit 31 and the wrap, exact values;
//! - decode holes and strobes: 0x10..0xff and partial strobes answer
//!   PSLVERR and change nothing; PADDR bits 1:0 are ignored (R1).
//!
//! Every access runs through the R10K lockstep, so the RTL is compared
//! with the model (and `irq_o`) on every cycle. The targets hold ERL = 1,
//! in which nothing counts (R7) and writes still act.

use pcounter::r10k::regs::{self, Target, Variant};
use pcounter::r10k::Mode;
use pcounter::common::bus::BusResult;
use pcounter_sim::r10k::cmd::Cmd;
use pcounter_sim::r10k::lockstep::{R10kLockstep, X_SEED};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rstest::rstest;

#[path = "seed_regs.rs"]
mod seed_regs;
use seed_regs::{R10kSeedReg, COUNTERS, R10K_REGS};

const ERL: Mode = Mode { ksu: 0, exl: false, erl: true };

/// A register of the unit: name, offset, row, counter.
struct Reg {
    name: String,
    off: u8,
    row: &'static R10kSeedReg,
}

fn registers() -> Vec<Reg> {
    let mut v = Vec::new();
    for row in R10K_REGS {
        for j in 0..COUNTERS {
            v.push(Reg { name: format!("{}{j}", row.name), off: row.offset + row.stride * j as u8, row });
        }
    }
    v
}

fn engine(v: Variant, x_seed: u32) -> R10kLockstep {
    R10kLockstep::new(v, true, None, x_seed).unwrap()
}

/// An engine in which nothing counts (ERL = 1, R7).
fn quiet(v: Variant) -> R10kLockstep {
    let mut l = engine(v, X_SEED);
    l.exec(&Cmd::Mode(ERL)).unwrap();
    l
}

fn access(l: &mut R10kLockstep, c: &Cmd) -> BusResult {
    match l.exec(c) {
        Ok(Some(r)) => r,
        Ok(None) => unreachable!("a bus access returns a result"),
        Err(m) => panic!("`{c}`: lockstep mismatch:\n{m}"),
    }
}

fn read(l: &mut R10kLockstep, off: u8) -> u32 {
    let r = access(l, &Cmd::Read { off: off.into(), expect: None });
    assert!(!r.slverr, "read {off:#04x}: PSLVERR on a present register");
    r.rdata
}

fn write(l: &mut R10kLockstep, off: u8, data: u32) {
    let r = access(l, &Cmd::Write { off: off.into(), data, strb: 0xf });
    assert!(!r.slverr, "write {off:#04x}: PSLVERR on a present register");
}

fn stored(l: &mut R10kLockstep, all: &[Reg]) -> Vec<u32> {
    all.iter().map(|r| read(l, r.off)).collect()
}

/// The table against `pcounter::r10k::regs` (which `rtl/r10k/r10k_reg_pkg.sv`
/// mirrors): every disagreement is listed, neither side adjusted.
#[test]
fn table_matches_register_map() {
    let mut diffs = Vec::new();
    for v in Variant::ALL {
        for row in R10K_REGS {
            let (off, stride, mask) = match row.name {
                "PerfCtl" => (regs::ctl(0), regs::ctl(1) - regs::ctl(0), v.ctl_wr_mask()),
                "PerfCnt" => (regs::cnt(0), regs::cnt(1) - regs::cnt(0), u32::MAX),
                other => {
                    diffs.push(format!("{other}: in the table, not in the register map"));
                    continue;
                }
            };
            let want = (u16::from(row.offset), u16::from(row.stride), row.mask(v));
            if (off, stride, mask) != want {
                diffs.push(format!("{} ({v:?}): map {:x?}, table {want:x?}", row.name, (off, stride, mask)));
            }
        }
    }
    let all = registers();
    for (k, r) in all.iter().enumerate() {
        let want = if r.row.name == "PerfCtl" { Target::Ctl(k % 2) } else { Target::Cnt(k % 2) };
        if regs::decode(u16::from(r.off)) != Some(want) {
            diffs.push(format!("{} at {:#04x}: decodes to {:?}", r.name, r.off, regs::decode(u16::from(r.off))));
        }
    }
    for off in (0..=0xffu16).step_by(4) {
        if !all.iter().any(|r| u16::from(r.off) == off) {
            if let Some(t) = regs::decode(off) {
                diffs.push(format!("{off:#04x}: decodes to {t:?}, not in the table"));
            }
        }
    }
    assert!(diffs.is_empty(), "R10K table vs register map:\n{}", diffs.join("\n"));
}

impl crate::Bus for R10kLockstep {
    fn read(&mut self, addr: u32) -> u32 {
        read(self, addr as u8)
    }
    fn write(&mut self, addr: u32, data: u32) {
        write(self, addr as u8, data)
    }
}

/// Both variants, in ERL mode.
pub fn targets() -> Vec<crate::Target> {
    Variant::ALL
        .into_iter()
        .map(|v| crate::Target {
            device: "r10k",
            label: format!("R10K {v:?}"),
            regs: registers()
                .into_iter()
                .enumerate()
                .map(|(k, r)| crate::CsrReg {
                    name: r.name,
                    row: r.row.name,
                    index: Some(k % COUNTERS),
                    addr: u32::from(r.off),
                    reset: r.row.reset,
                    back: crate::Back::Stored,
                    mask: r.row.mask(v),
                    state: 0,
                    acts: 0,
                    cite: r.row.cite,
                })
                .collect(),
            open: Box::new(move |x_seed| {
                let mut l = engine(v, x_seed);
                l.exec(&Cmd::Mode(ERL)).unwrap();
                Box::new(l)
            }),
            after_write: crate::unchanged,
            reset_only: false,
        })
        .collect()
}

/// Writes in counting cycles (R10) and the overflow (R8, R9), counter 1
/// counting cycles in user mode: Event 0 is the cycle count on both
/// variants (R5). Exact values; `irq_o` is compared every cycle.
#[rstest]
fn writes_while_counting_and_overflow(#[values(Variant::R10000, Variant::R12000)] v: Variant) {
    let mut l = quiet(v);
    let cycles_user_ie = 0x18; // Event 0, IE, U
    write(&mut l, 0x08, cycles_user_ie);
    write(&mut l, 0x0c, 0x7fff_fff0);
    l.exec(&Cmd::Mode(Mode::USER)).unwrap();
    l.exec(&Cmd::Wait { cycles: 10 }).unwrap();
    // The count write's SETUP counts, its ACCESS is replaced (R10).
    write(&mut l, 0x0c, 0x7fff_fffd);
    assert!(!l.model.irq());
    // Both clocks of the read count: SETUP 2^31 - 2, ACCESS reads 2^31 - 2.
    assert_eq!(read(&mut l, 0x0c), 0x7fff_fffe);
    // ACCESS committed 2^31 - 1; the control write's SETUP sets bit 31, its
    // ACCESS counts with the old control (IE on): 2^31 + 1, IE now off.
    write(&mut l, 0x08, 0x08);
    assert!(!l.model.irq(), "IE off: no request (R9)");
    assert_eq!(read(&mut l, 0x0c), 0x8000_0002, "counting continued past bit 31 (R8)");
    // IE back on: the request follows bit 31 at once; the wrap drops it.
    write(&mut l, 0x08, cycles_user_ie);
    assert!(l.model.irq());
    write(&mut l, 0x0c, 0xffff_fffe);
    l.exec(&Cmd::Wait { cycles: 2 }).unwrap();
    assert!(!l.model.irq(), "wrapped to 0 (R8)");
    assert_eq!(read(&mut l, 0x0c), 1);
    // Counter 0 never counted (control 0).
    assert_eq!(read(&mut l, 0x04), 0);
}

/// R1: every aligned offset from 0x10 reads 0 with PSLVERR and ignores a
/// write; partial strobes are refused on present registers; PADDR[1:0] are
/// ignored.
#[rstest]
fn decode_holes_and_strobes(#[values(Variant::R10000, Variant::R12000)] v: Variant) {
    let mut rng = ChaCha8Rng::seed_from_u64(0xd0c);
    let mut l = quiet(v);
    let all = registers();
    for r in &all {
        write(&mut l, r.off, rng.gen());
    }
    let before = stored(&mut l, &all);
    let mut holes = 0;
    for off in (0x10..=0xffu8).step_by(4) {
        holes += 1;
        for sub in 0..4 {
            let r = access(&mut l, &Cmd::Read { off: (off + sub).into(), expect: None });
            assert_eq!((r.rdata, r.slverr), (0, true), "read of hole {:#04x}", off + sub);
            let w = access(&mut l, &Cmd::Write { off: (off + sub).into(), data: 0xffff_ffff, strb: 0xf });
            assert!(w.slverr, "write to hole {:#04x}", off + sub);
        }
    }
    assert_eq!(holes, 60);
    for (k, r) in all.iter().enumerate() {
        for strb in 0..0xfu8 {
            let w = access(&mut l, &Cmd::Write { off: r.off.into(), data: !before[k], strb });
            assert!(w.slverr, "{} written with strobe {strb:#x}", r.name);
        }
    }
    assert_eq!(stored(&mut l, &all), before, "a refused write changed a register");
    for r in &all {
        for sub in 1..4 {
            let x: u32 = rng.gen();
            write(&mut l, r.off + sub, x);
            assert_eq!(read(&mut l, r.off + (4 - sub) % 4), x & r.row.mask(v), "{} via {:#04x}", r.name, r.off + sub);
        }
    }
}
