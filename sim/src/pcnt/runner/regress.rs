//! The random regression: the job plan, parallel jobs, shards and their
//! results files (engine::results; `pcnt merge` is crate::merge), the
//! summary and the coverage gate.

use std::fs;
use std::path::PathBuf;
use std::time::Instant;

use pcounter::regs::Gen;

use super::gf100::GfJob;
use crate::coverage::{self, Coverage};
use crate::engine::results::{JobResult, RegressError, Results};
use crate::lockstep::Mismatch;
use crate::pcnt::ffi::Rtl;
use crate::pcnt::gf100;
use crate::script::Cmd;

use super::*;
use crate::engine::progress::Progress;

/// Options of `pcnt cosim`.
#[derive(Clone, Debug)]
pub struct CosimOpts {
    pub seed: u64,
    pub seeds: u64,
    pub cycles: u64,
    pub domains: Vec<usize>,
    pub gens: Vec<Gen>,
    /// GF100 runs too (`--gen gf100` or `all`; docs/design/gf100.md 3.4).
    pub gf100: bool,
    /// `--layout fermi|kepler`: every GF100 run on that preset.
    pub gf_layout: Option<String>,
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

/// The generations of `gens` that have `domains` domains (S24), in order.
pub fn gens_for(gens: &[Gen], domains: usize) -> Vec<Gen> {
    gens.iter().copied().filter(|g| g.max_domains() >= domains).collect()
}

/// The generations a regression's runs rotate over: `o.gens`, or with an
/// injected fault those of its fault file (`gens:`) that `o.gens` names
/// (all of them when `o.gens` is every generation).
fn rotation(o: &CosimOpts) -> Vec<Gen> {
    if gf_fault(o) {
        return Vec::new();
    }
    match o.fault.as_deref().and_then(Rtl::fault_gens) {
        Some(fg) => fg.into_iter().filter(|g| o.gens.contains(g)).collect(),
        None => o.gens.clone(),
    }
}

/// A domain count no generation of the rotation has is skipped, with a note
/// (S24: `--gen nv10` with the default domains 1, 2, 8 runs 1 domain); a
/// regression left with nothing to run is an error.
fn check_plan(o: &CosimOpts) -> Result<(), RegressError> {
    let gens = rotation(o);
    if !gf_plan(o).is_empty() && (gens.is_empty() || gf_fault(o)) {
        return Ok(()); // GF100 runs only: no domain list applies
    }
    let names: Vec<&str> = gens.iter().map(|g| g.name()).collect();
    let domain_list = domain_list(o);
    let (runs, skipped): (Vec<usize>, Vec<usize>) = domain_list.iter().partition(|&&d| !gens_for(&gens, d).is_empty());
    if runs.is_empty() {
        return Err(RegressError::Setup(format!(
            "no generation of [{}] has {} domain(s) (nv10/nv15: 1, nv20/nv30: 2, nv40+: 8; docs/semantics.md S24)",
            names.join(", "),
            skipped.iter().map(|d| d.to_string()).collect::<Vec<_>>().join(" or ")
        )));
    }
    for d in skipped {
        eprintln!("cosim: no generation of [{}] has {d} domain(s): skipped (docs/semantics.md S24)", names.join(", "));
    }
    Ok(())
}

/// The domain counts a regression runs: `--domains`, or the fault build's
/// own (2 for tests/faults/*.fault, tests/faults/README.md; 1 for the gate
/// faults of `make gatesim`).
fn domain_list(o: &CosimOpts) -> Vec<usize> {
    match &o.fault {
        Some(f) => vec![Rtl::fault_domains(f).unwrap_or(2)],
        None => o.domains.clone(),
    }
}

/// The job list of a regression: seeds x domain counts, generation rotating
/// with the seed over those that have the domain count. The same options
/// give the same list on every machine, so shards `i/n` partition it by
/// index.
pub fn plan(o: &CosimOpts) -> Vec<Job> {
    let mut jobs = Vec::new();
    let domain_list = domain_list(o);
    let rotation = rotation(o);
    for &domains in &domain_list {
        let gens = gens_for(&rotation, domains);
        if gens.is_empty() {
            continue;
        }
        for i in 0..o.seeds {
            let seed = o.seed + i;
            let gen = gens[(i as usize) % gens.len()];
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

/// Is the injected fault one of the GF100 top's (`device: gf100`)?
fn gf_fault(o: &CosimOpts) -> bool {
    o.fault.as_deref().is_some_and(|f| gf100::ffi::faults().contains(&f))
}

/// The GF100 runs of a regression (docs/design/gf100.md 3.4), added after
/// the others so their indices (and shards' shares) stay as they were:
/// with other generations, one run for every fifth seed (seed % 5 == 0),
/// presets alternating; with `--gen gf100` alone or a GF100 fault, one run
/// per seed. `--layout fermi|kepler` pins the preset.
pub fn gf_plan(o: &CosimOpts) -> Vec<GfJob> {
    if !(o.gf100 || gf_fault(o)) || (o.fault.is_some() && !gf_fault(o)) {
        return Vec::new();
    }
    let only = o.gens.is_empty() || gf_fault(o);
    (0..o.seeds)
        .map(|i| o.seed + i)
        .filter(|s| only || s % 5 == 0)
        .map(|seed| {
            let k = if only { seed } else { seed / 5 };
            // A fault build is always the gf_fault preset (sim/build.rs).
            let preset = match (gf_fault(o), &o.gf_layout) {
                (true, _) => gf100::ffi::FAULT_PRESET.to_string(),
                (false, Some(l)) => l.clone(),
                (false, None) => if k % 2 == 0 { "kepler" } else { "fermi" }.into(),
            };
            GfJob { seed, preset, cycles: o.cycles, fault: o.fault.clone() }
        })
        .collect()
}

/// A run of the regression: a pre-GF100 job or a GF100 one.
#[derive(Clone, Debug)]
enum AnyJob {
    Nv(Job),
    Gf(GfJob),
}

impl AnyJob {
    fn seed(&self) -> u64 {
        match self {
            AnyJob::Nv(j) => j.seed,
            AnyJob::Gf(j) => j.seed,
        }
    }
    fn gen(&self) -> String {
        match self {
            AnyJob::Nv(j) => j.gen.name().to_string(),
            AnyJob::Gf(_) => "gf100".into(),
        }
    }
    fn domains(&self) -> usize {
        match self {
            AnyJob::Nv(j) => j.domains,
            AnyJob::Gf(j) => j.domains(),
        }
    }
    fn repro(&self) -> String {
        match self {
            AnyJob::Nv(j) => j.repro(),
            AnyJob::Gf(j) => j.repro(),
        }
    }
    fn run(&self) -> Result<(u64, Coverage), RunError> {
        match self {
            AnyJob::Nv(j) => run_job(j),
            AnyJob::Gf(j) => j.run(),
        }
    }
}

/// The regression, on `o.jobs` threads. Returns the number of failing jobs.
/// A failure stops new jobs from starting; the one reported is the failing
/// job with the lowest index (deterministic: every lower job has run).
pub fn cosim(o: &CosimOpts) -> Result<usize, RegressError> {
    check_plan(o)?;
    let all: Vec<AnyJob> = plan(o).into_iter().map(AnyJob::Nv).chain(gf_plan(o).into_iter().map(AnyJob::Gf)).collect();
    let (si, sn) = o.shard;
    let mine: Vec<(usize, AnyJob)> = all.iter().cloned().enumerate().filter(|(i, _)| i % sn == si).collect();
    let total_cycles = mine.len() as u64 * o.cycles;
    let domain_list: Vec<usize> = {
        let mut d: Vec<usize> =
            all.iter().filter_map(|j| if let AnyJob::Nv(j) = j { Some(j.domains) } else { None }).collect();
        d.dedup();
        d
    };
    let gf_runs = all.iter().filter(|j| matches!(j, AnyJob::Gf(_))).count();
    let nv = if domain_list.is_empty() {
        String::new()
    } else {
        format!(
            " x domains {:?} (generation rotates over {})",
            domain_list,
            rotation(o).iter().map(|g| g.name()).collect::<Vec<_>>().join("/")
        )
    };
    let gf = match (gf_runs, domain_list.is_empty()) {
        (0, _) => String::new(),
        (n, true) => format!(", gf100 ({n} runs)"),
        (n, false) => format!(" + {n} gf100 runs"),
    };
    eprintln!(
        "cosim: {} runs = seeds {}..{}{nv}{gf}, {} cycles each{}{}, {} job(s) in parallel",
        mine.len(),
        o.seed,
        o.seed + o.seeds - 1,
        o.cycles,
        o.fault.as_ref().map(|f| format!(", injected fault {f}")).unwrap_or_default(),
        if sn > 1 { format!(", shard {si}/{sn} of {} runs", all.len()) } else { String::new() },
        o.jobs
    );
    let t0 = Instant::now();
    let mut progress = Progress::new(o.progress, mine.len(), total_cycles);
    let mut results: Vec<JobResult> = Vec::new();
    let mut failures: Vec<(usize, AnyJob, Box<Mismatch>)> = Vec::new();
    let mut cov = Coverage::default();
    let mut setup_error = None;
    let run = |(_, job): &(usize, AnyJob)| job.run();
    crate::engine::jobs::parallel(&mine, o.jobs, run, Result::is_err, |_, (index, job), r, secs| {
        let mut res = JobResult {
            index: *index,
            seed: job.seed(),
            gen: job.gen(),
            domains: job.domains(),
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
        let what = format!("seed {} {} d{}", job.seed(), job.gen(), job.domains());
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
            device: "pcnt".into(),
            plan: all.iter().map(|j| (j.seed(), j.gen(), j.domains())).collect(),
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
        match job {
            AnyJob::Nv(job) => report_failure(o, job, m),
            AnyJob::Gf(job) => report_gf_failure(o, job, m),
        }
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
    // Runs per generation, oldest first (S24: each domain count rotates over
    // the generations that have it).
    let per_gen: Vec<String> = Gen::ALL
        .iter()
        .filter_map(|g| {
            let runs: Vec<&JobResult> = results.iter().filter(|r| r.gen == g.name()).collect();
            let doms: std::collections::BTreeSet<usize> = runs.iter().map(|r| r.domains).collect();
            let doms: Vec<String> = doms.iter().map(|d| d.to_string()).collect();
            (!runs.is_empty()).then(|| format!("{} {} (d{})", g.name(), runs.len(), doms.join("/d")))
        })
        .collect();
    let gf: Vec<&JobResult> = results.iter().filter(|r| r.gen == "gf100").collect();
    let mut per_gen = per_gen;
    if !gf.is_empty() {
        let doms: std::collections::BTreeSet<usize> = gf.iter().map(|r| r.domains).collect();
        let doms: Vec<String> = doms.iter().map(|d| d.to_string()).collect();
        per_gen.push(format!("gf100 {} (d{})", gf.len(), doms.join("/d")));
    }
    println!("  runs per generation: {}", per_gen.join(", "));
}

fn report_gf_failure(o: &CosimOpts, job: &GfJob, m: &Mismatch) {
    let repro = job.repro();
    eprintln!("\ncosim FAILED: seed {} gen gf100 layout {} — {}", job.seed, job.preset, m.what);
    eprintln!("repro: {repro}");
    match job.write_failure(&o.art, m) {
        Ok(dir) => {
            eprintln!("{m}");
            eprintln!("repro:    {repro}");
            eprintln!("report:   {}", dir.join("report.txt").display());
            eprintln!("script:   {}", dir.join("stimulus.pcs").display());
            eprintln!("waves:    {} (+ wave.gtkw; `make waves` opens them)", dir.join("wave.vcd").display());
        }
        Err(e) => {
            eprintln!("{m}");
            eprintln!("repro: {repro}\n(could not write all failure artifacts: {e})");
        }
    }
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
