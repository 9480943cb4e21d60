//! The R10000/R12000 counters through the `pcnt` command line: their own
//! regression and summary, their bench rows, their shards merged per device
//! with PCOUNTER's beside them, and a fault run's failing shard.

use std::fs;

use pcounter_sim::pcnt::runner::Results;

use crate::common::{cosim_shard, merge, pcnt, scratch, text};

/// `pcnt cosim` of one seed on the R10K fault `r10k_irq_without_ie`, which
/// it catches, artifacts under `out`, then `extra`.
fn r10k_fault_run<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let base = ["cosim", "--device", "r10k", "--fault", "r10k_irq_without_ie", "--seeds", "1", "--cycles", "20000"];
    [&base[..], &["--no-progress", "--shrink-secs", "0", "--out", out], extra].concat()
}

/// `--device r10k` runs the R10000/R12000 regression (odd seeds R10000,
/// even R12000) with its own summary; PCOUNTER-only options and other
/// devices' faults are refused, and an R10K fault needs --device r10k.
#[test]
fn cosim_device_r10k_runs_its_own_regression() {
    let out = scratch("cli-r10k");
    let o = out.display().to_string();
    let (stdout, err) =
        text(&pcnt(&["cosim", "--device", "r10k", "--seeds", "2", "--cycles", "5000", "--no-progress", "--out", &o]));
    assert!(stdout.contains("cosim R10K PASSED: 2 runs, "), "{stdout}{err}");
    assert!(err.contains("(odd R10000, even R12000)"), "{err}");
    assert!(!stdout.contains("cosim PASSED"), "ran PCOUNTER too:\n{stdout}");
    assert!(out.join("coverage-r10k.json").exists());
    let r = pcnt(&["cosim", "--device", "r10k", "--layout", "odd", "--seeds", "1"]);
    assert_eq!(r.status.code(), Some(2));
    assert!(text(&r).1.contains("--layout is a PCOUNTER option: not with --device r10k"), "{}", text(&r).1);
    let r = pcnt(&["cosim", "--fault", "r10k_irq_without_ie", "--seeds", "1"]);
    assert!(text(&r).1.contains("is a R10K fault: run it with --device r10k"), "{}", text(&r).1);
    // A fault run fails with exit 1 and names the variant.
    let r = pcnt(&r10k_fault_run(&o, &[]));
    let (_, err) = text(&r);
    assert_eq!(r.status.code(), Some(1), "{err}");
    assert!(err.contains("cosim R10K FAILED: seed 1 (r10000)") && err.contains("DEVICE=r10k"), "{err}");
    let (stdout, _) = text(&pcnt(&["faults"]));
    assert!(stdout.lines().any(|l| l == "r10k_r12000_list_on_r10000"), "{stdout}");
}


/// `pcnt bench` prints the R12000 event counters' rows beside PCOUNTER's:
/// the four modes with a positive rate each, the ratio line, and no trace
/// file left.
#[test]
fn bench_has_its_rows() {
    let out = scratch("cli-bench-r10k");
    let o = pcnt(&["bench", "--cycles", "3000", "--out", out.to_str().unwrap(), "--only", "R12000"]);
    let (stdout, stderr) = text(&o);
    assert!(o.status.success(), "{stdout}\n{stderr}");
    let r10k: Vec<&str> = stdout.lines().filter(|l| l.starts_with("R12000 event counters")).collect();
    assert_eq!(r10k.len(), 5, "{stdout}");
    for (line, mode) in r10k.iter().zip(["model alone", "RTL alone", "lockstep (full compare)", "lockstep + tracing"]) {
        let rest = line["R12000 event counters".len()..].trim_start();
        assert!(rest.starts_with(mode), "{line}");
        let rate: f64 = rest[mode.len()..].split_whitespace().next().unwrap().parse().unwrap();
        assert!(rate > 0.0, "{line}");
    }
    assert!(r10k[4].contains("lockstep / RTL alone ="), "{}", r10k[4]);
    assert!(!out.join("bench-r10k-trace.vcd").exists());
}

/// R10K shards: `--shard I/N --json F` runs every N-th seed and
/// writes results of device `r10k` whose plan names each seed's variant
/// (odd R10000, even R12000); `pcnt merge` gives R10K its own summary beside
/// PCOUNTER's, refuses a missing or doubled shard, and names a failing job of a
/// fault run with its repro line.
#[test]
fn r10k_shards_merge_per_device() {
    let dir = scratch("cli-r10k-shards");
    let d = |f: &str| dir.join(f).display().to_string();
    let o = d("out");
    let r10k = |shard: &str, json: &str| {
        cosim_shard(&["--device", "r10k", "--seeds", "4", "--cycles", "3000"], shard, json, &o)
    };
    let (r0, r1) = (d("r0.json"), d("r1.json"));
    let (out, err) = r10k("0/2", &r0);
    assert!(err.contains("cosim R10K: 2 runs = seeds 1..4") && err.contains("shard 0/2 of 4 runs"), "{err}");
    assert!(out.contains("cosim R10K PASSED: 2 runs, "), "{out}");
    r10k("1/2", &r1);
    for (f, idx) in [(&r0, [0, 2]), (&r1, [1, 3])] {
        let r: Results = serde_json::from_str(&fs::read_to_string(f).unwrap()).unwrap();
        assert_eq!(r.device, "r10k");
        let plan: Vec<(u64, &str)> = r.plan.iter().map(|p| (p.0, p.1.as_str())).collect();
        assert_eq!(plan, [(1, "r10000"), (2, "r12000"), (3, "r10000"), (4, "r12000")], "the whole plan in every shard");
        assert_eq!(r.jobs.iter().map(|j| j.index).collect::<Vec<_>>(), idx);
        assert!(r.jobs.iter().all(|j| j.failure.is_none() && j.cycles >= 3000));
        assert!(r.jobs.iter().all(|j| j.gen == r.plan[j.index].1), "a job's gen is its variant");
        assert!(r.coverage.bins.iter().all(|(b, _)| b.starts_with("r10k.")), "{:?}", r.coverage.bins);
    }
    let (p0, p1) = (d("p0.json"), d("p1.json"));
    for (shard, json) in [("0/2", &p0), ("1/2", &p1)] {
        cosim_shard(&["--seeds", "2", "--cycles", "2000", "--domains", "1"], shard, json, &o);
    }
    let (code, out, err) = merge(&[&r0, &r1]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("merge R10K: 2 files, all 4 jobs of the plan exactly once"), "{out}");
    assert!(out.contains("cosim R10K PASSED: 4 runs, ") && !out.contains("cosim PASSED"), "{out}");
    assert!(out.contains("coverage (docs/coverage-plan.md, R10K;"), "{out}");
    // Two devices in one call, in any order: a summary each.
    let (code, out, err) = merge(&[&r1, &p0, &r0, &p1]);
    assert_eq!(code, Some(0), "{out}{err}");
    assert!(out.contains("cosim R10K PASSED: 4 runs, ") && out.contains("cosim PASSED: 2 runs, "), "{out}");
    // An R10K shard missing, or given twice, fails the merge.
    let (code, out, _) = merge(&[&p0, &p1, &r0]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("merge R10K: 2 of 4 jobs missing") && !out.contains("cosim R10K PASSED"), "{out}");
    assert!(out.contains("cosim PASSED: 2 runs"), "{out}");
    let (code, out, _) = merge(&[&r0, &r1, &r1]);
    assert_eq!(code, Some(1));
    assert!(out.contains("merge R10K: jobs run more than once: [1, 3]"), "{out}");
    // A fault run (every seed an R10000): a failing shard still writes its
    // results, and the merge names the failing job and its repro line.
    let (f0, f1) = (d("f0.json"), d("f1.json"));
    let mut codes = Vec::new();
    for (shard, json) in [("0/2", &f0), ("1/2", &f1)] {
        let r = pcnt(&[
            "cosim",
            "--device",
            "r10k",
            "--fault",
            "r10k_irq_without_ie",
            "--seeds",
            "2",
            "--cycles",
            "20000",
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
    assert!(codes.contains(&Some(1)), "the fault was not caught in 2 seeds: {codes:?}");
    let r: Results = serde_json::from_str(&fs::read_to_string(&f1).unwrap()).unwrap();
    assert!(r.plan.iter().all(|p| p.1 == "r10000"), "a fault build is an R10000: {:?}", r.plan);
    let (code, out, err) = merge(&[&f0, &f1]);
    assert_eq!(code, Some(1), "{out}{err}");
    assert!(out.contains("FAILED R10K job ") && out.contains("(seed 1 r10000)"), "{out}");
    assert!(out.contains("repro: make cosim DEVICE=r10k SEED=") && out.contains("FAULT=r10k_irq_without_ie"), "{out}");
    assert!(!out.contains("PASSED"), "{out}");
}

/// `--junit FILE` on `pcnt cosim`: a test case per run, failures with the
/// mismatch and the repro, for CI that calls pcnt directly.
#[test]
fn junit_xml_from_cosim() {
    let dir = scratch("cli-junit-r10k");
    let o = dir.join("out").display().to_string();
    let x = dir.join("x/cosim.xml");
    let r = pcnt(&[
        "cosim",
        "--device",
        "r10k",
        "--seeds",
        "2",
        "--cycles",
        "3000",
        "--no-progress",
        "--out",
        &o,
        "--junit",
        &x.display().to_string(),
    ]);
    assert_eq!(r.status.code(), Some(0), "{}", text(&r).1);
    let doc = fs::read_to_string(&x).unwrap();
    assert!(doc.contains("<testsuite name=\"cosim R10K\" tests=\"2\" failures=\"0\""), "{doc}");
    assert!(doc.contains("name=\"seed 1 (r10000)\"") && doc.contains("name=\"seed 2 (r12000)\""), "{doc}");
    // A failing run: its case has the mismatch and the repro line.
    let r = pcnt(&r10k_fault_run(&o, &["--junit", &x.display().to_string()]));
    assert_eq!(r.status.code(), Some(1), "{}", text(&r).1);
    let doc = fs::read_to_string(&x).unwrap();
    assert!(doc.contains("failures=\"1\"") && doc.contains("<failure message=\""), "{doc}");
    assert!(doc.contains("repro: make cosim DEVICE=r10k SEED=1") && doc.contains("FAULT=r10k_irq_without_ie"), "{doc}");
}
