//! Scenario scripts: a hand-written text format that replays driver-style
//! MMIO sequences against the RTL and the model in lockstep.
//!
//! ```text
//! # comment (also allowed after a command)
//! gen gt215                 # nv10 | nv15 | nv20 | nv30 | nv40 | g84 | g92 | gt215,
//!                           # or a list: gen nv40,g84; or gf100 alone (its
//!                           # window 0x180000..0x1bffff, `layout fermi|kepler`,
//!                           # domains numbered flat over the preset's sets)
//! domains 2                 # 1..=8, default 1; at most the max_domains of
//!                           # every listed gen (nv10/nv15 1, nv20/nv30 2)
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
//! echo INIT done            # prints the text with its line and bus cycle
//! ```
//!
//! Configuration lines (`gen`, `domains`, `clock`) must precede the first
//! body command. Numbers are decimal or `0x`-hex, with optional `_`
//! separators. Keywords are lowercase and case-sensitive.
//!
//! The parser never panics; every problem is reported as a [`ParseError`]
//! naming the file, the 1-based line and what was expected there.

use std::fmt;

mod checks;
mod cmd;
mod commands;

use crate::engine::script::lex;
pub use crate::engine::script::show;
pub use cmd::*;
use commands::Parser;
pub use commands::{help, offset, Cmd, CommandSpec, Target, COMMANDS, MAX_CLOCK_N};

/// Generations the harness can run today, in `Gen::ALL` order (oldest
/// first; tools/check_vars.sh reads this line).
pub const GENS: &[&str] = &["nv10", "nv15", "nv20", "nv30", "nv40", "g84", "g92", "gt215"];
/// The GF100+ generation (docs/design/gf100.md): its own MMIO window,
/// domain sets from a preset (`layout`), never listed with the others.
pub const GEN_GF100: &str = "gf100";
pub use pcounter::pcnt::gf100::config::PRESETS as GF_PRESETS;
pub const DEFAULT_GEN: &str = "gt215";
pub const MAX_DOMAINS: usize = 8;
/// Flat domain numbers of a GF100 preset go up to 63 (`GfConfig`).
pub const MAX_GF_DOMAINS: usize = pcounter::pcnt::gf100::config::MAX_DOMAINS;
/// MMIO window of PCOUNTER up to GF100 (full bus addresses, inclusive).
pub const MMIO_FIRST: u32 = 0xa000;
pub const MMIO_LAST: u32 = 0xafff;
/// MMIO window of the GF100+ PCOUNTER (seed 003 "MMIO registers"; rnndb).
pub const GF_MMIO_FIRST: u32 = 0x18_0000;
pub const GF_MMIO_LAST: u32 = 0x1b_ffff;

const READ_USAGE: &str = "read ADDR [== VALUE | & MASK == VALUE | in LO..HI | trace VALUE]";
const U32: &str = "decimal or 0x-hex u32";

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
    pub layout: pcounter::pcnt::config::Layout,
    /// `gen gf100` only: the GF100 presets (`layout fermi,kepler`), run
    /// once each; `["fermi"]` if the script has no `layout` line.
    pub gf_layouts: Vec<String>,
    pub body: Vec<Line>,
    /// Where the RTL build was chosen, for a lockstep run that has none.
    pub build_lines: BuildLines,
}

/// Source lines of the configuration commands that choose the Verilated
/// build (None: the command is absent). The model runs any of their values,
/// the lockstep only the built ones, so a script can pass model-only and
/// then fail in lockstep: the error names the line to change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BuildLines {
    pub domains: Option<usize>,
    pub decode: Option<usize>,
    pub layout: Option<usize>,
}

impl Default for Script {
    fn default() -> Self {
        Script {
            gen: DEFAULT_GEN.to_string(),
            domains: 1,
            clocks: Vec::new(),
            x_seed: None,
            strict: true,
            layout: pcounter::pcnt::config::Layout::Default,
            gf_layouts: Vec::new(),
            body: Vec::new(),
            build_lines: BuildLines::default(),
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
        // `render` writes `domains` on line 2, then the clocks and xseed,
        // then `decode lax` and a non-default `layout` (the last before the
        // blank line).
        let layout = self.layout != pcounter::pcnt::config::Layout::Default;
        let gf = self.gen == GEN_GF100;
        let build_lines = BuildLines {
            // GF100: line 2 is the preset, which chooses the build.
            domains: (!gf).then_some(2),
            decode: (!self.strict).then_some(first - 2 - usize::from(layout)),
            layout: if gf { Some(2) } else { layout.then_some(first - 2) },
        };
        Script { body, build_lines, ..self.clone() }
    }
}

/// Rendered layout: `gen`, `domains`, one line per clock, `xseed` if any, a
/// blank line, body.
fn body_first_line(s: &Script) -> usize {
    s.clocks.len()
        + usize::from(s.x_seed.is_some())
        + usize::from(!s.strict)
        + usize::from(s.layout != pcounter::pcnt::config::Layout::Default)
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

/// The command part of a script line: up to the comment, which starts at
/// the first `#`, except in `echo` text, where a `#` is text unless it
/// starts a word followed by a space or the line's end (`echo issue #5
/// fixed` echoes all three words; `echo done # note` echoes `done`).
pub fn code_of(raw: &str) -> &str {
    let line = raw.trim_start();
    let is_echo = line.strip_prefix("echo").is_some_and(|r| r.is_empty() || r.starts_with(char::is_whitespace));
    if !is_echo {
        return raw.split('#').next().unwrap_or("");
    }
    let b = raw.as_bytes();
    let comment = (0..b.len()).find(|&i| {
        b[i] == b'#'
            && (i == 0 || b[i - 1].is_ascii_whitespace())
            && b.get(i + 1).is_none_or(|c| c.is_ascii_whitespace())
    });
    &raw[..comment.unwrap_or(raw.len())]
}

/// Parses a scenario script. `file` is only used in error messages.
pub fn parse(file: &str, text: &str) -> Result<Script, ParseError> {
    let mut p = Parser::default();
    // Editors on some platforms prepend a byte-order mark; it is not whitespace.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // `lines()` also strips the '\r' of CRLF endings.
    for (i, raw) in text.lines().enumerate() {
        let toks = lex(code_of(raw));
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
    let mut out = if s.gen == GEN_GF100 {
        format!("gen {}\nlayout {}\n", s.gen, s.gf_layouts.join(","))
    } else {
        format!("gen {}\ndomains {}\n", s.gen, s.domains)
    };
    for (dom, spec) in &s.clocks {
        out += &format!("clock {dom} {spec}\n");
    }
    if let Some(x) = s.x_seed {
        out += &format!("xseed {x:#x}\n");
    }
    if !s.strict {
        out += "decode lax\n";
    }
    if s.layout != pcounter::pcnt::config::Layout::Default {
        out += &format!("layout {}\n", s.layout.name());
    }
    out.push('\n');
    for l in &s.body {
        out += &format!("{}\n", l.cmd);
    }
    out
}

#[cfg(test)]
mod tests;
