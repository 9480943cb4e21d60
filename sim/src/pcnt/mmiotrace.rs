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
//! **Which address is BAR0.** The memory BAR0 of an NVIDIA `PCIDEV` line
//! (vendor 0x10de; the trace header lists every PCI device), the first one
//! with a MAP of that base if several GPUs are listed: accesses are matched
//! by physical address, so the length of BAR0's MAP does not matter (a
//! driver that maps only part of BAR0 is imported right, and an access
//! through another BAR at the same offset is never taken for PCOUNTER).
//! Without such a line, the first MAP of at least 0xb000 bytes (PCOUNTER
//! sits at BAR0 + 0xa000..0xafff on NV10:GF100, seed 003 "MMIO registers";
//! drivers map the MMIO BAR first, to read PMC_BOOT_0). Other BARs (the
//! VRAM aperture) are ignored, even where they are longer.
//!
//! **What becomes a command.** The window is BAR0 + 0xa000..0xafff before
//! GF100 and BAR0 + 0x180000..0x1bffff on GF100+ (`gen gf100`, S25). A
//! 32-bit `W` inside it becomes `write ADDR DATA` (ADDR = the BAR0 offset,
//! the script's address), a 32-bit
//! `R` becomes `read ADDR trace VALUE`: the run prints the value read beside
//! the traced one and never checks it, because the signals of the traced GPU
//! are not the harness's. A `W` of any width to BAR0 + 0x400084 (PGRAPH
//! PM_TRIGGER) with bit 5 set, nouveau's `nv40_perfctr_next` sampling the
//! counters, becomes `pulse pm_trigger` (nouveau has no pre-NV40 perfctr
//! code: on NV10:NV30 the same register and bit are an unverified
//! assumption); GF100+ has no PM_TRIGGER input (S25), so there it is
//! skipped. On GF100+ a 32-bit `W` to PMC.ENABLE (BAR0 + 0x200) becomes
//! `pmc_enable B`, B its bit 28 (S25.14; nouveau's `gf100_pm_fini` clears
//! and sets it to reset PCOUNTER). An access of another width inside
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
//! else the script default. With gen gf100 the preset (`layout`) comes from
//! `--layout`, else the first of the chipset's preset ([`gf_preset_of_chipset`])
//! and the others that holds every domain and unit the trace addresses, else
//! the first that holds every one it writes; a write to a domain or unit the
//! chosen preset lacks is an error naming the trace line and address. Before
//! GF100, `domains` comes from `--domains` (at most the
//! generation's `max_domains`), else the smallest Verilated build (1, 2 or 8)
//! holding the highest domain the kept accesses touch, decoded in the
//! generation's register layout (NV10 or NV40, [`domain_of`]) and capped at
//! the generation's `max_domains` (a domain past it would answer PSLVERR on
//! that GPU; the header says so).

use std::fmt::Write as _;

use pcounter::pcnt::gf100::{top::target, GfConfig};
use pcounter::pcnt::regs::{self, Gen, RegLayout};

use crate::pcnt::script::{self, show, Cmd, Expect, GlobalInput, ParseError, GF_MMIO_FIRST, MMIO_FIRST};

mod records;
use records::{map_record, pcidev_record, rw_record};

/// PCOUNTER window in BAR0 (NV10:GF100, both layouts), end exclusive.
pub const WINDOW: std::ops::Range<u64> = 0xa000..0xb000;
/// GF100+ PCOUNTER window in BAR0 (S25), end exclusive.
pub const GF_WINDOW: std::ops::Range<u64> = 0x18_0000..0x1c_0000;
/// PMC.ENABLE (BAR0 offset) and PCOUNTER's bit in it (S25.14).
pub const PMC_ENABLE_REG: u64 = 0x200;
pub const PMC_ENABLE_BIT: u64 = 1 << 28;
/// The GF100+ presets an import picks from, in order of preference after
/// the chipset's own.
const GF_IMPORT_PRESETS: [&str; 3] = ["fermi", "fermi_full", "kepler"];
/// PGRAPH PM_TRIGGER register (BAR0 offset) and the bit that samples.
pub const PM_TRIGGER_REG: u64 = 0x40_0084;
pub const PM_TRIGGER_BIT: u64 = 1 << 5;
/// Domain counts of the Verilated builds.
const BUILDS: [usize; 3] = [1, 2, 8];

/// Command-line choices that override what the trace implies.
#[derive(Clone, Debug, Default)]
pub struct Options {
    pub gen: Option<String>,
    pub domains: Option<usize>,
    /// GF100+ preset (gen gf100 only).
    pub layout: Option<String>,
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
    /// The script's domain count (gen gf100: the preset's).
    pub domains: usize,
    /// The GF100+ preset (gen gf100 only).
    pub layout: Option<String>,
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
            "BAR0 {:#x} (line {}), gen {}{}, {} domain(s): {} write(s), {} read(s), {} PM_TRIGGER pulse(s); \
             {} access(es) outside PCOUNTER skipped",
            self.bar0,
            self.bar0_line,
            self.gen,
            self.layout.as_ref().map(|l| format!(" (layout {l})")).unwrap_or_default(),
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
/// GF100+ (gen gf100) is the chipsets nouveau gives a PM engine of its
/// GF100 layout ([`gf_preset_of_chipset`]).
pub fn gen_of_chipset(chipset: u32) -> Option<&'static str> {
    if gf_preset_of_chipset(chipset).is_some() {
        return Some("gf100");
    }
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

/// The GF100+ preset closest to a chipset, for the chipsets whose PM engine
/// nouveau drives with its GF100 code (nvkm/engine/device/base.c `.pm`):
/// GF100, GF104, GF106, GF108, GF110, GF114, GF116, GF117, GF119
/// (`gf100_pm_new`, `gf108_pm_new`, `gf117_pm_new`: nouveau's GF100 domain
/// tables, the fermi preset) and GK104, GK106, GK107, GK20A
/// (`gk104_pm_new`: GK104's lists, the kepler preset). GK110, GK110B, GK208
/// and GK208B have no PM engine in nouveau, so no preset: `None`.
pub fn gf_preset_of_chipset(chipset: u32) -> Option<&'static str> {
    match chipset {
        0xc0 | 0xc1 | 0xc3 | 0xc4 | 0xc8 | 0xce | 0xcf | 0xd7 | 0xd9 => Some("fermi"),
        0xe4 | 0xe6 | 0xe7 | 0xea => Some("kepler"),
        _ => None,
    }
}

/// The domain a PCOUNTER register offset belongs to in `layout`, if any: the
/// generated address decode (`pcounter::pcnt::regs::decode`, the one the RTL and
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
    let r = read_records(text).map_err(|(l, m)| err(l, m))?;
    let (bar0, bar0_line, bar_why) = find_bar0(&r.maps, &r.nv_bar0).map_err(|m| err(0, m))?;
    let boot0 = r.accesses.iter().find(|a| a.phys == bar0 && !a.write && a.width == 4).map(|a| (a.line, a.value));
    let (gen, gen_why, chipset) = choose_gen(o, boot0).map_err(|(l, m)| err(l, m))?;
    let gf = gen == "gf100";
    if o.layout.is_some() && !gf {
        return Err(err(0, format!("--layout is for gen gf100 (the trace's gen is {gen}: {gen_why})")));
    }
    let (entries, skipped) = translate(&r.accesses, bar0, gf).map_err(|(l, m)| err(l, m))?;
    let (domains, layout, config_why) = if gf {
        let (preset, why) = choose_preset(o, chipset, &entries).map_err(|(l, m)| err(l, m))?;
        let n = GfConfig::preset(&preset).map_or(0, |c| c.num_domains());
        (n, Some(preset), why)
    } else {
        let (d, why) = choose_domains(o, &gen, &gen_why, &entries).map_err(|m| err(0, m))?;
        (d, None, why)
    };
    let mut imp = Import { gen, domains, layout, bar0, bar0_line, entries, skipped, script: String::new() };
    imp.script = script(file, &imp, [&bar_why, &gen_why, &config_why], r.marks);
    Ok(imp)
}

/// The records of a trace the import reads: BAR maps, 32-bit and other
/// accesses, MARK lines, and the memory BAR0 of NVIDIA PCIDEV lines.
struct Records {
    maps: Vec<Map>,
    accesses: Vec<Access>,
    marks: Vec<(usize, String)>,
    nv_bar0: Vec<(usize, u64)>,
}

/// Every record of `text` the import uses; an error names its line.
fn read_records(text: &str) -> Result<Records, (usize, String)> {
    let mut r = Records { maps: Vec::new(), accesses: Vec::new(), marks: Vec::new(), nv_bar0: Vec::new() };
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    for (i, raw) in text.lines().enumerate() {
        let n = i + 1;
        let toks: Vec<&str> = raw.split_whitespace().collect();
        let Some(&kind) = toks.first() else { continue };
        match kind {
            "R" | "W" => {
                let a = rw_record(&toks).map_err(|m| (n, m))?;
                r.accesses.push(Access { line: n, write: kind == "W", ..a });
            }
            "MAP" => r.maps.push(Map { line: n, ..map_record(&toks).map_err(|m| (n, m))? }),
            "PCIDEV" => {
                if let Some(base) = pcidev_record(&toks).map_err(|m| (n, m))? {
                    r.nv_bar0.push((n, base));
                }
            }
            "MARK" => {
                // MARK TIMESTAMP TEXT: the text keeps its own spacing.
                let rest = raw.trim_start().strip_prefix("MARK").unwrap_or("").trim_start();
                let text = rest.split_once(char::is_whitespace).map_or("", |(_, t)| t.trim());
                let safe = text.chars().map(|c| if c.is_control() { c.escape_debug().to_string() } else { c.into() });
                r.marks.push((n, safe.collect()));
            }
            _ => {} // VERSION, UNMAP, LSPCI, UNKNOWN, and kinds this importer does not know
        }
    }
    Ok(r)
}

/// The script commands of the accesses to PCOUNTER's window (and
/// PM_TRIGGER / PMC.ENABLE writes), and how many accesses were skipped.
fn translate(accesses: &[Access], bar0: u64, gf: bool) -> Result<(Vec<Entry>, usize), (usize, String)> {
    let mut entries = Vec::new();
    let mut skipped = 0;
    let window = if gf { GF_WINDOW } else { WINDOW };
    for a in accesses {
        let off = a.phys.checked_sub(bar0);
        let cmd = match off {
            Some(off) if window.contains(&off) => {
                if a.width != 4 {
                    return Err((
                        a.line,
                        format!(
                            "{}-byte {} at BAR0+{off:#x}, inside PCOUNTER (expected 4-byte accesses only: the \
                             script's bus is 32-bit)",
                            a.width,
                            if a.write { "write" } else { "read" }
                        ),
                    ));
                }
                // The script's address: the BAR0 offset (NV10:GF100's 4 KiB
                // window starts at MMIO_FIRST = 0xa000, GF100's at 0x180000).
                let addr = if gf { off as u32 } else { MMIO_FIRST + (off - WINDOW.start) as u32 };
                let value = u32::try_from(a.value).map_err(|_| {
                    (a.line, format!("VALUE {:#x} does not fit the 4-byte access (expected a u32)", a.value))
                })?;
                if a.write {
                    Cmd::Write { addr, data: value, strb: 0xf }
                } else {
                    Cmd::Read { addr, expect: Some(Expect::Trace(value)) }
                }
            }
            Some(PM_TRIGGER_REG) if !gf && a.write && a.value & PM_TRIGGER_BIT != 0 => {
                Cmd::Pulse { input: GlobalInput::PmTrigger, cycles: 1 }
            }
            Some(PMC_ENABLE_REG) if gf && a.write && a.width == 4 => {
                Cmd::PmcEnable { on: a.value & PMC_ENABLE_BIT != 0 }
            }
            _ => {
                skipped += 1;
                continue;
            }
        };
        entries.push(Entry { trace_line: a.line, cmd });
    }
    Ok((entries, skipped))
}

/// The script text of an import: the header saying what was kept and why
/// (`why`: BAR0, the generation, the domains or preset), the configuration
/// lines, then each command with its trace line, the MARK lines between.
fn script(file: &str, imp: &Import, why: [&str; 3], marks: Vec<(usize, String)>) -> String {
    let [bar_why, gen_why, config_why] = why;
    let (gen, domains, bar0, skipped) = (&imp.gen, imp.domains, imp.bar0, imp.skipped);
    let mut s = String::new();
    let _ = writeln!(s, "# Imported by `pcnt import-mmiotrace` from {file} (mmiotrace log).");
    let _ = writeln!(s, "# BAR0 {bar0:#x}: {bar_why}.");
    if imp.layout.is_some() {
        let _ = writeln!(
            s,
            "# Kept: 32-bit accesses to BAR0+0x180000..0x1bffff (GF100+ PCOUNTER); 32-bit writes to\n\
             # BAR0+0x200 (PMC.ENABLE) as `pmc_enable` of bit 28. Skipped: {skipped} other access(es)."
        );
    } else {
        let _ = writeln!(
            s,
            "# Kept: 32-bit accesses to BAR0+0xa000..0xafff (PCOUNTER); writes to BAR0+0x400084 with bit 5\n\
             # set (PGRAPH PM_TRIGGER) as `pulse pm_trigger`. Skipped: {skipped} other access(es)."
        );
    }
    let _ = writeln!(
        s,
        "# `read ADDR trace VALUE` prints the value read beside the traced one and never fails:\n\
         # the signals of the traced GPU are not the harness's."
    );
    let _ = writeln!(s, "# Timing: no waits; commands run back to back, trace timestamps are ignored.");
    let _ = writeln!(s, "# gen {gen}: {gen_why}.");
    match &imp.layout {
        Some(l) => {
            let _ = writeln!(s, "# layout {l}: {config_why}.");
        }
        None => {
            let _ = writeln!(s, "# domains {domains}: {config_why}.");
        }
    }
    let _ = writeln!(s, "# `# line N`: the command's line in the trace.");
    match &imp.layout {
        Some(l) => {
            let _ = writeln!(s, "gen {gen}\nlayout {l}\n");
        }
        None => {
            let _ = writeln!(s, "gen {gen}\ndomains {domains}\n");
        }
    }
    let mut marks = marks.into_iter().peekable();
    for e in &imp.entries {
        while let Some((l, text)) = marks.next_if(|(l, _)| *l < e.trace_line) {
            let _ = writeln!(s, "# line {l}: MARK {text}");
        }
        let _ = writeln!(s, "{:<30} # line {}", e.cmd.to_string(), e.trace_line);
    }
    for (l, text) in marks {
        let _ = writeln!(s, "# line {l}: MARK {text}");
    }
    s
}

/// BAR0's base, the trace line that gave it and why (module documentation).
fn find_bar0(maps: &[Map], nv_bar0: &[(usize, u64)]) -> Result<(u64, usize, String), String> {
    let mapped = nv_bar0.iter().find_map(|&(l, b)| maps.iter().find(|m| m.phys == b).map(|m| (l, m)));
    if let Some((l, m)) = mapped {
        let why = format!(
            "MAP id {} on line {} ({:#x} bytes), the BAR0 of the NVIDIA PCIDEV on line {l}",
            m.id, m.line, m.len
        );
        return Ok((m.phys, m.line, why));
    }
    if let Some(&(l, b)) = nv_bar0.first() {
        return Ok((b, l, format!("the BAR0 of the NVIDIA PCIDEV on line {l} (no MAP of it in the trace)")));
    }
    match maps.iter().find(|m| m.len >= WINDOW.end) {
        Some(m) => Ok((
            m.phys,
            m.line,
            format!(
                "MAP id {} on line {} ({:#x} bytes), the first MAP of at least {:#x} bytes",
                m.id, m.line, m.len, WINDOW.end
            ),
        )),
        None => Err(format!(
            "no NVIDIA PCIDEV line and no MAP of at least {:#x} bytes, so no BAR0 (expected the MMIO BAR's \
             mapping, which holds PCOUNTER at +0xa000..0xafff; the trace has {} MAP line(s))",
            WINDOW.end,
            maps.len()
        )),
    }
}

/// The script's generation, why, and the traced chipset if PMC_BOOT_0 was
/// read; an error names its trace line (0: the command line).
fn choose_gen(o: &Options, boot0: Option<(usize, u64)>) -> Result<(String, String, Option<u32>), (usize, String)> {
    let chipset = boot0.map(|(_, v)| ((v >> 20) & 0x1ff) as u32);
    match (&o.gen, boot0) {
        (Some(g), _) => {
            if !script::GENS.contains(&g.as_str()) {
                return Err((
                    0,
                    format!("--gen: unknown generation '{}' (expected one of: {})", show(g), script::GENS.join(", ")),
                ));
            }
            Ok((g.clone(), "--gen".to_string(), chipset))
        }
        (None, Some((line, v))) => {
            let chipset = ((v >> 20) & 0x1ff) as u32;
            let g = gen_of_chipset(chipset).ok_or_else(|| {
                (
                    line,
                    format!(
                        "PMC_BOOT_0 = {v:#010x}: chipset {chipset:#x} has no PCOUNTER generation here (expected \
                         NV10:GF100, or GF100+ with a nouveau PM engine: GF100..GF119, GK104, GK106, GK107, \
                         GK20A{}; pass --gen GEN, one of: {})",
                        if NO_PCOUNTER.contains(&chipset) {
                            "; NV11, NV17, NV18, NV1A have no PCOUNTER (seed 003 \"Introduction\")"
                        } else {
                            ""
                        },
                        script::GENS.join(", ")
                    ),
                )
            })?;
            Ok((g.to_string(), format!("PMC_BOOT_0 = {v:#010x} on line {line}, chipset {chipset:#x}"), Some(chipset)))
        }
        (None, None) => {
            Ok((script::DEFAULT_GEN.to_string(), "the default: no PMC_BOOT_0 read in the trace".into(), None))
        }
    }
}

/// Before GF100: the script's domain count and why (module documentation).
fn choose_domains(o: &Options, gen: &str, gen_why: &str, entries: &[Entry]) -> Result<(usize, String), String> {
    // `gen` is one of script::GENS here (checked or from the table).
    let g = Gen::from_name(gen).unwrap_or(Gen::Gt215);
    let max = g.max_domains();
    let top = entries
        .iter()
        .filter_map(|e| match e.cmd {
            Cmd::Write { addr, .. } | Cmd::Read { addr, .. } => domain_of(g.reg_layout(), addr - MMIO_FIRST),
            _ => None,
        })
        .max();
    match (o.domains, top) {
        (Some(d), _) if !(1..=script::MAX_DOMAINS).contains(&d) => {
            Err(format!("--domains: {d} out of range (expected 1..={})", script::MAX_DOMAINS))
        }
        (Some(d), _) if d > max => {
            Err(format!("--domains: {d} is more than {gen} has (at most {max}; gen {gen}: {gen_why})"))
        }
        (Some(d), _) => Ok((d, "--domains".to_string())),
        (None, None) => Ok((1, "no domain register touched".to_string())),
        (None, Some(t)) if t >= max => Ok((
            max,
            format!(
                "the highest domain touched is {t}, but {gen} has at most {max} (those accesses answer PSLVERR \
                 there)"
            ),
        )),
        (None, Some(t)) => {
            let d = BUILDS.into_iter().find(|&b| b > t).unwrap_or(script::MAX_DOMAINS).min(max);
            Ok((d, format!("the highest domain touched is {t}")))
        }
    }
}

/// GF100+: the preset and why (module documentation); an error names the
/// trace line of the write no preset holds.
fn choose_preset(o: &Options, chipset: Option<u32>, entries: &[Entry]) -> Result<(String, String), (usize, String)> {
    // (trace line, BAR0 offset, write) of every PCOUNTER access.
    let accesses: Vec<(usize, u32, bool)> = entries
        .iter()
        .filter_map(|e| match e.cmd {
            Cmd::Write { addr, .. } => Some((e.trace_line, addr, true)),
            Cmd::Read { addr, .. } => Some((e.trace_line, addr, false)),
            _ => None,
        })
        .collect();
    // The first access `preset` has no register for (a hole, or a domain or
    // unit it lacks: PSLVERR there), among writes only or all accesses.
    let absent = |preset: &str, writes_only: bool| -> Option<(usize, u32, bool)> {
        let cfg = GfConfig::preset(preset).ok()?;
        accesses
            .iter()
            .copied()
            .find(|&(_, addr, w)| (w || !writes_only) && target(&cfg, addr - GF_MMIO_FIRST).is_none())
    };
    if let Some(p) = &o.layout {
        if !script::GF_PRESETS.contains(&p.as_str()) {
            return Err((
                0,
                format!("--layout: unknown preset '{}' (expected one of: {})", show(p), script::GF_PRESETS.join(", ")),
            ));
        }
        if let Some((line, addr, _)) = absent(p, true) {
            return Err((line, format!("write to {addr:#x}: no such register, domain or unit in layout {p} (S25.18)")));
        }
        return Ok((p.clone(), "--layout".to_string()));
    }
    let hint = chipset.and_then(gf_preset_of_chipset);
    let mut order: Vec<&str> = hint.into_iter().collect();
    order.extend(GF_IMPORT_PRESETS.iter().copied().filter(|p| Some(*p) != hint));
    let from = |p: &str| match hint {
        Some(h) if h == p => format!("chipset {:#x}'s preset", chipset.unwrap_or(0)),
        Some(h) => format!("not the chipset's ({h}), which lacks a domain or unit the trace addresses"),
        None => "the first preset".to_string(),
    };
    if let Some(p) = order.iter().find(|p| absent(p, false).is_none()) {
        return Ok((p.to_string(), format!("{}, holds every domain and unit the trace addresses", from(p))));
    }
    if let Some(p) = order.iter().find(|p| absent(p, true).is_none()) {
        let (line, addr, _) = absent(p, false).unwrap_or_default();
        return Ok((
            p.to_string(),
            format!(
                "{}, holds every one the trace writes (the read of {addr:#x} on line {line} answers PSLVERR)",
                from(p)
            ),
        ));
    }
    let (line, addr, _) = absent(order[0], true).unwrap_or_default();
    Err((
        line,
        format!(
            "write to {addr:#x}: no such register, domain or unit in any preset ({}; S25.18): the trace addresses \
             more units or domains than a built preset has",
            GF_IMPORT_PRESETS.join(", ")
        ),
    ))
}

#[cfg(test)]
mod tests;
