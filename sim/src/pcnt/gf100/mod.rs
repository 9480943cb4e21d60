//! The GF100+ PCOUNTER in the lockstep flow (docs/design/gf100.md): its
//! Verilated top, the lockstep engine over the same script commands, the
//! coverage bins and the random stimulus; its script runs and regression
//! jobs are in `runner::gf100`. `gen gf100` picks it.

pub mod bins;
pub mod ffi;
pub mod lockstep;
pub mod stim;
