//! The R10000/R12000 counters through the `pcnt` command line: their own
//! regression and summary, the variant of each seed in plans and job
//! names, and JUnit output (bench rows, shards and merges are every device's
//! guarantee, tests/guarantees.rs).

use std::fs;

use pcounter_sim::pcnt::runner::Results;

use crate::common::{cosim_shard, merge, pcnt, scratch, text};

/// `pcnt cosim` of one seed on the R10K fault `r10k_irq_without_ie`, which
/// it catches, artifacts under `out`, then `extra`.
fn r10k_fault_run<'a>(out: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    // Index 6 is the number of seeds.
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


/// R10K's plan names each seed's variant (odd R10000, even R12000) and a
/// fault build is an R10000 (the shards and the merge themselves are every
/// device's guarantee, tests/guarantees.rs).
#[test]
fn r10k_plans_name_each_seeds_variant() {
    let dir = scratch("cli-r10k-plans");
    let d = |f: &str| dir.join(f).display().to_string();
    let (o, r0, f0) = (d("out"), d("r0.json"), d("f0.json"));
    cosim_shard(&["--device", "r10k", "--seeds", "4", "--cycles", "3000"], "0/2", &r0, &o);
    let r: Results = serde_json::from_str(&fs::read_to_string(&r0).unwrap()).unwrap();
    let plan: Vec<(u64, &str)> = r.plan.iter().map(|p| (p.0, p.1.as_str())).collect();
    assert_eq!(plan, [(1, "r10000"), (2, "r12000"), (3, "r10000"), (4, "r12000")]);
    assert!(r.jobs.iter().all(|j| j.gen == r.plan[j.index].1), "a job's gen is its variant");
    assert!(r.coverage.bins.iter().all(|(b, _)| b.starts_with("r10k.")), "{:?}", r.coverage.bins);
    let mut fault = r10k_fault_run(&o, &["--json", &f0]);
    fault[6] = "2";
    let f = pcnt(&fault);
    assert_eq!(f.status.code(), Some(1), "{}", text(&f).1);
    let r: Results = serde_json::from_str(&fs::read_to_string(&f0).unwrap()).unwrap();
    let plan: Vec<&str> = r.plan.iter().map(|p| p.1.as_str()).collect();
    assert_eq!(plan, ["r10000", "r10000"], "a fault build is an R10000");
    let (code, out, _) = merge(&[&f0]);
    assert_eq!(code, Some(1), "{out}");
    assert!(out.contains("FAILED R10K job 0 (seed 1 r10000)"), "{out}");
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
