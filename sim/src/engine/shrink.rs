//! Shrinking a failing stimulus to a minimal scenario script.
//!
//! Delta debugging (Zeller's ddmin) over the command list: remove chunks,
//! halving their size, while the run still fails with a mismatch on the same
//! register; then shorten the remaining waits. Every trial is a full
//! deterministic lockstep replay from reset, so the result reproduces on its
//! own. Runs after the full stimulus has been saved (nothing is lost if it is
//! interrupted) and within a time budget.

use std::time::{Duration, Instant};

/// What shrinking needs of a device's stimulus command: which commands only
/// let time pass, so that waits can be merged and shortened.
pub trait Wait: Clone {
    /// `Some(cycles)` for a command that only waits.
    fn wait_cycles(&self) -> Option<u64>;
    fn wait(cycles: u64) -> Self;
}

/// Merge consecutive waits and drop empty ones: fewer, larger units to remove.
pub fn compact<C: Wait>(cmds: Vec<C>) -> Vec<C> {
    let mut out: Vec<C> = Vec::with_capacity(cmds.len());
    for c in cmds {
        match (out.last().and_then(C::wait_cycles), c.wait_cycles()) {
            (_, Some(0)) => {}
            (Some(a), Some(b)) => *out.last_mut().expect("a last command") = C::wait(a.saturating_add(b)),
            _ => out.push(c),
        }
    }
    out
}

/// The shrunk command list (never longer than the input; equal to it if the
/// input does not fail or the budget runs out at once).
/// `fails` replays a candidate from reset and answers whether it still
/// fails the same way (e.g. a mismatch on the same register).
pub fn shrink<C: Wait>(cmds: Vec<C>, fails: &dyn Fn(&[C]) -> bool, budget: Duration) -> Vec<C> {
    let t0 = Instant::now();
    let mut cur = compact(cmds);
    if !fails(&cur) {
        return cur;
    }
    let mut n = 2usize;
    while cur.len() >= 2 && t0.elapsed() < budget {
        let chunk = cur.len().div_ceil(n);
        let mut reduced = None;
        for i in 0..n {
            let start = i * chunk;
            if start >= cur.len() || t0.elapsed() >= budget {
                break;
            }
            let end = (start + chunk).min(cur.len());
            let cand: Vec<C> = cur[..start].iter().chain(&cur[end..]).cloned().collect();
            let cand = compact(cand);
            if fails(&cand) {
                reduced = Some(cand);
                break;
            }
        }
        if let Some(cand) = reduced {
            cur = cand;
            n = (n - 1).max(2);
        } else {
            if n >= cur.len() {
                break;
            }
            n = (n * 2).min(cur.len());
        }
    }
    // Shorter waits: halve each while the failure stays.
    let mut i = 0;
    while i < cur.len() && t0.elapsed() < budget {
        if let Some(cycles) = cur[i].wait_cycles() {
            let mut c = cycles;
            while c > 1 {
                let mut cand = cur.clone();
                cand[i] = C::wait(c / 2);
                if !fails(&cand) {
                    break;
                }
                c /= 2;
                cur = cand;
            }
        }
        i += 1;
    }
    cur
}
