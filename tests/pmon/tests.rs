//! The PMON box's own tests (a module of tests/devices.rs, found there by
//! its folder): the model's tables, the lockstep runs,
//! the command line and the proofs.

#[path = "cli.rs"]
mod cli;
#[path = "formal.rs"]
mod formal;
#[path = "lockstep.rs"]
mod lockstep;
#[path = "model.rs"]
mod model;
