//! The per-cycle compare of a lockstep that sees each side as a list of
//! named 32-bit registers plus a bus answer: the differences of one clock
//! and the mismatch they become, the recent commands kept for the report,
//! a script read's expectation, and the wave of both sides' registers.
//! The device says which registers exist, how a value decodes into fields
//! and what a command looks like; nothing here knows a register.

use std::collections::VecDeque;
use std::fmt::Display;
use std::io;
use std::path::Path;

use super::apb_window::Expect;
use super::artifacts::WAVE_CONTEXT;
use super::assertion::Assertion;
use super::mismatch::Mismatch;
use super::wave::{self, ExtraSignal, ExtraTrace};

/// Stimulus commands kept for a mismatch report.
pub const HISTORY: usize = 16;

/// The last `HISTORY` commands with the cycle each started on.
#[derive(Default)]
pub struct History(VecDeque<(u64, String)>);

impl History {
    pub fn note(&mut self, cycle: u64, cmd: &impl Display) {
        if self.0.len() == HISTORY {
            self.0.pop_front();
        }
        self.0.push_back((cycle, cmd.to_string()));
    }

    pub fn to_vec(&self) -> Vec<(u64, String)> {
        self.0.iter().cloned().collect()
    }
}

/// The differences of one clock: (what, expected, actual), registers first;
/// and an RTL assertion that failed at the clock's edge.
#[derive(Default)]
pub struct Diffs(pub Vec<(String, u32, u32)>, pub Option<Assertion>);

impl Diffs {
    /// Registers `names[k]`: the model's `expected[k]` against `actual[k]`.
    pub fn regs<S: AsRef<str>>(&mut self, names: &[S], expected: &[u32], actual: &[u32]) {
        for (k, (e, a)) in expected.iter().zip(actual).enumerate() {
            if e != a {
                self.0.push((names[k].as_ref().to_string(), *e, *a));
            }
        }
    }

    /// The bus answer of this clock (`what`: "read 0x10", "idle bus"):
    /// PRDATA, PSLVERR, PREADY as (model, RTL) pairs.
    pub fn bus(&mut self, what: &str, answer: [(u32, u32); 3]) {
        for (sig, (e, a)) in ["PRDATA", "PSLVERR", "PREADY"].into_iter().zip(answer) {
            if e != a {
                self.0.push((format!("{sig} of {what}"), e, a));
            }
        }
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty() && self.1.is_none()
    }

    /// The mismatch of clock `cycle`: the first difference, the rest named.
    /// A register difference (`is_reg`) points the report and the wave at
    /// the `regs` scope; `fields` decodes a register value for the report.
    pub fn mismatch(
        &self,
        cycle: u64,
        is_reg: impl Fn(&str) -> bool,
        fields: impl Fn(&str, u32) -> Option<String>,
        history: &History,
    ) -> Box<Mismatch> {
        // The register and bus values of the clock come first (they were
        // sampled before its edge); an assertion alone is its own failure.
        let Some((what, e, a)) = self.0.first().cloned() else {
            let a = self.1.as_ref().expect("a mismatch of a clock with a difference");
            return Mismatch::of_assertion(a, cycle, history.to_vec());
        };
        let reg = is_reg(&what);
        Box::new(Mismatch {
            cycle,
            scope: reg.then(|| "regs".to_string()),
            fields: fields(&what, e).zip(fields(&what, a)),
            wave_reg: reg.then(|| what.clone()),
            what,
            expected: e,
            actual: a,
            also: self.0[1..].iter().map(|d| d.0.clone()).chain(self.1.as_ref().map(Assertion::what)).collect(),
            history: history.to_vec(),
            assertion: None,
            expectation: false,
        })
    }
}

/// A script expectation of `cmd` that did not hold, seen after clock `cycle`.
pub fn expectation(
    cycle: u64,
    cmd: &impl Display,
    expected: u32,
    actual: u32,
    fields: Option<(String, String)>,
    history: &History,
) -> Box<Mismatch> {
    Box::new(Mismatch {
        cycle,
        scope: None,
        what: format!("script expectation of `{cmd}`"),
        expected,
        actual,
        fields,
        wave_reg: None,
        also: Vec::new(),
        history: history.to_vec(),
        assertion: None,
        expectation: true,
    })
}

/// A read's answer (`rdata`, `slverr`) against the script's expectation of
/// `cmd`: `None` when it holds.
pub fn check_read(
    cycle: u64,
    cmd: &impl Display,
    expect: Option<Expect>,
    rdata: u32,
    slverr: bool,
    history: &History,
) -> Option<Box<Mismatch>> {
    let ok = match expect {
        None => true,
        Some(Expect::Err) => slverr,
        Some(Expect::Value(v)) => !slverr && rdata == v,
    };
    let expected = match expect {
        Some(Expect::Value(v)) => v,
        _ => 0,
    };
    let fields = slverr.then(|| ("a value".to_string(), "PSLVERR".to_string()));
    (!ok).then(|| expectation(cycle, cmd, expected, rdata, fields, history))
}

/// The wave of the compare: `mismatch`, `cycle`, and each register's RTL
/// (`_dut`) and model (`_model`) value in scope `regs`, as changes.
pub struct RegWave {
    trace: ExtraTrace,
    last: Vec<Option<u64>>,
}

impl RegWave {
    /// Every register 32 bits wide.
    pub fn new<S: AsRef<str>>(names: &[S]) -> RegWave {
        RegWave::with_widths(names, |_| 32)
    }

    /// `width(name)` bits for each compared view (a 1-bit output as 1 bit,
    /// so GTKWave draws it as a line, not a bus).
    pub fn with_widths<S: AsRef<str>>(names: &[S], width: impl Fn(&str) -> u32) -> RegWave {
        let mut signals = vec![
            ExtraSignal { scope: vec![], name: "mismatch".into(), width: 1 },
            ExtraSignal { scope: vec![], name: "cycle".into(), width: 32 },
        ];
        for n in names {
            for side in ["dut", "model"] {
                let name = format!("{}_{side}", n.as_ref());
                signals.push(ExtraSignal { scope: vec!["regs".into()], name, width: width(n.as_ref()) });
            }
        }
        let last = vec![None; signals.len()];
        RegWave { trace: ExtraTrace { signals, changes: Vec::new() }, last }
    }

    /// Clock `cycle`: the model's registers, the RTL's (none without RTL).
    pub fn record(&mut self, cycle: u64, model: &[u32], dut: Option<&[u32]>, mismatch: bool) {
        let t = cycle * 10;
        let mut vals = vec![u64::from(mismatch), cycle & 0xffff_ffff];
        for (k, m) in model.iter().enumerate() {
            vals.push(dut.map_or(0, |d| u64::from(d[k])));
            vals.push(u64::from(*m));
        }
        for (i, v) in vals.into_iter().enumerate() {
            if self.last[i] != Some(v) {
                self.trace.changes.push((t, i, v));
                self.last[i] = Some(v);
            }
        }
    }

    pub fn into_trace(self) -> ExtraTrace {
        self.trace
    }
}

/// The GTKWave save file of a failure traced with a [`RegWave`]: groups
/// `lockstep` (mismatch, cycle), the failing register's two sides, every
/// register, then the RTL's ports and flops directly under `top` (the
/// VCD's scope, `TOP.<module>.`) as `rtl_label`; opened on the last cycles
/// before the mismatch (`engine::wave::write_gtkw`).
pub fn write_gtkw(dir: &Path, trace: &ExtraTrace, m: &Mismatch, top: &str, rtl_label: &str) -> io::Result<()> {
    let vcd = dir.join("wave.vcd");
    let mut groups = vec![("lockstep".to_string(), trace.signals.iter().take(2).map(wave::gtkw_name).collect())];
    if let Some(r) = &m.wave_reg {
        let first = trace
            .signals
            .iter()
            .filter(|s| s.name == format!("{r}_dut") || s.name == format!("{r}_model"))
            .map(wave::gtkw_name)
            .collect();
        groups.push((format!("failing: {}", m.what), first));
    }
    groups.push(("registers (dut/model)".into(), trace.signals.iter().skip(2).map(wave::gtkw_name).collect()));
    let rtl: Vec<String> = wave::gtkw_names_in_vcd(&vcd)?
        .into_iter()
        .map(|(n, _)| n)
        .filter(|n| n.strip_prefix(top).is_some_and(|r| !r.contains('.')))
        .collect();
    groups.push((rtl_label.to_string(), rtl));
    wave::write_gtkw(&vcd, &dir.join("wave.gtkw"), &groups, m.cycle, WAVE_CONTEXT)
}
