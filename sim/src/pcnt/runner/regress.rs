//! The random regression: the job plan, parallel jobs, shards and their
//! results files (engine::results; `pcnt merge` is crate::merge), the
//! summary and the coverage gate.

use std::path::PathBuf;

use pcounter::pcnt::regs::Gen;

use super::gf100::GfJob;
use crate::engine::coverage::Coverage;
use crate::engine::results::{JobResult, RegressError};
use crate::pcnt::ffi::Rtl;
use crate::pcnt::gf100;
use crate::pcnt::lockstep::Mismatch;
use crate::pcnt::script::Cmd;

use super::*;

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
    /// Where to write JUnit XML of the jobs (`--junit`).
    pub junit: Option<PathBuf>,
    /// The coverage plan (bins and waivers), and whether an unhit
    /// non-waived bin fails the run.
    pub coverage_plan: String,
    pub coverage_gate: bool,
    pub coverage_table: bool,
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
    // A fault build has one domain count (its file's `domains:`, else 2):
    // a --domains list without it is refused rather than overridden.
    if let Some(f) = &o.fault {
        let fd = Rtl::fault_domains(f).unwrap_or(2);
        if !o.domains.contains(&fd) {
            let asked: Vec<String> = o.domains.iter().map(|d| d.to_string()).collect();
            return Err(RegressError::Setup(format!(
                "fault {f} is built with {fd} domain(s): --domains {} leaves it nothing to run (leave --domains out)",
                asked.join(",")
            )));
        }
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
/// presets rotating (kepler; fermi_full, a whole GF100; fermi_lax, the
/// silent decode, S8); with
/// `--gen gf100` alone or a GF100 fault, one run per seed (a fault on its
/// build's preset). `--layout PRESET` pins the preset.
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
            // A fault build is on its file's `config:` (default gf_fault).
            let preset = match (gf_fault(o), &o.gf_layout) {
                (true, _) => {
                    o.fault.as_deref().and_then(gf100::ffi::fault_base).unwrap_or(gf100::ffi::FAULT_PRESET).into()
                }
                (false, Some(l)) => l.clone(),
                (false, None) => ["kepler", "fermi_full", "fermi_lax"][(k % 3) as usize].into(),
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

impl crate::engine::regress::Run for AnyJob {
    fn seed(&self) -> u64 {
        match self {
            AnyJob::Nv(j) => j.seed,
            AnyJob::Gf(j) => j.seed,
        }
    }
    /// The generation (`gf100` for GF100 runs).
    fn build(&self) -> String {
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
    fn describe(&self) -> String {
        match self {
            AnyJob::Nv(j) => format!("seed {} gen {} domains {}", j.seed, j.gen.name(), j.domains),
            AnyJob::Gf(j) => format!("seed {} gen gf100 layout {}", j.seed, j.preset),
        }
    }
    fn repro(&self) -> String {
        match self {
            AnyJob::Nv(j) => j.repro(),
            AnyJob::Gf(j) => j.repro(),
        }
    }
    fn run_job(&self) -> Result<Result<(u64, Coverage), Box<Mismatch>>, String> {
        let r = match self {
            AnyJob::Nv(j) => run_job(j),
            AnyJob::Gf(j) => j.run(),
        };
        match r {
            Ok(ok) => Ok(Ok(ok)),
            Err(RunError::Mismatch(m)) => Ok(Err(m)),
            Err(RunError::Setup(e)) => Err(e),
        }
    }
    fn write_failure(&self, art: &Artifacts, m: &Mismatch) -> std::io::Result<PathBuf> {
        match self {
            AnyJob::Nv(job) => {
                let j = job.clone();
                let replay = move || -> Box<dyn Iterator<Item = Cmd>> { Box::new(j.stimulus()) };
                let repro = crate::engine::artifacts::cosim_repro(&job.repro(), art);
                write_failure(art, &job.tag(), &repro, m, &job.setup(), &replay)
            }
            AnyJob::Gf(job) => job.write_failure(art, m),
        }
    }
}

/// The regression, on `o.jobs` threads (the engine's driver,
/// `engine::regress::run_plan`). Returns the number of failing jobs.
pub fn cosim(o: &CosimOpts) -> Result<usize, RegressError> {
    check_plan(o)?;
    let all: Vec<AnyJob> = plan(o).into_iter().map(AnyJob::Nv).chain(gf_plan(o).into_iter().map(AnyJob::Gf)).collect();
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
    let p = crate::engine::regress::Plan {
        device: "pcnt",
        label: "cosim".into(),
        note: format!("{nv}{gf}"),
        jobs: all,
        cycles: o.cycles,
        ext: "pcs",
        summary: print_summary,
        plan_label: PLAN_NAME.into(),
        coverage_json: "coverage.json".into(),
    };
    let ro = crate::engine::regress::Opts {
        seed: o.seed,
        seeds: o.seeds,
        cycles: o.cycles,
        fault: o.fault.clone(),
        art: o.art.clone(),
        progress: o.progress,
        jobs: o.jobs,
        coverage_gate: o.coverage_gate,
        coverage_table: o.coverage_table,
        coverage_plan: o.coverage_plan.clone(),
    };
    let s = crate::engine::results::ShardOpts { shard: o.shard, json: o.json.clone(), junit: o.junit.clone() };
    crate::engine::regress::run_plan(&p, &ro, &s).map_err(RegressError::Setup)
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
