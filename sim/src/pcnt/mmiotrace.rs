//! Replaying what a real driver did: imports a Linux `mmiotrace` text log
//! (kernel Documentation/trace/mmiotrace.rst, format version 20070824, the
//! input of envytools' `demmio`) as a scenario script (`pcnt import-mmiotrace`).
//!
//! Records used (one per line, space-separated; kernel field order):
//!
//! ```text
//! PCIDEV BUSDEVFN VENDORDEVICE IRQ BAR0 BAR1 ... (/proc/bus/pci/devices fields)
//! MAP TIMESTAMP MAP_ID PHYS VIRT LEN PC PID
//! R WIDTH TIMESTAMP MAP_ID PHYS VALUE PC PID
//! W WIDTH TIMESTAMP MAP_ID PHYS VALUE PC PID
//! MARK TIMESTAMP TEXT...
//! ```
//!
//! `VERSION`, `UNMAP`, `LSPCI`, `UNKNOWN` and any other kind of line are
//! skipped; a malformed `PCIDEV`, `MAP`, `R` or `W` line is an error naming
//! the file, the line and the fields expected there. Accesses are matched by
//! their physical address (map ids are reused after an `UNMAP`).
//!
//! **Which MAP is BAR0.** PCOUNTER sits at BAR0 + 0xa000..0xafff on NV10:GF100
//! (both register layouts, seed 003 "MMIO registers"), so BAR0's mapping is at least 0xb000 bytes long. Of the MAPs that
//! long, the importer takes the first whose base is the memory BAR0 of an
//! NVIDIA `PCIDEV` line (vendor 0x10de; the trace header lists every PCI
//! device); without such a line, the first one in the trace (drivers map the
//! MMIO BAR first, to read PMC_BOOT_0). Other BARs (the VRAM aperture) are
//! ignored, even where they are longer.
//!
//! **What becomes a command.** A 32-bit `W` inside the window becomes
//! `write ADDR DATA` (ADDR = 0xa000 + offset, the script's address), a 32-bit
//! `R` becomes `read ADDR trace VALUE`: the run prints the value read beside
//! the traced one and never checks it, because the signals of the traced GPU
//! are not the harness's. A `W` of any width to BAR0 + 0x400084 (PGRAPH
//! PM_TRIGGER) with bit 5 set, nouveau's `nv40_perfctr_next` sampling the
//! counters, becomes `pulse pm_trigger` (nouveau has no pre-NV40 perfctr
//! code: on NV10:NV30 the same register and bit are an unverified
//! assumption). An access of another width inside
//! the window is an error; everything else is skipped and counted.
//! `MARK` lines become comments.
//!
//! **Timing.** No `wait` is ever generated: trace timestamps are ignored and
//! commands run back to back (a write or read takes its 2 APB clocks plus any
//! wait states, a pulse is high in the next clock), so the script is a pure
//! function of the trace.
//!
//! **Configuration.** `gen` comes from `--gen`, else from the first 32-bit
//! read of PMC_BOOT_0 (BAR0 + 0; chipset = bits 28:20, see [`gen_of_chipset`]),
//! else the script default. `domains` comes from `--domains` (at most the
//! generation's `max_domains`), else the smallest Verilated build (1, 2 or 8)
//! holding the highest domain the kept accesses touch, decoded in the
//! generation's register layout (NV10 or NV40, [`domain_of`]) and capped at
//! the generation's `max_domains` (a domain past it would answer PSLVERR on
//! that GPU; the header says so).

use std::fmt::Write as _;

use pcounter::regs::{self, Gen, RegLayout};

use crate::script::{self, show, Cmd, Expect, GlobalInput, ParseError, MMIO_FIRST};

/// PCOUNTER window in BAR0 (NV10:GF100, both layouts), end exclusive.
pub const WINDOW: std::ops::Range<u64> = 0xa000..0xb000;
/// PGRAPH PM_TRIGGER register (BAR0 offset) and the bit that samples.
pub const PM_TRIGGER_REG: u64 = 0x40_0084;
pub const PM_TRIGGER_BIT: u64 = 1 << 5;
/// Domain counts of the Verilated builds.
const BUILDS: [usize; 3] = [1, 2, 8];

const RW_USAGE: &str = "WIDTH TIMESTAMP MAP_ID ADDRESS VALUE PC PID";
const MAP_USAGE: &str = "MAP TIMESTAMP MAP_ID PHYS VIRT LEN PC PID";
const PCIDEV_USAGE: &str = "PCIDEV BUSDEVFN VENDORDEVICE IRQ BAR0 ...";

/// Command-line choices that override what the trace implies.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub gen: Option<String>,
    pub domains: Option<usize>,
}

/// One script command and the trace line it came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub trace_line: usize,
    pub cmd: Cmd,
}

/// A translated trace.
#[derive(Clone, Debug)]
pub struct Import {
    pub gen: String,
    pub domains: usize,
    /// Physical base of BAR0 and the trace line of its MAP.
    pub bar0: u64,
    pub bar0_line: usize,
    /// The body commands, in trace order (MARK comments are not entries).
    pub entries: Vec<Entry>,
    /// R/W records outside the window (and not a PM_TRIGGER sample).
    pub skipped: usize,
    /// The scenario script.
    pub script: String,
}

impl Import {
    /// The trace line of each body command of `s`, the parse of
    /// [`Import::script`]: `(script line, trace line)`.
    pub fn line_map(&self, s: &script::Script) -> Vec<(usize, usize)> {
        s.body.iter().zip(&self.entries).map(|(l, e)| (l.line, e.trace_line)).collect()
    }

    /// One line for people: what was found and kept.
    pub fn summary(&self) -> String {
        let count = |f: fn(&Cmd) -> bool| self.entries.iter().filter(|e| f(&e.cmd)).count();
        format!(
            "BAR0 {:#x} (MAP on line {}), gen {}, {} domain(s): {} write(s), {} read(s), {} PM_TRIGGER pulse(s); \
             {} access(es) outside PCOUNTER skipped",
            self.bar0,
            self.bar0_line,
            self.gen,
            self.domains,
            count(|c| matches!(c, Cmd::Write { .. })),
            count(|c| matches!(c, Cmd::Read { .. })),
            count(|c| matches!(c, Cmd::Pulse { .. })),
            self.skipped
        )
    }
}

/// Chipsets of NV10:NV40 without PCOUNTER: seed 003 "Introduction" ("present
/// on NV10+ GPUs, with the exception of NV11, NV1A, NV17, NV18").
pub const NO_PCOUNTER: [u32; 4] = [0x11, 0x17, 0x18, 0x1a];

/// Generation of a chipset (PMC_BOOT_0 bits 28:20; 0x1xx from GM107 on) among the harness's;
/// `None` for chipsets outside NV10:GF100 and for [`NO_PCOUNTER`]. The
/// NV10:NV40 chips go by the seed's revisions (003 "Introduction": NV10:NV15,
/// NV15:NV20, NV20:NV30, NV30:NV40): NV1F (the one NV1x IGP the seed does not
/// exclude) is taken as NV15; NV25, NV28, NV2A as NV20; NV31, NV34, NV35,
/// NV36 as NV30. The seed's "NV25, NV2A, NV30, NV36 pending a check" is a
/// to-do on the exclusion list, not an exclusion, so they are kept.
/// G80 (0x50) has the NV40-style
/// PCOUNTER (SWAP hardwired to PM_TRIGGER up to G84, docs/semantics.md),
/// GT200 (0xa0) and the G92-era IGPs (0xaa, 0xac) are taken as G92.
pub fn gen_of_chipset(chipset: u32) -> Option<&'static str> {
    match chipset {
        0x10 => Some("nv10"),
        0x15 | 0x1f => Some("nv15"),
        0x20 | 0x25 | 0x28 | 0x2a => Some("nv20"),
        0x30 | 0x31 | 0x34 | 0x35 | 0x36 => Some("nv30"),
        0x40..=0x50 | 0x60..=0x6f => Some("nv40"),
        0x84..=0x86 => Some("g84"),
        0x92 | 0x94 | 0x96 | 0x98 | 0xa0 | 0xaa | 0xac => Some("g92"),
        0xa3 | 0xa5 | 0xa8 | 0xaf => Some("gt215"),
        _ => None,
    }
}

/// The domain a PCOUNTER register offset belongs to in `layout`, if any: the
/// generated address decode (`pcounter::regs::decode`, the one the RTL and
/// the model use), so a global register (GCTRL, the NV10 layout's shared
/// CTRL and QUAD_ACK_TRIGGER) and a hole belong to no domain. On the NV10
/// layout domain 1 is at +0x100 (0x500.., 0x700..), which the NV40 layout
/// reads as domain 0..7 registers.
pub fn domain_of(layout: RegLayout, offset: u32) -> Option<usize> {
    match regs::decode(layout, u16::try_from(offset).ok()?)? {
        regs::Decoded::Dom { dom, .. } => Some(dom),
        regs::Decoded::Global { .. } => None,
    }
}

struct Map {
    line: usize,
    id: u64,
    phys: u64,
    len: u64,
}

struct Access {
    line: usize,
    write: bool,
    width: u64,
    phys: u64,
    value: u64,
}

/// Imports an mmiotrace log; `file` is only used in messages and the header.
pub fn import(file: &str, text: &str, o: &Options) -> Result<Import, ParseError> {
    let err = |line: usize, msg: String| ParseError { file: file.to_string(), line, msg };
    let mut maps: Vec<Map> = Vec::new();
    let mut accesses: Vec<Access> = Vec::new();
    let mut marks: Vec<(usize, String)> = Vec::new();
    // (line, physical base of the memory BAR0) of NVIDIA PCIDEV lines.
    let mut nv_bar0: Vec<(usize, u64)> = Vec::new();
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let toks: Vec<&str> = raw.split_whitespace().collect();
        let Some(&kind) = toks.first() else { continue };
        match kind {
            "R" | "W" => {
                let a = rw_record(&toks).map_err(|m| err(n, m))?;
                accesses.push(Access { line: n, write: kind == "W", ..a });
            }
            "MAP" => maps.push(Map { line: n, ..map_record(&toks).map_err(|m| err(n, m))? }),
            "PCIDEV" => {
                if let Some(base) = pcidev_record(&toks).map_err(|m| err(n, m))? {
                    nv_bar0.push((n, base));
                }
            }
            "MARK" => {
                // MARK TIMESTAMP TEXT: the text keeps its own spacing.
                let rest = raw.trim_start().strip_prefix("MARK").unwrap_or("").trim_start();
                let text = rest.split_once(char::is_whitespace).map_or("", |(_, t)| t.trim());
                let safe = text.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.into() });
                marks.push((n, safe.collect()));
            }
            _ => {} // VERSION, UNMAP, LSPCI, UNKNOWN, and kinds this importer does not know
        }
    }

    // BAR0: see the module documentation.
    let big: Vec<&Map> = maps.iter().filter(|m| m.len >= WINDOW.end).collect();
    let by_pcidev = big.iter().find_map(|m| nv_bar0.iter().find(|&&(_, b)| b == m.phys).map(|&(l, _)| (*m, l)));
    let (bar, why) = match (by_pcidev, big.first()) {
        (Some((m, l)), _) => (m, format!("the BAR0 of the NVIDIA PCIDEV on line {l}")),
        (None, Some(m)) => (*m, format!("the first MAP of at least {:#x} bytes", WINDOW.end)),
        (None, None) => {
            return Err(err(
                0,
                format!(
                    "no MAP of at least {:#x} bytes, so no BAR0 (expected the MMIO BAR's mapping, which holds \
                     PCOUNTER at +0xa000..0xafff; the trace has {} MAP line(s))",
                    WINDOW.end,
                    maps.len()
                ),
            ))
        }
    };
    let bar0 = bar.phys;

    let mut entries = Vec::new();
    let mut skipped = 0;
    let mut boot0: Option<(usize, u64)> = None;
    for a in &accesses {
        let off = a.phys.checked_sub(bar0);
        if off == Some(0) && !a.write && a.width == 4 && boot0.is_none() {
            boot0 = Some((a.line, a.value));
        }
        let cmd = match off {
            Some(off) if WINDOW.contains(&off) => {
                if a.width != 4 {
                    return Err(err(
                        a.line,
                        format!(
                            "{}-byte {} at BAR0+{off:#x}, inside PCOUNTER (expected 4-byte accesses only: the \
                             script's bus is 32-bit)",
                            a.width,
                            if a.write { "write" } else { "read" }
                        ),
                    ));
                }
                let addr = MMIO_FIRST + (off - WINDOW.start) as u32; // in the 4 KiB window
                let value = u32::try_from(a.value).map_err(|_| {
                    err(a.line, format!("VALUE {:#x} does not fit the 4-byte access (expected a u32)", a.value))
                })?;
                if a.write {
                    Cmd::Write { addr, data: value, strb: 0xf }
                } else {
                    Cmd::Read { addr, expect: Some(Expect::Trace(value)) }
                }
            }
            Some(PM_TRIGGER_REG) if a.write && a.value & PM_TRIGGER_BIT != 0 => {
                Cmd::Pulse { input: GlobalInput::PmTrigger, cycles: 1 }
            }
            _ => {
                skipped += 1;
                continue;
            }
        };
        entries.push(Entry { trace_line: a.line, cmd });
    }

    let (gen, gen_why) = match (&o.gen, boot0) {
        (Some(g), _) => {
            if !script::GENS.contains(&g.as_str()) {
                return Err(err(
                    0,
                    format!("--gen: unknown generation '{}' (expected one of: {})", show(g), script::GENS.join(", ")),
                ));
            }
            (g.clone(), "--gen".to_string())
        }
        (None, Some((line, v))) => {
            let chipset = ((v >> 20) & 0x1ff) as u32;
            let g = gen_of_chipset(chipset).ok_or_else(|| {
                err(
                    line,
                    format!(
                        "PMC_BOOT_0 = {v:#010x}: chipset {chipset:#x} has no PCOUNTER generation here (expected \
                         NV10:GF100{}; pass --gen GEN, one of: {})",
                        if NO_PCOUNTER.contains(&chipset) {
                            "; NV11, NV17, NV18, NV1A have no PCOUNTER (seed 003 \"Introduction\")"
                        } else {
                            ""
                        },
                        script::GENS.join(", ")
                    ),
                )
            })?;
            (g.to_string(), format!("PMC_BOOT_0 = {v:#010x} on line {line}, chipset {chipset:#x}"))
        }
        (None, None) => (script::DEFAULT_GEN.to_string(), "the default: no PMC_BOOT_0 read in the trace".into()),
    };

    // `gen` is one of script::GENS here (checked above or from the table).
    let g = Gen::from_name(&gen).unwrap_or(Gen::Gt215);
    let max = g.max_domains();
    let top = entries
        .iter()
        .filter_map(|e| match e.cmd {
            Cmd::Write { addr, .. } | Cmd::Read { addr, .. } => domain_of(g.reg_layout(), addr - MMIO_FIRST),
            _ => None,
        })
        .max();
    let (domains, dom_why) = match (o.domains, top) {
        (Some(d), _) if !(1..=script::MAX_DOMAINS).contains(&d) => {
            return Err(err(0, format!("--domains: {d} out of range (expected 1..={})", script::MAX_DOMAINS)))
        }
        (Some(d), _) if d > max => {
            return Err(err(0, format!("--domains: {d} is more than {gen} has (at most {max}; gen {gen}: {gen_why})")))
        }
        (Some(d), _) => (d, "--domains".to_string()),
        (None, None) => (1, "no domain register touched".to_string()),
        (None, Some(t)) if t >= max => (
            max,
            format!(
                "the highest domain touched is {t}, but {gen} has at most {max} (those accesses answer PSLVERR \
                 there)"
            ),
        ),
        (None, Some(t)) => {
            let d = BUILDS.into_iter().find(|&b| b > t).unwrap_or(script::MAX_DOMAINS).min(max);
            (d, format!("the highest domain touched is {t}"))
        }
    };

    let mut s = String::new();
    let _ = writeln!(s, "# Imported by `pcnt import-mmiotrace` from {file} (mmiotrace log).");
    let _ = writeln!(s, "# BAR0 {bar0:#x}: MAP id {} on line {} ({:#x} bytes), {why}.", bar.id, bar.line, bar.len);
    let _ = writeln!(
        s,
        "# Kept: 32-bit accesses to BAR0+0xa000..0xafff (PCOUNTER); writes to BAR0+0x400084 with bit 5\n\
         # set (PGRAPH PM_TRIGGER) as `pulse pm_trigger`. Skipped: {skipped} other access(es)."
    );
    let _ = writeln!(
        s,
        "# `read ADDR trace VALUE` prints the value read beside the traced one and never fails:\n\
         # the signals of the traced GPU are not the harness's."
    );
    let _ = writeln!(s, "# Timing: no waits; commands run back to back, trace timestamps are ignored.");
    let _ = writeln!(s, "# gen {gen}: {gen_why}.\n# domains {domains}: {dom_why}.");
    let _ = writeln!(s, "# `# line N`: the command's line in the trace.");
    let _ = writeln!(s, "gen {gen}\ndomains {domains}\n");
    let mut marks = marks.into_iter().peekable();
    for e in &entries {
        while let Some((l, text)) = marks.next_if(|(l, _)| *l < e.trace_line) {
            let _ = writeln!(s, "# line {l}: MARK {text}");
        }
        let _ = writeln!(s, "{:<30} # line {}", e.cmd.to_string(), e.trace_line);
    }
    for (l, text) in marks {
        let _ = writeln!(s, "# line {l}: MARK {text}");
    }
    Ok(Import { gen, domains, bar0, bar0_line: bar.line, entries, skipped, script: s })
}

fn count_err(kind: &str, usage: &str, want: usize, got: usize) -> String {
    format!("{kind}: expected '{usage}' ({want} fields), found {got}")
}

/// `R|W WIDTH TIMESTAMP MAP_ID ADDRESS VALUE PC PID`.
fn rw_record(toks: &[&str]) -> Result<Access, String> {
    let kind = toks[0];
    if toks.len() != 8 {
        return Err(count_err(kind, &format!("{kind} {RW_USAGE}"), 8, toks.len()));
    }
    let width = dec(toks[1], "WIDTH", kind)?;
    if ![1, 2, 4, 8].contains(&width) {
        return Err(format!(
            "{kind}: WIDTH {width} out of range (expected 1, 2, 4 or 8 bytes; fields: {kind} {RW_USAGE})"
        ));
    }
    timestamp(toks[2], kind)?;
    dec(toks[3], "MAP_ID", kind)?;
    let phys = hex(toks[4], "ADDRESS", kind)?;
    let value = hex(toks[5], "VALUE", kind)?;
    if width < 8 && value >> (8 * width) != 0 {
        return Err(format!("{kind}: VALUE {value:#x} does not fit {width} byte(s)"));
    }
    hex(toks[6], "PC", kind)?;
    dec(toks[7], "PID", kind)?;
    Ok(Access { line: 0, write: false, width, phys, value })
}

/// `MAP TIMESTAMP MAP_ID PHYS VIRT LEN PC PID`.
fn map_record(toks: &[&str]) -> Result<Map, String> {
    if toks.len() != 8 {
        return Err(count_err("MAP", MAP_USAGE, 8, toks.len()));
    }
    timestamp(toks[1], "MAP")?;
    let id = dec(toks[2], "MAP_ID", "MAP")?;
    let phys = hex(toks[3], "PHYS", "MAP")?;
    hex(toks[4], "VIRT", "MAP")?;
    let len = hex(toks[5], "LEN", "MAP")?;
    hex(toks[6], "PC", "MAP")?;
    dec(toks[7], "PID", "MAP")?;
    Ok(Map { line: 0, id, phys, len })
}

/// `PCIDEV BUSDEVFN VENDORDEVICE IRQ BAR0 ...`: BAR0's physical base if the
/// device is NVIDIA's and BAR0 is a memory BAR.
fn pcidev_record(toks: &[&str]) -> Result<Option<u64>, String> {
    if toks.len() < 5 {
        return Err(format!("PCIDEV: expected '{PCIDEV_USAGE}' (at least 5 fields), found {}", toks.len()));
    }
    let id = hex(toks[2], "VENDORDEVICE", "PCIDEV")?;
    let bar = hex(toks[4], "BAR0", "PCIDEV")?;
    // Low bits are the resource flags; bit 0 = I/O space.
    Ok((id >> 16 == 0x10de && bar & 1 == 0 && bar != 0).then_some(bar & !0xf))
}

fn bad(kind: &str, what: &str, tok: &str, expected: &str) -> String {
    let usage = match kind {
        "MAP" => MAP_USAGE.to_string(),
        "PCIDEV" => PCIDEV_USAGE.to_string(),
        k => format!("{k} {RW_USAGE}"),
    };
    format!("{kind}: bad {what} '{}' (expected {expected}; fields: {usage})", show(tok))
}

/// Hex with an optional `0x` (the kernel prints `0x%lx`, PCIDEV bare `%llx`).
fn hex(tok: &str, what: &str, kind: &str) -> Result<u64, String> {
    let digits = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")).unwrap_or(tok);
    if digits.is_empty() || digits.len() > 16 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(bad(kind, what, tok, "a hex number of at most 64 bits"));
    }
    u64::from_str_radix(digits, 16).map_err(|_| bad(kind, what, tok, "a hex number"))
}

fn dec(tok: &str, what: &str, kind: &str) -> Result<u64, String> {
    if tok.is_empty() || !tok.chars().all(|c| c.is_ascii_digit()) {
        return Err(bad(kind, what, tok, "a decimal number"));
    }
    tok.parse().map_err(|_| bad(kind, what, tok, "a decimal number of at most 64 bits"))
}

/// `SECONDS.MICROSECONDS` (`%lu.%06lu`).
fn timestamp(tok: &str, kind: &str) -> Result<(), String> {
    let ok = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let valid = match tok.split_once('.') {
        Some((s, us)) => ok(s) && ok(us),
        None => ok(tok),
    };
    if valid {
        Ok(())
    } else {
        Err(bad(kind, "TIMESTAMP", tok, "SECONDS.MICROSECONDS"))
    }
}

#[cfg(test)]
mod tests;
