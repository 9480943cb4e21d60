//! PCOUNTER's rows of `pcnt bench` / `make bench` (the table is
//! `crate::bench`): throughput of the harness, side by side, on one
//! pre-generated stimulus (same seed) per configuration: model alone, RTL
//! alone (no model, no compare: the limit of this harness), lockstep with the
//! full per-cycle compare, and lockstep with tracing on.

use std::path::Path;
use std::time::Instant;

use pcounter::pcnt::regs::Gen;

use crate::engine::bench::{Mode, Table};
use crate::engine::device::Lockstep;
use crate::pcnt::runner::gf100::GfJob;
use crate::pcnt::runner::{cmds_through, Job, Setup};
use crate::pcnt::script::{ClockSpec, Cmd};

/// Mixed clock rates for the 8-domain configuration (S15).
fn mixed_clocks() -> Vec<(u8, ClockSpec)> {
    let r = |m, n| ClockSpec::Ratio { m, n };
    vec![
        (0, r(1, 1)),
        (1, r(1, 2)),
        (2, r(2, 3)),
        (3, r(1, 3)),
        (4, ClockSpec::Irregular { seed: 7 }),
        (5, r(1, 1)),
        (6, r(1, 2)),
        (7, ClockSpec::Irregular { seed: 9 }),
    ]
}

fn run(setup: &Setup, cmds: &[Cmd], mode: Mode, trace_dir: &Path) -> Result<(u64, f64), String> {
    let mut e = setup.engine(mode.rtl())?;
    e.model_on = mode.model();
    if mode.trace() {
        e.start_wave(Some(&trace_dir.join("bench-trace.vcd")))?;
    }
    let t0 = Instant::now();
    for c in cmds {
        if let Err(m) = e.exec(c) {
            return Err(format!("mismatch during the benchmark:\n{m}"));
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    e.take_wave();
    Ok((e.cycle, secs))
}

/// The RTL this binary was built on: `netlist` when `make gatesim`'s Yosys
/// netlists stand in for pcnt_top (build.rs, PCNT_NETLIST_DIR), else `rtl`.
pub const BUILT_ON: &str = env!("PCNT_BUILT_ON");

/// Label of a pcnt_top row: the gate-level build says so.
fn label(config: &str) -> String {
    match BUILT_ON {
        "netlist" => format!("netlist, {config}"),
        _ => config.to_string(),
    }
}

/// PCOUNTER's rows (GT215 with 1 and 8 domains, NV20 with 2: the NV10
/// layout, 40-bit counters, the shared CTRL; S24); `out` holds the trace
/// file of the tracing run. Every row on the default signal layout and
/// strict decode, the builds `make gatesim` also has as netlists.
pub fn rows(table: &mut Table, seed: u64, cycles: u64, out: &Path) -> Result<(), String> {
    let configs = [
        ("1 domain", Gen::Gt215, 1usize),
        ("8 domains, mixed clocks", Gen::Gt215, 8),
        ("NV20, 2 domains", Gen::Nv20, 2),
    ];
    for (config, gen, domains) in configs {
        let label = label(config);
        if !table.wants(&label) {
            continue;
        }
        let pin =
            crate::pcnt::runner::Pin { layout: Some(pcounter::pcnt::config::Layout::Default), strict: Some(true) };
        let job = Job { seed, gen, domains, cycles, fault: None, corrupt_at: None, pin };
        let setup = Setup { clocks: if domains == 8 { mixed_clocks() } else { vec![] }, ..job.setup() };
        let cmds = cmds_through(job.stimulus(), cycles);
        table.rows(&label, domains, |mode| run(&setup, &cmds, mode, out))?;
    }
    let _ = std::fs::remove_file(out.join("bench-trace.vcd"));
    Ok(())
}

fn gf_run(job: &GfJob, cmds: &[Cmd], mode: Mode, trace_dir: &Path) -> Result<(u64, f64), String> {
    let mut l = job.setup().lockstep(mode.rtl())?;
    l.model_on = mode.model();
    if mode.trace() {
        l.start_trace(&trace_dir.join("bench-trace-gf100.vcd"))?;
    }
    let t0 = Instant::now();
    for c in cmds {
        if let Err(m) = l.exec(c) {
            return Err(format!("mismatch during the benchmark:\n{m}"));
        }
    }
    let secs = t0.elapsed().as_secs_f64();
    let _ = l.take_trace();
    Ok((l.cycle, secs))
}

/// The GF100 rows (docs/design/gf100.md 3.9): the `fermi` (4 domains,
/// 4 sets) and `kepler` (18 domains, 5 sets) presets, one GF100 random
/// stimulus each, the same four modes.
pub fn gf100_rows(table: &mut Table, seed: u64, cycles: u64, out: &Path) -> Result<(), String> {
    for preset in ["fermi", "kepler"] {
        let job = GfJob { seed, preset: preset.into(), cycles, fault: None };
        let domains = job.domains();
        let label = format!("GF100 {preset}, {domains} domains");
        if !table.wants(&label) {
            continue;
        }
        let cmds = cmds_through(job.stimulus(), cycles);
        table.rows(&label, domains, |mode| gf_run(&job, &cmds, mode, out))?;
    }
    let _ = std::fs::remove_file(out.join("bench-trace-gf100.vcd"));
    Ok(())
}

/// Issue 33's targets for the GT215 rows: (configuration, what, target);
/// `what` is a mode's cycles/s, the model's domain-cycles/s, or the
/// harness's own cost per cycle (lockstep time minus RTL-alone time), which
/// must stay at or below its target.
enum Target {
    Rate(Mode),
    DomainRate(Mode),
    HarnessNs,
}

/// The RTL-alone rate the issue measured on the 8-domain row (211-214 k
/// cycles/s on the pinned Verilator), times the 1.5 it asks for.
const RTL_8_TARGET: f64 = 1.5 * 213e3;

const TARGETS: &[(&str, Target, f64)] = &[
    ("8 domains, mixed clocks", Target::DomainRate(Mode::Model), 50e6),
    ("1 domain", Target::Rate(Mode::Model), 20e6),
    ("1 domain", Target::HarnessNs, 100.0),
    ("8 domains, mixed clocks", Target::HarnessNs, 600.0),
    ("8 domains, mixed clocks", Target::Rate(Mode::Rtl), RTL_8_TARGET),
];

/// Print the measured rows against [`TARGETS`] (those the table ran);
/// the number missed.
pub fn targets(table: &Table) -> usize {
    let mut lines = Vec::new();
    let mut missed = 0;
    for (config, what, target) in TARGETS {
        let rate = |m| table.rate(config, m);
        let (name, got, met) = match what {
            Target::Rate(m) => (format!("{} cycles/s", m.name()), rate(*m), rate(*m).map(|r| r >= *target)),
            Target::DomainRate(m) => {
                let domains = table.measured.iter().find(|r| r.label == *config).map_or(1, |r| r.domains);
                let r = rate(*m).map(|r| r * domains as f64);
                (format!("{} domain-cycles/s", m.name()), r, r.map(|r| r >= *target))
            }
            Target::HarnessNs => {
                let ns = rate(Mode::Lockstep).zip(rate(Mode::Rtl)).map(|(l, r)| (1.0 / l - 1.0 / r) * 1e9);
                ("harness cost, ns per cycle (lockstep - RTL alone)".to_string(), ns, ns.map(|n| n <= *target))
            }
        };
        if let (Some(got), Some(met)) = (got, met) {
            missed += usize::from(!met);
            let verdict = if met { "met" } else { "NOT met" };
            let cmp = if matches!(what, Target::HarnessNs) { "<=" } else { ">=" };
            lines.push(format!("{config:<32} {name:<50} {got:>12.0} {cmp} {target:<10.0} {verdict}"));
        }
    }
    if !lines.is_empty() {
        println!("targets (issue 33, docs/performance.md; each the median of {} runs):", crate::engine::bench::RUNS);
        for l in lines {
            println!("{l}");
        }
    }
    missed
}
