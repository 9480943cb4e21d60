//! The random regression of every device ([`run_plan`] over a plan of
//! [`Run`] jobs; [`cosim_shard`] for a device whose plan is its seeds): jobs on worker threads, shards and their results files for `pcnt
//! merge`, one summary line, the coverage closure of the device's bins, and
//! the first failure reported with its artifacts. A device gives its jobs
//! ([`Job`]); everything else is here, once.

use std::path::PathBuf;
use std::time::Instant;

use crate::engine::artifacts::{self, Artifacts};
use crate::engine::coverage::{self, Coverage};
use crate::engine::device::{self, Lockstep};
use crate::engine::jobs;
use crate::engine::junit;
use crate::engine::mismatch::Mismatch;
use crate::engine::progress::Progress;
use crate::engine::results::{JobResult, Results, ShardOpts};

/// The coverage plan that holds every device's bins (a section each).
pub const PLAN_NAME: &str = "docs/coverage-plan.md";

/// [`PLAN_NAME`] as built into the binary, so that `pcnt` reads the same
/// plan from any working directory (`pcnt cosim --plan FILE` overrides it).
pub const PLAN: &str = include_str!("../../../docs/coverage-plan.md");

/// Exit status of `pcnt cosim` and `pcnt script` when an injected fault
/// ran and nothing failed: not a pass (the fault build is not the design)
/// and not a mismatch (README "Exit status").
pub const EXIT_UNDETECTED: u8 = 3;

/// Options of `pcnt cosim` every device takes.
#[derive(Clone, Debug)]
pub struct Opts {
    pub seed: u64,
    pub seeds: u64,
    pub cycles: u64,
    pub fault: Option<String>,
    pub art: Artifacts,
    pub progress: bool,
    pub jobs: usize,
    pub coverage_gate: bool,
    /// The coverage plan's text ([`PLAN`] unless `--plan` names a file).
    pub coverage_plan: String,
    /// Print the bin table (`--coverage table`), or the summary lines only.
    pub coverage_table: bool,
}

/// Options some devices take (`pcnt cosim` / `pcnt script`): each device
/// lists those it takes (`devices::Device::own_options`).
pub const DEVICE_OPTIONS: &[&str] = &["--domains", "--gen", "--layout", "--decode", "--corrupt-at", "--packets"];

/// The values of [`DEVICE_OPTIONS`] given to `pcnt cosim` (None: not given).
#[derive(Clone, Debug, Default)]
pub struct DeviceArgs {
    pub domains: Option<Vec<usize>>,
    pub gen: Option<Vec<String>>,
    pub layout: Option<String>,
    /// `--decode strict` (true) or `lax`.
    pub strict: Option<bool>,
    pub corrupt_at: Option<u64>,
}

impl DeviceArgs {
    /// The options given, by name.
    pub fn given(&self) -> Vec<&'static str> {
        let given = [
            ("--domains", self.domains.is_some()),
            ("--gen", self.gen.is_some()),
            ("--layout", self.layout.is_some()),
            ("--decode", self.strict.is_some()),
            ("--corrupt-at", self.corrupt_at.is_some()),
        ];
        given.iter().filter(|(_, g)| *g).map(|(o, _)| *o).collect()
    }
}

/// One job of a regression's plan, as the driver sees it.
pub trait Run: Clone + Send + Sync {
    fn seed(&self) -> u64;
    /// The build it runs on: its `gen` in a results file.
    fn build(&self) -> String;
    /// Its domain count in a results file (0: the device has none).
    fn domains(&self) -> usize {
        0
    }
    /// The job in progress lines and the failure headline.
    fn describe(&self) -> String {
        format!("seed {} ({})", self.seed(), self.build())
    }
    /// The one-line command that reruns exactly this job.
    fn repro(&self) -> String;
    /// `Ok((cycles, coverage))`, or why it could not start / the failure.
    #[allow(clippy::type_complexity)]
    fn run_job(&self) -> Result<Result<(u64, Coverage), Box<Mismatch>>, String>;
    /// The failure's artifacts (`engine::artifacts::write` with the
    /// device's rendering and waves); the folder.
    fn write_failure(&self, art: &Artifacts, m: &Mismatch) -> std::io::Result<PathBuf>;
}

/// A regression's plan and how its lines read.
pub struct Plan<R> {
    /// The device's registry name (results files).
    pub device: &'static str,
    /// Prefix of its lines: `cosim`, `cosim TITLE`.
    pub label: String,
    /// What follows `seeds A..B` in the plan line (domain counts, ...).
    pub note: String,
    /// Every job of the plan (all shards), in order.
    pub jobs: Vec<R>,
    /// Cycles of every job.
    pub cycles: u64,
    /// Extension of the device's scripts (saved stimulus).
    pub ext: &'static str,
    /// The summary of a passing run (also `pcnt merge`'s).
    pub summary: fn(&[JobResult], f64),
    /// The plan's name in the coverage closure, and its JSON file name.
    pub plan_label: String,
    pub coverage_json: String,
}

/// Shard `s.shard` of `p` on `o.jobs` threads (results written to
/// `s.json`); the number of failing jobs (0: passed, with the coverage gate
/// when asked). A failure stops new jobs from starting; the one reported is
/// the failing job with the lowest index (deterministic: every lower job
/// has run).
pub fn run_plan<R: Run>(p: &Plan<R>, o: &Opts, s: &ShardOpts) -> Result<usize, String> {
    let label = &p.label;
    let (si, sn) = s.shard;
    let mine: Vec<(usize, R)> = p.jobs.iter().cloned().enumerate().filter(|(i, _)| i % sn == si).collect();
    if mine.is_empty() {
        return Err(format!("--shard {si}/{sn}: the plan has {} run(s), so this shard has none", p.jobs.len()));
    }
    eprintln!(
        "{label}: {} runs = seeds {}..{}{}, {} cycles each{}{}, {} job(s) in parallel",
        mine.len(),
        o.seed,
        o.seed + o.seeds - 1,
        p.note,
        p.cycles,
        o.fault.as_ref().map(|f| format!(", injected fault {f}")).unwrap_or_default(),
        if sn > 1 { format!(", shard {si}/{sn} of {} runs", p.jobs.len()) } else { String::new() },
        o.jobs
    );
    let t0 = Instant::now();
    let mut progress = Progress::new(o.progress, mine.len(), mine.len() as u64 * p.cycles);
    let mut cov = Coverage::default();
    let mut results: Vec<JobResult> = Vec::new();
    let mut failures: Vec<(usize, Box<Mismatch>)> = Vec::new();
    let mut setup_error = None;
    let failed = |r: &Result<Result<(u64, Coverage), Box<Mismatch>>, String>| !matches!(r, Ok(Ok(_)));
    let run = |(_, job): &(usize, R)| job.run_job();
    jobs::parallel(&mine, o.jobs, run, failed, |_, (index, job), r, secs| {
        let (seed, gen, domains) = (job.seed(), job.build(), job.domains());
        let mut res = JobResult { index: *index, seed, gen, domains, cycles: 0, secs, failure: None };
        match r {
            Ok(Ok((c, st))) => {
                res.cycles = c;
                cov.merge(&st);
            }
            Ok(Err(m)) => {
                res.failure = Some((m.what.clone(), artifacts::cosim_repro(&job.repro(), &o.art)));
                failures.push((*index, m));
            }
            Err(e) => setup_error = Some(e),
        }
        progress.run_done(res.cycles, &format!("{} {}", p.device, job.describe()));
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
            device: p.device.into(),
            plan: p.jobs.iter().map(|j| (j.seed(), j.build(), j.domains())).collect(),
            cycles: p.cycles,
            shard: s.shard,
            wall_secs: secs,
            jobs: results.clone(),
            coverage: cov.clone(),
        };
        let text = serde_json::to_string_pretty(&r).expect("results serialize");
        artifacts::write_file(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))?;
    }
    if let Some(path) = &s.junit {
        let cases: Vec<junit::Case> = mine
            .iter()
            .map(|(i, job)| match results.iter().find(|r| r.index == *i) {
                Some(r) => junit::Case {
                    name: job.describe(),
                    secs: r.secs,
                    failure: r.failure.as_ref().map(|(what, repro)| (what.clone(), format!("repro: {repro}"))),
                    skipped: false,
                },
                None => junit::Case { name: job.describe(), secs: 0.0, failure: None, skipped: true },
            })
            .collect();
        junit::write(path, label, &cases)?;
    }
    failures.sort_by_key(|f| f.0);
    if let Some((k, m)) = failures.first() {
        let job = &p.jobs[*k];
        eprintln!("\n{label} FAILED: {} — {}", job.describe(), m.what);
        // The repro first: writing the artifacts may take a while or fail.
        let repro = artifacts::cosim_repro(&job.repro(), &o.art);
        eprintln!("repro: {repro}");
        let written = job.write_failure(&o.art, m);
        eprintln!("{m}");
        artifacts::print_where(&repro, p.ext, written);
        return Ok(failures.len());
    }
    if let Some(f) = &o.fault {
        // A fault build that passes is no pass: say so, with its own status.
        let cycles: u64 = results.iter().map(|r| r.cycles).sum();
        println!(
            "{label}: fault {f} NOT DETECTED in {} run(s), {cycles} cycles, {secs:.1} s (exit {EXIT_UNDETECTED})",
            results.len()
        );
        return Ok(0);
    }
    (p.summary)(&results, secs);
    let json = o.art.out.join(&p.coverage_json);
    let show = coverage::Show { table: o.coverage_table, gate: Some(o.coverage_gate) };
    let c = coverage::closure_shown(&cov, &o.coverage_plan, &p.plan_label, Some(&json), show);
    if o.coverage_gate && !c.passed() {
        println!("{label}: coverage gate failed ({} unhit, {} unplanned bins)", c.unhit.len(), c.unplanned.len());
        return Ok(1);
    }
    Ok(0)
}

/// One random run of a device whose plan is its seeds,
/// made from (seed, cycles, fault).
pub trait Job: Run + Sized {
    type L: Lockstep;
    /// The device's registry name and title (`devices::DEVICES`).
    const DEVICE: (&'static str, &'static str);
    /// Extension of the device's scripts (saved stimulus).
    const EXT: &'static str;
    /// What the plan line says of the runs (which build a seed runs on,
    /// with or without an injected fault).
    fn plan_note(_fault: Option<&str>) -> String {
        String::new()
    }
    fn new(seed: u64, cycles: u64, fault: Option<String>) -> Self;
    /// A fresh run from reset on the job's build.
    fn lockstep(&self) -> Result<Self::L, String>;
    /// The job's random stimulus.
    fn stim(&self) -> Box<dyn Iterator<Item = <Self::L as Lockstep>::Cmd> + '_>;
    /// The cycle budget of the job.
    fn cycles(&self) -> u64;

    /// `Ok((cycles, coverage))`, or why it could not start / the failure.
    #[allow(clippy::type_complexity)]
    fn run(&self) -> Result<Result<(u64, Coverage), Box<Mismatch>>, String> {
        let mut l = self.lockstep()?;
        Ok(device::run(&mut l, &mut self.stim(), self.cycles()))
    }
}

/// The whole regression, no results file: [`cosim_shard`] with the
/// default [`ShardOpts`].
pub fn cosim<J: Job>(o: &Opts) -> Result<usize, String> {
    cosim_shard::<J>(o, &ShardOpts::default())
}

/// Shard `s.shard` of a seeds-only device's regression: one job per seed.
pub fn cosim_shard<J: Job>(o: &Opts, s: &ShardOpts) -> Result<usize, String> {
    let (name, title) = J::DEVICE;
    let p = Plan {
        device: name,
        label: format!("cosim {title}"),
        note: Some(J::plan_note(o.fault.as_deref()))
            .filter(|n| !n.is_empty())
            .map(|n| format!(" {n}"))
            .unwrap_or_default(),
        jobs: (0..o.seeds).map(|i| J::new(o.seed + i, o.cycles, o.fault.clone())).collect(),
        cycles: o.cycles,
        ext: J::EXT,
        summary: print_summary_of::<J>,
        plan_label: format!("{PLAN_NAME}, {title}"),
        coverage_json: format!("coverage-{name}.json"),
    };
    run_plan(&p, o, s)
}

fn print_summary_of<J: Job>(results: &[JobResult], wall_secs: f64) {
    print_summary(J::DEVICE.1, results, wall_secs)
}

/// The summary line of a passing regression of the device `title` (also
/// `pcnt merge`'s).
pub fn print_summary(title: &str, results: &[JobResult], wall_secs: f64) {
    let cycles: u64 = results.iter().map(|r| r.cycles).sum();
    println!(
        "cosim {title} PASSED: {} runs, {cycles} cycles, 0 mismatches, {wall_secs:.1} s, {:.0} cycles/s",
        results.len(),
        cycles as f64 / wall_secs
    );
}
