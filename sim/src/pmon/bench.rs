//! The PMON rows of `pcnt bench` / `make bench`: the default box (4
//! counters) on one pre-generated random stimulus, replayed in the same four
//! modes and printed in the same columns as PCOUNTER's table
//! (`pcnt::bench`): model alone, RTL alone (no model, no compare), lockstep
//! with the full per-cycle compare, and lockstep with tracing on. The
//! timing and the printing are the engine's (`engine::bench`).

use std::path::Path;

use super::lockstep::{PmonLockstep, X_SEED};
use super::runner::cmds_through;
use super::stim::RandomStim;
use crate::engine::bench;

const LABEL: &str = "PMON box, 4 counters";

/// Print the PMON rows under PCOUNTER's header; `out` holds the trace file
/// of the tracing run.
pub fn rows(table: &mut bench::Table, seed: u64, cycles: u64, out: &Path) -> Result<(), String> {
    if !table.wants(LABEL) {
        return Ok(());
    }
    let cmds = cmds_through(RandomStim::new(seed), cycles);
    bench::rows(table, LABEL, &out.join("bench-pmon-trace.vcd"), |model, rtl, trace| {
        let mut l = PmonLockstep::new(rtl, None, X_SEED)?;
        l.model_on = model;
        bench::replay(l, &cmds, trace, "PMON")
    })
}
