//! The PCOUNTER device in the lockstep flow (seed 003).

pub mod axi_mem;
pub mod bench;
pub mod dump;
pub mod ffi;
pub mod gf100;
pub mod lockstep;
pub mod mmiotrace;
pub mod runner;
pub mod script;
pub mod stim;
