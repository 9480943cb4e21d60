//! Table tests of the PMON model (`pcounter::pmon`) against seed 001
//! (`001_d7d82475aca0a06f.txt`, cited by line: "s001:10" is the Frz_On_Ov
//! row) and docs/semantics.md P1..P14. Exact values throughout.
//!
//! Timing convention: `write`/`read` are one APB ACCESS cycle (the SETUP
//! cycle is left out); `idle(n)` is n cycles without a bus operation. In
//! every cycle, the counters count with the registers as they were at the
//! start of the cycle (a write's effect is visible from the next one, P1).

use pcounter::pmon::regs::{self, box_ctl, ctl0, ctl1};
use pcounter::pmon::{InputError, PmonBox, PmonConfig, PmonConfigError, PmonInputs};
use pcounter::{common::bus::BusOp, common::bus::BusResult};
use rstest::rstest;

const TOP: u64 = 1 << 48;

struct Tb {
    b: PmonBox,
    /// lanes[e * 8 + l]: lane l of source e (P5).
    lanes: Vec<u8>,
    freeze: bool,
}

impl Tb {
    fn new() -> Tb {
        Tb::with(PmonConfig::default())
    }
    fn with(cfg: PmonConfig) -> Tb {
        Tb { b: PmonBox::new(cfg).unwrap(), lanes: vec![0; cfg.num_events * 8], freeze: false }
    }
    fn cycle(&mut self, bus: Option<BusOp>) -> BusResult {
        let inp = PmonInputs { lanes: &self.lanes, freeze: self.freeze, bus };
        self.b.step(&inp).expect("valid inputs")
    }
    fn write(&mut self, offset: u16, data: u32) -> BusResult {
        self.cycle(Some(BusOp::Write { offset, data, strb: 0xf }))
    }
    fn read(&mut self, offset: u16) -> u32 {
        let r = self.cycle(Some(BusOp::Read { offset }));
        assert!(!r.slverr, "read of {offset:#x} refused");
        r.rdata
    }
    fn idle(&mut self, n: u32) {
        for _ in 0..n {
            self.cycle(None);
        }
    }
    fn lane(&mut self, src: usize, lane: usize, v: u8) {
        self.lanes[src * 8 + lane] = v;
    }
    fn data(&self, j: usize) -> u64 {
        self.b.counters[j].data
    }
    /// A 48-bit preset the way software does it (P11): box frozen around
    /// the two writes, then unfrozen (4 cycles, none of them counting).
    fn preset(&mut self, j: usize, v: u64) {
        self.write(regs::BOX_CTL, 1);
        self.write(regs::data_lo(j), v as u32);
        self.write(regs::data_hi(j), (v >> 32) as u32);
        self.write(regs::BOX_CTL, 0);
    }
}

fn ctl(sel: u32, umask: u32) -> u32 {
    ctl0::UMASK.set(ctl0::EVNT_SEL.set(0, sel), umask)
}

fn with_thresh(c: u32, thresh: u32, invert: bool) -> u32 {
    ctl0::INVERT.set(ctl0::THRESH.set(c, thresh), u32::from(invert))
}

/// Counts `seq` (lane 0 of code 2, one value a cycle) with `ctl0v` /
/// `ctl1v` after an optional preset; returns the counter's final value.
fn run(ctl0v: u32, ctl1v: u32, preset: Option<u64>, seq: &[u8]) -> u64 {
    let mut tb = Tb::new();
    if let Some(p) = preset {
        tb.preset(0, p);
    }
    tb.write(regs::ctl1(0), ctl1v);
    // The CTL0 write cycle counts with CTL0 = 0 (Evnt_Sel 0: idle, P5) and
    // leaves prev = 0 (P6).
    tb.lane(2, 0, 7);
    tb.write(regs::ctl0(0), ctl0v);
    for &v in seq {
        tb.lane(2, 0, v);
        tb.idle(1);
    }
    tb.data(0)
}

// s001:4-5, P5: Evnt_Sel picks the code; code 0 is COUNTER_IDLE; Umask sums
// the lanes of a code with sub-events (2) and is ignored by one without
// (1: its lane 0). Code 0's lanes carry 15 and code 1's lanes 1..7 15 (what
// a wrong select would count), code 1's lane 0 9, code 2's lanes 1..8.
#[rstest]
#[case::one_lane(2, 0x01, 1)]
#[case::lanes_0_and_7(2, 0x81, 1 + 8)]
#[case::all_lanes(2, 0xff, 36)]
#[case::umask_zero_selects_no_sub_event(2, 0x00, 0)]
#[case::code_0_is_idle(0, 0xff, 0)]
#[case::code_0_is_idle_with_umask_0(0, 0x00, 0)]
#[case::no_sub_events_umask_0_counts_lane_0(1, 0x00, 9)]
#[case::no_sub_events_ignores_umask(1, 0xfe, 9)]
#[case::source_3_lane_2(3, 0x04, 0)]
#[case::sel_past_num_events(4, 0xff, 0)]
#[case::sel_255(255, 0xff, 0)]
fn event_codes_and_umask(#[case] sel: u32, #[case] umask: u32, #[case] per_cycle: u64) {
    let mut tb = Tb::new();
    for l in 0..8 {
        tb.lane(0, l, 15);
        tb.lane(1, l, if l == 0 { 9 } else { 15 });
        tb.lane(2, l, l as u8 + 1);
    }
    tb.write(regs::ctl0(0), ctl(sel, umask));
    assert_eq!(tb.data(0), 0, "the write cycle counts with the old CTL0 (P1)");
    tb.idle(10);
    assert_eq!(tb.data(0), 10 * per_cycle);
}

// P5: the SubEvents parameter decides per code; the default has code 1
// without sub-events and codes 2, 3 with them.
#[test]
fn sub_events_is_a_parameter() {
    let mut cfg = PmonConfig::default();
    assert_eq!((cfg.sub_events[1], cfg.sub_events[2], cfg.sub_events[3]), (false, true, true));
    cfg.sub_events.set(2, false);
    let mut tb = Tb::with(cfg);
    tb.lane(2, 0, 4);
    tb.lane(2, 1, 5);
    tb.write(regs::ctl0(0), ctl(2, 0x02));
    tb.idle(3);
    assert_eq!(tb.data(0), 12, "code 2 without sub-events: its lane 0, Umask ignored");
}

// s001:12-13, P6 step 1: ">=" (Invert 0) and "<" (Invert 1) against Thresh,
// counting 1 per cycle; Thresh 0 is no filter and ignores Invert.
#[rstest]
#[case::ge_equal(5, 5, false, 1)]
#[case::ge_above(9, 5, false, 1)]
#[case::ge_below(4, 5, false, 0)]
#[case::inv_below(4, 5, true, 1)]
#[case::inv_equal(5, 5, true, 0)]
#[case::inv_zero_increment(0, 1, true, 1)]
#[case::thresh_0_counts_raw(7, 0, false, 7)]
#[case::thresh_0_ignores_invert(7, 0, true, 7)]
#[case::thresh_0_inc_0(0, 0, true, 0)]
#[case::thresh_above_any_increment(15, 255, false, 0)]
#[case::thresh_255_inverted(15, 255, true, 1)]
fn threshold_and_invert(#[case] inc: u8, #[case] thresh: u32, #[case] invert: bool, #[case] per_cycle: u64) {
    let c = with_thresh(ctl(2, 0x01), thresh, invert);
    assert_eq!(run(c, 0, None, &[inc; 6]), 6 * per_cycle);
}

// Lane sums past one lane's width reach the threshold (P5: IncW + 3 bits).
#[test]
fn threshold_compares_the_lane_sum() {
    let mut tb = Tb::new();
    for l in 0..8 {
        tb.lane(2, l, 15);
    }
    tb.write(regs::ctl0(0), with_thresh(ctl(2, 0xff), 120, false));
    tb.idle(3);
    assert_eq!(tb.data(0), 3, "8 x 15 = 120 >= 120");
    tb.write(regs::ctl0(0), with_thresh(ctl(2, 0xff), 121, false));
    tb.idle(3);
    assert_eq!(tb.data(0), 4, "the write cycle still counts with 120; 120 < 121 after");
}

const SEQ: [u8; 10] = [0, 3, 3, 0, 2, 0, 0, 5, 5, 1];

// s001:8, P6 step 3: Edge adds the cycle's increment on a 0-to-1 edge of the
// asserted condition; with a threshold the condition is the comparison.
#[rstest]
#[case::no_edge_no_thresh(false, 0, false, 19)]
#[case::edge_no_thresh(true, 0, false, 3 + 2 + 5)]
#[case::no_edge_thresh(false, 3, false, 4)]
#[case::edge_thresh(true, 3, false, 2)]
#[case::edge_thresh_inverted(true, 3, true, 3)]
#[case::no_edge_thresh_inverted(false, 3, true, 6)]
fn edge_with_and_without_threshold(
    #[case] edge: bool,
    #[case] thresh: u32,
    #[case] invert: bool,
    #[case] expected: u64,
) {
    let c = ctl0::EDGE.set(with_thresh(ctl(2, 0x01), thresh, invert), u32::from(edge));
    assert_eq!(run(c, 0, None, &SEQ), expected);
}

// P6 step 3: a level held through a freeze is not an edge after it (prev
// samples while frozen).
#[test]
fn edge_history_runs_while_frozen() {
    let mut tb = Tb::new();
    tb.write(regs::ctl0(0), ctl0::EDGE.set(ctl(2, 0x01), 1));
    tb.freeze = true;
    tb.lane(2, 0, 4);
    tb.idle(3);
    assert_eq!(tb.data(0), 0);
    tb.freeze = false;
    tb.idle(3);
    assert_eq!(tb.data(0), 0, "the rise happened while frozen");
    tb.lane(2, 0, 0);
    tb.idle(1);
    tb.lane(2, 0, 6);
    tb.idle(2);
    assert_eq!(tb.data(0), 6);
}

// s001:16, P6 step 4: Max replaces when the increment is greater (not
// equal); with a threshold the increment is 1 or 0.
#[rstest]
#[case::max_of_sequence(0, None, &SEQ, 5)]
#[case::preset_above_stays(0, Some(20), &[3, 15, 2], 20)]
#[case::preset_below_replaced(0, Some(10), &[3, 15, 2], 15)]
#[case::preset_equal_stays(0, Some(15), &[15, 15], 15)]
#[case::thresh_met(3, None, &[1, 4, 0], 1)]
#[case::thresh_never_met(3, None, &[1, 2, 0], 0)]
#[case::thresh_preset_above(3, Some(9), &[4, 4], 9)]
fn max_compare_and_replace(
    #[case] thresh: u32,
    #[case] preset: Option<u64>,
    #[case] seq: &[u8],
    #[case] expected: u64,
) {
    let c = with_thresh(ctl(2, 0x01), thresh, false);
    assert_eq!(run(c, ctl1::MAX.set(0, 1), preset, seq), expected);
}

#[test]
fn max_never_overflows() {
    assert_eq!(run(ctl(2, 0x01), 1, Some(TOP - 1), &[15, 15]), TOP - 1);
}

// s001:10, P8, P9: at 2^48 the counter wraps, the status bit is set at the
// same edge; with Frz_On_Ov the box Freeze is set too and every counter
// stops from the next cycle (the others still counted in the overflow
// cycle). Counter 1 counts 3 a cycle from source 1 as a witness.
#[rstest]
#[case::no_freeze(false)]
#[case::freeze_on_overflow(true)]
fn overflow_at_2_pow_48(#[case] frz: bool) {
    let mut tb = Tb::new();
    tb.lane(2, 0, 2);
    tb.lane(3, 0, 3);
    tb.write(regs::ctl0(0), ctl0::FRZ_ON_OV.set(ctl(2, 0x01), u32::from(frz)));
    tb.write(regs::ctl0(1), ctl(3, 0x01));
    tb.preset(0, TOP - 3);
    let w = tb.data(1);
    assert_eq!(w, 3, "counter 1 counted one cycle: the Freeze write's (P9)");
    tb.idle(1);
    assert_eq!((tb.data(0), tb.b.status, tb.b.freeze), (TOP - 1, 0, false));
    // Overflow cycle: a read sees the pre-wrap value and status 0 (P12).
    assert_eq!(tb.read(regs::data_lo(0)), 0xffff_ffff);
    assert_eq!((tb.data(0), tb.b.status, tb.b.ovf()), (1, 0b0001, true));
    assert_eq!(tb.b.freeze, frz);
    assert_eq!(tb.b.gsts, frz, "P9: the global status only with Frz_On_Ov");
    assert_eq!(tb.data(1), w + 3 * 2, "counter 1 counted the overflow cycle");
    tb.idle(2);
    if frz {
        assert_eq!((tb.data(0), tb.data(1)), (1, w + 6), "the whole box stopped");
        assert_eq!(tb.read(regs::BOX_CTL), 1, "Freeze reads back set by hardware");
    } else {
        assert_eq!((tb.data(0), tb.data(1)), (5, w + 12), "wrapped and counting on");
        assert_eq!(tb.read(regs::BOX_CTL), 0);
    }
    assert_eq!(tb.read(regs::BOX_STATUS), 0b0001);
}

// P8: Cntr_Ov is W1C; an overflow in the cycle of the clear wins.
#[test]
fn status_w1c_and_overflow_wins() {
    let mut tb = Tb::new();
    tb.lane(2, 0, 1);
    tb.write(regs::ctl0(2), ctl(2, 0x01));
    tb.preset(2, TOP - 2);
    tb.idle(1);
    assert_eq!(tb.b.status, 0);
    tb.write(regs::BOX_STATUS, 0xff);
    assert_eq!((tb.b.status, tb.data(2)), (0b0100, 0), "set in the clear's cycle: set wins");
    tb.write(regs::BOX_STATUS, 0b1011);
    assert_eq!(tb.b.status, 0b0100, "a 0 in bit 2 leaves it");
    tb.write(regs::BOX_STATUS, 0b0100);
    assert_eq!((tb.b.status, tb.b.ovf()), (0, false));
}

// P9: a software write of Freeze = 0 in the overflow cycle loses to the
// hardware set.
#[test]
fn hardware_freeze_wins_over_unfreeze_write() {
    let mut tb = Tb::new();
    tb.lane(2, 0, 1);
    tb.write(regs::ctl0(0), ctl0::FRZ_ON_OV.set(ctl(2, 0x01), 1));
    tb.preset(0, TOP - 1);
    tb.write(regs::BOX_CTL, 0);
    assert_eq!((tb.data(0), tb.b.freeze, tb.b.status), (0, true, 1));
}

// s001:7, P7: Cntr_Rst clears the counter at the write's edge (the cycle's
// increment is dropped), reads back 0, and counting goes on.
#[test]
fn cntr_rst_while_counting() {
    let mut tb = Tb::new();
    tb.lane(2, 0, 3);
    let c = ctl(2, 0x01);
    tb.write(regs::ctl0(0), c);
    tb.idle(5);
    assert_eq!(tb.data(0), 15);
    tb.write(regs::ctl0(0), ctl0::CNTR_RST.set(c, 1));
    assert_eq!(tb.data(0), 0);
    assert_eq!(tb.read(regs::ctl0(0)), c, "bit 17 is never stored");
    assert_eq!(tb.data(0), 3, "the read cycle counted");
    tb.idle(2);
    assert_eq!(tb.data(0), 9);
    assert_eq!(tb.b.counters[1].data, 0, "only the addressed counter");
}

// P11: a data write while counting replaces that half; the cycle's count
// and its carry are dropped.
#[rstest]
#[case::lo(true, 0x0000_0000_ffff_fffe, 100, 0x0000_0000_0000_0064)]
#[case::hi_drops_carry(false, 0x0000_0000_ffff_fffe, 7, 0x0000_0007_ffff_fffe)]
#[case::hi_reserved_bits(false, 0x0000_0000_0000_0010, 0xabcd_1234, 0x0000_1234_0000_0010)]
fn data_write_while_counting(#[case] lo: bool, #[case] start: u64, #[case] v: u32, #[case] expected: u64) {
    let mut tb = Tb::new();
    tb.lane(2, 0, 5);
    tb.write(regs::ctl0(0), ctl(2, 0x01));
    tb.preset(0, start);
    tb.write(if lo { regs::data_lo(0) } else { regs::data_hi(0) }, v);
    assert_eq!(tb.data(0), expected);
    tb.idle(1);
    assert_eq!(tb.data(0), (expected + 5) & (TOP - 1));
}

// UG 817760 5.4.5, P9, P10, P11: box freeze (register and input) and box
// resets while counting.
#[test]
fn box_freeze_while_counting() {
    let mut tb = Tb::new();
    tb.lane(2, 0, 2);
    tb.write(regs::ctl0(0), ctl(2, 0x01));
    tb.idle(2);
    tb.write(regs::BOX_CTL, 1);
    assert_eq!(tb.data(0), 6, "the Freeze write cycle still counts");
    tb.idle(3);
    assert_eq!(tb.data(0), 6);
    tb.write(regs::BOX_CTL, 0);
    assert_eq!(tb.data(0), 6, "the unfreeze cycle is still frozen");
    tb.idle(1);
    assert_eq!(tb.data(0), 8);
    tb.freeze = true;
    tb.idle(2);
    assert_eq!(tb.data(0), 8, "freeze_i acts in its own cycle");
    tb.freeze = false;
    tb.idle(1);
    assert_eq!(tb.data(0), 10);
}

#[rstest]
#[case::rst_cntr_counting(box_ctl::RST_CNTR.mask(), false, 0, true)]
#[case::rst_cntr_frozen(box_ctl::RST_CNTR.mask(), true, 0, true)]
#[case::rst_cntr_and_freeze(box_ctl::RST_CNTR.mask() | 1, false, 0, true)]
#[case::rst_ctrl_counting(box_ctl::RST_CTRL.mask(), false, 12, false)]
fn box_reset_while_counting(#[case] v: u32, #[case] frozen: bool, #[case] after: u64, #[case] ctl_kept: bool) {
    let mut tb = Tb::new();
    tb.lane(2, 0, 2);
    let c = ctl(2, 0x01);
    tb.write(regs::ctl0(0), c);
    tb.write(regs::ctl0(1), c);
    tb.idle(4);
    assert_eq!((tb.data(0), tb.data(1)), (10, 8));
    tb.freeze = frozen;
    tb.write(regs::BOX_CTL, v);
    tb.freeze = false;
    assert_eq!(tb.data(0), after, "reset wins over counting and freeze (P11)");
    if box_ctl::RST_CNTR.get(v) != 0 {
        assert_eq!(tb.data(1), 0, "every counter of the box");
    }
    assert_eq!(tb.read(regs::BOX_CTL), v & 1, "reset bits read 0 (P10)");
    assert_eq!(tb.read(regs::ctl0(1)), if ctl_kept { c } else { 0 });
    tb.idle(1);
    let counted = if ctl_kept && v & 1 == 0 { 2 * 3 } else { 0 };
    assert_eq!(tb.data(0), after + counted, "the two reads and one idle cycle");
}

// Rst_Cntr does not clear the status (P10), and clears prev (an event held
// high across it is a new edge).
#[test]
fn rst_cntr_keeps_status_clears_edge_history() {
    let mut tb = Tb::new();
    tb.lane(2, 0, 1);
    tb.write(regs::ctl0(0), ctl0::EDGE.set(ctl(2, 0x01), 1));
    tb.preset(0, TOP - 1);
    tb.lane(2, 0, 0);
    tb.idle(1);
    tb.lane(2, 0, 1);
    tb.idle(1);
    assert_eq!((tb.data(0), tb.b.status), (0, 1), "edge of 1 wrapped it");
    tb.idle(2);
    assert_eq!(tb.data(0), 0, "held high: no edge");
    tb.write(regs::BOX_CTL, box_ctl::RST_CNTR.mask());
    assert_eq!((tb.data(0), tb.b.status, tb.b.counters[0].prev), (0, 1, false));
    tb.idle(1);
    assert_eq!(tb.data(0), 1, "held high after the reset is a new edge");
}

// s001:6,9,11,17, P3, P4: reserved bits read 0 and ignore writes; the
// action bits read 0; Frz_On_Ov is one bit.
#[rstest]
#[case::ctl0(regs::ctl0(3), 0xff94_ffff & !ctl0::CNTR_RST.mask())]
#[case::ctl1(regs::ctl1(3), 0x0000_0001)]
#[case::data_hi(regs::data_hi(3), 0x0000_ffff)]
#[case::data_lo(regs::data_lo(3), 0xffff_ffff)]
#[case::box_ctl(regs::BOX_CTL, 0x0000_0001)]
#[case::box_ctl_hi(regs::BOX_CTL_HI, 0)]
#[case::box_status_hi(regs::BOX_STATUS_HI, 0)]
fn reserved_bits(#[case] offset: u16, #[case] read_back: u32) {
    let mut tb = Tb::new();
    let r = tb.write(offset, 0xffff_ffff);
    assert!(!r.slverr);
    assert_eq!(tb.read(offset), read_back);
    assert_eq!(tb.read(offset | 3), read_back, "PADDR[1:0] ignored (P1)");
}

// s001:4-13 (the CTL0 table, typed here from the seed, not from the
// generated map): every field at the seed's bits, and the stored mask is
// exactly the RW fields (Cntr_Rst is an action bit, P7; bits 16, 19, 21,
// 22 are absent from the table and read 0).
#[rstest]
#[case::evnt_sel(ctl0::EVNT_SEL, 7, 0)]
#[case::umask(ctl0::UMASK, 15, 8)]
#[case::cntr_rst(ctl0::CNTR_RST, 17, 17)]
#[case::edge(ctl0::EDGE, 18, 18)]
#[case::frz_on_ov(ctl0::FRZ_ON_OV, 20, 20)]
#[case::invert(ctl0::INVERT, 23, 23)]
#[case::thresh(ctl0::THRESH, 31, 24)]
fn ctl0_fields_sit_at_the_seed_bits(#[case] field: regs::Field, #[case] hi: u32, #[case] lo: u32) {
    assert_eq!((field.lsb, field.lsb + field.width - 1), (lo, hi), "{}", field.name);
}

#[test]
fn ctl0_stores_exactly_the_seed_rw_fields() {
    let seed_rw = [(7, 0), (15, 8), (18, 18), (20, 20), (23, 23), (31, 24)];
    let mask = seed_rw.iter().fold(0u32, |m, &(hi, lo)| m | ((((1u64 << (hi - lo + 1)) - 1) as u32) << lo));
    assert_eq!(mask, 0xff94_ffff);
    assert_eq!(ctl0::WR_MASK, mask);
}

// P1, P2: holes, absent counters and partial strobes answer PSLVERR and
// change nothing.
#[rstest]
#[case::after_global_block(0x028, 0xf)]
#[case::before_unit_discovery(0x0fc, 0xf)]
#[case::counter_4_ctl0(0x148, 0xf)]
#[case::counter_4_data(0x188, 0xf)]
#[case::past_map(0x1a8, 0xf)]
#[case::top(0x1fc, 0xf)]
#[case::partial_strobe(0x128, 0x7)]
fn refused_access(#[case] offset: u16, #[case] strb: u8) {
    let mut tb = Tb::new();
    let before = tb.b.clone();
    let r = tb.cycle(Some(BusOp::Write { offset, data: 0xffff_ffff, strb }));
    assert_eq!(r, BusResult { rdata: 0, slverr: true, ready: true });
    assert_eq!(tb.b, before);
    let r = tb.cycle(Some(BusOp::Read { offset }));
    // The partial-strobe case names a register: its read is accepted.
    assert_eq!((r.rdata, r.slverr), (0, strb == 0xf));
}

// P2: the discovery registers hold UG 817760 5.4.1 / 5.4.4's values (typed
// from the guide's tables, not taken from the generated map) and ignore
// writes without PSLVERR; the global control is reserved.
#[rstest]
#[case::gdis_l(0x000, 0x0001_2000)]
#[case::gdis_h(0x004, 0x2000_0000)]
#[case::gcadr_l(0x008, 0x18)]
#[case::gcadr_h(0x00c, 0)]
#[case::gsoff_l(0x010, 0x08)]
#[case::gctrl_l(0x018, 0)]
#[case::udis_l(0x100, 0x5030_1004)]
#[case::udis_h(0x104, 0x2000_0008)]
#[case::ucadr_l(0x108, 0x118)]
#[case::uidt_l(0x110, 0)]
fn discovery_is_read_only(#[case] offset: u16, #[case] value: u32) {
    let mut tb = Tb::new();
    assert_eq!(tb.read(offset), value);
    let before = tb.b.clone();
    assert!(!tb.write(offset, !value).slverr);
    assert_eq!(tb.b, before);
    assert_eq!(tb.read(offset), value);
}

// P9: GSTS_L.UnitBlock_Ov is set by an overflow with Frz_On_Ov, cleared by
// a write of 1, and a set in the cycle of the clear wins.
#[test]
fn global_status_set_wins_over_a_same_cycle_clear() {
    let mut tb = Tb::new();
    tb.lane(2, 0, 1);
    tb.write(regs::ctl0(0), ctl0::FRZ_ON_OV.set(ctl(2, 0x01), 1));
    tb.preset(0, TOP - 1);
    assert!(!tb.b.gsts);
    tb.idle(1); // +1 wraps: status, freeze and the global status at this edge
    assert_eq!((tb.data(0), tb.b.gsts, tb.b.freeze), (0, true, true));
    tb.preset(0, TOP - 1); // ends unfrozen: the next cycle wraps again
    assert_eq!(tb.write(regs::GSTS_L, 1), BusResult { rdata: 0, slverr: false, ready: true });
    assert_eq!((tb.data(0), tb.b.gsts, tb.b.freeze), (0, true, true), "the set wins over the clear");
    tb.write(regs::GSTS_L, 1);
    assert!(!tb.b.gsts, "frozen, no overflow: the clear acts");
}

#[test]
fn eight_counters_fill_the_map() {
    let mut tb = Tb::with(PmonConfig { num_counters: 8, ..PmonConfig::default() });
    tb.write(regs::ctl0(7), 0x12);
    tb.write(regs::data_hi(7), 0x34);
    // P2: CTL0[7] at 0x128 + 7 * 8, DATA_HI[7] at 0x16c + 7 * 8; the map
    // ends at 0x1a8; the unit discovery says 8 counters (NumCntr [7:0]).
    assert_eq!((tb.read(0x160), tb.read(0x1a4)), (0x12, 0x34));
    assert!(tb.cycle(Some(BusOp::Read { offset: 0x1a8 })).slverr);
    assert_eq!(tb.read(0x100), 0x5030_1008);
}

// The sampling a profiler does (UG 329468 2.1.4): preset 2^48 - N with
// Frz_On_Ov, run, overflow after N events, status bit, box frozen; read,
// clear, preset the next interval, unfreeze.
#[test]
fn profiler_sampling_sequence() {
    const N: u64 = 100;
    let mut tb = Tb::new();
    tb.lane(2, 0, 1); // one event a cycle
    tb.lane(3, 3, 1); // counter 1: a cycle count (source 1, lane 3)
    tb.write(regs::BOX_CTL, 1);
    tb.write(regs::ctl0(0), ctl0::FRZ_ON_OV.set(ctl(2, 0x01), 1));
    tb.write(regs::ctl0(1), ctl(3, 0x08));
    tb.write(regs::data_lo(0), (TOP - N) as u32);
    tb.write(regs::data_hi(0), ((TOP - N) >> 32) as u32);
    tb.write(regs::BOX_CTL, 0);
    assert_eq!((tb.data(0), tb.data(1)), (TOP - N, 0));
    tb.idle(N as u32 - 1);
    assert_eq!((tb.data(0), tb.b.status, tb.b.freeze), (TOP - 1, 0, false));
    tb.idle(1);
    assert_eq!((tb.data(0), tb.data(1), tb.b.status, tb.b.freeze), (0, N, 1, true));
    // The interrupt handler: status, both counters, later.
    tb.idle(10);
    assert_eq!(tb.read(regs::BOX_STATUS), 1);
    assert_eq!((tb.read(regs::data_lo(1)), tb.read(regs::data_hi(1))), (N as u32, 0));
    assert_eq!((tb.read(regs::data_lo(0)), tb.read(regs::data_hi(0))), (0, 0));
    // Next interval: clear the status, preset, unfreeze.
    tb.write(regs::BOX_STATUS, 1);
    tb.write(regs::data_lo(0), (TOP - N) as u32);
    tb.write(regs::data_hi(0), ((TOP - N) >> 32) as u32);
    tb.write(regs::BOX_CTL, 0);
    assert_eq!((tb.b.status, tb.b.ovf(), tb.data(1)), (0, false, N));
    tb.idle(N as u32);
    assert_eq!((tb.data(0), tb.data(1), tb.b.status, tb.b.freeze), (0, 2 * N, 1, true));
}

// Inputs the RTL's ports cannot carry are refused with a typed error, and
// the state is left alone.
#[rstest]
#[case::lane_too_wide(vec![16; 32], None, InputError::LaneValue { lane: 0, value: 16, inc_w: 4 })]
#[case::lane_count(vec![0; 31], None, InputError::LaneCount { expected: 32, got: 31 })]
#[case::offset(vec![0; 32], Some(BusOp::Read { offset: 0x200 }), InputError::Offset(0x200))]
fn input_errors(#[case] lanes: Vec<u8>, #[case] bus: Option<BusOp>, #[case] err: InputError) {
    let mut b = PmonBox::new(PmonConfig::default()).unwrap();
    let before = b.clone();
    assert_eq!(b.step(&PmonInputs { lanes: &lanes, freeze: false, bus }), Err(err));
    assert_eq!(b, before);
}

#[rstest]
#[case::no_counters(PmonConfig { num_counters: 0, ..PmonConfig::default() }, PmonConfigError::NumCounters(0))]
#[case::nine_counters(PmonConfig { num_counters: 9, ..PmonConfig::default() }, PmonConfigError::NumCounters(9))]
#[case::events(PmonConfig { num_events: 257, ..PmonConfig::default() }, PmonConfigError::NumEvents(257))]
#[case::inc_w(PmonConfig { inc_w: 6, ..PmonConfig::default() }, PmonConfigError::IncW(6))]
fn config_errors(#[case] cfg: PmonConfig, #[case] err: PmonConfigError) {
    assert_eq!(PmonBox::new(cfg), Err(err));
}
