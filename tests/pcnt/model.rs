//! Table tests of the model against the seed (003_849838cf80f3218e.txt, "seed
//! 003") and docs/semantics.md (S1..). The same behaviour is checked against
//! the RTL in lockstep by tests/pcnt/lockstep.rs and the scripts in tests/scripts/.
//!
//! Timing convention here: `write`/`read` are one APB ACCESS cycle (the SETUP
//! cycle the harness adds is an idle cycle and is left out to keep cycle
//! arithmetic readable); `tick` is one idle cycle.

use bitvec::prelude::*;
use pcounter::pcnt::logic_op::{self, OpLayout};
use pcounter::pcnt::record::AxiIn;
use pcounter::pcnt::regs::{self, Gen, DOM_REGS};
use pcounter::{
    common::bus::BusOp, common::bus::BusResult, pcnt::config::Config, pcnt::domain::Signals, pcnt::domain::SingleState,
    pcnt::top::CycleInputs, pcnt::top::PcounterSet,
};
use rstest::rstest;

struct Tb {
    set: PcounterSet,
    sig: Vec<Signals>,
    pm_trigger: bool,
    wrcache_flush: bool,
    /// Clock enables of the next cycles (S15); all domains tick by default.
    ticks: u8,
    /// Record memory (S21): always ready, B after `b_delay` cycles, SLVERR
    /// when `slverr`; lines written, and (cycle, address) of every beat.
    mem: std::collections::BTreeMap<u64, u128>,
    beats: Vec<u64>,
    b_delay: u32,
    b_wait: u32,
    slverr: bool,
}

impl Tb {
    fn new(gen: Gen, domains: usize) -> Tb {
        Tb::with_config(Config::new(gen, domains).unwrap())
    }
    fn with_config(cfg: Config) -> Tb {
        let domains = cfg.num_domains;
        Tb {
            set: PcounterSet::new(cfg).unwrap(),
            sig: vec![BitArray::ZERO; domains],
            pm_trigger: false,
            wrcache_flush: false,
            ticks: 0xff,
            mem: Default::default(),
            beats: Vec::new(),
            b_delay: 0,
            b_wait: 0,
            slverr: false,
        }
    }
    fn cycle(&mut self, bus: Option<BusOp>) -> BusResult {
        let o = self.set.axi_out();
        let axi = AxiIn {
            awready: true,
            wready: true,
            bvalid: o.bready && self.b_wait == 0,
            bresp: if self.slverr { 2 } else { 0 },
        };
        if o.awvalid {
            assert!(o.wvalid, "AW and W go out together (S21)");
            assert_eq!((o.awlen, o.awsize, o.awburst, o.wstrb, o.wlast), (0, 4, 1, 0xffff, true));
            self.mem.insert(o.awaddr, o.wdata);
            self.beats.push(o.awaddr);
            self.b_wait = self.b_delay;
        } else if o.bready {
            self.b_wait = self.b_wait.saturating_sub(1);
        }
        let inp = CycleInputs {
            sig: &self.sig,
            pm_trigger: self.pm_trigger,
            wrcache_flush: self.wrcache_flush,
            bus,
            ticks: self.ticks,
            axi,
        };
        self.set.step(&inp)
    }
    /// 16-bit word `i` of the packet at `addr` in memory.
    fn word(&self, addr: u64, i: usize) -> u16 {
        let line = self.mem.get(&(addr + 16 * (i as u64 / 8))).copied().unwrap_or(0);
        (line >> (16 * (i % 8))) as u16
    }
    fn tick(&mut self) {
        self.cycle(None);
    }
    fn ticks(&mut self, n: usize) {
        for _ in 0..n {
            self.tick();
        }
    }
    /// The address of a view register of a domain on this bench's layout.
    fn offset(&self, dom: usize, idx: usize) -> u16 {
        let layout = self.set.config().gen.reg_layout();
        DOM_REGS[idx].offset_of(layout, dom).unwrap_or_else(|| panic!("{} has no address", DOM_REGS[idx].name))
    }
    fn write(&mut self, dom: usize, idx: usize, data: u32) -> BusResult {
        let offset = self.offset(dom, idx);
        self.cycle(Some(BusOp::Write { offset, data, strb: 0xf }))
    }
    fn read(&mut self, dom: usize, idx: usize) -> BusResult {
        let offset = self.offset(dom, idx);
        self.cycle(Some(BusOp::Read { offset }))
    }
    /// Register value as a read would return it now (the view, S11).
    fn reg(&self, dom: usize, idx: usize) -> u32 {
        let mut v = vec![[0u32; regs::NUM_DOM_REGS]; self.sig.len()];
        let inp = CycleInputs {
            sig: &self.sig,
            pm_trigger: self.pm_trigger,
            wrcache_flush: self.wrcache_flush,
            bus: None,
            ticks: 0xff,
            axi: AxiIn::default(),
        };
        self.set.view(&inp, &mut v);
        v[dom][idx]
    }
    fn state(&self, dom: usize) -> SingleState {
        self.set.domains[dom].core.single_state
    }
    fn sig(&mut self, dom: usize, s: usize, v: bool) {
        self.sig[dom].set(s, v);
    }
    /// Select signals 0x10..0x13 for PRE, 0x20.. START, 0x30.. EVENT,
    /// 0x40.. STOP, each input = its SRC[0] (truth table 0xaaaa).
    fn simple_selection(&mut self, dom: usize) {
        self.write(dom, regs::PRE_SRC, 0x1312_1110);
        self.write(dom, regs::START_SRC, 0x2322_2120);
        self.write(dom, regs::EVENT_SRC, 0x3332_3130);
        self.write(dom, regs::STOP_SRC, 0x4342_4140);
        self.write(dom, regs::START_OP, 0xaaaa);
        self.write(dom, regs::EVENT_OP, 0xaaaa);
        self.write(dom, regs::STOP_OP, 0xaaaa);
    }
    /// One-bus-cycle PM_TRIGGER (and WRCACHE_FLUSH) pulse, then the two
    /// cycles its pulse synchronizer needs (S22): the domains see it now.
    fn global_pulse(&mut self) {
        (self.pm_trigger, self.wrcache_flush) = (true, true);
        self.tick();
        (self.pm_trigger, self.wrcache_flush) = (false, false);
        self.ticks(2);
    }
    /// One-cycle pulse on signal `s` (set, tick, clear).
    fn pulse(&mut self, dom: usize, s: usize) {
        self.sig(dom, s, true);
        self.tick();
        self.sig(dom, s, false);
    }
}

const PRE: usize = 0x10;
const START: usize = 0x20;
const EVENT: usize = 0x30;
const STOP: usize = 0x40;

// ---------------------------------------------------------------- S10 logic ops

/// Seed 003 "Input selection" steps 2-8; docs/semantics.md S10.
#[rstest]
// step 8: the truth table is indexed by ARG[0] | ARG[1]<<1 | ARG[2]<<2 | ARG[3]<<3
#[case::arg0_identity(0xaaaa, OpLayout::Plain, Gen::Gt215, [true, false, false, false], [false, false], false, true)]
#[case::arg3_identity(0xff00, OpLayout::Plain, Gen::Gt215, [false, false, false, true], [false, false], false, true)]
#[case::and_all(0x8000, OpLayout::Plain, Gen::Gt215, [true, true, true, false], [false, false], false, false)]
// step 3: delay bit 16 takes SRC[0] of the previous cycle
#[case::delay0(0x1_aaaa, OpLayout::Plain, Gen::Nv40, [false, false, false, false], [true, false], false, true)]
// step 4: delay bit 17 takes SRC[1] of the previous cycle
#[case::delay1(0x2_cccc, OpLayout::Plain, Gen::Nv40, [false, true, false, false], [false, false], false, false)]
// step 5: G92+ bit 18 (PRE-like) replaces ARG[2] with prev SRC[0]
#[case::replace2_g92(0x4_f0f0, OpLayout::Plain, Gen::G92, [false, false, false, false], [true, false], false, true)]
#[case::replace2_before_g92_ignored(0x4_f0f0, OpLayout::Plain, Gen::G84, [false, false, false, false], [true, false], false, false)]
// step 6: G92+ bit 19 (PRE-like) replaces ARG[3] with prev SRC[1]
#[case::replace3_g92(0x8_ff00, OpLayout::Plain, Gen::Gt215, [false, false, false, true], [false, false], false, false)]
// step 7: EVENT/STOP bit 18 replaces ARG[3] with same-cycle SETFLAG (all NV40-layout gens)
#[case::setflag_arg3(0x4_ff00, OpLayout::EventLike, Gen::Nv40, [false, false, false, false], [false, false], true, true)]
// EVENT_OP bit 19/20 (G92+): ARG2 <- prev SRC[0], ARG3 <- prev SRC[1]
#[case::event_replace2(0x8_f0f0, OpLayout::EventLike, Gen::G92, [false, false, false, false], [true, false], false, true)]
#[case::event_replace3(0x10_ff00, OpLayout::EventLike, Gen::G92, [false, false, false, false], [false, true], false, true)]
// bit 20 applies "if not set to SETFLAG by bit 18": SETFLAG wins (S10)
#[case::setflag_wins(0x14_ff00, OpLayout::EventLike, Gen::G92, [false, false, false, false], [false, true], false, false)]
fn logic_op_table(
    #[case] op: u32,
    #[case] layout: OpLayout,
    #[case] gen: Gen,
    #[case] src: [bool; 4],
    #[case] prev: [bool; 2],
    #[case] setflag: bool,
    #[case] expected: bool,
) {
    assert_eq!(logic_op::eval(op, layout, gen, src, prev, setflag), expected);
}

/// Property: with no modifier bits, the result is bit `index` of the table
/// (the one-line reference of seed 003 step 8), for every table and input.
#[test]
fn logic_op_is_a_truth_table() {
    let mut x: u32 = 0x1234_5678;
    for _ in 0..20_000 {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        let op = x & 0xffff;
        let i = (x >> 16) & 0xf;
        let src = [i & 1 != 0, i & 2 != 0, i & 4 != 0, i & 8 != 0];
        let reference = (op >> i) & 1 != 0;
        for layout in [OpLayout::Plain, OpLayout::EventLike] {
            assert_eq!(
                logic_op::eval(op, layout, Gen::Gt215, src, [!src[0], !src[1]], true),
                reference,
                "op {op:#x} i {i}"
            );
        }
    }
}

// ---------------------------------------------------------------- single event mode

/// Seed 003 "Single event mode" pseudocode + summary ("before actual counting,
/// (CTR_PRE+1) 1s must happen on PRE input", "(CTR_STOP+1) counting periods").
/// The acceptance scenario: CTR_PRE=2, CTR_STOP=1, EVENT from a driven signal.
#[rstest]
#[case::period_one(0, 3, 2)] // EVENT_CTR_PERIOD = ONE: CTR_EVENT of the last period
#[case::period_all(1 << 8, 8, 2)] // ALL: sum over both periods
fn single_event_two_periods(#[case] ctrl: u32, #[case] ctr_event: u32, #[case] ctr_start: u32) {
    let mut tb = Tb::new(Gen::Gt215, 1);
    tb.simple_selection(0);
    tb.write(0, regs::CTR_PRE, 2);
    tb.write(0, regs::CTR_STOP, 1);
    tb.write(0, regs::CTRL, ctrl);
    tb.write(0, regs::PRE_OP, 0xaaaa);
    assert_eq!(tb.state(0), SingleState::WaitPre);
    assert_eq!(tb.reg(0, regs::CTR_PRE), 2, "CTR_PRE = CTR_PRE_init on start");
    assert_eq!(tb.reg(0, regs::CTR_STOP), 1);
    for expect in [1, 0] {
        tb.pulse(0, PRE);
        assert_eq!(tb.reg(0, regs::CTR_PRE), expect);
    }
    tb.pulse(0, PRE);
    assert_eq!(tb.state(0), SingleState::WaitStart, "third PRE (CTR_PRE == 0) leaves WAIT_FOR_PRE");
    tb.pulse(0, START);
    assert_eq!(tb.state(0), SingleState::Counting);
    tb.sig(0, EVENT, true);
    tb.ticks(5);
    tb.sig(0, EVENT, false);
    tb.pulse(0, STOP);
    assert_eq!(tb.state(0), SingleState::WaitStart);
    assert_eq!(tb.reg(0, regs::CTR_EVENT), 5);
    assert_eq!(tb.reg(0, regs::CTR_STOP), 0);
    assert_eq!(tb.reg(0, regs::CTR_START), 1, "THRESHOLD 0 <= 5");
    assert_eq!(tb.reg(0, regs::CTR_CYCLES), 6, "5 EVENT cycles + the STOP cycle (S5)");
    tb.pulse(0, START);
    tb.sig(0, EVENT, true);
    tb.ticks(3);
    tb.sig(0, EVENT, false);
    tb.pulse(0, STOP);
    assert_eq!(tb.state(0), SingleState::Inactive, "CTR_STOP == 0 at STOP ends the process");
    assert_eq!(tb.reg(0, regs::CTR_EVENT), ctr_event);
    assert_eq!(tb.reg(0, regs::CTR_START), ctr_start);
    assert_eq!(tb.reg(0, regs::CTRL) >> 28 & 3, 0, "SINGLE_STATE reads INACTIVE");
}

/// S5: EVENT in the START cycle does not count, EVENT in the STOP cycle does;
/// CTR_CYCLES = e - s.
#[test]
fn start_and_stop_cycles() {
    let mut tb = Tb::new(Gen::G84, 1);
    tb.simple_selection(0);
    tb.write(0, regs::PRE_OP, 0xffff); // PRE always 1: CTR_PRE 0 -> leaves at once
    tb.tick();
    assert_eq!(tb.state(0), SingleState::WaitStart);
    tb.sig(0, EVENT, true);
    tb.pulse(0, START); // cycle s, EVENT high: not counted
    tb.ticks(3);
    tb.sig(0, STOP, true);
    tb.tick(); // cycle e = s + 4, EVENT high: counted
    tb.sig(0, STOP, false);
    assert_eq!(tb.reg(0, regs::CTR_EVENT), 4);
    assert_eq!(tb.reg(0, regs::CTR_CYCLES), 4);
    assert_eq!(tb.reg(0, regs::CTR_CYCLES_ALT), 4, "CTR_CYCLES_ALT is a copy (S5)");
}

/// S5: the THRESHOLD compare uses CTR_EVENT after the STOP cycle's increment.
#[rstest]
#[case::reached_by_stop_cycle_event(3, 1)]
#[case::one_short(4, 0)]
fn threshold_after_increment(#[case] threshold: u32, #[case] ctr_start: u32) {
    let mut tb = Tb::new(Gen::Gt215, 1);
    tb.simple_selection(0);
    tb.write(0, regs::THRESHOLD, threshold);
    tb.write(0, regs::PRE_OP, 0xffff);
    tb.tick();
    tb.pulse(0, START);
    tb.sig(0, EVENT, true);
    tb.ticks(2);
    tb.sig(0, STOP, true);
    tb.tick(); // third EVENT, in the STOP cycle
    assert_eq!(tb.reg(0, regs::CTR_EVENT), 3);
    assert_eq!(tb.reg(0, regs::CTR_START), ctr_start);
}

/// S2: the seed's abort list, written out here independently of the regmap:
/// "any *_OP register except PRE_OP, any *_SRC register, any CTR register,
/// THRESHOLD register, and CTRL register".
const SEED_ABORTS: &[&str] = &[
    "PRE_SRC",
    "START_SRC",
    "EVENT_SRC",
    "STOP_SRC",
    "SPEC_SRC",
    "START_OP",
    "EVENT_OP",
    "STOP_OP",
    "SETFLAG_OP",
    "CLRFLAG_OP",
    "CTR_CYCLES",
    "CTR_CYCLES_ALT",
    "CTR_EVENT",
    "CTR_START",
    "CTR_PRE",
    "CTR_STOP",
    "THRESHOLD",
    "CTRL",
];

#[test]
fn every_register_write_aborts_or_not_as_the_seed_lists() {
    // The registers GT215 addresses (the NV10 layout's own are S24's).
    for (idx, r) in DOM_REGS.iter().enumerate().filter(|(_, r)| r.present(Gen::Gt215)) {
        let mut tb = Tb::new(Gen::Gt215, 1);
        tb.simple_selection(0);
        tb.write(0, regs::PRE_OP, 0xffff);
        tb.tick();
        tb.pulse(0, START);
        assert_eq!(tb.state(0), SingleState::Counting);
        tb.sig(0, EVENT, true);
        let before = tb.reg(0, regs::CTR_EVENT);
        // Writing the current value keeps the selection: only the abort matters.
        let v = if r.name == "CTRL" { 0 } else { tb.reg(0, idx) };
        tb.write(0, idx, v);
        if r.name == "PRE_OP" {
            // S2: not an abort, a restart: WAIT_FOR_PRE with cleared counters.
            assert_eq!(tb.state(0), SingleState::WaitPre, "write to PRE_OP restarts (S2)");
            assert_eq!(tb.reg(0, regs::CTR_EVENT), 0, "PRE_OP restart clears CTR_EVENT (S2)");
            continue;
        }
        let aborts = SEED_ABORTS.contains(&r.name);
        let want = if aborts { SingleState::Inactive } else { SingleState::Counting };
        assert_eq!(tb.state(0), want, "write to {} (S2)", r.name);
        let counted = tb.reg(0, regs::CTR_EVENT) - before;
        assert_eq!(counted, u32::from(!aborts), "{}: an aborting write counts nothing in its cycle (S1)", r.name);
    }
}

/// S2: PRE_OP written while the process runs restarts it (seed 003 "Input
/// selection": "Writing PRE_OP will start the counting process, setting the
/// state to WAIT_PRE"); MODE != SINGLE never starts.
#[test]
fn pre_op_outside_inactive_and_outside_single_mode() {
    let mut tb = Tb::new(Gen::Gt215, 1);
    tb.simple_selection(0);
    tb.write(0, regs::CTR_PRE, 5);
    tb.write(0, regs::PRE_OP, 0xffff);
    tb.ticks(2);
    assert_eq!(tb.reg(0, regs::CTR_PRE), 3, "PRE every tick: 5 -> 3");
    tb.write(0, regs::PRE_OP, 0x0000);
    assert_eq!(tb.state(0), SingleState::WaitPre);
    assert_eq!(tb.reg(0, regs::CTR_PRE), 5, "restart: CTR_PRE reloaded, the write's tick counted nothing");
    tb.write(0, regs::PRE_OP, 0xffff);
    assert_eq!(tb.reg(0, regs::CTR_PRE), 5, "restart again; the old PRE_OP (0) counted nothing");
    tb.tick();
    assert_eq!(tb.reg(0, regs::CTR_PRE), 4, "new PRE_OP is used from the next cycle (S1)");
    // Restart from COUNTING: CTR_EVENT and CTR_CYCLES cleared.
    tb.write(0, regs::CTR_PRE, 0);
    tb.write(0, regs::PRE_OP, 0xffff);
    tb.tick();
    tb.pulse(0, START);
    tb.sig(0, EVENT, true);
    tb.ticks(3);
    assert_eq!(tb.state(0), SingleState::Counting);
    assert_eq!(tb.reg(0, regs::CTR_EVENT), 3);
    tb.write(0, regs::PRE_OP, 0xffff);
    assert_eq!(tb.state(0), SingleState::WaitPre, "COUNTING -> WAIT_PRE by PRE_OP");
    assert_eq!((tb.reg(0, regs::CTR_EVENT), tb.reg(0, regs::CTR_CYCLES)), (0, 0));
    tb.sig(0, EVENT, false);
    tb.write(0, regs::CTRL, 1); // QUAD: aborts
    tb.write(0, regs::PRE_OP, 0xffff);
    assert_eq!(tb.state(0), SingleState::Inactive, "PRE_OP does not start single mode in MODE=QUAD");
}

// ---------------------------------------------------------------- S6 counter modes

/// Seed 003 "Special counter modes" + S6/S7. START_SRC selects signals
/// 0x20..0x23 (B4 = their values), EVENT_SRC 0x30..0x33 (`esrc`: B2 = bits
/// 0-1, B6 high bits = bits 2-3); EVENT = EVENT_OP over the same four signals.
#[rstest]
#[case::simple(0, 0xf, 0b1000, 0xff00, 1, 0)]
#[case::event_b4(1, 0xa, 0b1000, 0xff00, 0xa, 0)]
#[case::event_b4_gated(1, 0xa, 0b0000, 0xff00, 0, 0)]
#[case::event_b6(2, 0x5, 0b1100, 0xff00, 0x35, 0)]
#[case::extra_b4(3, 0x6, 0b0000, 0xff00, 0, 6)]
#[case::extra_b4_event_simple(3, 0x6, 0b1000, 0xff00, 1, 6)]
#[case::extra_b6_event_b2_ungated(4, 0x1, 0b1010, 0x0000, 2, 0x21)]
#[case::reserved_5_as_simple(5, 0xf, 0b1000, 0xff00, 1, 0)]
#[case::reserved_7_as_simple(7, 0xf, 0b0000, 0xff00, 0, 0)]
fn counter_modes(
    #[case] ctr_mode: u32,
    #[case] b4: u32,
    #[case] esrc: u32,
    #[case] event_op: u32,
    #[case] d_event: u32,
    #[case] d_pre: u32,
) {
    let mut tb = Tb::new(Gen::Gt215, 1);
    tb.simple_selection(0);
    tb.write(0, regs::EVENT_OP, event_op);
    tb.write(0, regs::CTRL, ctr_mode << 4);
    tb.write(0, regs::PRE_OP, 0xffff);
    tb.tick();
    tb.pulse(0, START); // START = START_SRC[0] = signal 0x20
    assert_eq!(tb.state(0), SingleState::Counting);
    for j in 0..4 {
        tb.sig(0, START + j, b4 >> j & 1 != 0);
        tb.sig(0, EVENT + j, esrc >> j & 1 != 0);
    }
    tb.sig(0, STOP, false);
    let (e0, p0) = (tb.reg(0, regs::CTR_EVENT), tb.reg(0, regs::CTR_PRE));
    tb.tick();
    assert_eq!(tb.reg(0, regs::CTR_EVENT) - e0, d_event, "CTR_EVENT increment, CTR_MODE {ctr_mode}");
    assert_eq!(tb.reg(0, regs::CTR_PRE) - p0, d_pre, "CTR_PRE increment, CTR_MODE {ctr_mode}");
}

/// S6: 32-bit saturation, also when a B4/B6 increment crosses 0xffffffff.
#[rstest]
#[case::b4_crosses(1, 0xffff_fffa, 0xf, 0xffff_ffff)]
#[case::b4_lands_exactly(1, 0xffff_fff0, 0xf, 0xffff_ffff)]
#[case::b4_one_below(1, 0xffff_ffef, 0xf, 0xffff_fffe)]
#[case::simple_at_max(0, 0xffff_ffff, 0x1, 0xffff_ffff)]
#[case::below_max(1, 0xffff_ff00, 0xf, 0xffff_ff0f)]
fn ctr_event_saturates(#[case] ctr_mode: u32, #[case] start: u32, #[case] b4: u32, #[case] expected: u32) {
    let mut tb = Tb::new(Gen::Gt215, 1);
    tb.simple_selection(0);
    tb.write(0, regs::CTRL, (ctr_mode << 4) | 1 << 8);
    tb.write(0, regs::PRE_OP, 0xffff);
    tb.tick();
    tb.pulse(0, START);
    tb.set.domains[0].core.ctr_event = u64::from(start);
    tb.set.domains[0].core.ctr_cycles = u64::from(u32::MAX);
    for j in 0..4 {
        tb.sig(0, START + j, b4 >> j & 1 != 0);
    }
    tb.sig(0, EVENT, true);
    tb.tick();
    assert_eq!(tb.reg(0, regs::CTR_EVENT), expected);
    assert_eq!(tb.reg(0, regs::CTR_CYCLES), u32::MAX, "CTR_CYCLES saturates too");
}

// ---------------------------------------------------------------- S3 / S4 FLAG and EVENT signals

/// Seed 003 "The flag": "if the SETFLAG input becomes 1 on cycle X, the FLAG
/// signal will become 1 on cycle X+2". Own FLAG of domain 0 = signal 0xff.
#[test]
fn flag_signal_two_cycles_after_setflag() {
    let mut tb = Tb::new(Gen::Gt215, 1);
    // SETFLAG args: START_SRC[2], START_SRC[3], PRE_SRC[0], PRE_SRC[1].
    tb.write(0, regs::START_SRC, 0x0050_0000); // START_SRC[2] = signal 0x50
    tb.write(0, regs::SETFLAG_OP, 0xaaaa);
    tb.write(0, regs::PRE_OP, 0); // start: flag cleared, not frozen any more
    tb.sig(0, 0x50, true);
    tb.tick(); // cycle X
    tb.sig(0, 0x50, false);
    assert!(tb.set.domains[0].core.flag, "FLAG register set at X+1");
    assert_eq!(tb.reg(0, regs::SIG_STATUS + 7) >> 31, 0, "FLAG signal still 0 at X+1");
    tb.tick();
    assert_eq!(tb.reg(0, regs::SIG_STATUS + 7) >> 31, 1, "FLAG signal 1 at X+2");
}

/// "CLRFLAG wins"; frozen in INACTIVE (seed 003 "The flag", S3).
#[test]
fn clrflag_wins_and_frozen_in_inactive() {
    let mut tb = Tb::new(Gen::Gt215, 1);
    tb.write(0, regs::SETFLAG_OP, 0xffff);
    tb.tick();
    assert!(!tb.set.domains[0].core.flag, "frozen in INACTIVE");
    tb.write(0, regs::PRE_OP, 0);
    tb.tick();
    assert!(tb.set.domains[0].core.flag);
    tb.write(0, regs::CLRFLAG_OP, 0xffff); // aborts: frozen in that cycle
    assert!(tb.set.domains[0].core.flag);
    tb.write(0, regs::PRE_OP, 0); // restart clears it
    assert!(!tb.set.domains[0].core.flag);
    tb.tick();
    assert!(!tb.set.domains[0].core.flag, "SETFLAG and CLRFLAG both 1: CLRFLAG wins");
}

/// S4: a domain's EVENT selecting its own EVENT signal (0xf7 for domain 0)
/// through NOT(arg0) toggles every cycle: the EVENT signal is registered.
#[test]
fn own_event_loop_is_registered() {
    let mut tb = Tb::new(Gen::Gt215, 1);
    tb.write(0, regs::EVENT_SRC, 0xf7);
    tb.write(0, regs::EVENT_OP, 0x5555);
    let mut seen = Vec::new();
    for _ in 0..6 {
        tb.tick();
        seen.push(tb.reg(0, regs::SRC_STATUS) >> 8 & 1);
    }
    assert!(seen.windows(2).all(|w| w[0] != w[1]), "own EVENT toggles: {seen:?}");
}

// ---------------------------------------------------------------- S8 / S9 registers

/// S0/S8: PSLVERR cases, read data 0, nothing changes.
#[rstest]
#[case::unmapped(Gen::Gt215, 1, 0x000)]
#[case::hole_in_map(Gen::Gt215, 1, 0x7b0)]
#[case::record_address_high_on_g84(Gen::G84, 1, 0x6a0)]
#[case::record_status_on_nv40(Gen::Nv40, 1, 0x6e0)]
#[case::record_chan_on_nv40(Gen::Nv40, 1, 0x7a0)]
#[case::absent_domain(Gen::Gt215, 1, 0x7c4)]
#[case::user_trigger_before_gt215(Gen::G92, 2, 0x580)]
#[case::gctrl_on_nv40(Gen::Nv40, 1, 0x7a8)]
fn unmapped_answers_pslverr(#[case] gen: Gen, #[case] domains: usize, #[case] offset: u16) {
    let mut tb = Tb::new(gen, domains);
    let r = tb.cycle(Some(BusOp::Read { offset }));
    assert_eq!(r, BusResult { rdata: 0, slverr: true, ready: true });
    let w = tb.cycle(Some(BusOp::Write { offset, data: !0, strb: 0xf }));
    assert!(w.slverr);
}

#[test]
fn partial_strobe_write_is_refused() {
    let mut tb = Tb::new(Gen::Gt215, 1);
    let w = tb.cycle(Some(BusOp::Write { offset: 0x780, data: 0x1234, strb: 0x3 }));
    assert!(w.slverr, "S0: PSTRB != 0xf -> PSLVERR");
    assert_eq!(tb.read(0, regs::THRESHOLD).rdata, 0, "and nothing stored");
}

/// S8: stored bits per generation; write-only and read-only bits read 0.
#[rstest]
#[case::ctrl_nv40(Gen::Nv40, regs::CTRL, 0x0001_2973)]
#[case::ctrl_g84(Gen::G84, regs::CTRL, 0x00f1_2973)]
#[case::ctrl_g92_unk30(Gen::G92, regs::CTRL, 0x40f1_2973)]
#[case::pre_op_g84(Gen::G84, regs::PRE_OP, 0x0003_ffff)]
#[case::pre_op_g92(Gen::G92, regs::PRE_OP, 0x000f_ffff)]
#[case::event_op_nv40(Gen::Nv40, regs::EVENT_OP, 0x0007_ffff)]
#[case::event_op_gt215(Gen::Gt215, regs::EVENT_OP, 0x001f_ffff)]
#[case::spec_src(Gen::G84, regs::SPEC_SRC, 0x0000_ffff)]
#[case::quad_ack_wo(Gen::Gt215, regs::QUAD_ACK_TRIGGER, 0)]
#[case::user_trigger_wo(Gen::Gt215, regs::USER_TRIGGER, 0)]
#[case::ctr_cycles_ro(Gen::Gt215, regs::CTR_CYCLES, 0)]
fn write_all_ones_reads_back(#[case] gen: Gen, #[case] idx: usize, #[case] expected: u32) {
    let mut tb = Tb::new(gen, 1);
    tb.write(0, idx, !0);
    let mut v = tb.read(0, idx).rdata;
    if idx == regs::CTRL {
        v &= !0x3000_0000; // SINGLE_STATE (ro) is not part of this check
    }
    assert_eq!(v, expected, "{} on {}", DOM_REGS[idx].name, gen.name());
}

/// S8: CTR_PRE/CTR_STOP writes set the hidden initial value, reads the counter.
#[test]
fn ctr_pre_write_sets_initial_value() {
    let mut tb = Tb::new(Gen::Gt215, 1);
    tb.write(0, regs::CTR_PRE, 7);
    assert_eq!(tb.read(0, regs::CTR_PRE).rdata, 0);
    tb.write(0, regs::PRE_OP, 0);
    assert_eq!(tb.read(0, regs::CTR_PRE).rdata, 7);
}

/// S9: trailer positions of domain 1 with base 0xe0: own EVENT at 0xf6, own
/// FLAG at 0xfe, PM_TRIGGER at 0xef; WRCACHE_FLUSH (0xee) only G84+.
#[rstest]
#[case::nv40(Gen::Nv40, 0)]
#[case::g84(Gen::G84, 1)]
fn trailer_in_sig_status(#[case] gen: Gen, #[case] wrcache: u32) {
    let mut tb = Tb::new(gen, 2);
    tb.sig(1, 0xef, false);
    tb.sig(1, 0xfe, true); // external input at a trailer slot: ignored
    tb.sig(1, 0xe5, true); // base+0x05: an ordinary external signal
    tb.global_pulse(); // the synchronized pulses are 1 now (S22)
    let inp = CycleInputs {
        sig: &tb.sig,
        pm_trigger: false,
        wrcache_flush: false,
        bus: None,
        ticks: 0xff,
        axi: AxiIn::default(),
    };
    let mut v = vec![[0u32; regs::NUM_DOM_REGS]; 2];
    tb.set.view(&inp, &mut v);
    let w = v[1][regs::SIG_STATUS + 7];
    assert_eq!(w >> 0x0f & 1, 1, "PM_TRIGGER");
    assert_eq!(w >> 0x0e & 1, wrcache, "WRCACHE_FLUSH by generation");
    assert_eq!(w >> 0x1e & 1, 0, "own FLAG signal, not the external input");
    assert_eq!(w >> 0x05 & 1, 1, "base+0x05 is external");
    tb.tick();
    assert_eq!(tb.reg(1, regs::SIG_STATUS + 7) >> 0x0e & 3, 0, "one tick per pulse (S22)");
}

// ---------------------------------------------------------------- S15..S19

/// S15: a domain that does not tick holds all state; a write to it waits
/// (PREADY = 0) until it ticks.
#[test]
fn non_ticking_domain_holds_and_writes_wait() {
    let mut tb = Tb::new(Gen::Gt215, 2);
    tb.ticks = 0b01; // domain 1 stopped
    let r = tb.write(1, regs::THRESHOLD, 7);
    assert!(!r.ready, "write to a stopped domain waits");
    assert_eq!(tb.reg(1, regs::THRESHOLD), 0);
    assert!(tb.write(0, regs::THRESHOLD, 7).ready, "domain 0 ticks");
    tb.ticks = 0b11;
    assert!(tb.write(1, regs::THRESHOLD, 7).ready);
    assert_eq!(tb.reg(1, regs::THRESHOLD), 7);
}

/// Put domain 0 in quad mode with EVENT = signal 0x30 (ARG0), SWAP = 0x40 (G84+).
fn quad_tb(gen: Gen) -> Tb {
    let mut tb = Tb::new(gen, 1);
    tb.simple_selection(0);
    if gen.features().swap_src {
        tb.write(0, regs::SPEC_SRC, 0x40);
    }
    tb.write(0, regs::CTRL, 1);
    tb
}

fn quad_state(tb: &Tb) -> u32 {
    tb.reg(0, regs::CTRL) >> 24 & 3
}

/// Seed 003 "Quad event mode": "if SWAP and one of the event inputs are
/// active on the same cycle, the events will be counted for the next period".
#[test]
fn quad_swap_before_count() {
    let mut tb = quad_tb(Gen::G84);
    tb.sig(0, EVENT, true);
    tb.ticks(3);
    tb.sig(0, 0x40, true); // SWAP and EVENT in the same tick
    tb.tick();
    tb.sig(0, 0x40, false);
    tb.sig(0, EVENT, false);
    assert_eq!(tb.reg(0, regs::CTR_EVENT), 3, "the old period: the 3 ticks before the swap");
    assert_eq!(quad_state(&tb), 1, "EMPTY -> VALID");
    tb.ticks(4);
    tb.write(0, regs::PRE_OP, 0xaaaa); // G84+: a PRE_OP write swaps
    assert_eq!(tb.reg(0, regs::CTR_EVENT), 1, "the swap tick's EVENT went to the new period");
    assert_eq!(tb.reg(0, regs::CTR_CYCLES), 5, "swap tick + 4 ticks");
    assert_eq!(quad_state(&tb), 3, "VALID -> OVERFLOW");
}

/// S17: ack then swap in one tick; ack alone steps the state down.
#[rstest]
#[case::ack_alone_from_overflow(3, false, 1)]
#[case::ack_alone_from_valid(1, false, 0)]
#[case::ack_alone_from_empty(0, false, 0)]
#[case::ack_and_swap_from_valid(1, true, 1)]
#[case::ack_and_swap_from_empty(0, true, 1)]
#[case::ack_and_swap_from_overflow(3, true, 3)]
fn quad_ack_then_swap(#[case] from: u8, #[case] swap: bool, #[case] to: u32) {
    let mut tb = quad_tb(Gen::Gt215);
    tb.set.domains[0].core.quad_state = from;
    tb.sig(0, 0x40, swap);
    tb.write(0, regs::QUAD_ACK_TRIGGER, 1);
    assert_eq!(quad_state(&tb), to);
}

/// S17: NV40 has no SPEC_SRC: SWAP is PM_TRIGGER, and PRE_OP does not swap.
#[test]
fn quad_nv40_swaps_on_pm_trigger_only() {
    let mut tb = quad_tb(Gen::Nv40);
    tb.ticks(2);
    tb.write(0, regs::PRE_OP, 0);
    assert_eq!(quad_state(&tb), 0, "no PRE_OP swap before G84");
    tb.pm_trigger = true;
    tb.ticks(3);
    assert_eq!(quad_state(&tb), 0, "the pulse is still in the synchronizer (S22)");
    tb.ticks(3);
    assert_eq!(quad_state(&tb), 1, "PM_TRIGGER held six cycles is one pulse: one swap (S22)");
    tb.pm_trigger = false;
    tb.tick();
    tb.global_pulse();
    assert_eq!(quad_state(&tb), 1, "the second pulse is visible, its swap happens at this tick");
    tb.tick();
    assert_eq!(quad_state(&tb), 3, "a second pulse: VALID -> OVERFLOW");
}

/// S17: EXTRA_B4 / EXTRA_B6_EVENT_B2 feed CTR_START in quad mode.
#[rstest]
#[case::simple(0, 1)]
#[case::extra_b4(3, 0xb)]
#[case::extra_b6(4, 0x2b)]
fn quad_start_counter_modes(#[case] ctr_mode: u32, #[case] expected: u32) {
    let mut tb = quad_tb(Gen::Gt215);
    tb.write(0, regs::CTRL, 1 | ctr_mode << 4);
    for (j, v) in [true, true, false, true].into_iter().enumerate() {
        tb.sig(0, START + j, v); // B4 = 0xb, START (= START_SRC[0]) = 1
    }
    tb.sig(0, EVENT + 3, true); // B6 bit 5
    tb.write(0, regs::PRE_OP, 0xaaaa); // swap: counting from 0
    tb.tick();
    tb.write(0, regs::PRE_OP, 0xaaaa); // swap: the period = 2 ticks
    assert_eq!(tb.reg(0, regs::CTR_START), 2 * expected);
}

/// Seed 003 "The PERIODIC signal"; S18: one pulse every 0x400 << (n - 1) ticks.
#[rstest]
#[case::p400(1, 0x400)]
#[case::p800(2, 0x800)]
fn periodic_period(#[case] n: u32, #[case] period: usize) {
    let mut tb = Tb::new(Gen::G84, 1);
    tb.write(0, regs::CTRL, n << 21);
    let mut pulses = Vec::new();
    for t in 0..3 * period + 1 {
        tb.tick();
        if tb.set.domains[0].core.periodic {
            pulses.push(t);
        }
    }
    assert_eq!(pulses.len(), 3, "{pulses:?}");
    assert_eq!(pulses[1] - pulses[0], period);
    assert_eq!(tb.reg(0, regs::SIG_STATUS + 7) >> 0x0d & 1, 0, "PERIODIC is one tick long");
}

/// S19: USER_TRIGGER pulse mode: value 1 for exactly one tick (GT215, base+0x0a).
#[rstest]
#[case::level(0b0001, [1, 1, 1])]
#[case::pulse(0b0101, [1, 0, 0])]
#[case::clear(0b0000, [0, 0, 0])]
fn user_trigger(#[case] data: u32, #[case] seen: [u32; 3]) {
    let mut tb = Tb::new(Gen::Gt215, 1);
    tb.write(0, regs::USER_TRIGGER, data);
    let mut got = [0; 3];
    for g in got.iter_mut() {
        *g = tb.reg(0, regs::SIG_STATUS + 7) >> 0x0a & 1;
        tb.tick();
    }
    assert_eq!(got, seen);
}

/// S16: CONTINUOUS import: domain 1 sees domain 0's EVENT signal two of its
/// ticks later; PULSE import: a long level is one pulse.
#[rstest]
#[case::continuous(0, [0, 0, 1, 1, 1, 1, 1, 1])]
#[case::pulse(1 << 11, [0, 0, 1, 0, 0, 0, 0, 0])]
fn import_latency(#[case] ctrl1: u32, #[case] seen: [u32; 8]) {
    let mut tb = Tb::new(Gen::Gt215, 2);
    tb.write(0, regs::EVENT_OP, 0xffff); // domain 0 EVENT = 1 from the next tick
    tb.write(1, regs::CTRL, ctrl1);
    let mut got = [0; 8];
    for g in got.iter_mut() {
        // DOM[0].EVENT at base 0xe0 + 0x17 in domain 1's SIG_STATUS[7]
        *g = tb.reg(1, regs::SIG_STATUS + 7) >> 0x17 & 1;
        tb.tick();
    }
    // event_sig of domain 0 rises one tick after the op (S4), then two stages.
    assert_eq!(got, seen);
}

/// Seed 003 "The EVENT and FLAG signals": DOM[x].FLAG in domain y is "the
/// state of FLAG in domain x as of two domain y clocks ago" (S16): SETFLAG in
/// cycle X sets FLAG at X+1, domain 1 sees it from X+3; domain 0's own FLAG
/// signal from X+2 (S3).
#[test]
fn imported_flag_is_flag_two_clocks_ago() {
    let mut tb = Tb::new(Gen::Gt215, 2);
    tb.write(0, regs::START_SRC, 0x0050_0000); // SETFLAG ARG0 = START_SRC[2] = signal 0x50
    tb.write(0, regs::SETFLAG_OP, 0xaaaa);
    tb.write(0, regs::PRE_OP, 0); // domain 0 running: FLAG not frozen
    tb.sig(0, 0x50, true);
    let mut own = Vec::new();
    let mut imported = Vec::new();
    for _ in 0..5 {
        own.push(tb.reg(0, regs::SIG_STATUS + 7) >> 0x1f & 1); // DOM[0].FLAG in domain 0
        imported.push(tb.reg(1, regs::SIG_STATUS + 7) >> 0x1f & 1); // DOM[0].FLAG in domain 1
        tb.tick();
    }
    // Cycle X is the first tick above.
    assert_eq!(own, [0, 0, 1, 1, 1], "own FLAG signal from X+2");
    assert_eq!(imported, [0, 0, 0, 1, 1], "imported FLAG from X+3");
}

// ---------------------------------------------------------------- S21 record mode

const BUF: u32 = 0x1000_0000;

const DMA_W: u32 = 1;
const CHAN_V: u32 = 2;
const CHAN_NOVALID: u32 = 3;

impl Tb {
    /// Global register writes of a bind sequence (S21 (a)).
    fn bind_seq(&mut self, seq: &[u32]) {
        for &w in seq {
            let (idx, data) = match w {
                DMA_W => (regs::RECORD_DMA, 0xbeef),
                CHAN_V => (regs::RECORD_CHAN, 0x8000_0007),
                _ => (regs::RECORD_CHAN, 0x0000_0007),
            };
            self.cycle(Some(BusOp::Write { offset: regs::GLOBAL_REGS[idx].offset, data, strb: 0xf }));
        }
    }
}

/// Domain `dom` in record mode: selections as `simple_selection` (PRE_SRC[i]
/// = signal 0x10+i, ..., STOP = signal 0x40), buffer at BUF, `limit`; the
/// channel bound the driver's way first (DMA, then CHAN with VALID, S21 (a)).
fn record_tb(gen: Gen, domains: usize, format_short: bool, limit: u32) -> Tb {
    record_tb_bind(gen, domains, format_short, limit, &[DMA_W, CHAN_V])
}

fn record_tb_bind(gen: Gen, domains: usize, format_short: bool, limit: u32, bind: &[u32]) -> Tb {
    let mut tb = Tb::new(gen, domains);
    tb.bind_seq(bind);
    for dom in 0..domains {
        let buf = BUF + 0x0100_0000 * dom as u32;
        tb.simple_selection(dom);
        tb.write(dom, regs::CTRL, 2 | u32::from(format_short) << 20);
        tb.write(dom, regs::RECORD_LIMIT, buf.wrapping_add(limit));
        tb.write(dom, regs::RECORD_START, buf);
    }
    tb
}

/// Seed 003 "Record mode": packet layout (16 LE words: cycles low/mid/high,
/// STOP, PRE_SRC[0..3], START_SRC[0..3], EVENT_SRC[0..3]); a STOP pulse at
/// tick t is STOP = 1 at t+1, which sends (S21); the position advances by the
/// packet size; a short packet is the first 16 bytes.
#[rstest]
#[case::long(false, 32)]
#[case::short(true, 16)]
fn record_stop_packet_layout(#[case] short: bool, #[case] size: u32) {
    let mut tb = record_tb(Gen::G92, 1, short, 0x1000);
    tb.sig(0, PRE + 1, true); // PRE_SRC[1]
    tb.sig(0, EVENT + 3, true); // EVENT_SRC[3]
    tb.ticks(9);
    tb.sig(0, PRE + 1, false);
    tb.pulse(0, STOP); // tick 10: STOP input
    tb.ticks(8);
    assert_eq!(tb.reg(0, regs::RECORD_STATUS), BUF + size, "position + packet size");
    let a = u64::from(BUF);
    // 10 ticks (9 + the STOP tick) since the RECORD_START write cleared the counters.
    assert_eq!([tb.word(a, 0), tb.word(a, 1), tb.word(a, 2), tb.word(a, 3)], [10, 0, 0, 1]);
    assert_eq!(tb.word(a, 4 + 1), 9, "PRE_SRC[1] counted 9 ticks");
    assert_eq!(tb.word(a, 4), 0);
    if short {
        assert_eq!(tb.beats, vec![a], "one 16-byte beat");
    } else {
        assert_eq!(tb.beats, vec![a, a + 16], "two 16-byte beats");
        assert_eq!(tb.word(a, 4 + 11), 10, "EVENT_SRC[3] counted every tick");
    }
}

/// Seed 003: "a packet write will also be triggered whenever any event
/// counter is >= 0xf000. The STOP counter in the memory packet will be equal
/// to 0"; counters restart from the sending tick's inputs (S21).
#[test]
fn record_near_overflow_packet() {
    let mut tb = record_tb(Gen::G84, 1, false, 0x1000);
    tb.set.domains[0].rec.ev[6] = 0xeffe; // START_SRC[2]
    tb.sig(0, START + 2, true);
    tb.ticks(2); // 0xefff, 0xf000
    assert!(tb.beats.is_empty());
    tb.ticks(5);
    let a = u64::from(BUF);
    assert_eq!(tb.word(a, 3), 0, "STOP = 0");
    assert_eq!(tb.word(a, 4 + 6), 0xf000);
    assert!(tb.set.domains[0].rec.ev[6] < 0x10, "restarted after the send");
}

/// Seed 003: "If a counter reaches 0xffff, it stops incrementing"; "If this
/// counter reaches 0xfff, it stops incrementing". The slot stays busy (slow
/// memory) so the trigger waits and the counters keep counting (S21; a
/// trigger with the buffer invalid would restart them, S21 (c)).
#[rstest]
#[case::event(true)]
#[case::stop(false)]
fn record_counters_saturate(#[case] event: bool) {
    let mut tb = record_tb(Gen::G84, 1, false, 0x1000);
    tb.b_delay = 1000;
    tb.pulse(0, STOP);
    tb.ticks(4); // one packet: the slot is busy for 1000 cycles
    assert_eq!(tb.beats.len(), 1);
    tb.set.domains[0].rec.ev[0] = 0xfffe;
    tb.set.domains[0].rec.stop = 0xffe;
    tb.sig(0, if event { PRE } else { STOP }, true);
    tb.ticks(5);
    let r = &tb.set.domains[0].rec;
    if event {
        assert_eq!(r.ev[0], 0xffff);
    } else {
        assert_eq!(r.stop, 0xfff);
    }
    assert_eq!(tb.beats.len(), 1, "no packet while the slot is busy");
}

/// Seed 003 RECORD_LIMIT: "one packet write will always succeed before the
/// limit hit flag is set ... even if the position is set far beyond the
/// limit"; RECORD_START makes the buffer valid again.
#[rstest]
#[case::beyond(0u32.wrapping_sub(0x100), 1)]
#[case::at_start(0, 1)]
#[case::one_more(0x20, 2)]
#[case::roomy(0x1000, 3)]
fn record_limit_after_write(#[case] limit: u32, #[case] packets: usize) {
    let mut tb = record_tb(Gen::G84, 1, false, limit);
    for _ in 0..3 {
        tb.pulse(0, STOP);
        tb.ticks(6);
    }
    assert_eq!(tb.beats.len(), 2 * packets);
    tb.write(0, regs::RECORD_START, BUF + 0x800);
    tb.pulse(0, STOP);
    tb.ticks(6);
    assert_eq!(tb.beats.len(), 2 * packets + 2, "RECORD_START revalidates");
}

/// Seed 003 RECORD_ADDRESS_HIGH: the position wraps at 4 GiB, the high byte
/// comes from the register on G92+ and is 0 on G84 (S21).
#[rstest]
#[case::g84(Gen::G84, 0)]
#[case::g92(Gen::G92, 0x42)]
fn record_wraps_at_4g(#[case] gen: Gen, #[case] high: u64) {
    let mut tb = Tb::new(gen, 1);
    tb.bind_seq(&[DMA_W, CHAN_V]);
    tb.simple_selection(0);
    tb.write(0, regs::CTRL, 2);
    tb.write(0, regs::RECORD_ADDRESS_HIGH, 0x42);
    tb.write(0, regs::RECORD_LIMIT, 0xffff_fff0);
    tb.write(0, regs::RECORD_START, 0xffff_fff0);
    tb.pulse(0, STOP);
    tb.ticks(6);
    assert_eq!(tb.beats, vec![high << 32 | 0xffff_fff0, high << 32]);
    assert_eq!(tb.reg(0, regs::RECORD_STATUS), 0x10, "position wrapped");
}

/// Seed 003: VM faults "permanently hang the faulting domain"; FAULT_CLEAR
/// "only clears the status bit, while hardware is still in a wedged state".
#[test]
fn record_vm_fault_wedges() {
    let mut tb = record_tb(Gen::G92, 1, true, 0x1000);
    tb.slverr = true;
    tb.pulse(0, STOP);
    tb.ticks(5);
    assert_eq!(tb.reg(0, regs::RECORD_STATUS), (BUF + 16) | 1, "FAULT set");
    tb.slverr = false;
    tb.write(0, regs::CTRL, 2 | 1 << 20 | 1 << 27);
    assert_eq!(tb.reg(0, regs::RECORD_STATUS), BUF + 16, "FAULT_CLEAR clears the bit");
    assert_eq!(tb.reg(0, regs::CTRL) & 1 << 27, 0, "write-only");
    tb.write(0, regs::RECORD_START, BUF);
    tb.pulse(0, STOP);
    tb.ticks(10);
    assert_eq!(tb.beats.len(), 1, "still wedged");
}

/// Seed 003 GCTRL.RECORD_RESET: "forces all record counters to 0 value"; no
/// packet while it is set (S21).
#[test]
fn record_reset_forces_zero() {
    let mut tb = record_tb(Gen::G84, 1, false, 0x1000);
    tb.sig(0, PRE, true);
    tb.ticks(5);
    tb.cycle(Some(BusOp::Write { offset: regs::GLOBAL_REGS[regs::GCTRL].offset, data: 1, strb: 0xf }));
    tb.pulse(0, STOP);
    tb.ticks(5);
    let r = &tb.set.domains[0].rec;
    assert_eq!((r.cycles, r.ev[0], r.stop), (0, 0, 0));
    assert!(tb.beats.is_empty());
}

/// S21 (a): "Note that the channel register has to be written after the DMA
/// object register for a successful bind"; VALID unset: "the register will be
/// written, but no binds will be done". Bound: the STOP packet is written;
/// unbound: FAULT instead (S21 (b)).
#[rstest]
#[case::dma_then_chan(&[DMA_W, CHAN_V], true)]
#[case::chan_then_dma(&[CHAN_V, DMA_W], false)]
#[case::chan_only(&[CHAN_V], false)]
#[case::dma_only(&[DMA_W], false)]
#[case::dma_then_chan_without_valid(&[DMA_W, CHAN_NOVALID], false)]
#[case::without_valid_keeps_binding(&[DMA_W, CHAN_V, CHAN_NOVALID], true)]
#[case::rebind_after_dma(&[CHAN_V, DMA_W, CHAN_V], true)]
fn record_bind_order(#[case] seq: &[u32], #[case] bound: bool) {
    let mut tb = record_tb_bind(Gen::G84, 1, true, 0x1000, seq);
    assert_eq!(tb.set.bound, bound);
    tb.pulse(0, STOP);
    tb.ticks(6);
    assert_eq!(tb.beats.len(), usize::from(bound));
    let status = if bound { BUF + 16 } else { BUF | 1 };
    assert_eq!(tb.reg(0, regs::RECORD_STATUS), status);
}

/// S21 (b): a send with no bound channel issues no AXI write and takes the
/// VM-fault path at once ("VM faults on the record buffer will permanently
/// hang the faulting domain until the GPU is reset"): FAULT = 1, wedged, the
/// counters restart as at a send, POSITION stays.
#[test]
fn record_unbound_send_faults() {
    let mut tb = record_tb_bind(Gen::G92, 1, false, 0x1000, &[]);
    tb.sig(0, PRE, true);
    tb.pulse(0, STOP); // STOP = 1 at the next tick
    assert_eq!(tb.reg(0, regs::RECORD_STATUS), BUF, "not yet");
    tb.tick(); // the trigger tick: fault at its edge
    assert_eq!(tb.reg(0, regs::RECORD_STATUS), BUF | 1, "FAULT at once, position unchanged");
    assert!(tb.set.slots[0].wedged && !tb.set.slots[0].busy);
    let r = &tb.set.domains[0].rec;
    assert_eq!((r.ev[0], r.stop), (1, 0), "restarted from the trigger tick's inputs");
    tb.bind_seq(&[DMA_W, CHAN_V]);
    tb.pulse(0, STOP);
    tb.ticks(10);
    assert!(tb.beats.is_empty(), "wedged: a later bind does not help");
}

/// S21 (c), seed RECORD_LIMIT: "all further writes will be ignored until
/// RECORD_START is written": a trigger while BUFFER_VALID = 0 restarts the
/// counters like a send, the packet is dropped (no write, POSITION unchanged,
/// no FAULT); nothing is left pending for after RECORD_START.
#[rstest]
#[case::stop(false)]
#[case::near_overflow(true)]
fn record_drop_after_limit(#[case] overflow: bool) {
    let mut tb = record_tb(Gen::G84, 1, false, 0);
    tb.pulse(0, STOP);
    tb.ticks(6);
    assert_eq!((tb.beats.len(), tb.reg(0, regs::RECORD_STATUS)), (2, BUF + 32), "limit hit");
    if overflow {
        tb.set.domains[0].rec.ev[5] = 0xf000;
    } else {
        tb.pulse(0, STOP);
    }
    tb.ticks(3);
    let r = &tb.set.domains[0].rec;
    assert_eq!((r.ev[5], r.stop), (0, 0), "counters restarted by the dropped trigger");
    assert_eq!((tb.beats.len(), tb.reg(0, regs::RECORD_STATUS)), (2, BUF + 32), "dropped");
    tb.write(0, regs::RECORD_START, BUF + 0x100);
    tb.ticks(10);
    assert_eq!(tb.beats.len(), 2, "no stale packet after RECORD_START");
}

/// S21 (d), seed RECORD_START: "a bogus packet will likely be written
/// immediately after transitioning to the record mode if RECORD_START is
/// written in another mode. To avoid that, write RECORD_START after entering
/// record mode ..., or use the GCTRL.RECORD_RESET bit."
#[rstest]
#[case::start_in_other_mode(false, false, true)]
#[case::start_in_record_mode(true, false, false)]
#[case::record_reset_disarms(false, true, false)]
fn record_bogus_packet(#[case] start_in_record: bool, #[case] record_reset: bool, #[case] bogus: bool) {
    let mut tb = record_tb(Gen::G84, 1, false, 0x1000);
    tb.sig(0, PRE, true);
    tb.ticks(5);
    tb.sig(0, PRE, false);
    tb.write(0, regs::CTRL, 0); // SINGLE: record counters hold
    if start_in_record {
        tb.write(0, regs::CTRL, 2);
    }
    tb.write(0, regs::RECORD_START, BUF + 0x100);
    if record_reset {
        let gctrl = regs::GLOBAL_REGS[regs::GCTRL].offset;
        tb.cycle(Some(BusOp::Write { offset: gctrl, data: 1, strb: 0xf }));
        tb.cycle(Some(BusOp::Write { offset: gctrl, data: 0, strb: 0xf }));
    }
    tb.write(0, regs::CTRL, 2);
    tb.ticks(6);
    assert_eq!(tb.beats.len(), if bogus { 2 } else { 0 });
    if bogus {
        let a = u64::from(BUF) + 0x100;
        assert_eq!((tb.word(a, 3), tb.word(a, 4)), (0, 5), "the held counters, STOP = 0");
    }
    assert!(!tb.set.domains[0].rec.stale);
}

/// S21 (e): in SHORT format ("16-byte packets with 4 usable event counters")
/// the 8 counters not carried are held at 0: no count, no near-overflow
/// trigger ("to avoid saturating the event counters").
#[rstest]
#[case::short(true, 0, 0)]
#[case::long(false, 2, 0xf000)]
fn record_short_hidden_counters_held(#[case] short: bool, #[case] beats: usize, #[case] ev4: u16) {
    let mut tb = record_tb(Gen::G84, 1, short, 0x1000);
    tb.sig(0, START, true);
    tb.set.domains[0].rec.ev[4] = 0xefff;
    tb.ticks(8);
    assert_eq!(tb.beats.len(), beats);
    if short {
        assert_eq!(tb.set.domains[0].rec.ev[4], 0, "held at 0");
    } else {
        assert_eq!(tb.word(u64::from(BUF), 8), ev4, "START_SRC[0] triggered at 0xf000");
    }
}

/// Seed 003: "each domain has place for one outgoing packet ... When a packet
/// write is triggered and there already is an outgoing packet, nothing will
/// happen - the counters will just keep incrementing": STOP > 1.
#[test]
fn record_slow_memory_stop_above_one() {
    let mut tb = record_tb(Gen::G84, 1, true, 0x1000);
    tb.b_delay = 20;
    tb.pulse(0, STOP);
    tb.tick();
    for _ in 0..3 {
        tb.pulse(0, STOP);
    }
    tb.ticks(60);
    let second = u64::from(BUF) + 16;
    assert_eq!(tb.word(second, 3), 3, "three pulses while the first packet was outgoing");
}

/// S21 arbiter: round-robin from the domain after the last granted one;
/// after reset domain 0 goes first.
#[test]
fn record_round_robin() {
    let mut tb = record_tb(Gen::G84, 3, true, 0x1000);
    for dom in 0..3 {
        tb.sig(dom, STOP, true);
    }
    tb.tick();
    for dom in 0..3 {
        tb.sig(dom, STOP, false);
    }
    tb.ticks(20);
    let order: Vec<u64> = tb.beats.iter().map(|a| (a - u64::from(BUF)) >> 24).collect();
    assert_eq!(order, vec![0, 1, 2]);
}

/// S21: a RECORD_CHAN write with VALID raises the bind event for exactly the
/// next cycle; without VALID it only stores.
#[rstest]
#[case::valid(0x8000_0007, true)]
#[case::store_only(0x0000_0007, false)]
fn record_chan_bind(#[case] data: u32, #[case] bind: bool) {
    let mut tb = Tb::new(Gen::G84, 1);
    let chan = regs::GLOBAL_REGS[regs::RECORD_CHAN].offset;
    tb.cycle(Some(BusOp::Write { offset: chan, data, strb: 0xf }));
    assert_eq!(tb.set.bind, bind);
    tb.tick();
    assert!(!tb.set.bind);
    assert_eq!(tb.set.global[regs::RECORD_CHAN], data);
}

// ---------------------------------------------------------------- S0 / S9 configuration

/// S0/S9/S19 (`pcnt_top` parameter checks): 1..=8 domains, trailer base a
/// multiple of 0x20, base + 0x20 <= signal count <= 256, USER_0/USER_1
/// present and outside trailer +0x0c..+0x1f.
#[rstest]
#[case::default(1, 0xe0, 256, 0xea, true)]
#[case::no_domains(0, 0xe0, 256, 0xea, false)]
#[case::nine_domains(9, 0xe0, 256, 0xea, false)]
#[case::base_unaligned(1, 0x50, 256, 0xea, false)]
#[case::trailer_fits(1, 0x40, 0x60, 0x4a, true)]
#[case::trailer_cut(1, 0x40, 0x5f, 0x4a, false)]
#[case::too_many_signals(1, 0x00, 257, 0x0a, false)]
#[case::user_host_domain_gt215(1, 0xe0, 256, 0x2a, true)] // envytools tesla.rst: host 0x2a-0x2b
#[case::user_in_trailer(1, 0xe0, 256, 0xeb, false)]
#[case::user_past_signals(1, 0x40, 0x60, 0x5f, false)]
fn config_validation(
    #[case] domains: usize,
    #[case] base: u8,
    #[case] count: u16,
    #[case] user: u16,
    #[case] ok: bool,
) {
    let mut cfg = Config::new(Gen::G92, 1).unwrap();
    cfg.num_domains = domains;
    cfg.trailer_base[7] = base;
    cfg.sig_count[7] = count;
    cfg.user_pos[7] = user;
    let r = cfg.validate();
    assert_eq!(r.is_ok(), ok, "{r:?}");
    if let Err(e) = r {
        assert!(!e.to_string().is_empty());
    }
}

/// Seed 003 "The PCOUNTER signals" / "Trailer signals", S9: with trailer base
/// 0x40 and 0x70 signals, inputs at or past 0x70 read 0, the trailer sits at
/// 0x4a..0x5f (its external inputs ignored) and the rest are external.
#[test]
fn trailer_base_and_signal_count() {
    let mut cfg = Config::new(Gen::Gt215, 1).unwrap();
    (cfg.trailer_base[0], cfg.sig_count[0], cfg.user_pos[0]) = (0x40, 0x70, 0x4a);
    let mut tb = Tb::with_config(cfg);
    for s in [0x05, 0x4d, 0x4f, 0x6f, 0x70, 0xe5, 0xff] {
        tb.sig(0, s, true);
    }
    tb.global_pulse();
    let w = |tb: &Tb, i: usize| tb.reg(0, regs::SIG_STATUS + i);
    assert_eq!(w(&tb, 0), 1 << 5);
    // 0x4d PERIODIC (0 after reset), 0x4e WRCACHE_FLUSH and 0x4f PM_TRIGGER
    // (both synchronized pulses, S22) are internal; 0x6f external.
    assert_eq!(w(&tb, 2), 3 << 0x0e);
    assert_eq!(w(&tb, 3), 1 << 0x0f, "0x6f present, 0x70 and up absent");
    assert_eq!([w(&tb, 4), w(&tb, 5), w(&tb, 6), w(&tb, 7)], [0; 4]);
}

/// Seed 003 packet layout: "low / middle / high 16 bits of cycle counter";
/// the 48-bit counter wraps (S21).
#[rstest]
#[case::words(0x1234_5678_9abc, [0x9abd, 0x5678, 0x1234])]
#[case::wraps(0xffff_ffff_ffff, [0x0000, 0x0000, 0x0000])]
fn record_cycles_words(#[case] cycles: u64, #[case] words: [u16; 3]) {
    let mut tb = record_tb(Gen::G84, 1, true, 0x1000);
    tb.set.domains[0].rec.cycles = cycles;
    tb.pulse(0, STOP); // counts once more; STOP = 1 at the next tick
    tb.ticks(6);
    let a = u64::from(BUF);
    assert_eq!([tb.word(a, 0), tb.word(a, 1), tb.word(a, 2)], words);
}

/// The generated mask table the model's view reads is the masks of the
/// register map (regmap/pcounter.rdl), for every generation and register.
#[test]
fn rw_mask_table_matches_the_register_map() {
    for gen in Gen::ALL {
        for (idx, r) in DOM_REGS.iter().enumerate() {
            assert_eq!(regs::DOM_RW_MASKS[gen as usize][idx], r.rw_mask(gen), "{} on {}", r.name, gen.name());
        }
    }
}
