//! The values script commands carry (expectations, inputs, counters, clock
//! patterns); the commands themselves are declared in `commands.rs`.

use std::fmt;

/// What a `read` must return for the script to pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    Eq(u32),
    MaskEq {
        mask: u32,
        value: u32,
    },
    /// Inclusive on both ends; the parser guarantees `lo <= hi`.
    Range {
        lo: u32,
        hi: u32,
    },
    /// `read ADDR trace VALUE`: the value a recorded driver trace read at
    /// this address (`pcnt import-mmiotrace`). Printed beside the value read,
    /// never checked: the signals on real hardware differ from the harness's.
    Trace(u32),
}

impl Expect {
    pub fn check(&self, v: u32) -> bool {
        match *self {
            Expect::Eq(x) => v == x,
            Expect::MaskEq { mask, value } => v & mask == value,
            Expect::Range { lo, hi } => lo <= v && v <= hi,
            Expect::Trace(_) => true,
        }
    }

    /// The value a failure report shows as expected: the value, the masked
    /// value, the range's low end (`describe` gives the whole expectation).
    pub fn value(&self) -> u32 {
        match *self {
            Expect::Eq(x) | Expect::Trace(x) => x,
            Expect::MaskEq { value, .. } => value,
            Expect::Range { lo, .. } => lo,
        }
    }

    /// The expectation in script syntax (what follows `read ADDR`), so a
    /// failure message can be pasted back into a script.
    pub fn describe(&self) -> String {
        match *self {
            Expect::Eq(x) => format!("== {x:#x}"),
            Expect::MaskEq { mask, value } => format!("& {mask:#x} == {value:#x}"),
            Expect::Range { lo, hi } => format!("in {lo}..{hi}"),
            Expect::Trace(x) => format!("trace {x:#010x}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlobalInput {
    PmTrigger,
    WrcacheFlush,
}

impl GlobalInput {
    pub fn name(&self) -> &'static str {
        match self {
            GlobalInput::PmTrigger => "pm_trigger",
            GlobalInput::WrcacheFlush => "wrcache_flush",
        }
    }
}

/// A counter the `poke` backdoor can preload (docs/semantics.md S14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// CTR_CYCLES and its copy CTR_CYCLES_ALT.
    Cycles,
    Event,
    Start,
    Pre,
    Stop,
    /// Quad mode shadow counters (S17).
    ShCycles,
    ShEvent,
    ShStart,
    ShPre,
    ShStop,
    /// The PERIODIC generator's 17-bit counter (S18); values are masked.
    PeriodicCnt,
    /// Record mode (S21): CYCLES bits 31:0 and 47:32, STOP (12 bits), and
    /// event counter i (16 bits); values are masked to the width.
    RecCycles,
    RecCyclesHi,
    RecStop,
    RecEv(u8),
}

impl Counter {
    pub const ALL: [Counter; 11] = [
        Counter::Cycles,
        Counter::Event,
        Counter::Start,
        Counter::Pre,
        Counter::Stop,
        Counter::ShCycles,
        Counter::ShEvent,
        Counter::ShStart,
        Counter::ShPre,
        Counter::ShStop,
        Counter::PeriodicCnt,
    ];
    /// The record-mode counters (S21).
    pub fn record() -> impl Iterator<Item = Counter> {
        [Counter::RecCycles, Counter::RecCyclesHi, Counter::RecStop].into_iter().chain((0..12).map(Counter::RecEv))
    }

    pub fn from_name(tok: &str) -> Option<Counter> {
        Counter::ALL.into_iter().chain(Counter::record()).find(|c| c.name() == tok)
    }

    /// Bits the counter holds on a generation with `feat` (a poked value
    /// must fit): CTR_CYCLES/EVENT/START are 40-bit with `wide_counters` (S24).
    pub fn width(&self, feat: pcounter::pcnt::regs::Features) -> u32 {
        match self {
            Counter::Cycles | Counter::Event | Counter::Start if feat.wide_counters => 40,
            Counter::PeriodicCnt => 17,
            Counter::RecCyclesHi | Counter::RecEv(_) => 16,
            Counter::RecStop => 12,
            _ => 32,
        }
    }

    /// Script name.
    pub fn name(&self) -> &'static str {
        const EV: [&str; 12] = [
            "rec_ev0", "rec_ev1", "rec_ev2", "rec_ev3", "rec_ev4", "rec_ev5", "rec_ev6", "rec_ev7", "rec_ev8",
            "rec_ev9", "rec_ev10", "rec_ev11",
        ];
        match self {
            Counter::Cycles => "ctr_cycles",
            Counter::Event => "ctr_event",
            Counter::Start => "ctr_start",
            Counter::Pre => "ctr_pre",
            Counter::Stop => "ctr_stop",
            Counter::ShCycles => "sh_cycles",
            Counter::ShEvent => "sh_event",
            Counter::ShStart => "sh_start",
            Counter::ShPre => "sh_pre",
            Counter::ShStop => "sh_stop",
            Counter::PeriodicCnt => "periodic_cnt",
            Counter::RecCycles => "rec_cycles",
            Counter::RecCyclesHi => "rec_cycles_hi",
            Counter::RecStop => "rec_stop",
            Counter::RecEv(i) => EV[usize::from(*i) % 12],
        }
    }

    /// The RTL flop, named from the domain instance (`pcnt_domain`): in its
    /// counting engine `u_core` (`pcnt_dom_core`) or its record block
    /// `u_record`, and the counter's lowest bit in it; the width is
    /// [`Counter::width`].
    pub fn rtl_flop(&self) -> (&'static str, u32) {
        match self {
            Counter::Cycles => ("u_core.ctr_cycles_q", 0),
            Counter::Event => ("u_core.ctr_event_q", 0),
            Counter::Start => ("u_core.ctr_start_q", 0),
            Counter::Pre => ("u_core.ctr_pre_q", 0),
            Counter::Stop => ("u_core.ctr_stop_q", 0),
            // shadow_q packs cycles, EVENT, START, PRE, STOP (pcnt_pkg::Quad*).
            Counter::ShCycles => ("u_core.shadow_q", 0),
            Counter::ShEvent => ("u_core.shadow_q", 32),
            Counter::ShStart => ("u_core.shadow_q", 64),
            Counter::ShPre => ("u_core.shadow_q", 96),
            Counter::ShStop => ("u_core.shadow_q", 128),
            Counter::PeriodicCnt => ("u_core.per_cnt_q", 0),
            Counter::RecCycles => ("u_record.cycles_q", 0),
            Counter::RecCyclesHi => ("u_record.cycles_q", 32),
            Counter::RecStop => ("u_record.stop_q", 0),
            Counter::RecEv(i) => ("u_record.ev_q", 16 * u32::from(*i)),
        }
    }
}

/// When a domain ticks (docs/semantics.md S15); cycle 0 is the first cycle
/// after reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockSpec {
    /// `clock D M/N` (or `clock D N` = 1/N): ticks when `cycle % n < m`.
    Ratio { m: u32, n: u32 },
    /// `clock D irregular SEED`: ticks when `splitmix64(seed + cycle) % 8 < 5`.
    Irregular { seed: u64 },
}

impl ClockSpec {
    pub fn ticks(&self, cycle: u64) -> bool {
        match *self {
            ClockSpec::Ratio { m, n } => cycle % u64::from(n) < u64::from(m),
            ClockSpec::Irregular { seed } => splitmix64(seed.wrapping_add(cycle)) % 8 < 5,
        }
    }
}

impl fmt::Display for ClockSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockSpec::Ratio { m: 1, n } => write!(f, "{n}"),
            ClockSpec::Ratio { m, n } => write!(f, "{m}/{n}"),
            ClockSpec::Irregular { seed } => write!(f, "irregular {seed}"),
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a fixed, portable hash for the
/// irregular clock pattern.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl crate::engine::shrink::Wait for super::Cmd {
    fn wait_cycles(&self) -> Option<u64> {
        match self {
            super::Cmd::Wait { cycles } => Some(*cycles),
            _ => None,
        }
    }
    fn wait(cycles: u64) -> super::Cmd {
        super::Cmd::Wait { cycles }
    }
}

/// The script expectation of `cmd` (a `read` or `mem`) that its result
/// `res`, seen at bus clock `cycle`, does not meet: a failure of the run,
/// as RTL/model disagreements are, so it leaves the same artifacts and a
/// shrunk script still fails on it (`history`: the last commands).
pub fn unmet_expectation(
    cycle: u64,
    cmd: &super::Cmd,
    res: Option<&pcounter::common::bus::BusResult>,
    history: impl FnOnce() -> Vec<(u64, String)>,
) -> Result<(), Box<crate::engine::mismatch::Mismatch>> {
    let (Some(res), super::Cmd::Read { expect: Some(x), .. } | super::Cmd::Mem { expect: Some(x), .. }) = (res, cmd)
    else {
        return Ok(());
    };
    if x.check(res.rdata) {
        return Ok(());
    }
    let err = if res.slverr { " PSLVERR" } else { "" };
    Err(Box::new(crate::engine::mismatch::Mismatch {
        cycle,
        scope: None,
        what: format!("script expectation of `{cmd}`"),
        expected: x.value(),
        actual: res.rdata,
        fields: Some((x.describe(), format!("{:#010x}{err}", res.rdata))),
        wave_reg: None,
        also: Vec::new(),
        history: history(),
        assertion: None,
        expectation: true,
    }))
}

/// Bus clocks of a command: an access two (SETUP, ACCESS; PREADY wait
/// states come on top), a wait its count, the rest none.
impl crate::engine::device::Clocks for super::Cmd {
    fn clocks(&self) -> u64 {
        match self {
            super::Cmd::Write { .. } | super::Cmd::Read { .. } => 2,
            super::Cmd::Wait { cycles } => *cycles,
            _ => 0,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the source text.
    pub line: usize,
    pub cmd: super::Cmd,
}
