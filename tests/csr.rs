//! The CSR suite, written once for every device: each check below is one
//! test over every CSR target (a device configuration with its register
//! list), and every device of the registry (`pcounter_sim::devices`) must
//! have at least one target.
//!
//! - hw_reset: every register reads its reset value, from three random
//!   initial states of the RTL's flops;
//! - rw_random_values: random values to every register; each checked one
//!   reads back what its kind says (stored bits, 0, or the device's rule);
//! - bit_bash: walking 1 and walking 0 through every bit of every checked
//!   register;
//! - aliasing: with random values in every stored register, a write changes
//!   no other register's stored bits except by the side effects the device's
//!   semantics give its action bits (e.g. P7, P10).
//!
//! Every access runs through the device's lockstep (RTL compared with the
//! model on every cycle); the expectations come from each device's hand
//! table of its seed (`tests/<device>/seed_regs.rs`), or for GF100 from the
//! generated masks checked against its own hand table. The device's own
//! CSR tests (table against register map, decode holes, side effects with
//! exact values) sit in its module.

// Each device folder's CSR targets (`tests/<name>/csr.rs`, its `targets()`;
// sim/build.rs lists the folders): `device_targets()`.
include!(concat!(env!("OUT_DIR"), "/csr_targets.rs"));

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// What a read of a register returns after a write of `v` (the bits of
/// hardware state, `CsrReg::state`, masked out).
#[derive(Clone, Copy)]
pub enum Back {
    /// The stored bits: `v & mask`.
    Stored,
    /// 0 (write-only, write-1-to-clear with nothing pending, reserved).
    Zero,
    /// A device rule on the written value (GF100 USER_TRIGGER, S25.7).
    Rule(fn(u32) -> u32),
    /// Not checked after a write: counters and status, which follow the
    /// design's state (their reset value is still checked).
    State,
    /// A constant: reads its reset value whatever is written (discovery
    /// registers, P2).
    Reset,
}

/// One register of a target.
pub struct CsrReg {
    pub name: String,
    /// The row of the device's table (`CTL0`), and the counter or domain
    /// it is instantiated for.
    pub row: &'static str,
    pub index: Option<usize>,
    pub addr: u32,
    pub reset: u32,
    pub back: Back,
    /// Bits the register stores (what aliasing compares).
    pub mask: u32,
    /// Bits a read takes from hardware state, masked out after writes.
    pub state: u32,
    /// Action bits: writing them has effects on other registers
    /// (`Target::after_write`).
    pub acts: u32,
    pub cite: &'static str,
}

impl CsrReg {
    fn readback(&self, v: u32) -> Option<u32> {
        match self.back {
            Back::Stored => Some(v & self.mask & !self.state),
            Back::Zero => Some(0),
            Back::Rule(f) => Some(f(v) & !self.state),
            Back::State => None,
            Back::Reset => Some(self.reset),
        }
    }

    fn stores(&self) -> bool {
        matches!(self.back, Back::Stored | Back::Rule(_))
    }
}

/// Full-strobe accesses of a present register through a lockstep; an
/// implementation panics on a lockstep mismatch and on PSLVERR.
pub trait Bus {
    fn read(&mut self, addr: u32) -> u32;
    fn write(&mut self, addr: u32, data: u32);
}

/// A device configuration under test.
pub struct Target {
    /// Registry name of the device (`pcounter_sim::devices::DEVICES`).
    pub device: &'static str,
    pub label: String,
    pub regs: Vec<CsrReg>,
    /// A lockstep right after reset, the RTL's flops started from
    /// `x_seed`, in a state where nothing counts (so only writes change
    /// stored bits).
    pub open: Box<dyn Fn(u32) -> Box<dyn Bus>>,
    /// What `other` stores after `v` was written to `w`, from `before`.
    pub after_write: fn(w: &CsrReg, v: u32, other: &CsrReg, before: u32) -> u32,
    /// Only the reset values are checked (a configuration whose write
    /// tests another target covers).
    pub reset_only: bool,
}

/// No side effects: a write changes only its own register.
pub fn unchanged(_w: &CsrReg, _v: u32, _other: &CsrReg, before: u32) -> u32 {
    before
}

fn targets() -> Vec<Target> {
    device_targets()
}

fn written(all: Vec<Target>) -> impl Iterator<Item = Target> {
    all.into_iter().filter(|t| !t.reset_only)
}

/// The stored bits of every register (0 for those that store nothing).
fn stored(bus: &mut dyn Bus, regs: &[CsrReg]) -> Vec<u32> {
    regs.iter().map(|r| if r.stores() { bus.read(r.addr) & r.mask & !r.state } else { 0 }).collect()
}

#[test]
fn every_device_has_csr_targets() {
    let all = targets();
    for d in pcounter_sim::devices::DEVICES {
        let n = all.iter().filter(|t| t.device == d.name).count();
        assert!(n > 0, "device {} has no CSR target (tests/csr.rs targets())", d.name);
        assert!(
            all.iter().any(|t| t.device == d.name && !t.reset_only),
            "device {}: only reset values are checked",
            d.name
        );
    }
    for t in &all {
        assert!(!t.regs.is_empty(), "{}: no registers", t.label);
        assert!(
            pcounter_sim::devices::by_name(t.device).is_some(),
            "{}: device {} not in the registry",
            t.label,
            t.device
        );
    }
}

#[test]
fn hw_reset() {
    for t in targets() {
        for x_seed in [1, 2, 0xdead] {
            let mut bus = (t.open)(x_seed);
            for r in &t.regs {
                let got = bus.read(r.addr);
                assert_eq!(got, r.reset, "{}: {} after reset, x_seed {x_seed} ({})", t.label, r.name, r.cite);
            }
        }
    }
}

#[test]
fn rw_random_values() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xc5a);
    for t in written(targets()) {
        let mut bus = (t.open)(pcounter_sim::pcnt::lockstep::X_SEED);
        for _ in 0..8 {
            for r in &t.regs {
                let v: u32 = rng.gen();
                bus.write(r.addr, v);
                if let Some(want) = r.readback(v) {
                    let got = bus.read(r.addr) & !r.state;
                    assert_eq!(got, want, "{}: {} wrote {v:#010x} ({})", t.label, r.name, r.cite);
                }
            }
        }
    }
}

#[test]
fn bit_bash() {
    for t in written(targets()) {
        let mut bus = (t.open)(pcounter_sim::pcnt::lockstep::X_SEED);
        for r in &t.regs {
            for bit in 0..32 {
                for pattern in [1u32 << bit, !(1u32 << bit)] {
                    let Some(want) = r.readback(pattern) else { continue };
                    bus.write(r.addr, pattern);
                    let got = bus.read(r.addr) & !r.state;
                    assert_eq!(got, want, "{}: {} pattern {pattern:#010x} ({})", t.label, r.name, r.cite);
                }
            }
        }
    }
}

#[test]
fn aliasing() {
    let mut rng = ChaCha8Rng::seed_from_u64(0xa11a5);
    for t in written(targets()) {
        let mut bus = (t.open)(pcounter_sim::pcnt::lockstep::X_SEED);
        let regs = &t.regs;
        // Pass 1 flips every bit, action bits included; pass 2 (registers
        // with action bits only) leaves them 0, so nothing but the written
        // register may change.
        for with_actions in [true, false] {
            for (i, w) in regs.iter().enumerate().filter(|(_, w)| with_actions || w.acts != 0) {
                for r in regs.iter().filter(|r| r.stores()) {
                    bus.write(r.addr, rng.gen::<u32>() & !r.acts);
                }
                let before = stored(bus.as_mut(), regs);
                let mut v = if w.stores() { !bus.read(w.addr) } else { u32::MAX };
                if !with_actions {
                    v &= !w.acts;
                }
                bus.write(w.addr, v);
                let after = stored(bus.as_mut(), regs);
                for (j, o) in regs.iter().enumerate().filter(|(j, _)| *j != i) {
                    let want = (t.after_write)(w, v, o, before[j]);
                    assert_eq!(
                        after[j], want,
                        "{}: writing {v:#010x} to {} changed {} ({})",
                        t.label, w.name, o.name, w.cite
                    );
                }
                if let Some(want) = w.readback(v) {
                    assert_eq!(bus.read(w.addr) & !w.state, want, "{}: {} itself after {v:#010x}", t.label, w.name);
                }
            }
        }
    }
}
