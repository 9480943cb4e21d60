//! Verilator lockstep harness: RTL and model driven in lockstep, compared
//! every cycle, with scenario scripts, coverage and failure artifacts.
//!
//! `engine/` knows no device: declared coverage (`coverage`), shrinking a
//! failing stimulus (`shrink`), waves (`wave`: VCD merge, GTKWave save
//! files), results files of sharded regressions (`results`). `merge` is
//! `pcnt merge` over every device's results files. `pcnt/` is the PCOUNTER device: its Verilated RTL (`ffi`), random
//! stimulus (`stim`), scenario scripts (`script`), the lockstep engine and
//! its compare and bins (`lockstep`), regression and failure handling
//! (`runner`), the record memory (`axi_mem`), `dump`, `mmiotrace`, `bench`.
//! No re-exports: a path names its device (`pcounter_sim::pcnt::runner`).

pub mod bench;
pub mod devices;
pub mod engine;
pub mod merge;
pub mod pcnt;
pub mod pmon;
pub mod r10k;
