//! Progress of a regression on stderr: an `indicatif` bar (rate, ETA) on a
//! terminal; on anything else (CI logs, files) a plain line at every tenth
//! of the runs, and a heartbeat thread that prints the line when
//! `PLAIN_EVERY` has passed without one, counting the cycles of the runs
//! still going ([`LIVE_CYCLES`]), so a log stays readable instead of filling
//! with carriage returns and a single long run is not silent until it ends.

use std::io::IsTerminal as _;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

/// Longest silence between two plain progress lines.
const PLAIN_EVERY: Duration = Duration::from_secs(30);

/// Cycles simulated so far by the runs in progress: `engine::device::run`
/// adds to it as it goes and takes its run's share back when the run ends
/// (then `Progress::run_done` counts the run). One per process: regressions
/// running side by side in one process (tests) share it, which only blurs
/// their heartbeat lines.
pub static LIVE_CYCLES: AtomicU64 = AtomicU64::new(0);

/// What the heartbeat thread reads: finished runs and cycles, and when the
/// last line was printed (ms since the start).
#[derive(Default)]
struct Shared {
    runs: AtomicU64,
    cycles: AtomicU64,
    last_ms: AtomicU64,
    stop: AtomicBool,
}

pub struct Progress {
    mode: Mode,
    runs: usize,
    total_runs: usize,
    cycles: u64,
    total_cycles: u64,
    t0: Instant,
    shared: Arc<Shared>,
    heartbeat: Option<std::thread::JoinHandle<()>>,
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
        let shared = Arc::new(Shared::default());
        let mut p = Progress { mode, runs: 0, total_runs, cycles: 0, total_cycles, t0, shared, heartbeat: None };
        if matches!(p.mode, Mode::Plain { .. }) {
            p.heartbeat = Some(p.start_heartbeat(PLAIN_EVERY, |l| eprintln!("{l}")));
        }
        p
    }

    /// The heartbeat: every `every` without a line, the line with the
    /// cycles of the runs still going, through `print`.
    fn start_heartbeat(&self, every: Duration, print: impl Fn(String) + Send + 'static) -> std::thread::JoinHandle<()> {
        let (shared, t0, total_runs, total_cycles) = (self.shared.clone(), self.t0, self.total_runs, self.total_cycles);
        let tick = (every / 10).clamp(Duration::from_millis(1), Duration::from_millis(500));
        std::thread::spawn(move || {
            while !shared.stop.load(Ordering::Relaxed) {
                // Parked, so that stopping (which unparks) does not wait a tick.
                std::thread::park_timeout(tick);
                if shared.stop.load(Ordering::Relaxed) {
                    break;
                }
                let now = t0.elapsed().as_millis() as u64;
                if now.saturating_sub(shared.last_ms.load(Ordering::Relaxed)) < every.as_millis() as u64 {
                    continue;
                }
                shared.last_ms.store(now, Ordering::Relaxed);
                let runs = shared.runs.load(Ordering::Relaxed) as usize;
                let done = shared.cycles.load(Ordering::Relaxed);
                let live = LIVE_CYCLES.load(Ordering::Relaxed);
                print(format!("{} (running)", line(t0, runs, total_runs, done + live, total_cycles)));
            }
        })
    }

    /// One run finished after `cycles` cycles; `what` names it.
    pub fn run_done(&mut self, cycles: u64, what: &str) {
        self.runs += 1;
        self.cycles += cycles;
        self.shared.runs.store(self.runs as u64, Ordering::Relaxed);
        self.shared.cycles.store(self.cycles, Ordering::Relaxed);
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
                    self.shared.last_ms.store(self.t0.elapsed().as_millis() as u64, Ordering::Relaxed);
                    eprintln!("{}", self.line());
                }
            }
        }
    }

    /// The plain progress line: runs, cycles, rate and ETA.
    fn line(&self) -> String {
        line(self.t0, self.runs, self.total_runs, self.cycles, self.total_cycles)
    }

    /// Replaces the bar by the plain line of the final figures, so what
    /// follows on stdout starts on a line of its own; stops the heartbeat.
    pub fn finish(&mut self) {
        self.stop_heartbeat();
        if let Mode::Bar(bar) = &self.mode {
            bar.finish_and_clear();
            eprintln!("{}", self.line());
        }
    }

    fn stop_heartbeat(&mut self) {
        self.shared.stop.store(true, Ordering::Relaxed);
        if let Some(h) = self.heartbeat.take() {
            h.thread().unpark();
            let _ = h.join();
        }
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        self.stop_heartbeat();
    }
}

/// A plain progress line: runs, cycles, rate and ETA.
fn line(t0: Instant, runs: usize, total_runs: usize, cycles: u64, total_cycles: u64) -> String {
    let secs = t0.elapsed().as_secs_f64().max(1e-9);
    let rate = cycles as f64 / secs;
    let left = total_cycles.saturating_sub(cycles) as f64;
    let eta = if rate > 0.0 { format!("{:.0} s", left / rate) } else { "?".into() };
    format!(
        "cosim: {runs}/{total_runs} runs, {:.2}/{:.2} M cycles, {:.0} k cycles/s, ETA {eta}",
        cycles as f64 / 1e6,
        total_cycles as f64 / 1e6,
        rate / 1e3
    )
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

    /// A single long run: the heartbeat prints the line with the cycles the
    /// run has simulated so far, though no run has finished.
    #[test]
    fn heartbeat_counts_the_runs_still_going() {
        let mut p = Progress::with_terminal(false, false, 1, 1_000_000_000_000);
        let lines = Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = lines.clone();
        p.heartbeat = Some(p.start_heartbeat(Duration::from_millis(20), move |l| sink.lock().unwrap().push(l)));
        LIVE_CYCLES.fetch_add(5_000_000, Ordering::Relaxed);
        let t = Instant::now();
        while lines.lock().unwrap().is_empty() && t.elapsed() < Duration::from_secs(10) {
            std::thread::sleep(Duration::from_millis(5));
        }
        LIVE_CYCLES.fetch_sub(5_000_000, Ordering::Relaxed);
        p.finish();
        let l = lines.lock().unwrap();
        let first = l.first().expect("a heartbeat line");
        // Other tests of this process may run at the same time: at least ours.
        assert!(first.starts_with("cosim: 0/1 runs, ") && first.ends_with(" (running)"), "{first}");
        let m: f64 = first.split(", ").nth(1).unwrap().split('/').next().unwrap().parse().unwrap();
        assert!(m >= 5.0, "{first}");
    }

    #[test]
    fn disabled_progress_has_no_mode() {
        let p = Progress::with_terminal(false, true, 5, 10);
        assert!(matches!(p.mode, Mode::Off));
    }
}
