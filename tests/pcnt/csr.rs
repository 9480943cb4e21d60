//! PCOUNTER's CSR targets (tests/csr.rs runs the shared suite on them) and
//! its own CSR tests, for every generation of both MMIO layouts (NV10 for
//! NV10..NV30, NV40 for NV40..GT215), with the expectations from
//! hand-written tables of seed 003 (`seed_regs.rs`, one per layout), not from
//! the register map source (`regmap/pcounter.rdl` -> `pcounter::pcnt::regs`), which
//! generates both the RTL's and the model's masks: a wrong mask there would
//! agree with itself three times.
//!
//! - targets: per generation, one domain and the generation's maximum for
//!   the reset values; min(2, maximum) domains for the write tests (S8;
//!   SPEC_SRC on G84+ selects the PM_TRIGGER trailer signal, S2);
//! - seed_table_matches_register_map: the table and the generated map agree
//!   on every register's presence, offset, kind and masks per generation;
//! - decode_holes: every other word of the window is a hole (S8);
//! - shared_ctrl_without_domain_1: the NV10 layout's shared CTRL stores no
//!   DOM1 field when only domain 0 is configured.
//!
//! Domain counts are capped at the generation's `max_domains` (NV10/NV15 1,
//! NV20/NV30 2). A write to the NV10 layout's shared CTRL aborts single
//! event mode in both domains and completes once every domain has ticked
//! (the engine waits for PREADY); the state bits are `CsrReg::state`.

use pcounter::pcnt::regs::{Gen, Kind, Reg, RegLayout, DOM_REGS, GLOBAL_REGS, NUM_DOMAINS_MAX};
use pcounter_sim::pcnt::lockstep::Engine;
use pcounter_sim::pcnt::script::Cmd;
use pcounter_sim::pcnt::stim::MMIO_BASE;

#[path = "gf100_csr.rs"]
mod gf100_csr;
#[path = "seed_regs.rs"]
mod seed_regs;
use seed_regs::{SeedKind, SeedReg, SEED_REGS, SEED_REGS_NV10};

/// The hand table of a layout.
fn table(layout: RegLayout) -> &'static [SeedReg] {
    match layout {
        RegLayout::Nv10 => SEED_REGS_NV10,
        RegLayout::Nv40 => SEED_REGS,
    }
}

/// The generations of a layout, in `Gen::ALL` order: the table's columns.
fn layout_gens(layout: RegLayout) -> Vec<Gen> {
    Gen::ALL.into_iter().filter(|g| g.reg_layout() == layout).collect()
}

/// Index of `gen` in its layout table's per-generation columns.
fn col(gen: Gen) -> usize {
    layout_gens(gen.reg_layout()).iter().position(|g| *g == gen).unwrap()
}

/// Domains a CSR test configures: `want`, at most what `gen` has.
fn doms(gen: Gen, want: usize) -> usize {
    want.min(gen.max_domains())
}

/// Every register of the configuration that exists on `gen` (seed table of
/// its layout): (name, address, row).
fn registers(gen: Gen, domains: usize) -> Vec<(String, u32, &'static SeedReg)> {
    let rows = table(gen.reg_layout());
    let mut v = Vec::new();
    for dom in 0..domains {
        for r in rows.iter().filter(|r| r.dom_stride != 0 && r.present[col(gen)] && dom < r.doms) {
            let off = u32::from(r.offset) + u32::from(r.dom_stride) * dom as u32;
            v.push((format!("{}[{dom}]", r.name), MMIO_BASE + off, r));
        }
    }
    for r in rows.iter().filter(|r| r.dom_stride == 0 && r.present[col(gen)]) {
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

impl crate::Bus for Engine {
    fn read(&mut self, addr: u32) -> u32 {
        read(self, addr)
    }
    fn write(&mut self, addr: u32, data: u32) {
        write(self, addr, data)
    }
}

/// PCOUNTER's targets: NV10:GT215 per generation (`nv_targets`) and the
/// GF100 presets (`gf100_csr.rs`).
pub fn targets() -> Vec<crate::Target> {
    let mut v = nv_targets();
    v.extend(gf100_csr::targets());
    v
}

/// Per generation: the reset values with one domain and with the
/// generation's maximum; the write tests with min(2, maximum) domains (the
/// 1-domain NV20/NV30 shared CTRL is `shared_ctrl_without_domain_1`'s).
fn nv_targets() -> Vec<crate::Target> {
    let mut v = Vec::new();
    for gen in Gen::ALL {
        let mut counts = vec![1, gen.max_domains(), doms(gen, 2)];
        counts.sort();
        counts.dedup();
        for domains in counts {
            let regs = registers(gen, domains)
                .into_iter()
                .map(|(name, addr, r)| {
                    let c = col(gen);
                    let back = match r.kind {
                        SeedKind::Storage => crate::Back::Stored,
                        SeedKind::WriteOnly => crate::Back::Zero,
                        // Status and counters follow the design's state;
                        // init registers read the counter, not the value.
                        SeedKind::ReadOnly | SeedKind::Init => crate::Back::State,
                    };
                    let mask = if r.kind == SeedKind::Storage { r.rw[c] } else { 0 };
                    crate::CsrReg {
                        name,
                        row: r.name,
                        index: None,
                        addr,
                        reset: r.reset[c],
                        back,
                        mask,
                        state: r.ro[c],
                        acts: 0,
                        cite: r.cite,
                    }
                })
                .collect();
            v.push(crate::Target {
                device: "pcnt",
                label: format!("PCOUNTER {} with {domains} domain(s)", gen.name()),
                regs,
                open: Box::new(move |x_seed| {
                    let cfg = pcounter::pcnt::config::Config::new(gen, domains).unwrap();
                    Box::new(Engine::with_config(cfg, true, None, &[], x_seed).unwrap())
                }),
                after_write: crate::unchanged,
                reset_only: domains != doms(gen, 2),
            });
        }
    }
    v
}

fn stored(e: &mut Engine, regs: &[(String, u32, &'static SeedReg)], gen: Gen) -> Vec<u32> {
    regs.iter().map(|(_, a, r)| if r.kind == SeedKind::Storage { read(e, *a) & r.rw[col(gen)] } else { 0 }).collect()
}

/// The generated register of a table row (domain registers have a stride).
fn generated(row: &SeedReg) -> Option<&'static Reg> {
    let list: &'static [Reg] = if row.dom_stride != 0 { &DOM_REGS } else { &GLOBAL_REGS };
    list.iter().find(|r| r.name == row.name)
}

/// The seed tables against `regmap/pcounter.rdl` as generated into
/// `pcounter::pcnt::regs` (which the RTL package is generated from too): every
/// disagreement is listed. A difference means the register map, and so RTL
/// and model, implement something other than the seed (or the table is
/// wrong); neither side is adjusted to the other here. Per layout: the
/// address of every domain (`Reg::offset_of`), kind, presence and masks on
/// each of the layout's generations.
#[test]
fn seed_table_matches_register_map() {
    let mut diffs = Vec::new();
    for layout in [RegLayout::Nv40, RegLayout::Nv10] {
        diffs.extend(table_diffs(layout));
    }
    assert!(diffs.is_empty(), "seed table vs register map:\n{}", diffs.join("\n"));
}

fn table_diffs(layout: RegLayout) -> Vec<String> {
    let mut diffs = Vec::new();
    let rows = table(layout);
    let lname = layout.name();
    for row in rows {
        let Some(g) = generated(row) else {
            diffs.push(format!("{}: in the seed table ({lname}), not in the register map", row.name));
            continue;
        };
        let addrs: Vec<Option<u16>> = (0..NUM_DOMAINS_MAX).map(|d| g.offset_of(layout, d)).collect();
        let want: Vec<Option<u16>> =
            (0..NUM_DOMAINS_MAX).map(|d| (d < row.doms).then(|| row.offset + row.dom_stride * d as u16)).collect();
        if addrs != want {
            diffs.push(format!("{} ({lname}): addresses by domain {addrs:x?}, seed {want:x?}", row.name));
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
        for gen in layout_gens(layout) {
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
                if ro != row.ro[c] {
                    diffs.push(format!(
                        "{} on {}: read-only mask {ro:#010x}, seed {:#010x}",
                        row.name,
                        gen.name(),
                        row.ro[c]
                    ));
                }
            }
        }
    }
    // Registers the layout addresses that the table lacks.
    for g in DOM_REGS.iter().chain(&GLOBAL_REGS).filter(|g| g.place(layout).is_some()) {
        if !rows.iter().any(|r| r.name == g.name) {
            diffs.push(format!("{}: in the register map ({lname}), not in the seed table", g.name));
        }
    }
    diffs
}

fn engine_decode(gen: Gen, domains: usize, strict: bool) -> Engine {
    let mut cfg = pcounter::pcnt::config::Config::new(gen, domains).unwrap();
    cfg.strict_decode = strict;
    Engine::with_config(cfg, true, None, &[], pcounter_sim::pcnt::lockstep::X_SEED).unwrap()
}

/// S8 `StrictDecode`: every word of the window that is not a present
/// register reads 0, with PSLVERR only when strict; writing all ones there
/// changes no present register (every generation; lax where a build exists:
/// the only lax build has 2 domains, so NV10/NV15, which have one, are
/// checked strict only). On the NV10 layout this includes 0x730/0x734 and
/// 0x738 before NV30 (N12), and every domain-1 address with one domain.
#[test]
fn decode_holes() {
    for gen in Gen::ALL {
        let domains = doms(gen, 2);
        let decodes: &[bool] = if domains == 2 { &[true, false] } else { &[true] };
        for &strict in decodes {
            let mut e = engine_decode(gen, domains, strict);
            let present = registers(gen, domains);
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

/// The NV10 layout's shared CTRL with only domain 0 configured: a DOM1 field
/// stores nothing and reads 0 (S8, design section 1), its DOM1 state bits
/// read 0 too; the DOM0 and both-domain fields store as with two domains.
/// Masks written out from seed 003 pcounter-ctrl-nv10: NV20 keeps TVOUT 1:0,
/// CTR_MODE 2, DOM0_EVENT_CTR_PERIOD 8; NV30 also DOM0_MODE 16.
#[test]
fn shared_ctrl_without_domain_1() {
    let ctrl = MMIO_BASE + 0x73c;
    // (generation, stored bits with one domain, DOM0 state bits)
    for (gen, rw, dom0_ro) in [(Gen::Nv20, 0x0000_0107, 0x0000_0018), (Gen::Nv30, 0x0001_0107, 0x0300_0018)] {
        let mut e = engine(gen, 1);
        for v in [0xffff_ffff, 0x0005_0307, 0x0000_0200, 0x0004_0000] {
            write(&mut e, ctrl, v);
            let got = read(&mut e, ctrl) & !dom0_ro;
            assert_eq!(got, v & rw, "CTRL on {} with 1 domain: wrote {v:#010x}", gen.name());
        }
    }
}
