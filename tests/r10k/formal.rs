//! The R10000/R12000 counters' proofs (tools/equiv.py): RTL = netlist,
//! and an edited cell breaks it.

use std::fs;
use std::process::Command;

use crate::common::{root, scratch};

/// RTL = netlist (tools/equiv.py): the R10000 top's netlist before
/// technology mapping is proven equivalent to its RTL, and the same
/// netlist with one cell edited (counter 1's adder made to subtract: its
/// B input inverted) is not: ABC finds a counterexample. `make formal` checks every top.
#[test]
fn an_edited_cell_breaks_rtl_netlist_equivalence() {
    let python = root().join(".venv/bin/python");
    assert!(python.exists(), "no .venv: `make venv` installs the formal tools (make test does)");
    let equiv = |extra: &[&str]| {
        let out = Command::new(&python)
            .arg(root().join("tools/equiv.py"))
            .args(["--only", "r10000"])
            .args(extra)
            .output()
            .unwrap();
        (out.status.code(), String::from_utf8_lossy(&out.stdout).into_owned())
    };
    let (code, text) = equiv(&[]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("equiv: r10000 (r10k_perf): equivalent: ABC dprove: networks are equivalent"), "{text}");
    let netlist = fs::read_to_string(root().join("target/equiv/r10000.gate.il")).unwrap();
    let at = netlist.find("cell $alu ").expect("an $alu cell in the netlist");
    let bi = at + netlist[at..].find("connect \\BI 1'0").expect("the adder's BI input");
    let edited = format!("{}connect \\BI 1'1{}", &netlist[..bi], &netlist[bi + "connect \\BI 1'0".len()..]);
    let path = scratch("equiv-edited").join("r10000.edited.il");
    fs::write(&path, edited).unwrap();
    let (code, text) = equiv(&["--gate", &path.display().to_string()]);
    assert_eq!(code, Some(1), "{text}");
    assert!(
        text.contains(
            "r10000 (r10k_perf): NOT PROVEN: ABC dprove: NOT EQUIVALENT (counterexample: the outputs differ in cycle"
        ) && text.contains("equiv: 0 of 1 tops equivalent"),
        "{text}"
    );
}
