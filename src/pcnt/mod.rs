//! The PCOUNTER device model (seed 003): register map (generated from
//! `regmap/pcounter.rdl`), configuration, domains (a register shell around
//! the layout-free counting engine, `dom_core`), record mode and the domain
//! set with its bus front-end (`top`); files named after the RTL units they
//! mirror; `gf100` the GF100+ PCOUNTER.

pub mod config;
pub mod counter;
pub mod dom_core;
pub mod domain;
pub mod gf100;
pub mod logic_op;
pub mod record;
#[rustfmt::skip]
pub mod regs;
pub mod top;
