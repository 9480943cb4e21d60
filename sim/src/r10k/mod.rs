//! The MIPS R10000/R12000 event counters (seed 002, issue 17) in the
//! lockstep flow: their Verilated RTL (`ffi`), commands and scripts
//! (`cmd`), random stimulus (`stim`), the lockstep compare (`lockstep`),
//! coverage (`bins`), the regression and script runs (`runner`), and the
//! `pcnt bench` rows (`bench`).

pub mod bench;
pub mod bins;
pub mod cmd;
pub mod ffi;
pub mod lockstep;
pub mod runner;
pub mod stim;
