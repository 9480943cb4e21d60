//! The Verilated `pmon_box` configurations linked in by build.rs (its
//! `DEVICES` table), behind a safe wrapper. One `cycle` call per bus clock
//! (csrc/pmon_shim.cpp); the shim also returns every MMIO-visible register
//! as the RTL holds it, read from the flops.

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::Path;

use crate::engine::assertion::Assertion;

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

pub struct DevFns {
    /// Configuration (`c4`) or fault build (`f_<fault>`).
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

include!(concat!(env!("OUT_DIR"), "/pmon_models.rs"));

/// Injected-fault builds of PMON (tests/pmon/faults/).
pub fn faults() -> Vec<&'static str> {
    MODELS.iter().filter_map(|m| m.fault).collect()
}

/// One instance of a Verilated PMON build.
pub struct Rtl {
    fns: &'static DevFns,
    ctx: *mut c_void,
    pub out: Out,
}

impl Rtl {
    /// The default build, or the build with the injected fault `fault`.
    pub fn new(fault: Option<&str>, x_seed: u32) -> Result<Rtl, String> {
        let fns = MODELS.iter().find(|m| m.fault == fault).ok_or_else(|| match fault {
            Some(f) => format!("PMON: no build with fault {f} (PMON faults: {})", faults().join(", ")),
            None => "PMON: no default build linked in".to_string(),
        })?;
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
        // SAFETY: `ctx` is live; `i.events` points at enough words for event_i
        // (the caller's lane vector outlives the call); `out` is repr(C).
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
