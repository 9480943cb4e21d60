//! A lockstep failure as every device reports it: the cycle, what
//! disagreed, the expected (model) and actual (RTL) values, and the last
//! stimulus before it.

use crate::engine::assertion::Assertion;

/// The first disagreement between RTL and model, or an RTL assertion that
/// failed.
#[derive(Clone, Debug)]
pub struct Mismatch {
    pub cycle: u64,
    /// Where it is, as the scope of its signals in the wave file (`dom1`,
    /// `global`); `None` for bus signals.
    pub scope: Option<String>,
    /// Register (e.g. `CTR_EVENT[0]`) or bus signal (`PRDATA of read 0xa680`).
    pub what: String,
    pub expected: u32,
    pub actual: u32,
    /// Field-decoded expected / actual, when `what` is a register.
    pub fields: Option<(String, String)>,
    /// Name of the failing register's signals in the wave file (`CTRL`,
    /// `SIG_STATUS_7`; `_dut`/`_model` appended), when it is a register.
    pub wave_reg: Option<String>,
    /// Every other register that disagreed in the same cycle.
    pub also: Vec<String>,
    /// The last stimulus events before the mismatch: (cycle, command).
    pub history: Vec<(u64, String)>,
    /// Set when the failure is an RTL assertion, not a disagreement
    /// (`expected`/`actual` then mean nothing).
    pub assertion: Option<Box<Assertion>>,
    /// Set when the failure is a script's expectation that did not hold:
    /// `expected` is the script's value, `actual` what the read returned
    /// (RTL and model agreed on it, or the compare would have failed first).
    pub expectation: bool,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        if let Some(a) = &self.assertion {
            writeln!(f, "ASSERTION FAILED at cycle {}: {} ({}:{})", self.cycle, a.name, a.file, a.line)?;
            if !a.instance.is_empty() {
                writeln!(f, "  instance: {}", a.instance)?;
            }
            writeln!(f, "  message:  {}", a.message)?;
            if !self.also.is_empty() {
                writeln!(f, "  also this cycle: {}", self.also.join(", "))?;
            }
        } else {
            self.fmt_values(f)?;
        }
        writeln!(f, "  last {} stimulus events (cycle: command):", self.history.len())?;
        for (c, e) in &self.history {
            writeln!(f, "    {c:>10}: {e}")?;
        }
        Ok(())
    }
}

impl Mismatch {
    /// The lockstep failure of bus clock `cycle` whose rising edge failed
    /// assertion `a`.
    pub fn of_assertion(a: &Assertion, cycle: u64, history: Vec<(u64, String)>) -> Box<Mismatch> {
        Box::new(Mismatch {
            cycle,
            scope: None,
            what: a.what(),
            expected: 1,
            actual: 0,
            fields: None,
            wave_reg: None,
            also: Vec::new(),
            history,
            assertion: Some(Box::new(a.clone())),
            expectation: false,
        })
    }

    /// What kind of failure it is, for a one-line summary.
    pub fn kind(&self) -> &'static str {
        if self.assertion.is_some() {
            "an RTL assertion failed"
        } else if self.expectation {
            "a script expectation failed"
        } else {
            "RTL and model disagree"
        }
    }

    fn fmt_values(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let (head, expected, actual) =
            if self.expectation { ("EXPECTATION FAILED", "script", "read") } else { ("MISMATCH", "model", "RTL") };
        writeln!(f, "{head} at cycle {}: {}", self.cycle, self.what)?;
        if let Some(s) = &self.scope {
            writeln!(f, "  scope:    {s}")?;
        }
        writeln!(f, "  expected: {:#010x} ({expected})", self.expected)?;
        writeln!(f, "  actual:   {:#010x} ({actual})", self.actual)?;
        if let Some((e, a)) = &self.fields {
            writeln!(f, "  expected fields: {e}")?;
            writeln!(f, "  actual fields:   {a}")?;
        }
        if !self.also.is_empty() {
            writeln!(f, "  also differing this cycle: {}", self.also.join(", "))?;
        }
        Ok(())
    }
}
