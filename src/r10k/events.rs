//! The R10000/R12000 event lists as the counter sees them (seed 002
//! "EVENTS"; docs/semantics.md R4..R6): which event source an Event value
//! selects on which counter, which sources are the cycle count, and the most
//! each source can add in one cycle. Hand-written: these are facts of the
//! event lists, not of the register map (`regs`, generated from
//! regmap/r10k.rdl, has the Event field and the port's shape). The RTL's
//! side is `rtl/r10k/r10k_counter.sv` (the select and the cycle sources);
//! the per-cycle maxima are the CPU's promise, so only the model and the
//! stimulus use them.

use super::regs::Variant;

impl Variant {
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
            // R10000 1: issued "to ALU, FPU or load/store units", five
            // units (ALU1, ALU2, FPU1, FPU2, load/store), one each.
            (Variant::R10000, 1) => 5,
            // Instructions decoded/resolved/graduated, loads, FP: up to four
            // a cycle (seed R12000 18 "Up to four loads", 21 "0 to 4"). Event
            // 6 (branches resolved): the R12000's "multiple floating-point
            // conditional branches being resolved in a single cycle", and
            // the NOTES make revision 3 of the R10000 the same (R6, R12).
            (Variant::R10000, 6 | 15 | 17 | 18 | 21) => 4,
            (Variant::R12000, 1 | 6 | 15 | 18 | 21) => 4,
            // R12000 4: "The MHT has five entries ... All five entries".
            (Variant::R12000, 4) => 5,
            // R12000 30: the MHT without its fifth slot.
            (Variant::R12000, 30) => 4,
            // R10000 28, 29: one hit a cycle, the lists' titles ("hits in
            // secondary cache") over the text copied from the R12000's (R6).
            (Variant::R10000, 28 | 29) => 1,
            // R12000 28, 29: the state of the line hit, 00..11.
            (Variant::R12000, 28 | 29) => 3,
            // 31: "incremented by two" for a shared line.
            (_, 31) => 2,
            _ => 1,
        }
    }
}
