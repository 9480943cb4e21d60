//! Waveform output for lockstep mismatches.
//!
//! On a mismatch the harness re-runs the failing window with Verilator tracing
//! on. [`merge_vcd`] copies that VCD and adds the harness's own signals (DUT
//! register values, model expectations, a 1-bit `mismatch` marker) under a
//! top-level `lockstep` scope, so one file holds both sides. [`write_gtkw`]
//! writes a GTKWave save file that opens it with the signals grouped and the
//! primary marker on the mismatch; [`vcd_to_fst`] converts the finished
//! VCD when FST is asked for (`--wave fst`, module `fst`).
//!
//! # Signal names in a `.gtkw` file
//!
//! A save file names a trace by the full name GTKWave 3.3 builds when it loads
//! a VCD (`vcd_recoder.c`); a name it does not know is silently dropped, so
//! these rules matter:
//! - scopes and the `$var` reference are joined with `.`;
//! - a multi-bit vector gets `[msb:lsb]`, taken from the `$var` index when
//!   there is one and `[width-1:0]` otherwise: `TOP.pcnt_top.count[31:0]`;
//! - a 1-bit signal keeps its bare name (`lockstep.mismatch`), or `name[i]`
//!   when its `$var` carries a bit index `[i]`;
//! - `real`/`string` vars, and multi-bit `integer`/`parameter` vars, get no
//!   subscript.
//!
//! Extra signals are declared the way Verilator declares its own (a
//! `[width-1:0]` index on vectors, none on bits), so [`gtkw_name`] returns e.g.
//! `lockstep.dom0.CTR_EVENT_dut[31:0]` or `lockstep.mismatch`.
//! [`gtkw_names_in_vcd`] lists every name of a VCD by the same rules, for
//! checking names before they go into a save file.

use std::collections::{HashMap, HashSet};
use std::fmt::Write as _;
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::iter::once;
use std::path::Path;

mod cycles;
mod fst;
mod gtkw;
mod viewer;
pub use cycles::{fold_to_cycles, RAW_PER_CYCLE};
pub use fst::vcd_to_fst;
pub use gtkw::{gtkw_opening, with_dumpfile, GtkwOpening, GTKW_WAVE_PX_RANGE};
pub use viewer::{real_gtkwave_view, GtkwaveView};

use vcd::{Command, Header, IdCode, ReferenceIndex, Scope, ScopeItem, ScopeType, TimescaleUnit, Value, Var, VarType};

/// Top-level scope that holds the harness's signals in the merged VCD.
pub const EXTRA_TOP_SCOPE: &str = "lockstep";

/// A signal the harness adds to the merged VCD.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExtraSignal {
    /// Scope path below `lockstep` (may be empty).
    pub scope: Vec<String>,
    pub name: String,
    /// 1..=64 bits, since values are `u64`.
    pub width: u32,
}

/// Extra signals and their value changes; `changes` sorted by time (stable for equal times).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ExtraTrace {
    pub signals: Vec<ExtraSignal>,
    /// `(time, index into signals, value)`.
    pub changes: Vec<(u64, usize, u64)>,
}

impl ExtraTrace {
    /// The top-level 1-bit signal `name` reads 1 from `time` to `time + len`
    /// whatever was recorded there, and what was recorded afterwards (the
    /// changes stay sorted; one of `name`'s own at `time + len` is kept).
    /// No effect when there is no such signal.
    pub fn pulse(&mut self, name: &str, time: u64, len: u64) {
        let Some(i) = self.signals.iter().position(|s| s.scope.is_empty() && s.name == name && s.width == 1) else {
            return;
        };
        let own = |c: &&(u64, usize, u64)| c.1 == i;
        let before = self.changes.iter().filter(own).rfind(|c| c.0 <= time).map_or(0, |c| c.2);
        let end = time.saturating_add(len);
        let inside: Vec<u64> =
            self.changes.iter().filter(own).filter(|c| c.0 > time && c.0 < end).map(|c| c.2).collect();
        let after = inside.last().copied().unwrap_or(before);
        self.changes.retain(|c| c.1 != i || c.0 <= time || c.0 >= end);
        self.changes.push((time, i, 1));
        if !self.changes.iter().any(|c| c.1 == i && c.0 == end) {
            self.changes.push((end, i, after));
        }
        // Stable: each pushed change lands after the others of its time.
        self.changes.sort_by_key(|c| c.0);
    }
}

/// Full GTKWave name of an [`ExtraSignal`] as [`merge_vcd`] declares it (see the module docs).
pub fn gtkw_name(sig: &ExtraSignal) -> String {
    let mut name = String::from(EXTRA_TOP_SCOPE);
    for part in sig.scope.iter().chain(once(&sig.name)) {
        name.push('.');
        name.push_str(part);
    }
    if sig.width > 1 {
        let _ = write!(name, "[{}:0]", sig.width - 1);
    }
    name
}

/// Merge: copy `rtl_vcd` (header scopes + all value changes) and add `extra`
/// under a new top-level scope `lockstep` (each signal's `scope` path is
/// created below it), interleaving value changes by time. Times of `extra` are
/// in the units of the rtl VCD's timestamps. If `rtl_vcd` is None, write a VCD
/// with only the extra signals (timescale 1 ps).
///
/// Header constructs vcd 0.7 cannot parse are mapped or skipped (Verilator's
/// `$scope struct`/`union`/`interface` become `module` scopes, see
/// `read_header_text`); definitions found after `$enddefinitions` are dropped.
/// Extra changes need not be sorted: they are stably sorted here. On error no
/// output file is left behind.
pub fn merge_vcd(rtl_vcd: Option<&Path>, extra: &ExtraTrace, out: &Path) -> io::Result<()> {
    check_extras(extra)?;
    let mut changes = extra.changes.clone();
    changes.sort_by_key(|c| c.0);

    let (mut header, parser) = match rtl_vcd {
        Some(rtl) => {
            if same_file(rtl, out) {
                return Err(invalid(format!("merged VCD {} would overwrite the RTL VCD it reads", out.display())));
            }
            let (header, parser) = open_vcd(rtl).map_err(|e| annotate(e, "reading RTL VCD", rtl))?;
            let top_taken =
                header.items.iter().any(|i| matches!(i, ScopeItem::Scope(s) if s.identifier == EXTRA_TOP_SCOPE));
            if top_taken {
                return Err(invalid(format!(
                    "RTL VCD {} already has a top-level scope `{EXTRA_TOP_SCOPE}`",
                    rtl.display()
                )));
            }
            (header, Some((rtl, parser)))
        }
        None => {
            let mut header = Header::default();
            header.timescale = Some((1, TimescaleUnit::PS));
            (header, None)
        }
    };
    // Extra ids fill gaps among the rtl's ids, so they cannot collide and stay short.
    let mut used = HashSet::new();
    collect_codes(&header.items, &mut used);
    let codes = free_codes(&used, extra.signals.len());
    header.items.push(ScopeItem::Scope(extra_scope(&extra.signals, &codes)));

    let file = File::create(out).map_err(|e| annotate(e, "writing merged VCD", out))?;
    let ex = ExtraWriter { signals: &extra.signals, codes: &codes, changes: &changes, next: 0, last_ts: None };
    let written = write_merged(vcd::Writer::new(BufWriter::new(file)), &header, parser, ex, out);
    if written.is_err() {
        // A half-merged file would look like a short simulation; leave none.
        let _ = fs::remove_file(out);
    }
    written
}

/// Writes the merged header, then the rtl body (if any) with the extras interleaved.
fn write_merged<W: Write>(
    mut w: vcd::Writer<W>,
    header: &Header,
    rtl: Option<(&Path, VcdParser)>,
    mut ex: ExtraWriter,
    out: &Path,
) -> io::Result<()> {
    let werr = |e: io::Error| annotate(e, "writing merged VCD", out);
    write_header(&mut w, header).map_err(werr)?;
    if let Some((rtl, parser)) = rtl {
        for cmd in parser {
            let cmd = cmd.map_err(|e| annotate(e, "reading RTL VCD", rtl))?;
            match cmd {
                Command::Timestamp(t) => {
                    // Extras strictly before t get their own timestamps; those at t join the rtl's.
                    ex.write_while(&mut w, |x| x < t).map_err(werr)?;
                    w.timestamp(t).map_err(werr)?;
                    ex.last_ts = Some(t);
                    ex.write_while(&mut w, |x| x <= t).map_err(werr)?;
                }
                // Definitions are invalid after $enddefinitions; vcd::Writer would also
                // debug-assert on a stray $upscope or $var, so drop them.
                Command::ScopeDef(..) | Command::Upscope | Command::VarDef(..) | Command::Enddefinitions => {}
                other => w.command(&other).map_err(werr)?,
            }
        }
    }
    ex.write_while(&mut w, |_| true).map_err(werr)?;
    w.flush().map_err(werr)
}

/// Write a GTKWave save file that opens `vcd` with signal groups (each: a
/// name and full GTKWave signal names, see the module docs), vectors in hex,
/// 1-bit signals binary, the primary marker at `marker_time` and the view
/// opening on the marker with `context` time units before it when the dump
/// leaves room for that after the marker (GTKWave's rule: [`gtkw`]; with too
/// little dump after the marker, the whole dump).
///
/// Times are in the VCD's timestamp units; `vcd` is read to scale them by its
/// timescale multiplier (GTKWave counts `10ps` files in ps), to learn signal
/// widths and the dump's first and last time. The dumpfile is written
/// relative to `out`'s folder ([`relative_to`]), so the save file opens from
/// any working directory and wherever the folder is copied. Names
/// that are not in the VCD are still written (GTKWave skips them); check them
/// with [`gtkw_names_in_vcd`] if that matters.
pub fn write_gtkw(
    vcd: &Path,
    out: &Path,
    groups: &[(String, Vec<String>)],
    marker_time: u64,
    context: u64,
) -> io::Result<()> {
    for (group, names) in groups {
        if group.contains(['\n', '\r']) {
            return Err(invalid(format!("gtkw group name {group:?} contains a line break")));
        }
        for name in names {
            check_gtkw_signal_name(name)?;
        }
    }
    let (header, _) = open_vcd(vcd).map_err(|e| annotate(e, "reading VCD", vcd))?;
    let scale = header.timescale.map_or(1, |(n, _)| u64::from(n));
    let widths: HashMap<String, u32> = gtkw_names(&header).into_iter().collect();

    let dump = dump_span(vcd)?;
    let folder = out.parent().filter(|p| !p.as_os_str().is_empty()).unwrap_or(Path::new("."));
    let save = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let text = gtkw::text(
        &relative_to(vcd, folder)?,
        &save,
        groups,
        &widths,
        marker_time.saturating_mul(scale),
        context.saturating_mul(scale),
        (dump.0.saturating_mul(scale), dump.1.saturating_mul(scale)),
    );
    fs::write(out, text).map_err(|e| annotate(e, "writing GTKWave save file", out))
}

/// `path` as seen from `folder`: its name when it is in `folder`, else
/// `../` steps from their common ancestor (both made absolute first).
pub fn relative_to(path: &Path, folder: &Path) -> io::Result<String> {
    let abs = |p: &Path| fs::canonicalize(p).map_err(|e| annotate(e, "resolving", p));
    let (file, dir) = (abs(path)?, abs(folder)?);
    let (f, d): (Vec<_>, Vec<_>) = (file.components().collect(), dir.components().collect());
    let common = f.iter().zip(&d).take_while(|(a, b)| a == b).count();
    let mut rel: Vec<String> = vec!["..".into(); d.len() - common];
    rel.extend(f[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned()));
    Ok(rel.join("/"))
}

/// First and last timestamp of `vcd` (VCD units): GTKWave's `tims.first` and
/// `tims.last`, which decide whether it honours `[timestart]` (see [`gtkw`]).
pub fn dump_span(vcd: &Path) -> io::Result<(u64, u64)> {
    let (_, parser) = open_vcd(vcd).map_err(|e| annotate(e, "reading VCD", vcd))?;
    let mut span: Option<(u64, u64)> = None;
    for cmd in parser {
        if let Command::Timestamp(t) = cmd.map_err(|e| annotate(e, "reading VCD", vcd))? {
            span = Some(span.map_or((t, t), |(a, b)| (a.min(t), b.max(t))));
        }
    }
    span.ok_or_else(|| invalid(format!("VCD {} has no timestamp", vcd.display())))
}

/// Every signal of `vcd` as GTKWave names it in a save file, with its width
/// (1 for real and string vars).
pub fn gtkw_names_in_vcd(vcd: &Path) -> io::Result<Vec<(String, u32)>> {
    let (header, _) = open_vcd(vcd).map_err(|e| annotate(e, "reading VCD", vcd))?;
    Ok(gtkw_names(&header))
}

// ---------------------------------------------------------------------------
// Merge helpers

fn check_extras(extra: &ExtraTrace) -> io::Result<()> {
    let mut seen = HashSet::new();
    for sig in &extra.signals {
        let full = gtkw_name(sig);
        // Parts become VCD tokens and GTKWave hierarchy levels.
        for part in sig.scope.iter().chain(once(&sig.name)) {
            if part.is_empty() || part.starts_with('$') || !part.chars().all(|c| c.is_ascii_graphic() && c != '.') {
                return Err(invalid(format!(
                    "extra signal {full}: name part {part:?} must be printable ASCII without spaces or '.' and not start with '$'"
                )));
            }
        }
        if !(1..=64).contains(&sig.width) {
            return Err(invalid(format!("extra signal {full}: width {} is not in 1..=64", sig.width)));
        }
        if !seen.insert(full.clone()) {
            return Err(invalid(format!("extra signal {full} is declared twice")));
        }
    }
    for &(time, idx, value) in &extra.changes {
        let sig = extra.signals.get(idx).ok_or_else(|| {
            invalid(format!("extra change at time {time} names signal {idx}, but there are {}", extra.signals.len()))
        })?;
        if sig.width < 64 && value >> sig.width != 0 {
            return Err(invalid(format!(
                "extra signal {}: value {value:#x} at time {time} does not fit in {} bits",
                gtkw_name(sig),
                sig.width
            )));
        }
    }
    Ok(())
}

fn collect_codes(items: &[ScopeItem], used: &mut HashSet<IdCode>) {
    for item in items {
        match item {
            ScopeItem::Var(v) => {
                used.insert(v.code);
            }
            ScopeItem::Scope(s) => collect_codes(&s.items, used),
            _ => {}
        }
    }
}

fn free_codes(used: &HashSet<IdCode>, n: usize) -> Vec<IdCode> {
    let mut codes = Vec::with_capacity(n);
    let mut code = IdCode::FIRST;
    while codes.len() < n {
        if !used.contains(&code) {
            codes.push(code);
        }
        code = code.next();
    }
    codes
}

fn extra_scope(signals: &[ExtraSignal], codes: &[IdCode]) -> Scope {
    let mut top = Scope::new(ScopeType::Module, EXTRA_TOP_SCOPE.to_string());
    for (sig, &code) in signals.iter().zip(codes) {
        let mut scope = &mut top;
        for part in &sig.scope {
            scope = child_scope(scope, part);
        }
        // Same shape as Verilator's declarations, which is what gtkw_name assumes.
        let index = (sig.width > 1).then(|| ReferenceIndex::Range(sig.width as i32 - 1, 0));
        scope.items.push(ScopeItem::Var(Var::new(VarType::Wire, sig.width, code, sig.name.clone(), index)));
    }
    top
}

fn child_scope<'a>(parent: &'a mut Scope, name: &str) -> &'a mut Scope {
    let found = parent.items.iter().position(|i| matches!(i, ScopeItem::Scope(s) if s.identifier == name));
    let pos = found.unwrap_or_else(|| {
        parent.items.push(ScopeItem::Scope(Scope::new(ScopeType::Module, name.to_string())));
        parent.items.len() - 1
    });
    match &mut parent.items[pos] {
        ScopeItem::Scope(s) => s,
        _ => unreachable!("position() matched a scope"),
    }
}

/// Like `vcd::Writer::header`, but a top-level `$var` (legal VCD, and parsed
/// by the crate) is written raw: `Writer::var` debug-asserts it is in a scope.
fn write_header<W: Write>(w: &mut vcd::Writer<W>, h: &Header) -> io::Result<()> {
    if let Some(date) = &h.date {
        w.date(date)?;
    }
    if let Some(version) = &h.version {
        w.version(version)?;
    }
    if let Some((n, unit)) = h.timescale {
        w.timescale(n, unit)?;
    }
    for item in &h.items {
        match item {
            ScopeItem::Scope(s) => w.scope(s)?,
            ScopeItem::Comment(c) => w.comment(c)?,
            ScopeItem::Var(v) => {
                let index = v.index.map(|i| format!(" {i}")).unwrap_or_default();
                writeln!(w.writer(), "$var {} {} {} {}{} $end", v.var_type, v.size, v.code, v.reference, index)?;
            }
            _ => {}
        }
    }
    w.enddefinitions()
}

/// Streams the sorted extra changes into the output between rtl commands.
struct ExtraWriter<'a> {
    signals: &'a [ExtraSignal],
    codes: &'a [IdCode],
    changes: &'a [(u64, usize, u64)],
    next: usize,
    /// Last timestamp written to the output, by either side.
    last_ts: Option<u64>,
}

impl ExtraWriter<'_> {
    /// Writes pending changes while `take(time)` holds, adding a timestamp when time moves.
    fn write_while<W: Write>(&mut self, w: &mut vcd::Writer<W>, take: impl Fn(u64) -> bool) -> io::Result<()> {
        while let Some(&(time, idx, value)) = self.changes.get(self.next) {
            if !take(time) {
                break;
            }
            if self.last_ts != Some(time) {
                w.timestamp(time)?;
                self.last_ts = Some(time);
            }
            let (width, code) = (self.signals[idx].width, self.codes[idx]);
            if width == 1 {
                w.change_scalar(code, value & 1 == 1)?;
            } else {
                w.change_vector(code, (0..width).rev().map(|bit| Value::from((value >> bit) & 1 == 1)))?;
            }
            self.next += 1;
        }
        Ok(())
    }
}

// ---------------------------------------------------------------------------
// Reading

type VcdParser = vcd::Parser<io::Chain<io::Cursor<Vec<u8>>, BufReader<File>>>;

/// Parses the header of `path`, returning the parser positioned at the body.
fn open_vcd(path: &Path) -> io::Result<(Header, VcdParser)> {
    let mut reader = BufReader::new(File::open(path)?);
    let head = read_header_text(&mut reader)?;
    let mut parser = vcd::Parser::new(io::Cursor::new(head).chain(reader));
    let header = parser.parse_header()?;
    Ok((header, parser))
}

/// Reads the header text through `$enddefinitions` and rewrites what vcd 0.7
/// cannot parse, so that e.g. Verilator's `$scope struct s $end`
/// (`--trace-structs`) still loads:
/// - scope types other than module/task/function/begin/fork (struct, union,
///   interface, GTKWave's vhdl_*) become `module`: hierarchy and names stay;
/// - unknown var types (logic, bit, int, ...) become `wire`, real-valued ones
///   (realtime, shortreal) `real`;
/// - unknown header commands (`$attrbegin ... $end`, ...) are dropped.
///
/// Line breaks are kept so parse errors still give the file's line numbers.
fn read_header_text<R: BufRead>(reader: &mut R) -> io::Result<Vec<u8>> {
    #[derive(PartialEq)]
    enum State {
        Command,
        /// Inside a known command: keep tokens (ids like `$` included) up to `$end`.
        Keep,
        FreeText,
        ScopeType,
        VarType,
        Skip,
        Done,
    }
    let mut state = State::Command;
    let mut out = Vec::new();
    let mut line = Vec::new();
    while state != State::Done {
        line.clear();
        if reader.read_until(b'\n', &mut line)? == 0 {
            break; // no $enddefinitions: the vcd parser reports it
        }
        let mut rest = &line[..];
        while let Some(start) = rest.iter().position(|b| !b.is_ascii_whitespace()) {
            let len = rest[start..].iter().position(|b| b.is_ascii_whitespace()).unwrap_or(rest.len() - start);
            let token = &rest[start..start + len];
            out.extend_from_slice(&rest[..start]);
            rest = &rest[start + len..];
            let (text, next): (&[u8], State) = match state {
                State::Command => match token {
                    b"$comment" | b"$date" | b"$version" => (token, State::FreeText),
                    b"$scope" => (token, State::ScopeType),
                    b"$var" => (token, State::VarType),
                    b"$enddefinitions" => (token, State::Done),
                    b"$timescale" | b"$upscope" => (token, State::Keep),
                    t if t.starts_with(b"$") => (b"", State::Skip),
                    _ => (token, State::Command),
                },
                State::Keep => (token, if token == b"$end" { State::Command } else { State::Keep }),
                // The crate ends free text at the first "$end", even inside a word.
                State::FreeText => (token, if token.ends_with(b"$end") { State::Command } else { State::FreeText }),
                State::ScopeType => match token {
                    b"module" | b"task" | b"function" | b"begin" | b"fork" => (token, State::Keep),
                    _ => (b"module", State::Keep),
                },
                State::VarType => match token {
                    b"event" | b"integer" | b"parameter" | b"real" | b"reg" | b"supply0" | b"supply1" | b"time"
                    | b"tri" | b"triand" | b"trior" | b"trireg" | b"tri0" | b"tri1" | b"wand" | b"wire" | b"wor"
                    | b"string" => (token, State::Keep),
                    b"realtime" | b"shortreal" => (b"real", State::Keep),
                    _ => (b"wire", State::Keep),
                },
                State::Skip => (b"", if token == b"$end" { State::Command } else { State::Skip }),
                // Rest of the $enddefinitions line belongs to the body: keep it as is.
                State::Done => (token, State::Done),
            };
            out.extend_from_slice(text);
            state = next;
        }
        out.extend_from_slice(rest);
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// GTKWave naming and save file

/// GTKWave's name and width of every var in `header` (rules in the module docs).
fn gtkw_names(header: &Header) -> Vec<(String, u32)> {
    fn walk(items: &[ScopeItem], prefix: &str, out: &mut Vec<(String, u32)>) {
        for item in items {
            match item {
                ScopeItem::Scope(s) => walk(&s.items, &format!("{prefix}{}.", s.identifier), out),
                ScopeItem::Var(v) => out.push(gtkw_var_name(prefix, v)),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(&header.items, "", &mut out);
    out
}

/// Mirrors GTKWave 3.3 `vcd_recoder.c` (default settings) for one var.
fn gtkw_var_name(prefix: &str, v: &Var) -> (String, u32) {
    let name = format!("{prefix}{}", v.reference);
    if matches!(v.var_type, VarType::Real | VarType::String) {
        return (name, 1);
    }
    let size = v.size.max(1);
    let (msb, lsb) = match v.index {
        Some(ReferenceIndex::Range(m, l)) => (i64::from(m), i64::from(l)),
        Some(ReferenceIndex::BitSelect(i)) => (i64::from(i), i64::from(i)),
        None => (-1, -1),
    };
    if size == 1 {
        return if msb >= 0 { (format!("{name}[{msb}]"), 1) } else { (name, 1) };
    }
    if matches!(v.var_type, VarType::Integer | VarType::Parameter) {
        return (name, size);
    }
    let top = i64::from(size) - 1;
    // No usable range, or one wider than the var: GTKWave falls back to [size-1:0]
    // (keeping the direction of an ascending range).
    let (msb, lsb) = if (msb <= 0 && lsb <= 0) || (msb > lsb && msb - lsb > top) {
        (top, 0)
    } else if lsb >= msb && lsb - msb > top {
        (0, top)
    } else {
        (msb, lsb)
    };
    (format!("{name}[{msb}:{lsb}]"), size)
}

/// A save-file line starting with one of these is a command, not a signal.
const GTKW_COMMAND_CHARS: &[char] = &['*', '@', '-', '+', '>', '^', '!', '?', '#', ':', '(', '['];

/// Rejects names GTKWave would read as a command, or (with a space) as a
/// concatenation of several signals.
fn check_gtkw_signal_name(name: &str) -> io::Result<()> {
    let bad = name.is_empty() || name.starts_with(GTKW_COMMAND_CHARS) || name.contains(char::is_whitespace);
    if bad {
        return Err(invalid(format!("{name:?} cannot be a signal line in a GTKWave save file")));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Small utilities

fn invalid(msg: String) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, msg)
}

/// Prefixes an error with what was being done to which file.
fn annotate(e: io::Error, doing: &str, path: &Path) -> io::Error {
    io::Error::new(e.kind(), format!("{doing} {}: {e}", path.display()))
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

#[cfg(test)]
mod fst_tests;
#[cfg(test)]
mod tests;
