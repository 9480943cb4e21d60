//! The Verilated `r10k_perf` configurations linked in by build.rs (its
//! `DEVICES` table: one per variant, plus the `device: r10k` faults),
//! behind a safe wrapper. One `cycle` call per bus clock
//! (csrc/r10k_shim.cpp); the shim also returns both counters' registers as
//! the RTL holds them, read from the flops.

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::Path;

use crate::engine::assertion::Assertion;

use pcounter::r10k::Variant;

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

pub struct DevFns {
    /// Configuration (`r10000`, `r12000`) or fault build (`f_<fault>`).
    pub name: &'static str,
    /// The configuration it is built on (a fault build's `config:`, or
    /// the device's fault configuration).
    pub base: &'static str,
    pub fault: Option<&'static str>,
    new: unsafe extern "C" fn(u32) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    cycle: unsafe extern "C" fn(*mut c_void, *const In, *mut Out) -> c_int,
    trace_open: unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int,
    trace_close: unsafe extern "C" fn(*mut c_void),
}

include!(concat!(env!("OUT_DIR"), "/r10k_models.rs"));

/// Injected-fault builds of the R10K unit (tests/r10k/faults/).
pub fn faults() -> Vec<&'static str> {
    MODELS.iter().filter_map(|m| m.fault).collect()
}

/// The variant a fault build is made of (its `config:`, default the
/// R10000; sim/build.rs), or None for an unknown fault.
pub fn fault_variant(fault: &str) -> Option<Variant> {
    MODELS.iter().find(|m| m.fault == Some(fault)).and_then(|m| Variant::from_name(m.base))
}

/// One instance of a Verilated R10K build.
pub struct Rtl {
    fns: &'static DevFns,
    ctx: *mut c_void,
    pub out: Out,
}

impl Rtl {
    /// The build of `variant`, or the build with the injected fault `fault`
    /// (which must then be of that variant).
    pub fn new(variant: Variant, fault: Option<&str>, x_seed: u32) -> Result<Rtl, String> {
        let fns = match fault {
            Some(f) if fault_variant(f).is_some_and(|v| v != variant) => {
                let built = fault_variant(f).expect("checked").name();
                return Err(format!("R10K: fault {f} is built as an {built}, not an {}", variant.name()));
            }
            Some(f) => MODELS
                .iter()
                .find(|m| m.fault == Some(f))
                .ok_or_else(|| format!("R10K: no build with fault {f} (R10K faults: {})", faults().join(", ")))?,
            None => MODELS
                .iter()
                .find(|m| m.fault.is_none() && m.name == variant.name())
                .ok_or_else(|| format!("R10K: no {} build linked in", variant.name()))?,
        };
        // SAFETY: `new` returns a fresh model owned by this wrapper.
        let ctx = unsafe { (fns.new)(x_seed) };
        Ok(Rtl { fns, ctx, out: Out::default() })
    }

    pub fn name(&self) -> &'static str {
        self.fns.name
    }

    /// One bus clock; `self.out` holds the outputs of this cycle.
    /// The assertion that failed at this clock's edge, if one did.
    #[must_use]
    pub fn cycle(&mut self, i: &In) -> Option<Assertion> {
        // SAFETY: `ctx` is live; `i.events` points at enough words for
        // event_i (the caller's array outlives the call); `out` is repr(C).
        let fired = unsafe { (self.fns.cycle)(self.ctx, i, &mut self.out) };
        (fired != 0).then(Assertion::take)
    }

    pub fn trace_open(&mut self, path: &Path) -> Result<(), String> {
        let c = CString::new(path.to_string_lossy().as_bytes()).map_err(|e| e.to_string())?;
        // SAFETY: live ctx, NUL-terminated path.
        match unsafe { (self.fns.trace_open)(self.ctx, c.as_ptr()) } {
            0 => Ok(()),
            _ => Err(format!("cannot open {}", path.display())),
        }
    }

    pub fn trace_close(&mut self) {
        // SAFETY: live ctx.
        unsafe { (self.fns.trace_close)(self.ctx) }
    }
}

impl Drop for Rtl {
    fn drop(&mut self) {
        // SAFETY: `ctx` came from `new` and is freed once.
        unsafe { (self.fns.free)(self.ctx) }
    }
}
