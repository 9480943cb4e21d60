//! Progress of a regression on stderr: an `indicatif` bar (rate, ETA) on a
//! terminal; on anything else (CI logs, files) a plain line at every tenth
//! of the runs and at most every `PLAIN_EVERY` otherwise, so a log stays
//! readable instead of filling with carriage returns.

use std::io::IsTerminal as _;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// Longest silence between two plain progress lines.
const PLAIN_EVERY: Duration = Duration::from_secs(30);

pub struct Progress {
    mode: Mode,
    runs: usize,
    total_runs: usize,
    cycles: u64,
    total_cycles: u64,
    t0: Instant,
}

enum Mode {
    Off,
    Bar(ProgressBar),
    /// Last tenth printed and when.
    Plain {
        tenth: usize,
        at: Instant,
    },
}

impl Progress {
    /// `enabled` false (`--no-progress`) prints nothing at all.
    pub fn new(enabled: bool, total_runs: usize, total_cycles: u64) -> Progress {
        Progress::with_terminal(enabled, std::io::stderr().is_terminal(), total_runs, total_cycles)
    }

    fn with_terminal(enabled: bool, terminal: bool, total_runs: usize, total_cycles: u64) -> Progress {
        let t0 = Instant::now();
        let mode = match (enabled, terminal) {
            (false, _) => Mode::Off,
            (true, true) => {
                // Counted in cycles, so the rate and the ETA are in cycles
                // (runs differ in length only by domain count).
                let bar = ProgressBar::new(total_cycles);
                let style = ProgressStyle::with_template("[{bar:30}] {msg}  {mcycles}  {rate}  ETA {eta}")
                    .expect("progress template")
                    .with_key("mcycles", |st: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let len = st.len().unwrap_or(0);
                        let _ = write!(w, "{:.2}/{:.2} M cycles", st.pos() as f64 / 1e6, len as f64 / 1e6);
                    })
                    .with_key("rate", |st: &ProgressState, w: &mut dyn std::fmt::Write| {
                        let _ = write!(w, "{:.0} k cycles/s", st.per_sec() / 1e3);
                    })
                    .progress_chars("#>.");
                bar.set_style(style);
                bar.set_message(format!("0/{total_runs} runs"));
                Mode::Bar(bar)
            }
            (true, false) => Mode::Plain { tenth: 0, at: t0 },
        };
        Progress { mode, runs: 0, total_runs, cycles: 0, total_cycles, t0 }
    }

    /// One run finished after `cycles` cycles; `what` names it.
    pub fn run_done(&mut self, cycles: u64, what: &str) {
        self.runs += 1;
        self.cycles += cycles;
        let (runs, total) = (self.runs, self.total_runs);
        match &mut self.mode {
            Mode::Off => {}
            Mode::Bar(bar) => {
                bar.set_position(self.cycles);
                bar.set_message(format!("{runs}/{total} runs ({what})"));
            }
            Mode::Plain { tenth, at } => {
                let now_tenth = (runs * 10).checked_div(total).unwrap_or(10);
                if now_tenth > *tenth || at.elapsed() >= PLAIN_EVERY || runs == total {
                    *tenth = now_tenth;
                    *at = Instant::now();
                    eprintln!("{}", self.line());
                }
            }
        }
    }

    /// The plain progress line: runs, cycles, rate and ETA.
    fn line(&self) -> String {
        let secs = self.t0.elapsed().as_secs_f64().max(1e-9);
        let rate = self.cycles as f64 / secs;
        let left = self.total_cycles.saturating_sub(self.cycles) as f64;
        let eta = if rate > 0.0 { format!("{:.0} s", left / rate) } else { "?".into() };
        format!(
            "cosim: {}/{} runs, {:.2}/{:.2} M cycles, {:.0} k cycles/s, ETA {eta}",
            self.runs,
            self.total_runs,
            self.cycles as f64 / 1e6,
            self.total_cycles as f64 / 1e6,
            rate / 1e3
        )
    }

    /// Replaces the bar by the plain line of the final figures, so what
    /// follows on stdout starts on a line of its own.
    pub fn finish(&self) {
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
            eprintln!("{}", self.line());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_lines_name_runs_cycles_rate_and_eta() {
        let mut p = Progress::with_terminal(true, false, 20, 2_000_000);
        p.run_done(100_000, "seed 1");
        let l = p.line();
        assert!(l.starts_with("cosim: 1/20 runs, 0.10/2.00 M cycles, "), "{l}");
        assert!(l.contains(" k cycles/s, ETA "), "{l}");
        // A tenth is 2 runs: the first run does not reach one.
        assert!(matches!(p.mode, Mode::Plain { tenth: 0, .. }));
        p.run_done(100_000, "seed 2");
        assert!(matches!(p.mode, Mode::Plain { tenth: 1, .. }));
    }

    #[test]
    fn disabled_progress_has_no_mode() {
        let p = Progress::with_terminal(false, true, 5, 10);
        assert!(matches!(p.mode, Mode::Off));
    }
}
