//! Scenario scripts: a hand-written text format that replays driver-style
//! MMIO sequences against the RTL and the model in lockstep.
//!
//! ```text
//! # comment (also allowed after a command)
//! gen gt215                 # nv40 | g84 | g92 | gt215, or a list: gen nv40,g84
//! domains 2                 # 1..=8, default 1
//! clock 1 3                 # domain 1 ticks once every 3 bus clocks
//! write 0xa7c0 0x0000_0001  # MMIO write
//! read 0xa600               # MMIO read, value is printed
//! read 0xa600 == 0x64       # fails the script if different
//! read 0xa7c0 & 0x03000000 == 0x03000000
//! read 0xa600 in 100..110   # inclusive range
//! read 0xa704 trace 0x12    # prints the value beside 0x12 (what a recorded
//!                           # driver trace read there); never fails
//! wait 100                  # bus clock cycles; 0 is a no-op
//! set 0 0x12 1              # hold external signal 0x12 of domain 0 at 1
//! pulse pm_trigger          # one-cycle pulse (pm_trigger | wrcache_flush)
//! ```
//!
//! Configuration lines (`gen`, `domains`, `clock`) must precede the first
//! body command. Numbers are decimal or `0x`-hex, with optional `_`
//! separators. Keywords are lowercase and case-sensitive.
//!
//! The parser never panics; every problem is reported as a [`ParseError`]
//! naming the file, the 1-based line and what was expected there.

use std::fmt;

/// Generations the harness can run today.
pub const GENS: &[&str] = &["nv40", "g84", "g92", "gt215"];
/// Generations the format will accept later: a distinct message tells the
/// user the name is right but support is missing, rather than "unknown".
const GENS_LATER: &[&str] = &["nv10", "nv15", "nv20", "nv30", "gf100"];
pub const DEFAULT_GEN: &str = "gt215";
pub const MAX_DOMAINS: usize = 8;
/// MMIO window of PCOUNTER (full bus addresses, inclusive).
pub const MMIO_FIRST: u32 = 0xa000;
pub const MMIO_LAST: u32 = 0xafff;

const READ_USAGE: &str = "read ADDR [== VALUE | & MASK == VALUE | in LO..HI | trace VALUE]";
const U32: &str = "decimal or 0x-hex u32";

/// What a `read` must return for the script to pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expect {
    Eq(u32),
    MaskEq {
        mask: u32,
        value: u32,
    },
    /// Inclusive on both ends; the parser guarantees `lo <= hi`.
    Range {
        lo: u32,
        hi: u32,
    },
    /// `read ADDR trace VALUE`: the value a recorded driver trace read at
    /// this address (`pcnt import-mmiotrace`). Printed beside the value read,
    /// never checked: the signals on real hardware differ from the harness's.
    Trace(u32),
}

impl Expect {
    pub fn check(&self, v: u32) -> bool {
        match *self {
            Expect::Eq(x) => v == x,
            Expect::MaskEq { mask, value } => v & mask == value,
            Expect::Range { lo, hi } => lo <= v && v <= hi,
            Expect::Trace(_) => true,
        }
    }

    /// The expectation in script syntax (what follows `read ADDR`), so a
    /// failure message can be pasted back into a script.
    pub fn describe(&self) -> String {
        match *self {
            Expect::Eq(x) => format!("== {x:#x}"),
            Expect::MaskEq { mask, value } => format!("& {mask:#x} == {value:#x}"),
            Expect::Range { lo, hi } => format!("in {lo}..{hi}"),
            Expect::Trace(x) => format!("trace {x:#010x}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GlobalInput {
    PmTrigger,
    WrcacheFlush,
}

impl GlobalInput {
    pub fn name(&self) -> &'static str {
        match self {
            GlobalInput::PmTrigger => "pm_trigger",
            GlobalInput::WrcacheFlush => "wrcache_flush",
        }
    }
}

/// A counter the `poke` backdoor can preload (docs/semantics.md S14).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Counter {
    /// CTR_CYCLES and its copy CTR_CYCLES_ALT.
    Cycles,
    Event,
    Start,
    Pre,
    Stop,
    /// Quad mode shadow counters (S17).
    ShCycles,
    ShEvent,
    ShStart,
    ShPre,
    ShStop,
    /// The PERIODIC generator's 17-bit counter (S18); values are masked.
    PeriodicCnt,
    /// Record mode (S21): CYCLES bits 31:0 and 47:32, STOP (12 bits), and
    /// event counter i (16 bits); values are masked to the width.
    RecCycles,
    RecCyclesHi,
    RecStop,
    RecEv(u8),
}

impl Counter {
    pub const ALL: [Counter; 11] = [
        Counter::Cycles,
        Counter::Event,
        Counter::Start,
        Counter::Pre,
        Counter::Stop,
        Counter::ShCycles,
        Counter::ShEvent,
        Counter::ShStart,
        Counter::ShPre,
        Counter::ShStop,
        Counter::PeriodicCnt,
    ];
    /// The record-mode counters (S21).
    pub fn record() -> impl Iterator<Item = Counter> {
        [Counter::RecCycles, Counter::RecCyclesHi, Counter::RecStop].into_iter().chain((0..12).map(Counter::RecEv))
    }

    pub fn from_name(tok: &str) -> Option<Counter> {
        Counter::ALL.into_iter().chain(Counter::record()).find(|c| c.name() == tok)
    }

    /// Bits the counter holds (a poked value is masked to them).
    pub fn width(&self) -> u32 {
        match self {
            Counter::PeriodicCnt => 17,
            Counter::RecCyclesHi | Counter::RecEv(_) => 16,
            Counter::RecStop => 12,
            _ => 32,
        }
    }

    /// Script name.
    pub fn name(&self) -> &'static str {
        const EV: [&str; 12] = [
            "rec_ev0", "rec_ev1", "rec_ev2", "rec_ev3", "rec_ev4", "rec_ev5", "rec_ev6", "rec_ev7", "rec_ev8",
            "rec_ev9", "rec_ev10", "rec_ev11",
        ];
        match self {
            Counter::Cycles => "ctr_cycles",
            Counter::Event => "ctr_event",
            Counter::Start => "ctr_start",
            Counter::Pre => "ctr_pre",
            Counter::Stop => "ctr_stop",
            Counter::ShCycles => "sh_cycles",
            Counter::ShEvent => "sh_event",
            Counter::ShStart => "sh_start",
            Counter::ShPre => "sh_pre",
            Counter::ShStop => "sh_stop",
            Counter::PeriodicCnt => "periodic_cnt",
            Counter::RecCycles => "rec_cycles",
            Counter::RecCyclesHi => "rec_cycles_hi",
            Counter::RecStop => "rec_stop",
            Counter::RecEv(i) => EV[usize::from(*i) % 12],
        }
    }

    /// The RTL flop (in `pcnt_domain`, or `u_record` inside it) and the
    /// counter's lowest bit in it; the width is [`Counter::width`].
    pub fn rtl_flop(&self) -> (&'static str, u32) {
        match self {
            Counter::Cycles => ("ctr_cycles_q", 0),
            Counter::Event => ("ctr_event_q", 0),
            Counter::Start => ("ctr_start_q", 0),
            Counter::Pre => ("ctr_pre_q", 0),
            Counter::Stop => ("ctr_stop_q", 0),
            // shadow_q packs cycles, EVENT, START, PRE, STOP (pcnt_pkg::Quad*).
            Counter::ShCycles => ("shadow_q", 0),
            Counter::ShEvent => ("shadow_q", 32),
            Counter::ShStart => ("shadow_q", 64),
            Counter::ShPre => ("shadow_q", 96),
            Counter::ShStop => ("shadow_q", 128),
            Counter::PeriodicCnt => ("per_cnt_q", 0),
            Counter::RecCycles => ("u_record.cycles_q", 0),
            Counter::RecCyclesHi => ("u_record.cycles_q", 32),
            Counter::RecStop => ("u_record.stop_q", 0),
            Counter::RecEv(i) => ("u_record.ev_q", 16 * u32::from(*i)),
        }
    }
}

/// When a domain ticks (docs/semantics.md S15); cycle 0 is the first cycle
/// after reset.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ClockSpec {
    /// `clock D M/N` (or `clock D N` = 1/N): ticks when `cycle % n < m`.
    Ratio { m: u32, n: u32 },
    /// `clock D irregular SEED`: ticks when `splitmix64(seed + cycle) % 8 < 5`.
    Irregular { seed: u64 },
}

impl ClockSpec {
    pub fn ticks(&self, cycle: u64) -> bool {
        match *self {
            ClockSpec::Ratio { m, n } => cycle % u64::from(n) < u64::from(m),
            ClockSpec::Irregular { seed } => splitmix64(seed.wrapping_add(cycle)) % 8 < 5,
        }
    }
}

impl fmt::Display for ClockSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClockSpec::Ratio { m: 1, n } => write!(f, "{n}"),
            ClockSpec::Ratio { m, n } => write!(f, "{m}/{n}"),
            ClockSpec::Irregular { seed } => write!(f, "irregular {seed}"),
        }
    }
}

/// SplitMix64 (Steele, Lea, Flood 2014): a fixed, portable hash for the
/// irregular clock pattern.
pub fn splitmix64(x: u64) -> u64 {
    let mut z = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// `strb` is the APB4 PSTRB (4'hf unless the line says `strb MASK`).
    Write {
        addr: u32,
        data: u32,
        strb: u8,
    },
    Read {
        addr: u32,
        expect: Option<Expect>,
    },
    Wait {
        cycles: u64,
    },
    Set {
        dom: u8,
        sig: u8,
        value: bool,
    },
    /// Verification backdoor: set a counter of a domain before the next clock.
    Poke {
        dom: u8,
        counter: Counter,
        value: u32,
    },
    /// High for the next `cycles` clocks (1 unless the line gives a count).
    Pulse {
        input: GlobalInput,
        cycles: u32,
    },
    /// Read a 32-bit word of the simulated record memory (S21); no clock.
    Mem {
        addr: u64,
        expect: Option<Expect>,
    },
    /// Writes to `lo..=hi` answer SLVERR from now on (S21).
    Fault {
        lo: u64,
        hi: u64,
    },
    /// AWREADY/WREADY delays and B latency drawn from MIN..=MAX per
    /// transaction, from a ChaCha8 stream seeded with `seed` (S21).
    Latency {
        min: u32,
        max: u32,
        seed: u64,
    },
}

impl crate::shrink::Wait for Cmd {
    fn wait_cycles(&self) -> Option<u64> {
        match self {
            Cmd::Wait { cycles } => Some(*cycles),
            _ => None,
        }
    }
    fn wait(cycles: u64) -> Cmd {
        Cmd::Wait { cycles }
    }
}

/// Script syntax of one command, so harness messages and [`render`] agree.
impl fmt::Display for Cmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Cmd::Write { addr, data, strb: 0xf } => write!(f, "write {addr:#06x} {data:#010x}"),
            Cmd::Write { addr, data, strb } => write!(f, "write {addr:#06x} {data:#010x} strb {strb:#x}"),
            Cmd::Read { addr, expect: None } => write!(f, "read {addr:#06x}"),
            Cmd::Read { addr, expect: Some(e) } => write!(f, "read {addr:#06x} {}", e.describe()),
            Cmd::Wait { cycles } => write!(f, "wait {cycles}"),
            Cmd::Set { dom, sig, value } => write!(f, "set {dom} {sig:#04x} {}", u8::from(*value)),
            Cmd::Poke { dom, counter, value } => write!(f, "poke {dom} {} {value:#010x}", counter.name()),
            Cmd::Pulse { input, cycles: 1 } => write!(f, "pulse {}", input.name()),
            Cmd::Pulse { input, cycles } => write!(f, "pulse {} {cycles}", input.name()),
            Cmd::Mem { addr, expect: None } => write!(f, "mem {addr:#x}"),
            Cmd::Mem { addr, expect: Some(e) } => write!(f, "mem {addr:#x} {}", e.describe()),
            Cmd::Fault { lo, hi } => write!(f, "fault {lo:#x} {hi:#x}"),
            Cmd::Latency { min, max, seed } => write!(f, "latency {min} {max} {seed}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// 1-based line number in the source text.
    pub line: usize,
    pub cmd: Cmd,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Script {
    /// One of [`GENS`]; [`DEFAULT_GEN`] if the script has no `gen` line.
    pub gen: String,
    /// 1..=[`MAX_DOMAINS`]; 1 if the script has no `domains` line.
    pub domains: usize,
    /// (domain, divider) from `clock` lines, in source order; each domain
    /// at most once, every domain < `domains`, every divider >= 1.
    pub clocks: Vec<(u8, ClockSpec)>,
    /// `xseed N`: the RTL's random initial values (S14); `None` = the default.
    pub x_seed: Option<u32>,
    /// `decode lax` (S8: StrictDecode = 0, holes read 0, no PSLVERR);
    /// true (`decode strict`) is the default.
    pub strict: bool,
    /// `layout default | real | odd` (S9, S19): per-domain signal layout.
    pub layout: pcounter::Layout,
    pub body: Vec<Line>,
}

impl Default for Script {
    fn default() -> Self {
        Script {
            gen: DEFAULT_GEN.to_string(),
            domains: 1,
            clocks: Vec::new(),
            x_seed: None,
            strict: true,
            layout: pcounter::Layout::Default,
            body: Vec::new(),
        }
    }
}

impl Script {
    /// The script exactly as `parse(render(self))` returns it: zero waits
    /// dropped, consecutive waits merged, lines renumbered to the rendered
    /// layout. This makes the render round trip an equality that tests can
    /// assert, instead of "equal up to line numbers".
    pub fn compact(&self) -> Script {
        let mut cmds: Vec<Cmd> = Vec::new();
        for l in &self.body {
            if let Cmd::Wait { cycles } = l.cmd {
                if cycles == 0 {
                    continue;
                }
                if let Some(Cmd::Wait { cycles: prev }) = cmds.last_mut() {
                    // On overflow keep a second wait: saturating would change timing.
                    if let Some(sum) = prev.checked_add(cycles) {
                        *prev = sum;
                        continue;
                    }
                }
            }
            cmds.push(l.cmd.clone());
        }
        let first = body_first_line(self);
        let body = cmds.into_iter().enumerate().map(|(i, cmd)| Line { line: first + i, cmd }).collect();
        Script { body, ..self.clone() }
    }
}

/// Rendered layout: `gen`, `domains`, one line per clock, `xseed` if any, a
/// blank line, body.
fn body_first_line(s: &Script) -> usize {
    s.clocks.len()
        + usize::from(s.x_seed.is_some())
        + usize::from(!s.strict)
        + usize::from(s.layout != pcounter::Layout::Default)
        + 4
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    pub file: String,
    /// 1-based; 0 means the error concerns the whole file.
    pub line: usize,
    pub msg: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}", self.file, self.msg)
        } else {
            write!(f, "{}:{}: {}", self.file, self.line, self.msg)
        }
    }
}

impl std::error::Error for ParseError {}

/// Parses a scenario script. `file` is only used in error messages.
pub fn parse(file: &str, text: &str) -> Result<Script, ParseError> {
    let mut p = Parser::default();
    // Editors on some platforms prepend a byte-order mark; it is not whitespace.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // `lines()` also strips the '\r' of CRLF endings.
    for (i, raw) in text.lines().enumerate() {
        let code = raw.split('#').next().unwrap_or("");
        let toks = lex(code);
        if toks.is_empty() {
            continue;
        }
        let err = |msg| ParseError { file: file.to_string(), line: i + 1, msg };
        p.line(i + 1, &toks).map_err(err)?;
    }
    p.check_domains().map_err(|(line, msg)| ParseError { file: file.to_string(), line, msg })?;
    Ok(p.script)
}

/// Renders `s` as script text; `parse` of the result equals `s.compact()`
/// (for any `s` that `parse` could have produced). Config lines are always
/// written, even when they hold defaults, so saved runs are explicit.
pub fn render(s: &Script) -> String {
    let s = s.compact();
    let mut out = format!("gen {}\ndomains {}\n", s.gen, s.domains);
    for (dom, spec) in &s.clocks {
        out += &format!("clock {dom} {spec}\n");
    }
    if let Some(x) = s.x_seed {
        out += &format!("xseed {x:#x}\n");
    }
    if !s.strict {
        out += "decode lax\n";
    }
    if s.layout != pcounter::Layout::Default {
        out += &format!("layout {}\n", s.layout.name());
    }
    out.push('\n');
    for l in &s.body {
        out += &format!("{}\n", l.cmd);
    }
    out
}

/// Splits on whitespace, and also around `&` and runs of `=` so that
/// `read 0xa600==0x64` works as well as the spaced form.
fn lex(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut word: Option<usize> = None;
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !(c.is_whitespace() || c == '&' || c == '=') {
            word.get_or_insert(i);
            continue;
        }
        if let Some(start) = word.take() {
            out.push(&code[start..i]);
        }
        if c == '&' {
            out.push(&code[i..i + 1]);
        } else if c == '=' {
            let mut end = i + 1;
            while let Some(&(j, '=')) = chars.peek() {
                end = j + 1;
                chars.next();
            }
            out.push(&code[i..end]);
        }
    }
    if let Some(start) = word {
        out.push(&code[start..]);
    }
    out
}

/// A token quoted for a message: control characters escaped and long
/// garbage cut short, so one bad line cannot produce an unreadable error.
pub(crate) fn show(tok: &str) -> String {
    const MAX: usize = 40;
    let mut s: String = tok.chars().take(MAX).flat_map(|c| c.escape_debug()).collect();
    if tok.chars().nth(MAX).is_some() {
        s.push_str("...");
    }
    s
}

enum NumError {
    Syntax,
    TooBig,
}

/// Decimal or 0x-hex, `_` allowed between digits. Hand-rolled because
/// `from_str_radix` accepts a leading `+`, which the format does not.
fn parse_u64(tok: &str) -> Result<u64, NumError> {
    let (digits, radix) = match tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (tok, 10),
    };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') {
        return Err(NumError::Syntax);
    }
    let mut v: Option<u64> = Some(0);
    for c in digits.chars().filter(|&c| c != '_') {
        let d = c.to_digit(radix).ok_or(NumError::Syntax)?;
        // Keep scanning after overflow: "999...9zz" is a syntax error, not "too big".
        v = v.and_then(|v| v.checked_mul(u64::from(radix))).and_then(|v| v.checked_add(u64::from(d)));
    }
    v.ok_or(NumError::TooBig)
}

/// Parses `tok` as the argument `what`, which must lie in `min..=max`;
/// `expected` tells the user what a valid value looks like.
fn num(tok: &str, what: &str, min: u64, max: u64, expected: &str) -> Result<u64, String> {
    match parse_u64(tok) {
        Err(NumError::Syntax) => Err(format!("bad number '{}' for {what} (expected {expected})", show(tok))),
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("{what} {} out of range (expected {expected})", show(tok))),
    }
}

fn u32_arg(tok: &str, what: &str) -> Result<u32, String> {
    // The range check makes the narrowing exact.
    num(tok, what, 0, u64::from(u32::MAX), U32).map(|v| v as u32)
}

fn addr_arg(tok: &str) -> Result<u32, String> {
    // Unaligned addresses are allowed: PADDR[1:0] are ignored by the
    // completer (docs/semantics.md S0), and random runs exercise that.
    let expected = "expected 0xa000..=0xafff";
    let a = match parse_u64(tok) {
        Err(NumError::Syntax) => return Err(format!("bad number '{}' for ADDR ({expected})", show(tok))),
        Err(NumError::TooBig) => return Err(format!("address {} out of range ({expected})", show(tok))),
        Ok(a) => a,
    };
    if !(u64::from(MMIO_FIRST)..=u64::from(MMIO_LAST)).contains(&a) {
        Err(format!("address {a:#x} out of range ({expected})"))
    } else {
        Ok(a as u32) // in the MMIO window, so it fits
    }
}

/// Cursor over one command's arguments; knows the usage line so every
/// "missing"/"unexpected" message can show it.
struct Args<'a> {
    toks: &'a [&'a str],
    pos: usize,
    usage: &'static str,
}

impl<'a> Args<'a> {
    fn next(&mut self, what: &str) -> Result<&'a str, String> {
        let tok = self
            .peek()
            .ok_or_else(|| format!("missing argument {what} for '{}' (usage: {})", self.toks[0], self.usage))?;
        self.pos += 1;
        Ok(tok)
    }

    fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.pos).copied()
    }

    fn finish(&self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(tok) => Err(format!(
                "unexpected '{}' after '{}' (usage: {})",
                show(tok),
                self.toks[..self.pos].iter().map(|t| show(t)).collect::<Vec<_>>().join(" "),
                self.usage
            )),
        }
    }
}

#[derive(Default)]
struct Parser {
    script: Script,
    gen_line: Option<usize>,
    domains_line: Option<usize>,
    /// Source line of each entry of `script.clocks`, for late domain checks.
    clock_lines: Vec<usize>,
}

/// One script command, declared once: its name, its usage (error messages
/// and `pcnt script --help` read it) and its argument parser. A
/// configuration command sets up the script and yields no body command;
/// [`Cmd`]'s `Display` renders a body command back (shrinking, saved
/// stimulus). Adding a command is a row here, its parser and its `Cmd` arm.
pub struct CommandSpec {
    pub name: &'static str,
    pub usage: &'static str,
    /// Configuration (before the first body command) rather than body.
    pub config: bool,
    parse: fn(&mut Parser, usize, &mut Args) -> Result<Option<Cmd>, String>,
}

const fn config(name: &'static str, usage: &'static str) -> CommandSpec {
    CommandSpec { name, usage, config: true, parse: Parser::config_line }
}

/// Every command of the format, in `--help` order.
pub static COMMANDS: &[CommandSpec] = &[
    config("gen", "gen GEN[,GEN...] (nv40, g84, g92, gt215; a list runs the script once per generation)"),
    config("domains", "domains N (1..=8)"),
    config("clock", "clock DOM N | DOM M/N | DOM irregular SEED (DOM 0..=7, 1 <= M <= N)"),
    config("xseed", "xseed N (seed of the RTL's random initial values, a u32)"),
    config(
        "decode",
        "decode strict | lax (lax: StrictDecode = 0, holes read 0 without PSLVERR; builds: 2 domains)",
    ),
    config(
        "layout",
        "layout default | real | odd (per-domain signal layout; real: 8 domains, g84/g92/gt215; odd: 2 domains)",
    ),
    CommandSpec { name: "write", usage: "write ADDR DATA [strb MASK]", config: false, parse: |_, _, a| write_cmd(a) },
    CommandSpec { name: "read", usage: READ_USAGE, config: false, parse: |_, _, a| read_cmd(a) },
    CommandSpec { name: "wait", usage: "wait CYCLES", config: false, parse: |_, _, a| wait_cmd(a) },
    CommandSpec {
        name: "set",
        usage: "set DOM SIG VALUE (DOM 0..=7, SIG 0..=0xff, VALUE 0|1)",
        config: false,
        parse: |_, _, a| set_cmd(a),
    },
    CommandSpec {
        name: "pulse",
        usage: "pulse INPUT [CYCLES] (INPUT pm_trigger | wrcache_flush)",
        config: false,
        parse: |_, _, a| pulse_cmd(a),
    },
    CommandSpec {
        name: "poke",
        usage: "poke DOM COUNTER VALUE (COUNTER ctr_* | sh_* of cycles, event, start, pre, stop | periodic_cnt | rec_cycles | rec_cycles_hi | rec_stop | rec_ev0..rec_ev11)",
        config: false,
        parse: |_, _, a| poke_cmd(a),
    },
    CommandSpec {
        name: "mem",
        usage: "mem ADDR [== VALUE | & MASK == VALUE | in LO..HI] (ADDR: 40-bit, 4-byte aligned)",
        config: false,
        parse: |_, _, a| mem_cmd(a),
    },
    CommandSpec {
        name: "fault",
        usage: "fault LO HI (40-bit addresses, LO <= HI)",
        config: false,
        parse: |_, _, a| fault_cmd(a),
    },
    CommandSpec {
        name: "latency",
        usage: "latency MIN MAX [SEED] (cycles, MIN <= MAX <= 1000)",
        config: false,
        parse: |_, _, a| latency_cmd(a),
    },
];

/// `pcnt script --help`: the usage of every command, from [`COMMANDS`].
pub fn help() -> String {
    let mut out = String::from("configuration (before the first body command):\n");
    for c in COMMANDS.iter().filter(|c| c.config) {
        out += &format!("  {}\n", c.usage);
    }
    out += "body:\n";
    for c in COMMANDS.iter().filter(|c| !c.config) {
        out += &format!("  {}\n", c.usage);
    }
    out
}

fn write_cmd(a: &mut Args) -> Result<Option<Cmd>, String> {
    let addr = addr_arg(a.next("ADDR")?)?;
    let data = u32_arg(a.next("DATA")?, "DATA")?;
    // Optional `strb MASK`: a partial APB4 write (docs/semantics.md S0).
    let strb = if a.peek() == Some("strb") {
        a.next("strb")?;
        num(a.next("MASK")?, "MASK", 0, 0xf, "0..=0xf")? as u8
    } else {
        0xf
    };
    Ok(Some(Cmd::Write { addr, data, strb }))
}

fn read_cmd(a: &mut Args) -> Result<Option<Cmd>, String> {
    let addr = addr_arg(a.next("ADDR")?)?;
    let expect = read_expect(a, true)?;
    Ok(Some(Cmd::Read { addr, expect }))
}

fn wait_cmd(a: &mut Args) -> Result<Option<Cmd>, String> {
    let cycles = num(a.next("CYCLES")?, "CYCLES", 0, u64::MAX, "decimal or 0x-hex u64")?;
    Ok(Some(Cmd::Wait { cycles }))
}

fn set_cmd(a: &mut Args) -> Result<Option<Cmd>, String> {
    // Syntactic limits here; the limit from `domains` is checked at the end.
    let dom = num(a.next("DOM")?, "DOM", 0, 7, "0..=7")? as u8;
    let sig = num(a.next("SIG")?, "SIG", 0, 0xff, "0..=0xff")? as u8;
    let value = num(a.next("VALUE")?, "VALUE", 0, 1, "0 or 1")? == 1;
    Ok(Some(Cmd::Set { dom, sig, value }))
}

fn poke_cmd(a: &mut Args) -> Result<Option<Cmd>, String> {
    let dom = num(a.next("DOM")?, "DOM", 0, 7, "0..=7")? as u8;
    let tok = a.next("COUNTER")?;
    let counter = Counter::from_name(tok).ok_or_else(|| {
        format!(
            "unknown counter '{}' for 'poke' (expected ctr_cycles, ctr_event, ctr_start, ctr_pre, ctr_stop, sh_cycles, sh_event, sh_start, sh_pre, sh_stop, periodic_cnt, rec_cycles, rec_cycles_hi, rec_stop or rec_ev0..rec_ev11)",
            show(tok)
        )
    })?;
    let value = u32_arg(a.next("VALUE")?, "VALUE")?;
    Ok(Some(Cmd::Poke { dom, counter, value }))
}

fn mem_cmd(a: &mut Args) -> Result<Option<Cmd>, String> {
    let addr = num(a.next("ADDR")?, "ADDR", 0, (1 << 40) - 4, "a 40-bit address")?;
    if addr % 4 != 0 {
        return Err(format!("mem address {addr:#x} is not 4-byte aligned"));
    }
    let expect = read_expect(a, false)?;
    Ok(Some(Cmd::Mem { addr, expect }))
}

fn fault_cmd(a: &mut Args) -> Result<Option<Cmd>, String> {
    let lo = num(a.next("LO")?, "LO", 0, (1 << 40) - 1, "a 40-bit address")?;
    let hi = num(a.next("HI")?, "HI", 0, (1 << 40) - 1, "a 40-bit address")?;
    if lo > hi {
        return Err(format!("fault range {lo:#x}..{hi:#x} is empty (expected LO <= HI)"));
    }
    Ok(Some(Cmd::Fault { lo, hi }))
}

fn latency_cmd(a: &mut Args) -> Result<Option<Cmd>, String> {
    let min = num(a.next("MIN")?, "MIN", 0, 1000, "0..=1000")? as u32;
    let max = num(a.next("MAX")?, "MAX", 0, 1000, "0..=1000")? as u32;
    if min > max {
        return Err(format!("latency {min} {max}: MIN > MAX"));
    }
    let seed = match a.peek() {
        Some(tok) => {
            a.next("SEED")?;
            num(tok, "SEED", 0, u64::MAX, "a u64")?
        }
        None => 0,
    };
    Ok(Some(Cmd::Latency { min, max, seed }))
}

fn pulse_cmd(a: &mut Args) -> Result<Option<Cmd>, String> {
    let input = match a.next("INPUT")? {
        "pm_trigger" => GlobalInput::PmTrigger,
        "wrcache_flush" => GlobalInput::WrcacheFlush,
        other => {
            return Err(format!("unknown input '{}' for 'pulse' (expected pm_trigger or wrcache_flush)", show(other)))
        }
    };
    let cycles = match a.peek() {
        Some(tok) => {
            a.next("CYCLES")?;
            num(tok, "CYCLES", 1, u64::from(u32::MAX), "1..=4294967295")? as u32
        }
        None => 1,
    };
    Ok(Some(Cmd::Pulse { input, cycles }))
}

impl Parser {
    fn line(&mut self, n: usize, toks: &[&str]) -> Result<(), String> {
        let name = toks[0];
        let Some(spec) = COMMANDS.iter().find(|c| c.name == name) else {
            let hint = if name != name.to_lowercase() && COMMANDS.iter().any(|c| c.name == name.to_lowercase()) {
                "; commands are lowercase"
            } else {
                ""
            };
            let names: Vec<&str> = COMMANDS.iter().map(|c| c.name).collect();
            return Err(format!("unknown command '{}' (expected one of: {}{hint})", show(name), names.join(", ")));
        };
        let mut a = Args { toks, pos: 1, usage: spec.usage };
        let cmd = (spec.parse)(self, n, &mut a)?;
        a.finish()?;
        if let Some(cmd) = cmd {
            self.script.body.push(Line { line: n, cmd });
        }
        Ok(())
    }

    fn config_line(&mut self, n: usize, a: &mut Args) -> Result<Option<Cmd>, String> {
        let name = a.toks[0];
        self.config_allowed(name)?;
        self.config(n, name, a)?;
        Ok(None)
    }

    /// Config sets up the simulation before time starts; allowing it later
    /// would suggest a mid-run reconfiguration the harness cannot do.
    fn config_allowed(&self, name: &str) -> Result<(), String> {
        match self.script.body.first() {
            None => Ok(()),
            Some(first) => Err(format!(
                "'{name}' must come before the first write/read/wait/set/pulse (line {} has '{}')",
                first.line, first.cmd
            )),
        }
    }

    fn config(&mut self, n: usize, name: &str, a: &mut Args) -> Result<(), String> {
        match name {
            "gen" => {
                let g = a.next("GEN")?;
                if let Some(first) = self.gen_line {
                    return Err(format!("duplicate 'gen' (first given on line {first})"));
                }
                // A comma-separated list runs the script once per generation.
                let list: Vec<&str> = g.split(',').collect();
                for (i, one) in list.iter().enumerate() {
                    if GENS_LATER.contains(one) {
                        return Err(format!("generation '{one}' not supported yet (supported: {})", GENS.join(", ")));
                    }
                    if !GENS.contains(one) {
                        return Err(format!(
                            "unknown generation '{}' (expected one of: {}, or a comma-separated list)",
                            show(one),
                            GENS.join(", ")
                        ));
                    }
                    if list[..i].contains(one) {
                        return Err(format!("generation '{one}' listed twice"));
                    }
                }
                self.script.gen = g.to_string();
                self.gen_line = Some(n);
            }
            "xseed" => {
                let x = num(a.next("N")?, "N", 0, u64::from(u32::MAX), "a u32")? as u32;
                if self.script.x_seed.is_some() {
                    return Err("duplicate 'xseed'".into());
                }
                self.script.x_seed = Some(x);
            }
            "layout" => {
                let l = a.next("default | real | odd")?;
                self.script.layout = pcounter::Layout::from_name(l).ok_or_else(|| {
                    format!("unknown layout '{}' (expected one of: {})", show(l), pcounter::Layout::NAMES.join(", "))
                })?;
            }
            "decode" => {
                self.script.strict = match a.next("strict | lax")? {
                    "strict" => true,
                    "lax" => false,
                    other => return Err(format!("unknown decode '{}' (expected strict or lax)", show(other))),
                };
            }
            "domains" => {
                let d = num(a.next("N")?, "N", 1, MAX_DOMAINS as u64, "1..=8")? as usize;
                if let Some(first) = self.domains_line {
                    return Err(format!("duplicate 'domains' (first given on line {first})"));
                }
                self.script.domains = d;
                self.domains_line = Some(n);
            }
            _ => {
                let dom = num(a.next("DOM")?, "DOM", 0, 7, "0..=7")? as u8;
                let spec = clock_spec(a)?;
                // A second divider for the same domain is almost certainly a typo.
                if let Some(i) = self.script.clocks.iter().position(|&(d, _)| d == dom) {
                    return Err(format!(
                        "duplicate 'clock' for domain {dom} (first given on line {})",
                        self.clock_lines[i]
                    ));
                }
                self.script.clocks.push((dom, spec));
                self.clock_lines.push(n);
            }
        }
        Ok(())
    }

    /// Domain indices against the final domain count: a `clock` line may
    /// legitimately precede `domains`, so this cannot be checked per line.
    fn check_domains(&self) -> Result<(), (usize, String)> {
        let count = self.script.domains;
        let why = match self.domains_line {
            Some(l) => format!("'domains {count}' on line {l}"),
            None => "no 'domains' line, so 1 domain".to_string(),
        };
        let err = |line, what: &str, dom: u8| {
            Err((line, format!("{what} domain {dom} out of range (expected 0..={}: {why})", count - 1)))
        };
        for (&(dom, _), &line) in self.script.clocks.iter().zip(&self.clock_lines) {
            if usize::from(dom) >= count {
                return err(line, "clock", dom);
            }
        }
        for l in &self.script.body {
            match l.cmd {
                Cmd::Set { dom, .. } if usize::from(dom) >= count => return err(l.line, "set", dom),
                Cmd::Poke { dom, .. } if usize::from(dom) >= count => return err(l.line, "poke", dom),
                _ => {}
            }
        }
        Ok(())
    }
}

/// The rate of a `clock` line: `N`, `M/N` or `irregular SEED` (S15).
/// Longest clock period a script may set: a domain ticks at least once in
/// this many bus clocks, so a write to it (which waits for a tick, S15)
/// never waits longer. A slower clock is rejected at its `clock` line.
pub const MAX_CLOCK_N: u64 = 1_000_000;

fn clock_spec(a: &mut Args) -> Result<ClockSpec, String> {
    const RANGE: &str = "1..=1000000";
    let tok = a.next("RATE")?;
    if tok == "irregular" {
        let seed = num(a.next("SEED")?, "SEED", 0, u64::MAX, "a u64")?;
        return Ok(ClockSpec::Irregular { seed });
    }
    let (m, n) = match tok.split_once('/') {
        Some((m, n)) => (num(m, "M", 1, MAX_CLOCK_N, RANGE)?, num(n, "N", 1, MAX_CLOCK_N, RANGE)?),
        None => (1, num(tok, "N", 1, MAX_CLOCK_N, RANGE)?),
    };
    if m > n {
        return Err(format!("clock rate {m}/{n} ticks more than once per cycle (expected M <= N)"));
    }
    Ok(ClockSpec::Ratio { m: m as u32, n: n as u32 })
}

/// The optional expectation after `read ADDR` (or `mem ADDR`, which has no
/// `trace` form: a driver trace holds no record memory).
fn read_expect(a: &mut Args, trace: bool) -> Result<Option<Expect>, String> {
    let Some(op) = a.peek() else { return Ok(None) };
    a.pos += 1;
    let expect = match op {
        "==" => Expect::Eq(u32_arg(a.next("VALUE")?, "VALUE")?),
        "&" => {
            let mask = u32_arg(a.next("MASK")?, "MASK")?;
            let eq = a.next("'=='")?;
            if eq != "==" {
                return Err(format!("expected '==' after '& MASK', found '{}' (usage: {READ_USAGE})", show(eq)));
            }
            let value = u32_arg(a.next("VALUE")?, "VALUE")?;
            if value & !mask != 0 {
                return Err(format!(
                    "VALUE {value:#x} has bits outside MASK {mask:#x}, so the check can never pass \
                     (expected VALUE & !MASK == 0)"
                ));
            }
            Expect::MaskEq { mask, value }
        }
        "in" => {
            let tok = a.next("LO..HI")?;
            let Some((lo, hi)) = tok.split_once("..") else {
                return Err(format!("bad range '{}' (expected LO..HI, inclusive, e.g. 100..110)", show(tok)));
            };
            let (lo, hi) = (u32_arg(lo, "LO")?, u32_arg(hi, "HI")?);
            if lo > hi {
                return Err(format!("empty range '{}' (expected LO <= HI)", show(tok)));
            }
            Expect::Range { lo, hi }
        }
        "trace" if trace => Expect::Trace(u32_arg(a.next("VALUE")?, "VALUE")?),
        other => {
            return Err(format!("bad expectation '{}' after '{} ADDR' (usage: {})", show(other), a.toks[0], a.usage))
        }
    };
    Ok(Some(expect))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(text: &str) -> Vec<Cmd> {
        match parse("t.pcs", text) {
            Ok(s) => s.body.into_iter().map(|l| l.cmd).collect(),
            Err(e) => panic!("{text:?} failed: {e}"),
        }
    }

    fn err(text: &str) -> ParseError {
        match parse("t.pcs", text) {
            Ok(s) => panic!("{text:?} parsed unexpectedly: {s:?}"),
            Err(e) => e,
        }
    }

    #[test]
    fn every_command() {
        use Cmd::*;
        let r = |addr, expect| Read { addr, expect };
        // One case per line reads as a table; keep rustfmt from unrolling it.
        #[rustfmt::skip]
        let cases: Vec<(&str, Cmd)> = vec![
            ("write 0xa7c0 0x00000001", Write { addr: 0xa7c0, data: 1, strb: 0xf }),
            ("write 0xa000 4294967295", Write { addr: 0xa000, data: u32::MAX, strb: 0xf }),
            ("write 0XAFFC 0x0000_0001", Write { addr: 0xaffc, data: 1, strb: 0xf }),
            ("write 40960 1_000", Write { addr: 0xa000, data: 1000, strb: 0xf }),
            ("read 0xa600", r(0xa600, None)),
            ("read 0xa600 == 0x64", r(0xa600, Some(Expect::Eq(0x64)))),
            ("read 0xa600==100", r(0xa600, Some(Expect::Eq(100)))),
            (
                "read 0xa7c0 & 0x03000000 == 0x03000000",
                r(0xa7c0, Some(Expect::MaskEq { mask: 0x0300_0000, value: 0x0300_0000 })),
            ),
            ("read 0xa7c0&0xff==0", r(0xa7c0, Some(Expect::MaskEq { mask: 0xff, value: 0 }))),
            ("read 0xa600 in 100..110", r(0xa600, Some(Expect::Range { lo: 100, hi: 110 }))),
            ("read 0xa600 in 0x10..0x10", r(0xa600, Some(Expect::Range { lo: 16, hi: 16 }))),
            ("read 0xa704 trace 0x00001234", r(0xa704, Some(Expect::Trace(0x1234)))),
            ("read 0xa704 trace 0", r(0xa704, Some(Expect::Trace(0)))),
            ("wait 100", Wait { cycles: 100 }),
            ("wait 0", Wait { cycles: 0 }),
            ("wait 18446744073709551615", Wait { cycles: u64::MAX }),
            ("set 0 0x12 1", Set { dom: 0, sig: 0x12, value: true }),
            ("set 0 255 0", Set { dom: 0, sig: 0xff, value: false }),
            ("pulse pm_trigger", Pulse { input: GlobalInput::PmTrigger, cycles: 1 }),
            ("pulse pm_trigger 3", Pulse { input: GlobalInput::PmTrigger, cycles: 3 }),
            ("poke 0 ctr_event 0xfffffff0", Poke { dom: 0, counter: Counter::Event, value: 0xffff_fff0 }),
            ("poke 0 rec_ev11 0xf000", Poke { dom: 0, counter: Counter::RecEv(11), value: 0xf000 }),
            ("poke 0 rec_cycles_hi 1", Poke { dom: 0, counter: Counter::RecCyclesHi, value: 1 }),
            ("mem 0x42_1000_0000 == 0xb", Mem { addr: 0x42_1000_0000, expect: Some(Expect::Eq(0xb)) }),
            ("mem 0x10", Mem { addr: 0x10, expect: None }),
            ("fault 0x100 0x1ff", Fault { lo: 0x100, hi: 0x1ff }),
            ("latency 0 8", Latency { min: 0, max: 8, seed: 0 }),
            ("latency 1 20 99", Latency { min: 1, max: 20, seed: 99 }),
            ("pulse wrcache_flush", Pulse { input: GlobalInput::WrcacheFlush, cycles: 1 }),
            // Comments, tabs, CRLF and odd spacing.
            ("\twait\t7   # comment # more\r\n", Wait { cycles: 7 }),
            ("  read 0xa600   ==   0x1  #x", r(0xa600, Some(Expect::Eq(1)))),
        ];
        for (text, want) in cases {
            assert_eq!(body(text), vec![want], "{text:?}");
        }
    }

    #[test]
    fn config_and_defaults() {
        for text in ["", "\n\n", "# only\n   # comments\r\n", "\u{feff}# leading byte-order mark is skipped\n"] {
            assert_eq!(parse("t.pcs", text), Ok(Script::default()), "{text:?}");
        }
        let s = parse("t.pcs", "clock 1 3\r\ngen nv40\r\ndomains 2\r\nclock 0 1\r\nwait 1\r\n").unwrap();
        assert_eq!(s.gen, "nv40");
        assert_eq!(s.domains, 2);
        assert_eq!(s.clocks, vec![(1, ClockSpec::Ratio { m: 1, n: 3 }), (0, ClockSpec::Ratio { m: 1, n: 1 })]);
        assert_eq!(s.body, vec![Line { line: 5, cmd: Cmd::Wait { cycles: 1 } }]);
        for g in GENS {
            assert_eq!(parse("t", &format!("gen {g}")).unwrap().gen, *g);
        }
        // S22 scripts run on several generations: a comma-separated list.
        assert_eq!(parse("t", "gen nv40,g84,g92,gt215").unwrap().gen, "nv40,g84,g92,gt215");
        for (bad, msg) in [
            ("gen nv40,nv40", "listed twice"),
            ("gen nv40,", "unknown generation ''"),
            ("gen nv40,nv10", "not supported yet"),
        ] {
            let e = parse("t", bad).unwrap_err().to_string();
            assert!(e.contains(msg), "{bad}: {e}");
        }
    }

    #[test]
    fn line_numbers_count_blank_and_comment_lines() {
        let s = parse("t", "# head\n\nwrite 0xa000 1\n   \nread 0xa000 # c\n").unwrap();
        let lines: Vec<usize> = s.body.iter().map(|l| l.line).collect();
        assert_eq!(lines, vec![3, 5]);
    }

    #[test]
    fn every_error() {
        // (text, line, parts the message must contain)
        // One case per line reads as a table; keep rustfmt from unrolling it.
        #[rustfmt::skip]
        let cases: &[(&str, usize, &[&str])] = &[
            ("wait 1\nwrte 0xa000 1", 2, &["unknown command 'wrte'", "expected one of: gen, domains, clock, xseed, decode, layout, write, read, wait, set, pulse"]),
            ("WRITE 0xa000 1", 1, &["unknown command 'WRITE'", "commands are lowercase"]),
            ("REA 0xa000", 1, &["unknown command 'REA' (expected one of: gen, domains, clock, xseed, decode, layout, write, read, wait, set, pulse, poke, mem, fault, latency)"]),
            ("xseed 1\nxseed 2", 2, &["duplicate 'xseed'"]),
            ("wait 1\nxseed 2", 2, &["'xseed' must come before the first"]),
            ("mem 0x1002", 1, &["mem address 0x1002 is not 4-byte aligned"]),
            ("mem 0x10000000000", 1, &["ADDR 0x10000000000 out of range", "40-bit address"]),
            ("mem 0x100 = 1", 1, &["bad expectation '=' after 'mem ADDR'"]),
            ("mem 0x100 trace 1", 1, &["bad expectation 'trace' after 'mem ADDR'", "usage: mem ADDR"]),
            ("read 0xa600 trace", 1, &["missing argument VALUE for 'read'", READ_USAGE]),
            ("read 0xa600 trace 0x1_0000_0000", 1, &["VALUE 0x1_0000_0000 out of range"]),
            ("read 0xa600 trace 1 == 1", 1, &["unexpected '==' after 'read 0xa600 trace 1'"]),
            ("read 0xa600 TRACE 1", 1, &["bad expectation 'TRACE'"]),
            ("fault 0x20 0x10", 1, &["fault range 0x20..0x10 is empty"]),
            ("fault 0x20", 1, &["missing argument HI for 'fault'", "usage: fault LO HI"]),
            ("latency 5 2", 1, &["latency 5 2: MIN > MAX"]),
            ("latency 0 1001", 1, &["MAX 1001 out of range", "0..=1000"]),
            ("poke 0 rec_ev12 1", 1, &["unknown counter 'rec_ev12'", "rec_ev0..rec_ev11"]),
            ("write 0xa000 0xZZ", 1, &["bad number '0xZZ' for DATA", "expected decimal or 0x-hex u32"]),
            ("write 0xa000 -1", 1, &["bad number '-1' for DATA"]),
            ("write 0xa000 +1", 1, &["bad number '+1' for DATA"]),
            ("write 0xa000 0x", 1, &["bad number '0x' for DATA"]),
            ("write 0xa000 1_", 1, &["bad number '1_' for DATA"]),
            ("write 0xa000 0x_1", 1, &["bad number '0x_1' for DATA"]),
            ("write 0xa000 0x1_0000_0000", 1, &["DATA 0x1_0000_0000 out of range", "u32"]),
            ("write 0xa000 99999999999999999999999", 1, &["DATA 99999999999999999999999 out of range"]),
            ("write 0xa000", 1, &["missing argument DATA for 'write'", "usage: write ADDR DATA"]),
            ("write", 1, &["missing argument ADDR for 'write'"]),
            ("write 0xb000 1", 1, &["address 0xb000 out of range", "expected 0xa000..=0xafff"]),
            ("read 0x9ffc", 1, &["address 0x9ffc out of range"]),
            ("read 0xfffffffff", 1, &["address 0xfffffffff out of range", "0xa000..=0xafff"]),
            ("read 0x1_0000_0000_0000_0000", 1, &["address 0x1_0000_0000_0000_0000 out of range"]),
            ("read a000", 1, &["bad number 'a000' for ADDR", "0xa000..=0xafff"]),
            ("write 0xa000 1 2", 1, &["unexpected '2' after 'write 0xa000 1'"]),
            ("\n\nwait 10 foo", 3, &["unexpected 'foo' after 'wait 10'"]),
            ("wait 10 == 1", 1, &["unexpected '==' after 'wait 10'"]),
            ("wait", 1, &["missing argument CYCLES for 'wait'", "usage: wait CYCLES"]),
            ("wait 18446744073709551616", 1, &["CYCLES 18446744073709551616 out of range", "u64"]),
            ("wait 1.5", 1, &["bad number '1.5' for CYCLES"]),
            ("read 0xa600 = 1", 1, &["bad expectation '=' after 'read ADDR'", READ_USAGE]),
            ("read 0xa600 != 1", 1, &["bad expectation '!'", READ_USAGE]),
            ("read 0xa600 ===1", 1, &["bad expectation '==='"]),
            ("read 0xa600 ==", 1, &["missing argument VALUE for 'read'", READ_USAGE]),
            ("read 0xa600 == x", 1, &["bad number 'x' for VALUE"]),
            ("read 0xa600 == 1 2", 1, &["unexpected '2' after 'read 0xa600 == 1'"]),
            ("read 0xa600 & 0xff", 1, &["missing argument '==' for 'read'", READ_USAGE]),
            ("read 0xa600 & 0xff in 1..2", 1, &["expected '==' after '& MASK', found 'in'", READ_USAGE]),
            ("read 0xa600 & 0xff ==", 1, &["missing argument VALUE"]),
            ("read 0xa600 & 0x0f == 0x10", 1, &["VALUE 0x10 has bits outside MASK 0xf", "never pass"]),
            ("read 0xa600 in", 1, &["missing argument LO..HI for 'read'"]),
            ("read 0xa600 in 100", 1, &["bad range '100'", "expected LO..HI"]),
            ("read 0xa600 in 100...110", 1, &["bad number '.110' for HI"]),
            ("read 0xa600 in 100 .. 110", 1, &["bad range '100'"]),
            ("read 0xa600 in 110..100", 1, &["empty range '110..100'", "LO <= HI"]),
            ("read 0xa600 in 1..0x100000000", 1, &["HI 0x100000000 out of range"]),
            ("set 0 0x12", 1, &["missing argument VALUE for 'set'", "usage: set DOM SIG VALUE"]),
            ("set 8 0 1", 1, &["DOM 8 out of range", "0..=7"]),
            ("set 0 0x100 1", 1, &["SIG 0x100 out of range", "0..=0xff"]),
            ("set 0 0 2", 1, &["VALUE 2 out of range", "0 or 1"]),
            ("set 0 0 yes", 1, &["bad number 'yes' for VALUE", "0 or 1"]),
            ("pulse", 1, &["missing argument INPUT for 'pulse'", "pm_trigger | wrcache_flush"]),
            ("pulse PM_TRIGGER", 1, &["unknown input 'PM_TRIGGER'", "expected pm_trigger or wrcache_flush"]),
            ("pulse pm_trigger now", 1, &["bad number 'now' for CYCLES"]),
            ("pulse pm_trigger 0", 1, &["CYCLES 0 out of range", "1..="]),
            ("poke 0 ctr_foo 1", 1, &["unknown counter 'ctr_foo' for 'poke'", "ctr_cycles"]),
            ("poke 0 ctr_event", 1, &["missing argument VALUE for 'poke'"]),
            ("poke 1 ctr_event 5", 1, &["poke domain 1 out of range"]),
            ("write 0xa000 1 strb 0x10", 1, &["MASK 0x10 out of range", "0..=0xf"]),
            ("gen", 1, &["missing argument GEN for 'gen'", "nv40, g84, g92, gt215"]),
            ("gen nv50", 1, &["unknown generation 'nv50'", "expected one of: nv40, g84, g92, gt215"]),
            ("gen GT215", 1, &["unknown generation 'GT215'"]),
            ("gen nv10", 1, &["generation 'nv10' not supported yet", "supported: nv40, g84, g92, gt215"]),
            ("gen gf100", 1, &["generation 'gf100' not supported yet"]),
            ("gen g84 g92", 1, &["unexpected 'g92' after 'gen g84'"]),
            ("gen g84\n# x\ngen g92", 3, &["duplicate 'gen'", "first given on line 1"]),
            ("domains 0", 1, &["N 0 out of range", "1..=8"]),
            ("domains 9", 1, &["N 9 out of range", "1..=8"]),
            ("domains 2\ndomains 2", 2, &["duplicate 'domains'", "line 1"]),
            ("clock 1", 1, &["missing argument RATE for 'clock'", "usage: clock DOM N"]),
            ("clock 0 0", 1, &["N 0 out of range", "1..=1000000"]),
            ("clock 0 3/2", 1, &["clock rate 3/2", "M <= N"]),
            ("clock 0 irregular", 1, &["missing argument SEED"]),
            ("clock 8 1", 1, &["DOM 8 out of range", "0..=7"]),
            ("domains 2\nclock 1 3\nclock 1 4", 3, &["duplicate 'clock' for domain 1", "first given on line 2"]),
            // Config after the body names both lines.
            ("gen g84\nwait 1\nclock 0 2", 3, &["'clock' must come before the first", "line 2 has 'wait 1'"]),
            ("write 0xa000 1\ngen g84", 2, &["'gen' must come before", "line 1 has 'write 0xa000 0x00000001'"]),
            ("read 0xa000\n\ndomains 2", 3, &["'domains' must come before", "line 1"]),
            // Domain indices against the final count.
            ("clock 1 3", 1, &["clock domain 1 out of range", "expected 0..=0", "no 'domains' line"]),
            ("clock 2 3\ndomains 2", 1, &["clock domain 2 out of range", "expected 0..=1", "'domains 2' on line 2"]),
            ("domains 3\nwait 1\nset 2 0 1\nset 3 0 1", 4, &["set domain 3 out of range", "expected 0..=2", "'domains 3' on line 1"]),
            ("set 1 0 1", 1, &["set domain 1 out of range", "no 'domains' line"]),
            // Unicode and control characters are quoted safely.
            ("wait 1\nécrire 0xa000 1", 2, &["unknown command 'écrire'"]),
            ("wait ١٢", 1, &["bad number '١٢' for CYCLES"]),
            ("wait 1 \u{7}", 1, &["unexpected '\\u{7}'"]),
        ];
        for &(text, line, parts) in cases {
            let e = err(text);
            assert_eq!(e.line, line, "{text:?}: {e}");
            let shown = e.to_string();
            assert!(shown.starts_with(&format!("t.pcs:{line}: ")), "{text:?}: {shown}");
            for part in parts {
                assert!(shown.contains(part), "{text:?}: {shown:?} lacks {part:?}");
            }
        }
    }

    /// The command table drives the parser, its errors and `--help`.
    #[test]
    fn command_table_drives_parser_and_help() {
        let h = help();
        for c in COMMANDS {
            assert!(c.usage.starts_with(c.name), "usage of '{}' starts with its name: {}", c.name, c.usage);
            assert!(h.contains(c.usage), "--help lists '{}'", c.name);
        }
        let e = err("frobnicate 1");
        assert_eq!(e.line, 1);
        for c in COMMANDS {
            assert!(e.msg.contains(c.name), "the unknown-command error lists '{}': {}", c.name, e.msg);
        }
        // A known command with a bad argument shows that command's usage.
        for c in COMMANDS.iter().filter(|c| c.name != "xseed") {
            let e = err(&format!("{} @", c.name));
            assert!(e.msg.contains(c.usage) || e.msg.contains('@'), "{}: {}", c.name, e.msg);
        }
    }

    #[test]
    fn first_error_wins() {
        let e = err("wait 1\nbogus\nwrite 0xb000 1");
        assert_eq!(e.line, 2);
    }

    #[test]
    fn long_garbage_is_truncated_in_messages() {
        let junk = "x".repeat(10_000);
        let e = err(&format!("wait 1 {junk}"));
        assert!(e.msg.len() < 200, "{}", e.msg);
        assert!(e.msg.contains("..."));
        // Consumed tokens are echoed too: a valid but absurdly zero-padded number.
        let e = err(&format!("wait {} x", "0".repeat(10_000)));
        assert!(e.msg.len() < 300, "{}", e.msg);
    }

    #[test]
    fn display() {
        let e = ParseError { file: "a.pcs".into(), line: 0, msg: "m".into() };
        assert_eq!(e.to_string(), "a.pcs: m");
        let e = ParseError { line: 7, ..e };
        assert_eq!(e.to_string(), "a.pcs:7: m");
    }

    #[test]
    fn expect_check_and_describe() {
        let eq = Expect::Eq(0x64);
        assert!(eq.check(100) && !eq.check(101));
        assert_eq!(eq.describe(), "== 0x64");
        let m = Expect::MaskEq { mask: 0x0300_0000, value: 0x0300_0000 };
        assert!(m.check(0xff00_0000) && !m.check(0x0100_0000));
        assert_eq!(m.describe(), "& 0x3000000 == 0x3000000");
        let r = Expect::Range { lo: 100, hi: 110 };
        assert!(r.check(100) && r.check(110) && !r.check(99) && !r.check(111));
        assert_eq!(r.describe(), "in 100..110");
        // A trace value is shown, never checked.
        let t = Expect::Trace(0x12);
        assert!(t.check(0x12) && t.check(0) && t.check(u32::MAX));
        assert_eq!(t.describe(), "trace 0x00000012");
        // describe() is script syntax: it parses back to the same expectation.
        for e in [eq, m, r, t] {
            let cmds = body(&format!("read 0xa000 {}", e.describe()));
            assert_eq!(cmds, vec![Cmd::Read { addr: 0xa000, expect: Some(e) }]);
        }
    }

    #[test]
    fn render_compresses_waits() {
        let s = parse("t", "domains 2\nclock 1 3\nwait 0\nwait 5\nwait 6\nwrite 0xa000 1\nwait 0\nwait 2").unwrap();
        let text = render(&s);
        assert_eq!(text, "gen gt215\ndomains 2\nclock 1 3\n\nwait 11\nwrite 0xa000 0x00000001\nwait 2\n");
        assert_eq!(parse("r", &text), Ok(s.compact()));
        // Overflowing sums are split, not saturated.
        let big = parse("t", "wait 18446744073709551615\nwait 1").unwrap();
        assert_eq!(big.compact().body.len(), 2);
    }

    /// Small deterministic PRNG so the randomized tests need no crates.
    struct XorShift(u64);
    impl XorShift {
        fn next(&mut self) -> u64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            self.0
        }
        fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
        fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
            xs[self.below(xs.len())]
        }
    }

    fn random_script(rng: &mut XorShift) -> Script {
        let domains = 1 + rng.below(MAX_DOMAINS);
        let mut clocks = Vec::new();
        for dom in 0..domains as u8 {
            if rng.below(3) == 0 {
                let n = 1 + (rng.next() as u32 >> rng.below(32)) % MAX_CLOCK_N as u32;
                clocks.push((
                    dom,
                    match rng.below(3) {
                        0 => ClockSpec::Ratio { m: 1, n },
                        1 => ClockSpec::Ratio { m: 1 + rng.below(n.min(1000) as usize) as u32, n },
                        _ => ClockSpec::Irregular { seed: rng.next() },
                    },
                ));
            }
        }
        let addr = |rng: &mut XorShift| MMIO_FIRST + 4 * rng.below(0x400) as u32;
        let mut body = Vec::new();
        for i in 0..rng.below(30) {
            let v = rng.next() as u32;
            let cmd = match rng.below(12) {
                0 => Cmd::Write {
                    addr: addr(rng),
                    data: v,
                    strb: if rng.below(4) == 0 { rng.below(16) as u8 } else { 0xf },
                },
                1 => Cmd::Read { addr: addr(rng), expect: None },
                2 => Cmd::Read { addr: addr(rng), expect: Some(Expect::Eq(v)) },
                3 => Cmd::Read {
                    addr: addr(rng),
                    expect: Some(Expect::MaskEq { mask: v, value: v & rng.next() as u32 }),
                },
                4 if v & 8 == 0 => Cmd::Read { addr: addr(rng), expect: Some(Expect::Range { lo: v / 2, hi: v }) },
                4 => Cmd::Read { addr: addr(rng), expect: Some(Expect::Trace(v)) },
                5 => Cmd::Wait { cycles: rng.next() >> rng.below(64) },
                6 => Cmd::Set { dom: rng.below(domains) as u8, sig: v as u8, value: v & 256 != 0 },
                7 => Cmd::Poke { dom: rng.below(domains) as u8, counter: Counter::ALL[rng.below(5)], value: v },
                8 => Cmd::Mem {
                    addr: (rng.next() & 0xff_ffff_fffc),
                    expect: if v & 1 == 0 { None } else { Some(Expect::Eq(v)) },
                },
                9 => {
                    let lo = rng.next() & 0xff_ffff_ffff;
                    Cmd::Fault { lo, hi: lo.saturating_add(u64::from(v)).min(0xff_ffff_ffff) }
                }
                10 => {
                    let min = v % 1001;
                    Cmd::Latency { min, max: min.max((v >> 10) % 1001), seed: rng.next() }
                }
                _ => Cmd::Pulse {
                    input: if v & 1 == 0 { GlobalInput::PmTrigger } else { GlobalInput::WrcacheFlush },
                    cycles: 1 + (v >> 1) % 4,
                },
            };
            body.push(Line { line: i + 1, cmd });
        }
        let x_seed = if rng.below(3) == 0 { Some(rng.next() as u32) } else { None };
        let layout = [pcounter::Layout::Default, pcounter::Layout::Real, pcounter::Layout::Odd][rng.below(3)];
        Script { gen: rng.pick(GENS).to_string(), domains, clocks, x_seed, strict: rng.below(4) != 0, layout, body }
    }

    #[test]
    fn render_round_trip() {
        let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..2000 {
            let s = random_script(&mut rng);
            let text = render(&s);
            let back = parse("rt", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(back, s.compact(), "\n{text}");
            // The rendered form is a fixed point.
            assert_eq!(render(&back), text);
        }
    }

    /// Garbled input must never panic, and every error must point at a real
    /// line; successful parses must survive a render round trip.
    #[test]
    fn fuzz_no_panic() {
        let vocab = [
            "gen",
            "domains",
            "clock",
            "write",
            "read",
            "wait",
            "set",
            "pulse",
            "mem",
            "fault",
            "latency",
            "trace",
            "rec_ev3",
            "pm_trigger",
            "wrcache_flush",
            "gt215",
            "nv40",
            "nv10",
            "g84",
            "0",
            "1",
            "2",
            "7",
            "8",
            "0xa000",
            "0xa7c0",
            "0xafff",
            "0xb000",
            "0xa001",
            "0x",
            "0x_",
            "_1",
            "1_0",
            "0xffffffff",
            "0x100000000",
            "18446744073709551616",
            "99999999999999999999999999",
            "-1",
            "+1",
            "==",
            "=",
            "&",
            "in",
            "..",
            "1..2",
            "2..1",
            "0x10..0x20",
            "#",
            "# c",
            "\t",
            "\r",
            "é",
            "١",
            "\u{0}",
            "\u{7f}",
            "\u{feff}",
            "🦀",
            "READ",
            "  ",
            "==0x1",
            "&0xff",
        ];
        let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
        for _ in 0..20_000 {
            let nlines = rng.below(8);
            let mut text = String::new();
            for _ in 0..nlines {
                for _ in 0..rng.below(7) {
                    match rng.below(10) {
                        0 => text.push(char::from_u32(rng.next() as u32 % 0x11_0000).unwrap_or('?')),
                        1 => text.push(char::from(rng.below(128) as u8)),
                        _ => text.push_str(rng.pick(&vocab)),
                    }
                    if rng.below(4) != 0 {
                        text.push(' ');
                    }
                }
                text.push_str(if rng.below(2) == 0 { "\n" } else { "\r\n" });
            }
            match parse("fz", &text) {
                Err(e) => {
                    let lines = text.lines().count();
                    assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}: {e}\n{text:?}", e.line);
                    assert!(!e.msg.is_empty());
                }
                Ok(s) => {
                    let again = parse("fz", &render(&s)).unwrap_or_else(|e| panic!("{e}\n{text:?}"));
                    assert_eq!(again, s.compact(), "{text:?}");
                }
            }
        }
    }
}
