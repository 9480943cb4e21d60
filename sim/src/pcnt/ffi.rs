//! The Verilated `pcnt_top` configurations linked in by build.rs, behind a
//! safe wrapper. One `cycle` call per bus clock (csrc/shim.cpp).

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::Path;

use crate::engine::assertion::Assertion;

use pcounter::pcnt::record::AxiOut;
use pcounter::pcnt::regs::{NUM_DOM_REGS, NUM_GLOBAL_REGS};

/// Input record of `pcnt_<name>_cycle`; layout shared with csrc/shim.cpp.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PcntIn {
    pub rst_n: u32,
    pub gen: u32,
    pub psel: u32,
    pub penable: u32,
    pub pwrite: u32,
    pub paddr: u32,
    pub pwdata: u32,
    pub pstrb: u32,
    pub pm_trigger: u32,
    pub wrcache_flush: u32,
    pub dom_tick: u32,
    pub sig: *const u32,
    /// AXI4 subordinate -> manager (S21).
    pub awready: u32,
    pub wready: u32,
    pub bvalid: u32,
    pub bresp: u32,
}

#[repr(C)]
pub struct PcntOut {
    pub prdata: u32,
    pub pready: u32,
    pub pslverr: u32,
    pub dom_regs: *mut u32,
    pub glob_regs: *mut u32,
    pub bind: u32,
    pub awvalid: u32,
    pub awaddr_lo: u32,
    pub awaddr_hi: u32,
    pub awlen: u32,
    pub awsize: u32,
    pub awburst: u32,
    pub wvalid: u32,
    pub wdata: [u32; 4],
    pub wstrb: u32,
    pub wlast: u32,
    pub bready: u32,
}

pub struct ModelFns {
    pub name: &'static str,
    pub num_domains: usize,
    /// Built with `StrictDecode` = 1 (S8).
    pub strict: bool,
    /// Name of the build's `pcounter::pcnt::config::Layout` (S9, S19).
    pub layout: &'static str,
    /// The build's `TrailerBases` / `SigCounts` / `UserPoss` per domain (S9, S19).
    pub trailer_base: [u8; 8],
    pub sig_count: [u16; 8],
    pub user_pos: [u16; 8],
    pub fault: Option<&'static str>,
    /// The generations a fault's runs rotate over (`gens:`; empty for plain builds).
    pub gens: &'static [&'static str],
    new: unsafe extern "C" fn(u32) -> *mut c_void,
    free: unsafe extern "C" fn(*mut c_void),
    cycle: unsafe extern "C" fn(*mut c_void, *const PcntIn, *mut PcntOut) -> c_int,
    trace_open: unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int,
    trace_close: unsafe extern "C" fn(*mut c_void),
    poke: unsafe extern "C" fn(*mut c_void, u32, *const c_char, u32, u32, u64) -> c_int,
}

include!(concat!(env!("OUT_DIR"), "/models.rs"));
include!(concat!(env!("OUT_DIR"), "/harness_flags.rs"));

/// Outputs of one cycle, sampled before the rising edge (values of cycle t).
#[derive(Clone, Debug, Default)]
pub struct RtlOut {
    pub prdata: u32,
    pub pready: bool,
    pub pslverr: bool,
    /// Register views, domain-major: `dom_regs[dom * NUM_DOM_REGS + idx]`.
    pub dom_regs: Vec<u32>,
    pub glob_regs: [u32; NUM_GLOBAL_REGS],
    /// `rec_bind_o` and the AXI4 manager outputs (S21).
    pub bind: bool,
    pub axi: AxiOut,
}

/// One instance of a Verilated configuration.
pub struct Rtl {
    fns: &'static ModelFns,
    ctx: *mut c_void,
    pub out: RtlOut,
}

impl Rtl {
    /// Names of the linked configurations, for error messages.
    pub fn available() -> Vec<String> {
        MODELS
            .iter()
            .map(|m| {
                let lax = if m.strict { "" } else { ", lax decode" };
                match m.fault {
                    Some(f) => format!("{} domain(s){lax} with fault {f}", m.num_domains),
                    None => format!("{} ({} domain(s){lax})", m.name, m.num_domains),
                }
            })
            .collect()
    }

    /// Domain counts with a plain (fault-free) Verilated build, ascending.
    pub fn domain_counts() -> Vec<usize> {
        let mut d: Vec<usize> = MODELS.iter().filter(|m| m.fault.is_none()).map(|m| m.num_domains).collect();
        d.sort_unstable();
        d.dedup();
        d
    }

    /// Why no build matches: one line naming what is built. The fault
    /// builds are not listed one by one (dozens of them): `pcnt faults` does.
    fn no_build(cfg: &pcounter::pcnt::config::Config, fault: Option<&str>) -> String {
        let n = cfg.num_domains;
        if let Some(f) = fault {
            let known = Rtl::faults();
            return match MODELS.iter().find(|m| m.fault == Some(f)) {
                Some(m) => format!("fault build {f} {}", Rtl::differences(m, cfg).join(", ")),
                None if known.is_empty() => format!(
                    "no fault builds linked in for fault {f} (build with `--features pcounter-sim/faults`, as make does)"
                ),
                None => format!("unknown fault {f} (`pcnt faults` lists the {} linked in)", known.len()),
            };
        }
        let lax = if cfg.strict_decode { "" } else { " (lax decode)" };
        let default_layout = cfg.trailer_base[..n] == [0xe0; 8][..n] && cfg.sig_count[..n] == [256; 8][..n];
        let layout = if default_layout { "" } else { " with this signal layout" };
        let plain: Vec<&str> = MODELS.iter().filter(|m| m.fault.is_none()).map(|m| m.name).collect();
        let counts: Vec<String> = Rtl::domain_counts().iter().map(|d| d.to_string()).collect();
        format!(
            "no Verilated build for {n} domain(s){lax}{layout}; built: {} (domain counts {})",
            plain.join(", "),
            counts.join(", ")
        )
    }

    /// How build `m` differs from `cfg`, each difference named (issue 29:
    /// a fault build with the asked domain count but another decode or
    /// signal layout was reported as a domain-count mismatch).
    fn differences(m: &ModelFns, cfg: &pcounter::pcnt::config::Config) -> Vec<String> {
        let n = cfg.num_domains;
        let decode = |strict: bool| if strict { "strict" } else { "lax" };
        let mut d = Vec::new();
        if m.num_domains != n {
            d.push(format!("has {} domain(s), not {n}", m.num_domains));
        }
        if m.strict != cfg.strict_decode {
            d.push(format!("is built with {} decode, not {} (S8)", decode(m.strict), decode(cfg.strict_decode)));
        }
        let k = n.min(m.num_domains);
        if m.trailer_base[..k] != cfg.trailer_base[..k]
            || m.sig_count[..k] != cfg.sig_count[..k]
            || m.user_pos[..k] != cfg.user_pos[..k]
        {
            d.push(format!("is built with signal layout '{}', not this one (S9, S19)", m.layout));
        }
        if d.is_empty() {
            d.push("matches this configuration but is not linked in".into());
        }
        d
    }

    /// Names of the injected faults linked in (`faults` feature).
    pub fn faults() -> Vec<&'static str> {
        MODELS.iter().filter_map(|m| m.fault).collect()
    }

    /// The `StrictDecode` a fault build was made with (`decode: lax` in its
    /// fault file makes it 0), or None for an unknown fault.
    pub fn fault_strict(fault: &str) -> Option<bool> {
        MODELS.iter().find(|m| m.fault == Some(fault)).map(|m| m.strict)
    }

    /// The domain count a fault build was made with, or None for an unknown fault.
    pub fn fault_domains(fault: &str) -> Option<usize> {
        MODELS.iter().find(|m| m.fault == Some(fault)).map(|m| m.num_domains)
    }

    /// The generations a fault's runs rotate over (`gens:` of its fault
    /// file; the NV40 family by default), or None for an unknown fault.
    pub fn fault_gens(fault: &str) -> Option<Vec<pcounter::pcnt::regs::Gen>> {
        let m = MODELS.iter().find(|m| m.fault == Some(fault))?;
        Some(m.gens.iter().filter_map(|g| pcounter::pcnt::regs::Gen::from_name(g)).collect())
    }

    /// The signal layout a fault build was made with (`layout: odd`).
    pub fn fault_layout(fault: &str) -> Option<pcounter::pcnt::config::Layout> {
        MODELS.iter().find(|m| m.fault == Some(fault)).and_then(|m| pcounter::pcnt::config::Layout::from_name(m.layout))
    }

    /// `x_seed` picks the random initial values of every variable
    /// (`--x-initial unique`): a flop missing from the reset shows up as a
    /// mismatch for most seeds. `strict` is the build's `StrictDecode` (S8).
    /// The build is found by the configuration's parameters (domain count,
    /// StrictDecode, per-domain trailer base, signal count, USER position of
    /// the present domains, S9, S19) and the fault.
    pub fn new(cfg: &pcounter::pcnt::config::Config, fault: Option<&str>, x_seed: u32) -> Result<Rtl, String> {
        let (num_domains, strict) = (cfg.num_domains, cfg.strict_decode);
        let n = num_domains;
        let found = MODELS.iter().find(|m| {
            m.num_domains == n
                && m.strict == strict
                && m.fault == fault
                && m.trailer_base[..n] == cfg.trailer_base[..n]
                && m.sig_count[..n] == cfg.sig_count[..n]
                && m.user_pos[..n] == cfg.user_pos[..n]
        });
        let fns = found.ok_or_else(|| Rtl::no_build(cfg, fault))?;
        // SAFETY: the constructor has no preconditions; the pointer is owned here.
        let ctx = unsafe { (fns.new)(x_seed) };
        Ok(Rtl { fns, ctx, out: RtlOut { dom_regs: vec![0; num_domains * NUM_DOM_REGS], ..Default::default() } })
    }

    /// One bus clock. `inp.sig` must point at `num_domains * 8` words.
    /// The assertion that failed at this clock's edge, if one did.
    #[must_use]
    pub fn cycle(&mut self, inp: &PcntIn, sig: &[u32]) -> Option<Assertion> {
        assert_eq!(sig.len(), self.fns.num_domains * 8, "signal words for {} domains", self.fns.num_domains);
        let i = PcntIn { sig: sig.as_ptr(), ..*inp };
        let mut o = PcntOut {
            prdata: 0,
            pready: 0,
            pslverr: 0,
            dom_regs: self.out.dom_regs.as_mut_ptr(),
            glob_regs: self.out.glob_regs.as_mut_ptr(),
            bind: 0,
            awvalid: 0,
            awaddr_lo: 0,
            awaddr_hi: 0,
            awlen: 0,
            awsize: 0,
            awburst: 0,
            wvalid: 0,
            wdata: [0; 4],
            wstrb: 0,
            wlast: 0,
            bready: 0,
        };
        // SAFETY: ctx is live; buffers have the sizes the shim writes
        // (checked above and at construction).
        let fired = unsafe { (self.fns.cycle)(self.ctx, &i, &mut o) };
        self.out.prdata = o.prdata;
        self.out.pready = o.pready != 0;
        self.out.pslverr = o.pslverr != 0;
        self.out.bind = o.bind != 0;
        self.out.axi = AxiOut {
            awvalid: o.awvalid != 0,
            awaddr: u64::from(o.awaddr_hi) << 32 | u64::from(o.awaddr_lo),
            awlen: o.awlen as u8,
            awsize: o.awsize as u8,
            awburst: o.awburst as u8,
            wvalid: o.wvalid != 0,
            wdata: o.wdata.iter().rev().fold(0u128, |a, &w| a << 32 | u128::from(w)),
            wstrb: o.wstrb as u16,
            wlast: o.wlast != 0,
            bready: o.bready != 0,
        };
        (fired != 0).then(Assertion::take)
    }

    /// Dump the RTL's signals to a VCD from the next cycle on.
    pub fn trace_open(&mut self, path: &Path) -> Result<(), String> {
        let c = CString::new(path.to_string_lossy().as_bytes()).map_err(|e| e.to_string())?;
        // SAFETY: ctx is live, c is a valid C string for the call.
        match unsafe { (self.fns.trace_open)(self.ctx, c.as_ptr()) } {
            0 => Ok(()),
            _ => Err(format!("cannot open VCD {}", path.display())),
        }
    }

    /// Verification backdoor (docs/semantics.md S14): overwrite bits
    /// `lsb .. lsb+width` (width <= 64) of flop `var`, named from the domain
    /// instance (e.g. `u_core.ctr_event_q`, `u_core.shadow_q`,
    /// `u_record.ev_q`), of domain `dom` before the next clock.
    pub fn poke(&mut self, dom: usize, var: &str, lsb: u32, width: u32, value: u64) -> Result<(), String> {
        let c = CString::new(var).map_err(|e| e.to_string())?;
        // SAFETY: ctx is live, c is a valid C string for the call.
        match unsafe { (self.fns.poke)(self.ctx, dom as u32, c.as_ptr(), lsb, width, value) } {
            0 => Ok(()),
            _ => Err(format!("no public flop {var} with bits {lsb}+{width} in domain {dom} of the RTL")),
        }
    }

    pub fn trace_close(&mut self) {
        // SAFETY: ctx is live.
        unsafe { (self.fns.trace_close)(self.ctx) }
    }
}

impl Drop for Rtl {
    fn drop(&mut self) {
        // SAFETY: ctx came from `new` and is freed once.
        unsafe { (self.fns.free)(self.ctx) }
    }
}
