//! Tests of the GF100 top through its APB port, with the scripts' timing
//! (README: `write`/`read` = SETUP + ACCESS; `set` and `pmc_enable` hold
//! from the next clock). Every expected value is worked out by hand from
//! docs/design/gf100.md (section and line cited per case).

use rstest::rstest;

use super::regs::{self as gr, GF_NUM_DOM_REGS, GF_NUM_MAIN_REGS, GF_NUM_SET_REGS};
use super::{Gf100Pcounter, GfBusOp, GfConfig, GfCycleInputs};
use crate::common::bus::BusResult;
use crate::pcnt::domain::Signals;

const WINDOW: u32 = 0x18_0000;

/// A little bus master: SETUP then ACCESS cycles until PREADY.
struct Drv {
    top: Gf100Pcounter,
    sig: Vec<Signals>,
    ticks: u64,
    pmc: bool,
    /// Cycles run so far (the next clock is cycle `cycle`).
    cycle: u64,
}

impl Drv {
    /// `preset` out of reset, PMC.ENABLE input 1, every domain ticking;
    /// cycle 0 runs with `pmc_en` 0 (S25.14), so cycle 1 is the first to run.
    fn new(preset: &str, strict: bool) -> Drv {
        let cfg = GfConfig { strict_decode: strict, ..GfConfig::preset(preset).unwrap() };
        let n = cfg.num_domains();
        let mut d =
            Drv { top: Gf100Pcounter::new(cfg).unwrap(), sig: vec![Signals::ZERO; n], ticks: !0, pmc: true, cycle: 0 };
        d.clock(None);
        d
    }

    fn clock(&mut self, bus: Option<GfBusOp>) -> BusResult {
        let inp = GfCycleInputs { sig: &self.sig, bus, ticks: self.ticks, pmc_enable: self.pmc };
        let r = self.top.step(&inp);
        self.cycle += 1;
        r
    }

    fn access(&mut self, op: GfBusOp) -> BusResult {
        assert_eq!(self.clock(None), BusResult::default(), "SETUP: PRDATA 0, no PSLVERR");
        for _ in 0..64 {
            let r = self.clock(Some(op));
            if r.ready {
                return r;
            }
            assert_eq!((r.rdata, r.slverr), (0, false), "waiting ACCESS cycle");
        }
        panic!("no PREADY in 64 ACCESS cycles");
    }

    fn write(&mut self, addr: u32, data: u32) -> BusResult {
        self.access(GfBusOp::Write { paddr: addr - WINDOW, data, strb: 0xf })
    }

    /// A read that must complete without PSLVERR; its PRDATA.
    fn read(&mut self, addr: u32) -> u32 {
        let r = self.access(GfBusOp::Read { paddr: addr - WINDOW });
        assert!(!r.slverr, "read {addr:#x}: PSLVERR");
        r.rdata
    }

    fn wait(&mut self, n: u64) {
        for _ in 0..n {
            self.clock(None);
        }
    }

    /// The views of this cycle (S25.0).
    fn views(&self) -> (Vec<[u32; GF_NUM_DOM_REGS]>, Vec<[u32; GF_NUM_SET_REGS]>, [u32; GF_NUM_MAIN_REGS]) {
        let mut dom = vec![[0; GF_NUM_DOM_REGS]; self.sig.len()];
        let mut set = vec![[0; GF_NUM_SET_REGS]; self.top.set_ctrl.len()];
        let mut main = [0; GF_NUM_MAIN_REGS];
        let inp = GfCycleInputs { sig: &self.sig, bus: None, ticks: self.ticks, pmc_enable: self.pmc };
        self.top.view(&inp, &mut dom, &mut set, &mut main);
        (dom, set, main)
    }
}

/// (a) docs/design/gf100.md 3.8 `gf100_driver_perfctr.pcs`: nouveau's
/// perfdom init (four slots), workload, sample, read, then PMC off/on;
/// every expected value is the script's (3.8 "Arithmetic").
#[rstest]
#[case::fermi("fermi")]
#[case::kepler("kepler")]
fn gf100_driver_perfctr(#[case] preset: &str) {
    let mut d = Drv::new(preset, true);
    let t0 = d.cycle + 1;
    for (src, slot) in [(0x180040, 0x40), (0x180048, 0x41), (0x180050, 0x42), (0x180058, 0x43)] {
        d.write(0x18009c, 0x0004_0002);
        d.write(0x180100, 0);
        d.write(src, slot);
        d.write(src + 4, 0xaaaa);
    }
    d.write(0x18006c, 0xc7);
    let w = d.cycle + 1;
    d.write(0x1800ec, 0x11);
    assert_eq!(w, t0 + 34, "W = T0 + 34");
    assert_eq!(d.read(0x180070), 34, "CTR_CYCLES of the first period (ticks T0+1..W)");
    assert_eq!(d.read(0x1800ec), 0x10, "USER_0 back to 0, PULSE_0 stored (S25.7)");
    assert_eq!(d.cycle, w + 5);
    for s in 0x40..=0x43 {
        d.sig[0].set(s, true);
    }
    for (sig, n) in [(0x43, 7), (0x42, 13), (0x41, 30), (0x40, 50)] {
        d.wait(n);
        d.sig[0].set(sig, false);
    }
    d.wait(100);
    d.write(0x18006c, 0xc7);
    let w2 = d.cycle + 1;
    d.write(0x1800ec, 0x11);
    assert_eq!(w2, w + 208);
    for (slot, want) in [(0x18008c, 100), (0x180088, 50), (0x180080, 20), (0x180090, 7)] {
        assert_eq!(d.read(slot), want, "slot register {slot:#x}");
        assert_eq!(d.read(0x180070), 208, "CTR_CYCLES after {slot:#x}");
    }
    assert_eq!(d.read(0x18009c), 0x0304_0002, "QUAD_STATE OVERFLOW, SINGLE_STATE 0");
    assert_eq!(d.cycle + 1, w + 228, "CTR_CYCLES_NEXT read's ACCESS at W+228");
    assert_eq!(d.read(0x1800bc), 19, "CTR_CYCLES_NEXT: ticks W+209..W+227");
    // pmc_enable 0: input 0 from t; the read's ACCESS t+1 is disabled.
    d.pmc = false;
    let r = d.access(GfBusOp::Read { paddr: 0x70 });
    assert_eq!((r.rdata, r.slverr, r.ready), (0, true, true), "disabled: PRDATA 0, PSLVERR (strict)");
    d.pmc = true;
    assert_eq!(d.read(0x18009c), 0, "HALTED, QUAD_STATE EMPTY after the PMC reset (S25.13)");
    assert_eq!(d.read(0x180080), 0, "CTR_EVENT cleared");
}

/// (e) decode and PSLVERR (S25.0; docs/design/gf100.md 1.1, S8).
/// `op`: MMIO address, write data or None for a read, strobe.
#[rstest]
// GPC unit 2 of a 2-GPC preset (0x182000 = PADDR 0x2000), read and write.
#[case::absent_gpc_read("fermi", true, 0x18_2000, None, 0xf, true)]
#[case::absent_gpc_write("fermi", true, 0x18_209c, Some(2), 0xf, true)]
#[case::absent_part("fermi", true, 0x1a_209c, None, 0xf, true)]
#[case::absent_gpc_dset("fermi", true, 0x1b_8400, None, 0xf, true)]
#[case::absent_part_dset("fermi", true, 0x1b_c400, Some(0x10), 0xf, true)]
#[case::part_dset1("fermi", true, 0x1b_c200, None, 0xf, false)]
// Domain 1 of a GPC of one domain (PADDR 0x200).
#[case::absent_dom("fermi", true, 0x18_0200, None, 0xf, true)]
#[case::kepler_dom2("kepler", true, 0x18_049c, None, 0xf, false)]
#[case::kepler_dom3("kepler", true, 0x18_0600, None, 0xf, true)]
// Holes inside a domain block, a set block, MAIN.
#[case::hole_dom("fermi", true, 0x18_0104, None, 0xf, true)]
#[case::hole_dom_f0("fermi", true, 0x18_00f0, Some(1), 0xf, true)]
#[case::hole_set("fermi", true, 0x1b_8004, None, 0xf, true)]
#[case::hole_main("fermi", true, 0x1b_4000, None, 0xf, true)]
// Zero registers: present, read 0, a write stores nothing, no PSLVERR (S25.16, D1).
#[case::zero_unk0b4("fermi", true, 0x18_00b4, None, 0xf, false)]
#[case::zero_sig_status_hi("fermi", true, 0x18_0020, None, 0xf, false)]
#[case::zero_write("fermi", true, 0x18_00c0, Some(5), 0xf, false)]
#[case::zero_dset_vstatus("fermi", true, 0x1b_8010, None, 0xf, false)]
#[case::zero_main_count("fermi", true, 0x1b_4084, None, 0xf, false)]
// HUB_* without a hub set (fermi); present on kepler.
#[case::hub_dset_fermi("fermi", true, 0x1b_e000, None, 0xf, true)]
#[case::hub_dset_fermi_write("fermi", true, 0x1b_e000, Some(0x10), 0xf, true)]
#[case::hub_dom_fermi("fermi", true, 0x1b_0000, None, 0xf, true)]
#[case::hub_dset_kepler("kepler", true, 0x1b_e000, None, 0xf, false)]
#[case::hub_dom7_kepler("kepler", true, 0x1b_0e9c, None, 0xf, false)]
// Partial strobe on a write (S0), also on DSET and MAIN.
#[case::partial_strobe("fermi", true, 0x18_009c, Some(2), 0x7, true)]
#[case::partial_strobe_dset("fermi", true, 0x1b_8000, Some(0x10), 0x1, true)]
#[case::partial_strobe_main("fermi", true, 0x1b_4074, Some(0x100), 0xe, true)]
// StrictDecode = 0: refused silently.
#[case::lax_absent_dom("fermi", false, 0x18_0200, None, 0xf, false)]
#[case::lax_partial("fermi", false, 0x18_009c, Some(2), 0x7, false)]
fn gf100_decode(
    #[case] preset: &str,
    #[case] strict: bool,
    #[case] addr: u32,
    #[case] data: Option<u32>,
    #[case] strb: u8,
    #[case] want_slverr: bool,
) {
    let mut d = Drv::new(preset, strict);
    let paddr = addr - WINDOW;
    let op = match data {
        Some(data) => GfBusOp::Write { paddr, data, strb },
        None => GfBusOp::Read { paddr },
    };
    let r = d.access(op);
    assert_eq!((r.rdata, r.slverr, r.ready), (0, want_slverr, true), "PRDATA 0, PSLVERR, PREADY");
    // A refused or ignored write changed nothing: every view word still 0
    // but PAUSED (B+0x2c, every domain HALTED, S25.11) in the last signal word.
    let (dom, set, main) = d.views();
    for (i, v) in dom.iter().enumerate() {
        let last = usize::from(d.top.config().place(i).unwrap().sig_count) / 32 - 1;
        for (idx, &x) in v.iter().enumerate() {
            let want = if idx == gr::SIG_STATUS + last { 1 << 12 } else { 0 };
            assert_eq!(x, want, "domain {i} view word {idx}");
        }
    }
    assert!(set.iter().all(|s| *s == [0; GF_NUM_SET_REGS]) && main == [0; GF_NUM_MAIN_REGS]);
}

// Decision 1, S15: a domain write completes in the first ACCESS cycle in
// which that domain ticks; DSET and MAIN writes never wait.
#[test]
fn gf100_write_waits_for_tick() {
    let mut d = Drv::new("fermi", true);
    d.ticks = !1; // flat domain 0 stopped
    let c = d.cycle;
    d.write(0x1b8000, 0x10);
    assert_eq!(d.cycle, c + 2, "DSET write: no wait state");
    d.write(0x1b4074, 0x10);
    assert_eq!(d.cycle, c + 4, "MAIN write: no wait state");
    assert_eq!(d.read(0x18009c), 0, "a domain read: no wait state");
    assert_eq!(d.cycle, c + 6);
    let op = GfBusOp::Write { paddr: 0x9c, data: 2, strb: 0xf };
    d.clock(None);
    for _ in 0..3 {
        assert_eq!(d.clock(Some(op)), BusResult { rdata: 0, slverr: false, ready: false });
    }
    d.ticks = !0;
    assert!(d.clock(Some(op)).ready);
    assert_eq!(d.read(0x18009c), 2);
    assert_eq!(d.read(0x1b8000), 0x10);
}

/// (f) S25.12, S25.9: imports stay inside a set. kepler: GPC0 = flat
/// 0..2, GPC1 = flat 3..5 (0xe0, 0x20, 0x20 signals). GPC0 domain 1 gets
/// EVENT_OP 0xffff: its EVENT signal is 1 two ticks after the write's tick,
/// and GPC0 domain 0 sees it (CONTINUOUS, two more stages) at DOM[1].EVENT
/// = B+0x36 = 0xd6 (SIG_STATUS[6] bit 22). GPC1 domain 0 has the same
/// position and must see 0; GPC1 domain 1 (0x20 signals, B = -0x20) has
/// its own DOM[1].EVENT at 0x16 (SIG_STATUS[0] bit 22), also 0.
#[test]
fn gf100_imports_stay_in_set() {
    let mut d = Drv::new("kepler", true);
    let a = d.cycle + 1;
    d.write(0x180254, 0xffff); // GPC0 domain 1 EVENT_OP, ACCESS a
    let dom1 = |d: &Drv| d.views().0[0][gr::SIG_STATUS + 6] >> 22 & 1;
    // EVENT signal 1 from a+2, stage 1 from a+3, stage 2 (seen) from a+4.
    assert_eq!(d.cycle, a + 1);
    d.wait(2);
    assert_eq!(dom1(&d), 0, "not yet at a+3");
    d.wait(1);
    assert_eq!(dom1(&d), 1, "GPC0 domain 0 sees DOM[1].EVENT from a+4");
    d.wait(10);
    let (dom, _, _) = d.views();
    assert_eq!(dom[0][gr::SIG_STATUS + 6] >> 16, 1 << 6, "GPC0 dom 0: DOM[1].EVENT only");
    assert_eq!(dom[3][gr::SIG_STATUS + 6] >> 16, 0, "GPC1 dom 0: nothing from GPC0");
    assert_eq!(dom[4][gr::SIG_STATUS] >> 16, 0, "GPC1 dom 1: nothing from GPC0");
    assert_eq!(dom[2][gr::SIG_STATUS] >> 16, 1 << 6, "GPC0 dom 2 sees it at 0x16");
    assert_eq!(d.read(0x181018) >> 22 & 1, 0, "GPC1 dom 0 SIG_STATUS[6] by the bus");
    assert_eq!(d.read(0x180018) >> 22 & 1, 1, "GPC0 dom 0 SIG_STATUS[6] by the bus");
}

/// (g) S25.12, S18, S20: DSET CTRL.PERIODIC_RESET holds only its own set's
/// PERIODIC generators. fermi: GPC0 = flat 0, GPC1 = flat 1.
#[test]
fn gf100_dset_periodic_reset() {
    let mut d = Drv::new("fermi", true);
    assert_eq!(d.write(0x1b8000, 0xffff_ffff), BusResult::default(), "GPC_DSET[0] CTRL, ACCESS 2");
    d.write(0x18009c, 1 << 21); // GPC0 domain CTRL PERIODIC_PERIOD 1, ACCESS 4
    d.write(0x18109c, 1 << 21); // GPC1 domain, ACCESS 6
    assert_eq!(d.cycle, 7);
    d.wait(100); // cycles 7..106
    assert_eq!(d.top.domains[1].engine.periodic_cnt, 100, "GPC1 counts ticks 7..106");
    assert_eq!(d.top.domains[0].engine.periodic_cnt, 0, "GPC0 held by its set's reset");
    assert_eq!(d.read(0x1b8000), 0xa000_0031, "DSET CTRL stored mask");
    assert_eq!(d.read(0x1b8200), 0, "GPC_DSET[1] untouched");
    // Release at ACCESS 112: that tick still sees the reset (S20).
    d.write(0x1b8000, 0);
    assert_eq!(d.top.domains[0].engine.periodic_cnt, 0);
    d.wait(0x3ff - 1);
    // P = 0x400 (S18): counted 0x3ff ticks 111..0x3ff+110; the next wraps.
    assert_eq!(d.top.domains[0].engine.periodic_cnt, 0x3ff - 1);
    d.wait(1);
    assert_eq!(d.top.domains[0].engine.periodic_cnt, 0x3ff);
    d.wait(1);
    assert_eq!(d.views().0[0][gr::SIG_STATUS + 6] >> 14 & 1, 1, "PERIODIC at B+0x2e = 0xce");
}

/// (h) S25.13, S25.14: PMC disabled reads 0 with PSLVERR (strict) or without
/// (lax), the views are 0, and everything is reset after it.
#[rstest]
#[case::strict(true)]
#[case::lax(false)]
fn gf100_pmc_disable(#[case] strict: bool) {
    let mut d = Drv::new("kepler", strict);
    d.write(0x18009c, 0x0004_0002); // GPC0 dom 0: QUAD
    d.write(0x1b8000, 0x10); // GPC_DSET[0]
    d.write(0x1be000, 0x8000_0000); // HUB_DSET
    d.write(0x1b4074, 0x1234_5678); // MAIN RECORD_START
    d.write(0x180080, 5); // a write to a read-only counter stores nothing
    d.wait(5);
    assert_eq!(d.read(0x1b4080), 0x1234_5670, "RECORD_POS reads RECORD_START's 31:4 (S25.15)");
    assert!(d.read(0x1800bc) > 0, "the cycles shadow runs");
    d.pmc = false; // input 0 from cycle t
    d.clock(None); // t: still enabled, state at t+1 = reset
    assert!(!d.top.pmc_en);
    let (dom, set, main) = d.views();
    assert!(dom.iter().all(|v| v.iter().all(|&x| x == 0)), "every view word 0 while disabled");
    assert!(set.iter().all(|v| *v == [0; GF_NUM_SET_REGS]) && main == [0; GF_NUM_MAIN_REGS]);
    let w = d.access(GfBusOp::Write { paddr: 0x9c, data: 2, strb: 0xf });
    assert_eq!((w.rdata, w.slverr, w.ready), (0, strict, true), "write while disabled: at once, no effect");
    let r = d.access(GfBusOp::Read { paddr: 0x3_4074 });
    assert_eq!((r.rdata, r.slverr, r.ready), (0, strict, true), "read while disabled");
    d.pmc = true;
    d.clock(None); // pmc_en 1 from the next cycle, state still reset
    assert_eq!(d.read(0x18009c), 0, "HALTED after the PMC reset");
    assert_eq!(d.read(0x1800bc), 0, "shadows cleared");
    assert_eq!(d.read(0x1b8000), 0, "DSET CTRL cleared");
    assert_eq!(d.read(0x1be000), 0, "HUB_DSET CTRL cleared");
    assert_eq!(d.read(0x1b4074), 0, "MAIN cleared");
}

// S25.14: an input rising in cycle t gives the reset state in t+1 too: a
// write in the first enabled cycle (pmc_en 1, input 0) is lost.
#[test]
fn gf100_pmc_last_enabled_cycle_write_lost() {
    let mut d = Drv::new("fermi", true);
    d.clock(None);
    d.pmc = false;
    let r = d.clock(Some(GfBusOp::Write { paddr: 0x9c, data: 2, strb: 0xf }));
    assert_eq!(r, BusResult::default(), "completes (pmc_en still 1)");
    d.pmc = true;
    d.clock(None);
    assert_eq!(d.read(0x18009c), 0, "the write of the cycle with input 0 is reset away");
}

// S25.15: MAIN masks; RECORD_POS reads RECORD_START; writes to RECORD_POS /
// COUNT store nothing.
#[rstest]
#[case::chan(0x1b4070, 0xffff_ffff, 0xbfff_ffff)]
#[case::start(0x1b4074, 0xffff_ffff, 0xffff_fff0)]
#[case::addr_high(0x1b4078, 0xffff_ffff, 0xff)]
#[case::limit(0x1b407c, 0x1234_5678, 0x1234_5670)]
#[case::pos(0x1b4080, 0xffff_ffff, 0)]
#[case::count(0x1b4084, 0xffff_ffff, 0)]
fn gf100_main_storage(#[case] addr: u32, #[case] data: u32, #[case] want: u32) {
    let mut d = Drv::new("fermi", true);
    assert_eq!(d.write(addr, data), BusResult::default());
    assert_eq!(d.read(addr), want);
    let start = d.read(0x1b4074);
    assert_eq!(d.read(0x1b4080), start, "RECORD_POS = RECORD_START");
}
