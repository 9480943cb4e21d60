//! The R10K rows of `pcnt bench` / `make bench`: the R12000 unit on one
//! pre-generated random stimulus, replayed in the same four modes and
//! printed in the same columns as every device's rows: model alone,
//! RTL alone (no model, no compare), lockstep with the full per-cycle
//! compare, and lockstep with tracing on. The timing and the printing are
//! the engine's (`engine::bench`).

use std::path::Path;

use pcounter::r10k::Variant;

use super::lockstep::{R10kLockstep, X_SEED};
use super::runner::cmds_through;
use super::stim::RandomStim;
use crate::engine::bench;

const LABEL: &str = "R12000 event counters";

/// Print the R10K rows under PCOUNTER's header; `out` holds the trace file
/// of the tracing run.
pub fn rows(table: &mut bench::Table, seed: u64, cycles: u64, out: &Path) -> Result<(), String> {
    if !table.wants(LABEL) {
        return Ok(());
    }
    let cmds = cmds_through(RandomStim::new(seed, Variant::R12000), cycles);
    bench::rows(table, LABEL, &out.join("bench-r10k-trace.vcd"), |model, rtl, trace| {
        let mut l = R10kLockstep::new(Variant::R12000, rtl, None, X_SEED)?;
        l.model_on = model;
        bench::replay(l, &cmds, trace, "R10K")
    })
}
