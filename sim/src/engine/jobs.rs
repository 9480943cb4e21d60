//! Whole runs on worker threads, for any device: each worker takes the next
//! job; a failing job stops new ones from starting (those running finish),
//! so the lowest failing index is deterministic (every lower job has run).
//! Results come back to the caller's thread in completion order.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering::SeqCst};
use std::time::Instant;

/// Run `run` over `jobs` on `threads` workers; `done(index, job, result,
/// seconds)` sees each result on the calling thread. `failed` tells whether
/// a result stops the regression.
pub fn parallel<J: Sync, R: Send>(
    jobs: &[J],
    threads: usize,
    run: impl Fn(&J) -> R + Sync,
    failed: impl Fn(&R) -> bool + Sync,
    mut done: impl FnMut(usize, &J, R, f64),
) {
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            let tx = tx.clone();
            let (next, stop, run, failed) = (&next, &stop, &run, &failed);
            scope.spawn(move || loop {
                if stop.load(SeqCst) {
                    break;
                }
                let k = next.fetch_add(1, SeqCst);
                let Some(job) = jobs.get(k) else { break };
                let t = Instant::now();
                let r = run(job);
                if failed(&r) {
                    stop.store(true, SeqCst);
                }
                if tx.send((k, r, t.elapsed().as_secs_f64())).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        for (k, r, secs) in rx {
            done(k, &jobs[k], r, secs);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_job_runs_once_until_a_failure_stops_new_ones() {
        let jobs: Vec<u32> = (0..50).collect();
        let mut seen = Vec::new();
        parallel(&jobs, 3, |j| j * 2, |_| false, |k, j, r, _| seen.push((k, *j, r)));
        seen.sort();
        assert_eq!(seen, jobs.iter().map(|&j| (j as usize, j, j * 2)).collect::<Vec<_>>());
        let mut ran = 0;
        parallel(&jobs, 1, |j| *j, |r| *r == 5, |_, _, _, _| ran += 1);
        assert_eq!(ran, 6, "one worker stops after the failing job");
    }
}
