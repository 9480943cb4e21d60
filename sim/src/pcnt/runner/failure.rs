//! What a mismatch leaves behind: reproducer, report, stimulus script,
//! waves over the failure window, and a shrunk script.

use std::fs;
use std::path::{Path, PathBuf};

use crate::lockstep::Mismatch;
use crate::script::{self, Cmd, Line, Script};
use crate::shrink;
use crate::wave;

use super::*;
use crate::engine::device;

/// Write the failure artifacts of a mismatch; returns the folder.
/// `replay` regenerates the exact command stream from cycle 0.
pub fn write_failure(
    art: &Artifacts,
    tag: &str,
    repro: &str,
    m: &Mismatch,
    setup: &Setup,
    replay: &dyn Fn() -> Box<dyn Iterator<Item = Cmd>>,
) -> std::io::Result<PathBuf> {
    // 1, 2. The reproducer first (everything after it may fail), the report.
    let dir = crate::engine::artifacts::begin(&art.out, tag, repro, m)?;
    // 3. The stimulus as a scenario script (short runs only; the harness
    //    self-test corruption cannot be expressed in a script).
    if m.cycle > SCRIPT_CYCLES_MAX || setup.corrupt_at.is_some() {
        let why = if setup.corrupt_at.is_some() {
            "the failure comes from --corrupt-at, which a script cannot express".to_string()
        } else {
            format!("the failure is at cycle {}, past {SCRIPT_CYCLES_MAX}", m.cycle)
        };
        fs::write(dir.join("stimulus.txt"), format!("No stimulus.pcs: {why}.\nReproduce with: {repro}\n"))?;
        write_waves(&dir, m, setup, art.window, replay)?;
        return Ok(dir);
    }
    let body: Vec<Line> =
        cmds_through(replay(), m.cycle).into_iter().enumerate().map(|(i, cmd)| Line { line: i + 1, cmd }).collect();
    let x_seed = (setup.x_seed != crate::lockstep::X_SEED).then_some(setup.x_seed);
    let s = Script {
        gen: setup.gen.name().to_string(),
        domains: setup.domains,
        clocks: setup.clocks.clone(),
        x_seed,
        strict: setup.strict,
        layout: setup.layout,
        gf_layouts: Vec::new(),
        body,
        build_lines: Default::default(),
    };
    let args = setup.fault.as_ref().map(|f| format!(" ARGS='--fault {f}'")).unwrap_or_default();
    let mut text = format!(
        "# Stimulus of a failing lockstep run up to its first mismatch (cycle {}).\n# {}\n# Replay: make script FILE={}{args}\n",
        m.cycle,
        m.what,
        dir.join("stimulus.pcs").display()
    );
    text += &script::render(&s.compact());
    fs::write(dir.join("stimulus.pcs"), text)?;
    let full: Vec<Cmd> = s.body.iter().map(|l| l.cmd.clone()).collect();
    // 4. Waves over the failure window.
    write_waves(&dir, m, setup, art.window, replay)?;
    // 5. A minimal script that still fails the same way.
    if art.shrink_secs > 0 {
        let before = full.len();
        // Still failing means: a mismatch on the same register.
        let fails = |cmds: &[Cmd]| device::fails_on(setup.engine(true), cmds, &m.what);
        let min = shrink::shrink(full, &fails, std::time::Duration::from_secs(art.shrink_secs));
        let lines: Vec<Line> = min.into_iter().enumerate().map(|(i, cmd)| Line { line: i + 1, cmd }).collect();
        let after = lines.len();
        let small = Script { body: lines, ..s };
        let path = dir.join("minimal.pcs");
        let text = format!(
            "# Shrunk from {before} to {after} commands; fails with a mismatch on {} alone.\n\
             # Replay: make script FILE={}{args}\n# Add it to tests/corpus/ once the bug is fixed.\n{}",
            m.what,
            path.display(),
            script::render(&small)
        );
        fs::write(&path, text)?;
    }
    Ok(dir)
}

use crate::engine::artifacts::WAVE_CONTEXT;

fn write_waves(
    dir: &Path,
    m: &Mismatch,
    setup: &Setup,
    window: u64,
    replay: &dyn Fn() -> Box<dyn Iterator<Item = Cmd>>,
) -> std::io::Result<()> {
    let io = |e: String| std::io::Error::other(e);
    let domains = setup.domains;
    let trace = crate::engine::artifacts::waves(dir, m, setup.engine(true).map_err(io)?, replay(), window)?;
    let vcd = dir.join("wave.vcd");
    let mut groups =
        vec![("lockstep".to_string(), trace.signals.iter().take(2).map(wave::gtkw_name).collect::<Vec<_>>())];
    // The failing register first, then every register of each domain.
    let scope = m.scope.clone().unwrap_or_else(|| "global".to_string());
    let first: Vec<String> = trace
        .signals
        .iter()
        .filter(|s| s.scope.first() == Some(&scope))
        .filter(|s| m.wave_reg.as_ref().is_some_and(|r| s.name == format!("{r}_dut") || s.name == format!("{r}_model")))
        .map(wave::gtkw_name)
        .collect();
    if !first.is_empty() {
        groups.push((format!("failing: {}", m.what), first));
    }
    for dom in 0..domains {
        let names = trace
            .signals
            .iter()
            .filter(|s| s.scope.first().is_some_and(|sc| sc == &format!("dom{dom}")))
            .map(wave::gtkw_name)
            .collect();
        groups.push((format!("domain {dom} registers (dut/model)"), names));
    }
    // RTL internals: the APB port and the flops/inputs of the failing domain.
    let rtl_names = wave::gtkw_names_in_vcd(&vcd)?;
    let pick = |prefix: &str, keep: &dyn Fn(&str) -> bool| -> Vec<String> {
        rtl_names
            .iter()
            .map(|(n, _)| n)
            .filter(|n| n.strip_prefix(prefix).is_some_and(|rest| !rest.contains('.') && keep(rest)))
            .cloned()
            .collect()
    };
    // pcnt_top's scope: under the harness wrapper (sim/rtl/pcnt_lockstep_top.sv)
    // in RTL builds, the top itself in gate-netlist builds.
    let dut = ["TOP.pcnt_lockstep_top.u_dut.", "TOP.pcnt_top."]
        .into_iter()
        .find(|p| rtl_names.iter().any(|(n, _)| n.starts_with(p)))
        .unwrap_or("TOP.pcnt_top.");
    let apb = ["psel_i", "penable_i", "pwrite_i", "paddr_i", "pwdata_i", "pstrb_i", "prdata_o", "pslverr_o"];
    groups.push(("RTL: APB port".into(), pick(dut, &|r| apb.iter().any(|a| r.starts_with(a)))));
    let dom: usize = scope.strip_prefix("dom").and_then(|d| d.parse().ok()).unwrap_or(0);
    let shell = format!("{dut}gen_dom[{dom}].u_domain.");
    let mut internals = pick(&shell, &|r| r.contains("_q") || r.starts_with("in_") || r.starts_with("reg_we"));
    // The counting engine's flops (counters, state, FLAG) live in u_core.
    internals.extend(pick(&format!("{shell}u_core."), &|r| r.contains("_q")));
    groups.push((format!("RTL: domain {dom} internals"), internals));
    groups.push((
        "global registers".into(),
        trace
            .signals
            .iter()
            .filter(|s| s.scope.first().is_some_and(|sc| sc == "global"))
            .map(wave::gtkw_name)
            .collect(),
    ));
    // Open zoomed on the last 40 cycles before the mismatch; the file holds
    // the whole window.
    wave::write_gtkw(&vcd, &dir.join("wave.gtkw"), &groups, m.cycle * 10, WAVE_CONTEXT * 10)?;
    Ok(())
}
