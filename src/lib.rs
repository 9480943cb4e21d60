//! Bit-exact reference model of NVIDIA's PCOUNTER performance-counter engine,
//! NV10:GF100, both register layouts (seed 003 `003_849838cf80f3218e.txt`).
//!
//! The model is structured like the RTL in `rtl/`: per domain a state struct
//! (`DomainState`, the `_q` registers; its counting core is
//! `pcnt::dom_core::EngineState`) and a step function that computes the whole next
//! state from the current state and the cycle's inputs, then commits it
//! (`_d` -> `_q`). Every cycle-level decision is taken from
//! `docs/semantics.md` and cited by section (S1..). No I/O here: the harness,
//! the CLI and the scenario scripts live in `sim/`.

//!
//! Layout: `pcnt/` is the PCOUNTER device, `pmon/` the Intel uncore PMON
//! box (issue 14, docs/semantics.md P1..), `r10k/` the MIPS R10000/R12000
//! event counters (issue 17, R1..), `common/` the cells a device
//! shares (the pulse synchronizer, the bus types). No re-exports: a path
//! names its device (`pcounter::pcnt::regs`).

pub mod common;
pub mod pcnt;
pub mod pmon;
pub mod r10k;
