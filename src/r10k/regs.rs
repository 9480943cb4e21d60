//! R10000/R12000 event-counter register map and event lists (seed 002,
//! `002_402b4141d12f561e.clean.txt`; docs/semantics.md R1..R13): window
//! offsets, control-register fields, write masks per variant, and the
//! per-cycle maximum of every event source. Hand-written, mirroring
//! `rtl/r10k/r10k_reg_pkg.sv` (the lockstep compare and the table tests
//! catch a disagreement); it moves to the SystemRDL flow after PMON.

/// The two processors of the seed ("THE COUNTERS").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Variant {
    R10000,
    R12000,
}

impl Variant {
    pub const ALL: [Variant; 2] = [Variant::R10000, Variant::R12000];

    pub fn name(self) -> &'static str {
        match self {
            Variant::R10000 => "r10000",
            Variant::R12000 => "r12000",
        }
    }

    pub fn from_name(s: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == s)
    }

    /// The RTL's `Variant` parameter value (r10k_reg_pkg).
    pub fn param(self) -> u32 {
        match self {
            Variant::R10000 => 0,
            Variant::R12000 => 1,
        }
    }

    /// Events per counter: 16 on the R10000, 32 on the R12000 (seed "THE
    /// COUNTERS"); R2.
    pub fn events_per_counter(self) -> u32 {
        match self {
            Variant::R10000 => 16,
            Variant::R12000 => 32,
        }
    }

    /// The control register's Event field (R2: bits 8:5 on the R10000,
    /// 9:5 on the R12000).
    pub fn event_field(self) -> Field {
        match self {
            Variant::R10000 => Field { lsb: 5, width: 4 },
            Variant::R12000 => Field { lsb: 5, width: 5 },
        }
    }

    /// Stored control bits (R3): Event, IE, U, S, K, EXL.
    pub fn ctl_wr_mask(self) -> u32 {
        self.event_field().mask() | 0x1f
    }

    /// The event source counter `ctr` counts with Event = `event` (R4): the
    /// R10000's counter 1 has the seed's events 16..31, the R12000's two
    /// counters share the list 0..31.
    pub fn source(self, ctr: usize, event: u32) -> usize {
        match self {
            Variant::R10000 => ctr * 16 + event as usize,
            Variant::R12000 => event as usize,
        }
    }

    /// Is source `src` the cycle count ("0=cycles", "16=cycles")? Counted
    /// inside the device, 1 every cycle; its input is ignored (R5).
    pub fn is_cycles(self, src: usize) -> bool {
        match self {
            Variant::R10000 => src == 0 || src == 16,
            Variant::R12000 => src == 0,
        }
    }

    /// The most source `src` can add in one cycle (R6): what the seed's
    /// event text implies; the CPU never drives more, the model refuses it.
    pub fn max_inc(self, src: usize) -> u8 {
        match (self, src) {
            (_, s) if self.is_cycles(s) => 1,
            // Instructions issued/decoded/graduated, loads, FP: up to four
            // a cycle (seed R12000 18 "Up to four loads", 21 "0 to 4").
            (Variant::R10000, 1 | 15 | 17 | 18 | 21) => 4,
            (Variant::R12000, 1 | 6 | 15 | 18 | 21) => 4,
            // R12000 4: "The MHT has five entries ... All five entries".
            (Variant::R12000, 4) => 5,
            // R12000 30: the MHT without its fifth slot.
            (Variant::R12000, 30) => 4,
            // 28, 29: the state of the line hit, 00..11.
            (_, 28 | 29) => 3,
            // 31: "incremented by two" for a shared line.
            (_, 31) => 2,
            _ => 1,
        }
    }
}

/// Event sources on the `event_i` port (R4): 32 for both variants.
pub const NUM_SOURCES: usize = 32;
/// Bits per source on the port: the largest per-cycle count is 5 (R6).
pub const INC_W: u32 = 3;
/// Counters (seed: "two performance counters").
pub const NUM_COUNTERS: usize = 2;

/// Window offsets (R1): the CP0 register 25 selects 0..3 at 4 * select.
pub const CTL0: u16 = 0x00;
pub const CNT0: u16 = 0x04;
pub const CTL1: u16 = 0x08;
pub const CNT1: u16 = 0x0c;
/// First offset past the window.
pub const WINDOW_END: u16 = 0x10;

pub const fn ctl(j: usize) -> u16 {
    CTL0 + 8 * j as u16
}
pub const fn cnt(j: usize) -> u16 {
    CNT0 + 8 * j as u16
}

/// A field of a 32-bit register.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Field {
    pub lsb: u32,
    pub width: u32,
}

impl Field {
    pub const fn mask(self) -> u32 {
        (((1u64 << self.width) - 1) as u32) << self.lsb
    }
    pub const fn get(self, v: u32) -> u32 {
        (v & self.mask()) >> self.lsb
    }
    pub const fn set(self, v: u32, x: u32) -> u32 {
        (v & !self.mask()) | ((x << self.lsb) & self.mask())
    }
}

/// Control register fields common to both variants (seed "THE CONTROL
/// REGISTERS").
pub mod ctl {
    use super::Field;
    pub const EXL: Field = Field { lsb: 0, width: 1 };
    pub const K: Field = Field { lsb: 1, width: 1 };
    pub const S: Field = Field { lsb: 2, width: 1 };
    pub const U: Field = Field { lsb: 3, width: 1 };
    /// The four count-enable bits 3:0.
    pub const MODE: Field = Field { lsb: 0, width: 4 };
    pub const IE: Field = Field { lsb: 4, width: 1 };
}

/// What an offset names (R1).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Target {
    Ctl(usize),
    Cnt(usize),
}

/// Decode an offset (bits 1:0 ignored, R1); None: no register (PSLVERR).
pub fn decode(offset: u16) -> Option<Target> {
    if offset >= WINDOW_END {
        return None;
    }
    let j = usize::from(offset >> 3);
    Some(if offset & 4 == 0 { Target::Ctl(j) } else { Target::Cnt(j) })
}
