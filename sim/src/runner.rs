//! Regression runs, scenario-script runs and what a failure leaves behind.
//!
//! On a mismatch, in this order (nothing is lost if a later step fails):
//!   1. `repro.txt`: the one-line command that reproduces it (also printed);
//!   2. `report.txt`: the mismatch report;
//!   3. `stimulus.pcs`: the stimulus up to the failing cycle as a scenario script;
//!   4. `wave.vcd` + `wave.gtkw`: a deterministic re-run traced over the last
//!      `window` cycles, RTL internals plus DUT/model register values and a
//!      `mismatch` marker, opened by `make waves`.

use std::fs;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::time::Instant;

use pcounter::regs::Gen;

use crate::coverage::{self, Coverage};
use crate::ffi::Rtl;
use crate::lockstep::{Engine, Mismatch};
use crate::script::{self, ClockSpec, Cmd, Line, Script};
use crate::shrink;
use crate::stim::RandomStim;
use crate::wave;

/// Where failures go, and how much of the run the waves cover.
#[derive(Clone, Debug)]
pub struct Artifacts {
    pub out: PathBuf,
    pub window: u64,
    /// Time budget for shrinking the stimulus to `minimal.pcs` (0: off).
    pub shrink_secs: u64,
}

/// What an engine is built from: configuration, injected fault, clocks.
#[derive(Clone, Debug)]
pub struct Setup {
    pub gen: Gen,
    pub domains: usize,
    pub fault: Option<String>,
    pub clocks: Vec<(u8, ClockSpec)>,
    /// Harness self-test: flip an RTL flop at this cycle (`--corrupt-at`).
    pub corrupt_at: Option<u64>,
    /// Seed of the RTL's random initial values (S14; `lockstep::X_SEED`
    /// for scripts, the stimulus seed for random runs).
    pub x_seed: u32,
    /// StrictDecode (S8): PSLVERR for holes; false is the hardware's silence.
    pub strict: bool,
    /// Per-domain signal layout (S9, S19).
    pub layout: pcounter::Layout,
}

impl Setup {
    pub fn engine(&self, rtl: bool) -> Result<Engine, String> {
        let mut cfg = pcounter::Config::with_layout(self.gen, self.domains, self.layout)?;
        cfg.strict_decode = self.strict;
        let mut e = Engine::with_config(cfg, rtl, self.fault.as_deref(), &self.clocks, self.x_seed)?;
        e.layout = self.layout;
        e.corrupt_at = self.corrupt_at;
        Ok(e)
    }
}

/// The PCOUNTER coverage plan (bins of `lockstep::BINS`).
pub const PLAN_NAME: &str = "docs/coverage-plan.md";

/// Past this many cycles a failure's stimulus is not written as a script
/// (millions of lines); the repro line regenerates it exactly.
pub const SCRIPT_CYCLES_MAX: u64 = 2_000_000;

/// One random lockstep run.
#[derive(Clone, Debug)]
pub struct Job {
    pub seed: u64,
    pub gen: Gen,
    pub domains: usize,
    pub cycles: u64,
    pub fault: Option<String>,
    /// Harness self-test (`--corrupt-at`): see [`Setup::corrupt_at`].
    pub corrupt_at: Option<u64>,
    /// Layout and decode fixed by the user instead of derived from the seed.
    pub pin: Pin,
}

/// `pcnt cosim --layout L --decode D` (`make cosim LAYOUT= DECODE=`): every
/// run of the regression on that signal layout / StrictDecode setting; None
/// derives it from the seed ([`Job::layout`], [`Job::strict`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pin {
    pub layout: Option<pcounter::Layout>,
    pub strict: Option<bool>,
}

impl Job {
    /// The one-line command that reruns exactly this job.
    pub fn repro(&self) -> String {
        let mut fault = self.fault.as_ref().map(|f| format!(" FAULT={f}")).unwrap_or_default();
        if let Some(c) = self.corrupt_at {
            fault += &format!(" CORRUPT={c}");
        }
        if let Some(l) = self.pin.layout {
            fault += &format!(" LAYOUT={}", l.name());
        }
        if let Some(s) = self.pin.strict {
            fault += if s { " DECODE=strict" } else { " DECODE=lax" };
        }
        format!(
            "make cosim SEED={} SEEDS=1 CYCLES={} DOMAINS={} GEN={}{fault}",
            self.seed,
            self.cycles,
            self.domains,
            self.gen.name()
        )
    }

    fn tag(&self) -> String {
        let fault = self.fault.as_ref().map(|f| format!("-{f}")).unwrap_or_default();
        format!("fail-seed{}-{}-d{}{fault}", self.seed, self.gen.name(), self.domains)
    }

    pub fn stimulus(&self) -> RandomStim {
        RandomStim::new(self.seed, self.gen, self.domains)
    }

    /// Configuration, fault and the clock patterns the seed chose.
    pub fn setup(&self) -> Setup {
        Setup {
            gen: self.gen,
            domains: self.domains,
            fault: self.fault.clone(),
            clocks: self.stimulus().clocks().to_vec(),
            corrupt_at: self.corrupt_at,
            x_seed: self.seed as u32 ^ (self.seed >> 32) as u32,
            strict: self.strict(),
            layout: self.layout(),
        }
    }

    /// Signal layout of this job (S9, S19): the real GPU's for half of the
    /// 8-domain seeds of a generation envytools tabulates, the odd one for
    /// every fourth 2-domain seed (seed % 4 == 2; lax decode takes
    /// seed % 4 == 0), else the default. A fault build's own layout for
    /// fault runs (`layout: odd` in its file).
    /// Derived from the seed, so the repro line reproduces it.
    pub fn layout(&self) -> pcounter::Layout {
        use pcounter::Layout;
        if let Some(f) = &self.fault {
            return Rtl::fault_layout(f).unwrap_or(Layout::Default);
        }
        if let Some(l) = self.pin.layout {
            return l;
        }
        match self.domains {
            8 if pcounter::config::real_bases(self.gen).is_some() && (self.seed / 4) % 2 == 0 => Layout::Real,
            2 if self.seed % 4 == 2 => Layout::Odd,
            _ => Layout::Default,
        }
    }

    /// StrictDecode of this job (S8): a fault build's own setting; else the
    /// hardware decode (no PSLVERR) for every fourth seed of the 2-domain
    /// runs, so the default regression runs both settings. Derived from the
    /// seed, so the repro line reproduces it.
    pub fn strict(&self) -> bool {
        match &self.fault {
            Some(f) => Rtl::fault_strict(f).unwrap_or(true),
            None => self.pin.strict.unwrap_or(!(self.domains == 2 && self.seed % 4 == 0)),
        }
    }
}

/// Commands needed to reach `cycle` (inclusive): write/read take 2 clocks.
pub fn cmds_through(cmds: impl Iterator<Item = Cmd>, cycle: u64) -> Vec<Cmd> {
    let mut t = 0u64;
    let mut out = Vec::new();
    for c in cmds {
        if t > cycle {
            break;
        }
        t += match c {
            Cmd::Write { .. } | Cmd::Read { .. } => 2,
            Cmd::Wait { cycles } => cycles,
            _ => 0,
        };
        out.push(c);
    }
    out
}

/// Run a job; `Ok((cycles, coverage))` or the first mismatch.
pub fn run_job(job: &Job) -> Result<(u64, Coverage), RunError> {
    let mut e = job.setup().engine(true).map_err(RunError::Setup)?;
    let mut stim = job.stimulus();
    while e.cycle < job.cycles {
        let cmd = stim.next().expect("the random stimulus never ends");
        e.exec(&cmd).map_err(RunError::Mismatch)?;
    }
    e.finish().map_err(RunError::Mismatch)?;
    Ok((e.cycle, e.stats.coverage()))
}

#[derive(Debug)]
pub enum RunError {
    /// Could not start (no Verilated build for the request, bad config).
    Setup(String),
    Mismatch(Box<Mismatch>),
}

/// Write the failure artifacts of a mismatch; returns the folder.
/// `replay` regenerates the exact command stream from cycle 0.
pub fn write_failure(
    art: &Artifacts,
    tag: &str,
    repro: &str,
    m: &Mismatch,
    setup: &Setup,
    replay: &dyn Fn() -> Box<dyn Iterator<Item = Cmd>>,
) -> std::io::Result<PathBuf> {
    let dir = art.out.join(tag);
    fs::create_dir_all(&dir)?;
    // 1. The reproducer first: everything after this may fail or be killed.
    fs::write(dir.join("repro.txt"), format!("{repro}\n"))?;
    fs::write(art.out.join("last-failure"), format!("{}\n", dir.display()))?;
    // 2. The report.
    let report = format!("{m}\nrepro: {repro}\nfolder: {}\n", dir.display());
    fs::write(dir.join("report.txt"), &report)?;
    // 3. The stimulus as a scenario script (short runs only; the harness
    //    self-test corruption cannot be expressed in a script).
    if m.cycle > SCRIPT_CYCLES_MAX || setup.corrupt_at.is_some() {
        let why = if setup.corrupt_at.is_some() {
            "the failure comes from --corrupt-at, which a script cannot express".to_string()
        } else {
            format!("the failure is at cycle {}, past {SCRIPT_CYCLES_MAX}", m.cycle)
        };
        fs::write(dir.join("stimulus.txt"), format!("No stimulus.pcs: {why}.\nReproduce with: {repro}\n"))?;
        write_waves(&dir, m, setup, art.window, replay)?;
        return Ok(dir);
    }
    let body: Vec<Line> =
        cmds_through(replay(), m.cycle).into_iter().enumerate().map(|(i, cmd)| Line { line: i + 1, cmd }).collect();
    let x_seed = (setup.x_seed != crate::lockstep::X_SEED).then_some(setup.x_seed);
    let s = Script {
        gen: setup.gen.name().to_string(),
        domains: setup.domains,
        clocks: setup.clocks.clone(),
        x_seed,
        strict: setup.strict,
        layout: setup.layout,
        body,
    };
    let args = setup.fault.as_ref().map(|f| format!(" ARGS='--fault {f}'")).unwrap_or_default();
    let mut text = format!(
        "# Stimulus of a failing lockstep run up to its first mismatch (cycle {}).\n# {}\n# Replay: make script FILE={}{args}\n",
        m.cycle,
        m.what,
        dir.join("stimulus.pcs").display()
    );
    text += &script::render(&s.compact());
    fs::write(dir.join("stimulus.pcs"), text)?;
    let full: Vec<Cmd> = s.body.iter().map(|l| l.cmd.clone()).collect();
    // 4. Waves over the failure window.
    write_waves(&dir, m, setup, art.window, replay)?;
    // 5. A minimal script that still fails the same way.
    if art.shrink_secs > 0 {
        let before = full.len();
        // Still failing means: a mismatch on the same register.
        let fails = |cmds: &[Cmd]| -> bool {
            let Ok(mut e) = setup.engine(true) else { return false };
            cmds.iter().find_map(|c| e.exec(c).err()).is_some_and(|f| f.what == m.what)
        };
        let min = shrink::shrink(full, &fails, std::time::Duration::from_secs(art.shrink_secs));
        let lines: Vec<Line> = min.into_iter().enumerate().map(|(i, cmd)| Line { line: i + 1, cmd }).collect();
        let after = lines.len();
        let small = Script { body: lines, ..s };
        let path = dir.join("minimal.pcs");
        let text = format!(
            "# Shrunk from {before} to {after} commands; fails with a mismatch on {} alone.\n\
             # Replay: make script FILE={}{args}\n# Add it to tests/corpus/ once the bug is fixed.\n{}",
            m.what,
            path.display(),
            script::render(&small)
        );
        fs::write(&path, text)?;
    }
    Ok(dir)
}

fn write_waves(
    dir: &Path,
    m: &Mismatch,
    setup: &Setup,
    window: u64,
    replay: &dyn Fn() -> Box<dyn Iterator<Item = Cmd>>,
) -> std::io::Result<()> {
    let io = |e: String| std::io::Error::other(e);
    let mut e = setup.engine(true).map_err(io)?;
    let domains = setup.domains;
    e.continue_on_mismatch = true;
    let start = m.cycle.saturating_sub(window);
    let end = m.cycle + 3;
    let rtl_vcd = dir.join("rtl.vcd");
    let mut started = false;
    for cmd in replay() {
        if !started && e.cycle >= start {
            e.start_wave(Some(&rtl_vcd)).map_err(io)?;
            started = true;
        }
        if e.cycle > end {
            break;
        }
        // Mismatches are expected here; the run continues to show the aftermath.
        let _ = e.exec(&cmd);
    }
    let Some((_, trace)) = e.take_wave() else {
        return Err(io("the failing run ended before the wave window".into()));
    };
    drop(e);
    let vcd = dir.join("wave.vcd");
    wave::merge_vcd(Some(&rtl_vcd), &trace, &vcd)?;
    let _ = fs::remove_file(&rtl_vcd);
    let mut groups =
        vec![("lockstep".to_string(), trace.signals.iter().take(2).map(wave::gtkw_name).collect::<Vec<_>>())];
    // The failing register first, then every register of each domain.
    let scope = m.dom.map_or("global".to_string(), |d| format!("dom{d}"));
    let first: Vec<String> = trace
        .signals
        .iter()
        .filter(|s| s.scope.first() == Some(&scope))
        .filter(|s| m.wave_reg.as_ref().is_some_and(|r| s.name == format!("{r}_dut") || s.name == format!("{r}_model")))
        .map(wave::gtkw_name)
        .collect();
    if !first.is_empty() {
        groups.push((format!("failing: {}", m.what), first));
    }
    for dom in 0..domains {
        let names = trace
            .signals
            .iter()
            .filter(|s| s.scope.first().is_some_and(|sc| sc == &format!("dom{dom}")))
            .map(wave::gtkw_name)
            .collect();
        groups.push((format!("domain {dom} registers (dut/model)"), names));
    }
    // RTL internals: the APB port and the flops/inputs of the failing domain.
    let rtl_names = wave::gtkw_names_in_vcd(&vcd)?;
    let pick = |prefix: &str, keep: &dyn Fn(&str) -> bool| -> Vec<String> {
        rtl_names
            .iter()
            .map(|(n, _)| n)
            .filter(|n| n.strip_prefix(prefix).is_some_and(|rest| !rest.contains('.') && keep(rest)))
            .cloned()
            .collect()
    };
    let apb = ["psel_i", "penable_i", "pwrite_i", "paddr_i", "pwdata_i", "pstrb_i", "prdata_o", "pslverr_o"];
    groups.push(("RTL: APB port".into(), pick("TOP.pcnt_top.", &|r| apb.iter().any(|a| r.starts_with(a)))));
    let dom = m.dom.unwrap_or(0);
    let internals = pick(&format!("TOP.pcnt_top.gen_dom[{dom}].u_domain."), &|r| {
        r.contains("_q") || r.starts_with("in_") || r.starts_with("reg_we")
    });
    groups.push((format!("RTL: domain {dom} internals"), internals));
    groups.push((
        "global registers".into(),
        trace
            .signals
            .iter()
            .filter(|s| s.scope.first().is_some_and(|sc| sc == "global"))
            .map(wave::gtkw_name)
            .collect(),
    ));
    // Open zoomed on the last cycles before the mismatch; the file holds the whole window.
    let zoom_from = m.cycle.saturating_sub(40).max(start);
    wave::write_gtkw(&vcd, &dir.join("wave.gtkw"), &groups, m.cycle * 10, (zoom_from * 10, end * 10))?;
    Ok(())
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
pub fn cosim(o: &CosimOpts) -> Result<usize, String> {
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
    let next = std::sync::atomic::AtomicUsize::new(0);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let (tx, rx) = std::sync::mpsc::channel();
    let mut results: Vec<JobResult> = Vec::new();
    let mut failures: Vec<(usize, Job, Box<Mismatch>)> = Vec::new();
    let mut cov = Coverage::default();
    let mut setup_error = None;
    std::thread::scope(|scope| {
        for _ in 0..o.jobs.max(1) {
            let tx = tx.clone();
            let (next, stop, mine) = (&next, &stop, &mine);
            scope.spawn(move || loop {
                use std::sync::atomic::Ordering::SeqCst;
                if stop.load(SeqCst) {
                    break;
                }
                let k = next.fetch_add(1, SeqCst);
                let Some((index, job)) = mine.get(k) else { break };
                let tj = Instant::now();
                let r = run_job(job);
                if r.is_err() {
                    stop.store(true, SeqCst);
                }
                if tx.send((*index, job.clone(), r, tj.elapsed().as_secs_f64())).is_err() {
                    break;
                }
            });
        }
        drop(tx);
        let mut done_cycles = 0u64;
        for (index, job, r, secs) in rx {
            let mut res = JobResult {
                index,
                seed: job.seed,
                gen: job.gen.name().to_string(),
                domains: job.domains,
                cycles: 0,
                secs,
                failure: None,
            };
            match r {
                Ok((c, st)) => {
                    done_cycles += c;
                    res.cycles = c;
                    cov.merge(&st);
                }
                Err(RunError::Setup(e)) => setup_error = Some(e),
                Err(RunError::Mismatch(m)) => {
                    res.failure = Some((m.what.clone(), job.repro()));
                    failures.push((index, job.clone(), m));
                }
            }
            results.push(res);
            if o.progress {
                progress(results.len(), mine.len(), done_cycles, total_cycles, t0, &job);
            }
        }
    });
    if o.progress {
        eprintln!();
    }
    if let Some(e) = setup_error {
        return Err(e);
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
        let text = serde_json::to_string_pretty(&r).map_err(|e| e.to_string())?;
        fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))?;
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
pub fn merge(files: &[PathBuf]) -> Result<u8, String> {
    let mut all: Vec<Results> = Vec::new();
    for f in files {
        let text = fs::read_to_string(f).map_err(|e| format!("{}: {e}", f.display()))?;
        all.push(serde_json::from_str(&text).map_err(|e| format!("{}: not a results file: {e}", f.display()))?);
    }
    let Some(first) = all.first() else { return Err("merge: no files".into()) };
    let plan = first.plan.clone();
    // A plan with no jobs proves nothing: never report it as passed.
    if plan.is_empty() {
        return Err(format!("{}: the regression plan has no jobs", files[0].display()));
    }
    let mut seen = vec![0u32; plan.len()];
    let mut jobs = Vec::new();
    let mut cov = Coverage::default();
    let mut wall = 0f64;
    for (r, f) in all.iter().zip(files) {
        if r.plan != plan || r.cycles != first.cycles {
            return Err(format!(
                "{}: a different regression (job list or cycles) than {}",
                f.display(),
                files[0].display()
            ));
        }
        for j in &r.jobs {
            let Some(n) = seen.get_mut(j.index) else {
                return Err(format!(
                    "{}: job index {} is outside the plan of {} jobs (a corrupt or foreign results file)",
                    f.display(),
                    j.index,
                    plan.len()
                ));
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

fn progress(n: usize, total: usize, cycles: u64, total_cycles: u64, t0: Instant, job: &Job) {
    let width = 30;
    let filled = (n * width).checked_div(total).unwrap_or(width);
    let secs = t0.elapsed().as_secs_f64().max(1e-9);
    eprint!(
        "\r[{}{}] {n}/{total} runs  {:.1}/{:.1} M cycles  {:.0} k cycles/s  (seed {} {} d{})   ",
        "#".repeat(filled),
        ".".repeat(width - filled),
        cycles as f64 / 1e6,
        total_cycles as f64 / 1e6,
        cycles as f64 / secs / 1e3,
        job.seed,
        job.gen.name(),
        job.domains
    );
    let _ = std::io::stderr().flush();
}

/// Outcome of a scenario script.
#[derive(Debug)]
pub enum ScriptError {
    /// Parse error or setup error: the script is wrong (exit 2).
    Input(String),
    /// An expectation failed or RTL and model disagree (exit 1).
    Failed(String),
}

/// Run one scenario script in lockstep (or model alone); prints read values.
pub fn run_script(
    path: &Path,
    model_only: bool,
    fault: Option<&str>,
    art: &Artifacts,
    quiet: bool,
) -> Result<u64, ScriptError> {
    let o = ScriptOpts { model_only, fault, art, quiet, packets: None, x_seed: None, max_cycles: None };
    run_script_with(path, &o)
}

/// [`run_script`] with every option of [`ScriptOpts`] (packet log, initial
/// values, cycle bound).
pub fn run_script_with(path: &Path, o: &ScriptOpts) -> Result<u64, ScriptError> {
    let fault = o.fault;
    let name = path.display().to_string();
    let text = fs::read_to_string(path).map_err(|e| ScriptError::Input(format!("{name}: cannot read: {e}")))?;
    let s = script::parse(&name, &text).map_err(|e| ScriptError::Input(e.to_string()))?;
    let repro = match fault {
        Some(f) => format!("make script FILE={name} ARGS='--fault {f}'"),
        None => format!("make script FILE={name}"),
    };
    // `gen a,b,...` runs the script once per generation; messages then name
    // the generation too (`file[g84]:line`).
    let gens: Vec<&str> = s.gen.split(',').collect();
    let mut cycles = 0;
    for g in &gens {
        let one = Script { gen: g.to_string(), ..s.clone() };
        let label = if gens.len() > 1 { format!("{name}[{g}]") } else { name.clone() };
        cycles = run_parsed(&label, &one, o, &repro)?.cycles;
    }
    Ok(cycles)
}

/// How [`run_parsed`] runs a script.
#[derive(Clone, Copy, Debug)]
pub struct ScriptOpts<'a> {
    pub model_only: bool,
    pub fault: Option<&'a str>,
    pub art: &'a Artifacts,
    /// Do not print the values read.
    pub quiet: bool,
    /// Write the model's record packets here (`crate::dump` log).
    pub packets: Option<&'a Path>,
    /// Initial-value seed for a script without an `xseed` line.
    pub x_seed: Option<u32>,
    /// Most bus cycles a script may run (`--max-cycles`; None: the default
    /// `SCRIPT_MAX_CYCLES`). A `wait` that would pass it is refused before it
    /// runs, naming its line, so no script runs for hours by a typo.
    pub max_cycles: Option<u64>,
}

/// Default bound of a script's length in bus cycles (about a minute of
/// lockstep at 8 domains); `pcnt script --max-cycles N` raises it.
pub const SCRIPT_MAX_CYCLES: u64 = 10_000_000;

/// One `read` (or `mem`) of a script run: its script line and what it returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadValue {
    pub line: usize,
    pub value: u32,
    pub slverr: bool,
}

/// A script run that passed.
#[derive(Clone, Debug, Default)]
pub struct ScriptRun {
    pub cycles: u64,
    /// Every read and mem command, in order.
    pub reads: Vec<ReadValue>,
}

/// Runs a parsed script named `name` (in messages and artifact names);
/// `repro` is the command a failure report tells the user to rerun.
pub fn run_parsed(name: &str, s: &Script, o: &ScriptOpts, repro: &str) -> Result<ScriptRun, ScriptError> {
    let gen = Gen::from_name(&s.gen)
        .ok_or_else(|| ScriptError::Input(format!("{name}: generation {} not supported yet", s.gen)))?;
    let setup = Setup {
        gen,
        domains: s.domains,
        fault: o.fault.map(String::from),
        clocks: s.clocks.clone(),
        corrupt_at: None,
        x_seed: s.x_seed.or(o.x_seed).unwrap_or(crate::lockstep::X_SEED),
        strict: s.strict,
        layout: s.layout,
    };
    let mut e = setup.engine(!o.model_only).map_err(|e| ScriptError::Input(format!("{name}: {e}")))?;
    if o.packets.is_some() {
        e.packets = Some(Vec::new());
    }
    let mut reads = Vec::new();
    let last_line = s.body.last().map_or(0, |l| l.line);
    // The commands, then the end-of-run memory image compare (S21).
    let steps = s.body.iter().map(Some).chain(std::iter::once(None));
    let max = o.max_cycles.unwrap_or(SCRIPT_MAX_CYCLES);
    for step in steps {
        if let Some(Line { line, cmd: Cmd::Wait { cycles } }) = step {
            if e.cycle.saturating_add(*cycles) > max {
                return Err(ScriptError::Input(format!(
                    "{name}:{line}: 'wait {cycles}' would run the script past {max} bus cycles \
                     (at cycle {}; raise the bound with --max-cycles)",
                    e.cycle
                )));
            }
        }
        let (line, r) = match step {
            Some(l) => (l.line, e.exec(&l.cmd)),
            None => (last_line, e.finish().map(|()| None)),
        };
        match r {
            Ok(Some(res)) => {
                let (what, addr, expect) = match step.map(|l| &l.cmd) {
                    Some(Cmd::Read { addr, expect }) => ("read", format!("{addr:#06x}"), expect),
                    Some(Cmd::Mem { addr, expect }) => ("mem", format!("{addr:#x}"), expect),
                    _ => continue,
                };
                let v = res.rdata;
                reads.push(ReadValue { line, value: v, slverr: res.slverr });
                let err = if res.slverr { " PSLVERR" } else { "" };
                match expect {
                    Some(x) if !x.check(v) => {
                        return Err(ScriptError::Failed(format!(
                            "{name}:{line}: {what} {addr} returned {v:#010x}{err}, expected {}",
                            x.describe()
                        )));
                    }
                    _ if o.quiet => {}
                    Some(script::Expect::Trace(t)) => {
                        println!("{name}:{line}: {what} {addr} = {v:#010x}{err} (trace {t:#010x})")
                    }
                    _ => println!("{name}:{line}: {what} {addr} = {v:#010x}{err}"),
                }
            }
            Ok(None) => {}
            Err(m) => {
                // `file.pcs[g84]` (a generation list) gives fail-script-file-g84.
                let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
                let multi = if name.ends_with(']') { format!("-{}", gen.name()) } else { String::new() };
                let tag = format!("fail-script-{stem}{multi}");
                let body = s.body.clone();
                let replay =
                    move || -> Box<dyn Iterator<Item = Cmd>> { Box::new(body.clone().into_iter().map(|l| l.cmd)) };
                let where_ = match write_failure(o.art, &tag, repro, &m, &setup, &replay) {
                    Ok(dir) => format!("artifacts: {}", dir.display()),
                    Err(err) => format!("could not write all artifacts: {err}"),
                };
                return Err(ScriptError::Failed(format!(
                    "{name}:{line}: RTL and model disagree\n{m}repro: {repro}\n{where_}"
                )));
            }
        }
    }
    if let (Some(p), Some(log)) = (o.packets, &e.packets) {
        let mut text = format!("{}\n", crate::dump::LOG_HEADER);
        for (cycle, dom, pkt) in log {
            text.push_str(&crate::dump::log_line(*cycle, *dom, pkt));
            text.push('\n');
        }
        fs::write(p, text).map_err(|err| ScriptError::Input(format!("{}: cannot write: {err}", p.display())))?;
    }
    Ok(ScriptRun { cycles: e.cycle, reads })
}
