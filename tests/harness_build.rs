//! The harness builds the RTL with warnings fatal: a parameter set that one of
//! pcnt_top's checks (`$error` in a generate block) rejects must fail that
//! build, not run. Verilator reports those checks as USERERROR warnings, so
//! with `-Wno-fatal` (the harness's options before issue 13) each bad set
//! below built and a mutant breaking a check survived every lockstep run.
//!
//! The options come from build.rs itself (`ffi::VERILATOR_ARGS`, generated),
//! so this test runs exactly what the harness runs, on pcnt.f's file list.

use std::process::Command;

use pcounter_sim::ffi::{VERILATOR_ARGS, VERILATOR_WAIVERS};

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
    let out = Command::new(std::env::var("VERILATOR").unwrap_or_else(|_| "verilator".into()))
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

/// `make mutate` judges mutants with the harness's own options (it reads
/// them from build.rs) and keeps its kill categories apart: only lockstep
/// kills enter the lockstep score (a lint or build rejection, a crash and a
/// timeout ran no comparison to the end).
#[test]
fn mutate_uses_harness_flags_and_honest_figures() {
    let code = "import sys; sys.path.insert(0, 'tools'); import mutate\n\
                print(' '.join(mutate.harness_args()))\n\
                c = dict(lockstep=3, survived=1, build=1, lint=5, crashed=1, timeout=2)\n\
                print(mutate.figures(c))";
    let out = Command::new("python3").current_dir(root()).args(["-B", "-c", code]).output().expect("run python3");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8_lossy(&out.stdout);
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some(VERILATOR_ARGS.join(" ").as_str()), "tools/mutate.py reads other options");
    // ran = 3 + 1, score 3/4; caught 1 + 5 + 3 + 1 + 2 = 12 of 13.
    assert_eq!(lines.next(), Some("(4, 75.0, 12, 13, 92.3076923076923)"), "{text}");
}
