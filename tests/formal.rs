//! `make formal` (tools/formal.py, tests/formal/*.sby): the proofs cover
//! every assertion macro use of rtl/, and they can fail.

mod common;

use std::fs;
use std::path::Path;
use std::process::Command;

use common::{root, scratch};

/// Every assertion macro use of rtl/ (file, name), in file order.
fn macro_uses() -> Vec<(String, String)> {
    let mut files: Vec<_> = ["pcnt", "pmon", "r10k", "common"]
        .iter()
        .flat_map(|d| fs::read_dir(root().join("rtl").join(d)).unwrap())
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "sv"))
        .collect();
    files.sort();
    let mut uses = Vec::new();
    for f in files {
        let text = fs::read_to_string(&f).unwrap();
        for (i, _) in text.match_indices("`PRIM_ASS") {
            let rest = &text[i + 1..];
            let open = rest.find('(').unwrap();
            let name = rest[open + 1..].split(',').next().unwrap().trim().to_string();
            let rel = f.strip_prefix(root()).unwrap().to_string_lossy().into_owned();
            uses.push((rel, name));
        }
    }
    uses
}

/// docs/formal.md (written by `make formal`) has one row per macro use,
/// each proven (k-induction) or bounded at 24 cycles or more, every
/// implication's antecedent reached, and the summary line with 0 failed.
#[test]
fn formal_doc_lists_every_assertion_proven() {
    let doc = fs::read_to_string(root().join("docs/formal.md")).unwrap();
    let rows: Vec<(String, String, String)> = doc
        .lines()
        .filter(|l| l.starts_with("| rtl/"))
        .map(|l| {
            let c: Vec<&str> = l.split(" | ").collect();
            (c[0].trim_start_matches("| ").to_string(), c[1].to_string(), l.to_string())
        })
        .collect();
    let uses = macro_uses();
    let listed: Vec<(String, String)> = rows.iter().map(|(f, n, _)| (f.clone(), n.clone())).collect();
    let (mut a, mut b) = (uses.clone(), listed.clone());
    a.sort();
    b.sort();
    assert_eq!(a, b, "docs/formal.md is stale: run `make formal` (macro uses vs rows)");
    assert!(uses.len() >= 37, "{} assertion macro uses", uses.len());
    for (_, _, row) in &rows {
        if row.contains("| assume ") {
            assert!(row.contains("asserted in every lockstep build"), "{row}");
            continue;
        }
        let result = row.split(" | ").nth(3).unwrap();
        for per_top in result.split("; ") {
            let r = per_top.split(": ").nth(1).unwrap_or("");
            let bounded_enough =
                r.strip_prefix("bounded at ").and_then(|n| n.parse::<u32>().ok()).is_some_and(|n| n >= 24);
            assert!(r == "proven" || bounded_enough, "{row}");
        }
        assert!(!row.contains("UNREACHED"), "{row}");
    }
    let summary = doc.lines().rev().find(|l| l.starts_with("`formal: ")).unwrap();
    assert!(summary.ends_with(", 0 failed`"), "{summary}");
}

/// Copies `from` into `to` (files only, recursively).
fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            fs::copy(&p, &dest).unwrap();
        }
    }
}

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
