//! The GF100+ PCOUNTER (issue 16) in lockstep, through the binary's library:
//! - short clean runs of both presets pass and hit every GF100 bin of
//!   docs/coverage-plan.md;
//! - every GF100 injected fault (tests/faults/*.fault with `device: gf100`)
//!   is caught by the random regression within 10 seeds, leaves a repro,
//!   report, stimulus script and waves, and the saved stimulus reproduces
//!   the mismatch on the fault build;
//! - the driver's sequence (tests/scripts/gf100_driver_perfctr.pcs) fails
//!   under a USER pulse lasting two ticks, and under a wrong expected value.



use std::fs;

use pcounter_sim::engine::coverage::{self, Coverage};
use pcounter_sim::pcnt::gf100::ffi;
use pcounter_sim::pcnt::runner::gf100::GfJob;
use pcounter_sim::pcnt::runner::{self, Artifacts, ScriptError};

use crate::common::{self, root, scratch};

fn art(name: &str) -> Artifacts {
    Artifacts { out: scratch(name), window: 300, shrink_secs: 0, wave: None }
}

#[test]
fn clean_runs_of_the_presets_pass_and_hit_every_gf100_bin() {
    let mut cov = Coverage::default();
    for (seed, preset) in [(1, "fermi"), (2, "kepler"), (3, "fermi_lax"), (4, "kepler")] {
        let job = GfJob { seed, preset: preset.into(), cycles: 60_000, fault: None };
        let (cycles, c) = job.run().unwrap_or_else(|e| panic!("{}: {e:?}", job.repro()));
        assert!(cycles >= 60_000);
        cov.merge(&c);
    }
    let plan = fs::read_to_string(root().join(runner::PLAN_NAME)).unwrap();
    let gf: Vec<&(String, u64)> = cov.bins.iter().filter(|(b, _)| b.starts_with("gf.")).collect();
    assert!(gf.len() >= 22, "{gf:?}");
    for (bin, n) in gf {
        // The per-period reach bins need longer runs: the default
        // regression's coverage gate (make test) holds them.
        if bin.starts_with("gf.periodic.period") {
            continue;
        }
        assert!(*n > 0, "GF100 bin {bin} not hit by 4 x 60k cycles");
    }
    // Every bin has its row (by name, or a `prefix.*` row).
    let c = coverage::closure(&cov, &plan, "plan", None);
    assert!(c.unplanned.is_empty(), "missing from {}: {:?}", runner::PLAN_NAME, c.unplanned);
}

/// What a GF100 failure shows beyond the guarantee every fault of every
/// device meets (tests/guarantees.rs): a GF100 repro, the GF100 top in the
/// waves, a shrunk minimal.pcs that still fails, and the clean control on
/// the plain gf_fault build.
#[test]
fn a_gf100_fault_failure_shrinks_and_shows_its_top() {
    let faults = ffi::faults();
    assert!(faults.len() >= 3, "build with --features pcounter-sim/faults: {faults:?}");
    {
        let fault = "gf_swap_wrong_set";
        let a = Artifacts { shrink_secs: 8, ..art(&format!("gf100-fault-{fault}")) };
        let caught = (1..=10).find_map(|seed| {
            let job = GfJob { seed, preset: ffi::FAULT_PRESET.into(), cycles: 100_000, fault: Some(fault.into()) };
            job.run().err().map(|e| (job, e))
        });
        let (job, e) = caught.unwrap_or_else(|| panic!("GF100 fault {fault} survived 10 seeds x 100k cycles"));
        let runner::RunError::Mismatch(m) = e else { panic!("{fault}: setup error {e:?}") };
        let dir = job.write_failure(&a, &m).unwrap();
        let repro = fs::read_to_string(dir.join("repro.txt")).unwrap();
        assert!(repro.contains("GEN=gf100") && repro.contains(&format!("FAULT={fault}")), "{repro}");
        let report = fs::read_to_string(dir.join("report.txt")).unwrap();
        common::assert_fault_expectation(fault, &m);
        assert!(report.contains(&common::headline(&m)), "{report}");
        let vcd = fs::read_to_string(dir.join("wave.vcd")).unwrap();
        assert!(vcd.contains("pcnt_gf100_top") && vcd.contains("mismatch"), "wave.vcd lacks the RTL or the marker");
        common::assert_gtkw_opens_on(&dir, m.cycle, fault);
        // The saved stimulus fails on the fault build at the same register.
        let stim = dir.join("stimulus.pcs");
        match runner::run_script(&stim, false, Some(fault), &a, true) {
            Err(ScriptError::Failed(e)) => {
                assert!(e.contains(&common::headline(&m)), "{e}")
            }
            other => panic!("{fault}: the saved stimulus did not fail: {other:?}"),
        }
        // The clean control: the same stimulus passes on the unfaulted
        // build of the fault's preset.
        runner::run_script(&stim, false, None, &a, true)
            .unwrap_or_else(|e| panic!("{fault}: the saved stimulus fails on the clean gf_fault build: {e:?}"));
        // The shrunk script is shorter and fails on the same register.
        let min = dir.join("minimal.pcs");
        let lines = |p: &std::path::Path| fs::read_to_string(p).unwrap().lines().count();
        assert!(lines(&min) < lines(&stim), "minimal.pcs is no shorter");
        let a0 = Artifacts { shrink_secs: 0, ..a.clone() };
        match runner::run_script(&min, false, Some(fault), &a0, true) {
            Err(ScriptError::Failed(e)) => assert!(e.contains(&format!(": {}\n", m.what)), "{e}"),
            other => panic!("{fault}: minimal.pcs did not fail: {other:?}"),
        }
    }
}

#[test]
fn the_driver_sequence_catches_a_two_tick_user_pulse_and_a_wrong_value() {
    let f = root().join("tests/scripts/gf100_driver_perfctr.pcs");
    let a = art("gf100-driver");
    match runner::run_script(&f, false, Some("gf_user_pulse_two_clocks"), &a, true) {
        Err(ScriptError::Failed(e)) => assert!(e.contains("RTL and model disagree"), "{e}"),
        other => panic!("gf_user_pulse_two_clocks passed the driver script: {other:?}"),
    }
    // 208 cycles in the sampled period: a script expecting 207 fails on
    // both presets' model alone, so the value is checked, not just printed.
    let text = fs::read_to_string(&f).unwrap();
    let bad = text.replacen("read 0x180070 == 208", "read 0x180070 == 207", 1);
    assert_ne!(bad, text);
    let p = a.out.join("bad.pcs");
    fs::write(&p, bad).unwrap();
    match runner::run_script(&p, true, None, &a, true) {
        Err(ScriptError::Failed(e)) => {
            assert!(e.contains("expected: 0x000000cf (script)") && e.contains("actual:   0x000000d0 (read)"), "{e}")
        }
        other => panic!("a wrong expected value passed: {other:?}"),
    }
}

/// Each GF100 fault fails the scenario script written for its rule (S25.4,
/// S25.12, S25.7), and every GF100 script passes on the clean builds.
#[test]
fn each_gf100_fault_fails_its_script() {
    let a = art("gf100-fault-scripts");
    for (fault, script) in [
        ("gf_next_write_lost_at_swap", "gf100_next_write.pcs"),
        ("gf_swap_wrong_set", "gf100_sets_independent.pcs"),
        ("gf_user_pulse_two_clocks", "gf100_user_state.pcs"),
    ] {
        let f = root().join("tests/scripts").join(script);
        runner::run_script(&f, false, None, &a, true).unwrap_or_else(|e| panic!("{script} on the clean build: {e:?}"));
        match runner::run_script(&f, false, Some(fault), &a, true) {
            Err(ScriptError::Failed(e)) => assert!(e.contains("RTL and model disagree"), "{script} / {fault}: {e}"),
            other => panic!("{fault} passed {script}: {other:?}"),
        }
    }
}
