//! What a PCOUNTER failure leaves behind, through the engine's one path
//! (`engine::artifacts`): this file says how a PCOUNTER run is rebuilt, how
//! its commands render as a `.pcs` script and how its waves are grouped.

use std::path::{Path, PathBuf};

use crate::engine::artifacts::{self, Failure};
use crate::engine::wave;
use crate::pcnt::lockstep::Mismatch;
use crate::pcnt::script::{self, Cmd, Line, Script};

use super::*;

/// Write the failure artifacts of `m`; returns the folder. `replay`
/// regenerates the exact command stream from cycle 0.
pub fn write_failure(
    art: &Artifacts,
    tag: &str,
    repro: &str,
    m: &Mismatch,
    setup: &Setup,
    replay: &dyn Fn() -> Box<dyn Iterator<Item = Cmd>>,
) -> std::io::Result<PathBuf> {
    let x_seed = (setup.x_seed != crate::pcnt::lockstep::X_SEED).then_some(setup.x_seed);
    let render = |cmds: &[Cmd]| {
        let body = cmds.iter().enumerate().map(|(i, cmd)| Line { line: i + 1, cmd: cmd.clone() }).collect();
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
        script::render(&s.compact())
    };
    let f = Failure {
        art,
        tag: tag.to_string(),
        repro: repro.to_string(),
        ext: "pcs",
        replay_args: setup.fault.as_ref().map(|f| format!(" FAULT={f}")).unwrap_or_default(),
        replay: &|| -> Box<dyn Iterator<Item = Cmd>> { replay() },
        render: &render,
        lockstep: &|| setup.engine(true),
        gtkw: &|dir, trace, m| write_gtkw(dir, trace, m, setup.domains),
        // The harness self-test's corruption cannot be expressed in a script.
        no_script: setup
            .corrupt_at
            .map(|_| "the failure comes from --corrupt-at, which a script cannot express".to_string()),
    };
    artifacts::write(&f, m)
}

use crate::engine::artifacts::WAVE_CONTEXT;

/// `wave.gtkw` of a PCOUNTER failure: the compare's signals, the failing
/// register, each domain's registers, the APB port and the failing domain's
/// flops.
fn write_gtkw(dir: &Path, trace: &wave::ExtraTrace, m: &Mismatch, domains: usize) -> std::io::Result<()> {
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
    wave::write_gtkw(&vcd, &dir.join("wave.gtkw"), &groups, m.cycle, WAVE_CONTEXT)?;
    Ok(())
}
