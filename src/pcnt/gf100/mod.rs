//! The GF100+ PCOUNTER (seed 003 "GF100"; docs/design/gf100.md): hub, GPC
//! and partition domain sets in the 0x180000 window.

pub mod config;
