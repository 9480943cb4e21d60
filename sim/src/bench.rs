//! `pcnt bench` / `make bench`: the throughput table of every device, one
//! pre-generated stimulus (same seed, same length) per configuration, same
//! columns: every device of the registry (`devices::DEVICES`, each its
//! `bench_rows`), then PCOUNTER's figures against the targets of issue 33
//! (exit status 1 when one is missed). A dedicated command rather than a timed test: it is
//! never part of `make test`.

use std::path::Path;

pub use crate::engine::bench::{Mode, Table};

/// Peak resident memory of this process (Linux), in MiB.
fn peak_mib() -> Option<f64> {
    let s = std::fs::read_to_string("/proc/self/status").ok()?;
    let kb: f64 = s.lines().find(|l| l.starts_with("VmHWM:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

/// Print the table of the rows `table` selects; `out` holds the trace files
/// of the tracing runs.
pub fn bench(table: &mut Table, seed: u64, cycles: u64, out: &Path) -> Result<usize, String> {
    std::fs::create_dir_all(out).map_err(|e| format!("{}: {e}", out.display()))?;
    println!(
        "bench: seed {seed}, {cycles} cycles per run, PCOUNTER ({}) on GT215, NV20 and GF100 (fermi, kepler), \
         then every other device ({}); one pre-generated stimulus per configuration",
        crate::pcnt::bench::BUILT_ON,
        crate::devices::DEVICES[1..].iter().map(|d| d.title).collect::<Vec<_>>().join(", ")
    );
    println!("{:<32} {:<26} {:>12} {:>16} {:>9}", "configuration", "mode", "cycles/s", "domain-cycles/s", "seconds");
    for d in crate::devices::DEVICES {
        (d.bench_rows)(table, seed, cycles, out)?;
    }
    if table.measured.is_empty() {
        return Err("bench: --only matched no configuration".into());
    }
    let missed = crate::pcnt::bench::targets(table);
    match peak_mib() {
        Some(m) => println!("peak memory (resident, whole process): {m:.0} MiB"),
        None => println!("peak memory: not available on this system"),
    }
    Ok(missed)
}
