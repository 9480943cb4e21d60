//! `pcnt merge`: the results files of sharded regressions, grouped by the
//! device each file names, each group checked as one regression
//! (engine::results::merge_device) and given that device's summary and
//! coverage closure. One call may merge the shards of every device
//! of the same `make cosim SHARD=I/N JSON=...` together; it passes when
//! every device's group passes.

use std::fs;
use std::path::PathBuf;

use crate::devices::{Device, DEVICES};
use crate::engine::coverage;
use crate::engine::regress::PLAN_NAME;
use crate::engine::results::{by_device, merge_device, parse_results, Merged, RegressError};

/// `pcnt merge`: combine shard results; fails on a failure, a missing or a
/// duplicated job of any device.
pub fn merge(files: &[PathBuf]) -> Result<u8, RegressError> {
    let mut inputs = Vec::new();
    for f in files {
        let text = fs::read_to_string(f).map_err(|e| RegressError::Io { path: f.clone(), err: e })?;
        inputs.push((f.clone(), text));
    }
    merge_texts(&inputs)
}

/// `merge` on texts already read, `(path, text)` per file: what the fuzz
/// targets and tests feed without touching the file system.
pub fn merge_texts(inputs: &[(PathBuf, String)]) -> Result<u8, RegressError> {
    let mut all = Vec::new();
    for (f, text) in inputs {
        all.push((f.clone(), parse_results(f, text)?));
    }
    if all.is_empty() {
        return Err(RegressError::NoFiles);
    }
    let groups = by_device(all);
    // Every group is checked before anything is printed: an error in one
    // device's files is an error of the whole merge.
    let mut merged = Vec::new();
    for (device, group) in &groups {
        let Some(d) = DEVICES.iter().find(|d| d.name == device) else {
            let known: Vec<&str> = DEVICES.iter().map(|d| d.name).collect();
            let why = format!("unknown device {device:?} (known: {})", known.join(", "));
            return Err(RegressError::Results { path: group[0].0.clone(), why });
        };
        merged.push((d, merge_device(group)?));
    }
    let mut code = 0;
    for (d, m) in &merged {
        code = code.max(report(d, m));
    }
    Ok(code)
}

/// Print one device's merge; 0 when it passed, else 1.
fn report(d: &Device, m: &Merged) -> u8 {
    // PCOUNTER's lines and plan keep their names from before the registry.
    let default = d.name == DEVICES[0].name;
    let label = if default { "merge".to_string() } else { format!("merge {}", d.title) };
    let plan_label = if default { PLAN_NAME.to_string() } else { format!("{PLAN_NAME}, {}", d.title) };
    for j in m.failed() {
        let (what, repro) = j.failure.as_ref().expect("failed job");
        println!("FAILED {}: {what}\n  repro: {repro}", (d.job_label)(j));
    }
    if !m.dup.is_empty() {
        println!("{}: jobs run more than once: {:?}", label, m.dup);
    }
    if !m.missing.is_empty() {
        println!(
            "{}: {} of {} jobs missing (first: {:?})",
            label,
            m.missing.len(),
            m.planned,
            &m.missing[..m.missing.len().min(10)]
        );
    }
    if !m.passed() {
        return 1;
    }
    println!("{}: {} files, all {} jobs of the plan exactly once", label, m.files, m.planned);
    (d.summary)(&m.jobs, m.wall_secs);
    coverage::closure(&m.coverage, &crate::devices::plan(), &plan_label, None);
    0
}
