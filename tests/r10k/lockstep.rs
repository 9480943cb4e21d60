//! The R10000/R12000 event counters (issue 17) in lockstep, through the
//! binary's library:
//! - short clean regressions of both variants pass, with every R10K bin of
//!   docs/coverage-plan.md hit and none unplanned;
//! - every R10K injected fault (tests/r10k/faults/*.fault)
//!   is caught by the random regression within a few seeds, leaves a
//!   repro, report, stimulus script and waves, and the saved stimulus
//!   reproduces the mismatch on the fault build and passes on the clean one
//!   (one fault's stimulus is shrunk, and the shrunk script still fails);
//! - the R10K scenario scripts pass in lockstep and model-only, each
//!   required fault fails at least one of them, and a wrong expected value
//!   fails.



use std::fs;

use pcounter::r10k::Variant;
use pcounter_sim::engine::artifacts::Artifacts;
use pcounter_sim::engine::coverage;
use pcounter_sim::engine::regress::{Job as _, Run as _, PLAN_NAME};
use pcounter_sim::r10k::ffi;
use pcounter_sim::r10k::runner::Job;

use crate::common::{self, root, scratch};

/// Failure artifacts under `out`, shrinking for `shrink_secs`.
fn art(out: std::path::PathBuf, shrink_secs: u64) -> Artifacts {
    Artifacts { out, window: 300, shrink_secs, wave: None }
}

fn scripts() -> Vec<std::path::PathBuf> {
    let dir = root().join("tests/scripts/r10k");
    let mut files: Vec<_> = fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "r10k"));
    files.sort();
    files
}

#[test]
fn clean_runs_of_both_variants_pass_and_close_the_r10k_plan() {
    let mut cov = coverage::Coverage::default();
    for seed in 1..=4 {
        let job = Job { seed, cycles: 200_000, fault: None };
        assert_eq!(job.variant(), if seed % 2 == 1 { Variant::R10000 } else { Variant::R12000 });
        let (cycles, c) = job.run().unwrap().unwrap_or_else(|m| panic!("{}\n{m}", job.repro()));
        assert!(cycles >= 200_000);
        cov.merge(&c);
    }
    let plan = fs::read_to_string(root().join(PLAN_NAME)).unwrap();
    let c = coverage::closure(&cov, &plan, "plan", None);
    // 96 event bins, 16 mode-bit combinations, 4 + 4 match/ERL bins and the rest.
    assert!(c.counted >= 140, "{c:?}");
    assert!(c.passed(), "unhit {:?}, unplanned {:?}", c.unhit, c.unplanned);
    // One variant alone leaves the other's events unhit: the bins are real.
    let one = Job { seed: 1, cycles: 200_000, fault: None }.run().unwrap().unwrap().1;
    let c1 = coverage::closure(&one, &plan, "plan", None);
    assert!(c1.unhit.iter().all(|b| b.starts_with("r10k.event.r12000.")) && c1.unhit.len() == 64, "{:?}", c1.unhit);
}

#[test]
fn an_r10k_fault_failure_shrinks_and_shows_the_unit() {
    let faults = ffi::faults();
    for required in ["r10k_exl_ignored", "r10k_irq_without_ie", "r10k_stop_at_overflow", "r10k_r12000_list_on_r10000"] {
        assert!(faults.contains(&required), "build with --features pcounter-sim/faults: {faults:?}");
    }
    // Every fault is caught with artifacts and a clean control in
    // tests/guarantees.rs; this one also shrinks, and the unit is in the waves.
    {
        let fault = "r10k_stop_at_overflow";
        let out = scratch(&format!("r10k-fault-{fault}"));
        let caught = (1..=5).find_map(|seed| {
            let job = Job { seed, cycles: 100_000, fault: Some(fault.into()) };
            match job.run().unwrap() {
                Ok(_) => None,
                Err(m) => Some((job, m)),
            }
        });
        let (job, m) = caught.unwrap_or_else(|| panic!("R10K fault {fault} survived 5 seeds x 100k cycles"));
        assert_eq!(job.variant(), Variant::R10000, "fault builds are R10000s");
        let dir = job.write_failure(&art(out, 30), &m).unwrap();
        let min = dir.join("minimal.r10k");
        let full = fs::read_to_string(dir.join("stimulus.r10k")).unwrap().lines().count();
        assert!(fs::read_to_string(&min).unwrap().lines().count() < full, "minimal.r10k is no shorter");
        let e = common::run_script(&min, false, Some(fault)).unwrap_err();
        assert!(e.contains(&format!(": {}\n", m.what)), "minimal.r10k fails elsewhere: {e}");
        let repro = fs::read_to_string(dir.join("repro.txt")).unwrap();
        assert!(repro.contains("DEVICE=r10k") && repro.contains(&format!("FAULT={fault}")), "{repro}");
        let report = fs::read_to_string(dir.join("report.txt")).unwrap();
        common::assert_fault_expectation(fault, &m);
        assert!(report.contains(&common::headline(&m)), "{report}");
        let vcd = fs::read_to_string(dir.join("wave.vcd")).unwrap();
        assert!(vcd.contains("r10k_perf") && vcd.contains("mismatch"), "wave.vcd lacks the RTL or the marker");
        common::assert_gtkw_opens_on(&dir, m.cycle, fault);
        // The saved stimulus fails on the fault build at the same signal and
        // passes on the clean build.
        let stim = dir.join("stimulus.r10k");
        let text = fs::read_to_string(&stim).unwrap();
        assert_eq!(text.lines().find(|l| !l.starts_with('#')), Some("device r10k r10000"), "{text}");
        let e = common::run_script(&stim, false, Some(fault)).unwrap_err();
        assert!(e.contains(&common::headline(&m)), "{e}");
        common::run_script(&stim, false, None).unwrap_or_else(|e| panic!("clean build fails {fault}'s stimulus: {e}"));
    }
}

#[test]
fn r10k_scripts_pass_in_lockstep_and_model_only() {
    let files = scripts();
    assert!(files.len() >= 3, "{files:?}");
    for f in &files {
        assert_eq!(common::script_device(f), "r10k", "{}", f.display());
        for model_only in [false, true] {
            let cycles = common::run_script(f, model_only, None).unwrap_or_else(|e| panic!("{e}"));
            assert!(cycles > 30, "{}: {cycles} cycles", f.display());
        }
    }
    // An expectation that does not hold fails (model-only and lockstep).
    let dir = root().join("tests/scripts/r10k");
    let text = fs::read_to_string(dir.join("profiler_sampling.r10k")).unwrap();
    let bad = text.replace("wait 1                    # the third event: 2^31\nirq == 1", "wait 1\nirq == 0");
    assert_ne!(bad, text);
    let p = scratch("r10k-bad-script").join("bad.r10k");
    fs::write(&p, bad).unwrap();
    for model_only in [false, true] {
        let e = common::run_script(&p, model_only, None).unwrap_err();
        assert!(e.contains("script expectation of `irq == 0`"), "{e}");
    }
}

/// Each R10K fault breaks an exact-value script of its build's variant
/// (the R10000, or the R12000 with `config: r12000`), so the scripts would
/// catch them without the random compare.
#[test]
fn r10k_scripts_catch_the_faults() {
    let dir = root().join("tests/scripts/r10k");
    let cases = [
        ("r10k_irq_without_ie", "profiler_sampling.r10k"),
        ("r10k_stop_at_overflow", "profiler_sampling.r10k"),
        ("r10k_exl_ignored", "man_page_example.r10k"),
        ("r10k_r12000_list_on_r10000", "man_page_example.r10k"),
        ("r10k_erl_ignored", "man_page_example.r10k"),
        ("r10k_ctl_write_same_cycle", "man_page_example.r10k"),
        ("r10k_assert_never_programmed", "man_page_example.r10k"),
        ("r12000_cycles_on_src16", "r12000_lists.r10k"),
    ];
    for f in ffi::faults() {
        assert!(cases.iter().any(|c| c.0 == f), "fault {f} has no script case here");
    }
    for (fault, script) in cases {
        let e = common::run_script(&dir.join(script), false, Some(fault)).unwrap_err();
        assert!(e.contains("MISMATCH at cycle") || e.contains("ASSERTION FAILED at cycle"), "{fault} on {script}: {e}");
        common::run_script(&dir.join(script), true, Some(fault)).expect("the model alone passes");
    }
    // A script of the other variant refuses a fault build.
    let e = common::run_script(&dir.join("r12000_lists.r10k"), false, Some("r10k_exl_ignored")).unwrap_err();
    assert!(e.contains("built as an r10000"), "{e}");
    let e = common::run_script(&dir.join("man_page_example.r10k"), false, Some("r12000_cycles_on_src16")).unwrap_err();
    assert!(e.contains("built as an r12000"), "{e}");
}
