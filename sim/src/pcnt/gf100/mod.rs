//! The GF100+ PCOUNTER in the lockstep flow (docs/design/gf100.md): its
//! Verilated top, the lockstep engine over the same script commands, the
//! coverage bins and the script runner. `gen gf100` picks it.

pub mod bench;
pub mod bins;
pub mod ffi;
pub mod lockstep;
pub mod runner;
pub mod stim;
