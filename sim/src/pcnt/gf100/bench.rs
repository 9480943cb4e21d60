//! GF100 rows of `pcnt bench` (docs/design/gf100.md 3.9): the `fermi` (4
//! domains, 4 sets) and `kepler` (18 domains, 5 sets) presets on one
//! pre-generated GF100 random stimulus each (same seed): model alone, RTL
//! alone, lockstep with the full per-cycle compare, lockstep + tracing.

use std::path::Path;
use std::time::Instant;

use crate::engine::device::Lockstep;
use crate::runner::cmds_through;
use crate::script::Cmd;

use super::runner::GfJob;

fn run(job: &GfJob, cmds: &[Cmd], mode: usize, trace_dir: &Path) -> Result<(u64, f64), String> {
    // mode: 0 model alone, 1 RTL alone, 2 lockstep, 3 lockstep + tracing.
    let mut l = job.setup().lockstep(mode != 0)?;
    l.model_on = mode != 1;
    if mode == 3 {
        l.start_trace(&trace_dir.join("bench-trace-gf100.vcd"))?;
    }
    let t0 = Instant::now();
    for c in cmds {
        if let Err(m) = l.exec(c) {
            return Err(format!("mismatch during the benchmark:\n{m}"));
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let _ = l.take_trace();
    Ok((l.cycle, secs))
}

/// Print the GF100 rows, in the table of `crate::bench`.
pub fn rows(seed: u64, cycles: u64, out: &Path) -> Result<(), String> {
    const MODES: [&str; 4] = ["model alone", "RTL alone", "lockstep (full compare)", "lockstep + tracing"];
    for preset in ["fermi", "kepler"] {
        let job = GfJob { seed, preset: preset.into(), cycles, fault: None };
        let domains = job.domains();
        let label = format!("GF100 {preset}, {domains} domains");
        let cmds = cmds_through(job.stimulus(), cycles);
        let mut rate = [0f64; 4];
        for (mode, name) in MODES.iter().enumerate() {
            let (c, secs) = run(&job, &cmds, mode, out)?;
            rate[mode] = c as f64 / secs;
            println!(
                "{:<32} {:<26} {:>12.0} {:>16.0} {:>9.2}",
                label,
                name,
                rate[mode],
                rate[mode] * domains as f64,
                secs
            );
        }
        println!(
            "{:<32} lockstep / RTL alone = {:.2}, tracing on / off = {:.2}",
            label,
            rate[2] / rate[1],
            rate[3] / rate[2]
        );
    }
    let _ = std::fs::remove_file(out.join("bench-trace-gf100.vcd"));
    Ok(())
}
