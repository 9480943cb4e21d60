//! PCOUNTER's own tests (a module of tests/devices.rs, found there by its
//! folder): the model's tables (NV10:GT215 and GF100), the lockstep runs
//! and fault injection, the mmiotrace import. Its CSR targets are csr.rs
//! (tests/csr.rs).

#[path = "gf100_lockstep.rs"]
mod gf100_lockstep;
#[path = "gf100_seed_regs.rs"]
mod gf100_seed_regs;
#[path = "lockstep.rs"]
mod lockstep;
#[path = "mmiotrace.rs"]
mod mmiotrace;
#[path = "model.rs"]
mod model;
