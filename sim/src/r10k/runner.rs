//! R10K regression (seeds x cycles on worker threads, the variant rotating
//! with the seed, shards and their results files for `pcnt merge`, one
//! summary line, the coverage closure of the R10K bins),
//! script runs, and what a failure leaves behind (the engine's artifacts:
//! repro, report, stimulus script, waves, shrunk script).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use pcounter::r10k::Variant;

use super::cmd::{self, Cmd};
use super::ffi;
use super::lockstep::{R10kLockstep, X_SEED};
use super::stim::RandomStim;
use crate::engine::coverage::{self, Coverage};
use crate::engine::mismatch::Mismatch;
use crate::engine::progress::Progress;
pub use crate::engine::results::ShardOpts;
use crate::engine::results::{JobResult, Results};
use crate::engine::{artifacts, compare, device, jobs, shrink};

/// The coverage plan holding the R10K bins (its R10K part).
pub const PLAN_NAME: &str = "docs/coverage-plan.md";

/// Options of `pcnt cosim --device r10k`.
#[derive(Clone, Debug)]
pub struct R10kOpts {
    pub seed: u64,
    pub seeds: u64,
    pub cycles: u64,
    pub fault: Option<String>,
    pub out: PathBuf,
    pub window: u64,
    pub shrink_secs: u64,
    pub progress: bool,
    pub jobs: usize,
    pub coverage_gate: bool,
    pub coverage_plan: PathBuf,
}

/// One random R10K run.
#[derive(Clone, Debug)]
pub struct Job {
    pub seed: u64,
    pub cycles: u64,
    pub fault: Option<String>,
}

impl Job {
    /// Odd seeds run the R10000, even ones the R12000; a fault build is an
    /// R10000 (build.rs).
    pub fn variant(&self) -> Variant {
        match self.fault {
            Some(_) => ffi::FAULT_VARIANT,
            None if self.seed % 2 == 1 => Variant::R10000,
            None => Variant::R12000,
        }
    }

    pub fn repro(&self) -> String {
        let fault = self.fault.as_ref().map(|f| format!(" FAULT={f}")).unwrap_or_default();
        format!("make cosim DEVICE=r10k SEED={} SEEDS=1 CYCLES={}{fault}", self.seed, self.cycles)
    }

    fn x_seed(&self) -> u32 {
        self.seed as u32 ^ (self.seed >> 32) as u32
    }

    pub fn stim(&self) -> RandomStim {
        RandomStim::new(self.seed, self.variant())
    }

    pub fn lockstep(&self) -> Result<R10kLockstep, String> {
        R10kLockstep::new(self.variant(), true, self.fault.as_deref(), self.x_seed())
    }

    /// `Ok((cycles, coverage))`, or why it could not start / the mismatch.
    pub fn run(&self) -> Result<Result<(u64, Coverage), Box<Mismatch>>, String> {
        let mut l = self.lockstep()?;
        Ok(device::run(&mut l, &mut self.stim(), self.cycles))
    }
}

/// Commands needed to reach `cycle` (inclusive), the engine's.
pub(crate) use crate::engine::apb_window::cmds_through;

/// The whole R10K regression, no results file: [`cosim_shard`] with the
/// default [`ShardOpts`].
pub fn cosim(o: &R10kOpts) -> Result<usize, String> {
    cosim_shard(o, &ShardOpts::default())
}

/// The R10K regression (shard `s.shard` of its plan, results written to
/// `s.json`); the number of failing runs (0: passed, with the coverage gate
/// when asked). A job's `gen` in the results is its variant, so a merge
/// refuses shards of a plan whose seeds ran other variants.
pub fn cosim_shard(o: &R10kOpts, s: &ShardOpts) -> Result<usize, String> {
    let all: Vec<Job> =
        (0..o.seeds).map(|i| Job { seed: o.seed + i, cycles: o.cycles, fault: o.fault.clone() }).collect();
    let (si, sn) = s.shard;
    let plan: Vec<(usize, Job)> = all.iter().cloned().enumerate().filter(|(i, _)| i % sn == si).collect();
    eprintln!(
        "cosim R10K: {} runs = seeds {}..{} (odd R10000, even R12000), {} cycles each{}{}, {} job(s) in parallel",
        plan.len(),
        o.seed,
        o.seed + o.seeds - 1,
        o.cycles,
        o.fault.as_ref().map(|f| format!(", injected fault {f} (R10000)")).unwrap_or_default(),
        if sn > 1 { format!(", shard {si}/{sn} of {} runs", all.len()) } else { String::new() },
        o.jobs
    );
    let t0 = Instant::now();
    let mut progress = Progress::new(o.progress, plan.len(), plan.len() as u64 * o.cycles);
    let mut cov = Coverage::default();
    let mut results: Vec<JobResult> = Vec::new();
    let mut failures: Vec<(usize, Box<Mismatch>)> = Vec::new();
    let mut setup_error = None;
    let failed = |r: &Result<Result<(u64, Coverage), Box<Mismatch>>, String>| !matches!(r, Ok(Ok(_)));
    let run = |(_, job): &(usize, Job)| job.run();
    jobs::parallel(&plan, o.jobs, run, failed, |_, (index, job), r, secs| {
        let gen = job.variant().name().to_string();
        let mut res = JobResult { index: *index, seed: job.seed, gen, domains: 0, cycles: 0, secs, failure: None };
        match r {
            Ok(Ok((c, st))) => {
                res.cycles = c;
                cov.merge(&st);
            }
            Ok(Err(m)) => {
                res.failure = Some((m.what.clone(), job.repro()));
                failures.push((*index, m));
            }
            Err(e) => setup_error = Some(e),
        }
        progress.run_done(res.cycles, &format!("r10k seed {} ({})", job.seed, job.variant().name()));
        results.push(res);
    });
    progress.finish();
    if let Some(e) = setup_error {
        return Err(e);
    }
    results.sort_by_key(|r| r.index);
    let secs = t0.elapsed().as_secs_f64();
    // Written before a failure is reported, so a failing shard still merges.
    if let Some(path) = &s.json {
        let r = Results {
            device: "r10k".into(),
            plan: all.iter().map(|j| (j.seed, j.variant().name().to_string(), 0)).collect(),
            cycles: o.cycles,
            shard: s.shard,
            wall_secs: secs,
            jobs: results.clone(),
            coverage: cov.clone(),
        };
        let text = serde_json::to_string_pretty(&r).expect("results serialize");
        crate::runner::write_file(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    failures.sort_by_key(|f| f.0);
    if let Some((k, m)) = failures.first() {
        report_failure(o, &all[*k], m);
        return Ok(failures.len());
    }
    print_summary(&results, secs);
    let plan_text = fs::read_to_string(&o.coverage_plan).unwrap_or_default();
    let c = coverage::closure(&cov, &plan_text, &format!("{PLAN_NAME}, R10K"), Some(&o.out.join("coverage-r10k.json")));
    if o.coverage_gate && !c.passed() {
        println!("cosim R10K: coverage gate failed ({} unhit, {} unplanned bins)", c.unhit.len(), c.unplanned.len());
        return Ok(1);
    }
    Ok(0)
}

/// The summary line of a passing R10K regression (also `pcnt merge`'s).
pub fn print_summary(results: &[JobResult], wall_secs: f64) {
    let cycles: u64 = results.iter().map(|r| r.cycles).sum();
    println!(
        "cosim R10K PASSED: {} runs, {cycles} cycles, 0 mismatches, {wall_secs:.1} s, {:.0} cycles/s",
        results.len(),
        cycles as f64 / wall_secs
    );
}

fn report_failure(o: &R10kOpts, job: &Job, m: &Mismatch) {
    let repro = job.repro();
    eprintln!("\ncosim R10K FAILED: seed {} ({}) — {}", job.seed, job.variant().name(), m.what);
    eprintln!("{m}");
    eprintln!("repro:    {repro}");
    match write_failure(o, job, m) {
        Ok(dir) => {
            eprintln!("report:   {}", dir.join("report.txt").display());
            eprintln!("script:   {}", dir.join("stimulus.r10k").display());
            if dir.join("minimal.r10k").exists() {
                eprintln!("minimal:  {} (shrunk)", dir.join("minimal.r10k").display());
            }
            eprintln!("waves:    {} (+ wave.gtkw; `make waves` opens them)", dir.join("wave.vcd").display());
        }
        Err(e) => eprintln!("(could not write all failure artifacts: {e})"),
    }
}

/// Failure artifacts of an R10K run; the folder.
pub fn write_failure(o: &R10kOpts, job: &Job, m: &Mismatch) -> std::io::Result<PathBuf> {
    let fault = job.fault.as_ref().map(|f| format!("-{f}")).unwrap_or_default();
    let repro = job.repro();
    let dir = artifacts::begin(&o.out, &format!("fail-r10k-seed{}{fault}", job.seed), &repro, m)?;
    let io = std::io::Error::other;
    let args = job.fault.as_ref().map(|f| format!(" ARGS='--fault {f}'")).unwrap_or_default();
    let full = shrink::compact(cmds_through(job.stim(), m.cycle));
    let head = |what: &str, path: &Path| {
        format!(
            "device r10k {}\n# {what}\n# {}\n# Replay: make script FILE={}{args}\n",
            job.variant().name(),
            m.what,
            path.display()
        )
    };
    let path = dir.join("stimulus.r10k");
    let what = format!("Stimulus of a failing R10K run up to its first mismatch (cycle {}).", m.cycle);
    fs::write(&path, head(&what, &path) + &cmd::render(&full))?;
    let trace = artifacts::waves(&dir, m, job.lockstep().map_err(io)?, job.stim(), o.window)?;
    compare::write_gtkw(&dir, &trace, m, "TOP.r10k_perf.", "RTL: r10k_perf ports")?;
    if o.shrink_secs > 0 {
        let before = full.len();
        let fails = |c: &[Cmd]| device::fails_on(job.lockstep(), c, &m.what);
        let min = shrink::shrink(full, &fails, Duration::from_secs(o.shrink_secs));
        let path = dir.join("minimal.r10k");
        let what = format!("Shrunk from {before} to {} commands; fails with a mismatch on the same signal.", min.len());
        fs::write(&path, head(&what, &path) + &cmd::render(&min))?;
    }
    Ok(dir)
}

/// Is `text` an R10K script (a `device r10k [variant]` line before any
/// command)?
pub fn is_r10k_script(text: &str) -> bool {
    text.lines().map(|l| l.split('#').next().unwrap_or("").trim()).find(|l| !l.is_empty()).is_some_and(|l| {
        let t: Vec<&str> = l.split_whitespace().collect();
        cmd::device_line(&t).is_some()
    })
}

/// Run an R10K script in lockstep (or on the model alone); the cycles run.
pub fn run_script(path: &Path, model_only: bool, fault: Option<&str>) -> Result<u64, String> {
    let text = fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let script = cmd::parse(&path.display().to_string(), &text)?;
    let mut l = R10kLockstep::new(script.variant, !model_only, fault, X_SEED)?;
    for (line, c) in &script.body {
        l.exec(c).map_err(|m| format!("{}:{line}: `{c}` failed\n{m}", path.display()))?;
    }
    Ok(l.cycle)
}
