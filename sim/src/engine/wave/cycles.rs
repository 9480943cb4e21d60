//! Waves in bus cycles. The shims dump the RTL at `10·cycle` (the cycle's
//! inputs applied, clock low) and `10·cycle + 5` (after the rising edge),
//! and the compared values sit at `10·cycle`; a user then reads "523530 ps"
//! for cycle 52353. [`fold_to_cycles`] rewrites such a dump with one
//! timestamp per bus cycle, so the time on the axis and at the marker is the
//! cycle number (`$timescale 1 ns`: one nanosecond is one bus cycle).
//!
//! Each timestamp `t` becomes `ceil(t / 10)`: cycle c's own dump stays at
//! c, and the post-edge dump of cycle c joins cycle c + 1, where the next
//! cycle's dump overrides what it changes again (per signal the last change
//! of a folded timestamp is kept). What is lost: the clock's waveform (it is
//! low at every whole cycle, so `clk_i` reads a constant 0) and the
//! combinational values between a rising edge and the next inputs; every
//! flop's value at every cycle stays.

use std::collections::HashSet;
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::Path;

use vcd::{Command, IdCode, TimescaleUnit};

use super::{annotate, open_vcd, write_header};

/// Raw time units per bus cycle in the shims' dumps and in `ExtraTrace`.
pub const RAW_PER_CYCLE: u64 = 10;

/// `input` (raw times) rewritten to `out` in bus cycles (module docs).
pub fn fold_to_cycles(input: &Path, out: &Path) -> io::Result<()> {
    let (mut header, parser) = open_vcd(input).map_err(|e| annotate(e, "reading VCD", input))?;
    header.timescale = Some((1, TimescaleUnit::NS));
    let werr = |e: io::Error| annotate(e, "writing VCD", out);
    let file = File::create(out).map_err(werr)?;
    let mut w = vcd::Writer::new(BufWriter::new(file));
    write_header(&mut w, &header).map_err(werr)?;
    let mut at: Option<u64> = None;
    let mut pending: Vec<Command> = Vec::new();
    for cmd in parser {
        match cmd.map_err(|e| annotate(e, "reading VCD", input))? {
            Command::Timestamp(t) => {
                let c = t.div_ceil(RAW_PER_CYCLE);
                if at != Some(c) {
                    flush(&mut w, at, &mut pending).map_err(werr)?;
                    at = Some(c);
                }
            }
            Command::ScopeDef(..) | Command::Upscope | Command::VarDef(..) | Command::Enddefinitions => {}
            other => pending.push(other),
        }
    }
    flush(&mut w, at, &mut pending).map_err(werr)?;
    w.flush().map_err(werr)
}

/// The signal a value change is of.
fn code(c: &Command) -> Option<IdCode> {
    match c {
        Command::ChangeScalar(i, _) | Command::ChangeVector(i, _) | Command::ChangeReal(i, _) => Some(*i),
        Command::ChangeString(i, _) => Some(*i),
        _ => None,
    }
}

/// Writes the commands of one folded timestamp, each signal's last change
/// only (in the order of those last changes).
fn flush<W: Write>(w: &mut vcd::Writer<W>, at: Option<u64>, pending: &mut Vec<Command>) -> io::Result<()> {
    let Some(t) = at else { return Ok(()) };
    if pending.is_empty() {
        return Ok(());
    }
    let mut seen = HashSet::new();
    let mut keep: Vec<&Command> = pending.iter().rev().filter(|c| code(c).is_none_or(|i| seen.insert(i))).collect();
    keep.reverse();
    w.timestamp(t)?;
    for c in keep {
        w.command(c)?;
    }
    pending.clear();
    Ok(())
}
