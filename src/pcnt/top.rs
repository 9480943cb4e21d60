//! The domain set: the APB register front-end (address decode of the
//! generation's layout, PSLVERR rules, global and shared registers) around
//! the domains. Mirrors `rtl/pcnt/pcnt_apb_regs.sv` + `rtl/pcnt/pcnt_top.sv`.
//!
//! Contract: one bus operation per cycle, taken in its APB ACCESS cycle (S1);
//! a read returns this cycle's register view (S11); a partial-strobe write,
//! an unmapped offset, a register absent on the generation or a domain past
//! the configured count answer PSLVERR with data 0 and change nothing (S0, S8).
//! A write of a shared register of the NV10 layout (S24) is delivered to each
//! shared domain at its own first tick of the transfer, as a write of that
//! domain's view register; PREADY rises when the last one has taken it.

use crate::common::bus::{BusOp, BusResult};
use crate::common::pulse_sync;
use crate::pcnt::config::{Config, ConfigError};
pub use crate::pcnt::domain::Signals;
use crate::pcnt::domain::{self, DomainInputs, DomainState, Exports, Target};
use crate::pcnt::record::{AxiIn, AxiOut, Port, Slot};
use crate::pcnt::regs::{self, GLOBAL_REGS, NUM_DOMAINS_MAX, NUM_DOM_REGS, NUM_GLOBAL_REGS};

/// Inputs of one bus clock cycle.
pub struct CycleInputs<'a> {
    /// External signals per domain (`num_domains` entries).
    pub sig: &'a [Signals],
    pub pm_trigger: bool,
    pub wrcache_flush: bool,
    pub bus: Option<BusOp>,
    /// Clock enables, bit d = domain d ticks in this cycle (S15).
    pub ticks: u8,
    /// The memory port's subordinate signals (S21).
    pub axi: AxiIn,
}

/// A PCOUNTER domain set (the `pcnt_top` of the RTL).
#[derive(Clone, Debug)]
pub struct PcounterSet {
    cfg: Config,
    pub domains: Vec<DomainState>,
    /// Stored bits of the global registers, by global view index.
    pub global: [u32; NUM_GLOBAL_REGS],
    /// Memory-port side of every domain and the write manager (S21).
    pub slots: Vec<Slot>,
    pub port: Port,
    /// `rec_bind_o`: a RECORD_CHAN write with VALID in the previous cycle.
    pub bind: bool,
    /// Channel binding (S21 (a)): a RECORD_DMA write happened since reset;
    /// the last RECORD_CHAN write with VALID bound (not readable).
    pub dma_written: bool,
    pub bound: bool,
    /// A RECORD_CHAN write with VALID in this step found no DMA object
    /// written (the bind failed; for the harness's reach counts).
    pub bind_wrong_order: bool,
    /// Global pulses PM_TRIGGER, WRCACHE_FLUSH (S22): last cycle's input
    /// levels (bit 0, bit 1) and the bus-clock Gray edge counts.
    pub glob_prev: u8,
    pub glob_cnt: [u8; 2],
    /// Shared-register write in progress (S24): bit d = domain d has taken it.
    pub taken: u8,
    /// Bit d = domain d took a shared write in the last step (observation
    /// only, for the harness's reach counts).
    pub shared_took: u8,
}

/// The domains shared register `g` of the NV10 layout reaches (S24): those
/// its fields name, of the configured ones.
fn shared_doms(g: usize, num_domains: usize) -> u8 {
    let named = regs::SHARED_FIELDS.iter().filter(|f| f.glob == g).fold(0u8, |m, f| m | 1 << f.dom);
    named & ((1u16 << num_domains) - 1) as u8
}

/// Bits a global register stores itself: its rw fields that are not views
/// of per-domain fields (S24).
fn own_rw_mask(g: usize, gen: regs::Gen) -> u32 {
    let shared = regs::SHARED_FIELDS.iter().filter(|f| f.glob == g).fold(0, |m, f| m | f.field.mask());
    GLOBAL_REGS[g].rw_mask(gen) & !shared
}

impl PcounterSet {
    /// A domain set just out of reset (S8).
    pub fn new(cfg: Config) -> Result<PcounterSet, ConfigError> {
        cfg.validate()?;
        Ok(PcounterSet {
            domains: (0..cfg.num_domains).map(|dom| DomainState::new(&cfg, dom)).collect(),
            global: [0; NUM_GLOBAL_REGS],
            slots: vec![Slot::default(); cfg.num_domains],
            port: Port::new(cfg.num_domains),
            bind: false,
            dma_written: false,
            bound: false,
            bind_wrong_order: false,
            glob_prev: 0,
            glob_cnt: [0; 2],
            taken: 0,
            shared_took: 0,
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
        let exports = self.exports();
        for (dom, d) in self.domains.iter().enumerate() {
            d.view(&self.cfg, dom, &self.dom_inputs(inp, dom, None, exports, (false, false)), &mut out[dom]);
        }
    }

    /// Global register view (S11); a shared register composes its stored
    /// bits with the domains' fields (S24).
    pub fn global_view(&self) -> [u32; NUM_GLOBAL_REGS] {
        let mut v = self.global;
        for (g, x) in v.iter_mut().enumerate() {
            *x = self.global_read(g);
        }
        v
    }

    fn global_read(&self, g: usize) -> u32 {
        match regs::shared_target(g) {
            None => self.global[g],
            Some(t) => {
                // Only CTRL has readable per-domain fields; QUAD_ACK_TRIGGER's
                // are write-only (shared_rdata skips them).
                // No allocation: this runs every cycle of a lockstep run.
                let mut views = [0u32; NUM_DOMAINS_MAX];
                for (v, d) in views.iter_mut().zip(&self.domains) {
                    *v = if t == regs::CTRL { d.ctrl_view() } else { 0 };
                }
                regs::shared_rdata(g, self.global[g], &views[..self.domains.len()], self.cfg.gen)
            }
        }
    }

    /// The memory port's outputs of this cycle (S21; from state only).
    pub fn axi_out(&self) -> AxiOut {
        self.port.out(&self.slots)
    }

    /// Run one bus clock: answer the bus operation from this cycle's view,
    /// then compute and commit the next state of every domain.
    pub fn step(&mut self, inp: &CycleInputs) -> BusResult {
        self.check_inputs(inp);
        let mut result = BusResult::default();
        let mut dom_write: [Option<(usize, u32)>; NUM_DOMAINS_MAX] = [None; NUM_DOMAINS_MAX];
        let mut taken = 0u8;
        self.shared_took = 0;
        // Every domain sees this cycle's flops: snapshot before anything commits.
        let exports = self.exports();
        let gctrl = self.global[regs::GCTRL];
        let resets =
            (regs::field::GCTRL_PERIODIC_RESET.get(gctrl) != 0, regs::field::GCTRL_RECORD_RESET.get(gctrl) != 0);
        let mut bind = false;
        // S8: with StrictDecode = 0 a refused access is silent (PSLVERR 0).
        let refused = self.cfg.strict_decode;
        let (mut dma_written, mut bound) = (self.dma_written, self.bound);
        match inp.bus {
            None => {}
            Some(BusOp::Read { offset }) => match domain::target(&self.cfg, offset) {
                None => result.slverr = refused,
                Some(Target::Global { idx }) => result.rdata = self.global_read(idx),
                Some(Target::Dom { dom, idx }) => {
                    let mut v = [0u32; NUM_DOM_REGS];
                    self.domains[dom].view(
                        &self.cfg,
                        dom,
                        &self.dom_inputs(inp, dom, None, exports, (false, false)),
                        &mut v,
                    );
                    result.rdata = v[idx];
                }
            },
            Some(BusOp::Write { offset, data, strb }) => match domain::target(&self.cfg, offset) {
                // S0: partial strobes are refused like unmapped offsets.
                _ if strb != 0xf => result.slverr = refused,
                None => result.slverr = refused,
                Some(Target::Global { idx }) if regs::shared_target(idx).is_some() => {
                    // S24: each shared domain takes the write at its first tick.
                    let doms = shared_doms(idx, self.cfg.num_domains);
                    let take = doms & inp.ticks & !self.taken;
                    let target = regs::shared_target(idx).unwrap_or_default();
                    for (d, w) in dom_write.iter_mut().enumerate().filter(|(d, _)| take >> d & 1 != 0) {
                        *w = Some((target, regs::shared_wdata(idx, d, data, self.cfg.gen)));
                    }
                    self.shared_took = take;
                    if doms & !(self.taken | take) == 0 {
                        self.global[idx] = data & own_rw_mask(idx, self.cfg.gen);
                    } else {
                        result.ready = false;
                        taken = self.taken | take;
                    }
                }
                Some(Target::Global { idx }) => {
                    self.global[idx] = data & GLOBAL_REGS[idx].rw_mask(self.cfg.gen);
                    bind = idx == regs::RECORD_CHAN && regs::field::RECORD_CHAN_VALID.get(data) != 0;
                    // S21 (a): the channel binds only after the DMA object.
                    dma_written |= idx == regs::RECORD_DMA;
                    if bind {
                        bound = self.dma_written;
                    }
                }
                // S15: a write waits (PREADY = 0) until its domain ticks.
                Some(Target::Dom { dom, .. }) if inp.ticks >> dom & 1 == 0 => result.ready = false,
                Some(Target::Dom { dom, idx }) => dom_write[dom] = Some((idx, data)),
            },
        }
        // S21: the port runs on the bus clock from this cycle's slots; the
        // domains see the slots of this cycle too.
        let (port, done) = self.port.step(&self.slots, &inp.axi);
        for (dom, &write) in dom_write.iter().enumerate().take(self.domains.len()) {
            let di = self.dom_inputs(inp, dom, write, exports, resets);
            self.domains[dom].step(&self.cfg, dom, &di);
            let slot = &mut self.slots[dom];
            if let Some(p) = self.domains[dom].rec_sent {
                (slot.busy, slot.pkt) = (true, p);
            }
            if let Some((regs::CTRL, v)) = write {
                if regs::field::CTRL_FAULT_CLEAR.get(v) != 0 && self.cfg.gen.features().record {
                    slot.fault = false;
                }
            }
            // S21 (b): a send with the channel unbound faults at once (wins
            // over a FAULT_CLEAR of the same tick).
            if self.domains[dom].rec_events & crate::pcnt::record::event::UNBOUND_FAULT != 0 {
                (slot.fault, slot.wedged) = (true, true);
            }
        }
        if let Some((g, err)) = done {
            let slot = &mut self.slots[g];
            slot.busy = false;
            if err {
                (slot.fault, slot.wedged) = (true, true);
            }
        }
        self.port = port;
        self.taken = taken;
        self.bind_wrong_order = bind && !self.dma_written;
        self.bind = bind;
        (self.dma_written, self.bound) = (dma_written, bound);
        // S22: the global pulses are counted on the bus clock, per 0-to-1 edge.
        let levels = u8::from(inp.pm_trigger) | u8::from(inp.wrcache_flush) << 1;
        for (g, cnt) in self.glob_cnt.iter_mut().enumerate() {
            *cnt = pulse_sync::count_edge(*cnt, (levels & !self.glob_prev) >> g & 1 != 0);
        }
        self.glob_prev = levels;
        result
    }

    fn exports(&self) -> Exports {
        let mut x = Exports::default();
        for (dom, d) in self.domains.iter().enumerate() {
            d.export_into(dom, &mut x);
        }
        x
    }

    fn dom_inputs<'a>(
        &self,
        inp: &'a CycleInputs,
        dom: usize,
        write: Option<(usize, u32)>,
        exports: Exports,
        (periodic_reset, record_reset): (bool, bool),
    ) -> DomainInputs<'a> {
        DomainInputs {
            sig: &inp.sig[dom],
            glob_cnt: self.glob_cnt,
            write,
            tick: inp.ticks >> dom & 1 != 0,
            exports,
            present: ((1u16 << self.cfg.num_domains) - 1) as u8,
            periodic_reset,
            record_reset,
            rec_blocked: self.slots[dom].busy || self.slots[dom].wedged,
            rec_bound: self.bound,
            rec_fault: self.slots[dom].fault,
        }
    }
}
