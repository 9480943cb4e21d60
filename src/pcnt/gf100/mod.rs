//! The GF100+ PCOUNTER (seed 003 "GF100"; docs/design/gf100.md): hub,
//! per-GPC and per-partition domain sets in the 0x180000 window. Its
//! register map is generated from `regmap/pcounter.rdl` (addrmap
//! `pcounter_gf100`).

pub mod config;
#[rustfmt::skip]
pub mod regs;
