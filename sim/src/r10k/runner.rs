//! R10K regression (seeds x cycles on worker threads, the variant rotating
//! with the seed, shards and their results files for `pcnt merge`, one
//! summary line, the coverage closure of the R10K bins),
//! script runs, and what a failure leaves behind (the engine's artifacts:
//! repro, report, stimulus script, waves, shrunk script).

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use pcounter::r10k::Variant;

use super::cmd::{self, Cmd};
use super::ffi;
use super::lockstep::{R10kLockstep, X_SEED};
use super::stim::RandomStim;
use crate::engine::artifacts::{self, Artifacts, Failure};
use crate::engine::coverage::{self, Coverage};
use crate::engine::mismatch::Mismatch;
use crate::engine::progress::Progress;
pub use crate::engine::results::ShardOpts;
use crate::engine::results::{JobResult, Results};
use crate::engine::script::{self, ScriptError, ScriptOpts};
use crate::engine::{compare, device, jobs};

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
    eprintln!("\ncosim R10K FAILED: seed {} ({}) — {}", job.seed, job.variant().name(), m.what);
    eprintln!("{m}");
    artifacts::print_where(&job.repro(), write_failure(o, job, m));
}

/// Failure artifacts of a random R10K run; the folder.
pub fn write_failure(o: &R10kOpts, job: &Job, m: &Mismatch) -> std::io::Result<PathBuf> {
    let fault = job.fault.as_ref().map(|f| format!("-{f}")).unwrap_or_default();
    let art = Artifacts { out: o.out.clone(), window: o.window, shrink_secs: o.shrink_secs };
    let tag = format!("fail-r10k-seed{}{fault}", job.seed);
    let replay = || -> Box<dyn Iterator<Item = Cmd>> { Box::new(job.stim()) };
    let run = Run { variant: job.variant(), fault: job.fault.as_deref(), x_seed: job.x_seed() };
    write_r10k_failure(&art, tag, job.repro(), &run, &replay, m)
}

/// What makes an R10K run: the variant, the fault build, the initial values.
struct Run<'a> {
    variant: Variant,
    fault: Option<&'a str>,
    x_seed: u32,
}

/// The engine's failure artifacts (`engine::artifacts`) of an R10K run,
/// random or scripted: `stimulus.r10k`, `minimal.r10k`, waves of the unit.
fn write_r10k_failure<'r>(
    art: &Artifacts,
    tag: String,
    repro: String,
    run: &Run,
    replay: &dyn Fn() -> Box<dyn Iterator<Item = Cmd> + 'r>,
    m: &Mismatch,
) -> std::io::Result<PathBuf> {
    let f = Failure {
        art,
        tag,
        repro,
        ext: "r10k",
        replay_args: run.fault.map(|f| format!(" ARGS='--fault {f}'")).unwrap_or_default(),
        replay,
        render: &|cmds| format!("device r10k {}\n{}", run.variant.name(), cmd::render(cmds)),
        lockstep: &|| R10kLockstep::new(run.variant, true, run.fault, run.x_seed),
        gtkw: &|dir, trace, m| compare::write_gtkw(dir, trace, m, "TOP.r10k_perf.", "RTL: r10k_perf ports"),
        no_script: None,
    };
    artifacts::write(&f, m)
}

/// Run the R10K script `text` named `name` in lockstep or on the model
/// alone; `variant` is the device line's argument (`r10000` when none; the
/// registry took the line off). Parsed, the events checked against the
/// variant's table and the cycle bound checked, then run; a failure writes
/// the engine's artifacts. The cycles run.
pub fn run_text(name: &str, text: &str, variant: Option<&str>, o: &ScriptOpts) -> Result<u64, ScriptError> {
    let input = ScriptError::Input;
    let variant = match variant {
        None => Variant::R10000,
        Some(v) => cmd::device_line(&["device", "r10k", v])
            .expect("a three-token r10k device line")
            .map_err(|e| input(format!("{name}: {e}")))?,
    };
    let s = cmd::parse(name, text).map_err(input)?;
    cmd::check_events(name, &s.body, variant).map_err(input)?;
    script::check_bound(name, s.body.iter().map(|(l, c)| (*l, c.clocks())), o.max_cycles()).map_err(input)?;
    let run = Run { variant, fault: o.fault, x_seed: o.x_seed.unwrap_or(X_SEED) };
    let l =
        R10kLockstep::new(variant, !o.model_only, o.fault, run.x_seed).map_err(|e| input(format!("{name}: {e}")))?;
    let cmds: Vec<Cmd> = s.body.iter().map(|(_, c)| c.clone()).collect();
    script::run_body(name, &s.body, l, o, "r10k", |m, repro| {
        let replay = || -> Box<dyn Iterator<Item = Cmd> + '_> { Box::new(cmds.iter().cloned()) };
        write_r10k_failure(o.art, script::failure_tag(name), repro.to_string(), &run, &replay, m)
    })
}
