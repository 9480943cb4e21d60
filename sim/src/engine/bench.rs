//! The rows a device adds to the bench table (`make bench`): one stimulus
//! replayed in four modes (model alone, RTL alone with no compare, lockstep
//! with the full per-cycle compare, lockstep with tracing on), timed, and
//! printed in the columns of the main table, then the two ratios.

use std::path::Path;
use std::time::Instant;

use super::device::Lockstep;

/// (cycles, seconds) of replaying `cmds` on the fresh run `l` (tracing to
/// `trace` when given); `who` names the device in a mismatch message.
pub fn replay<L: Lockstep>(mut l: L, cmds: &[L::Cmd], trace: Option<&Path>, who: &str) -> Result<(u64, f64), String> {
    if let Some(p) = trace {
        l.start_trace(p)?;
    }
    let t0 = Instant::now();
    for c in cmds {
        l.exec_cmd(c).map_err(|m| format!("{who} mismatch during the benchmark:\n{m}"))?;
    }
    let secs = t0.elapsed().as_secs_f64();
    // Outside the timed loop, as in the main table: closing the RTL's VCD
    // and handing back the in-memory record.
    l.take_trace();
    Ok((l.cycles(), secs))
}

/// Print the four rows of `label`; `run(model, rtl, trace)` replays the
/// device's stimulus with those sides (see [`replay`]). The tracing run
/// writes `vcd`, removed afterwards.
pub fn rows(
    label: &str,
    vcd: &Path,
    mut run: impl FnMut(bool, bool, Option<&Path>) -> Result<(u64, f64), String>,
) -> Result<(), String> {
    let mut rate = [0f64; 4];
    for (k, (mode, model, rtl, trace)) in [
        ("model alone", true, false, None),
        ("RTL alone", false, true, None),
        ("lockstep (full compare)", true, true, None),
        ("lockstep + tracing", true, true, Some(vcd)),
    ]
    .into_iter()
    .enumerate()
    {
        let (c, secs) = run(model, rtl, trace)?;
        rate[k] = c as f64 / secs;
        println!("{:<32} {:<26} {:>12.0} {:>16.0} {:>9.2}", label, mode, rate[k], rate[k], secs);
    }
    println!(
        "{:<32} lockstep / RTL alone = {:.2}, tracing on / off = {:.2}",
        label,
        rate[2] / rate[1],
        rate[3] / rate[2]
    );
    let _ = std::fs::remove_file(vcd);
    Ok(())
}
