//! The domain set: the APB register front-end (address decode of the NV40
//! layout, PSLVERR rules, global registers) around the domains. Mirrors
//! `rtl/pcnt_apb_regs.sv` + `rtl/pcnt_top.sv`.
//!
//! Contract: one bus operation per cycle, taken in its APB ACCESS cycle (S1);
//! a read returns this cycle's register view (S11); a partial-strobe write,
//! an unmapped offset, a register absent on the generation or a domain past
//! the configured count answer PSLVERR with data 0 and change nothing (S0, S8).

use bitvec::prelude::*;

use crate::config::{Config, ConfigError};
use crate::domain::{self, DomainInputs, DomainState, Target};
use crate::regs::{GLOBAL_REGS, NUM_DOM_REGS, NUM_GLOBAL_REGS};

/// The 256 external signal inputs of one domain.
pub type Signals = BitArr!(for 256, in u32, Lsb0);

/// The APB ACCESS-phase operation of a cycle (offset inside the window).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BusOp {
    Write { offset: u16, data: u32, strb: u8 },
    Read { offset: u16 },
}

/// What the completer answers in the ACCESS cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct BusResult {
    pub rdata: u32,
    pub slverr: bool,
}

/// Inputs of one bus clock cycle.
pub struct CycleInputs<'a> {
    /// External signals per domain (`num_domains` entries).
    pub sig: &'a [Signals],
    pub pm_trigger: bool,
    pub wrcache_flush: bool,
    pub bus: Option<BusOp>,
}

/// A PCOUNTER domain set (the `pcnt_top` of the RTL).
#[derive(Clone, Debug)]
pub struct PcounterSet {
    cfg: Config,
    pub domains: Vec<DomainState>,
    /// Stored bits of the global registers, by global view index.
    pub global: [u32; NUM_GLOBAL_REGS],
}

impl PcounterSet {
    /// A domain set just out of reset (S8).
    pub fn new(cfg: Config) -> Result<PcounterSet, ConfigError> {
        cfg.validate()?;
        Ok(PcounterSet {
            domains: vec![DomainState::default(); cfg.num_domains],
            global: [0; NUM_GLOBAL_REGS],
            cfg,
        })
    }

    pub fn config(&self) -> &Config {
        &self.cfg
    }

    fn check_inputs(&self, inp: &CycleInputs) {
        assert_eq!(
            inp.sig.len(),
            self.cfg.num_domains,
            "CycleInputs carry signals for {} domains, the set has {}",
            inp.sig.len(),
            self.cfg.num_domains
        );
    }

    /// Register view of every domain for this cycle (S11), domain-major.
    pub fn view(&self, inp: &CycleInputs, out: &mut [[u32; NUM_DOM_REGS]]) {
        self.check_inputs(inp);
        for (dom, d) in self.domains.iter().enumerate() {
            d.view(&self.cfg, dom, &dom_inputs(inp, dom, None), &mut out[dom]);
        }
    }

    /// Global register view (S11).
    pub fn global_view(&self) -> [u32; NUM_GLOBAL_REGS] {
        self.global
    }

    /// Run one bus clock: answer the bus operation from this cycle's view,
    /// then compute and commit the next state of every domain.
    pub fn step(&mut self, inp: &CycleInputs) -> BusResult {
        self.check_inputs(inp);
        let mut result = BusResult::default();
        let mut dom_write: Option<(usize, usize, u32)> = None;
        match inp.bus {
            None => {}
            Some(BusOp::Read { offset }) => match domain::target(&self.cfg, offset) {
                None => result.slverr = true,
                Some(Target::Global { idx }) => result.rdata = self.global[idx],
                Some(Target::Dom { dom, idx }) => {
                    let mut v = [0u32; NUM_DOM_REGS];
                    self.domains[dom].view(&self.cfg, dom, &dom_inputs(inp, dom, None), &mut v);
                    result.rdata = v[idx];
                }
            },
            Some(BusOp::Write { offset, data, strb }) => match domain::target(&self.cfg, offset) {
                // S0: partial strobes are refused like unmapped offsets.
                _ if strb != 0xf => result.slverr = true,
                None => result.slverr = true,
                Some(Target::Global { idx }) => {
                    self.global[idx] = data & GLOBAL_REGS[idx].rw_mask(self.cfg.gen);
                }
                Some(Target::Dom { dom, idx }) => dom_write = Some((dom, idx, data)),
            },
        }
        for dom in 0..self.domains.len() {
            let write = dom_write.filter(|w| w.0 == dom).map(|w| (w.1, w.2));
            self.domains[dom].step(&self.cfg, dom, &dom_inputs(inp, dom, write));
        }
        result
    }
}

fn dom_inputs<'a>(inp: &'a CycleInputs, dom: usize, write: Option<(usize, u32)>) -> DomainInputs<'a> {
    DomainInputs {
        sig: &inp.sig[dom],
        pm_trigger: inp.pm_trigger,
        wrcache_flush: inp.wrcache_flush,
        write,
    }
}
