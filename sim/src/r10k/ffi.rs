//! The Verilated `r10k_perf` configurations linked in by build.rs (its
//! device manifest: one per variant, plus the R10K faults),
//! behind a safe wrapper. One `cycle` call per bus clock
//! (csrc/r10k_shim.cpp); the shim also returns both counters' registers as
//! the RTL holds them, read from the flops.

use pcounter::r10k::Variant;

use crate::engine::verilated;

/// Counters of the unit (seed: two).
pub const COUNTERS: usize = 2;

/// Input record of `r10k_<config>_cycle`; layout shared with the shim.
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
    pub ksu: u32,
    pub exl: u32,
    pub erl: u32,
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
    pub irq: u32,
    pub num_counters: u32,
    pub ctl: [u32; COUNTERS],
    pub cnt: [u32; COUNTERS],
}

/// An R10K build (sim/build.rs `r10k_models.rs`).
pub type DevFns = verilated::DevFns<In, Out>;

include!(concat!(env!("OUT_DIR"), "/r10k_models.rs"));

/// Injected-fault builds of the R10K unit (tests/r10k/faults/).
pub fn faults() -> Vec<&'static str> {
    verilated::faults(MODELS)
}

/// The variant a fault build is made of (its `config:`, default the
/// R10000; sim/build.rs), or None for an unknown fault.
pub fn fault_variant(fault: &str) -> Option<Variant> {
    MODELS.iter().find(|m| m.fault == Some(fault)).and_then(|m| Variant::from_name(m.base))
}

/// One instance of a Verilated R10K build.
pub type Rtl = verilated::Model<In, Out>;

/// The build of `variant`, or the build with the injected fault `fault`
/// (which must then be of that variant).
pub fn rtl(variant: Variant, fault: Option<&str>, x_seed: u32) -> Result<Rtl, String> {
    if let Some(built) = fault.and_then(fault_variant).filter(|v| *v != variant) {
        let f = fault.unwrap_or_default();
        return Err(format!("R10K: fault {f} is built as an {}, not an {}", built.name(), variant.name()));
    }
    Ok(Rtl::open(verilated::find(MODELS, "R10K", fault, Some(variant.name()))?, x_seed))
}
