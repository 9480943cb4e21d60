//! The R10K device model (issue 17): the event counters of the MIPS R10000
//! and R12000, seed 002 (`002_402b4141d12f561e.clean.txt`, the IRIX man
//! page r10k_evcntrs(5)). Every cycle-level decision is docs/semantics.md
//! R1..R13, cited by section.
//!
//! Structured like `rtl/r10k/`: `counter` is `r10k_counter.sv` (one
//! counter: control register, count, mode match, event select), `unit` is
//! `r10k_perf.sv` (the two counters, the bus window, the interrupt), `regs`
//! the register map (generated from regmap/r10k.rdl, like
//! `rtl/r10k/r10k_reg_pkg.sv`), `events` the event lists (hand-written:
//! source select, cycle sources, per-cycle maxima). No I/O here.

pub mod counter;
pub mod events;
pub mod regs;
pub mod unit;

pub use counter::{CounterState, Mode};
pub use regs::Variant;
pub use unit::{InputError, R10kInputs, R10kUnit};
