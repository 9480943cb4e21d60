//! Scenario-script runs in lockstep (or on the model alone).

use std::fs;
use std::path::Path;

use pcounter::pcnt::regs::Gen;

use crate::pcnt::script::{self, Cmd, Line, Script};

use super::gf100;
use super::*;

/// Run one scenario script in lockstep (or model alone); prints read values.
pub fn run_script(
    path: &Path,
    model_only: bool,
    fault: Option<&str>,
    art: &Artifacts,
    quiet: bool,
) -> Result<u64, ScriptError> {
    let o = ScriptOpts { model_only, fault, art, quiet, packets: None, x_seed: None, max_cycles: None };
    run_script_with(path, &o)
}

/// [`run_script`] with every option of [`ScriptOpts`] (packet log, initial
/// values, cycle bound).
pub fn run_script_with(path: &Path, o: &ScriptOpts) -> Result<u64, ScriptError> {
    let name = path.display().to_string();
    let text = fs::read_to_string(path).map_err(|e| ScriptError::Input(format!("{name}: cannot read: {e}")))?;
    run_text(&name, &text, o)
}

/// Run the PCOUNTER script `text` named `name` (the file it came from; its
/// device line, if any, already taken off by the device registry): parsed,
/// its cycle bound checked, then run once per generation of its `gen` line
/// (or GF100 preset of its `layout` line).
pub fn run_text(name: &str, text: &str, o: &ScriptOpts) -> Result<u64, ScriptError> {
    let name = name.to_string();
    let s = script::parse(&name, text).map_err(|e| ScriptError::Input(e.to_string()))?;
    let clocks = s.body.iter().map(|l| (l.line, crate::engine::device::Clocks::clocks(&l.cmd)));
    crate::engine::script::check_bound(&name, clocks, o.max_cycles()).map_err(ScriptError::Input)?;
    let repro = crate::engine::script::repro(&name, o, "pcs");
    // `gen a,b,...` runs the script once per generation; messages then name
    // the generation too (`file[g84]:line`).
    let gens: Vec<&str> = s.gen.split(',').collect();
    let label = |g: &str| if gens.len() > 1 { format!("{name}[{g}]") } else { name.clone() };
    // Every generation's pokes before the first run: a list is refused whole.
    for g in &gens {
        if let Some(gen) = Gen::from_name(g) {
            check_pokes(&label(g), &s, gen)?;
        }
    }
    let mut cycles = 0;
    if s.gen == script::GEN_GF100 {
        // `layout fermi,kepler` runs the script once per preset (the parser
        // keeps gf100 out of generation lists).
        let multi = s.gf_layouts.len() > 1;
        for p in &s.gf_layouts {
            let label = if multi { format!("{name}[{p}]") } else { name.clone() };
            cycles = run_gf_script(&label, &s, p, o, &repro)?.cycles;
        }
        return Ok(cycles);
    }
    for g in &gens {
        let one = Script { gen: g.to_string(), ..s.clone() };
        cycles = run_parsed(&label(g), &one, o, &repro)?.cycles;
    }
    Ok(cycles)
}

/// One `read` (or `mem`) of a script run: its script line and what it returned.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ReadValue {
    pub line: usize,
    pub value: u32,
    pub slverr: bool,
}

/// A script run that passed.
#[derive(Clone, Debug, Default)]
pub struct ScriptRun {
    pub cycles: u64,
    /// Every read and mem command, in order.
    pub reads: Vec<ReadValue>,
}

/// Runs a parsed script named `name` (in messages and artifact names);
/// `repro` is the command a failure report tells the user to rerun.
pub fn run_parsed(name: &str, s: &Script, o: &ScriptOpts, repro: &str) -> Result<ScriptRun, ScriptError> {
    if s.gen == script::GEN_GF100 {
        // Its own top, once per preset of the `layout` line (the last run's
        // reads are returned; an imported trace names one preset).
        let mut run = ScriptRun::default();
        for p in &s.gf_layouts {
            run = run_gf_script(name, s, p, o, repro)?;
        }
        return Ok(run);
    }
    let gen = Gen::from_name(&s.gen)
        .ok_or_else(|| ScriptError::Input(format!("{name}: generation {} not supported yet", s.gen)))?;
    check_pokes(name, s, gen)?;
    let setup = Setup {
        gen,
        domains: s.domains,
        fault: o.fault.map(String::from),
        clocks: s.clocks.clone(),
        corrupt_at: None,
        x_seed: s.x_seed.or(o.x_seed).unwrap_or(crate::pcnt::lockstep::X_SEED),
        strict: s.strict,
        layout: s.layout,
    };
    let mut e = setup.engine(!o.model_only).map_err(|e| match build_line(s, o) {
        Some(line) => ScriptError::Input(format!("{name}:{line}: {e}")),
        None => ScriptError::Input(format!("{name}: {e}")),
    })?;
    if o.packets.is_some() {
        e.packets = Some(Vec::new());
    }
    let mut reads = Vec::new();
    let last_line = s.body.last().map_or(0, |l| l.line);
    // The commands, then the end-of-run memory image compare (S21).
    let steps = s.body.iter().map(Some).chain(std::iter::once(None));
    let max = o.max_cycles();
    for step in steps {
        if let Some(Line { line, cmd: Cmd::Wait { cycles } }) = step {
            if e.cycle.saturating_add(*cycles) > max {
                return Err(ScriptError::Input(format!(
                    "{name}:{line}: 'wait {cycles}' would run the script past {max} bus cycles \
                     (at cycle {}; raise the bound with --max-cycles)",
                    e.cycle
                )));
            }
        }
        let (line, r) = match step {
            Some(l) => (l.line, e.exec(&l.cmd).and_then(|r| e.expectation(&l.cmd, r.as_ref()).map(|()| r))),
            None => (last_line, e.finish().map(|()| None)),
        };
        match r {
            Ok(Some(res)) => {
                let (what, addr, expect) = match step.map(|l| &l.cmd) {
                    Some(Cmd::Read { addr, expect }) => ("read", format!("{addr:#06x}"), expect),
                    Some(Cmd::Mem { addr, expect }) => ("mem", format!("{addr:#x}"), expect),
                    _ => continue,
                };
                let v = res.rdata;
                reads.push(ReadValue { line, value: v, slverr: res.slverr });
                let err = if res.slverr { " PSLVERR" } else { "" };
                match expect {
                    _ if o.quiet => {}
                    Some(script::Expect::Trace(t)) => {
                        println!("{name}:{line}: {what} {addr} = {v:#010x}{err} (trace {t:#010x})")
                    }
                    _ => println!("{name}:{line}: {what} {addr} = {v:#010x}{err}"),
                }
            }
            Ok(None) => {
                if let (Some(Line { cmd: Cmd::Echo { text }, .. }), false) = (step, o.quiet) {
                    println!("{name}:{line}: cycle {}: {text}", e.cycle);
                }
            }
            Err(m) => {
                // `file.pcs[g84]` (a generation list) gives fail-script-file-g84.
                let multi = if name.ends_with(']') { format!("-{}", gen.name()) } else { String::new() };
                let tag = crate::engine::script::failure_tag(name) + &multi;
                let body = s.body.clone();
                let replay =
                    move || -> Box<dyn Iterator<Item = Cmd>> { Box::new(body.clone().into_iter().map(|l| l.cmd)) };
                let where_ = match write_failure(o.art, &tag, repro, &m, &setup, &replay) {
                    Ok(dir) => format!("artifacts: {}", dir.display()),
                    Err(err) => format!("could not write all artifacts: {err}"),
                };
                return Err(ScriptError::Failed(format!("{name}:{line}: {}\n{m}repro: {repro}\n{where_}", m.kind())));
            }
        }
    }
    if let (Some(p), Some(log)) = (o.packets, &e.packets) {
        let mut text = format!("{}\n", crate::pcnt::dump::LOG_HEADER);
        for (cycle, dom, pkt) in log {
            text.push_str(&crate::pcnt::dump::log_line(*cycle, *dom, pkt));
            text.push('\n');
        }
        write_file(p, text).map_err(|err| ScriptError::Input(format!("{}: cannot write: {err}", p.display())))?;
    }
    Ok(ScriptRun { cycles: e.cycle, reads })
}

/// Runs the parsed GF100 script `s` on `preset`.
fn run_gf_script(name: &str, s: &Script, preset: &str, o: &ScriptOpts, repro: &str) -> Result<ScriptRun, ScriptError> {
    let setup = gf100::GfSetup {
        preset: preset.to_string(),
        fault: o.fault.map(String::from),
        clocks: s.clocks.clone(),
        x_seed: s.x_seed.or(o.x_seed).unwrap_or(crate::pcnt::gf100::lockstep::X_SEED),
    };
    let mut e = setup.lockstep(!o.model_only).map_err(|e| ScriptError::Input(format!("{name}: {e}")))?;
    let mut reads = Vec::new();
    let max = o.max_cycles();
    for Line { line, cmd } in &s.body {
        if let Cmd::Wait { cycles } = cmd {
            if e.cycle.saturating_add(*cycles) > max {
                return Err(ScriptError::Input(format!(
                    "{name}:{line}: 'wait {cycles}' would run the script past {max} bus cycles \
                     (at cycle {}; raise the bound with --max-cycles)",
                    e.cycle
                )));
            }
        }
        match e.exec(cmd).and_then(|r| e.expectation(cmd, r.as_ref()).map(|()| r)) {
            Ok(Some(res)) => {
                let Cmd::Read { addr, .. } = cmd else { continue };
                let v = res.rdata;
                reads.push(ReadValue { line: *line, value: v, slverr: res.slverr });
                let err = if res.slverr { " PSLVERR" } else { "" };
                if !o.quiet {
                    println!("{name}:{line}: read {addr:#08x} = {v:#010x}{err}");
                }
            }
            Ok(None) => {
                if let (Cmd::Echo { text }, false) = (cmd, o.quiet) {
                    println!("{name}:{line}: cycle {}: {text}", e.cycle);
                }
            }
            Err(m) => {
                // `layout fermi,kepler` gives fail-script-file-fermi, ...
                let multi = if name.ends_with(']') { format!("-{preset}") } else { String::new() };
                let tag = crate::engine::script::failure_tag(name) + &multi;
                let cmds: Vec<Cmd> = s.body.iter().map(|l| l.cmd.clone()).collect();
                let where_ = match gf100::write_failure(o.art, &tag, repro, &m, &setup, &cmds, s) {
                    Ok(dir) => format!("artifacts: {}", dir.display()),
                    Err(err) => format!("could not write all artifacts: {err}"),
                };
                return Err(ScriptError::Failed(format!("{name}:{line}: {}\n{m}repro: {repro}\n{where_}", m.kind())));
            }
        }
    }
    Ok(ScriptRun { cycles: e.cycle, reads })
}

/// Every `poke` value fits its counter on `gen`: 40 bits for CTR_CYCLES,
/// CTR_EVENT, CTR_START with `wide_counters` (NV10, NV15, NV20; S24), 32
/// bits otherwise (a narrower counter takes the low bits, as before). A
/// wider value would be cut by the backdoor, so the script is refused
/// before it runs (design 3.4: "a value >= 2^32 on a 32-bit gen is a
/// script error"), naming the line.
fn check_pokes(name: &str, s: &Script, gen: Gen) -> Result<(), ScriptError> {
    for l in &s.body {
        if let Cmd::Poke { counter, value, .. } = &l.cmd {
            let bits = counter.width(gen.features()).max(32);
            if *value >> bits != 0 {
                return Err(ScriptError::Input(format!(
                    "{name}:{}: poke value {value:#x} does not fit {} on {} ({bits} bits; 40-bit counters are \
                     ctr_cycles, ctr_event, ctr_start on nv10, nv15, nv20)",
                    l.line,
                    counter.name(),
                    gen.name()
                )));
            }
        }
    }
    Ok(())
}

/// The line that chose a configuration with no Verilated build: `domains`
/// when no plain build has that many domains, else `decode lax`, else
/// `layout` (a fault run's build is chosen by `--fault`: no line).
fn build_line(s: &Script, o: &ScriptOpts) -> Option<usize> {
    if o.model_only || o.fault.is_some() {
        return None;
    }
    let l = s.build_lines;
    if !crate::pcnt::ffi::Rtl::domain_counts().contains(&s.domains) {
        l.domains
    } else {
        l.decode.or(l.layout).or(l.domains)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check(text: &str, gen: Gen) -> Result<(), String> {
        let s = script::parse("t.pcs", text).unwrap();
        check_pokes("t.pcs", &s, gen).map_err(|e| match e {
            ScriptError::Input(m) | ScriptError::Failed(m) => m,
        })
    }

    #[test]
    fn poke_values_fit_the_generation() {
        let wide = "poke 0 ctr_event 0xff_ffff_fffd\n";
        // 40 bits on the wide generations, for the three wide counters.
        for g in [Gen::Nv10, Gen::Nv15, Gen::Nv20] {
            assert_eq!(check(wide, g), Ok(()), "{}", g.name());
            assert_eq!(check("poke 0 ctr_cycles 0x80_0000_0000\npoke 0 ctr_start 0x1_0000_0000\n", g), Ok(()));
        }
        for g in [Gen::Nv30, Gen::Nv40, Gen::G84, Gen::Gt215] {
            let e = check(&format!("wait 1\n{wide}"), g).unwrap_err();
            assert!(e.starts_with("t.pcs:2: poke value 0xfffffffffd does not fit ctr_event on"), "{e}");
            assert!(e.contains(g.name()) && e.contains("32 bits"), "{e}");
            assert_eq!(check("poke 0 ctr_event 0xffffffff\n", g), Ok(()));
        }
        // CTR_PRE/CTR_STOP stay 32-bit everywhere (S24 N4).
        let e = check("poke 0 ctr_pre 0x1_0000_0000\n", Gen::Nv10).unwrap_err();
        assert!(e.contains("ctr_pre on nv10 (32 bits"), "{e}");
    }
}
