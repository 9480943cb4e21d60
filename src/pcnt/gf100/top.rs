//! The GF100+ PCOUNTER top: APB front-end of the 0x180000 window (decode,
//! presence against the configuration, PSLVERR), the flat list of domains
//! in their sets, the per-set DSET CTRL, MAIN, and PMC.ENABLE. Mirrors
//! `rtl/pcnt/pcnt_gf100_top.sv` (+ `pcnt_gf_apb.sv`).
//!
//! Contract (docs/semantics.md S25.0, S25.9, S25.12..S25.15, S25.17): one bus operation per cycle, taken in its APB ACCESS
//! cycle (S1). A write to a domain register completes in the first ACCESS
//! cycle in which that domain ticks (S15); a read of a domain register and
//! every DSET/MAIN access complete in the first ACCESS cycle. PSLVERR (with
//! StrictDecode, else silent) for a hole, a unit index past the present
//! units, a domain index past the set's size, HUB_* without a hub set, a
//! partial strobe on a write: completes at once, PRDATA 0, changes nothing
//! (S0, S8). Writes to read-only and zero registers store nothing, no
//! PSLVERR. Imports stay inside a set (S25.12). PMC (S25.14): `pmc_en(t+1) =
//! pmc_enable(t)`, and the state at t+1 is the reset state unless both
//! `pmc_en(t)` and `pmc_enable(t)` are 1; while `pmc_en` is 0 every access
//! completes at once with PRDATA 0 and PSLVERR = StrictDecode, and every
//! view word is 0.

use crate::common::bus::BusResult;
use crate::pcnt::domain::{Exports, Signals};

use super::config::{GfConfig, GfConfigError, SetKind, MAX_DOMAINS};
use super::domain::{GfDomain, GfDomainInputs};
use super::regs::{
    self as gr, field, GfBlock, GfKind, GfUnit, GF_MAIN_REGS, GF_NUM_DOM_REGS, GF_NUM_MAIN_REGS, GF_NUM_SET_REGS,
    GF_SET_REGS,
};

/// The APB ACCESS-phase operation of a cycle; `paddr` = MMIO address -
/// 0x180000 (18 bits; bits 1:0 ignored).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GfBusOp {
    Write { paddr: u32, data: u32, strb: u8 },
    Read { paddr: u32 },
}

/// Inputs of one bus clock cycle.
pub struct GfCycleInputs<'a> {
    /// External signals per flat domain (`num_domains` entries).
    pub sig: &'a [Signals],
    pub bus: Option<GfBusOp>,
    /// Clock enables, bit d = flat domain d ticks in this cycle (S15).
    pub ticks: u64,
    /// PMC.ENABLE bit 28 (S25.14).
    pub pmc_enable: bool,
}

/// A decoded and present bus target (S8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GfTarget {
    /// View index `idx` of flat domain `dom`.
    Dom {
        dom: usize,
        idx: usize,
    },
    /// View index `idx` of flat set `set` (GPCs, PARTs, hub).
    Set {
        set: usize,
        idx: usize,
    },
    Main {
        idx: usize,
    },
}

/// The flat index of set `unit` of `kind` (GPC sets, PART sets, hub set).
pub fn set_index(cfg: &GfConfig, kind: SetKind, unit: usize) -> usize {
    match kind {
        SetKind::Gpc => unit,
        SetKind::Part => cfg.num_gpc + unit,
        SetKind::Hub => cfg.num_gpc + cfg.num_part,
    }
}

/// Resolve a PADDR for this configuration; `None` means PSLVERR (S8,
/// S25.0): a hole, an absent unit or domain, HUB_* without a hub.
pub fn target(cfg: &GfConfig, paddr: u32) -> Option<GfTarget> {
    let d = gr::decode(paddr)?;
    let kind = match d.unit {
        GfUnit::GpcDom | GfUnit::GpcDset => SetKind::Gpc,
        GfUnit::PartDom | GfUnit::PartDset => SetKind::Part,
        GfUnit::HubDom | GfUnit::HubDset => SetKind::Hub,
        GfUnit::Main => return Some(GfTarget::Main { idx: d.idx }),
    };
    match d.unit.block() {
        GfBlock::Dom => cfg.flat(kind, d.unit_idx, d.dom).map(|dom| GfTarget::Dom { dom, idx: d.idx }),
        GfBlock::Set => {
            (d.unit_idx < cfg.units(kind)).then(|| GfTarget::Set { set: set_index(cfg, kind, d.unit_idx), idx: d.idx })
        }
        GfBlock::Main => Some(GfTarget::Main { idx: d.idx }),
    }
}

/// The GF100+ PCOUNTER (the `pcnt_gf100_top` of the RTL).
#[derive(Clone, Debug)]
pub struct Gf100Pcounter {
    cfg: GfConfig,
    /// Every domain in flat order (GPC units, PART units, hub).
    pub domains: Vec<GfDomain>,
    /// DSET CTRL of every set, flat set order (S25.12).
    pub set_ctrl: Vec<u32>,
    /// Stored bits of the MAIN registers by MAIN view index (S25.15).
    pub main: [u32; GF_NUM_MAIN_REGS],
    /// `pmc_en_q` (S25.14).
    pub pmc_en: bool,
}

impl Gf100Pcounter {
    /// Just out of rst_ni (S25.13, S25.14): every stored bit 0, `pmc_en` 0.
    pub fn new(cfg: GfConfig) -> Result<Gf100Pcounter, GfConfigError> {
        cfg.validate()?;
        let domains = (0..cfg.num_domains())
            .map(|d| GfDomain::new(cfg.place(d).expect("validated: every flat domain has a place")))
            .collect();
        Ok(Gf100Pcounter {
            domains,
            set_ctrl: vec![0; cfg.num_sets()],
            main: [0; GF_NUM_MAIN_REGS],
            pmc_en: false,
            cfg,
        })
    }

    pub fn config(&self) -> &GfConfig {
        &self.cfg
    }

    fn check_inputs(&self, inp: &GfCycleInputs) {
        assert_eq!(
            inp.sig.len(),
            self.domains.len(),
            "GfCycleInputs carry signals for {} domains, the top has {}",
            inp.sig.len(),
            self.domains.len()
        );
    }

    /// The reset state of everything but `pmc_en` (S25.13); no allocation.
    fn reset(&mut self) {
        for d in self.domains.iter_mut() {
            *d = GfDomain::new(d.place);
        }
        self.set_ctrl.fill(0);
        self.main = [0; GF_NUM_MAIN_REGS];
    }

    /// The exported flops of every set this cycle (S16), by flat set index.
    fn exports(&self) -> [Exports; MAX_DOMAINS] {
        let mut x = [Exports::default(); MAX_DOMAINS];
        for d in &self.domains {
            d.export_into(&mut x[d.place.set]);
        }
        x
    }

    fn periodic_reset(&self, set: usize) -> bool {
        field::SET_CTRL_PERIODIC_RESET.get(self.set_ctrl[set]) != 0
    }

    fn dom_inputs<'a>(
        &self,
        inp: &'a GfCycleInputs,
        dom: usize,
        write: Option<(usize, u32)>,
        exports: &[Exports; MAX_DOMAINS],
    ) -> GfDomainInputs<'a> {
        let set = self.domains[dom].place.set;
        GfDomainInputs {
            sig: &inp.sig[dom],
            write,
            tick: inp.ticks >> dom & 1 != 0,
            exports: exports[set],
            periodic_reset: self.periodic_reset(set),
        }
    }

    fn dom_view(&self, inp: &GfCycleInputs, dom: usize, x: &[Exports; MAX_DOMAINS], out: &mut [u32; GF_NUM_DOM_REGS]) {
        self.domains[dom].view(&self.dom_inputs(inp, dom, None, x), out);
    }

    /// A set's view: DSET CTRL's stored bits; VSTATUS_0/1 read 0 (S25.16).
    fn set_view(&self, set: usize) -> [u32; GF_NUM_SET_REGS] {
        let mut v = [0; GF_NUM_SET_REGS];
        v[gr::SET_CTRL] = self.set_ctrl[set] & GF_SET_REGS[gr::SET_CTRL].store_mask;
        v
    }

    /// MAIN's view (S25.15): the stored registers, RECORD_POS = RECORD_START's
    /// bits 31:4, RECORD_COUNT and VSTATUS 0.
    fn main_view(&self) -> [u32; GF_NUM_MAIN_REGS] {
        let mut v = [0; GF_NUM_MAIN_REGS];
        for (idx, reg) in GF_MAIN_REGS.iter().enumerate() {
            if reg.kind == GfKind::Storage {
                v[idx] = self.main[idx] & reg.store_mask;
            }
        }
        v[gr::MAIN_RECORD_POS] = self.main[gr::MAIN_RECORD_START] & GF_MAIN_REGS[gr::MAIN_RECORD_POS].ro_mask;
        v
    }

    /// The views of S25.0 for this cycle (before `step`): every
    /// domain's, every set's and MAIN's words as a read would return them;
    /// all 0 while `pmc_en` is 0.
    pub fn view(
        &self,
        inp: &GfCycleInputs,
        dom: &mut [[u32; GF_NUM_DOM_REGS]],
        set: &mut [[u32; GF_NUM_SET_REGS]],
        main: &mut [u32; GF_NUM_MAIN_REGS],
    ) {
        self.check_inputs(inp);
        if !self.pmc_en {
            dom.iter_mut().take(self.domains.len()).for_each(|v| *v = [0; GF_NUM_DOM_REGS]);
            set.iter_mut().take(self.set_ctrl.len()).for_each(|v| *v = [0; GF_NUM_SET_REGS]);
            *main = [0; GF_NUM_MAIN_REGS];
            return;
        }
        let x = self.exports();
        for (i, out) in dom.iter_mut().enumerate().take(self.domains.len()) {
            self.dom_view(inp, i, &x, out);
        }
        for (s, out) in set.iter_mut().enumerate().take(self.set_ctrl.len()) {
            *out = self.set_view(s);
        }
        *main = self.main_view();
    }

    /// One bus clock: the bus answer of this cycle, then the next state of
    /// everything, committed (S25.14's reset rule last).
    pub fn step(&mut self, inp: &GfCycleInputs) -> BusResult {
        self.check_inputs(inp);
        let mut result = BusResult::default();
        // S8: with StrictDecode = 0 a refused access is silent.
        let refused = self.cfg.strict_decode;
        if !self.pmc_en {
            // S25.14: held in reset; an access completes at once, no effect.
            result.slverr = inp.bus.is_some() && refused;
            self.reset();
            self.pmc_en = inp.pmc_enable;
            return result;
        }
        // Every domain sees this cycle's flops: snapshot before any commit.
        let x = self.exports();
        let mut dom_write: Option<(usize, usize, u32)> = None;
        // DSET / MAIN writes commit after the domains' step: a domain ticking
        // in the write's cycle uses the old PERIODIC_RESET (S25.12, S20).
        let mut set_write: Option<(usize, u32)> = None;
        let mut main_write: Option<(usize, u32)> = None;
        match inp.bus {
            None => {}
            Some(GfBusOp::Read { paddr }) => match target(&self.cfg, paddr) {
                None => result.slverr = refused,
                Some(GfTarget::Dom { dom, idx }) => {
                    let mut v = [0; GF_NUM_DOM_REGS];
                    self.dom_view(inp, dom, &x, &mut v);
                    result.rdata = v[idx];
                }
                Some(GfTarget::Set { set, idx }) => result.rdata = self.set_view(set)[idx],
                Some(GfTarget::Main { idx }) => result.rdata = self.main_view()[idx],
            },
            Some(GfBusOp::Write { paddr, data, strb }) => match target(&self.cfg, paddr) {
                // S0: a partial strobe is refused like a hole.
                _ if strb != 0xf => result.slverr = refused,
                None => result.slverr = refused,
                // S15: a domain write waits (PREADY 0) until its domain ticks.
                Some(GfTarget::Dom { dom, .. }) if inp.ticks >> dom & 1 == 0 => result.ready = false,
                Some(GfTarget::Dom { dom, idx }) => dom_write = Some((dom, idx, data)),
                // DSET CTRL is the set's one stored register; VSTATUS_0/1 are zero.
                Some(GfTarget::Set { set, idx }) => {
                    if idx == gr::SET_CTRL {
                        set_write = Some((set, data & GF_SET_REGS[idx].store_mask));
                    }
                }
                Some(GfTarget::Main { idx }) => {
                    let reg = &GF_MAIN_REGS[idx];
                    if reg.kind == GfKind::Storage {
                        main_write = Some((idx, data & reg.store_mask));
                    }
                }
            },
        }
        for i in 0..self.domains.len() {
            let write = dom_write.filter(|w| w.0 == i).map(|w| (w.1, w.2));
            let di = self.dom_inputs(inp, i, write, &x);
            self.domains[i].step(&di);
        }
        if let Some((set, v)) = set_write {
            self.set_ctrl[set] = v;
        }
        if let Some((idx, v)) = main_write {
            self.main[idx] = v;
        }
        // S25.14: the state at t+1 is the reset state unless pmc_en(t) and
        // pmc_enable(t) are both 1 (pmc_en(t) is 1 here).
        if !inp.pmc_enable {
            self.reset();
        }
        self.pmc_en = inp.pmc_enable;
        result
    }
}
