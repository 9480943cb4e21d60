//! The `pcnt` command line and the Makefile's variable checks, run as a user
//! runs them (issue 13): help for every command, typed values refused with
//! exit status 2, no option swallowing the next flag or silently replacing
//! an earlier one, output folders created on demand, progress off a
//! terminal, `make` refusing a bad variable before it builds.

mod common;

use std::fs;
use std::process::Command;

use common::{merge, pcnt, pcnt_in, root, scratch, text};
use pcounter::pcnt::regs::Gen;
use pcounter_sim::devices::DEVICES;
use pcounter_sim::engine::coverage::Coverage;
use pcounter_sim::pcnt::ffi::Rtl;
use pcounter_sim::pcnt::runner::{JobResult, Results};
use pcounter_sim::pcnt::script;

/// `pcnt cosim --help` answered "unknown option '--help'": every command now
/// prints its help (exit 0), naming its options.
#[test]
fn every_command_has_help() {
    let cases: &[(&str, &[&str])] = &[
        ("cosim", &["--seeds", "--domains", "--gen", "--fault", "--shard", "--json", "--layout", "--decode"]),
        ("merge", &["<FILE>..."]),
        ("script", &["--model-only", "--packets", "--max-cycles", "--xseed"]),
        ("record-dump", &["--image", "--base", "--format", "--csv", "--svg"]),
        ("import-mmiotrace", &["--out", "--gen", "--domains", "--run", "--model-only"]),
        ("bench", &["--seed", "--cycles", "--out", "--only", "--modes"]),
        ("faults", &[]),
        ("completions", &["<SHELL>"]),
    ];
    for (cmd, opts) in cases {
        for form in [vec![*cmd, "--help"], vec![*cmd, "-h"], vec!["help", *cmd]] {
            let o = pcnt(&form);
            let (out, err) = text(&o);
            assert_eq!(o.status.code(), Some(0), "{form:?}: {err}");
            assert!(out.contains(&format!("Usage: pcnt {cmd}")), "{form:?}:\n{out}");
            for opt in *opts {
                assert!(out.contains(opt), "{form:?} does not mention {opt}:\n{out}");
            }
        }
    }
    let (out, _) = text(&pcnt(&["--help"]));
    for cmd in cases.iter().map(|c| c.0) {
        assert!(out.contains(cmd), "pcnt --help does not list {cmd}:\n{out}");
    }
}

/// `pcnt script --help` still lists every script command with its usage.
#[test]
fn script_help_lists_the_script_commands() {
    let (out, _) = text(&pcnt(&["script", "--help"]));
    for c in script::COMMANDS {
        let first = c.usage.split_whitespace().take(2).collect::<Vec<_>>().join(" ");
        assert!(out.contains(&first), "script --help lacks '{first}':\n{out}");
    }
    // Every device's commands, from the registry (clap may rewrap long lines).
    let flat = |t: &str| t.split_whitespace().collect::<Vec<_>>().join(" ");
    for d in pcounter_sim::devices::DEVICES {
        for line in (d.script_help)().lines() {
            assert!(flat(&out).contains(&flat(line)), "script --help lacks {}'s '{line}'", d.name);
        }
    }
}

/// Usage errors exit 2 and run nothing.
#[test]
fn usage_errors_exit_2() {
    let bad: &[&[&str]] = &[
        &[],
        &["frobnicate"],
        &["cosim", "--frobnicate"],
        &["cosim", "--seeds", "0"],
        &["cosim", "--seeds", "1000001"],
        &["cosim", "--seeds", "ten"],
        &["cosim", "--cycles", "0"],
        &["cosim", "--domains", "3"],
        &["cosim", "--domains", "1,9"],
        &["cosim", "--gen", "bogus"],
        &["cosim", "--gen", "g84,bogus"],
        &["cosim", "--fault", "nonexistent"],
        &["cosim", "--layout", "bogus"],
        &["cosim", "--decode", "loose"],
        &["cosim", "--shard", "2/2"],
        &["cosim", "--shard", "1"],
        &["cosim", "--jobs", "0"],
        &["cosim", "--seed", "1", "--seed", "2"],
        &["script"],
        &["script", "tests/scripts/single_event.pcs", "--fault", "nonexistent"],
        &["record-dump"],
        &["record-dump", "x.log", "--format", "medium"],
        &["record-dump", "x.log", "--domain", "8"],
        &["import-mmiotrace", "x.txt", "--gen", "nv99"],
        &["import-mmiotrace", "x.txt", "--domains", "9"],
        &["merge"],
        &["completions", "tcsh"],
    ];
    for args in bad {
        let o = pcnt(args);
        let (out, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}:\n{out}{err}");
        assert!(!out.contains("PASS"), "{args:?} ran:\n{out}");
        assert!(!err.contains("cosim:"), "{args:?} started a regression:\n{err}");
    }
    // The refused value is named with the valid ones.
    let (_, err) = text(&pcnt(&["cosim", "--domains", "3"]));
    let counts: Vec<String> = Rtl::domain_counts().iter().map(|d| d.to_string()).collect();
    assert!(err.contains(&format!("no Verilated build for 3 domain(s) (built: {})", counts.join(", "))), "{err}");
    let (_, err) = text(&pcnt(&["cosim", "--gen", "bogus"]));
    assert!(err.contains("[possible values: all, nv10, nv15, nv20, nv30, nv40, g84, g92, gt215, gf100]"), "{err}");
    let (_, err) = text(&pcnt(&["cosim", "--fault", "nonexistent"]));
    for f in Rtl::faults() {
        assert!(err.contains(f), "--fault error does not name {f}:\n{err}");
    }
}

/// A value-taking option took the next flag as its value: `--packets
/// --model-only` wrote a packet log named `--model-only` and ran in lockstep.
#[test]
fn options_do_not_swallow_the_next_flag() {
    let dir = scratch("cli-swallow");
    let file = root().join("tests/scripts/single_event.pcs").display().to_string();
    let o = pcnt_in(&dir, &["script", &file, "--packets", "--model-only"]);
    let (out, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{out}{err}");
    assert!(err.contains("a value is required for '--packets <LOG>'"), "{err}");
    assert!(!dir.join("--model-only").exists());
    let o = pcnt_in(&dir, &["record-dump", "x.log", "--csv", "--svg", "y.svg"]);
    let (_, err) = text(&o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("a value is required for '--csv <OUT>'"), "{err}");
    assert!(!dir.join("--svg").exists() && !dir.join("y.svg").exists());
}

/// A second output file of the same kind silently replaced the first.
#[test]
fn an_output_option_given_twice_is_an_error() {
    let dir = scratch("cli-twice");
    let log = dir.join("p.log");
    let file = root().join("tests/scripts/record_stop.pcs").display().to_string();
    let o = pcnt(&["script", &file, "--model-only", "--quiet", "--packets", &log.display().to_string()]);
    assert!(o.status.success(), "{:?}", text(&o));
    let log = log.display().to_string();
    for opt in ["--csv", "--svg"] {
        let o = pcnt_in(&dir, &["record-dump", &log, opt, "a.out", opt, "b.out"]);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains("cannot be used multiple times"), "{err}");
        assert!(!dir.join("a.out").exists() && !dir.join("b.out").exists());
    }
    for (cmd, opt) in [("cosim", "--out"), ("cosim", "--json"), ("script", "--packets")] {
        let mut args = vec![cmd];
        if cmd == "script" {
            args.push("tests/scripts/single_event.pcs");
        }
        args.extend([opt, "target/test-out/cli-twice/a", opt, "target/test-out/cli-twice/b"]);
        let o = pcnt(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {:?}", text(&o));
    }
}

/// Outputs go into folders that do not exist yet (a fresh clone has no
/// out/): `--json` and `--out` of cosim, `--packets`, record-dump's files.
#[test]
fn output_folders_are_created_on_demand() {
    let dir = scratch("cli-fresh");
    let out = dir.join("new/out");
    let json = dir.join("results/deep/r.json");
    let o = pcnt(&[
        "cosim",
        "--seeds",
        "1",
        "--cycles",
        "1000",
        "--domains",
        "1",
        "--no-progress",
        "--out",
        &out.display().to_string(),
        "--json",
        &json.display().to_string(),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(out.join("coverage.json").is_file() && json.is_file());
    let log = dir.join("packets/p.log");
    let file = root().join("tests/scripts/record_stop.pcs").display().to_string();
    let o = pcnt(&["script", &file, "--model-only", "--quiet", "--packets", &log.display().to_string()]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(log.is_file());
    let (csv, svg) = (dir.join("csv/x/p.csv"), dir.join("svg/y/p.svg"));
    let o = pcnt(&[
        "record-dump",
        &log.display().to_string(),
        "--csv",
        &csv.display().to_string(),
        "--svg",
        &svg.display().to_string(),
    ]);
    assert!(o.status.success(), "{:?}", text(&o));
    assert!(csv.is_file() && svg.is_file());
}

/// Off a terminal (CI logs) the progress is plain lines, no carriage
/// returns; `--no-progress` silences it.
#[test]
fn progress_off_a_terminal_is_plain_lines() {
    let dir = scratch("cli-progress");
    let args = ["cosim", "--seeds", "3", "--cycles", "1000", "--domains", "1", "--jobs", "1", "--out"];
    let mut a = args.to_vec();
    let d = dir.display().to_string();
    a.push(&d);
    let (_, err) = text(&pcnt(&a));
    assert!(!err.contains('\r'), "{err:?}");
    for n in 1..=3 {
        assert!(err.contains(&format!("cosim: {n}/3 runs, ")), "{err}");
    }
    assert!(err.contains("k cycles/s, ETA "), "{err}");
    a.push("--no-progress");
    let (_, err) = text(&pcnt(&a));
    assert!(!err.contains("/3 runs"), "{err}");
}

/// A script with `domains 3` passes model-only (the model has any count)
/// but has no Verilated build: the lockstep error names its file and line.
#[test]
fn a_script_without_a_build_names_the_line() {
    let dir = scratch("cli-domains3");
    let cases = [
        ("d3.pcs", "# no build\ngen g84\ndomains 3\nwrite 0xa7c4 0x1\n", 3, "no Verilated build for 3 domain(s)"),
        (
            "d8lax.pcs",
            "domains 8\n\ndecode lax\nwrite 0xa7c4 0x1\n",
            3,
            "no Verilated build for 8 domain(s) (lax decode)",
        ),
        (
            "d1odd.pcs",
            "layout odd\nwrite 0xa7c4 0x1\n",
            1,
            "no Verilated build for 1 domain(s) with this signal layout",
        ),
    ];
    for (name, body, line, want) in cases {
        let f = dir.join(name);
        fs::write(&f, body).unwrap();
        let f = f.display().to_string();
        let o = pcnt(&["script", &f, "--model-only"]);
        assert!(o.status.success(), "{name}: {:?}", text(&o));
        let o = pcnt(&["script", &f]);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.starts_with(&format!("{f}:{line}: {want}")), "{name}: {err}");
        // One line: the plain builds, not the dozens of fault builds.
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("with fault"), "{err}");
    }
}

/// A fault build that differs from the script in its decode or signal
/// layout, not its domain count, is refused naming that difference (issue
/// 29: the message said "has 2 domain(s), not 2").
#[test]
fn a_fault_build_names_the_real_difference() {
    let dir = scratch("cli-fault-diff");
    let f = dir.join("d2.pcs");
    fs::write(&f, "domains 2\nwrite 0xa7c4 0x1\n").unwrap();
    let f = f.display().to_string();
    for (fault, want) in [
        ("lax_decode_still_errors", "is built with lax decode, not strict (S8)"),
        ("user_at_default_position", "is built with signal layout 'odd', not this one (S9, S19)"),
    ] {
        let o = pcnt(&["script", &f, "--fault", fault]);
        let (_, err) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(&format!("fault build {fault} {want}")), "{fault}: {err}");
        assert!(!err.contains("domain(s), not"), "{fault}: {err}");
    }
}

/// `--gen nv10` with the default domain counts (1, 2, 8) runs the one
/// domain count NV10 has and says the others were skipped (S24); a domain
/// list no listed generation has is refused (exit 2).
#[test]
fn cosim_skips_domain_counts_a_generation_lacks() {
    let out = scratch("cli-gen-skip");
    let o = out.display().to_string();
    let r = pcnt(&["cosim", "--gen", "nv10", "--seeds", "2", "--cycles", "2000", "--no-progress", "--out", &o]);
    let (stdout, err) = text(&r);
    assert!(r.status.success(), "{stdout}{err}");
    assert!(err.contains("cosim: 2 runs = seeds 1..2 x domains [1]"), "{err}");
    assert!(err.contains("no generation of [nv10] has 2 domain(s): skipped"), "{err}");
    assert!(err.contains("no generation of [nv10] has 8 domain(s): skipped"), "{err}");
    assert!(stdout.contains("runs per generation: nv10 2 (d1)"), "{stdout}");
    let r = pcnt(&["cosim", "--gen", "nv10,nv15", "--domains", "2,8", "--seeds", "1", "--no-progress", "--out", &o]);
    let (_, err) = text(&r);
    assert_eq!(r.status.code(), Some(2), "{err}");
    assert!(err.contains("no generation of [nv10, nv15] has 2 or 8 domain(s)"), "{err}");
}

/// What a generation cannot hold is refused before the script runs, model
/// alone or in lockstep (exit 2), naming the line: more domains than the
/// generation has (the `gen` line), a poke wider than the counter (S24).
#[test]
fn a_script_beyond_its_generation_names_the_line() {
    let dir = scratch("cli-gen-limits");
    let cases = [
        ("nv10d2.pcs", "gen nv10\ndomains 2\nwrite 0xa73c 0x1\n", 1, "generation 'nv10' has at most 1 domain"),
        (
            "wide.pcs",
            "gen nv20,nv30\nwait 1\npoke 0 ctr_event 0x1_0000_0000\n",
            3,
            "poke value 0x100000000 does not fit ctr_event on nv30 (32 bits",
        ),
    ];
    for (name, body, line, want) in cases {
        let f = dir.join(name);
        fs::write(&f, body).unwrap();
        let f = f.display().to_string();
        for model_only in [true, false] {
            let mut a = vec!["script", f.as_str()];
            if model_only {
                a.push("--model-only");
            }
            let o = pcnt(&a);
            let (out, err) = text(&o);
            assert_eq!(o.status.code(), Some(2), "{name} {a:?}: {out}{err}");
            // A list runs per generation: `file[nv30]:line`.
            let at = if body.contains(',') { format!("{f}[nv30]:{line}: ") } else { format!("{f}:{line}: ") };
            assert!(err.contains(&format!("{at}{want}")), "{name} {a:?}: {err}");
        }
    }
}

#[test]
fn completions_are_generated() {
    for (shell, marker) in [("bash", "complete -F"), ("zsh", "#compdef pcnt"), ("fish", "complete -c pcnt")] {
        let o = pcnt(&["completions", shell]);
        let (out, _) = text(&o);
        assert!(o.status.success(), "{shell}");
        assert!(out.contains(marker), "{shell}: no '{marker}'");
        for cmd in ["cosim", "record-dump", "import-mmiotrace", "model-only"] {
            assert!(out.contains(cmd), "{shell} completion lacks {cmd}");
        }
    }
}

/// A results file of a 4-job plan holding the jobs `idx` (failing: `bad`).
fn results(plan_seed: u64, cycles: u64, idx: &[usize], bad: &[usize]) -> Results {
    let plan = (0..4).map(|i| (plan_seed + i, "g84".to_string(), 1)).collect();
    let jobs = idx
        .iter()
        .map(|&i| JobResult {
            index: i,
            seed: plan_seed + i as u64,
            gen: "g84".into(),
            domains: 1,
            cycles,
            secs: 0.1,
            failure: bad.contains(&i).then(|| ("CTR_CYCLES[0]".to_string(), "make cosim ...".to_string())),
        })
        .collect();
    Results { device: "pcnt".into(), plan, cycles, shard: (0, 1), wall_secs: 0.1, jobs, coverage: Coverage::default() }
}

/// `pcnt merge` through the binary: every way shards can be wrong is a
/// failure (1) or bad input (2), never PASSED.
#[test]
fn merge_validates_its_inputs() {
    let dir = scratch("cli-merge");
    let write = |name: &str, r: &Results| {
        let p = dir.join(name);
        fs::write(&p, serde_json::to_string(r).unwrap()).unwrap();
        p.display().to_string()
    };
    let a = write("a.json", &results(1, 100, &[0, 2], &[]));
    let b = write("b.json", &results(1, 100, &[1, 3], &[]));
    let (code, out, _) = merge(&[&a, &b]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("all 4 jobs of the plan exactly once") && out.contains("cosim PASSED: 4 runs"), "{out}");
    // A missing job.
    let (code, out, _) = merge(&[&a]);
    assert_eq!(code, Some(1));
    assert!(out.contains("2 of 4 jobs missing") && !out.contains("PASSED"), "{out}");
    // A shard given twice: duplicated jobs.
    let (code, out, _) = merge(&[&a, &b, &b]);
    assert_eq!(code, Some(1));
    assert!(out.contains("jobs run more than once: [1, 3]") && !out.contains("PASSED"), "{out}");
    // A failing job.
    let f = write("f.json", &results(1, 100, &[1, 3], &[3]));
    let (code, out, _) = merge(&[&a, &f]);
    assert_eq!(code, Some(1));
    assert!(out.contains("FAILED job 3") && !out.contains("PASSED"), "{out}");
    // Another regression: other seeds, or other cycles.
    for (name, r) in [("seeds.json", results(9, 100, &[1, 3], &[])), ("cycles.json", results(1, 50, &[1, 3], &[]))] {
        let other = write(name, &r);
        let (code, out, err) = merge(&[&a, &other]);
        assert_eq!(code, Some(2), "{name}: {out}");
        assert!(err.contains(name) && err.contains("a different regression"), "{name}: {err}");
    }
    // A device no build knows is refused, naming the file.
    let mut r = results(1, 100, &[1, 3], &[]);
    r.device = "nosuch".into();
    let nosuch = write("nosuch.json", &r);
    let (code, _, err) = merge(&[&a, &nosuch]);
    assert_eq!(code, Some(2));
    assert!(err.contains("nosuch.json") && err.contains("unknown device \"nosuch\""), "{err}");
    // A results file without a device (written before results carried it)
    // is PCOUNTER's.
    let mut r: serde_json::Value = serde_json::from_str(&fs::read_to_string(&b).unwrap()).unwrap();
    r.as_object_mut().unwrap().remove("device");
    let old = dir.join("old.json");
    fs::write(&old, r.to_string()).unwrap();
    let (code, out, _) = merge(&[&a, &old.display().to_string()]);
    assert_eq!(code, Some(0), "{out}");
    assert!(out.contains("merge: 2 files, all 4 jobs"), "{out}");
    // A job index outside the plan.
    let out_of_plan = write("index.json", &results(1, 100, &[1, 7], &[]));
    let (code, _, err) = merge(&[&a, &out_of_plan]);
    assert_eq!(code, Some(2));
    assert!(err.contains("job index 7 is outside the plan of 4 jobs"), "{err}");
    // A passing job that ran fewer cycles than the plan, and cycle counts
    // whose total passes 2^64 - 1 (it wrapped: "4 runs, 3998 cycles").
    let mut short = results(1, 100, &[1, 3], &[]);
    short.jobs[1].cycles = 99;
    let short = write("short.json", &short);
    let (code, _, err) = merge(&[&a, &short]);
    assert_eq!(code, Some(2));
    assert!(err.contains("job 3 passed after 99 cycles, but the plan runs 100"), "{err}");
    let mut huge = results(1, 100, &[1, 3], &[]);
    huge.jobs[0].cycles = u64::MAX - 1000;
    huge.jobs[1].cycles = u64::MAX - 1000;
    let huge = write("huge.json", &huge);
    let (code, out, err) = merge(&[&a, &huge]);
    assert_eq!(code, Some(2), "{out}");
    assert!(err.contains("cycles take the total past 2^64 - 1") && !out.contains("PASSED"), "{err}");
    // An empty plan, with no runs: never PASSED with 0 runs.
    let mut empty = results(1, 100, &[], &[]);
    empty.plan.clear();
    let empty = write("empty.json", &empty);
    let (code, out, err) = merge(&[&empty]);
    assert_eq!(code, Some(2), "{out}");
    assert!(err.contains("no jobs") && !out.contains("PASSED"), "{err}");
    // Not a results file.
    let junk = dir.join("junk.json");
    fs::write(&junk, "{\"plan\": 3}").unwrap();
    let (code, _, err) = merge(&[&junk.display().to_string()]);
    assert_eq!(code, Some(2));
    assert!(err.contains("not a results file"), "{err}");
}

/// Runs `make` in the repository with `args`; CARGO=false makes any build
/// attempt fail loudly, so a check that runs after the build is caught.
fn make(args: &[&str]) -> (Option<i32>, String) {
    let o = Command::new("make")
        .args(["--no-print-directory", "CARGO=false"])
        .args(args)
        .current_dir(root())
        // An outer `make test` must not pass its flags or jobserver in.
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("MAKELEVEL")
        .output()
        .unwrap();
    let (out, err) = text(&o);
    (o.status.code(), format!("{out}{err}"))
}

/// `make help` lists every variable a user can set: each upper-case name a
/// recipe or a default reads that the Makefile does not define for itself
/// (`NAME :=` / `NAME =` without `?`), besides make's own.
#[test]
fn make_help_lists_every_user_variable() {
    let mk = std::fs::read_to_string(root().join("Makefile")).unwrap();
    let own: std::collections::HashSet<&str> = mk
        .lines()
        .filter_map(|l| {
            let (name, rest) = l.split_once(char::is_whitespace).or_else(|| l.split_once('='))?;
            let rest = rest.trim_start();
            let is_own = (rest.starts_with(":=") || rest.starts_with('=')) && !rest.starts_with("?=");
            (is_own && name.chars().all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_')).then_some(name)
        })
        .collect();
    let make_own = ["MAKE", "MAKEFILE_LIST", "CC", "SHELL", "NEED_FILE"];
    let (code, help) = make(&["help"]);
    assert_eq!(code, Some(0), "{help}");
    let listed: String = help.lines().skip_while(|l| !l.starts_with("Variables")).collect::<Vec<_>>().join("\n");
    let mut missing = Vec::new();
    let mut rest = mk.as_str();
    while let Some(i) = rest.find("$(") {
        rest = &rest[i + 2..];
        let name: String =
            rest.chars().take_while(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || *c == '_').collect();
        let word = |t: &str| t.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).any(|w| w == name);
        if name.len() > 1 && !own.contains(name.as_str()) && !make_own.contains(&name.as_str()) && !word(&listed) {
            missing.push(name);
        }
    }
    missing.sort();
    missing.dedup();
    assert!(missing.is_empty(), "make help does not list {missing:?}:\n{listed}");
}

/// `make cosim DOMAINS=3` or `FAULT=nonexistent` failed only after the
/// build: now `check-vars` refuses them first, with one line naming the
/// valid values, which are read from the sources the binary is built from.
#[test]
fn make_refuses_bad_variables_before_building() {
    let counts: Vec<String> = Rtl::domain_counts().iter().map(|d| d.to_string()).collect();
    let gens: Vec<&str> = Gen::ALL.iter().map(|g| g.name()).chain(["gf100"]).collect();
    // Every fault build of every device (compared as sorted lists: the
    // shell's glob order depends on the locale).
    let mut all_faults: Vec<&str> = DEVICES.iter().flat_map(|d| (d.faults)()).collect();
    all_faults.sort_unstable();
    let names: Vec<&str> = DEVICES.iter().map(|d| d.name).collect();
    // A fault of each device but PCOUNTER under another DEVICE is refused,
    // naming its device.
    let cross: Vec<(String, String)> = DEVICES[1..]
        .iter()
        .filter_map(|d| {
            (d.faults)().first().map(|f| (format!("FAULT={f} DEVICE=pcnt"), format!("FAULT is a {} fault", d.name)))
        })
        .collect();
    let mut cases = vec![
        ("DOMAINS=3", format!("valid domain counts are {}", counts.join(", "))),
        ("DOMAINS=1,2,9", format!("valid domain counts are {}", counts.join(", "))),
        (
            "FAULT=nonexistent",
            "valid faults are the stems of tests/faults/*.fault and tests/*/faults/*.fault: ".to_string(),
        ),
        ("DEVICE=bogus", format!("valid devices are {}", names.join(", "))),
        ("FAULTS=some", "FAULTS=some: expected all".to_string()),
        // A name make help does not list would be taken silently and the
        // default run (a FAULT run that passes): refused, with the name meant.
        ("FALT=threshold_cmp", "not a variable of this Makefile (did you mean FAULT?)".to_string()),
        ("seeds=1", "not a variable of this Makefile (did you mean SEEDS?)".to_string()),
        ("BOGUS=1", "not a variable of this Makefile; `make help` lists them".to_string()),
        // A word of make help's descriptions is no variable; a device's own
        // regression size is, for a registered device only.
        ("domain=2", "not a variable of this Makefile (did you mean DOMAINS?)".to_string()),
        ("GEN=bogus", format!("valid generations are all, {}", gens.join(", "))),
        ("GEN=g84,bogus", format!("valid generations are all, {}", gens.join(", "))),
        // Domain limits per generation (S24), from regmap/pcounter.rdl: a
        // domain count no listed generation has is skipped; nothing left to
        // run is refused.
        ("GEN=nv10 DOMAINS=2", "no generation of GEN has that many domains".to_string()),
        ("GEN=nv15,nv30 DOMAINS=8", "no generation of GEN has that many domains".to_string()),
        ("GEN=nv10,nv15 DOMAINS=2,8", "no generation of GEN has that many domains".to_string()),
        ("FAULT=threshold_cmp GEN=nv10,nv15", "the fault runs on nv40, g84, g92, gt215 only".to_string()),
        // A fault build has one domain count: DOMAINS without it is refused
        // (it was overridden silently).
        ("FAULT=threshold_cmp DOMAINS=1", "the fault is built with 2 domain(s); leave DOMAINS out".to_string()),
        (
            "LAYOUT=bogus",
            format!(
                "valid layouts are {}, and for GEN=gf100 {}",
                pcounter::pcnt::config::Layout::NAMES.join(", "),
                pcounter::pcnt::gf100::config::PRESETS.join(", ")
            ),
        ),
        ("DECODE=loose", "valid decodes are strict, lax".to_string()),
        ("WAVE=vxd", "valid wave formats are vcd, fst".to_string()),
        ("SEEDS=0", "SEEDS=0: expected at least 1".to_string()),
        ("SEEDS=2000000", "SEEDS=2000000: expected at most 1000000".to_string()),
        ("CYCLES=lots", "CYCLES=lots: expected a decimal or 0x-hex number".to_string()),
        ("SHARD=3/3", "SHARD=3/3: expected I/N with 0 <= I < N".to_string()),
        ("JOBS=0", "JOBS=0: expected at least 1".to_string()),
        // Values past what pcnt reads, and values that are no run at all.
        ("DOMAINS=", "empty; leave it out for its default".to_string()),
        ("SEEDS=", "empty; leave it out for its default".to_string()),
        ("WINDOW=99999999999999999999", "expected at most 100000".to_string()),
        ("WINDOW=100001", "expected at most 100000".to_string()),
        ("CYCLES=18446744073709551616", "expected at most 18446744073709551615".to_string()),
        ("DOMAINS=1,1", "1 given twice".to_string()),
        ("SEED=18446744073709551615 SEEDS=2", "the last seed would pass 2^64 - 1".to_string()),
        ("CORRUPT=200000", "past the end of every run (CYCLES=200000)".to_string()),
        ("FILE=a'b", "quotes and shell characters are not passed through make".to_string()),
        ("FILE=x;y", "quotes and shell characters are not passed through make".to_string()),
    ];
    cases.extend(cross.iter().map(|(a, b)| (a.as_str(), b.clone())));
    // A device's own regression size, misspelt: the registered name meant.
    let own = format!("{}_SEEDS", DEVICES[1].name.to_uppercase());
    let typo = format!("{}X_SEEDS=2", DEVICES[1].name.to_uppercase());
    cases.push((typo.as_str(), format!("not a variable of this Makefile (did you mean {own}?)")));
    for (var, want) in &cases {
        for target in ["check-vars", "cosim"] {
            let args: Vec<&str> = std::iter::once(target).chain(var.split(' ')).collect();
            let (code, out) = make(&args);
            assert_eq!(code, Some(2), "make {target} {var}:\n{out}");
            let first = out.lines().next().unwrap_or("");
            assert!(first.starts_with(&format!("make: {var}: ")) && first.contains(want.as_str()), "{var}:\n{out}");
            assert!(!out.contains("false build"), "make {target} {var} built first:\n{out}");
            if var.starts_with("FAULT=nonexistent") {
                let mut listed: Vec<&str> = first.split(": ").last().unwrap_or("").split(", ").collect();
                listed.sort_unstable();
                assert_eq!(listed, all_faults, "make {target} {var}: the list of faults:\n{out}");
            }
        }
    }
    // Valid values pass the check (which builds nothing).
    let (code, out) =
        make(&["check-vars", "DOMAINS=2", "GEN=nv40,g84", "FAULT=threshold_cmp", "LAYOUT=odd", "DECODE=lax"]);
    assert_eq!(code, Some(0), "{out}");
    // A registered device's own regression size and the C toolchain's
    // variables are names make takes.
    let sizes: Vec<String> = DEVICES
        .iter()
        .flat_map(|d| [format!("{}_SEEDS=2", d.name.to_uppercase()), format!("{}_CYCLES=5000", d.name.to_uppercase())])
        .collect();
    let args: Vec<&str> =
        ["check-vars", "CC=cc", "CXX=c++"].into_iter().chain(sizes.iter().map(String::as_str)).collect();
    let (code, out) = make(&args);
    assert_eq!(code, Some(0), "{out}");
    for ok in [
        &["GEN=nv20,nv10", "DOMAINS=1,2"][..],
        &["GEN=nv10,gt215"],
        &["GEN=nv10", "DOMAINS=1"],
        &["GEN=nv10"],
        &["GEN=nv20", "DOMAINS=1,2,8"],
        // GF100: its presets as LAYOUT, DOMAINS does not apply to it alone,
        // its faults run by the PCOUNTER device.
        &["GEN=gf100", "LAYOUT=kepler"],
        &["GEN=gf100", "DOMAINS=1,2,8"],
        &["GEN=gf100", "FAULT=gf_swap_wrong_set"],
        &["DEVICE=pcnt", "FAULT=gf_user_pulse_two_clocks"],
    ] {
        let args: Vec<&str> = std::iter::once("check-vars").chain(ok.iter().copied()).collect();
        let (code, out) = make(&args);
        assert_eq!(code, Some(0), "{ok:?}: {out}");
    }
    // Each device's own faults under its own DEVICE.
    for d in &DEVICES[1..] {
        for f in (d.faults)().iter().take(2) {
            let (code, out) = make(&["check-vars", &format!("DEVICE={}", d.name), &format!("FAULT={f}")]);
            assert_eq!(code, Some(0), "{out}");
        }
    }
    // A FILE name with a space is two names; each must exist.
    let (code, out) = make(&["check-vars", "FILE=tests/scripts/no such.pcs"]);
    assert_eq!(code, Some(2), "{out}");
    assert!(out.starts_with("make: FILE=tests/scripts/no such.pcs: no such file: tests/scripts/no (a space"), "{out}");
    // Targets that need FILE say so before building.
    for target in ["script", "record-dump", "import-mmiotrace"] {
        let (code, out) = make(&[target]);
        assert_eq!(code, Some(2), "make {target}:\n{out}");
        assert!(out.starts_with(&format!("make: usage: make {target} FILE=")), "make {target}:\n{out}");
        assert!(!out.contains("false build"), "make {target} built first:\n{out}");
    }
}

/// `pcnt bench --only TEXT --modes LIST` runs just those rows and modes
/// (each the median of 3 runs) and sets them against issue 33's targets
/// (docs/performance.md): exit 0 when every target it measured is met, 1
/// when one is not; an unknown mode or a filter matching nothing is a usage
/// error (exit 2).
#[test]
fn bench_filters_rows_and_prints_targets() {
    let out = scratch("cli-bench-only");
    let dir = out.to_str().unwrap();
    let o = pcnt(&["bench", "--cycles", "2000", "--out", dir, "--only", "1 domain", "--modes", "rtl,lockstep"]);
    let (stdout, stderr) = text(&o);
    let rows: Vec<&str> = stdout.lines().filter(|l| l.starts_with("1 domain ")).collect();
    assert!(rows[0].contains("RTL alone") && rows[1].contains("lockstep (full compare)"), "{stdout}");
    assert!(rows[2].contains("lockstep / RTL alone =") && !rows[2].contains("tracing"), "{stdout}");
    // Every row of the table (between its header and the targets) is a
    // `1 domain` row.
    let table = stdout.split("targets (issue 33").next().unwrap();
    let rows_all = table.lines().skip_while(|l| !l.starts_with("configuration")).skip(1);
    assert!(rows_all.clone().count() >= 3 && rows_all.clone().all(|l| l.starts_with("1 domain ")), "{stdout}");
    assert!(!stdout.contains("model alone"), "{stdout}");
    let targets = stdout.split("targets (issue 33").nth(1).expect("a targets section");
    // With RTL alone and lockstep measured: the harness's cost per cycle.
    let line = targets.lines().find(|l| l.contains("harness cost")).unwrap_or_else(|| panic!("{stdout}"));
    assert!(line.starts_with("1 domain ") && (line.ends_with(" met") || line.ends_with("NOT met")), "{line}");
    let missed = targets.lines().any(|l| l.ends_with("NOT met"));
    assert_eq!(o.status.code(), Some(i32::from(missed)), "{stdout}\n{stderr}");
    for (args, why) in [
        (vec!["--modes", "rtl,fast"], "unknown mode 'fast'"),
        (vec!["--only", "no such configuration"], "matched no configuration"),
    ] {
        let mut a = vec!["bench", "--cycles", "100", "--out", dir];
        a.extend(args);
        let o = pcnt(&a);
        let (stdout, stderr) = text(&o);
        assert_eq!(o.status.code(), Some(2), "{a:?}: {stdout}{stderr}");
        assert!(stderr.contains(why), "{a:?}: {stderr}");
    }
}

/// An injected fault the run does not reach is no pass: `pcnt cosim
/// --fault` and `pcnt script --fault` say NOT DETECTED and exit 3 (README
/// "Exit status"), and tools/mutate.py counts such a run of a mutant as
/// survived (its check functions, run here on a real fault build), not as
/// an error or a kill.
#[test]
fn undetected_fault_has_its_own_status_and_counts_as_survived() {
    let dir = scratch("cli-undetected");
    let o = dir.join("out").display().to_string();
    // A NEXT write in a swapping tick: 50 cycles of seed 1 have none.
    let fault = "gf_next_write_lost_at_swap";
    let r = pcnt(&[
        "cosim",
        "--gen",
        "gf100",
        "--fault",
        fault,
        "--seeds",
        "1",
        "--cycles",
        "50",
        "--no-progress",
        "--out",
        &o,
    ]);
    let (out, err) = text(&r);
    assert_eq!(r.status.code(), Some(3), "{out}{err}");
    assert!(out.contains(&format!("fault {fault} NOT DETECTED in 1 run(s), ")) && !out.contains("PASSED"), "{out}");
    // A script on a fault build that passes: exit 3; beside a failing
    // script the failure (1) wins, beside a malformed one the bad input (2).
    let (quiet, bad) = (dir.join("quiet.pcs"), dir.join("bad.pcs"));
    fs::write(&quiet, "domains 2\nwait 5\n").unwrap();
    fs::write(&bad, "domains 2\nwiat 5\n").unwrap();
    let (q, b) = (quiet.display().to_string(), bad.display().to_string());
    for (files, code) in [(vec![&q], 3), (vec![&q, &b], 2)] {
        let args: Vec<&str> = ["script", "--fault", "threshold_cmp", "--out", &o]
            .into_iter()
            .chain(files.iter().map(|f| f.as_str()))
            .collect();
        let r = pcnt(&args);
        let (out, err) = text(&r);
        assert_eq!(r.status.code(), Some(code), "{args:?}:\n{out}{err}");
    }
    assert!(text(&pcnt(&["script", "--fault", "threshold_cmp", "--out", &o, &q])).0.contains("NOT DETECTED"));
    // tools/mutate.py's GF100 check on that build: survived.
    let work = dir.join("work");
    fs::create_dir_all(&work).unwrap();
    let _ = fs::remove_file(work.join("tree"));
    std::os::unix::fs::symlink(root(), work.join("tree")).unwrap();
    let py = "import importlib.util, sys, pathlib\n\
              spec = importlib.util.spec_from_file_location('mutate', sys.argv[1])\n\
              m = importlib.util.module_from_spec(spec); spec.loader.exec_module(m)\n\
              w = pathlib.Path(sys.argv[3])\n\
              print(m.check_gf100(sys.argv[2], sys.argv[4], 1, 50, w, w / 'out'))\n";
    let r = Command::new("python3")
        .args(["-c", py])
        .arg(root().join("tools/mutate.py"))
        .arg(env!("CARGO_BIN_EXE_pcnt"))
        .arg(&work)
        .arg(fault)
        .output()
        .unwrap();
    let (out, err) = text(&r);
    assert_eq!(out.trim(), "('survived', '')", "mutate.py's verdict:\n{out}{err}");
}

/// Values that are no run at all are refused before anything runs, with
/// exit 2 and the limit (README "Exit status").
#[rstest::rstest]
#[case(&["cosim", "--window", "100001"], "at most 100000 cycles of waves")]
#[case(&["cosim", "--seed", "18446744073709551615", "--seeds", "2"], "the last seed would pass 2^64 - 1")]
#[case(&["cosim", "--cycles", "1000", "--corrupt-at", "1000"], "--corrupt-at 1000: past the end of every run")]
#[case(&["cosim", "--seeds", "2", "--domains", "1", "--shard", "5/6"], "--shard 5/6: the plan has 2 run(s)")]
#[case(&["cosim", "--seeds", "1", "--out", "/proc/nope"], "--out /proc/nope: cannot write there")]
#[case(&["script", "tests/scripts/single_event.pcs", "--out", "/proc/nope"], "--out /proc/nope: cannot write there")]
#[case(&["cosim", "--seeds", "1", "--plan", "/nonexistent/plan.md"], "--plan /nonexistent/plan.md: ")]
#[case(&["cosim", "--seeds", "1", "--plan", "Cargo.toml"], "--plan Cargo.toml: no coverage bins")]
#[case(&["cosim", "--domains", "1,1"], "--domains 1,1: 1 given twice")]
#[case(&["cosim", "--gen", "nv40,nv40"], "--gen nv40,nv40: nv40 given twice")]
// A fault build has one domain count; a list without it was overridden.
#[case(&["cosim", "--fault", "threshold_cmp", "--domains", "1,8"], "fault threshold_cmp is built with 2 domain(s)")]
fn cosim_refuses_values_that_are_no_run(#[case] args: &[&str], #[case] want: &str) {
    let r = pcnt(args);
    let (out, err) = text(&r);
    assert_eq!(r.status.code(), Some(2), "{args:?}:\n{out}{err}");
    assert!(err.contains(want), "{args:?}: no `{want}` in:\n{err}");
    assert!(!out.contains("PASSED"), "{out}");
}

/// `pcnt` run from an unrelated directory closes coverage against the plan
/// built into it (it read docs/coverage-plan.md from the working directory
/// and called every bin unplanned).
#[test]
fn cosim_closes_coverage_from_any_directory() {
    for d in &DEVICES[1..] {
        let dir = scratch(&format!("cli-anywhere-{}", d.name));
        let r = pcnt_in(
            &dir,
            &["cosim", "--device", d.name, "--seeds", "1", "--cycles", "2000", "--no-progress", "--out", "o"],
        );
        let (out, err) = text(&r);
        assert_eq!(r.status.code(), Some(0), "{out}{err}");
        let head = format!("coverage (docs/coverage-plan.md, {};", d.title);
        assert!(out.contains(&head) && !out.contains("unplanned"), "{out}");
        assert!(dir.join(format!("o/coverage-{}.json", d.name)).is_file());
    }
}

/// `--coverage summary` leaves out the bin table (80 lines on PCOUNTER) and
/// keeps the summary, which says whether the gate was applied.
#[test]
fn coverage_summary_switch_and_gate_line() {
    let dir = scratch("cli-coverage-summary");
    let o = dir.display().to_string();
    // A device with a short table (not PCOUNTER's).
    let d = DEVICES[1];
    let run = |extra: &[&str]| {
        let args = [
            &["cosim", "--device", d.name, "--seeds", "1", "--cycles", "2000", "--no-progress", "--out", &o][..],
            extra,
        ]
        .concat();
        let r = pcnt(&args);
        (r.status.code(), text(&r).0)
    };
    let (code, table) = run(&[]);
    assert_eq!(code, Some(0), "{table}");
    let head = format!("coverage (docs/coverage-plan.md, {}; W = waived", d.title);
    assert!(table.contains(&head) && table.contains("gate not applied"), "{table}");
    let (code, summary) = run(&["--coverage", "summary"]);
    assert_eq!(code, Some(0), "{summary}");
    assert!(!summary.contains("W = waived") && summary.contains("non-waived bins hit"), "{summary}");
    assert!(summary.lines().count() < table.lines().count(), "{summary}");
    let (_, gated) = run(&["--coverage", "summary", "--coverage-gate"]);
    assert!(gated.contains("; gate applied (--coverage-gate)"), "{gated}");
}

/// `--junit FILE` on `pcnt script`: a test case per script, failures with
/// the mismatch, for CI that calls pcnt directly (`pcnt cosim --junit`:
/// a device folder's cli.rs).
#[test]
fn junit_xml_from_script() {
    let dir = scratch("cli-junit");
    let o = dir.join("out").display().to_string();
    // Scripts: one passing, one failing its expectation, one malformed.
    let (good, bad, broken) = (dir.join("good.pcs"), dir.join("bad.pcs"), dir.join("broken.pcs"));
    fs::write(&good, "domains 1\nwait 5\n").unwrap();
    fs::write(&bad, "domains 1\nread 0xa73c == 0x12345\n").unwrap();
    fs::write(&broken, "domains 1\nwiat 5\n").unwrap();
    let j = dir.join("script.xml");
    let args: Vec<String> = ["script", "--out", &o, "--shrink-secs", "0", "--junit"]
        .iter()
        .map(|s| s.to_string())
        .chain([&j, &good, &bad, &broken].iter().map(|p| p.display().to_string()))
        .collect();
    let r = pcnt(&args.iter().map(String::as_str).collect::<Vec<_>>());
    assert_eq!(r.status.code(), Some(2), "{}", text(&r).1);
    let doc = fs::read_to_string(&j).unwrap();
    assert!(doc.contains("<testsuite name=\"pcnt script\" tests=\"3\" failures=\"2\""), "{doc}");
    assert!(doc.contains("<failure message=\"malformed script\">"), "{doc}");
}

/// `--wave`: VCD up to `FST_ABOVE_WINDOW` cycles of window, FST above,
/// either when asked; only the chosen file is left beside `wave.gtkw`,
/// which names it; the repro keeps an explicit choice; `--help` states the
/// limit the code uses.
#[test]
fn wave_format_follows_the_window_or_the_option() {
    use pcounter_sim::engine::artifacts::FST_ABOVE_WINDOW;
    let dir = scratch("cli-wave-format");
    let script = dir.join("fail.pcs");
    fs::write(&script, "domains 1\nwait 3\nread 0xa73c == 0x12345\n").unwrap();
    let s = script.display().to_string();
    let (limit, above) = (FST_ABOVE_WINDOW.to_string(), (FST_ABOVE_WINDOW + 1).to_string());
    let cases: [(&[&str], &str); 4] = [
        (&["--window", &limit], "wave.vcd"),
        (&["--window", &above], "wave.fst"),
        (&["--window", &above, "--wave", "vcd"], "wave.vcd"),
        (&["--window", "10", "--wave", "fst"], "wave.fst"),
    ];
    for (i, (args, file)) in cases.iter().enumerate() {
        let out = dir.join(format!("o{i}")).display().to_string();
        let a = [&["script", &s, "--out", &out, "--shrink-secs", "0"][..], args].concat();
        let r = pcnt(&a);
        assert_eq!(r.status.code(), Some(1), "{a:?}: {}", text(&r).1);
        let fail = dir.join(format!("o{i}/fail-script-fail"));
        let other = if *file == "wave.vcd" { "wave.fst" } else { "wave.vcd" };
        assert!(fail.join(file).is_file() && !fail.join(other).exists(), "{a:?}: {}", fail.display());
        let gtkw = fs::read_to_string(fail.join("wave.gtkw")).unwrap();
        assert!(gtkw.contains(&format!("[dumpfile] \"{file}\"")), "{a:?}: {gtkw}");
        let repro = fs::read_to_string(fail.join("repro.txt")).unwrap();
        assert_eq!(repro.contains("--wave"), args.contains(&"--wave"), "{a:?}: {repro}");
    }
    let (help, _) = text(&pcnt(&["cosim", "--help"]));
    assert!(help.contains(&format!("vcd up to a {FST_ABOVE_WINDOW}-cycle window, fst above")), "{help}");
}
