//! Lockstep tests: RTL (Verilated) and model together. Part of `make test`.
//!
//! - every scenario script in tests/scripts/ passes in lockstep and model-only;
//! - malformed scripts in tests/scripts/bad/ give `file:line` errors, no panic;
//! - a bounded random regression over every generation, 1, 2 and 8 domains
//!   (those the generation has);
//! - every injected fault (tests/faults/*.fault) is caught, leaves a repro,
//!   a report, a script and waves, and the repro and the script reproduce it.

use std::fs;
use std::path::{Path, PathBuf};

use pcounter::pcnt::regs::Gen;
use pcounter_sim::engine::coverage::{self, Coverage};
use pcounter_sim::pcnt::ffi::Rtl;
use pcounter_sim::pcnt::runner::{self, Artifacts, Job, RunError, ScriptError};
use pcounter_sim::pcnt::script::Cmd;


use crate::common::{self, root, scratch};

fn pcs_files(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "pcs"))
        .collect();
    v.sort();
    assert!(!v.is_empty(), "no scripts in {}", dir.display());
    v
}

#[test]
fn scripts_pass_in_lockstep_and_model_only() {
    let art = Artifacts { out: scratch("scripts"), window: 200, shrink_secs: 0, wave: None };
    // tests/corpus/: minimal scripts of past failures (shrunk), kept as regressions.
    let files = [pcs_files(&root().join("tests/scripts")), pcs_files(&root().join("tests/corpus"))].concat();
    for f in files {
        for model_only in [false, true] {
            match runner::run_script(&f, model_only, None, &art, true) {
                Ok(cycles) => assert!(cycles > 0, "{} ran no cycles", f.display()),
                Err(ScriptError::Input(e) | ScriptError::Failed(e)) => {
                    panic!("{} (model_only={model_only}):\n{e}", f.display())
                }
            }
        }
    }
}

/// Acceptance: malformed scripts give a clear error with file:line, never a panic.
#[test]
fn bad_scripts_give_file_line_errors() {
    let art = Artifacts { out: scratch("bad-scripts"), window: 10, shrink_secs: 0, wave: None };
    for f in pcs_files(&root().join("tests/scripts/bad")) {
        let text = fs::read_to_string(&f).unwrap();
        let want = text.lines().next().and_then(|l| l.strip_prefix("# expect-error:")).map(str::trim);
        let want = want.unwrap_or_else(|| panic!("{}: first line must be `# expect-error: TEXT`", f.display()));
        match runner::run_script(&f, true, None, &art, true) {
            Err(ScriptError::Input(e)) => {
                let name = f.display().to_string();
                assert!(e.starts_with(&format!("{name}:")), "{e}: must start with {name}:LINE");
                let line: usize = e[name.len() + 1..].split(':').next().unwrap().parse().unwrap_or(0);
                assert!(line >= 1, "{e}: needs a line number");
                assert!(e.contains(want), "{e}: should mention '{want}'");
            }
            other => panic!("{}: expected an input error, got {other:?}", f.display()),
        }
    }
}

/// A bounded random regression: every generation, 1, 2 and 8 domains where
/// the generation has them (S24: nv10/nv15 1, nv20/nv30 2, nv40+ 8).
#[test]
fn bounded_random_regression() {
    let mut all = Coverage::default();
    let n_gens = Gen::ALL.len();
    let nv40 = Gen::ALL.iter().position(|g| g.name() == "nv40").unwrap();
    for domains in [1, 2, 8] {
        for (i, gen) in Gen::ALL.into_iter().enumerate().filter(|(_, g)| g.max_domains() >= domains) {
            // The NV40 family keeps the seeds it had when Gen::ALL held only
            // its four (nv40 1000 .. gt215 1003); the four older generations
            // come after (nv10 1004 .. nv30 1007).
            let job = Job {
                seed: 1000 + ((i + n_gens - nv40) % n_gens) as u64,
                gen,
                domains,
                cycles: 30_000,
                fault: None,
                corrupt_at: None,
                pin: Default::default(),
            };
            match runner::run_job(&job) {
                Ok((c, st)) => {
                    assert!(c >= job.cycles);
                    all.merge(&st);
                }
                Err(RunError::Setup(e)) => panic!("{e}"),
                Err(RunError::Mismatch(m)) => panic!("{m}\nrepro: {}", job.repro()),
            }
        }
    }
    // The stimulus must reach what the lockstep compare is meant to check
    // (bins of docs/coverage-plan.md; a trailing '*' sums a prefix).
    let n = |bin: &str| -> u64 {
        match bin.strip_suffix('*') {
            Some(p) => all.bins.iter().filter(|(b, _)| b.starts_with(p)).map(|(_, n)| n).sum(),
            None => all.get(bin),
        }
    };
    let reached = [
        ("a STOP", n("single.COUNTING->WAIT_START") + n("single.COUNTING->INACTIVE")),
        ("an abort", n("single.abort.*")),
        ("a saturated counter", n("saturate.ctr_*")),
        ("a saturated quad counter", n("saturate.sh_*")),
        ("a quad OVERFLOW", n("quad.VALID->OVERFLOW")),
        ("a quad swap by PRE_OP", n("quad.swap.pre_op")),
        ("a quad ack", n("quad.ack")),
        ("a PULSE import between clocks", n("import.event.pulse") + n("import.flag.pulse")),
        ("a CONTINUOUS import between clocks", n("import.event.continuous") + n("import.flag.continuous")),
        ("a PERIODIC pulse", n("periodic.*")),
        ("a record packet (S21)", n("record.send")),
    ];
    for (what, k) in reached {
        assert!(k > 0, "the bounded regression never reached {what}:\n{:?}", all.bins);
    }
}

/// The random stimulus is a pure function of its seed: same seed, same stream.
#[test]
fn stimulus_is_deterministic() {
    let job =
        Job { seed: 42, gen: Gen::G92, domains: 2, cycles: 0, fault: None, corrupt_at: None, pin: Default::default() };
    let a: Vec<Cmd> = job.stimulus().take(5000).collect();
    let b: Vec<Cmd> = job.stimulus().take(5000).collect();
    assert_eq!(a, b);
    let other: Vec<Cmd> = Job { seed: 43, ..job }.stimulus().take(5000).collect();
    assert_ne!(a, other);
}

/// What a PCOUNTER failure shows beyond the guarantee every fault of every
/// device meets (tests/guarantees.rs): the VCD's lockstep and pcnt_top
/// scopes, the .gtkw's APB port and failing domain's flops, the repro
/// rerunning the same job to the same cycle, and a shrunk minimal.pcs of at
/// most 20 lines that fails on the fault build and passes on the clean one.
#[test]
fn a_pcounter_fault_failure_shrinks_and_shows_its_domain() {
    let faults = Rtl::faults();
    assert!(!faults.is_empty(), "build with --features pcounter-sim/faults (make test does)");
    {
        let fault = "threshold_cmp";
        let out = scratch(&format!("fault-{fault}"));
        let shrink_secs = 60;
        let art = Artifacts { out: out.clone(), window: 500, shrink_secs, wave: None };
        // Find the first failing seed (the fault must be caught within a few),
        // rotating over the fault's generations (`gens:`, S24).
        let gens = Rtl::fault_gens(fault).expect("a linked fault");
        let mut caught = None;
        for seed in 1..=10 {
            let job = Job {
                seed,
                gen: gens[seed as usize % gens.len()],
                domains: 2,
                cycles: 200_000,
                fault: Some(fault.into()),
                corrupt_at: None,
                pin: Default::default(),
            };
            match runner::run_job(&job) {
                Ok(_) => continue,
                Err(RunError::Setup(e)) => panic!("{e}"),
                Err(RunError::Mismatch(m)) => {
                    caught = Some((job, m));
                    break;
                }
            }
        }
        let (job, m) = caught.unwrap_or_else(|| panic!("fault {fault} survived 10 seeds x 100k cycles"));
        let j = job.clone();
        let replay = move || -> Box<dyn Iterator<Item = Cmd>> { Box::new(j.stimulus()) };
        let dir = runner::write_failure(&art, "fail", &job.repro(), &m, &job.setup(), &replay).unwrap();

        let repro = fs::read_to_string(dir.join("repro.txt")).unwrap();
        assert!(repro.contains(&format!("SEED={}", job.seed)) && repro.contains(&format!("FAULT={fault}")), "{repro}");
        let report = fs::read_to_string(dir.join("report.txt")).unwrap();
        common::assert_fault_expectation(fault, &m);
        assert!(report.contains(&common::headline(&m)) && report.contains("repro:"), "{report}");
        assert!(m.assertion.is_some() || report.contains("expected"), "{report}");

        let vcd = fs::read_to_string(dir.join("wave.vcd")).unwrap();
        assert!(
            vcd.contains("$scope module lockstep $end") && vcd.contains(" mismatch $end"),
            "VCD lacks the lockstep scope"
        );
        // pcnt_top under the harness wrapper (sim/rtl/pcnt_lockstep_top.sv).
        assert!(vcd.contains("$scope module pcnt_lockstep_top $end"), "VCD lacks the RTL trace");
        assert!(vcd.contains("$scope module u_dut $end"), "VCD lacks pcnt_top");
        // GTKWave opens it on the mismatch, marker set, with the RTL's APB
        // port and the failing domain's flops among its signals.
        common::assert_gtkw_opens_on(&dir, m.cycle, fault);
        let gtkw = fs::read_to_string(dir.join("wave.gtkw")).unwrap();
        assert!(gtkw.contains("TOP.pcnt_lockstep_top.u_dut.psel_i"), "{fault}: no APB port in the .gtkw");
        assert!(gtkw.contains(".u_domain.u_core."), "{fault}: no domain flops in the .gtkw");

        // The repro reruns the same job: same cycle, same register.
        match runner::run_job(&job) {
            Err(RunError::Mismatch(again)) => {
                assert_eq!((again.cycle, &again.what), (m.cycle, &m.what), "repro of {fault} differs")
            }
            other => panic!("repro of {fault} did not fail: {other:?}"),
        }
        // The saved script alone reproduces it on the faulty RTL, and passes on the good one.
        let script = dir.join("stimulus.pcs");
        let art2 = Artifacts { out: out.join("replay"), window: 50, shrink_secs: 0, wave: None };
        match runner::run_script(&script, false, Some(fault), &art2, true) {
            Err(ScriptError::Failed(e)) => assert!(e.contains(m.kind()), "{e}"),
            other => panic!("stimulus.pcs of {fault} did not reproduce: {other:?}"),
        }
        if let Err(ScriptError::Input(e) | ScriptError::Failed(e)) =
            runner::run_script(&script, false, None, &art2, true)
        {
            panic!("stimulus.pcs of {fault} fails on the good RTL: {e}");
        }
        let minimal = dir.join("minimal.pcs");
        let text = fs::read_to_string(&minimal).unwrap();
        let body = text.lines().filter(|l| !l.trim().is_empty() && !l.starts_with('#')).count();
        assert!(body <= 20, "minimal.pcs of {fault} has {body} lines:\n{text}");
        match runner::run_script(&minimal, false, Some(fault), &art2, true) {
            Err(ScriptError::Failed(e)) => assert!(e.contains(&m.what), "{e}"),
            other => panic!("minimal.pcs of {fault} does not reproduce: {other:?}"),
        }
        if let Err(ScriptError::Input(e) | ScriptError::Failed(e)) =
            runner::run_script(&minimal, false, None, &art2, true)
        {
            panic!("minimal.pcs of {fault} fails on the good RTL: {e}");
        }
    }
}

/// Shards `i/n` of a regression partition its job list: together they cover
/// exactly the jobs of the unsharded run, and `merge` checks that.
#[test]
fn shards_cover_the_unsharded_plan_exactly() {
    let dir = scratch("shards");
    let base = runner::CosimOpts {
        seed: 5,
        seeds: 7,
        cycles: 2_000,
        domains: vec![1, 2],
        gens: Gen::ALL.to_vec(),
        gf100: true,
        gf_layout: None,
        fault: None,
        art: Artifacts { out: dir.clone(), window: 10, shrink_secs: 0, wave: None },
        progress: false,
        jobs: 2,
        shard: (0, 1),
        json: None,
        junit: None,
        coverage_plan: pcounter_sim::engine::regress::PLAN.into(),
        coverage_gate: false,
        coverage_table: true,
        corrupt_at: None,
        pin: Default::default(),
    };
    // The GF100 runs come after the others (seeds 5 and 10: seed % 5 == 0).
    let mut whole: Vec<(u64, usize)> = runner::plan(&base).iter().map(|j| (j.seed, j.domains)).collect();
    let gf: Vec<(u64, usize)> = runner::gf_plan(&base).iter().map(|j| (j.seed, j.domains())).collect();
    assert_eq!(gf.iter().map(|j| j.0).collect::<Vec<_>>(), [5, 10]);
    whole.extend(gf);
    let mut files = Vec::new();
    let mut covered = Vec::new();
    for i in 0..3 {
        let json = dir.join(format!("shard{i}.json"));
        let o = runner::CosimOpts { shard: (i, 3), json: Some(json.clone()), ..base.clone() };
        assert_eq!(runner::cosim(&o).unwrap(), 0);
        let r: runner::Results = serde_json::from_str(&fs::read_to_string(&json).unwrap()).unwrap();
        covered.extend(r.jobs.iter().map(|j| (j.seed, j.domains)));
        files.push(json);
    }
    covered.sort();
    let mut expected = whole.clone();
    expected.sort();
    assert_eq!(covered, expected, "shards must partition the plan");
    assert_eq!(pcounter_sim::merge::merge(&files).unwrap(), 0);
    assert_eq!(pcounter_sim::merge::merge(&files[..2]).unwrap(), 1, "a missing shard must fail the merge");
    // A job index outside the plan is an error naming the file (it panicked
    // before), and an empty plan never passes (it printed PASSED with 0 runs).
    let mut r: serde_json::Value = serde_json::from_str(&fs::read_to_string(&files[0]).unwrap()).unwrap();
    r["jobs"][0]["index"] = serde_json::Value::from(10_000);
    let bad = dir.join("bad_index.json");
    fs::write(&bad, r.to_string()).unwrap();
    let e = pcounter_sim::merge::merge(std::slice::from_ref(&bad)).unwrap_err();
    assert!(matches!(&e, runner::RegressError::Results { path, .. } if path == &bad), "{e}");
    let e = e.to_string();
    assert!(e.contains("bad_index.json") && e.contains("outside the plan"), "{e}");
    r["plan"] = serde_json::Value::Array(Vec::new());
    r["jobs"] = serde_json::Value::Array(Vec::new());
    fs::write(&bad, r.to_string()).unwrap();
    let e = pcounter_sim::merge::merge(&[bad]).unwrap_err().to_string();
    assert!(e.contains("no jobs"), "{e}");
    assert!(matches!(pcounter_sim::merge::merge(&[]), Err(runner::RegressError::NoFiles)));
    // coverage.json goes into an out/ that does not exist yet (fresh clone).
    let fresh = dir.join("fresh/out");
    let o = runner::CosimOpts {
        seeds: 1,
        domains: vec![1],
        art: Artifacts { out: fresh.clone(), window: 10, shrink_secs: 0, wave: None },
        ..base.clone()
    };
    assert_eq!(runner::cosim(&o).unwrap(), 0);
    assert!(fresh.join("coverage.json").exists(), "coverage.json in a new out/ directory");
}

/// The coverage gate fails on an unhit bin and on a bin the plan does not
/// list, and honours a waiver with a reason.
#[test]
fn coverage_gate_can_fail() {
    let plan = fs::read_to_string(root().join("docs/coverage-plan.md")).unwrap();
    let empty = pcounter_sim::pcnt::lockstep::Stats::default().coverage();
    let c = coverage::closure(&empty, &plan, "plan", None);
    assert!(c.unplanned.is_empty(), "every counted bin must be in the plan: {:?}", c.unplanned);
    assert!(c.unhit.contains(&"quad.ack".to_string()), "nothing ran, so quad.ack is unhit");
    assert!(!coverage::closure(&empty, "", "plan", None).unplanned.is_empty(), "an empty plan lists no bin");
    let waived =
        plan.replace("| quad.ack | QUAD_ACK_TRIGGER bit 0 | |", "| quad.ack | QUAD_ACK_TRIGGER bit 0 | test waiver |");
    let c = coverage::closure(&empty, &waived, "plan", None);
    assert!(!c.unhit.contains(&"quad.ack".to_string()), "a waiver removes the bin from the gate");
}

/// Issue "Verification strength", acceptance 5: a failure after >= 10 M
/// cycles still gives a small VCD (only the failure window is traced, S11),
/// written with the repro line and no multi-million-line script.
#[test]
fn late_failure_gives_small_vcd() {
    let out = scratch("late-failure");
    let at = 10_000_000;
    let job = Job {
        seed: 3,
        gen: Gen::G92,
        domains: 1,
        cycles: at + 1000,
        fault: None,
        corrupt_at: Some(at),
        pin: Default::default(),
    };
    let m = match runner::run_job(&job) {
        Err(RunError::Mismatch(m)) => m,
        Ok(_) => panic!("the corrupted RTL flop was not caught"),
        Err(RunError::Setup(e)) => panic!("{e}"),
    };
    assert_eq!(m.cycle, at, "caught in the cycle of the corruption");
    assert_eq!(m.what, "CTR_CYCLES[0]");
    let art = Artifacts { out: out.clone(), window: 2000, shrink_secs: 0, wave: None };
    let j = job.clone();
    let replay = move || -> Box<dyn Iterator<Item = Cmd>> { Box::new(j.stimulus()) };
    let dir = runner::write_failure(&art, "fail", &job.repro(), &m, &job.setup(), &replay).unwrap();
    let size = fs::metadata(dir.join("wave.vcd")).unwrap().len();
    eprintln!("wave.vcd of a failure at cycle {at}: {size} bytes");
    assert!(size < 20 << 20, "VCD of {size} bytes");
    assert!(fs::read_to_string(dir.join("repro.txt")).unwrap().contains("CORRUPT=10000000"));
    assert!(!dir.join("stimulus.pcs").exists());
}

/// `--seeds 10000000000` aborted on allocation (issue 13): now a clear
/// error, exit 2, before anything runs.
#[test]
fn cosim_refuses_absurd_seed_counts() {
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_pcnt"))
        .args(["cosim", "--seeds", "10000000000", "--no-progress"])
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(2));
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(err.contains("'10000000000' for '--seeds <N>'") && err.contains("at most 1000000 seeds"), "{err}");
}
