//! The interface between the engine and a device: one run of a device's RTL
//! and model in lockstep. The engine drives any device through it (random
//! runs, the replay that records the failure window, shrinking); the device
//! keeps its bus, signals, compare and coverage counting to itself.
//!
//! Shape after Ibex's co-simulation interface to Spike: the harness steps
//! both sides and asks for the first disagreement, it does not look inside.

use std::path::Path;

use crate::engine::coverage::Coverage;
use crate::engine::mismatch::Mismatch;
use crate::engine::shrink::Wait;
use crate::engine::wave::ExtraTrace;

/// One run of a device's RTL and model in lockstep, from reset.
pub trait Lockstep {
    /// A stimulus or script command of the device (its `Display` is the
    /// script syntax, so a saved stimulus replays).
    type Cmd: Clone + std::fmt::Display + Wait;

    /// Run one command on both sides (as many bus clocks as it takes),
    /// comparing after every clock: the first disagreement is the error.
    fn exec_cmd(&mut self, cmd: &Self::Cmd) -> Result<(), Box<Mismatch>>;
    /// End-of-run checks (state only visible at the end, e.g. memories).
    fn finish_run(&self) -> Result<(), Box<Mismatch>>;
    /// Bus clocks run since reset.
    fn cycles(&self) -> u64;
    /// What this run reached, as the device's declared bins.
    fn run_coverage(&self) -> Coverage;
    /// Start tracing: the RTL's own VCD into `rtl_vcd`, and the compared
    /// values of both sides into an extra trace.
    fn start_trace(&mut self, rtl_vcd: &Path) -> Result<(), String>;
    /// Stop tracing; the extra trace, if one was started.
    fn take_trace(&mut self) -> Option<ExtraTrace>;
    /// Go on after a mismatch (to record what follows it in the waves).
    fn keep_going(&mut self);
}

/// Bus clocks a command takes (a write or read two, SETUP then ACCESS; a
/// wait its count; a command that only sets held inputs or checks none).
pub trait Clocks {
    fn clocks(&self) -> u64;
}

/// The commands of `cmds` needed to reach clock `cycle` (inclusive): the
/// prefix of a stimulus that a failure at `cycle` replays.
pub fn cmds_through<C: Clocks>(cmds: impl Iterator<Item = C>, cycle: u64) -> Vec<C> {
    let mut t = 0u64;
    let mut out = Vec::new();
    for c in cmds {
        if t > cycle {
            break;
        }
        t = t.saturating_add(c.clocks());
        out.push(c);
    }
    out
}

/// A random run: commands from `stim` until `cycles` bus clocks have run,
/// then the end-of-run checks. `Ok((cycles run, coverage))`.
pub fn run<L: Lockstep>(
    l: &mut L,
    stim: &mut dyn Iterator<Item = L::Cmd>,
    cycles: u64,
) -> Result<(u64, Coverage), Box<Mismatch>> {
    // The heartbeat's count of cycles in progress (engine::progress), in
    // steps of 2^16 cycles, taken back when the run ends either way.
    let live = &crate::engine::progress::LIVE_CYCLES;
    let mut told = 0u64;
    let mut go = || -> Result<(), Box<Mismatch>> {
        while l.cycles() < cycles {
            let Some(cmd) = stim.next() else { break };
            l.exec_cmd(&cmd)?;
            if l.cycles() - told >= 1 << 16 {
                live.fetch_add(l.cycles() - told, std::sync::atomic::Ordering::Relaxed);
                told = l.cycles();
            }
        }
        l.finish_run()
    };
    let r = go();
    live.fetch_sub(told, std::sync::atomic::Ordering::Relaxed);
    r?;
    Ok((l.cycles(), l.run_coverage()))
}

/// Replay `cmds` on a fresh run and trace bus clocks `start..=end`: the RTL
/// into `rtl_vcd`, both sides' compared values into the returned trace.
/// Mismatches are expected here; the run goes on to show the aftermath.
pub fn trace_window<L: Lockstep>(
    mut l: L,
    cmds: impl Iterator<Item = L::Cmd>,
    start: u64,
    end: u64,
    rtl_vcd: &Path,
) -> Result<ExtraTrace, String> {
    l.keep_going();
    let mut started = false;
    for cmd in cmds {
        if !started && l.cycles() >= start {
            l.start_trace(rtl_vcd)?;
            started = true;
        }
        if l.cycles() > end {
            break;
        }
        let _ = l.exec_cmd(&cmd);
    }
    l.take_trace().ok_or_else(|| "the failing run ended before the wave window".to_string())
}

/// Does `cmds`, replayed on the fresh run `l`, fail with a mismatch on
/// `what`? (Shrinking keeps a candidate only if it does.)
pub fn fails_on<L: Lockstep>(l: Result<L, String>, cmds: &[L::Cmd], what: &str) -> bool {
    let Ok(mut l) = l else { return false };
    cmds.iter().find_map(|c| l.exec_cmd(c).err()).is_some_and(|m| m.what == what)
}

#[cfg(test)]
mod tests {
    //! A toy device (a counter whose "RTL" side drops an increment at one
    //! cycle) driven through the same functions as PCOUNTER: the engine
    //! needs nothing of a device but the trait.
    use super::*;
    use crate::engine::coverage::BinDecl;

    #[derive(Clone, Debug, PartialEq)]
    enum Toy {
        Inc,
        Wait(u64),
    }

    impl std::fmt::Display for Toy {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            match self {
                Toy::Inc => write!(f, "inc"),
                Toy::Wait(n) => write!(f, "wait {n}"),
            }
        }
    }

    impl Wait for Toy {
        fn wait_cycles(&self) -> Option<u64> {
            match self {
                Toy::Wait(n) => Some(*n),
                Toy::Inc => None,
            }
        }
        fn wait(cycles: u64) -> Toy {
            Toy::Wait(cycles)
        }
    }

    struct Counter {
        cycle: u64,
        model: u32,
        rtl: u32,
        incs: u64,
        /// The RTL drops the increment at this cycle.
        bug_at: Option<u64>,
        keep_going: bool,
        trace: Option<(u64, ExtraTrace)>,
    }

    const BINS: &[BinDecl<Counter>] = &[BinDecl { name: "toy.inc", count: |c, out| out("toy.inc".into(), c.incs) }];

    impl Lockstep for Counter {
        type Cmd = Toy;
        fn exec_cmd(&mut self, cmd: &Toy) -> Result<(), Box<Mismatch>> {
            let n = cmd.wait_cycles().unwrap_or(1);
            for _ in 0..n {
                if *cmd == Toy::Inc {
                    self.model += 1;
                    self.rtl += u32::from(self.bug_at != Some(self.cycle));
                    self.incs += 1;
                }
                self.cycle += 1;
                if self.model != self.rtl && !self.keep_going {
                    return Err(Box::new(Mismatch {
                        cycle: self.cycle,
                        scope: None,
                        what: "COUNT".into(),
                        expected: self.model,
                        actual: self.rtl,
                        fields: None,
                        wave_reg: None,
                        also: Vec::new(),
                        history: Vec::new(),
                        assertion: None,
                        expectation: false,
                    }));
                }
            }
            Ok(())
        }
        fn finish_run(&self) -> Result<(), Box<Mismatch>> {
            Ok(())
        }
        fn cycles(&self) -> u64 {
            self.cycle
        }
        fn run_coverage(&self) -> Coverage {
            Coverage::of(BINS, self)
        }
        fn start_trace(&mut self, _rtl_vcd: &Path) -> Result<(), String> {
            self.trace = Some((self.cycle, ExtraTrace { signals: Vec::new(), changes: Vec::new() }));
            Ok(())
        }
        fn take_trace(&mut self) -> Option<ExtraTrace> {
            // The toy marks where its trace started as its one change.
            self.trace.take().map(|(at, mut t)| {
                t.changes.push((at, 0, 0));
                t
            })
        }
        fn keep_going(&mut self) {
            self.keep_going = true;
        }
    }

    fn toy(bug_at: Option<u64>) -> Counter {
        Counter { cycle: 0, model: 0, rtl: 0, incs: 0, bug_at, keep_going: false, trace: None }
    }

    fn stim() -> impl Iterator<Item = Toy> {
        [Toy::Inc, Toy::Wait(3)].into_iter().cycle()
    }

    #[test]
    fn the_engine_drives_any_device() {
        let (cycles, cov) = run(&mut toy(None), &mut stim(), 100).unwrap();
        assert_eq!((cycles, cov.get("toy.inc")), (100, 25));
        let m = run(&mut toy(Some(40)), &mut stim(), 100).unwrap_err();
        assert_eq!((m.cycle, m.what.as_str(), m.expected, m.actual), (41, "COUNT", 11, 10));
        let cmds: Vec<Toy> = stim().take(30).collect();
        assert!(fails_on(Ok(toy(Some(40))), &cmds, "COUNT"));
        assert!(!fails_on(Ok(toy(None)), &cmds, "COUNT"), "no bug, no failure");
        assert!(!fails_on(Ok(toy(Some(40))), &cmds[..10], "COUNT"), "stops before the bug");
        let t = trace_window(toy(Some(40)), stim(), 36, 44, Path::new("unused.vcd")).unwrap();
        assert_eq!(t.changes[0].0, 36, "the trace starts at the window");
        assert!(trace_window(toy(None), stim().take(3), 36, 44, Path::new("unused.vcd")).is_err());
    }
}
