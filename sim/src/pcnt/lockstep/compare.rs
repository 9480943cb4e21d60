//! The per-cycle compare of RTL and model (docs/semantics.md S11) and the
//! register values recorded for the wave file.

use pcounter::pcnt::record::AxiOut;
use pcounter::pcnt::regs::{self, NUM_DOM_REGS, NUM_GLOBAL_REGS};
use pcounter::{common::bus::BusOp, common::bus::BusResult};

use crate::pcnt::stim::MMIO_BASE;

use super::{dom_reg_name, wave_name, Engine, Mismatch, W_CYCLE, W_MISMATCH};

impl Engine {
    /// The memory port's outputs and the bind event, every cycle (S21).
    pub(super) fn compare_axi(&self, m: &AxiOut, m_bind: bool) -> Option<Mismatch> {
        let rtl = self.rtl.as_ref()?;
        let r = &rtl.out.axi;
        let fields: [(&str, u128, u128); 11] = [
            ("AWVALID", m.awvalid.into(), r.awvalid.into()),
            ("AWADDR", m.awaddr.into(), r.awaddr.into()),
            ("AWLEN", m.awlen.into(), r.awlen.into()),
            ("AWSIZE", m.awsize.into(), r.awsize.into()),
            ("AWBURST", m.awburst.into(), r.awburst.into()),
            ("WVALID", m.wvalid.into(), r.wvalid.into()),
            ("WDATA", m.wdata, r.wdata),
            ("WSTRB", m.wstrb.into(), r.wstrb.into()),
            ("WLAST", m.wlast.into(), r.wlast.into()),
            ("BREADY", m.bready.into(), r.bready.into()),
            ("rec_bind_o", m_bind.into(), rtl.out.bind.into()),
        ];
        let diffs: Vec<&(&str, u128, u128)> = fields.iter().filter(|f| f.1 != f.2).collect();
        let (name, e, a) = **diffs.first()?;
        // The name alone identifies the failure (shrinking matches on it); the
        // full values (WDATA is 128 bits) go in the field lines.
        let mut m = self.mismatch(format!("AXI {name} of the record memory port"), e as u32, a as u32);
        m.fields = Some((format!("{name}={e:#x}"), format!("{name}={a:#x}")));
        m.also = diffs.iter().skip(1).map(|d| d.0.to_string()).collect();
        Some(m)
    }

    pub(super) fn compare(
        &self,
        bus: Option<BusOp>,
        res: BusResult,
        glob: &[u32; NUM_GLOBAL_REGS],
    ) -> Option<Mismatch> {
        let rtl = self.rtl.as_ref()?;
        // (wave scope, what, expected, actual, register for field decoding)
        type Diff = (Option<String>, String, u32, u32, Option<&'static regs::Reg>);
        let mut diffs: Vec<Diff> = Vec::new();
        for (dom, view) in self.view.iter().enumerate() {
            let got = &rtl.out.dom_regs[dom * NUM_DOM_REGS..(dom + 1) * NUM_DOM_REGS];
            if got != view {
                for (idx, r) in regs::DOM_REGS.iter().enumerate() {
                    if got[idx] != view[idx] {
                        diffs.push((Some(format!("dom{dom}")), dom_reg_name(dom, idx), view[idx], got[idx], Some(r)));
                    }
                }
            }
        }
        for (idx, r) in regs::GLOBAL_REGS.iter().enumerate() {
            if rtl.out.glob_regs[idx] != glob[idx] {
                diffs.push((Some("global".into()), r.name.to_string(), glob[idx], rtl.out.glob_regs[idx], Some(r)));
            }
        }
        // The bus outputs are compared in every cycle (S0): outside a read's
        // ACCESS cycle the model's result is PRDATA 0, PSLVERR 0.
        let at = match bus {
            Some(BusOp::Write { offset, .. }) => format!("write {:#06x}", MMIO_BASE + u32::from(offset)),
            Some(BusOp::Read { offset }) => format!("read {:#06x}", MMIO_BASE + u32::from(offset)),
            None => "a cycle without ACCESS".to_string(),
        };
        if rtl.out.prdata != res.rdata {
            diffs.push((None, format!("PRDATA in {at}"), res.rdata, rtl.out.prdata, None));
        }
        if rtl.out.pslverr != res.slverr {
            diffs.push((None, format!("PSLVERR in {at}"), res.slverr.into(), rtl.out.pslverr.into(), None));
        }
        if rtl.out.pready != res.ready {
            diffs.push((None, format!("PREADY in {at}"), res.ready.into(), rtl.out.pready.into(), None));
        }
        let (scope, what, expected, actual, reg) = diffs.first()?.clone();
        Some(Mismatch {
            cycle: self.cycle,
            scope,
            what,
            expected,
            actual,
            fields: reg.map(|r| (r.decode_fields(expected), r.decode_fields(actual))),
            wave_reg: reg.map(|r| wave_name(r.name)),
            also: diffs.iter().skip(1).map(|d| d.1.clone()).collect(),
            history: self.history_vec(),
            assertion: None,
            expectation: false,
        })
    }

    pub(super) fn record_wave(&mut self, glob: &[u32; NUM_GLOBAL_REGS], mismatch: bool) {
        let Some(w) = &mut self.wave else { return };
        let t = self.cycle * 10;
        let mut put = |sig: usize, v: u64| {
            if w.last[sig] != Some(v) {
                w.last[sig] = Some(v);
                w.trace.changes.push((t, sig, v));
            }
        };
        put(W_MISMATCH, mismatch.into());
        put(W_CYCLE, self.cycle & 0xffff_ffff);
        let mut s = 2;
        for (dom, view) in self.view.iter().enumerate() {
            for (idx, v) in view.iter().enumerate() {
                let dut = self.rtl.as_ref().map_or(*v, |r| r.out.dom_regs[dom * NUM_DOM_REGS + idx]);
                put(s, dut.into());
                put(s + 1, (*v).into());
                s += 2;
            }
        }
        for (idx, v) in glob.iter().enumerate() {
            let dut = self.rtl.as_ref().map_or(*v, |r| r.out.glob_regs[idx]);
            put(s, dut.into());
            put(s + 1, (*v).into());
            s += 2;
        }
    }
}
