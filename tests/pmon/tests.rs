//! The PMON box's own tests (a module of tests/devices.rs, found there by
//! its folder): the model's tables, the lockstep runs and the proofs (its
//! command line is checked with every device's, tests/guarantees.rs).

#[path = "formal.rs"]
mod formal;
#[path = "lockstep.rs"]
mod lockstep;
#[path = "model.rs"]
mod model;
