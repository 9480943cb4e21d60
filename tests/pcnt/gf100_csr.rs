//! GF100's CSR targets (tests/csr.rs runs the shared suite on them: reset
//! values of every present block, writes to one domain of each set kind,
//! every set block and MAIN) and its own CSR tests, for both presets
//! (`fermi`: 2 GPC + 2 PART sets of one domain, no hub; `kepler`: 2 x 3 GPC
//! domains, 2 x 2 PART domains, 8 hub domains; S25.18), docs/semantics.md
//! S25. Every access runs through `GfLockstep`, which compares the RTL with
//! the model on every cycle (views, PRDATA, PSLVERR, PREADY); a mismatch
//! fails the test with its report. The expectations are the generated masks
//! of `pcounter::pcnt::gf100::regs` (checked against the design's hand table in
//! `gf100_seed_regs.rs`) plus the S25 rules, never the model's answer.
//!
//! - reset values (shared hw_reset): stored bits 0, CTRL 0 (HALTED, S25.1),
//!   SIG_STATUS shows only the PAUSED trailer signal (S25.11; S8, S25.13);
//! - dom_writes_store_nothing: read-only, counter, init, trigger and zero
//!   registers of one domain of every set kind: a write changes no register
//!   anywhere (S8, S25.0, S25.5, S25.16);
//! - dom_holes_and_strobe: every hole of that domain block answers PSLVERR
//!   with PRDATA 0, and so does a partial-strobe write (S0, S25.0, S25.17);
//! - dom_shadows_hold_while_halted: the NEXT shadows read back what was
//!   written while the domain is HALTED (S25.4);
//! - dom_storage_rules: the stored registers of a domain, CTRL's hand mask
//!   0x8cfdffff (S25.2), nouveau's USER_TRIGGER 0x11 (S25.7), PAUSED again
//!   after CTRL 0 (S25.11);
//! - sets_and_main: DSET CTRL mask 0xa0000031 (S25.12), the MAIN RECORD_*
//!   masks, RECORD_POS = RECORD_START & 0xfffffff0, RECORD_COUNT and
//!   VSTATUS 0 (S25.15, S25.16), every hole;
//! - absent_units_and_domains: a GPC/PART index = the unit count, a domain
//!   index = the set's size, the HUB on fermi, absent DSETs: PSLVERR,
//!   PRDATA 0, no effect (S25.0 strict decode, S8).

use pcounter::pcnt::gf100::config::{GfConfig, SetKind};
use pcounter::pcnt::gf100::regs::{self, field, GfBlock, GfKind, GfReg, GfUnit};
use pcounter::common::bus::BusResult;
use pcounter_sim::pcnt::gf100::lockstep::{GfLockstep, X_SEED};
use pcounter_sim::pcnt::script::Target;
use rstest::rstest;

/// First MMIO address of the window: PADDR 0 (S25.0, S25.17).
const WINDOW: u32 = 0x18_0000;
const ALL: u32 = 0xffff_ffff;

/// One register block: a domain (`dom` < 8), a domain set or MAIN.
#[derive(Clone, Copy, Debug)]
struct Block {
    unit: GfUnit,
    unit_idx: usize,
    dom: usize,
    /// The domain's SigCount (0 for set blocks and MAIN).
    sigs: u16,
}

impl Block {
    /// MMIO address of the block (S25.17 table "Window and units").
    fn addr(&self) -> u32 {
        WINDOW
            + self.unit.base()
            + self.unit_idx as u32 * self.unit.unit_stride()
            + self.dom as u32 * self.unit.dom_stride()
    }

    fn regs(&self) -> &'static [GfReg] {
        self.unit.regs()
    }

    fn reg_addr(&self, idx: usize) -> u32 {
        self.addr() + self.regs()[idx].offset
    }

    fn name(&self, idx: usize) -> String {
        format!(
            "{}[{}][{}].{} @{:#x}",
            self.unit.name(),
            self.unit_idx,
            self.dom,
            self.regs()[idx].name,
            self.reg_addr(idx)
        )
    }

    /// The register's value right after reset (S8, S25.13: every stored bit
    /// and every counter 0; S25.1: MODE 0 = HALTED, so CTRL reads 0 with no
    /// single or quad state). With every external signal 0 (the harness
    /// drives none) the only 1 in SIG_STATUS is PAUSED at B+0x2c, B =
    /// SigCount - 0x40 (S25.9, S25.11: 1 while MODE is HALTED); USER_0..3
    /// are 0 (S25.7), PERIODIC 0 (PERIODIC_PERIOD 0 holds the generator,
    /// S18), every EVENT/FLAG 0 (logic functions 0 select nothing, S10, S3,
    /// S4). SIG_STATUS words past SigCount read 0 (S9). STATE and
    /// SRC_STATUS show selections of signal 0, an external input at 0
    /// (S25.6, S25.10).
    fn reset_value(&self, idx: usize) -> u32 {
        if self.unit.block() != GfBlock::Dom
            || !(regs::SIG_STATUS..regs::SIG_STATUS + regs::SIG_STATUS_COUNT).contains(&idx)
        {
            return 0;
        }
        // B + 0x2c = SigCount - 0x14 (>= 0x0c: SigCount >= 0x20).
        let paused = u32::from(self.sigs) - 0x14;
        if (idx - regs::SIG_STATUS) as u32 == paused / 32 {
            1 << (paused % 32)
        } else {
            0
        }
    }
}

fn dom_unit(kind: SetKind) -> GfUnit {
    match kind {
        SetKind::Gpc => GfUnit::GpcDom,
        SetKind::Part => GfUnit::PartDom,
        SetKind::Hub => GfUnit::HubDom,
    }
}

fn set_unit(kind: SetKind) -> GfUnit {
    match kind {
        SetKind::Gpc => GfUnit::GpcDset,
        SetKind::Part => GfUnit::PartDset,
        SetKind::Hub => GfUnit::HubDset,
    }
}

const KINDS: [SetKind; 3] = [SetKind::Gpc, SetKind::Part, SetKind::Hub];

/// The block of flat domain `dom`; its address is checked against
/// `GfConfig::dom_addr` (two derivations of S25.17's table).
fn dom_block(cfg: &GfConfig, dom: usize) -> Block {
    let p = cfg.place(dom).expect("flat domain in range");
    let b = Block { unit: dom_unit(p.kind), unit_idx: p.unit, dom: p.idx, sigs: p.sig_count };
    assert_eq!(Some(b.addr()), cfg.dom_addr(dom), "flat domain {dom}: block address");
    b
}

/// Every present block of the configuration: domains in flat order, the
/// sets (GPC, PART, hub if present; S25.18), MAIN.
fn present_blocks(cfg: &GfConfig) -> Vec<Block> {
    let mut v: Vec<Block> = (0..cfg.num_domains()).map(|d| dom_block(cfg, d)).collect();
    for kind in KINDS {
        v.extend((0..cfg.units(kind)).map(|u| Block { unit: set_unit(kind), unit_idx: u, dom: 0, sigs: 0 }));
    }
    v.push(Block { unit: GfUnit::Main, unit_idx: 0, dom: 0, sigs: 0 });
    assert_eq!(v.iter().filter(|b| b.unit.block() == GfBlock::Set).count(), cfg.num_sets());
    v
}

/// The domain a per-kind test works on: the last domain of the last unit
/// of `kind` (so both strides are exercised).
fn chosen_domain(cfg: &GfConfig, kind: SetKind) -> Block {
    let units = cfg.units(kind);
    let size = cfg.set_sigs(kind).len();
    assert!(units > 0 && size > 0, "{kind:?} set absent in this preset");
    dom_block(cfg, cfg.flat(kind, units - 1, size - 1).unwrap())
}

struct Bench {
    e: GfLockstep,
    cfg: GfConfig,
}

impl Bench {
    /// Lockstep from reset; the first access starts in cycle 0. PMC.ENABLE
    /// is 1 from the start, so `pmc_en_q` is 1 in cycle 1, the first ACCESS
    /// cycle (S25.14): no idle clocks are needed before the first access.
    fn new(preset: &str) -> Bench {
        let e = GfLockstep::new(preset, true, None, &[], X_SEED).unwrap_or_else(|err| panic!("{preset}: {err}"));
        let cfg = e.cfg.clone();
        Bench { e, cfg }
    }

    fn bus_read(&mut self, addr: u32) -> BusResult {
        self.e.read(addr).unwrap_or_else(|m| panic!("lockstep mismatch reading {addr:#x}:\n{m}"))
    }

    fn bus_write(&mut self, addr: u32, data: u32, strb: u8) -> BusResult {
        self.e.write(addr, data, strb).unwrap_or_else(|m| panic!("lockstep mismatch writing {addr:#x}:\n{m}"))
    }

    /// A read of a present register: no PSLVERR (S25.0).
    fn read(&mut self, addr: u32, what: &str) -> u32 {
        let r = self.bus_read(addr);
        assert!(!r.slverr, "{what}: PSLVERR on a read of a present register");
        r.rdata
    }

    /// A full-strobe write of a present register: no PSLVERR, also for
    /// read-only and zero registers (S25.0).
    fn write(&mut self, addr: u32, data: u32, what: &str) {
        let r = self.bus_write(addr, data, 0xf);
        assert!(!r.slverr, "{what}: PSLVERR on a write of {data:#010x} to a present register");
    }

    /// An address strict decode refuses (S25.0, S8): a read answers PSLVERR
    /// with PRDATA 0, a write PSLVERR.
    fn refused(&mut self, addr: u32, what: &str) {
        let r = self.bus_read(addr);
        assert_eq!((r.rdata, r.slverr), (0, true), "{what} @{addr:#x}: read (PRDATA, PSLVERR)");
        let w = self.bus_write(addr, ALL, 0xf);
        assert!(w.slverr, "{what} @{addr:#x}: a write answered without PSLVERR");
    }

    fn check_block_reset(&mut self, b: &Block, when: &str) {
        for idx in 0..b.regs().len() {
            let got = self.read(b.reg_addr(idx), &b.name(idx));
            assert_eq!(got, b.reset_value(idx), "{} {when} (S8, S25.11, S25.13)", b.name(idx));
        }
    }

    /// Every present register of the configuration reads its reset value.
    fn check_all_reset(&mut self, when: &str) {
        for b in present_blocks(&self.cfg) {
            self.check_block_reset(&b, when);
        }
    }
}

/// USER_TRIGGER after a write of `v` (S25.7): PULSE reads back; VAL reads
/// the USER signals, which a pulse clears one tick after the write, long
/// before the read.
fn user_trigger_back(v: u32) -> u32 {
    let (val, pulse) = (field::USER_TRIGGER_VAL, field::USER_TRIGGER_PULSE);
    let p = pulse.get(v);
    pulse.set(0, p) | val.set(0, val.get(v) & !p)
}

/// The shared suite's view of a block's registers. Every stored bit, and
/// so every register, resets to the block's `reset_value`. Reads are
/// compared whole, CTRL's state bits included: with every external signal
/// at 0 no write begins a single process or swaps (S25.3, S25.5), so they
/// stay 0. The NEXT shadows, which move in QUAD, are checked by
/// `dom_shadows_hold_while_halted` instead.
fn csr_regs(b: &Block) -> Vec<crate::CsrReg> {
    b.regs()
        .iter()
        .enumerate()
        .map(|(idx, r)| {
            let back = match r.kind {
                GfKind::Storage if idx == regs::USER_TRIGGER && b.unit.block() == GfBlock::Dom => {
                    let (val, pulse) = (field::USER_TRIGGER_VAL, field::USER_TRIGGER_PULSE);
                    assert_eq!(val.mask() | pulse.mask(), r.store_mask, "USER_TRIGGER = VAL | PULSE (S25.7)");
                    crate::Back::Rule(user_trigger_back)
                }
                GfKind::Storage => crate::Back::Stored,
                GfKind::Trigger | GfKind::Zero => crate::Back::Zero,
                GfKind::Status | GfKind::Counter | GfKind::Init | GfKind::Shadow => crate::Back::State,
            };
            let mask = if r.kind == GfKind::Storage { r.store_mask } else { 0 };
            crate::CsrReg {
                name: b.name(idx),
                row: r.name,
                index: None,
                addr: b.reg_addr(idx),
                reset: b.reset_value(idx),
                back,
                mask,
                state: 0,
                acts: 0,
                cite: "S8, S25.13, S25.17",
            }
        })
        .collect()
}

impl crate::Bus for GfLockstep {
    fn read(&mut self, addr: u32) -> u32 {
        let r = Target::read(self, addr).unwrap_or_else(|m| panic!("lockstep mismatch reading {addr:#x}:\n{m}"));
        assert!(!r.slverr, "{addr:#x}: PSLVERR on a read of a present register");
        r.rdata
    }
    fn write(&mut self, addr: u32, data: u32) {
        let r = Target::write(self, addr, data, 0xf)
            .unwrap_or_else(|m| panic!("lockstep mismatch writing {addr:#x}:\n{m}"));
        assert!(!r.slverr, "{addr:#x}: PSLVERR on a write of a present register");
    }
}

/// Per preset: the reset values of every present block; the write tests on
/// the last domain of each set kind (`chosen_domain`), every set block and
/// MAIN.
pub fn targets() -> Vec<crate::Target> {
    let mut v = Vec::new();
    for preset in ["fermi", "kepler"] {
        let cfg = GfConfig::preset(preset).unwrap();
        let all = present_blocks(&cfg);
        let mut written: Vec<Block> = KINDS
            .into_iter()
            .filter(|&k| cfg.units(k) > 0 && !cfg.set_sigs(k).is_empty())
            .map(|k| chosen_domain(&cfg, k))
            .collect();
        written.extend(all.iter().copied().filter(|b| b.unit.block() != GfBlock::Dom));
        for (blocks, reset_only, what) in
            [(all, true, "every block"), (written, false, "one domain per kind, sets, MAIN")]
        {
            v.push(crate::Target {
                device: "pcnt",
                label: format!("GF100 {preset} ({what})"),
                regs: blocks.iter().flat_map(csr_regs).collect(),
                open: Box::new(move |x_seed| Box::new(GfLockstep::new(preset, true, None, &[], x_seed).unwrap())),
                after_write: crate::unchanged,
                reset_only,
            });
        }
    }
    v
}

fn preset_kind(preset: &str, kind: SetKind) -> (Bench, Block) {
    let bench = Bench::new(preset);
    let b = chosen_domain(&bench.cfg, kind);
    (bench, b)
}

// ------------------------------------------------------------------ domains

/// Registers whose write stores nothing a read returns: ro status and
/// counters (S8), CTR_PRE/CTR_STOP (a read returns the counter, a write sets
/// only the hidden initial value: S25.5), the triggers (act outside SINGLE
/// on nothing, read 0: S25.5, S17 with QUAD_STATE EMPTY), zero registers
/// (S25.16, S25.4 CTR_CYCLES_NEXT_HIGH, S25.15 CTR_RECORD_STOP_NEXT) and
/// CTR_CYCLES_NEXT_RO (S25.4: no write effect).
#[rstest]
#[case::fermi_gpc("fermi", SetKind::Gpc)]
#[case::fermi_part("fermi", SetKind::Part)]
#[case::kepler_gpc("kepler", SetKind::Gpc)]
#[case::kepler_part("kepler", SetKind::Part)]
#[case::kepler_hub("kepler", SetKind::Hub)]
fn dom_writes_store_nothing(#[case] preset: &str, #[case] kind: SetKind) {
    let (mut t, b) = preset_kind(preset, kind);
    let mut n = 0;
    for (idx, r) in b.regs().iter().enumerate() {
        let no_store = match r.kind {
            GfKind::Status | GfKind::Counter | GfKind::Init | GfKind::Trigger | GfKind::Zero => true,
            GfKind::Shadow => r.store_mask == 0,
            GfKind::Storage => false,
        };
        if !no_store {
            continue;
        }
        n += 1;
        let name = b.name(idx);
        let before = t.read(b.reg_addr(idx), &name);
        assert_eq!(before, b.reset_value(idx), "{name} on {preset} after reset");
        for v in [ALL, 0x5a5a_a5a5, 0] {
            t.write(b.reg_addr(idx), v, &name);
            let after = t.read(b.reg_addr(idx), &name);
            assert_eq!(after, before, "{name} on {preset}: changed by writing {v:#010x} (S8, S25.0)");
            if matches!(r.kind, GfKind::Trigger | GfKind::Zero) {
                assert_eq!(after, 0, "{name} on {preset}: triggers and zero registers read 0 (S25.5, S25.16)");
            }
        }
    }
    // 16 SIG_STATUS words (8 zero), SRC_STATUS, STATE, CTR_CYCLES/EVENT/START,
    // CTR_PRE/STOP, 3 triggers, 10 zero registers besides SIG_STATUS_HI
    // (0xb4, 0xb8, 0xc0, 0xc4, 0xc8, 0xcc..0xdc), UNK0E8 and
    // CTR_CYCLES_NEXT_RO (S25.17).
    assert_eq!(n, 16 + 2 + 3 + 2 + 3 + 10 + 1 + 1, "registers checked on {preset}");
    t.check_all_reset(&format!("on {preset} after writing every non-storing register of {}", b.unit.name()));
}

/// S25.17 "others: hole": 0xf0..0xfc and 0x104..0x1fc of a domain block.
fn dom_hole(off: u32) -> bool {
    (0xf0..=0xfc).contains(&off) || (0x104..=0x1fc).contains(&off)
}

#[rstest]
#[case::fermi_gpc("fermi", SetKind::Gpc)]
#[case::fermi_part("fermi", SetKind::Part)]
#[case::kepler_gpc("kepler", SetKind::Gpc)]
#[case::kepler_part("kepler", SetKind::Part)]
#[case::kepler_hub("kepler", SetKind::Hub)]
fn dom_holes_and_strobe(#[case] preset: &str, #[case] kind: SetKind) {
    let (mut t, b) = preset_kind(preset, kind);
    let holes: Vec<u32> = (0..0x200).step_by(4).filter(|o| dom_hole(*o)).collect();
    assert_eq!(holes.len(), 0x200 / 4 - regs::GF_NUM_DOM_REGS, "holes + registers = the block");
    for off in holes {
        t.refused(b.addr() + off, &format!("{} hole +{off:#x} on {preset}", b.unit.name()));
    }
    // PSTRB != 4'hf: refused with PSLVERR, nothing stored (S0, S25.0).
    for (idx, strb) in [(regs::FILTER, 0x7), (regs::CTRL, 0x1), (regs::USER_TRIGGER, 0xe)] {
        let name = b.name(idx);
        let w = t.bus_write(b.reg_addr(idx), ALL, strb);
        assert!(w.slverr, "{name}: a write with PSTRB {strb:#x} answered without PSLVERR");
    }
    t.check_all_reset(&format!("on {preset} after hole and partial-strobe writes in {}", b.unit.name()));
}

/// S25.4: a NEXT write sets the running shadow in every mode; outside QUAD
/// the shadows hold, so in HALTED (the reset mode, S25.1) the written value
/// reads back. CTR_CYCLES_NEXT_RO reads the cycles shadow; writing the other
/// shadows changes no other shadow.
#[rstest]
#[case::fermi_gpc("fermi", SetKind::Gpc)]
#[case::fermi_part("fermi", SetKind::Part)]
#[case::kepler_gpc("kepler", SetKind::Gpc)]
#[case::kepler_part("kepler", SetKind::Part)]
#[case::kepler_hub("kepler", SetKind::Hub)]
fn dom_shadows_hold_while_halted(#[case] preset: &str, #[case] kind: SetKind) {
    let (mut t, b) = preset_kind(preset, kind);
    let shadows: Vec<usize> =
        (0..b.regs().len()).filter(|&i| b.regs()[i].kind == GfKind::Shadow && b.regs()[i].store_mask != 0).collect();
    assert_eq!(
        shadows,
        [regs::CTR_EVENT_NEXT, regs::CTR_PRE_NEXT, regs::CTR_START_NEXT, regs::CTR_STOP_NEXT, regs::CTR_CYCLES_NEXT],
        "writable shadows (S25.4)"
    );
    for &idx in &shadows {
        let name = b.name(idx);
        for v in [ALL, 0x1234_5678, 0x8000_0001, 0] {
            t.write(b.reg_addr(idx), v, &name);
            for &other in shadows.iter().chain(&[regs::CTR_CYCLES_NEXT_RO]) {
                let want = if other == idx || (idx == regs::CTR_CYCLES_NEXT && other == regs::CTR_CYCLES_NEXT_RO) {
                    v & b.regs()[idx].store_mask
                } else {
                    0
                };
                let got = t.read(b.reg_addr(other), &b.name(other));
                assert_eq!(got, want, "{} on {preset} after writing {name} = {v:#010x} (S25.4)", b.name(other));
            }
        }
    }
    t.check_all_reset(&format!("on {preset} after the shadows of {} returned to 0", b.unit.name()));
}

/// The stored registers of a domain (the shared suite bit-bashes them and
/// checks aliasing): their list (S25.17), CTRL's stored mask written out by
/// hand from S25.2 (bits 17 and 30 read 0), nouveau's USER_TRIGGER 0x11
/// (USER_0 for one tick, reads 0x10, S25.7), and CTRL 0 brings PAUSED back
/// into SIG_STATUS (S25.11).
#[rstest]
#[case::fermi_gpc("fermi", SetKind::Gpc)]
#[case::kepler_part("kepler", SetKind::Part)]
#[case::kepler_hub("kepler", SetKind::Hub)]
fn dom_storage_rules(#[case] preset: &str, #[case] kind: SetKind) {
    let (mut t, b) = preset_kind(preset, kind);
    let stored: Vec<usize> = (0..b.regs().len()).filter(|&i| b.regs()[i].kind == GfKind::Storage).collect();
    // PRE/START/EVENT/STOP SRC+OP, SETFLAG_OP, CLRFLAG_OP, SWAP_SRC, UNK74,
    // UNK7C, UNK84, THRESHOLD, CTRL, USER_TRIGGER, FILTER (S25.17).
    assert_eq!(stored.len(), 8 + 2 + 1 + 3 + 1 + 1 + 1 + 1, "stored registers on {preset}");
    let (ctrl, user) = (b.reg_addr(regs::CTRL), b.reg_addr(regs::USER_TRIGGER));
    t.write(ctrl, ALL, "CTRL");
    assert_eq!(t.read(ctrl, "CTRL"), 0x8cfd_ffff, "CTRL all ones on {preset} (S25.2)");
    t.write(user, 0x11, "USER_TRIGGER");
    assert_eq!(t.read(user, "USER_TRIGGER"), 0x10, "USER_TRIGGER 0x11 on {preset} (S25.7)");
    t.write(user, 0, "USER_TRIGGER");
    t.write(ctrl, 0, "CTRL");
    let sig = regs::SIG_STATUS + (usize::from(b.sigs) - 0x14) / 32;
    let paused = b.reset_value(sig);
    assert_eq!(t.read(b.reg_addr(sig), &b.name(sig)) & paused, paused, "{}: PAUSED after CTRL 0 (S25.11)", b.name(sig));
}

// ------------------------------------------------------------------ sets and MAIN

/// S25.17: a set block decodes +0x00, +0x10, +0x14 (the GK104 SLCG +0x18 is
/// a hole); MAIN +0x70..+0x84 and +0xa4 (SLCG +0x124 a hole).
const SET_OFFSETS: [u32; 3] = [0x00, 0x10, 0x14];
const MAIN_OFFSETS: [u32; 7] = [0x70, 0x74, 0x78, 0x7c, 0x80, 0x84, 0xa4];

#[rstest]
#[case::fermi("fermi")]
#[case::kepler("kepler")]
fn sets_and_main(#[case] preset: &str) {
    let mut t = Bench::new(preset);
    let blocks: Vec<Block> = present_blocks(&t.cfg).into_iter().filter(|b| b.unit.block() != GfBlock::Dom).collect();
    let sets: Vec<Block> = blocks.iter().copied().filter(|b| b.unit.block() == GfBlock::Set).collect();
    for b in &blocks {
        for (idx, r) in b.regs().iter().enumerate() {
            let name = b.name(idx);
            match r.kind {
                GfKind::Storage => {
                    // The shared suite bit-bashes every stored register;
                    // here the hand masks and the cross-register rules.
                    for v in [ALL, 0x5a5a_a5a5, 0] {
                        t.write(b.reg_addr(idx), v, &name);
                        if b.unit.block() == GfBlock::Set {
                            // S25.12: DSET CTRL stores 0, 4, 5, 29, 31.
                            assert_eq!(t.read(b.reg_addr(idx), &name), v & 0xa000_0031, "{name} (S25.12)");
                            // Sets are independent (S25.12): no other set's CTRL moved.
                            for o in sets.iter().filter(|o| o.unit != b.unit || o.unit_idx != b.unit_idx) {
                                assert_eq!(
                                    t.read(o.reg_addr(regs::SET_CTRL), &o.name(regs::SET_CTRL)),
                                    0,
                                    "after {name}"
                                );
                            }
                        }
                        if idx == regs::MAIN_RECORD_START && b.unit == GfUnit::Main {
                            // S25.15: RECORD_POS reads RECORD_START's bits 31:4.
                            let pos = t.read(b.reg_addr(regs::MAIN_RECORD_POS), "RECORD_POS");
                            assert_eq!(pos, v & 0xffff_fff0, "RECORD_POS after RECORD_START = {v:#010x} (S25.15)");
                        }
                    }
                }
                GfKind::Zero | GfKind::Status => {
                    let before = t.read(b.reg_addr(idx), &name);
                    for v in [ALL, 0x5a5a_a5a5, 0] {
                        t.write(b.reg_addr(idx), v, &name);
                        assert_eq!(t.read(b.reg_addr(idx), &name), before, "{name} on {preset}: changed by {v:#010x}");
                    }
                    if r.kind == GfKind::Zero {
                        assert_eq!(before, 0, "{name} on {preset}: zero register (S25.16, S25.15)");
                    }
                }
                k => panic!("{name}: unexpected kind {k:?} in a set or MAIN block"),
            }
        }
    }
    // MAIN stored masks written out from S25.15 / S25.17.
    let main = *blocks.last().unwrap();
    for (idx, mask) in [
        (regs::MAIN_RECORD_CHAN, 0xbfff_ffff),
        (regs::MAIN_RECORD_START, 0xffff_fff0),
        (regs::MAIN_RECORD_ADDRESS_HIGH, 0xff),
        (regs::MAIN_RECORD_LIMIT, 0xffff_fff0),
    ] {
        t.write(main.reg_addr(idx), ALL, &main.name(idx));
        assert_eq!(t.read(main.reg_addr(idx), &main.name(idx)), mask, "{} (S25.15)", main.name(idx));
    }
    let pos = main.reg_addr(regs::MAIN_RECORD_POS);
    t.write(pos, 0, "RECORD_POS");
    assert_eq!(t.read(pos, "RECORD_POS"), 0xffff_fff0, "RECORD_POS is read-only (S25.15)");
    assert_eq!(t.read(main.reg_addr(regs::MAIN_RECORD_COUNT), "RECORD_COUNT"), 0, "RECORD_COUNT (S25.15)");
    // Holes of every set block and of MAIN's 0x4000 bytes (S25.17).
    for b in &sets {
        for off in (0..0x200).step_by(4).filter(|o| !SET_OFFSETS.contains(o)) {
            t.refused(b.addr() + off, &format!("{}[{}] hole +{off:#x} on {preset}", b.unit.name(), b.unit_idx));
        }
    }
    for off in (0..0x4000).step_by(4).filter(|o| !MAIN_OFFSETS.contains(o)) {
        t.refused(main.addr() + off, &format!("MAIN hole +{off:#x} on {preset}"));
    }
}

// ------------------------------------------------------------------ absent

/// S25.0 strict decode: a GPC or PART unit index >= the present units, a
/// domain index >= the set's size, every HUB_* address without a hub set:
/// PSLVERR, PRDATA 0, no effect, at every register offset of the block.
#[rstest]
#[case::fermi("fermi")]
#[case::kepler("kepler")]
fn absent_units_and_domains(#[case] preset: &str) {
    let mut t = Bench::new(preset);
    let cfg = t.cfg.clone();
    let blk = |unit, unit_idx, dom| Block { unit, unit_idx, dom, sigs: 0 };
    let mut absent = vec![
        blk(GfUnit::GpcDom, cfg.num_gpc, 0),
        blk(GfUnit::GpcDom, GfUnit::GpcDom.units() - 1, GfUnit::GpcDom.doms() - 1),
        blk(GfUnit::PartDom, cfg.num_part, 0),
        blk(GfUnit::PartDom, GfUnit::PartDom.units() - 1, 0),
        blk(GfUnit::GpcDset, cfg.num_gpc, 0),
        blk(GfUnit::PartDset, cfg.num_part, 0),
    ];
    for kind in KINDS {
        let size = cfg.set_sigs(kind).len();
        // Domain index = the set's size, in every unit of the kind that
        // exists (unit 0 of the hub even when the hub set is absent).
        for u in 0..cfg.units(kind).max(1) {
            absent.push(blk(dom_unit(kind), u, size));
        }
    }
    if cfg.hub_sigs.is_empty() {
        absent.push(blk(GfUnit::HubDom, 0, GfUnit::HubDom.doms() - 1));
        absent.push(blk(GfUnit::HubDset, 0, 0));
    }
    // fermi: 6 + 2 GPC + 2 PART domain-1 blocks + HUB_DOM[0] + HUB_DOM[7] +
    // HUB_DSET; kepler: 6 + 2 GPC domain-3 + 2 PART domain-2 + HUB_DOM[8].
    let want = if preset == "fermi" { 13 } else { 11 };
    assert_eq!(absent.len(), want, "absent blocks listed on {preset}");
    for b in &absent {
        for (idx, r) in b.regs().iter().enumerate() {
            let what = format!("absent {}[{}][{}] {} on {preset}", b.unit.name(), b.unit_idx, b.dom, r.name);
            t.refused(b.reg_addr(idx), &what);
        }
    }
    t.check_all_reset(&format!("on {preset} after writes to absent units and domains"));
}
