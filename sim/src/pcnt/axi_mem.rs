//! The harness's AXI4 subordinate for the record-mode memory port
//! (docs/semantics.md S21) and the memory images it fills.
//!
//! Timing is a function of its own state only (Moore), so the same inputs
//! go to RTL and model in a cycle: AWREADY and WREADY rise after a delay
//! drawn per transaction; once both the address and the data of a beat are
//! in, BVALID rises after a drawn latency and stays until BREADY. Delays come
//! from a ChaCha8 stream seeded by `latency MIN MAX SEED` and drawn at fixed
//! points (a handshake), so a replay draws the same numbers. Addresses in a
//! `fault` range answer SLVERR and store nothing.
//!
//! Two images: one written by the RTL's beats (the subordinate follows the
//! RTL), one by the model's; the lockstep compares every manager output each
//! cycle, and the images at `mem` reads and at the end of a run.

use std::collections::BTreeMap;

use pcounter::pcnt::record::{AxiIn, AxiOut, RESP_OKAY};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// AXI4 BRESP SLVERR.
pub const RESP_SLVERR: u8 = 2;

/// A sparse byte-addressed image, in 16-byte lines.
pub type Image = BTreeMap<u64, u128>;

/// Address and data of a beat as they arrive (per side).
#[derive(Clone, Copy, Debug, Default)]
struct Collect {
    aw: Option<u64>,
    w: Option<u128>,
}

impl Collect {
    fn take(&mut self, o: &AxiOut, i: &AxiIn) -> Option<(u64, u128)> {
        if o.awvalid && i.awready {
            self.aw = Some(o.awaddr);
        }
        if o.wvalid && i.wready {
            self.w = Some(o.wdata);
        }
        match (self.aw, self.w) {
            (Some(a), Some(w)) => {
                *self = Collect::default();
                Some((a, w))
            }
            _ => None,
        }
    }
}

pub struct AxiMem {
    rng: ChaCha8Rng,
    min: u32,
    max: u32,
    faults: Vec<(u64, u64)>,
    aw_wait: u32,
    w_wait: u32,
    /// Response waiting to be accepted: (BRESP, cycles left before BVALID).
    b: Option<(u8, u32)>,
    collect: [Collect; 2],
    /// [RTL-driven, model-driven] images.
    images: [Image; 2],
}

impl Default for AxiMem {
    fn default() -> AxiMem {
        AxiMem::new(0, 0, 0)
    }
}

impl AxiMem {
    pub fn new(min: u32, max: u32, seed: u64) -> AxiMem {
        AxiMem {
            rng: ChaCha8Rng::seed_from_u64(seed),
            min,
            max,
            faults: Vec::new(),
            aw_wait: 0,
            w_wait: 0,
            b: None,
            collect: [Collect::default(); 2],
            images: [Image::new(), Image::new()],
        }
    }

    /// `latency MIN MAX SEED`: new delays from the next draw on.
    pub fn set_latency(&mut self, min: u32, max: u32, seed: u64) {
        (self.min, self.max, self.rng) = (min, max, ChaCha8Rng::seed_from_u64(seed));
    }

    pub fn add_fault(&mut self, lo: u64, hi: u64) {
        self.faults.push((lo, hi));
    }

    fn draw(&mut self) -> u32 {
        if self.max == 0 {
            0
        } else {
            self.rng.gen_range(self.min..=self.max)
        }
    }

    /// This cycle's subordinate outputs (from state only).
    pub fn inputs(&self) -> AxiIn {
        let (busy_aw, busy_w) = (self.collect[0].aw.is_some(), self.collect[0].w.is_some());
        AxiIn {
            awready: self.aw_wait == 0 && !busy_aw && self.b.is_none(),
            wready: self.w_wait == 0 && !busy_w && self.b.is_none(),
            bvalid: matches!(self.b, Some((_, 0))),
            bresp: self.b.map_or(0, |b| b.0),
        }
    }

    /// End of a cycle: `rtl` drives the timing and the first image (pass
    /// the model's outputs when the RTL does not run), `model` the second.
    pub fn update(&mut self, rtl: &AxiOut, model: &AxiOut, i: &AxiIn) {
        if let Some((resp, left)) = self.b {
            if left == 0 && rtl.bready {
                self.b = None;
            } else if left > 0 {
                self.b = Some((resp, left - 1));
            }
        }
        let aw_hs = rtl.awvalid && i.awready;
        let w_hs = rtl.wvalid && i.wready;
        for (side, o) in [rtl, model].into_iter().enumerate() {
            if let Some((a, d)) = self.collect[side].take(o, i) {
                let faulted = self.faults.iter().any(|&(lo, hi)| lo <= a && a <= hi);
                if !faulted {
                    self.images[side].insert(a & !0xf, d);
                }
                if side == 0 {
                    let resp = if faulted { RESP_SLVERR } else { RESP_OKAY };
                    let left = self.draw();
                    self.b = Some((resp, left));
                }
            }
        }
        if aw_hs {
            self.aw_wait = self.draw();
        } else {
            self.aw_wait = self.aw_wait.saturating_sub(1);
        }
        if w_hs {
            self.w_wait = self.draw();
        } else {
            self.w_wait = self.w_wait.saturating_sub(1);
        }
    }

    /// 32-bit little-endian word at `addr` (4-aligned) of an image; 0 where
    /// nothing was written.
    pub fn word(&self, side: usize, addr: u64) -> u32 {
        let line = self.images[side].get(&(addr & !0xf)).copied().unwrap_or(0);
        (line >> (8 * (addr & 0xc))) as u32
    }

    /// First 16-byte line where the two images differ.
    pub fn first_difference(&self) -> Option<(u64, u128, u128)> {
        let keys: std::collections::BTreeSet<u64> =
            self.images[0].keys().chain(self.images[1].keys()).copied().collect();
        keys.into_iter().find_map(|k| {
            let (r, m) = (self.images[0].get(&k).copied(), self.images[1].get(&k).copied());
            (r != m).then(|| (k, m.unwrap_or(0), r.unwrap_or(0)))
        })
    }
}
