//! The PCOUNTER script commands (`COMMANDS`), their argument parsers and
//! the parser state; lexing and numbers are the engine's (`engine::script`).

use super::*;
use pcounter::{common::bus::BusResult, pcnt::config::Layout};

use crate::engine::mismatch::Mismatch;
use crate::engine::script::{num, parse_u64, script_commands, show, Args, NumError};
use crate::pcnt::axi_mem::AxiMem;

/// A domain number: 0..=7 up to GT215, flat over the preset's sets on
/// GF100 (0..=63); the script's own limit is checked at the end.
fn dom_arg(a: &mut Args) -> Result<u8, String> {
    Ok(num(a.next("DOM")?, "DOM", 0, MAX_GF_DOMAINS as u64 - 1, "0..=7, or 0..=63 with gen gf100")? as u8)
}

fn u32_arg(tok: &str, what: &str) -> Result<u32, String> {
    // The range check makes the narrowing exact.
    num(tok, what, 0, u64::from(u32::MAX), U32).map(|v| v as u32)
}

fn addr_arg(tok: &str) -> Result<u32, String> {
    // Unaligned addresses are allowed: PADDR[1:0] are ignored by the
    // completer (docs/semantics.md S0), and random runs exercise that.
    let expected = "expected 0xa000..=0xafff, or 0x180000..=0x1bffff with gen gf100";
    let a = match parse_u64(tok) {
        Err(NumError::Syntax) => return Err(format!("bad number '{}' for ADDR ({expected})", show(tok))),
        Err(NumError::TooBig) => return Err(format!("address {} out of range ({expected})", show(tok))),
        Ok(a) => a,
    };
    let nv = u64::from(MMIO_FIRST)..=u64::from(MMIO_LAST);
    let gf = u64::from(GF_MMIO_FIRST)..=u64::from(GF_MMIO_LAST);
    if nv.contains(&a) || gf.contains(&a) {
        Ok(a as u32) // in an MMIO window, so it fits; which one the gen takes is checked at the end
    } else {
        Err(format!("address {a:#x} out of range ({expected})"))
    }
}

#[derive(Default)]
pub(super) struct Parser {
    pub(super) script: Script,
    pub(super) gen_line: Option<usize>,
    pub(super) domains_line: Option<usize>,
    pub(super) layout_line: Option<usize>,
    /// Source line of each `script.clocks` entry (late domain checks, checks.rs).
    pub(super) clock_lines: Vec<usize>,
}

/// How a table row is parsed: a configuration command sets up the script
/// (parser state, no body command); a body command yields one [`Cmd`].
#[derive(Clone, Copy)]
pub enum Parse {
    Config,
    Body(fn(&mut Args) -> Result<Cmd, String>),
}

/// One row of [`COMMANDS`]: the name, the usage (error messages and
/// `pcnt script --help` read it) and how its arguments are parsed.
pub struct CommandSpec {
    pub name: &'static str,
    pub usage: &'static str,
    /// A body command's example line (canonical script syntax).
    pub example: Option<&'static str>,
    parse: Parse,
}

impl CommandSpec {
    const fn config(name: &'static str, usage: &'static str) -> CommandSpec {
        CommandSpec { name, usage, example: None, parse: Parse::Config }
    }

    /// A body command's row ([`script_commands!`] builds these).
    pub const fn body(
        name: &'static str,
        usage: &'static str,
        example: &'static str,
        parse: fn(&mut Args) -> Result<Cmd, String>,
    ) -> Self {
        CommandSpec { name, usage, example: Some(example), parse: Parse::Body(parse) }
    }

    /// Configuration (before the first body command) rather than body.
    pub fn is_config(&self) -> bool {
        matches!(self.parse, Parse::Config)
    }
}

/// What a body command may do to the lockstep engine (`lockstep::Engine`
/// implements it): the primitives every command below is built from.
pub trait Target {
    /// One APB write of a full MMIO address, SETUP then ACCESS until
    /// PREADY (S0, S15); the target maps the address onto its PADDR.
    fn write(&mut self, addr: u32, data: u32, strb: u8) -> Result<BusResult, Box<Mismatch>>;
    /// One APB read of a full MMIO address.
    fn read(&mut self, addr: u32) -> Result<BusResult, Box<Mismatch>>;
    /// `cycles` bus clocks with the bus idle.
    fn idle(&mut self, cycles: u64) -> Result<(), Box<Mismatch>>;
    /// An external signal of a domain, from the next clock on.
    fn set_signal(&mut self, dom: u8, sig: u8, value: bool);
    /// The verification backdoor (S14), both sides, before the next clock.
    fn poke(&mut self, dom: u8, counter: Counter, value: u64);
    /// Raise a global input for the next `cycles` clocks (S22).
    fn pulse(&mut self, input: &GlobalInput, cycles: u32);
    /// A word of the record memory, RTL and model images compared (S21).
    fn mem_word(&mut self, addr: u64) -> Result<u32, Box<Mismatch>>;
    /// The simulated record memory (fault ranges, latencies; S21).
    fn mem(&mut self) -> &mut AxiMem;
    /// PMC.ENABLE bit 28 (GF100 only, S25.14), from the next clock on.
    fn pmc_enable(&mut self, on: bool);
}

/// The APB offset of a full MMIO address: PADDR is 12 bits (S0).
pub fn offset(addr: u32) -> u16 {
    (addr.wrapping_sub(MMIO_FIRST) & 0xfff) as u16
}

script_commands! {
    enum Cmd; target Target; result Result<Option<BusResult>, Box<Mismatch>>;
    config [
        CommandSpec::config("gen", "gen GEN[,GEN...] (nv10, nv15, nv20, nv30, nv40, g84, g92, gt215; a list runs the script once per generation)"),
        CommandSpec::config(
            "domains",
            "domains N (1..=8; at most the generation's domain limit: nv10/nv15 1, nv20/nv30 2, nv40+ 8)",
        ),
        CommandSpec::config("clock", "clock DOM N | DOM M/N | DOM irregular SEED (DOM 0..=7, 1 <= M <= N)"),
        CommandSpec::config("xseed", "xseed N (seed of the RTL's random initial values, a u32)"),
        CommandSpec::config(
            "decode",
            "decode strict | lax (lax: StrictDecode = 0, holes read 0 without PSLVERR; builds: 2 domains)",
        ),
        CommandSpec::config(
            "layout",
            "layout default | real | odd (per-domain signal layout; real: 8 domains, g84/g92/gt215; odd: 2 domains, nv20+)",
        ),
    ];

    /// `strb` is the APB4 PSTRB (4'hf unless the line says `strb MASK`).
    "write" Write { addr: u32, data: u32, strb: u8 }
        usage "write ADDR DATA [strb MASK]";
        example "write 0xa7c0 0x00000001 strb 0x1";
        parse(a) { write_cmd(a) }
        render(f) {
            match strb {
                0xf => write!(f, "write {addr:#06x} {data:#010x}"),
                _ => write!(f, "write {addr:#06x} {data:#010x} strb {strb:#x}"),
            }
        }
        run(t) { t.write(*addr, *data, *strb).map(Some) }

    "read" Read { addr: u32, expect: Option<Expect> }
        usage READ_USAGE;
        example "read 0xa600 & 0xff == 0x64";
        parse(a) { read_cmd(a) }
        render(f) {
            match expect {
                None => write!(f, "read {addr:#06x}"),
                Some(e) => write!(f, "read {addr:#06x} {}", e.describe()),
            }
        }
        run(t) { t.read(*addr).map(Some) }

    "wait" Wait { cycles: u64 }
        usage "wait CYCLES";
        example "wait 100";
        parse(a) { Ok(Cmd::Wait { cycles: num(a.next("CYCLES")?, "CYCLES", 0, u64::MAX, "decimal or 0x-hex u64")? }) }
        render(f) { write!(f, "wait {cycles}") }
        run(t) { t.idle(*cycles).map(|()| None) }

    "set" Set { dom: u8, sig: u8, value: bool }
        usage "set DOM SIG VALUE (DOM 0..=7, SIG 0..=0xff, VALUE 0|1)";
        example "set 0 0x12 1";
        parse(a) { set_cmd(a) }
        render(f) { write!(f, "set {dom} {sig:#04x} {}", u8::from(*value)) }
        run(t) {
            t.set_signal(*dom, *sig, *value);
            Ok(None)
        }

    /// High for the next `cycles` clocks (1 unless the line gives a count).
    "pulse" Pulse { input: GlobalInput, cycles: u32 }
        usage "pulse INPUT [CYCLES] (INPUT pm_trigger | wrcache_flush)";
        example "pulse pm_trigger 3";
        parse(a) { pulse_cmd(a) }
        render(f) {
            match cycles {
                1 => write!(f, "pulse {}", input.name()),
                _ => write!(f, "pulse {} {cycles}", input.name()),
            }
        }
        run(t) {
            t.pulse(input, *cycles);
            Ok(None)
        }

    /// Verification backdoor: set a counter of a domain before the next clock.
    "poke" Poke { dom: u8, counter: Counter, value: u64 }
        usage "poke DOM COUNTER VALUE (COUNTER ctr_* | sh_* of cycles, event, start, pre, stop | periodic_cnt | rec_cycles | rec_cycles_hi | rec_stop | rec_ev0..rec_ev11; VALUE up to 40 bits for ctr_cycles/event/start on nv10, nv15, nv20)";
        example "poke 0 ctr_event 0xfffffff0";
        parse(a) { poke_cmd(a) }
        render(f) { write!(f, "poke {dom} {} {value:#010x}", counter.name()) }
        run(t) {
            t.poke(*dom, *counter, *value);
            Ok(None)
        }

    /// Read a 32-bit word of the simulated record memory (S21); no clock.
    "mem" Mem { addr: u64, expect: Option<Expect> }
        usage "mem ADDR [== VALUE | & MASK == VALUE | in LO..HI] (ADDR: 40-bit, 4-byte aligned)";
        example "mem 0x100000 == 0x1";
        parse(a) { mem_cmd(a) }
        render(f) {
            match expect {
                None => write!(f, "mem {addr:#x}"),
                Some(e) => write!(f, "mem {addr:#x} {}", e.describe()),
            }
        }
        run(t) { t.mem_word(*addr).map(|rdata| Some(BusResult { rdata, slverr: false, ready: true })) }

    /// Writes to `lo..=hi` answer SLVERR from now on (S21).
    "fault" Fault { lo: u64, hi: u64 }
        usage "fault LO HI (40-bit addresses, LO <= HI)";
        example "fault 0x100000 0x1fffff";
        parse(a) { fault_cmd(a) }
        render(f) { write!(f, "fault {lo:#x} {hi:#x}") }
        run(t) {
            t.mem().add_fault(*lo, *hi);
            Ok(None)
        }

    /// AWREADY/WREADY delays and B latency drawn from MIN..=MAX per
    /// transaction, from a ChaCha8 stream seeded with `seed` (S21).
    "latency" Latency { min: u32, max: u32, seed: u64 }
        usage "latency MIN MAX [SEED] (cycles, MIN <= MAX <= 1000)";
        example "latency 0 5 7";
        parse(a) { latency_cmd(a) }
        render(f) { write!(f, "latency {min} {max} {seed}") }
        run(t) {
            t.mem().set_latency(*min, *max, *seed);
            Ok(None)
        }

    /// Read-modify-write as drivers do it (nouveau's `nvkm_mask`): one APB
    /// read, then one write of `(old & !mask) | (data & mask)`; the result is
    /// the read's (the old value).
    "mask" Mask { addr: u32, mask: u32, data: u32 }
        usage "mask ADDR MASK DATA (read ADDR, then write (old & ~MASK) | (DATA & MASK))";
        example "mask 0xa7c0 0x00000003 0x00000001";
        parse(a) {
            let addr = addr_arg(a.next("ADDR")?)?;
            Ok(Cmd::Mask { addr, mask: u32_arg(a.next("MASK")?, "MASK")?, data: u32_arg(a.next("DATA")?, "DATA")? })
        }
        render(f) { write!(f, "mask {addr:#06x} {mask:#010x} {data:#010x}") }
        run(t) {
            let old = t.read(*addr)?;
            let data = (old.rdata & !mask) | (data & mask);
            t.write(*addr, data, 0xf)?;
            Ok(Some(old))
        }

    /// Prints `text` with the script line and the bus cycle (the script
    /// runner does); nothing happens in the hardware, no clock.
    "echo" Echo { text: String }
        usage "echo TEXT... (prints TEXT with the line and the bus cycle, e.g. to label a driver sequence's phases)";
        example "echo INIT done";
        parse(a) { echo_cmd(a) }
        render(f) { write!(f, "echo {text}") }
        run(t) { Ok(None) }

    /// GF100: PMC.ENABLE bit 28 from the next clock on; 0 holds the whole
    /// PCOUNTER in reset (docs/semantics.md S25.14).
    "pmc_enable" PmcEnable { on: bool }
        usage "pmc_enable 0|1 (gen gf100: PMC.ENABLE bit 28 from the next clock; 0 holds PCOUNTER in reset)";
        example "pmc_enable 0";
        parse(a) { Ok(Cmd::PmcEnable { on: num(a.next("VALUE")?, "VALUE", 0, 1, "0 or 1")? == 1 }) }
        render(f) { write!(f, "pmc_enable {}", u8::from(*on)) }
        run(t) {
            t.pmc_enable(*on);
            Ok(None)
        }
}

/// `pcnt script --help`: the usage of every command, from [`COMMANDS`].
pub fn help() -> String {
    let mut out = String::from("configuration (before the first body command):\n");
    for c in COMMANDS.iter().filter(|c| c.is_config()) {
        out += &format!("  {}\n", c.usage);
    }
    out += "body:\n";
    for c in COMMANDS.iter().filter(|c| !c.is_config()) {
        out += &format!("  {}\n", c.usage);
    }
    out
}

fn write_cmd(a: &mut Args) -> Result<Cmd, String> {
    let addr = addr_arg(a.next("ADDR")?)?;
    let data = u32_arg(a.next("DATA")?, "DATA")?;
    // Optional `strb MASK`: a partial APB4 write (docs/semantics.md S0).
    let strb = if a.peek() == Some("strb") {
        a.next("strb")?;
        num(a.next("MASK")?, "MASK", 0, 0xf, "0..=0xf")? as u8
    } else {
        0xf
    };
    Ok(Cmd::Write { addr, data, strb })
}

fn read_cmd(a: &mut Args) -> Result<Cmd, String> {
    let addr = addr_arg(a.next("ADDR")?)?;
    let expect = read_expect(a, true)?;
    Ok(Cmd::Read { addr, expect })
}

fn set_cmd(a: &mut Args) -> Result<Cmd, String> {
    // Syntactic limits here; the limit from `domains` is checked at the end.
    let dom = dom_arg(a)?;
    let sig = num(a.next("SIG")?, "SIG", 0, 0xff, "0..=0xff")? as u8;
    let value = num(a.next("VALUE")?, "VALUE", 0, 1, "0 or 1")? == 1;
    Ok(Cmd::Set { dom, sig, value })
}

fn poke_cmd(a: &mut Args) -> Result<Cmd, String> {
    let dom = dom_arg(a)?;
    let tok = a.next("COUNTER")?;
    let counter = Counter::from_name(tok).ok_or_else(|| {
        format!(
            "unknown counter '{}' for 'poke' (expected ctr_cycles, ctr_event, ctr_start, ctr_pre, ctr_stop, sh_cycles, sh_event, sh_start, sh_pre, sh_stop, periodic_cnt, rec_cycles, rec_cycles_hi, rec_stop or rec_ev0..rec_ev11)",
            show(tok)
        )
    })?;
    // 40 bits at most (the NV10:NV30 counters, S24); whether the value fits
    // the counter on the script's generations is checked before running.
    let value = num(a.next("VALUE")?, "VALUE", 0, (1 << 40) - 1, "a value below 2^40")?;
    Ok(Cmd::Poke { dom, counter, value })
}

fn mem_cmd(a: &mut Args) -> Result<Cmd, String> {
    let addr = num(a.next("ADDR")?, "ADDR", 0, (1 << 40) - 4, "a 40-bit address")?;
    if addr % 4 != 0 {
        return Err(format!("mem address {addr:#x} is not 4-byte aligned"));
    }
    let expect = read_expect(a, false)?;
    Ok(Cmd::Mem { addr, expect })
}

fn fault_cmd(a: &mut Args) -> Result<Cmd, String> {
    let lo = num(a.next("LO")?, "LO", 0, (1 << 40) - 1, "a 40-bit address")?;
    let hi = num(a.next("HI")?, "HI", 0, (1 << 40) - 1, "a 40-bit address")?;
    if lo > hi {
        return Err(format!("fault range {lo:#x}..{hi:#x} is empty (expected LO <= HI)"));
    }
    Ok(Cmd::Fault { lo, hi })
}

fn latency_cmd(a: &mut Args) -> Result<Cmd, String> {
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
    Ok(Cmd::Latency { min, max, seed })
}

/// The rest of the line, words joined by one space (`#` starts a comment).
fn echo_cmd(a: &mut Args) -> Result<Cmd, String> {
    let mut words = vec![a.next("TEXT")?];
    while a.peek().is_some() {
        words.push(a.next("TEXT")?);
    }
    Ok(Cmd::Echo { text: words.join(" ") })
}

fn pulse_cmd(a: &mut Args) -> Result<Cmd, String> {
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
    Ok(Cmd::Pulse { input, cycles })
}

impl Parser {
    pub(super) fn line(&mut self, n: usize, toks: &[&str]) -> Result<(), String> {
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
        match spec.parse {
            Parse::Config => {
                self.config_allowed(name)?;
                self.config(n, name, &mut a)?;
                a.finish()
            }
            Parse::Body(parse) => {
                let cmd = parse(&mut a)?;
                a.finish()?;
                self.script.body.push(Line { line: n, cmd });
                Ok(())
            }
        }
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
                    if *one == GEN_GF100 && list.len() > 1 {
                        return Err("gf100 cannot be listed with other generations (its MMIO window and domains \
                                    differ; write one script per window)"
                            .to_string());
                    }
                    if !GENS.contains(one) && *one != GEN_GF100 {
                        return Err(format!(
                            "unknown generation '{}' (expected one of: {}, gf100, or a comma-separated list)",
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
                let l = a.next("default | real | odd | fermi | kepler | gf_fault")?;
                if let Some(first) = self.layout_line {
                    return Err(format!("duplicate 'layout' (first given on line {first})"));
                }
                self.layout_line = Some(n);
                // GF100 presets (a comma list runs once per preset); whether
                // the generation is gf100 is checked at the end.
                let gf: Vec<&str> = l.split(',').collect();
                if gf.iter().all(|p| GF_PRESETS.contains(p)) {
                    for (i, p) in gf.iter().enumerate() {
                        if gf[..i].contains(p) {
                            return Err(format!("layout '{p}' listed twice"));
                        }
                    }
                    self.script.gf_layouts = gf.iter().map(|p| p.to_string()).collect();
                    self.script.build_lines.layout = Some(n);
                    return Ok(());
                }
                self.script.layout = Layout::from_name(l).ok_or_else(|| {
                    format!(
                        "unknown layout '{}' (expected one of: {}; with gen gf100: {}, or a comma-separated list)",
                        show(l),
                        Layout::NAMES.join(", "),
                        GF_PRESETS.join(", ")
                    )
                })?;
                self.script.build_lines.layout = (self.script.layout != Layout::Default).then_some(n);
            }
            "decode" => {
                self.script.strict = match a.next("strict | lax")? {
                    "strict" => true,
                    "lax" => false,
                    other => return Err(format!("unknown decode '{}' (expected strict or lax)", show(other))),
                };
                self.script.build_lines.decode = (!self.script.strict).then_some(n);
            }
            "domains" => {
                let d = num(a.next("N")?, "N", 1, MAX_DOMAINS as u64, "1..=8")? as usize;
                if let Some(first) = self.domains_line {
                    return Err(format!("duplicate 'domains' (first given on line {first})"));
                }
                self.script.domains = d;
                self.domains_line = Some(n);
                self.script.build_lines.domains = Some(n);
            }
            _ => {
                let dom = dom_arg(a)?;
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

/// The expectation after `read ADDR` / `mem ADDR` (no `trace` form: no record memory in a trace).
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
