//! The R10K rows of `pcnt bench` / `make bench`: the R12000 unit on one
//! pre-generated random stimulus, replayed in the same four modes and
//! printed in the same columns as PCOUNTER's and PMON's rows: model alone,
//! RTL alone (no model, no compare), lockstep with the full per-cycle
//! compare, and lockstep with tracing on.

use std::path::Path;
use std::time::Instant;

use pcounter::r10k::Variant;

use super::cmd::Cmd;
use super::lockstep::{R10kLockstep, X_SEED};
use super::runner::cmds_through;
use super::stim::RandomStim;
use crate::engine::device::Lockstep;

const LABEL: &str = "R12000 event counters";

/// (cycles, seconds) of one replay; `model`/`rtl` pick the sides.
fn run(cmds: &[Cmd], model: bool, rtl: bool, trace: Option<&Path>) -> Result<(u64, f64), String> {
    let mut l = R10kLockstep::new(Variant::R12000, rtl, None, X_SEED)?;
    l.model_on = model;
    if let Some(p) = trace {
        l.start_trace(p)?;
    }
    let t0 = Instant::now();
    for c in cmds {
        l.exec(c).map_err(|m| format!("R10K mismatch during the benchmark:\n{m}"))?;
    }
    let secs = t0.elapsed().as_secs_f64();
    // Outside the timed loop, as in the other rows.
    l.take_trace();
    Ok((l.cycle, secs))
}

/// Print the R10K rows under PCOUNTER's header; `out` holds the trace file
/// of the tracing run.
pub fn rows(seed: u64, cycles: u64, out: &Path) -> Result<(), String> {
    let cmds = cmds_through(RandomStim::new(seed, Variant::R12000), cycles);
    let vcd = out.join("bench-r10k-trace.vcd");
    let mut rate = [0f64; 4];
    for (k, (mode, model, rtl, trace)) in [
        ("model alone", true, false, None),
        ("RTL alone", false, true, None),
        ("lockstep (full compare)", true, true, None),
        ("lockstep + tracing", true, true, Some(vcd.as_path())),
    ]
    .into_iter()
    .enumerate()
    {
        let (c, secs) = run(&cmds, model, rtl, trace)?;
        rate[k] = c as f64 / secs;
        println!("{:<32} {:<26} {:>12.0} {:>16.0} {:>9.2}", LABEL, mode, rate[k], rate[k], secs);
    }
    println!(
        "{:<32} lockstep / RTL alone = {:.2}, tracing on / off = {:.2}",
        LABEL,
        rate[2] / rate[1],
        rate[3] / rate[2]
    );
    let _ = std::fs::remove_file(&vcd);
    Ok(())
}
