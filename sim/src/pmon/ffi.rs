//! The Verilated `pmon_box` configurations linked in by build.rs (its
//! device manifest), behind a safe wrapper (`engine::verilated`). One `cycle` call per bus clock
//! (csrc/pmon_shim.cpp); the shim also returns every MMIO-visible register
//! as the RTL holds it, read from the flops.

use crate::engine::verilated;

/// Counters the shim's records have room for (P2: the map's maximum).
pub const MAX_COUNTERS: usize = 8;

/// Input record of `pmon_<config>_cycle`; layout shared with the shim.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct In {
    pub rst_n: u32,
    pub psel: u32,
    pub penable: u32,
    pub pwrite: u32,
    pub paddr: u32,
    pub pwdata: u32,
    pub pstrb: u32,
    pub freeze: u32,
    /// `event_i` as 32-bit words, bit 0 of word 0 first.
    pub events: *const u32,
}

/// Output record: the port outputs and the register views of cycle t
/// (sampled before the rising edge).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Out {
    pub prdata: u32,
    pub pready: u32,
    pub pslverr: u32,
    pub ovf: u32,
    pub freeze: u32,
    pub status: u32,
    /// GSTS_L.UnitBlock_Ov (P9).
    pub gsts: u32,
    pub num_counters: u32,
    pub ctl0: [u32; MAX_COUNTERS],
    pub ctl1: [u32; MAX_COUNTERS],
    pub data_lo: [u32; MAX_COUNTERS],
    pub data_hi: [u32; MAX_COUNTERS],
}

/// A PMON build (sim/build.rs `pmon_models.rs`).
pub type DevFns = verilated::DevFns<In, Out>;

include!(concat!(env!("OUT_DIR"), "/pmon_models.rs"));

/// Injected-fault builds of PMON (tests/pmon/faults/).
pub fn faults() -> Vec<&'static str> {
    verilated::faults(MODELS)
}

/// One instance of a Verilated PMON build.
pub type Rtl = verilated::Model<In, Out>;

/// The default build, or the build with the injected fault `fault`.
pub fn rtl(fault: Option<&str>, x_seed: u32) -> Result<Rtl, String> {
    Ok(Rtl::open(verilated::find(MODELS, "PMON", fault, None)?, x_seed))
}
