//! The toy's CSR target (tests/csr.rs runs the shared suite on it): CTRL
//! and COUNT from tests/toy/README.md T1, T3, typed here by hand. event_i
//! stays 0, so COUNT only changes by writes.

use pcounter::common::bus::BusResult;
use pcounter_sim::devices::toy::cmd::Cmd;
use pcounter_sim::devices::toy::lockstep::ToyLockstep;

fn access(l: &mut ToyLockstep, c: &Cmd) -> BusResult {
    let r = l.exec(c).unwrap_or_else(|m| panic!("`{c}`: lockstep mismatch:\n{m}")).expect("a bus access");
    assert!(!r.slverr, "`{c}`: PSLVERR on a present register");
    r
}

impl crate::Bus for ToyLockstep {
    fn read(&mut self, addr: u32) -> u32 {
        access(self, &Cmd::Read { off: addr as u16, expect: None }).rdata
    }
    fn write(&mut self, addr: u32, data: u32) {
        access(self, &Cmd::Write { off: addr as u16, data, strb: 0xf });
    }
}

pub fn targets() -> Vec<crate::Target> {
    let reg = |name: &str, addr: u32, mask: u32| crate::CsrReg {
        name: name.to_string(),
        row: if addr == 0 { "CTRL" } else { "COUNT" },
        index: None,
        addr,
        reset: 0,
        back: crate::Back::Stored,
        mask,
        state: 0,
        acts: 0,
        cite: "tests/toy/README.md T1, T3",
    };
    vec![crate::Target {
        device: "toy",
        label: "TOY counter".to_string(),
        regs: vec![reg("CTRL", 0x0, 0x1), reg("COUNT", 0x4, 0xffff_ffff)],
        open: Box::new(|x_seed| Box::new(ToyLockstep::new(true, None, x_seed).unwrap())),
        after_write: crate::unchanged,
        reset_only: false,
    }]
}
