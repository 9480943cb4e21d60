//! Table tests of the R10000/R12000 model (`pcounter::r10k`) against seed
//! 002 (`002_402b4141d12f561e.clean.txt`, cited by line: "s002:80" is the
//! U-bit row of the mode table) and docs/semantics.md R1..R13. Exact values
//! throughout.
//!
//! Timing convention: `write`/`read` are one APB ACCESS cycle (the SETUP
//! cycle is left out); `idle(n)` is n cycles without a bus operation. In
//! every cycle, the counters count with the registers as they were at the
//! start of the cycle (a write's effect is visible from the next one, R10).

use pcounter::r10k::regs::{self, ctl, Variant, NUM_SOURCES};
use pcounter::r10k::{InputError, Mode, R10kInputs, R10kUnit};
use pcounter::{common::bus::BusOp, common::bus::BusResult};
use rstest::rstest;

use Variant::{R10000, R12000};

struct Tb {
    u: R10kUnit,
    events: [u8; NUM_SOURCES],
    mode: Mode,
}

impl Tb {
    fn new(v: Variant) -> Tb {
        Tb { u: R10kUnit::new(v), events: [0; NUM_SOURCES], mode: Mode::USER }
    }
    fn cycle(&mut self, bus: Option<BusOp>) -> BusResult {
        let inp = R10kInputs { events: &self.events, mode: self.mode, bus };
        self.u.step(&inp).expect("valid inputs")
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
    fn cnt(&self, j: usize) -> u32 {
        self.u.counters[j].cnt
    }
}

/// A control value: Event, IE, mode bits (U S K EXL as bits 3..0).
fn ctlv(v: Variant, event: u32, ie: bool, mode: u32) -> u32 {
    ctl::IE.set(ctl::MODE.set(v.event_field().set(0, event), mode), u32::from(ie))
}

const U: u32 = 0b1000;
const S: u32 = 0b0100;
const K: u32 = 0b0010;
const X: u32 = 0b0001;

/// R7: the mode table (s002:80..86), ERL, KSU 3, combinations. Counter 0
/// counts cycles (Event 0, R5) for 10 cycles in the given mode.
#[rstest]
#[case::user_u(U, 2, false, false, 10)] // s002:80
#[case::user_k(K, 2, false, false, 0)] // s002:80, s002:84: K does not match user mode
#[case::super_s(S, 1, false, false, 10)] // s002:82: "not supported" is the OS's; the bit counts (R7)
#[case::super_u(U, 1, false, false, 0)] // s002:82
#[case::kernel_k(K, 0, false, false, 10)] // s002:84
#[case::kernel_s(S, 0, false, false, 0)] // s002:84
#[case::exl_x(X, 0, true, false, 10)] // s002:86
#[case::exl_x_user_ksu(X, 2, true, false, 10)] // s002:86: any KSU
#[case::exl_beats_ksu(U, 2, true, false, 0)] // s002:80 "EXL = 0": EXL wins (R7)
#[case::erl_all(U | S | K | X, 0, false, true, 0)] // s002:80..86 all need ERL = 0 (R7)
#[case::erl_exl(X, 0, true, true, 0)] // s002:86 "ERL = 0"
#[case::ksu3_all(U | S | K, 3, false, false, 0)] // no row of s002:80..84 names KSU 3 (R7)
#[case::none(0, 2, false, false, 0)] // s002:91..95: modes must be specified
#[case::u_or_k_user(U | K, 2, false, false, 10)] // s002:41..43 "some combination"
#[case::u_or_k_kernel(U | K, 0, false, false, 10)] // s002:41..43
fn mode_table(#[case] bits: u32, #[case] ksu: u8, #[case] exl: bool, #[case] erl: bool, #[case] expect: u32) {
    for v in Variant::ALL {
        let mut tb = Tb::new(v);
        tb.write(regs::CTL0, ctlv(v, 0, false, bits));
        tb.mode = Mode { ksu, exl, erl };
        tb.idle(10);
        assert_eq!(tb.cnt(0), expect, "{v:?}");
    }
}

/// R2, R3: the Event field and the stored bits per variant.
#[rstest]
#[case::r10000(R10000, 0x1ff, 16)] // s002:56..58 Event 8:5; s002:27 "sixteen events per counter"
#[case::r12000(R12000, 0x3ff, 32)] // s002:32..33 "32 events per counter": bits 9:5 (R2)
fn control_bits(#[case] v: Variant, #[case] mask: u32, #[case] events: u32) {
    let mut tb = Tb::new(v);
    tb.mode = Mode { ksu: 0, exl: false, erl: true }; // nothing counts
    for j in 0..2 {
        tb.write(regs::ctl(j), 0xffff_ffff);
        assert_eq!(tb.read(regs::ctl(j)), mask);
        tb.write(regs::ctl(j), 0);
        assert_eq!(tb.read(regs::ctl(j)), 0);
    }
    assert_eq!(v.events_per_counter(), events);
    assert_eq!(v.ctl_wr_mask(), mask);
    // The counts are full 32-bit registers (s002:38).
    tb.write(regs::CNT1, 0xdead_beef);
    assert_eq!(tb.read(regs::CNT1), 0xdead_beef);
}

/// R4, R5: which source a counter's Event selects, and the cycle sources.
/// Only source `src` carries events (1 a cycle); 10 cycles counted.
#[rstest]
#[case::r10000_c0_e9(R10000, 0, 9, 9, 10)] // s002:150, s002:917..918 EXAMPLE event 9
#[case::r10000_c1_e9_is_25(R10000, 1, 9, 25, 10)] // s002:1011 hwp_evctr[25]: counter 1 has 16..31
#[case::r10000_c1_e9_not_9(R10000, 1, 9, 9, 0)] // s002:1011
#[case::r12000_c1_e9_is_9(R12000, 1, 9, 9, 10)] // s002:31..33: one list of 32 for both counters
#[case::r12000_c1_e25(R12000, 1, 25, 25, 10)] // s002:434
#[case::r10000_c1_e0_cycles(R10000, 1, 0, 3, 10)] // s002:179 "16=cycles": counted inside (R5)
#[case::r10000_c0_e0_cycles(R10000, 0, 0, 3, 10)] // s002:101
#[case::r12000_c1_e16_prefetch(R12000, 1, 16, 3, 0)] // s002:379: R12000 16 is no cycle count
#[case::r12000_c1_e16_counts(R12000, 1, 16, 16, 10)] // s002:379..381
#[case::r12000_c0_e0_cycles(R12000, 0, 0, 3, 10)] // s002:281
fn event_select(#[case] v: Variant, #[case] j: usize, #[case] event: u32, #[case] src: usize, #[case] expect: u32) {
    let mut tb = Tb::new(v);
    tb.write(regs::ctl(j), ctlv(v, event, false, U));
    tb.events[src] = 1;
    tb.idle(10);
    assert_eq!(tb.cnt(j), expect);
}

/// R6: per-cycle maxima of the sources; one over is a typed error.
#[rstest]
#[case::r12000_mht(R12000, 4, 5)] // s002:300..304 "five entries"
#[case::r12000_decoded(R12000, 1, 4)] // s002:284..285 "total number ... decoded"
#[case::r12000_grad_loads(R12000, 18, 4)] // s002:389..391 "Up to four loads"
#[case::r12000_fp(R12000, 21, 4)] // s002:418..420 "0 to 4"
#[case::r12000_mht_memory(R12000, 30, 4)] // s002:506..508 fifth slot not included
#[case::r12000_shared(R12000, 31, 2)] // s002:513..515 "incremented by two"
#[case::r12000_state(R12000, 28, 3)] // s002:484..488 values 00..11
#[case::r12000_stores(R12000, 19, 1)] // s002:394..395 "Only one store can graduate per cycle"
#[case::r10000_shared(R10000, 31, 2)] // s002:255..256
#[case::r10000_intervention_hits(R10000, 28, 1)] // s002:235 title "hits"; R6: not the R12000's state text
#[case::r10000_invalidation_hits(R10000, 29, 1)] // s002:243 title "hits"
#[case::r10000_exclusive_clean(R10000, 30, 1)] // s002:248, s002:1158 NOTES: title wins (R4)
#[case::r10000_grad(R10000, 15, 4)] // s002:176..177 (R6: four-wide)
#[case::r10000_issued(R10000, 1, 5)] // s002:104..106 "issued to ALU, FPU or load/store units", s002:370 ALU1, ALU2, FPU1, FPU2
#[case::r10000_branches_resolved(R10000, 6, 4)] // s002:125..126 rev 3.x "resolved", s002:316..318, NOTES s002:1146..1149
#[case::r10000_icache(R10000, 9, 1)] // s002:150..152
fn per_cycle_maxima(#[case] v: Variant, #[case] src: usize, #[case] max: u8) {
    assert_eq!(v.max_inc(src), max);
    let mut tb = Tb::new(v);
    let (j, event) = match v {
        R10000 => (src / 16, (src % 16) as u32),
        R12000 => (0, src as u32),
    };
    tb.write(regs::ctl(j), ctlv(v, event, false, U));
    tb.events[src] = max;
    tb.idle(3);
    assert_eq!(tb.cnt(j), 3 * u32::from(max));
    tb.events[src] = max + 1;
    let before = tb.u.clone();
    let e = tb.u.step(&R10kInputs { events: &tb.events, mode: tb.mode, bus: None }).unwrap_err();
    assert_eq!(e, InputError::EventValue { src, value: max + 1, max });
    assert_eq!(tb.u, before, "an input error changes nothing");
}

/// R8, R9: the profiler's sampling (s002:45..50, s002:571..576): preset
/// 2^31 - N, N events, the interrupt on the Nth, counting continues.
#[rstest]
#[case::one(1)]
#[case::ten(10)]
#[case::thousand(1000)]
fn overflow_sampling(#[case] n: u32) {
    let mut tb = Tb::new(R10000);
    tb.write(regs::CTL1, ctlv(R10000, 9, true, U)); // event 25, IE (s002:942..945)
    tb.write(regs::CNT1, (1u32 << 31) - n);
    tb.events[25] = 1;
    tb.idle(n - 1);
    assert_eq!((tb.cnt(1), tb.u.irq()), ((1 << 31) - 1, false));
    tb.idle(1);
    assert_eq!((tb.cnt(1), tb.u.irq()), (1 << 31, true), "the Nth event sets bit 31");
    tb.idle(5);
    assert_eq!((tb.cnt(1), tb.u.irq()), ((1 << 31) + 5, true), "s002:49..50: counting continues");
    // Re-arm: the count written below 2^31 drops the request (R9).
    tb.write(regs::CNT1, (1u32 << 31) - n);
    assert!(!tb.u.irq());
}

/// R9: IE off, wrap at 2^32, IE cleared or set while bit 31 is set.
#[test]
fn interrupt_level_follows_bit_31_and_ie() {
    let mut tb = Tb::new(R12000);
    tb.write(regs::CTL0, ctlv(R12000, 0, false, U)); // cycles, IE off
    tb.write(regs::CNT0, 0x7fff_ffff);
    tb.idle(1);
    assert_eq!((tb.cnt(0), tb.u.irq()), (0x8000_0000, false), "s002:47..48: only with IE");
    tb.write(regs::CTL0, ctlv(R12000, 0, true, U)); // counts +1 with the old control
    assert_eq!((tb.cnt(0), tb.u.irq()), (0x8000_0001, true), "bit 31 and IE: requested at once");
    tb.write(regs::CNT0, 0xffff_fffe);
    tb.idle(1);
    assert!(tb.u.irq());
    tb.idle(1);
    assert_eq!((tb.cnt(0), tb.u.irq()), (0, false), "wraps at 2^32 (R8), the request drops");
    tb.write(regs::CNT0, 0x8000_0000);
    assert!(tb.u.irq(), "a written bit 31 requests (R9)");
    tb.mode = Mode::KERNEL; // no counting
    tb.write(regs::CTL0, ctlv(R12000, 0, false, U));
    assert!(!tb.u.irq(), "IE cleared");
    // Two counters, one line.
    tb.write(regs::CTL1, ctlv(R12000, 0, true, K));
    tb.write(regs::CNT1, 0x8000_0000);
    assert!(tb.u.irq());
}

/// R10: a control write in the cycle a count sets bit 31: the old control
/// counts, the new IE decides the request.
#[rstest]
#[case::ie_off(false)]
#[case::ie_on(true)]
fn control_write_on_the_overflow_cycle(#[case] new_ie: bool) {
    let mut tb = Tb::new(R10000);
    tb.write(regs::CTL0, ctlv(R10000, 0, !new_ie, U | K | S | X));
    tb.write(regs::CNT0, 0x7fff_ffff);
    // This cycle's count sets bit 31; the write changes IE at the same edge.
    tb.write(regs::CTL0, ctlv(R10000, 0, new_ie, U));
    assert_eq!(tb.cnt(0), 0x8000_0000);
    assert_eq!(tb.u.irq(), new_ie);
}

/// R10: a count write replaces the cycle's count; R6: a multi-count event
/// steps onto bit 31 without stepping over it.
#[test]
fn count_write_wins_and_multi_counts_set_bit_31() {
    let mut tb = Tb::new(R12000);
    tb.events[4] = 5;
    tb.write(regs::CTL0, ctlv(R12000, 4, true, U)); // MHT occupancy, five a cycle
    tb.idle(2);
    assert_eq!(tb.cnt(0), 10);
    tb.write(regs::CNT0, 0x7fff_fffd); // this cycle's +5 is dropped
    assert_eq!(tb.cnt(0), 0x7fff_fffd);
    tb.idle(1);
    assert_eq!((tb.cnt(0), tb.u.irq()), (0x8000_0002, true));
}

/// R1: the window, holes, strobes, PADDR[1:0]; R11: reset values.
#[test]
fn bus_window() {
    let mut tb = Tb::new(R10000);
    for off in [regs::CTL0, regs::CNT0, regs::CTL1, regs::CNT1] {
        assert_eq!(tb.read(off), 0, "reset 0 at {off:#x}");
    }
    for off in [0x10u16, 0x14, 0x80, 0xfc] {
        assert!(tb.cycle(Some(BusOp::Read { offset: off })).slverr);
        assert!(tb.write(off, 1).slverr);
    }
    let r = tb.cycle(Some(BusOp::Write { offset: regs::CNT0, data: 7, strb: 0x7 }));
    assert!(r.slverr);
    assert_eq!(tb.read(regs::CNT0), 0, "a partial strobe writes nothing");
    assert!(!tb.write(regs::CNT0 | 3, 7).slverr);
    assert_eq!(tb.read(regs::CNT0 | 1), 7, "PADDR[1:0] ignored");
    assert_eq!(regs::decode(0x08), Some(regs::Target::Ctl(1)));
    assert_eq!(regs::decode(0x0c), Some(regs::Target::Cnt(1)));
    assert_eq!(regs::decode(0x10), None);
}

#[test]
fn input_errors_are_typed() {
    let mut u = R10kUnit::new(R10000);
    let ev = [0u8; NUM_SOURCES];
    let short = [0u8; 31];
    let step = |u: &mut R10kUnit, events: &[u8], mode: Mode, bus| u.step(&R10kInputs { events, mode, bus });
    assert_eq!(step(&mut u, &short, Mode::USER, None), Err(InputError::EventCount { got: 31 }));
    assert_eq!(step(&mut u, &ev, Mode { ksu: 4, exl: false, erl: false }, None), Err(InputError::Ksu(4)));
    assert_eq!(step(&mut u, &ev, Mode::USER, Some(BusOp::Read { offset: 0x100 })), Err(InputError::Offset(0x100)));
    // A cycle source's input is ignored: any 3-bit value is accepted (R5).
    let mut cyc = ev;
    cyc[16] = 7;
    assert!(step(&mut u, &cyc, Mode::USER, None).is_ok());
    cyc[16] = 8;
    assert!(matches!(step(&mut u, &cyc, Mode::USER, None), Err(InputError::EventValue { src: 16, .. })));
    assert!(InputError::Ksu(4).to_string().contains("KSU 4"));
}
