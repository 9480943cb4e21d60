//! The PMON box's proofs (tools/formal.py, tools/equiv.py): a wrong
//! assertion of its RTL fails its proof, named.

use std::fs;
use std::process::Command;

use crate::common::{copy_tree, root, scratch};

/// A wrong assertion fails its proof, named: PMON's P7 assertion made to
/// claim Cntr_Rst leaves the counter at 1, on a copy of the tree.
#[test]
fn a_wrong_assertion_fails_its_proof() {
    let tree = scratch("formal-wrong");
    copy_tree(&root().join("rtl"), &tree.join("rtl"));
    copy_tree(&root().join("tests/formal"), &tree.join("tests/formal"));
    let f = tree.join("rtl/pmon/pmon_counter.sv");
    let text = fs::read_to_string(&f).unwrap();
    let (right, wrong) = ("data_q == '0)", "data_q == 48'd1)");
    assert_eq!(text.matches(right).count(), 1, "the P7 assertion's consequent moved");
    fs::write(&f, text.replace(right, wrong)).unwrap();
    let python = root().join(".venv/bin/python");
    assert!(python.exists(), "no .venv: `make venv` installs the formal tools (make test does)");
    let out = Command::new(python)
        .arg(root().join("tools/formal.py"))
        .args(["--only", "pmon", "--root"])
        .arg(&tree)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}{}", String::from_utf8_lossy(&out.stderr));
    let row = text.lines().find(|l| l.contains("| CntrRstDropsIncrement_A |")).unwrap_or_else(|| panic!("{text}"));
    assert!(row.contains("pmon box: failed"), "{row}");
    // The others of that top are bounded where the solver stopped.
    let others = text.lines().filter(|l| l.contains("| pmon box: ")).count() - 1;
    let summary = text.lines().last().unwrap_or("");
    assert!(
        summary.starts_with(&format!("formal: 0 proven, {others} bounded")) && summary.ends_with(", 1 failed"),
        "{text}"
    );
}
