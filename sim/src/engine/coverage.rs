//! Declared coverage, for any device: named bins with counts, merged by name
//! across runs, jobs and shards, checked against a plan document.
//!
//! A device declares each bin once, as a row of its bin table (name and how
//! it is counted from the device's run counts, in plan order); its plan
//! document has one table row per bin (`| bin | what | waiver |`). This
//! module knows no device: it merges, prints the closure table, writes the
//! JSON and answers the gate.

use std::fs;
use std::path::Path;

/// One declared bin: the name (as in the plan) and how it is counted from a
/// device's run counts `S`. A row may expand to several bins (one per
/// register, say): `count` then yields each with its name.
pub struct BinDecl<S> {
    pub name: &'static str,
    pub count: fn(&S, &mut dyn FnMut(String, u64)),
}

/// Counts of named bins, in declaration order. Serialized into results files
/// (`pcnt cosim --json`) and merged by name, so shards of one regression and
/// runs of different configurations add up.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Coverage {
    pub bins: Vec<(String, u64)>,
}

impl Coverage {
    /// Evaluate a device's bin table on its run counts.
    pub fn of<S>(decls: &[BinDecl<S>], counts: &S) -> Coverage {
        let mut bins = Vec::new();
        for d in decls {
            (d.count)(counts, &mut |name, n| bins.push((name, n)));
        }
        Coverage { bins }
    }

    /// Add `o` bin by bin (by name; a bin only in `o` is appended).
    pub fn merge(&mut self, o: &Coverage) {
        for (name, n) in &o.bins {
            match self.bins.iter_mut().find(|(b, _)| b == name) {
                Some((_, m)) => *m = m.saturating_add(*n),
                None => self.bins.push((name.clone(), *n)),
            }
        }
    }

    pub fn get(&self, name: &str) -> u64 {
        self.bins.iter().find(|(b, _)| b == name).map_or(0, |(_, n)| *n)
    }
}

/// One row of a plan document.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlanRow {
    /// The bin name; ending in `*`, a prefix.
    pub bin: String,
    /// The waiver cell (empty: not waived).
    pub waiver: String,
    /// The "what" cell starts with `reach:`: the bin counts that something
    /// was reached (a register accessed, a generation run), not a behaviour
    /// seen; the closure line counts such bins apart.
    pub reach: bool,
}

/// Rows of a plan document: table rows `| bin | what | waiver |` (a bin name
/// has a dot and no space; it may end in `*`, a prefix).
pub fn plan_rows(plan: &str) -> Vec<PlanRow> {
    plan.lines()
        .filter_map(|l| {
            let cells: Vec<&str> = l.trim().strip_prefix('|')?.split('|').map(str::trim).collect();
            let bin = cells.first()?.trim_matches('`');
            (bin.contains('.') && !bin.contains(' ')).then(|| PlanRow {
                bin: bin.to_string(),
                waiver: cells.get(2).unwrap_or(&"").to_string(),
                reach: cells.get(1).is_some_and(|w| w.starts_with("reach:")),
            })
        })
        .collect()
}

/// The gate's view of a coverage against a plan.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Closure {
    /// Bins with no hit and no waiver.
    pub unhit: Vec<String>,
    /// Counted bins the plan does not list.
    pub unplanned: Vec<String>,
    pub hit: usize,
    /// Bins that count (not waived).
    pub counted: usize,
    /// Of `hit` and `counted`: the reach-only bins ([`PlanRow::reach`]).
    pub reach_hit: usize,
    pub reach_counted: usize,
}

impl Closure {
    pub fn passed(&self) -> bool {
        self.unhit.is_empty() && self.unplanned.is_empty()
    }
}

/// Closure of `cov` against `plan` (`plan_name` names the document in
/// messages): prints the table, writes `json` when given.
pub fn closure(cov: &Coverage, plan: &str, plan_name: &str, json: Option<&Path>) -> Closure {
    closure_shown(cov, plan, plan_name, json, Show { table: true, gate: None })
}

/// How a closure is printed: the bin table or only the summary lines, and
/// whether the gate is applied (`Some`: the summary line says on or off).
#[derive(Clone, Copy, Debug)]
pub struct Show {
    pub table: bool,
    pub gate: Option<bool>,
}

/// [`closure`], printed as `show` says.
pub fn closure_shown(cov: &Coverage, plan: &str, plan_name: &str, json: Option<&Path>, show: Show) -> Closure {
    let rows = plan_rows(plan);
    let row =
        |bin: &str| rows.iter().find(|r| r.bin == bin || r.bin.strip_suffix('*').is_some_and(|p| bin.starts_with(p)));
    let mut c = Closure::default();
    let mut cells = Vec::new();
    for (name, n) in &cov.bins {
        let (waiver, reach) = match row(name) {
            None => {
                c.unplanned.push(name.clone());
                ("", false)
            }
            Some(r) => (r.waiver.as_str(), r.reach),
        };
        let waived = !waiver.is_empty();
        if !waived {
            c.counted += 1;
            c.reach_counted += usize::from(reach);
            if *n > 0 {
                c.hit += 1;
                c.reach_hit += usize::from(reach);
            } else {
                c.unhit.push(name.clone());
            }
        }
        let mark = if waived {
            " W"
        } else if *n == 0 {
            " !"
        } else if reach {
            " r"
        } else {
            "  "
        };
        cells.push(format!("{name:<34}{n:>10}{mark}"));
    }
    if show.table {
        println!("coverage ({plan_name}; W = waived, ! = not hit, r = reach only):");
        for chunk in cells.chunks(3) {
            println!("  {}", chunk.join("  "));
        }
    }
    let gate = match show.gate {
        Some(true) => "; gate applied (--coverage-gate)",
        Some(false) => "; gate not applied (no --coverage-gate)",
        None => "",
    };
    println!(
        "coverage: {}/{} non-waived bins hit ({:.1} % closed): behaviour {}/{}, reach only {}/{}; {} waived{gate}",
        c.hit,
        c.counted,
        100.0 * c.hit as f64 / c.counted.max(1) as f64,
        c.hit - c.reach_hit,
        c.counted - c.reach_counted,
        c.reach_hit,
        c.reach_counted,
        cov.bins.len() - c.counted
    );
    if !c.unhit.is_empty() {
        println!("coverage: not hit: {}", c.unhit.join(", "));
    }
    if !c.unplanned.is_empty() {
        println!("coverage: bins missing from {plan_name}: {}", c.unplanned.join(", "));
    }
    if let Some(p) = json {
        let map: serde_json::Map<String, serde_json::Value> =
            cov.bins.iter().map(|(n, k)| (n.clone(), serde_json::Value::from(*k))).collect();
        let doc = serde_json::json!({
            "bins": map, "hit": c.hit, "counted": c.counted, "unhit": c.unhit,
            "reach_hit": c.reach_hit, "reach_counted": c.reach_counted,
        });
        // A fresh clone has no out/ yet.
        let made = p.parent().map_or(Ok(()), |d| if d.as_os_str().is_empty() { Ok(()) } else { fs::create_dir_all(d) });
        if let Err(e) = made.and_then(|()| fs::write(p, serde_json::to_string_pretty(&doc).unwrap_or_default())) {
            println!("coverage: cannot write {}: {e}", p.display());
        }
    }
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Counts {
        a: u64,
        regs: Vec<u64>,
    }

    const DECLS: [BinDecl<Counts>; 2] = [
        BinDecl { name: "t.a", count: |c, out| out("t.a".into(), c.a) },
        BinDecl {
            name: "t.reg.*",
            count: |c, out| {
                for (i, n) in c.regs.iter().enumerate() {
                    out(format!("t.reg.{i}"), *n);
                }
            },
        },
    ];

    #[test]
    fn declared_bins_merge_by_name() {
        let mut x = Coverage::of(&DECLS, &Counts { a: 1, regs: vec![0, 2] });
        let y = Coverage::of(&DECLS, &Counts { a: 0, regs: vec![3, 0, 4] });
        x.merge(&y);
        assert_eq!(
            x.bins,
            vec![("t.a".into(), 1), ("t.reg.0".into(), 3), ("t.reg.1".into(), 2), ("t.reg.2".into(), 4)]
        );
        assert_eq!(x.get("t.reg.2"), 4);
        assert_eq!(x.get("absent"), 0);
    }

    #[test]
    fn closure_gates_on_unhit_unplanned_and_honours_waivers() {
        let cov = Coverage::of(&DECLS, &Counts { a: 0, regs: vec![1] });
        let plan = "| bin | what | waiver |\n| t.a | a | |\n| t.reg.* | regs | |\n";
        let c = closure(&cov, plan, "plan", None);
        assert_eq!((c.unhit.clone(), c.hit, c.counted), (vec!["t.a".to_string()], 1, 2));
        assert!(!c.passed());
        let waived = plan.replace("| t.a | a | |", "| t.a | a | never reached: reason |");
        assert!(closure(&cov, &waived, "plan", None).passed());
        // A `reach:` row is counted apart (issue 29), hit or not.
        let reach = plan.replace("| t.reg.* | regs |", "| t.reg.* | reach: regs |");
        let c = closure(&cov, &reach, "plan", None);
        assert_eq!((c.hit, c.counted, c.reach_hit, c.reach_counted), (1, 2, 1, 1));
        assert_eq!(plan_rows(&reach).iter().map(|r| r.reach).collect::<Vec<_>>(), [false, true]);
        let c = closure(&cov, "| t.a | a | |", "plan", None);
        assert_eq!(c.unplanned, vec!["t.reg.0".to_string()]);
    }
}
