//! Shrinking a failing stimulus to a minimal scenario script.
//!
//! Delta debugging (Zeller's ddmin) over the command list: remove chunks,
//! halving their size, while the run still fails with a mismatch on the same
//! register; then shorten the remaining waits. Every trial is a full
//! deterministic lockstep replay from reset, so the result reproduces on its
//! own. Runs after the full stimulus has been saved (nothing is lost if it is
//! interrupted) and within a time budget.

use std::time::{Duration, Instant};

use crate::runner::Setup;
use crate::script::Cmd;

/// Merge consecutive waits and drop empty ones: fewer, larger units to remove.
pub fn compact(cmds: Vec<Cmd>) -> Vec<Cmd> {
    let mut out: Vec<Cmd> = Vec::with_capacity(cmds.len());
    for c in cmds {
        match (out.last_mut(), &c) {
            (_, Cmd::Wait { cycles: 0 }) => {}
            (Some(Cmd::Wait { cycles: a }), Cmd::Wait { cycles: b }) => *a = a.saturating_add(*b),
            _ => out.push(c),
        }
    }
    out
}

/// Does `cmds` end in a mismatch on register `what` (e.g. `CTR_START[0]`)?
fn fails(setup: &Setup, cmds: &[Cmd], what: &str) -> bool {
    let Ok(mut e) = setup.engine(true) else { return false };
    for c in cmds {
        if let Err(m) = e.exec(c) {
            return m.what == what;
        }
    }
    false
}

/// The shrunk command list (never longer than the input; equal to it if the
/// input does not fail or the budget runs out at once).
pub fn shrink(setup: &Setup, cmds: Vec<Cmd>, what: &str, budget: Duration) -> Vec<Cmd> {
    let t0 = Instant::now();
    let mut cur = compact(cmds);
    if !fails(setup, &cur, what) {
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
            let cand: Vec<Cmd> = cur[..start].iter().chain(&cur[end..]).cloned().collect();
            let cand = compact(cand);
            if fails(setup, &cand, what) {
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
        if let Cmd::Wait { cycles } = cur[i] {
            let mut c = cycles;
            while c > 1 {
                let mut cand = cur.clone();
                cand[i] = Cmd::Wait { cycles: c / 2 };
                if !fails(setup, &cand, what) {
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
