//! CSR suite in lockstep, for every generation, with its expectations from a
//! hand-written table of seed 003 (`seed_regs.rs`), not from the register
//! map source (`regmap/pcounter.rdl` -> `pcounter::regs`), which generates
//! both the RTL's and the model's masks: a wrong mask there would agree with
//! itself three times.
//!
//! - seed_table_matches_register_map: the table and the generated map agree
//!   on every register's presence, offset, kind and masks per generation;
//! - hw_reset: every present register reads its reset value (S8; SPEC_SRC
//!   on G84+ selects the PM_TRIGGER trailer signal, S2);
//! - rw: random values to every register, read back = value & stored mask;
//! - bit_bash: walking 1 and walking 0 through every bit of every storage register;
//! - aliasing: a write to one register changes the stored bits of no other.
//!
//! Every access runs through the lockstep engine, so the RTL is compared with
//! the model on every cycle; the expectations come from the seed table, so a
//! wrong register map fails here even when RTL and model agree.

use pcounter::regs::{Gen, Kind, Reg, DOM_REGS, GLOBAL_REGS};
use pcounter_sim::lockstep::Engine;
use pcounter_sim::script::Cmd;
use pcounter_sim::stim::MMIO_BASE;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

mod seed_regs;
use seed_regs::{SeedKind, SeedReg, SEED_REGS};

/// Index of `gen` in the table's per-generation columns.
fn col(gen: Gen) -> usize {
    Gen::ALL.iter().position(|g| *g == gen).unwrap()
}

/// Every register of the configuration that exists on `gen` (seed table):
/// (name, address, row).
fn registers(gen: Gen, domains: usize) -> Vec<(String, u32, &'static SeedReg)> {
    let mut v = Vec::new();
    for dom in 0..domains {
        for r in SEED_REGS.iter().filter(|r| r.dom_stride != 0 && r.present[col(gen)]) {
            let off = u32::from(r.offset) + u32::from(r.dom_stride) * dom as u32;
            v.push((format!("{}[{dom}]", r.name), MMIO_BASE + off, r));
        }
    }
    for r in SEED_REGS.iter().filter(|r| r.dom_stride == 0 && r.present[col(gen)]) {
        v.push((r.name.to_string(), MMIO_BASE + u32::from(r.offset), r));
    }
    v
}

fn engine(gen: Gen, domains: usize) -> Engine {
    Engine::new(gen, domains, true, None, &[]).unwrap()
}

fn read(e: &mut Engine, addr: u32) -> u32 {
    match e.exec(&Cmd::Read { addr, expect: None }) {
        Ok(Some(r)) => {
            assert!(!r.slverr, "read {addr:#x}: PSLVERR on a present register");
            r.rdata
        }
        Ok(None) => unreachable!("a read returns a bus result"),
        Err(m) => panic!("lockstep mismatch:\n{m}"),
    }
}

fn write(e: &mut Engine, addr: u32, data: u32) {
    if let Err(m) = e.exec(&Cmd::Write { addr, data, strb: 0xf }) {
        panic!("lockstep mismatch:\n{m}");
    }
}

/// What a read returns after writing `v` to a register that holds nothing
/// else, state bits (`ro`) masked out: stored bits for storage registers, 0
/// for write-only ones.
fn readback(r: &SeedReg, gen: Gen, v: u32) -> Option<u32> {
    match r.kind {
        SeedKind::Storage => Some(v & r.rw[col(gen)]),
        SeedKind::WriteOnly => Some(0),
        // Status and counters depend on the design's state; init registers
        // read the counter, not the written value.
        SeedKind::ReadOnly | SeedKind::Init => None,
    }
}

fn stored(e: &mut Engine, regs: &[(String, u32, &'static SeedReg)], gen: Gen) -> Vec<u32> {
    regs.iter().map(|(_, a, r)| if r.kind == SeedKind::Storage { read(e, *a) & r.rw[col(gen)] } else { 0 }).collect()
}

/// The generated register of a table row (domain registers have a stride).
fn generated(row: &SeedReg) -> Option<&'static Reg> {
    let list: &'static [Reg] = if row.dom_stride != 0 { &DOM_REGS } else { &GLOBAL_REGS };
    list.iter().find(|r| r.name == row.name)
}

/// The seed table against `regmap/pcounter.rdl` as generated into
/// `pcounter::regs` (which the RTL package is generated from too): every
/// disagreement is listed. A difference means the register map, and so RTL
/// and model, implement something other than the seed (or the table is
/// wrong); neither side is adjusted to the other here.
#[test]
fn seed_table_matches_register_map() {
    let mut diffs = Vec::new();
    for row in SEED_REGS {
        let Some(g) = generated(row) else {
            diffs.push(format!("{}: in the seed table, not in the register map", row.name));
            continue;
        };
        if g.offset != row.offset || (row.dom_stride != 0 && g.dom_stride != row.dom_stride) {
            diffs.push(format!(
                "{}: offset/stride {:#x}/{:#x}, seed {:#x}/{:#x}",
                row.name, g.offset, g.dom_stride, row.offset, row.dom_stride
            ));
        }
        let kind = match g.kind {
            Kind::Storage => SeedKind::Storage,
            Kind::Trigger => SeedKind::WriteOnly,
            Kind::Status | Kind::Counter => SeedKind::ReadOnly,
            Kind::Init => SeedKind::Init,
        };
        if kind != row.kind {
            diffs.push(format!("{}: kind {:?} ({kind:?}), seed {:?}", row.name, g.kind, row.kind));
        }
        for gen in Gen::ALL {
            let c = col(gen);
            if g.present(gen) != row.present[c] {
                diffs.push(format!(
                    "{} on {}: present {}, seed {}",
                    row.name,
                    gen.name(),
                    g.present(gen),
                    row.present[c]
                ));
            }
            // Masks of a present register only (an absent one answers PSLVERR).
            if row.present[c] && row.kind == SeedKind::Storage {
                if g.rw_mask(gen) != row.rw[c] {
                    diffs.push(format!(
                        "{} on {}: stored mask {:#010x}, seed {:#010x}",
                        row.name,
                        gen.name(),
                        g.rw_mask(gen),
                        row.rw[c]
                    ));
                }
                let ro = g.ro_mask(gen);
                if ro != row.ro {
                    diffs.push(format!(
                        "{} on {}: read-only mask {ro:#010x}, seed {:#010x}",
                        row.name,
                        gen.name(),
                        row.ro
                    ));
                }
            }
        }
    }
    for g in DOM_REGS.iter().chain(&GLOBAL_REGS) {
        if !SEED_REGS.iter().any(|r| r.name == g.name) {
            diffs.push(format!("{}: in the register map, not in the seed table", g.name));
        }
    }
    assert!(diffs.is_empty(), "seed table vs register map:\n{}", diffs.join("\n"));
}

#[test]
fn hw_reset() {
    for gen in Gen::ALL {
        for domains in [1, 8] {
            let mut e = engine(gen, domains);
            for (name, addr, r) in registers(gen, domains) {
                let want = r.reset[col(gen)];
                assert_eq!(read(&mut e, addr), want, "{name} on {} after reset ({})", gen.name(), r.cite);
            }
        }
    }
}

#[test]
fn rw_random_values() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xc5a);
    for gen in Gen::ALL {
        let mut e = engine(gen, 2);
        let all = registers(gen, 2);
        for _ in 0..4 {
            for (name, addr, r) in &all {
                let v: u32 = rng.gen();
                write(&mut e, *addr, v);
                if let Some(want) = readback(r, gen, v) {
                    // CTRL also shows SINGLE_STATE / QUAD_STATE (`ro`): masked out.
                    let got = read(&mut e, *addr) & !r.ro;
                    assert_eq!(got, want, "{name} on {}: wrote {v:#x} ({})", gen.name(), r.cite);
                }
            }
        }
    }
}

#[test]
fn bit_bash() {
    for gen in Gen::ALL {
        let mut e = engine(gen, 2);
        for (name, addr, r) in registers(gen, 2).into_iter().filter(|x| x.2.kind == SeedKind::Storage) {
            let mask = r.rw[col(gen)];
            for bit in 0..32 {
                for pattern in [1u32 << bit, !(1u32 << bit)] {
                    write(&mut e, addr, pattern);
                    let got = read(&mut e, addr) & !r.ro;
                    assert_eq!(got, pattern & mask, "{name} on {}: pattern {pattern:#010x} ({})", gen.name(), r.cite);
                }
            }
        }
    }
}

#[test]
fn aliasing() {
    for gen in Gen::ALL {
        let domains = 2;
        let mut e = engine(gen, domains);
        let all = registers(gen, domains);
        for (i, (name, addr, r)) in all.iter().enumerate() {
            let before = stored(&mut e, &all, gen);
            let v = if r.kind == SeedKind::Storage { !read(&mut e, *addr) } else { 0xffff_ffff };
            write(&mut e, *addr, v);
            let after = stored(&mut e, &all, gen);
            for (j, (other, _, _)) in all.iter().enumerate() {
                if j != i {
                    assert_eq!(after[j], before[j], "writing {name} changed {other} on {}", gen.name());
                }
            }
        }
    }
}

fn engine_decode(gen: Gen, domains: usize, strict: bool) -> Engine {
    let mut cfg = pcounter::Config::new(gen, domains).unwrap();
    cfg.strict_decode = strict;
    Engine::with_config(cfg, true, None, &[], pcounter_sim::lockstep::X_SEED).unwrap()
}

/// S8 `StrictDecode`: every word of the window that is not a present
/// register reads 0, with PSLVERR only when strict; writing all ones there
/// changes no present register (both settings, every generation).
#[test]
fn decode_holes() {
    for gen in Gen::ALL {
        for strict in [true, false] {
            let mut e = engine_decode(gen, 2, strict);
            let present = registers(gen, 2);
            let is_present = |a: u32| present.iter().any(|(_, pa, _)| *pa == a);
            let before = stored(&mut e, &present, gen);
            for addr in (MMIO_BASE..MMIO_BASE + 0x1000).step_by(4).filter(|a| !is_present(*a)) {
                let r = match e.exec(&Cmd::Read { addr, expect: None }) {
                    Ok(Some(r)) => r,
                    other => panic!("read {addr:#x}: {other:?}"),
                };
                assert_eq!((r.rdata, r.slverr), (0, strict), "hole {addr:#x} on {} strict={strict}", gen.name());
                let w = e.exec(&Cmd::Write { addr, data: 0xffff_ffff, strb: 0xf });
                assert!(w.is_ok(), "lockstep mismatch writing hole {addr:#x}");
            }
            assert_eq!(stored(&mut e, &present, gen), before, "a hole write changed a register on {}", gen.name());
        }
    }
}
