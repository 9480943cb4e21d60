//! The PMON device model (issue 14): an Intel uncore performance-monitoring
//! box, seed 001 (`001_d7d82475aca0a06f.txt`, the counter control registers
//! of Intel UG 817760 5.4.7) with the box registers of UG 817760 5.4.5..5.4.8.
//! Every cycle-level decision is docs/semantics.md P1..P14, cited by section.
//!
//! Structured like `rtl/pmon/`: `counter` is `pmon_counter.sv` (one counter,
//! its control registers, the increment pipeline), `unit` is `pmon_box.sv`
//! (box control/status, the bus front-end; Intel calls the box a "unit",
//! and `box` is a Rust keyword). `regs` is the register map (generated from regmap/pmon.rdl). No I/O here.

pub mod counter;
// Generated from regmap/pmon.rdl by tools/regmap.py (`make regmap`), which
// `make check-regmap` compares byte for byte: rustfmt must leave it alone.
#[rustfmt::skip]
pub mod regs;
pub mod unit;

pub use counter::{default_sub_events, CounterState, Events, Step, SubEvents};
pub use unit::{InputError, PmonBox, PmonConfig, PmonConfigError, PmonInputs};
