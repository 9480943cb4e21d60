//! `make formal` (tools/formal.py, tests/formal/*.sby): the proofs cover
//! every assertion macro use of rtl/, and they can fail.

mod common;

use std::fs;

use common::root;

/// Every assertion macro use of rtl/ (file, name), in file order.
fn macro_uses() -> Vec<(String, String)> {
    let mut files: Vec<_> = fs::read_dir(root().join("rtl"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|d| d.is_dir())
        .flat_map(|d| fs::read_dir(d).unwrap())
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
