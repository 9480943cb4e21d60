//! The PMON box (seed 001, issue 14) in the lockstep flow: its Verilated
//! RTL (`ffi`), commands and scripts (`cmd`), random stimulus (`stim`), the
//! lockstep compare (`lockstep`), coverage (`bins`) and the regression and
//! script runs (`runner`), and its `pcnt bench` rows (`bench`).

pub mod bench;
pub mod bins;
pub mod cmd;
pub mod ffi;
pub mod lockstep;
pub mod runner;
pub mod stim;
