//! PCOUNTER's rows of `pcnt bench` / `make bench` (the table is
//! `crate::bench`): throughput of the harness, side by side, on one
//! pre-generated stimulus (same seed) per configuration: model alone, RTL
//! alone (no model, no compare: the limit of this harness), lockstep with the
//! full per-cycle compare, and lockstep with tracing on.

use std::path::Path;
use std::time::Instant;

use pcounter::regs::Gen;

use crate::engine::device::Lockstep;
use crate::runner::gf100::GfJob;
use crate::runner::{cmds_through, Job, Setup};
use crate::script::{ClockSpec, Cmd};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Mode {
    ModelOnly,
    RtlOnly,
    Lockstep,
    LockstepTrace,
}

impl Mode {
    fn name(self) -> &'static str {
        match self {
            Mode::ModelOnly => "model alone",
            Mode::RtlOnly => "RTL alone",
            Mode::Lockstep => "lockstep (full compare)",
            Mode::LockstepTrace => "lockstep + tracing",
        }
    }
}

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
    let mut e = setup.engine(mode != Mode::ModelOnly)?;
    e.model_on = mode != Mode::RtlOnly;
    if mode == Mode::LockstepTrace {
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

/// Print PCOUNTER's rows (GT215 with 1 and 8 domains, NV20 with 2: the NV10
/// layout, 40-bit counters, the shared CTRL; S24); `out` holds the trace
/// file of the tracing run.
pub fn rows(seed: u64, cycles: u64, out: &Path) -> Result<(), String> {
    let configs = [
        ("1 domain", Gen::Gt215, 1usize),
        ("8 domains, mixed clocks", Gen::Gt215, 8),
        ("NV20, 2 domains", Gen::Nv20, 2),
    ];
    for (label, gen, domains) in configs {
        // NV20 pinned to the default layout and strict decode (a 2-domain job
        // would pick odd or lax by seed); the GT215 rows as they always were.
        let pin = match domains {
            2 => crate::runner::Pin { layout: Some(pcounter::Layout::Default), strict: Some(true) },
            _ => Default::default(),
        };
        let job = Job { seed, gen, domains, cycles, fault: None, corrupt_at: None, pin };
        let setup = Setup { clocks: if domains == 8 { mixed_clocks() } else { vec![] }, ..job.setup() };
        let cmds = cmds_through(job.stimulus(), cycles);
        let mut rate = std::collections::HashMap::new();
        for mode in [Mode::ModelOnly, Mode::RtlOnly, Mode::Lockstep, Mode::LockstepTrace] {
            let (c, secs) = run(&setup, &cmds, mode, out)?;
            let cps = c as f64 / secs;
            rate.insert(mode, cps);
            println!("{:<32} {:<26} {:>12.0} {:>16.0} {:>9.2}", label, mode.name(), cps, cps * domains as f64, secs);
        }
        println!(
            "{:<32} lockstep / RTL alone = {:.2}, tracing on / off = {:.2}",
            label,
            rate[&Mode::Lockstep] / rate[&Mode::RtlOnly],
            rate[&Mode::LockstepTrace] / rate[&Mode::Lockstep]
        );
    }
    let _ = std::fs::remove_file(out.join("bench-trace.vcd"));
    Ok(())
}

fn gf_run(job: &GfJob, cmds: &[Cmd], mode: usize, trace_dir: &Path) -> Result<(u64, f64), String> {
    // mode: 0 model alone, 1 RTL alone, 2 lockstep, 3 lockstep + tracing.
    let mut l = job.setup().lockstep(mode != 0)?;
    l.model_on = mode != 1;
    if mode == 3 {
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

/// Print the GF100 rows (docs/design/gf100.md 3.9): the `fermi` (4 domains,
/// 4 sets) and `kepler` (18 domains, 5 sets) presets, one GF100 random
/// stimulus each, the same four modes.
pub fn gf100_rows(seed: u64, cycles: u64, out: &Path) -> Result<(), String> {
    const MODES: [&str; 4] = ["model alone", "RTL alone", "lockstep (full compare)", "lockstep + tracing"];
    for preset in ["fermi", "kepler"] {
        let job = GfJob { seed, preset: preset.into(), cycles, fault: None };
        let domains = job.domains();
        let label = format!("GF100 {preset}, {domains} domains");
        let cmds = cmds_through(job.stimulus(), cycles);
        let mut rate = [0f64; 4];
        for (mode, name) in MODES.iter().enumerate() {
            let (c, secs) = gf_run(&job, &cmds, mode, out)?;
            rate[mode] = c as f64 / secs;
            println!(
                "{:<32} {:<26} {:>12.0} {:>16.0} {:>9.2}",
                label,
                name,
                rate[mode],
                rate[mode] * domains as f64,
                secs
            );
        }
        println!(
            "{:<32} lockstep / RTL alone = {:.2}, tracing on / off = {:.2}",
            label,
            rate[2] / rate[1],
            rate[3] / rate[2]
        );
    }
    let _ = std::fs::remove_file(out.join("bench-trace-gf100.vcd"));
    Ok(())
}
