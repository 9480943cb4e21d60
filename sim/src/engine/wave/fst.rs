//! FST: the same waves, compressed. A failure's waves are always built as
//! a VCD first (the RTL half is Verilator's VCD, read with the `vcd` crate
//! and merged with the compared values, then folded to bus cycles);
//! [`vcd_to_fst`] converts that finished VCD, so the merge keeps one reader
//! and one writer and the FST holds exactly the VCD's signals and values.
//!
//! Writer: `fst-writer` (pure Rust, BSD-3-Clause, by the author of the
//! `wellen` waveform library; LZ4 and zlib in Rust too), chosen over
//! `wavefst`, whose gzip support builds a C library; it needs Rust 1.85,
//! the workspace's `rust-version`.
//!
//! Names: a vector var is declared as `name [msb:lsb]` (a bit select as
//! `name [i]`), the form Verilator's own FST writer uses, so GTKWave names
//! every signal as it does in the VCD and a `.gtkw` serves both files
//! (checked against GTKWave itself in the tests). Real vars keep their
//! 64-bit value; string and event vars (never in the harness's dumps) are
//! left out.

use std::collections::HashMap;
use std::io;
use std::path::Path;

use fst_writer::{
    FstBodyWriter, FstFileType, FstHeaderWriter, FstInfo, FstScopeType, FstSignalId, FstSignalType, FstVarDirection,
    FstVarType,
};
use vcd::{Command, Header, IdCode, ReferenceIndex, ScopeItem, ScopeType, TimescaleUnit, Value, Var, VarType};

use super::{annotate, invalid, open_vcd};

/// Value changes kept in memory before a block is compressed to the file.
const FLUSH_BYTES: usize = 32 << 20;

/// `vcd` rewritten as the FST `fst` (module docs).
pub fn vcd_to_fst(vcd: &Path, fst: &Path) -> io::Result<()> {
    let rerr = |e: io::Error| annotate(e, "reading VCD", vcd);
    let werr = |e: fst_writer::FstWriteError| annotate(io::Error::other(e.to_string()), "writing FST", fst);
    let (header, parser) = open_vcd(vcd).map_err(rerr)?;
    let info = FstInfo {
        // FST's time zero (`$timezero`), which GTKWave adds to every time
        // shown: none, so times read as in the VCD.
        start_time: 0,
        timescale_exponent: timescale_exponent(&header),
        version: header.version.clone().unwrap_or_default(),
        date: header.date.clone().unwrap_or_default(),
        file_type: FstFileType::Verilog,
    };
    let mut head = fst_writer::open_fst(fst, &info).map_err(werr)?;
    let mut signals = Signals::default();
    declare(&mut head, &header.items, &mut signals).map_err(werr)?;
    let mut body = head.finish().map_err(werr)?;
    for cmd in parser {
        match cmd.map_err(rerr)? {
            Command::Timestamp(t) => {
                if body.size() >= FLUSH_BYTES {
                    body.flush().map_err(werr)?;
                }
                body.time_change(t).map_err(werr)?;
            }
            Command::ChangeScalar(id, v) => signals.change(&mut body, id, &[v]).map_err(rerr)?,
            Command::ChangeVector(id, v) => {
                signals.change(&mut body, id, &v.iter().collect::<Vec<_>>()).map_err(rerr)?
            }
            Command::ChangeReal(id, r) => {
                if let Some(&(sig, _)) = signals.by_code.get(&id) {
                    body.signal_change(sig, &r.to_le_bytes()).map_err(werr)?;
                }
            }
            _ => {}
        }
    }
    body.finish().map_err(werr)?;
    Ok(())
}

/// FST id and width (0 for a real) of each VCD id code that was declared.
#[derive(Default)]
struct Signals {
    by_code: HashMap<IdCode, (FstSignalId, u32)>,
}

impl Signals {
    /// One value change; a VCD vector shorter than its var is extended on
    /// the left as VCD defines (by 0, or by its first digit if x or z).
    fn change<W: io::Write + io::Seek>(
        &self,
        body: &mut FstBodyWriter<W>,
        id: IdCode,
        bits: &[Value],
    ) -> io::Result<()> {
        let Some(&(sig, width)) = self.by_code.get(&id) else { return Ok(()) };
        let width = width as usize;
        if width == 0 || bits.len() > width {
            return Err(invalid(format!("value of {} bits for the {width}-bit var {id}", bits.len())));
        }
        let fill = match bits.first() {
            Some(Value::X) => b'x',
            Some(Value::Z) => b'z',
            _ => b'0',
        };
        let mut text = vec![fill; width - bits.len()];
        text.extend(bits.iter().map(|b| match b {
            Value::V0 => b'0',
            Value::V1 => b'1',
            Value::X => b'x',
            Value::Z => b'z',
        }));
        body.signal_change(sig, &text).map_err(|e| invalid(e.to_string()))
    }
}

/// Declares `items` in FST (scopes, then vars; a repeated id code is an alias).
fn declare<W: io::Write + io::Seek>(
    w: &mut FstHeaderWriter<W>,
    items: &[ScopeItem],
    signals: &mut Signals,
) -> fst_writer::Result<()> {
    for item in items {
        match item {
            ScopeItem::Scope(s) => {
                w.scope(&s.identifier, "", scope_type(s.scope_type))?;
                declare(w, &s.items, signals)?;
                w.up_scope()?;
            }
            ScopeItem::Var(v) => {
                let Some((var_type, signal, width)) = var_kind(v) else { continue };
                let alias = signals.by_code.get(&v.code).map(|&(id, _)| id);
                let id = w.var(fst_name(v), signal, var_type, FstVarDirection::Implicit, alias)?;
                signals.by_code.entry(v.code).or_insert((id, width));
            }
            _ => {}
        }
    }
    Ok(())
}

/// The var's name as Verilator's FST writer spells it (module docs).
fn fst_name(v: &Var) -> String {
    match v.index {
        Some(ReferenceIndex::Range(m, l)) => format!("{} [{m}:{l}]", v.reference),
        Some(ReferenceIndex::BitSelect(i)) => format!("{} [{i}]", v.reference),
        None => v.reference.clone(),
    }
}

/// FST var type, signal type and width (0: real) of a VCD var; `None` for
/// the kinds left out (module docs).
fn var_kind(v: &Var) -> Option<(FstVarType, FstSignalType, u32)> {
    let bits = |t| Some((t, FstSignalType::bit_vec(v.size.max(1)), v.size.max(1)));
    match v.var_type {
        VarType::Real => Some((FstVarType::Real, FstSignalType::real(), 0)),
        VarType::String | VarType::Event => None,
        VarType::Integer => bits(FstVarType::Integer),
        VarType::Parameter => bits(FstVarType::Parameter),
        VarType::Reg => bits(FstVarType::Reg),
        VarType::Time => bits(FstVarType::Time),
        _ => bits(FstVarType::Wire),
    }
}

fn scope_type(t: ScopeType) -> FstScopeType {
    match t {
        ScopeType::Task => FstScopeType::Task,
        ScopeType::Function => FstScopeType::Function,
        ScopeType::Begin => FstScopeType::Begin,
        ScopeType::Fork => FstScopeType::Fork,
        _ => FstScopeType::Module,
    }
}

/// FST's time unit, 10^e s, from the VCD's `$timescale` (1 ps without one).
fn timescale_exponent(h: &Header) -> i8 {
    let (mult, unit) = h.timescale.unwrap_or((1, TimescaleUnit::PS));
    let unit_exp: i8 = match unit {
        TimescaleUnit::S => 0,
        TimescaleUnit::MS => -3,
        TimescaleUnit::US => -6,
        TimescaleUnit::NS => -9,
        TimescaleUnit::PS => -12,
        TimescaleUnit::FS => -15,
    };
    // The multiplier is 1, 10 or 100 in a valid VCD.
    unit_exp + (mult.max(1).ilog10() as i8)
}
