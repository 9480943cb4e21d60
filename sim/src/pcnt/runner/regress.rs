//! The random regression: the job plan, parallel jobs, shards and their
//! results files (`pcnt merge`), the summary and the coverage gate.

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use pcounter::regs::Gen;

use crate::coverage::{self, Coverage};
use crate::lockstep::Mismatch;
use crate::script::Cmd;

use super::*;
use crate::engine::progress::Progress;

/// Why a regression or a merge could not give a verdict (a failing job is a
/// verdict, not an error).
#[derive(Debug)]
pub enum RegressError {
    /// A run could not start: no Verilated build for its configuration, or
    /// a configuration the model refuses.
    Setup(String),
    /// A file could not be read or written.
    Io { path: PathBuf, err: std::io::Error },
    /// A results file is not one, is corrupt, or is of another regression.
    Results { path: PathBuf, why: String },
    /// `pcnt merge` with no files.
    NoFiles,
}

impl std::fmt::Display for RegressError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RegressError::Setup(e) => write!(f, "{e}"),
            RegressError::Io { path, err } => write!(f, "{}: {err}", path.display()),
            RegressError::Results { path, why } => write!(f, "{}: {why}", path.display()),
            RegressError::NoFiles => write!(f, "merge: no files"),
        }
    }
}

impl std::error::Error for RegressError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            RegressError::Io { err, .. } => Some(err),
            _ => None,
        }
    }
}

/// Options of `pcnt cosim`.
#[derive(Clone, Debug)]
pub struct CosimOpts {
    pub seed: u64,
    pub seeds: u64,
    pub cycles: u64,
    pub domains: Vec<usize>,
    pub gens: Vec<Gen>,
    pub fault: Option<String>,
    pub art: Artifacts,
    pub progress: bool,
    /// Worker threads (each runs whole jobs).
    pub jobs: usize,
    /// `(i, n)`: run only the jobs whose index is `i` modulo `n`.
    pub shard: (usize, usize),
    /// Where to write the results as JSON (for `pcnt merge`).
    pub json: Option<PathBuf>,
    /// The coverage plan (bins and waivers), and whether an unhit
    /// non-waived bin fails the run.
    pub coverage_plan: PathBuf,
    pub coverage_gate: bool,
    pub pin: Pin,
    /// Harness self-test: flip an RTL flop at this cycle of every job.
    pub corrupt_at: Option<u64>,
}

/// One job's outcome in a results file.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct JobResult {
    pub index: usize,
    pub seed: u64,
    pub gen: String,
    pub domains: usize,
    pub cycles: u64,
    pub secs: f64,
    /// `None`: passed; otherwise the mismatch and its repro line.
    pub failure: Option<(String, String)>,
}

/// A regression's results file (`--json`); shards merge with `pcnt merge`.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Results {
    /// The whole regression's job list, identical in every shard.
    pub plan: Vec<(u64, String, usize)>,
    pub cycles: u64,
    pub shard: (usize, usize),
    pub wall_secs: f64,
    pub jobs: Vec<JobResult>,
    /// Coverage of this shard's jobs (merged by bin name).
    pub coverage: Coverage,
}

/// The job list of a regression: seeds x domain counts, generation rotating
/// with the seed. The same options give the same list on every machine, so
/// shards `i/n` partition it by index.
pub fn plan(o: &CosimOpts) -> Vec<Job> {
    let mut jobs = Vec::new();
    // Injected faults are built with 2 domains (tests/faults/README.md).
    let domain_list = if o.fault.is_some() { vec![2] } else { o.domains.clone() };
    for &domains in &domain_list {
        for i in 0..o.seeds {
            let seed = o.seed + i;
            let gen = o.gens[(i as usize) % o.gens.len()];
            jobs.push(Job {
                seed,
                gen,
                domains,
                cycles: o.cycles,
                fault: o.fault.clone(),
                corrupt_at: o.corrupt_at,
                pin: o.pin,
            });
        }
    }
    jobs
}

/// The regression, on `o.jobs` threads. Returns the number of failing jobs.
/// A failure stops new jobs from starting; the one reported is the failing
/// job with the lowest index (deterministic: every lower job has run).
pub fn cosim(o: &CosimOpts) -> Result<usize, RegressError> {
    let all = plan(o);
    let (si, sn) = o.shard;
    let mine: Vec<(usize, Job)> = all.iter().cloned().enumerate().filter(|(i, _)| i % sn == si).collect();
    let total_cycles = mine.len() as u64 * o.cycles;
    let domain_list: Vec<usize> = {
        let mut d: Vec<usize> = all.iter().map(|j| j.domains).collect();
        d.dedup();
        d
    };
    eprintln!(
        "cosim: {} runs = seeds {}..{} x domains {:?} (generation rotates over {}), {} cycles each{}{}, {} job(s) in parallel",
        mine.len(),
        o.seed,
        o.seed + o.seeds - 1,
        domain_list,
        o.gens.iter().map(|g| g.name()).collect::<Vec<_>>().join("/"),
        o.cycles,
        o.fault.as_ref().map(|f| format!(", injected fault {f}")).unwrap_or_default(),
        if sn > 1 { format!(", shard {si}/{sn} of {} runs", all.len()) } else { String::new() },
        o.jobs
    );
    let t0 = Instant::now();
    let mut progress = Progress::new(o.progress, mine.len(), total_cycles);
    let mut results: Vec<JobResult> = Vec::new();
    let mut failures: Vec<(usize, Job, Box<Mismatch>)> = Vec::new();
    let mut cov = Coverage::default();
    let mut setup_error = None;
    let run = |(_, job): &(usize, Job)| run_job(job);
    crate::engine::jobs::parallel(&mine, o.jobs, run, Result::is_err, |_, (index, job), r, secs| {
        let mut res = JobResult {
            index: *index,
            seed: job.seed,
            gen: job.gen.name().to_string(),
            domains: job.domains,
            cycles: 0,
            secs,
            failure: None,
        };
        match r {
            Ok((c, st)) => {
                res.cycles = c;
                cov.merge(&st);
            }
            Err(RunError::Setup(e)) => setup_error = Some(e),
            Err(RunError::Mismatch(m)) => {
                res.failure = Some((m.what.clone(), job.repro()));
                failures.push((*index, job.clone(), m));
            }
        }
        let what = format!("seed {} {} d{}", job.seed, job.gen.name(), job.domains);
        progress.run_done(res.cycles, &what);
        results.push(res);
    });
    progress.finish();
    if let Some(e) = setup_error {
        return Err(RegressError::Setup(e));
    }
    results.sort_by_key(|r| r.index);
    let secs = t0.elapsed().as_secs_f64();
    if let Some(path) = &o.json {
        let r = Results {
            plan: all.iter().map(|j| (j.seed, j.gen.name().to_string(), j.domains)).collect(),
            cycles: o.cycles,
            shard: o.shard,
            wall_secs: secs,
            jobs: results.clone(),
            coverage: cov.clone(),
        };
        let text = serde_json::to_string_pretty(&r).expect("results serialize");
        write_file(path, text).map_err(|e| RegressError::Io { path: path.clone(), err: e })?;
    }
    failures.sort_by_key(|f| f.0);
    if let Some((_, job, m)) = failures.first() {
        report_failure(o, job, m);
        return Ok(failures.len());
    }
    print_summary(&results, secs);
    let plan = fs::read_to_string(&o.coverage_plan).unwrap_or_default();
    let c = coverage::closure(&cov, &plan, PLAN_NAME, Some(&o.art.out.join("coverage.json")));
    if o.coverage_gate && !c.passed() {
        println!("cosim: coverage gate failed ({} unhit, {} unplanned bins)", c.unhit.len(), c.unplanned.len());
        return Ok(1);
    }
    Ok(0)
}

/// The summary block of a passing regression (also used by `pcnt merge`).
pub fn print_summary(results: &[JobResult], wall_secs: f64) {
    let cycles: u64 = results.iter().map(|r| r.cycles).sum();
    println!(
        "cosim PASSED: {} runs, {} cycles, 0 mismatches, {:.1} s, {:.0} cycles/s",
        results.len(),
        cycles,
        wall_secs,
        cycles as f64 / wall_secs
    );
    let mut doms: Vec<usize> = results.iter().map(|r| r.domains).collect();
    doms.sort();
    doms.dedup();
    for d in doms {
        let (c, s) =
            results.iter().filter(|r| r.domains == d).fold((0u64, 0f64), |(c, s), r| (c + r.cycles, s + r.secs));
        println!("  {d} domain(s): {c} cycles, {:.0} cycles/s per job", c as f64 / s);
    }
}

/// `pcnt merge`: combine shard results; fails on a failure, a missing or a
/// duplicated job.
pub fn merge(files: &[PathBuf]) -> Result<u8, RegressError> {
    let mut inputs = Vec::new();
    for f in files {
        let text = fs::read_to_string(f).map_err(|e| RegressError::Io { path: f.clone(), err: e })?;
        inputs.push((f.clone(), text));
    }
    merge_texts(&inputs)
}

/// One results file's text (`--json`); `path` names it in the error, which
/// also gives serde's line and column.
pub fn parse_results(path: &std::path::Path, text: &str) -> Result<Results, RegressError> {
    serde_json::from_str(text)
        .map_err(|e| RegressError::Results { path: path.to_path_buf(), why: format!("not a results file: {e}") })
}

/// `merge` on texts already read, `(path, text)` per file: what the fuzz
/// targets and tests feed without touching the file system.
pub fn merge_texts(inputs: &[(PathBuf, String)]) -> Result<u8, RegressError> {
    let files: Vec<PathBuf> = inputs.iter().map(|(p, _)| p.clone()).collect();
    let files = &files[..];
    let mut all: Vec<Results> = Vec::new();
    for (f, text) in inputs {
        all.push(parse_results(f, text)?);
    }
    let Some(first) = all.first() else { return Err(RegressError::NoFiles) };
    let plan = first.plan.clone();
    // A plan with no jobs proves nothing: never report it as passed.
    if plan.is_empty() {
        return Err(RegressError::Results { path: files[0].clone(), why: "the regression plan has no jobs".into() });
    }
    let mut seen = vec![0u32; plan.len()];
    let mut jobs = Vec::new();
    let mut cov = Coverage::default();
    let mut wall = 0f64;
    for (r, f) in all.iter().zip(files) {
        if r.plan != plan || r.cycles != first.cycles {
            let why = format!("a different regression (job list or cycles) than {}", files[0].display());
            return Err(RegressError::Results { path: f.clone(), why });
        }
        for j in &r.jobs {
            let Some(n) = seen.get_mut(j.index) else {
                let why = format!(
                    "job index {} is outside the plan of {} jobs (a corrupt or foreign results file)",
                    j.index,
                    plan.len()
                );
                return Err(RegressError::Results { path: f.clone(), why });
            };
            *n += 1;
            jobs.push(j.clone());
        }
        cov.merge(&r.coverage);
        wall = wall.max(r.wall_secs);
    }
    jobs.sort_by_key(|j| j.index);
    let missing: Vec<usize> = seen.iter().enumerate().filter(|(_, n)| **n == 0).map(|(i, _)| i).collect();
    let dup: Vec<usize> = seen.iter().enumerate().filter(|(_, n)| **n > 1).map(|(i, _)| i).collect();
    let failed: Vec<&JobResult> = jobs.iter().filter(|j| j.failure.is_some()).collect();
    for j in &failed {
        let (what, repro) = j.failure.as_ref().unwrap();
        println!("FAILED job {} (seed {} {} d{}): {what}\n  repro: {repro}", j.index, j.seed, j.gen, j.domains);
    }
    if !dup.is_empty() {
        println!("merge: jobs run more than once: {dup:?}");
    }
    if !missing.is_empty() {
        println!(
            "merge: {} of {} jobs missing (first: {:?})",
            missing.len(),
            plan.len(),
            &missing[..missing.len().min(10)]
        );
    }
    if !failed.is_empty() || !dup.is_empty() || !missing.is_empty() {
        return Ok(1);
    }
    println!("merge: {} files, all {} jobs of the plan exactly once", files.len(), plan.len());
    print_summary(&jobs, wall);
    let plan_text = fs::read_to_string(PLAN_NAME).unwrap_or_default();
    coverage::closure(&cov, &plan_text, PLAN_NAME, None);
    Ok(0)
}

fn report_failure(o: &CosimOpts, job: &Job, m: &Mismatch) {
    let repro = job.repro();
    eprintln!("\ncosim FAILED: seed {} gen {} domains {} — {}", job.seed, job.gen.name(), job.domains, m.what);
    eprintln!("repro: {repro}");
    let j = job.clone();
    let replay = move || -> Box<dyn Iterator<Item = Cmd>> { Box::new(j.stimulus()) };
    match write_failure(&o.art, &job.tag(), &repro, m, &job.setup(), &replay) {
        Ok(dir) => {
            eprintln!("{m}");
            eprintln!("repro:    {repro}");
            eprintln!("report:   {}", dir.join("report.txt").display());
            if dir.join("stimulus.pcs").exists() {
                eprintln!("script:   {}", dir.join("stimulus.pcs").display());
            } else {
                eprintln!("script:   none ({})", dir.join("stimulus.txt").display());
            }
            if dir.join("minimal.pcs").exists() {
                eprintln!("minimal:  {} (shrunk)", dir.join("minimal.pcs").display());
            }
            eprintln!("waves:    {} (+ wave.gtkw; `make waves` opens them)", dir.join("wave.vcd").display());
        }
        Err(e) => {
            eprintln!("{m}");
            eprintln!("repro: {repro}\n(could not write all failure artifacts: {e})");
        }
    }
}
