//! The bench table (`make bench`) every device adds rows to: one stimulus
//! replayed in up to four modes (model alone, RTL alone with no compare,
//! lockstep with the full per-cycle compare, lockstep with tracing on),
//! timed, printed in the same columns, then the ratios. The table keeps what
//! it measured, so the caller can set the figures against targets.

use std::path::Path;
use std::time::Instant;

use super::device::Lockstep;

/// Replays per row; the table prints the median.
pub const RUNS: usize = 3;

/// One way of replaying a stimulus.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    Model,
    Rtl,
    Lockstep,
    Trace,
}

impl Mode {
    pub const ALL: [Mode; 4] = [Mode::Model, Mode::Rtl, Mode::Lockstep, Mode::Trace];

    pub fn name(self) -> &'static str {
        match self {
            Mode::Model => "model alone",
            Mode::Rtl => "RTL alone",
            Mode::Lockstep => "lockstep (full compare)",
            Mode::Trace => "lockstep + tracing",
        }
    }

    /// The word `--modes` takes.
    pub fn key(self) -> &'static str {
        match self {
            Mode::Model => "model",
            Mode::Rtl => "rtl",
            Mode::Lockstep => "lockstep",
            Mode::Trace => "trace",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        Mode::ALL.into_iter().find(|m| m.key() == s)
    }

    /// Whether the mode runs the model, the RTL, and writes a trace.
    pub fn model(self) -> bool {
        self != Mode::Rtl
    }
    pub fn rtl(self) -> bool {
        self != Mode::Model
    }
    pub fn trace(self) -> bool {
        self == Mode::Trace
    }
}

/// One measured row.
#[derive(Clone, Debug)]
pub struct Measured {
    pub label: String,
    pub mode: Mode,
    pub cycles_per_s: f64,
    pub domains: usize,
}

/// The rows to run (`--only`, `--modes`) and the rows measured so far.
pub struct Table {
    only: Option<String>,
    modes: Vec<Mode>,
    pub measured: Vec<Measured>,
}

impl Table {
    /// `only`: run just the configurations whose label contains it.
    pub fn new(only: Option<String>, modes: Vec<Mode>) -> Table {
        Table { only, modes, measured: Vec::new() }
    }

    pub fn wants(&self, label: &str) -> bool {
        self.only.as_deref().is_none_or(|o| label.contains(o))
    }

    /// Run and print the selected modes of `label` (`run(mode)` gives
    /// (cycles, seconds)), then the ratios of the modes that ran. Skipped
    /// when `--only` leaves the label out.
    pub fn rows(
        &mut self,
        label: &str,
        domains: usize,
        mut run: impl FnMut(Mode) -> Result<(u64, f64), String>,
    ) -> Result<(), String> {
        if !self.wants(label) {
            return Ok(());
        }
        for mode in self.modes.clone() {
            // RUNS replays, the median's row (the machine's noise: one run
            // alone varied by 10 %).
            let mut runs = Vec::with_capacity(RUNS);
            for _ in 0..RUNS {
                let (cycles, secs) = run(mode)?;
                runs.push((cycles as f64 / secs, cycles, secs));
            }
            runs.sort_by(|a, b| a.0.total_cmp(&b.0));
            let (cps, _, secs) = runs[RUNS / 2];
            println!("{:<32} {:<26} {:>12.0} {:>16.0} {:>9.2}", label, mode.name(), cps, cps * domains as f64, secs);
            self.measured.push(Measured { label: label.to_string(), mode, cycles_per_s: cps, domains });
        }
        let ratio = |a, b| Some(self.rate(label, a)? / self.rate(label, b)?);
        let mut parts = Vec::new();
        if let Some(r) = ratio(Mode::Lockstep, Mode::Rtl) {
            parts.push(format!("lockstep / RTL alone = {r:.2}"));
        }
        if let Some(r) = ratio(Mode::Trace, Mode::Lockstep) {
            parts.push(format!("tracing on / off = {r:.2}"));
        }
        if !parts.is_empty() {
            println!("{:<32} {}", label, parts.join(", "));
        }
        Ok(())
    }

    /// Cycles per second measured for `label` in `mode`.
    pub fn rate(&self, label: &str, mode: Mode) -> Option<f64> {
        self.measured.iter().find(|m| m.label == label && m.mode == mode).map(|m| m.cycles_per_s)
    }
}

/// (cycles, seconds) of replaying `cmds` on the fresh run `l` (tracing to
/// `trace` when given); `who` names the device in a mismatch message.
pub fn replay<L: Lockstep>(mut l: L, cmds: &[L::Cmd], trace: Option<&Path>, who: &str) -> Result<(u64, f64), String> {
    if let Some(p) = trace {
        l.start_trace(p)?;
    }
    let t0 = Instant::now();
    for c in cmds {
        l.exec_cmd(c).map_err(|m| format!("{who} mismatch during the benchmark:\n{m}"))?;
    }
    let secs = t0.elapsed().as_secs_f64();
    // Outside the timed loop, as in the main table: closing the RTL's VCD
    // and handing back the in-memory record.
    l.take_trace();
    Ok((l.cycles(), secs))
}

/// The rows of a device with one lockstep type: `run(model, rtl, trace)`
/// replays the device's stimulus with those sides (see [`replay`]). The
/// tracing run writes `vcd`, removed afterwards.
pub fn rows(
    table: &mut Table,
    label: &str,
    vcd: &Path,
    mut run: impl FnMut(bool, bool, Option<&Path>) -> Result<(u64, f64), String>,
) -> Result<(), String> {
    table.rows(label, 1, |m| run(m.model(), m.rtl(), m.trace().then_some(vcd)))?;
    let _ = std::fs::remove_file(vcd);
    Ok(())
}
