//! PMON regression (seeds x cycles on worker threads, shards and their
//! results files for `pcnt merge`, one summary line, the coverage closure of
//! the PMON bins), script runs, and what a failure leaves behind (the
//! engine's artifacts: repro, report, stimulus script, waves, shrunk script).

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use super::cmd::{self, Cmd};
use super::lockstep::{PmonLockstep, X_SEED};
use super::stim::RandomStim;
use crate::engine::artifacts::{self, Artifacts, Failure};
use crate::engine::coverage::{self, Coverage};
use crate::engine::mismatch::Mismatch;
use crate::engine::progress::Progress;
use crate::engine::results::{JobResult, Results};
use crate::engine::script::{self, ScriptError, ScriptOpts};
use crate::engine::{compare, device, jobs};

/// The coverage plan holding the PMON bins (its PMON part).
pub const PLAN_NAME: &str = "docs/coverage-plan.md";

/// Options of `pcnt cosim --device pmon`.
#[derive(Clone, Debug)]
pub struct PmonOpts {
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

/// Sharding and the results file (`--shard I/N --json FILE`), shared with
/// the other devices.
pub use crate::engine::results::ShardOpts;

/// The box build every PMON job runs on (sim/build.rs DEVICES): the `gen`
/// of its entries in a results file (`domains` is 0).
pub const BUILD: &str = "c4";

/// One random PMON run.
#[derive(Clone, Debug)]
pub struct Job {
    pub seed: u64,
    pub cycles: u64,
    pub fault: Option<String>,
}

impl Job {
    pub fn repro(&self) -> String {
        let fault = self.fault.as_ref().map(|f| format!(" FAULT={f}")).unwrap_or_default();
        format!("make cosim DEVICE=pmon SEED={} SEEDS=1 CYCLES={}{fault}", self.seed, self.cycles)
    }

    fn x_seed(&self) -> u32 {
        self.seed as u32 ^ (self.seed >> 32) as u32
    }

    pub fn lockstep(&self) -> Result<PmonLockstep, String> {
        PmonLockstep::new(true, self.fault.as_deref(), self.x_seed())
    }

    /// `Ok((cycles, coverage))`, or why it could not start / the mismatch.
    pub fn run(&self) -> Result<Result<(u64, Coverage), Box<Mismatch>>, String> {
        let mut l = self.lockstep()?;
        Ok(device::run(&mut l, &mut RandomStim::new(self.seed), self.cycles))
    }
}

/// Commands needed to reach `cycle` (inclusive), the engine's.
pub(crate) use crate::engine::apb_window::cmds_through;

/// The whole PMON regression, no results file: [`cosim_shard`] with the
/// default [`ShardOpts`].
pub fn cosim(o: &PmonOpts) -> Result<usize, String> {
    cosim_shard(o, &ShardOpts::default())
}

/// The PMON regression (shard `s.shard` of its plan, results written to
/// `s.json`); the number of failing runs (0: passed, with the coverage gate
/// when asked).
pub fn cosim_shard(o: &PmonOpts, s: &ShardOpts) -> Result<usize, String> {
    let all: Vec<Job> =
        (0..o.seeds).map(|i| Job { seed: o.seed + i, cycles: o.cycles, fault: o.fault.clone() }).collect();
    let (si, sn) = s.shard;
    let plan: Vec<(usize, Job)> = all.iter().cloned().enumerate().filter(|(i, _)| i % sn == si).collect();
    eprintln!(
        "cosim PMON: {} runs = seeds {}..{}, {} cycles each{}{}, {} job(s) in parallel",
        plan.len(),
        o.seed,
        o.seed + o.seeds - 1,
        o.cycles,
        o.fault.as_ref().map(|f| format!(", injected fault {f}")).unwrap_or_default(),
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
        let mut res =
            JobResult { index: *index, seed: job.seed, gen: BUILD.into(), domains: 0, cycles: 0, secs, failure: None };
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
        progress.run_done(res.cycles, &format!("pmon seed {}", job.seed));
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
            device: "pmon".into(),
            plan: all.iter().map(|j| (j.seed, BUILD.to_string(), 0)).collect(),
            cycles: o.cycles,
            shard: s.shard,
            wall_secs: secs,
            jobs: results.clone(),
            coverage: cov.clone(),
        };
        let text = serde_json::to_string_pretty(&r).expect("results serialize");
        crate::engine::artifacts::write_file(path, text)
            .map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    failures.sort_by_key(|f| f.0);
    if let Some((k, m)) = failures.first() {
        report_failure(o, &all[*k], m);
        return Ok(failures.len());
    }
    print_summary(&results, secs);
    let plan_text = fs::read_to_string(&o.coverage_plan).unwrap_or_default();
    let c = coverage::closure(&cov, &plan_text, &format!("{PLAN_NAME}, PMON"), Some(&o.out.join("coverage-pmon.json")));
    if o.coverage_gate && !c.passed() {
        println!("cosim PMON: coverage gate failed ({} unhit, {} unplanned bins)", c.unhit.len(), c.unplanned.len());
        return Ok(1);
    }
    Ok(0)
}

/// The summary line of a passing PMON regression (also `pcnt merge`'s).
pub fn print_summary(results: &[JobResult], wall_secs: f64) {
    let cycles: u64 = results.iter().map(|r| r.cycles).sum();
    println!(
        "cosim PMON PASSED: {} runs, {cycles} cycles, 0 mismatches, {wall_secs:.1} s, {:.0} cycles/s",
        results.len(),
        cycles as f64 / wall_secs
    );
}

fn report_failure(o: &PmonOpts, job: &Job, m: &Mismatch) {
    eprintln!("\ncosim PMON FAILED: seed {} — {}", job.seed, m.what);
    eprintln!("{m}");
    artifacts::print_where(&job.repro(), write_failure(o, job, m));
}

/// Failure artifacts of a random PMON run; the folder.
pub fn write_failure(o: &PmonOpts, job: &Job, m: &Mismatch) -> std::io::Result<PathBuf> {
    let fault = job.fault.as_ref().map(|f| format!("-{f}")).unwrap_or_default();
    let art = Artifacts { out: o.out.clone(), window: o.window, shrink_secs: o.shrink_secs };
    let tag = format!("fail-pmon-seed{}{fault}", job.seed);
    let replay = || -> Box<dyn Iterator<Item = Cmd>> { Box::new(RandomStim::new(job.seed)) };
    write_pmon_failure(&art, tag, job.repro(), job.fault.as_deref(), job.x_seed(), &replay, m)
}

/// The engine's failure artifacts (`engine::artifacts`) of a PMON run,
/// random or scripted: `stimulus.pms`, `minimal.pms`, waves of the box.
fn write_pmon_failure<'r>(
    art: &Artifacts,
    tag: String,
    repro: String,
    fault: Option<&str>,
    x_seed: u32,
    replay: &dyn Fn() -> Box<dyn Iterator<Item = Cmd> + 'r>,
    m: &Mismatch,
) -> std::io::Result<PathBuf> {
    let f = Failure {
        art,
        tag,
        repro,
        ext: "pms",
        replay_args: fault.map(|f| format!(" ARGS='--fault {f}'")).unwrap_or_default(),
        replay,
        render: &|cmds| format!("device pmon\n{}", cmd::render(cmds)),
        lockstep: &|| PmonLockstep::new(true, fault, x_seed),
        gtkw: &|dir, trace, m| compare::write_gtkw(dir, trace, m, "TOP.pmon_box.", "RTL: pmon_box ports and flops"),
        no_script: None,
    };
    artifacts::write(&f, m)
}

/// Run the PMON script `text` named `name` (its `device pmon` line taken
/// off by the device registry) in lockstep or on the model alone: parsed,
/// its cycle bound checked, then run; a failure writes the engine's
/// artifacts. The cycles run.
pub fn run_text(name: &str, text: &str, o: &ScriptOpts) -> Result<u64, ScriptError> {
    let body = cmd::parse(name, text).map_err(ScriptError::Input)?;
    script::check_bound(name, body.iter().map(|(l, c)| (*l, c.clocks())), o.max_cycles())
        .map_err(ScriptError::Input)?;
    let x_seed = o.x_seed.unwrap_or(X_SEED);
    let l =
        PmonLockstep::new(!o.model_only, o.fault, x_seed).map_err(|e| ScriptError::Input(format!("{name}: {e}")))?;
    let cmds: Vec<Cmd> = body.iter().map(|(_, c)| c.clone()).collect();
    script::run_body(name, &body, l, o, "pms", |m, repro| {
        let replay = || -> Box<dyn Iterator<Item = Cmd> + '_> { Box::new(cmds.iter().cloned()) };
        write_pmon_failure(o.art, script::failure_tag(name), repro.to_string(), o.fault, x_seed, &replay, m)
    })
}
