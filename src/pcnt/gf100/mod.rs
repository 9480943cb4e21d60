//! The GF100+ PCOUNTER (seed 003 "GF100"; docs/design/gf100.md): hub,
//! per-GPC and per-partition domain sets in the 0x180000 window. Its
//! register map is generated from `regmap/pcounter.rdl` (addrmap
//! `pcounter_gf100`); `domain` is the GF100 register shell around the
//! counting engine, `top` the whole unit with its APB front-end.

pub mod config;
pub mod domain;
#[rustfmt::skip]
pub mod regs;
#[cfg(test)]
mod tests;
pub mod top;

pub use config::{DomPlace, GfConfig, GfConfigError, SetKind};
pub use domain::{GfDomain, GfDomainInputs};
pub use top::{Gf100Pcounter, GfBusOp, GfCycleInputs, GfTarget};
