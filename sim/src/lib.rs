//! Verilator lockstep harness for the PCOUNTER model: the Verilated RTL
//! (`ffi`), constrained-random stimulus (`stim`), scenario scripts
//! (`script`), mmiotrace import (`mmiotrace`), the lockstep engine (`lockstep`), waves (`wave`) and the
//! regression / failure handling (`runner`).

pub mod axi_mem;
pub mod bench;
pub mod coverage;
pub mod dump;
pub mod ffi;
pub mod lockstep;
pub mod mmiotrace;
pub mod runner;
pub mod script;
pub mod shrink;
pub mod stim;
pub mod wave;
