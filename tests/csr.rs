//! CSR suite in lockstep, generated from the one register-map source
//! (`regmap/pcounter.rdl` -> `pcounter::regs`), for every generation:
//!
//! - hw_reset: every present register reads its reset value (0, S8; SPEC_SRC
//!   on G84+ selects the PM_TRIGGER trailer signal, S2);
//! - rw: random values to every register, read back = value & stored mask;
//! - bit_bash: walking 1 and walking 0 through every bit of every storage register;
//! - aliasing: a write to one register changes the stored bits of no other.
//!
//! Every access runs through the lockstep engine, so the RTL is compared with
//! the model on every cycle; the expectations here come from the register
//! map (not from the model), so a wrong model fails too.

use pcounter::regs::{self, Gen, Kind, Reg, DOM_REGS, GLOBAL_REGS};
use pcounter_sim::lockstep::Engine;
use pcounter_sim::script::Cmd;
use pcounter_sim::stim::MMIO_BASE;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Every register of the configuration that exists on `gen`: (name, address, reg).
fn registers(gen: Gen, domains: usize) -> Vec<(String, u32, &'static Reg)> {
    let mut v = Vec::new();
    for dom in 0..domains {
        for r in DOM_REGS.iter().filter(|r| r.present(gen)) {
            v.push((format!("{}[{dom}]", r.name), MMIO_BASE + u32::from(r.offset_of(dom)), r));
        }
    }
    for r in GLOBAL_REGS.iter().filter(|r| r.present(gen)) {
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
/// else: stored bits for storage registers, 0 for write-only ones.
fn readback(r: &Reg, gen: Gen, v: u32) -> Option<u32> {
    match r.kind {
        Kind::Storage => Some(v & r.rw_mask(gen)),
        Kind::Trigger => Some(0),
        // Status and counters depend on the design's state; init registers
        // read the counter, not the written value.
        _ => None,
    }
}

fn stored(e: &mut Engine, regs: &[(String, u32, &'static Reg)], gen: Gen) -> Vec<u32> {
    regs.iter().map(|(_, a, r)| if r.kind == Kind::Storage { read(e, *a) & r.rw_mask(gen) } else { 0 }).collect()
}

#[test]
fn hw_reset() {
    for gen in Gen::ALL {
        for domains in [1, 8] {
            let mut e = engine(gen, domains);
            for (name, addr, r) in registers(gen, domains) {
                // S2/S8: SWAP = trailer base 0xe0 + 0x0f (PM_TRIGGER), from the driver.
                let want = if r.name == "SPEC_SRC" { 0xef } else { 0 };
                assert_eq!(read(&mut e, addr), want, "{name} on {} after reset (S2, S8)", gen.name());
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
                    // CTRL also shows SINGLE_STATE / QUAD_STATE (ro): mask them out.
                    let got = read(&mut e, *addr)
                        & !(regs::field::CTRL_SINGLE_STATE.mask() * u32::from(r.name == "CTRL"))
                        & !(regs::field::CTRL_QUAD_STATE.mask() * u32::from(r.name == "CTRL"));
                    assert_eq!(got, want, "{name} on {}: wrote {v:#x}", gen.name());
                }
            }
        }
    }
}

#[test]
fn bit_bash() {
    for gen in Gen::ALL {
        let mut e = engine(gen, 2);
        for (name, addr, r) in registers(gen, 2).into_iter().filter(|x| x.2.kind == Kind::Storage) {
            let mask = r.rw_mask(gen);
            for bit in 0..32 {
                for pattern in [1u32 << bit, !(1u32 << bit)] {
                    write(&mut e, addr, pattern);
                    let got = read(&mut e, addr) & !(if r.name == "CTRL" { 0x3300_0000 } else { 0 });
                    assert_eq!(got, pattern & mask, "{name} on {}: pattern {pattern:#010x}", gen.name());
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
            let v = if r.kind == Kind::Storage { !read(&mut e, *addr) } else { 0xffff_ffff };
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
