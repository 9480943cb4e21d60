//! The GF100+ PCOUNTER (docs/design/gf100.md): hub, per-GPC and
//! per-partition domain sets in the 0x180000 window. So far only its
//! register map, generated from `regmap/pcounter.rdl` (addrmap
//! `pcounter_gf100`); no generation uses it yet.

#[rustfmt::skip]
pub mod regs;
