//! A lockstep failure as every device reports it: the cycle, what
//! disagreed, the expected (model) and actual (RTL) values, and the last
//! stimulus before it.

/// The first disagreement between RTL and model.
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
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        writeln!(f, "MISMATCH at cycle {}: {}", self.cycle, self.what)?;
        if let Some(s) = &self.scope {
            writeln!(f, "  scope:    {s}")?;
        }
        writeln!(f, "  expected: {:#010x} (model)", self.expected)?;
        writeln!(f, "  actual:   {:#010x} (RTL)", self.actual)?;
        if let Some((e, a)) = &self.fields {
            writeln!(f, "  expected fields: {e}")?;
            writeln!(f, "  actual fields:   {a}")?;
        }
        if !self.also.is_empty() {
            writeln!(f, "  also differing this cycle: {}", self.also.join(", "))?;
        }
        writeln!(f, "  last {} stimulus events (cycle: command):", self.history.len())?;
        for (c, e) in &self.history {
            writeln!(f, "    {c:>10}: {e}")?;
        }
        Ok(())
    }
}
