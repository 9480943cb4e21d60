//! A Verilated build behind its C shim (every device's shim has the same
//! five functions, sim/csrc/shim_common.h): the table sim/build.rs writes
//! for a device (`<name>_models.rs`, one [`DevFns`] per configuration and
//! fault build, over the device's own `In`/`Out` records), and a safe owner
//! of one instance ([`Model`]). A device's `ffi` names its records and
//! which build a run takes.

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::Path;

use super::assertion::Assertion;

/// One Verilated build: its names and the shim's functions, over the
/// device's input record `I` and output record `O` (both `repr(C)`, laid
/// out as the shim's).
pub struct DevFns<I: 'static, O: 'static> {
    /// Configuration or fault build (`f_<fault>`).
    pub name: &'static str,
    /// The configuration it is built on (a fault build's `config:`, or the
    /// manifest's `fault_config`).
    pub base: &'static str,
    pub fault: Option<&'static str>,
    pub new: unsafe extern "C" fn(u32) -> *mut c_void,
    pub free: unsafe extern "C" fn(*mut c_void),
    pub cycle: unsafe extern "C" fn(*mut c_void, *const I, *mut O) -> c_int,
    pub trace_open: unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int,
    pub trace_close: unsafe extern "C" fn(*mut c_void),
}

/// The injected-fault builds of a table.
pub fn faults<I, O>(models: &'static [DevFns<I, O>]) -> Vec<&'static str> {
    models.iter().filter_map(|m| m.fault).collect()
}

/// The build with the injected fault `fault`, or (no fault) the plain
/// build of configuration `config` (`None`: the first plain one). `title`
/// names the device in the error.
pub fn find<I, O>(
    models: &'static [DevFns<I, O>],
    title: &str,
    fault: Option<&str>,
    config: Option<&str>,
) -> Result<&'static DevFns<I, O>, String> {
    match fault {
        Some(f) => models
            .iter()
            .find(|m| m.fault == Some(f))
            .ok_or_else(|| format!("{title}: no build with fault {f} ({title} faults: {})", faults(models).join(", "))),
        None => models
            .iter()
            .find(|m| m.fault.is_none() && config.is_none_or(|c| m.name == c))
            .ok_or_else(|| format!("{title}: no {} build linked in", config.unwrap_or("plain"))),
    }
}

/// One live instance of a build; `out` holds the outputs of the last clock.
pub struct Model<I: 'static, O: 'static> {
    fns: &'static DevFns<I, O>,
    ctx: *mut c_void,
    pub out: O,
}

impl<I, O: Default> Model<I, O> {
    /// A fresh instance of `fns`, its flops started from `x_seed`.
    pub fn open(fns: &'static DevFns<I, O>, x_seed: u32) -> Model<I, O> {
        // SAFETY: `new` returns a fresh model owned by this wrapper.
        let ctx = unsafe { (fns.new)(x_seed) };
        Model { fns, ctx, out: O::default() }
    }

    pub fn name(&self) -> &'static str {
        self.fns.name
    }

    /// One bus clock; `self.out` holds the outputs of this cycle. The
    /// assertion that failed at this clock's edge, if one did. The caller
    /// keeps whatever `i` points at alive through the call.
    #[must_use]
    pub fn cycle(&mut self, i: &I) -> Option<Assertion> {
        // SAFETY: `ctx` is live; `i` and `out` are the shim's records.
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

impl<I, O> Drop for Model<I, O> {
    fn drop(&mut self) {
        // SAFETY: `ctx` came from `new` and is freed once.
        unsafe { (self.fns.free)(self.ctx) }
    }
}
