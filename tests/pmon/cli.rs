//! The PMON box through the `pcnt` command line: its own regression and
//! summary, its bench rows, its shards merged per device and a failing
//! shard reported by the merge.

use std::fs;

use pcounter_sim::pcnt::runner::Results;

use crate::common::{cosim_shard, merge, pcnt, scratch, text};

/// `--device pmon` runs the PMON regression with its own summary, and
/// refuses PCOUNTER-only options instead of dropping them.
#[test]
fn cosim_device_pmon_runs_its_own_regression() {
    let out = scratch("cli-pmon");
    let o = out.display().to_string();
    let (stdout, err) =
        text(&pcnt(&["cosim", "--device", "pmon", "--seeds", "2", "--cycles", "5000", "--no-progress", "--out", &o]));
    assert!(stdout.contains("cosim PMON PASSED: 2 runs, "), "{stdout}{err}");
    assert!(!stdout.contains("cosim PASSED"), "ran PCOUNTER too:\n{stdout}");
    let r = pcnt(&["cosim", "--device", "pmon", "--layout", "odd", "--seeds", "1"]);
    assert_eq!(r.status.code(), Some(2));
    assert!(text(&r).1.contains("--layout is a PCOUNTER option"), "{}", text(&r).1);
    let r = pcnt(&["cosim", "--fault", "pmon_thresh_gt", "--seeds", "1"]);
    assert!(text(&r).1.contains("is a PMON fault: run it with --device pmon"), "{}", text(&r).1);
}


/// `pcnt bench` prints the PMON box's rows beside PCOUNTER's: the four
/// modes with a positive rate each, the ratio line, and no trace file left.
#[test]
fn bench_has_its_rows() {
    let out = scratch("cli-bench-pmon");
    let o = pcnt(&["bench", "--cycles", "3000", "--out", out.to_str().unwrap(), "--only", "PMON"]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let pmon: Vec<&str> = stdout.lines().filter(|l| l.starts_with("PMON box, 4 counters")).collect();
    assert_eq!(pmon.len(), 5, "{stdout}");
    for (line, mode) in pmon.iter().zip(["model alone", "RTL alone", "lockstep (full compare)", "lockstep + tracing"]) {
        let rest = line["PMON box, 4 counters".len()..].trim_start();
        assert!(rest.starts_with(mode), "{line}");
        let rate: f64 = rest[mode.len()..].split_whitespace().next().unwrap().parse().unwrap();
        assert!(rate > 0.0, "{line}");
    }
    assert!(pmon[4].contains("lockstep / RTL alone ="), "{}", pmon[4]);
    assert!(!out.join("bench-pmon-trace.vcd").exists());
}

/// PMON shards (`cosim --device pmon --shard I/N --json F`, issue 14) write
/// results files naming their device; `pcnt merge` groups files by device,
/// checks each group as one regression and prints one summary per device, so
/// PCOUNTER's and PMON's shards of one `make cosim SHARD=I/N JSON=...` merge
/// in one call. Before, `--device pmon` refused `--shard` and `--json`.
#[test]
fn pmon_shards_merge_per_device() {
    let dir = scratch("cli-pmon-shards");
    let d = |f: &str| dir.join(f).display().to_string();
    let o = d("out");
    let pmon = |shard: &str, json: &str| {
        cosim_shard(&["--device", "pmon", "--seeds", "4", "--cycles", "3000"], shard, json, &o)
    };
    let (p0, p1) = (d("p0.json"), d("p1.json"));
    let (out, err) = pmon("0/2", &p0);
    assert!(err.contains("cosim PMON: 2 runs = seeds 1..4") && err.contains("shard 0/2 of 4 runs"), "{err}");
    assert!(out.contains("cosim PMON PASSED: 2 runs, "), "{out}");
    pmon("1/2", &p1);
    for (f, idx) in [(&p0, [0, 2]), (&p1, [1, 3])] {
        let r: Results = serde_json::from_str(&fs::read_to_string(f).unwrap()).unwrap();
        assert_eq!(r.device, "pmon");
        assert_eq!(r.plan.iter().map(|p| p.0).collect::<Vec<_>>(), [1, 2, 3, 4], "the whole plan in every shard");
        assert_eq!(r.jobs.iter().map(|j| j.index).collect::<Vec<_>>(), idx);
        assert!(r.jobs.iter().all(|j| j.failure.is_none() && j.cycles >= 3000));
        assert!(r.coverage.bins.iter().all(|(b, _)| b.starts_with("pmon.")), "{:?}", r.coverage.bins);
    }
    let pc =
        |shard: &str, json: &str| cosim_shard(&["--seeds", "2", "--cycles", "2000", "--domains", "1"], shard, json, &o);
    let (c0, c1) = (d("c0.json"), d("c1.json"));
    pc("0/2", &c0);
    pc("1/2", &c1);
    // PMON alone: its own summary.
    let (code, out, err) = merge(&[&p0, &p1]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("merge PMON: 2 files, all 4 jobs of the plan exactly once"), "{out}");
    assert!(out.contains("cosim PMON PASSED: 4 runs, ") && !out.contains("cosim PASSED"), "{out}");
    assert!(out.contains("coverage (docs/coverage-plan.md, PMON;"), "{out}");
    // Both devices in one call, in any order: a summary each.
    let (code, out, err) = merge(&[&p1, &c0, &p0, &c1]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("merge: 2 files, all 2 jobs of the plan exactly once"), "{out}");
    assert!(out.contains("cosim PASSED: 2 runs, ") && out.contains("cosim PMON PASSED: 4 runs, "), "{out}");
    // A PMON shard missing fails the merge; PCOUNTER's summary still prints.
    let (code, out, _) = merge(&[&c0, &c1, &p0]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("merge PMON: 2 of 4 jobs missing") && !out.contains("cosim PMON PASSED"), "{out}");
    assert!(out.contains("cosim PASSED: 2 runs"), "{out}");
    // A PMON shard given twice.
    let (code, out, _) = merge(&[&p0, &p1, &p1]);
    assert_eq!(code, Some(1));
    assert!(out.contains("merge PMON: jobs run more than once: [1, 3]"), "{out}");
    // Another PMON regression (other cycles) is refused, naming the file.
    let other = d("p1-other.json");
    cosim_shard(&["--device", "pmon", "--seeds", "4", "--cycles", "2500"], "1/2", &other, &o);
    let (code, _, err) = merge(&[&p0, &other]);
    assert_eq!(code, Some(2));
    assert!(err.contains("p1-other.json") && err.contains("a different regression"), "{err}");
    // A device no build knows is refused, naming the file.
    let mut r: serde_json::Value = serde_json::from_str(&fs::read_to_string(&p1).unwrap()).unwrap();
    r["device"] = "nosuch".into();
    let bad = d("bad-device.json");
    fs::write(&bad, r.to_string()).unwrap();
    let (code, _, err) = merge(&[&p0, &bad]);
    assert_eq!(code, Some(2));
    assert!(err.contains("bad-device.json") && err.contains("unknown device \"nosuch\""), "{err}");
    // A results file without a device (written before results carried it)
    // is PCOUNTER's.
    let mut r: serde_json::Value = serde_json::from_str(&fs::read_to_string(&c1).unwrap()).unwrap();
    assert_eq!(r["device"], "pcnt");
    r.as_object_mut().unwrap().remove("device");
    let old = d("c1-old.json");
    fs::write(&old, r.to_string()).unwrap();
    let (code, out, _) = merge(&[&c0, &old]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("merge: 2 files, all 2 jobs"), "{out}");
}

/// A failing PMON shard still writes its results (CI merges them), and the
/// merge names the failing job and its repro line.
#[test]
fn pmon_failing_shard_is_reported_by_merge() {
    let dir = scratch("cli-pmon-fail");
    let d = |f: &str| dir.join(f).display().to_string();
    let (o, j0, j1) = (d("out"), d("f0.json"), d("f1.json"));
    let mut codes = Vec::new();
    for (shard, json) in [("0/2", &j0), ("1/2", &j1)] {
        let r = pcnt(&[
            "cosim",
            "--device",
            "pmon",
            "--fault",
            "pmon_thresh_gt",
            "--seeds",
            "4",
            "--cycles",
            "100000",
            "--shrink-secs",
            "0",
            "--window",
            "50",
            "--no-progress",
            "--shard",
            shard,
            "--json",
            json,
            "--out",
            &o,
        ]);
        codes.push(r.status.code());
        assert!(fs::metadata(json).is_ok(), "{shard}: no results file\n{}", text(&r).1);
    }
    assert!(codes.contains(&Some(1)), "the fault was not caught in 4 seeds: {codes:?}");
    let r = pcnt(&["merge", &j0, &j1]);
    let (out, err) = text(&r);
    assert_eq!(r.status.code(), Some(1), "{out}{err}");
    assert!(out.contains("FAILED PMON job ") && out.contains("repro: make cosim DEVICE=pmon SEED="), "{out}");
    assert!(out.contains("FAULT=pmon_thresh_gt") && !out.contains("PASSED"), "{out}");
}
