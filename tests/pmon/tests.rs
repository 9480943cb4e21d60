//! The PMON box's own tests (a module of tests/devices.rs, found there by
//! its folder): the model's tables, the lockstep runs
//! and the command line.

#[path = "cli.rs"]
mod cli;
#[path = "lockstep.rs"]
mod lockstep;
#[path = "model.rs"]
mod model;
