//! The PMON box (issue 14) in lockstep, through the binary's library:
//! - a short clean regression passes, with every PMON bin of
//!   docs/coverage-plan.md hit and none unplanned;
//! - every PMON injected fault (tests/pmon/faults/*.fault) is
//!   caught by the random regression within a few seeds, leaves a repro,
//!   report, stimulus script and waves, and the saved stimulus reproduces
//!   the mismatch on the fault build and passes on the clean one (one
//!   fault's stimulus is shrunk, and the shrunk script still fails);
//! - the PMON scenario scripts pass in lockstep and model-only, and a
//!   wrong expected value in one of them fails.



use std::fs;

use pcounter_sim::engine::artifacts::Artifacts;
use pcounter_sim::engine::coverage;
use pcounter_sim::engine::regress::{Job as _, Run as _, PLAN_NAME};
use pcounter_sim::pmon::ffi;
use pcounter_sim::pmon::runner::Job;

use crate::common::{self, root, scratch};

/// Failure artifacts under `out`, shrinking for `shrink_secs`.
fn art(out: std::path::PathBuf, shrink_secs: u64) -> Artifacts {
    Artifacts { out, window: 300, shrink_secs, wave: None }
}

#[test]
fn clean_runs_pass_and_close_the_pmon_plan() {
    let mut cov = coverage::Coverage::default();
    for seed in 1..=4 {
        let job = Job { seed, cycles: 100_000, fault: None };
        let (cycles, c) = job.run().unwrap().unwrap_or_else(|m| panic!("{}\n{m}", job.repro()));
        assert!(cycles >= 100_000);
        cov.merge(&c);
    }
    let plan = fs::read_to_string(root().join(PLAN_NAME)).unwrap();
    let c = coverage::closure(&cov, &plan, "plan", None);
    assert!(c.counted >= 40, "{c:?}");
    assert!(c.passed(), "unhit {:?}, unplanned {:?}", c.unhit, c.unplanned);
}

#[test]
fn a_pmon_fault_failure_shrinks_and_shows_the_box() {
    let faults = ffi::faults();
    assert!(faults.len() >= 4, "build with --features pcounter-sim/faults: {faults:?}");
    // Every fault is caught with artifacts and a clean control in
    // tests/guarantees.rs; this one also shrinks, and the box is in the waves.
    {
        let fault = "pmon_ovf_late";
        let out = scratch(&format!("pmon-fault-{fault}"));
        let caught = (1..=5).find_map(|seed| {
            let job = Job { seed, cycles: 100_000, fault: Some(fault.into()) };
            match job.run().unwrap() {
                Ok(_) => None,
                Err(m) => Some((job, m)),
            }
        });
        let (job, m) = caught.unwrap_or_else(|| panic!("PMON fault {fault} survived 5 seeds x 100k cycles"));
        let dir = job.write_failure(&art(out, 30), &m).unwrap();
        let min = dir.join("minimal.pms");
        let full = fs::read_to_string(dir.join("stimulus.pms")).unwrap().lines().count();
        assert!(fs::read_to_string(&min).unwrap().lines().count() < full, "minimal.pms is no shorter");
        let e = common::run_script(&min, false, Some(fault)).unwrap_err();
        assert!(e.contains(&format!(": {}\n", m.what)), "minimal.pms fails elsewhere: {e}");
        let repro = fs::read_to_string(dir.join("repro.txt")).unwrap();
        assert!(repro.contains("DEVICE=pmon") && repro.contains(&format!("FAULT={fault}")), "{repro}");
        let report = fs::read_to_string(dir.join("report.txt")).unwrap();
        common::assert_fault_expectation(fault, &m);
        assert!(report.contains(&common::headline(&m)), "{report}");
        let vcd = fs::read_to_string(dir.join("wave.vcd")).unwrap();
        assert!(vcd.contains("pmon_box") && vcd.contains("mismatch"), "wave.vcd lacks the RTL or the marker");
        common::assert_gtkw_opens_on(&dir, m.cycle, fault);
        // The saved stimulus fails on the fault build at the same signal and
        // passes on the clean build.
        let stim = dir.join("stimulus.pms");
        let e = common::run_script(&stim, false, Some(fault)).unwrap_err();
        assert!(e.contains(&common::headline(&m)), "{e}");
        common::run_script(&stim, false, None).unwrap_or_else(|e| panic!("clean build fails {fault}'s stimulus: {e}"));
    }
}

#[test]
fn pmon_scripts_pass_in_lockstep_and_model_only() {
    let dir = root().join("tests/scripts/pmon");
    let mut files: Vec<_> = fs::read_dir(&dir).unwrap().flatten().map(|e| e.path()).collect();
    files.retain(|p| p.extension().is_some_and(|x| x == "pms"));
    files.sort();
    assert!(files.len() >= 3, "{files:?}");
    for f in &files {
        assert_eq!(common::script_device(f), "pmon", "{}", f.display());
        for model_only in [false, true] {
            let cycles = common::run_script(f, model_only, None).unwrap_or_else(|e| panic!("{e}"));
            assert!(cycles > 20, "{}: {cycles} cycles", f.display());
        }
    }
    // An expectation that does not hold fails (model-only and lockstep).
    let text = fs::read_to_string(dir.join("profiler_sampling.pms")).unwrap();
    let bad = text.replace("read 0x08 == 1            # BOX_STATUS", "read 0x08 == 0            # BOX_STATUS");
    assert_ne!(bad, text);
    let p = scratch("pmon-bad-script").join("bad.pms");
    fs::write(&p, bad).unwrap();
    for model_only in [false, true] {
        let e = common::run_script(&p, model_only, None).unwrap_err();
        // The report names the bus address: BOX_STATUS, 0x08 from PMON_UCADR (P2).
        assert!(e.contains("script expectation of `read 0x120 == 0x0`"), "{e}");
    }
}
