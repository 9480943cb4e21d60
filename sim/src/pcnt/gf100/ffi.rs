//! The Verilated `pcnt_gf100_top` builds linked in by build.rs (its
//! `DEVICES` table, device `gf100`: one build per preset, `fermi`,
//! `kepler` and `gf_fault`, and one per `device: gf100` fault on
//! `gf_fault`), behind a
//! safe wrapper. One `cycle` call per bus clock (csrc/gf100_shim.cpp).

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::Path;

use crate::engine::assertion::Assertion;

/// Input record of `gf100_<config>_cycle`; layout shared with the shim.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct In {
    pub rst_n: u32,
    pub pmc_enable: u32,
    pub psel: u32,
    pub penable: u32,
    pub pwrite: u32,
    /// PADDR: MMIO address - 0x180000 (18 bits).
    pub paddr: u32,
    pub pwdata: u32,
    pub pstrb: u32,
    /// Bit d of the 64-bit value = flat domain d ticks (S15).
    pub dom_tick: [u32; 2],
    /// num_domains * 8 words: domain d signal s = word d*8 + s/32, bit s%32.
    pub sig: *const u32,
}

/// Output record: the port outputs of cycle t and the register views
/// (docs/semantics.md S25.0), into buffers the caller owns.
#[repr(C)]
#[derive(Debug)]
pub struct Out {
    pub prdata: u32,
    pub pready: u32,
    pub pslverr: u32,
    pub dom_regs: *mut u32,
    pub set_regs: *mut u32,
    pub main_regs: *mut u32,
}

pub struct DevFns {
    /// Preset (`fermi`, `kepler`) or fault build (`f_<fault>`, on `gf_fault`).
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
    poke: unsafe extern "C" fn(*mut c_void, u32, *const c_char, u32, u32, u64) -> c_int,
}

include!(concat!(env!("OUT_DIR"), "/gf100_models.rs"));

/// The preset a fault build is made from (sim/build.rs `fault_config`).
pub const FAULT_PRESET: &str = "gf_fault";

/// The preset fault build `fault` is made on (its file's `config:`).
pub fn fault_base(fault: &str) -> Option<&'static str> {
    MODELS.iter().find(|m| m.fault == Some(fault)).map(|m| m.base)
}

/// Injected-fault builds of the GF100 top (`device: gf100` in tests/faults/).
pub fn faults() -> Vec<&'static str> {
    MODELS.iter().filter_map(|m| m.fault).collect()
}

/// One instance of a Verilated GF100 build.
pub struct Rtl {
    fns: &'static DevFns,
    ctx: *mut c_void,
}

impl Rtl {
    /// The build of `preset`, or the fault build `fault` (preset `gf_fault`).
    pub fn new(preset: &str, fault: Option<&str>, x_seed: u32) -> Result<Rtl, String> {
        let fns = match fault {
            Some(f) => MODELS
                .iter()
                .find(|m| m.fault == Some(f))
                .ok_or_else(|| format!("gf100: no build with fault {f} (gf100 faults: {})", faults().join(", ")))?,
            None => MODELS.iter().find(|m| m.fault.is_none() && m.name == preset).ok_or_else(|| {
                let built: Vec<&str> = MODELS.iter().filter(|m| m.fault.is_none()).map(|m| m.name).collect();
                // The fault builds' base is built with them (its manifest's `fault_only`).
                let with_faults =
                    if preset == FAULT_PRESET { "; it is built with the fault builds: FAULTS=all" } else { "" };
                format!("gf100: no build of layout {preset} (built: {}){with_faults}", built.join(", "))
            })?,
        };
        // SAFETY: `new` returns a fresh model owned by this wrapper.
        let ctx = unsafe { (fns.new)(x_seed) };
        Ok(Rtl { fns, ctx })
    }

    pub fn name(&self) -> &'static str {
        self.fns.name
    }

    /// One bus clock. `out`'s buffers must hold the configuration's view
    /// sizes and `i.sig` its signal words (the caller's `Vec`s).
    /// The assertion that failed at this clock's edge, if one did.
    #[must_use]
    pub fn cycle(&mut self, i: &In, out: &mut Out) -> Option<Assertion> {
        // SAFETY: `ctx` is live; the pointers in `i` and `out` point at
        // buffers of the sizes the build's ports need (the engine sizes them
        // from the same GfConfig the build's parameters came from).
        let fired = unsafe { (self.fns.cycle)(self.ctx, i, out) };
        (fired != 0).then(Assertion::take)
    }

    /// The S14 backdoor: bits `lsb..lsb+width` of flop `var` (relative to
    /// `gen_dom[dom].u_domain`, e.g. `u_core.ctr_event_q`).
    pub fn poke(&mut self, dom: usize, var: &str, lsb: u32, width: u32, value: u64) -> Result<(), String> {
        let c = CString::new(var).map_err(|e| e.to_string())?;
        let d = u32::try_from(dom).map_err(|e| e.to_string())?;
        // SAFETY: live ctx, NUL-terminated name.
        match unsafe { (self.fns.poke)(self.ctx, d, c.as_ptr(), lsb, width, value) } {
            0 => Ok(()),
            _ => Err(format!("gf100 {}: no flop {var}[{lsb}+:{width}] in domain {dom}", self.name())),
        }
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
