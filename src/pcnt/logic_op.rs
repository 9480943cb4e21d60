//! One input calculation: four selected signals through the 16-bit truth table
//! (seed 003 "Input selection"; docs/semantics.md S10). Mirrors
//! `rtl/pcnt/pcnt_logic_op.sv`.

use crate::pcnt::regs::Gen;

/// Which OP register bit layout applies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpLayout {
    /// PRE_OP, START_OP, SETFLAG_OP, CLRFLAG_OP: bit 18 = ARG2 <- prev SRC[0],
    /// bit 19 = ARG3 <- prev SRC[1] (G92+).
    Plain,
    /// EVENT_OP, STOP_OP: bit 18 = ARG3 <- SETFLAG, bit 19 = ARG2 <- prev
    /// SRC[0] (G92+), bit 20 = ARG3 <- prev SRC[1] (G92+) unless bit 18.
    EventLike,
}

fn bit(v: u32, n: u32) -> bool {
    (v >> n) & 1 != 0
}

/// `src`: SRC[0..3] of this cycle; `prev`: SRC[0], SRC[1] of the previous
/// cycle; `setflag`: this cycle's SETFLAG (used by `EventLike` only).
pub fn eval(op: u32, layout: OpLayout, gen: Gen, src: [bool; 4], prev: [bool; 2], setflag: bool) -> bool {
    let delayed_args = gen.features().delayed_args;
    let mut arg = src;
    if bit(op, 16) {
        arg[0] = prev[0];
    }
    if bit(op, 17) {
        arg[1] = prev[1];
    }
    match layout {
        OpLayout::Plain => {
            if delayed_args && bit(op, 18) {
                arg[2] = prev[0];
            }
            if delayed_args && bit(op, 19) {
                arg[3] = prev[1];
            }
        }
        OpLayout::EventLike => {
            if delayed_args && bit(op, 19) {
                arg[2] = prev[0];
            }
            if delayed_args && bit(op, 20) {
                arg[3] = prev[1];
            }
            // S10: SETFLAG wins over the delay replace of ARG3.
            if bit(op, 18) {
                arg[3] = setflag;
            }
        }
    }
    let idx = u32::from(arg[0]) | u32::from(arg[1]) << 1 | u32::from(arg[2]) << 2 | u32::from(arg[3]) << 3;
    bit(op, idx)
}
