//! The toy fifth device (tests/toy/README.md): a minimal counter with its
//! RTL (tests/toy/rtl/), manifest (tests/toy/device.toml), model, lockstep,
//! random stimulus, bins and plan, all in this folder. Nothing outside
//! names it but its line in the registry (sim/src/devices.rs).

pub mod cmd;
pub mod lockstep;
pub mod model;

use std::path::{Path, PathBuf};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use cmd::Cmd;
use lockstep::{ToyLockstep, X_SEED};
use model::{COUNT, CTRL};

use crate::engine::artifacts::{self, Artifacts, Failure};
use crate::engine::bench;
use crate::engine::compare;
use crate::engine::coverage::Coverage;
use crate::engine::device::cmds_through;
use crate::engine::entry::{seeds_only, Device, ScriptSample};
use crate::engine::mismatch::Mismatch;
use crate::engine::regress;
use crate::engine::script::{self, ScriptError, ScriptOpts};

/// This device in the registry (`crate::devices::DEVICES`).
pub static DEVICE: Device = Device {
    name: "toy",
    title: "TOY",
    about: "a toy counter kept under tests/ (tests/toy/README.md)",
    aliases: &[],
    script_ext: "toy",
    script_help: cmd::help,
    faults: lockstep::faults,
    own_options: &[],
    run_script: |name, text, args, o| match args {
        [] => run_text(name, text, o),
        _ => Err(ScriptError::Input(format!("{name}: usage: device toy"))),
    },
    cosim: seeds_only::<Job>,
    summary: |r, secs| regress::print_summary("TOY", r, secs),
    job_label: |j| format!("TOY job {} (seed {})", j.index, j.seed),
    bench_rows,
    round_trip: |file, text, _| {
        let parse = |f: &str, t: &str| Ok(cmd::parse(f, t)?.into_iter().map(|(_, c)| c).collect::<Vec<_>>());
        crate::engine::entry::round_trip(file, parse, cmd::render, text)
    },
    samples: &[ScriptSample { label: "toy", head: "device toy\n", read0: "read 0x4", bad_line: "event 2" }],
    plan: include_str!("../plan.md"),
};

/// Constrained-random stimulus: event_i toggling, CTRL and COUNT writes
/// (COUNT often just below the wrap), reads, now and then a hole or a
/// partial strobe.
pub struct RandomStim(ChaCha8Rng);

impl Iterator for RandomStim {
    type Item = Cmd;
    fn next(&mut self) -> Option<Cmd> {
        let r = &mut self.0;
        Some(match r.gen_range(0..16) {
            0..=2 => Cmd::Event(r.gen_ratio(3, 4)),
            3 => Cmd::Write { off: CTRL, data: r.gen_range(0..4), strb: 0xf },
            4 => Cmd::Write { off: COUNT, data: u32::MAX - r.gen_range(0..8), strb: 0xf },
            5 => Cmd::Write { off: COUNT, data: r.gen(), strb: 0xf },
            6 => Cmd::Write { off: r.gen_range(0..16), data: r.gen(), strb: r.gen_range(0..16) },
            7..=9 => Cmd::Read { off: [CTRL, COUNT, r.gen_range(0..16)][r.gen_range(0..3)], expect: None },
            _ => Cmd::Wait { cycles: r.gen_range(1..20) },
        })
    }
}

/// One random toy run.
#[derive(Clone, Debug)]
pub struct Job {
    pub seed: u64,
    pub cycles: u64,
    pub fault: Option<String>,
}

impl Job {
    fn x_seed(&self) -> u32 {
        self.seed as u32 ^ (self.seed >> 32) as u32
    }
}

impl regress::Run for Job {
    fn seed(&self) -> u64 {
        self.seed
    }
    fn build(&self) -> String {
        "c1".into()
    }
    fn repro(&self) -> String {
        let fault = self.fault.as_ref().map(|f| format!(" FAULT={f}")).unwrap_or_default();
        format!("make cosim DEVICE=toy SEED={} SEEDS=1 CYCLES={}{fault}", self.seed, self.cycles)
    }
    fn write_failure(&self, art: &Artifacts, m: &Mismatch) -> std::io::Result<PathBuf> {
        let fault = self.fault.as_ref().map(|f| format!("-{f}")).unwrap_or_default();
        let tag = format!("fail-toy-seed{}{fault}", self.seed);
        let seed = self.seed;
        let replay = || -> Box<dyn Iterator<Item = Cmd>> { Box::new(stim(seed)) };
        let repro = artifacts::cosim_repro(&regress::Run::repro(self), art);
        write_failure(art, tag, repro, self.fault.as_deref(), self.x_seed(), &replay, m)
    }
    fn run_job(&self) -> Result<Result<(u64, Coverage), Box<Mismatch>>, String> {
        regress::Job::run(self)
    }
}

impl regress::Job for Job {
    type L = ToyLockstep;
    const DEVICE: (&'static str, &'static str) = ("toy", "TOY");
    const EXT: &'static str = "toy";

    fn new(seed: u64, cycles: u64, fault: Option<String>) -> Job {
        Job { seed, cycles, fault }
    }
    fn cycles(&self) -> u64 {
        self.cycles
    }
    fn lockstep(&self) -> Result<ToyLockstep, String> {
        ToyLockstep::new(true, self.fault.as_deref(), self.x_seed())
    }
    fn stim(&self) -> Box<dyn Iterator<Item = Cmd> + '_> {
        Box::new(stim(self.seed))
    }
}

fn stim(seed: u64) -> RandomStim {
    RandomStim(ChaCha8Rng::seed_from_u64(seed ^ 0x0074_6f79))
}

fn write_failure<'r>(
    art: &Artifacts,
    tag: String,
    repro: String,
    fault: Option<&str>,
    x_seed: u32,
    replay: &dyn Fn() -> Box<dyn Iterator<Item = Cmd> + 'r>,
    m: &Mismatch,
) -> std::io::Result<PathBuf> {
    let f = Failure {
        art,
        tag,
        repro,
        ext: "toy",
        replay_args: fault.map(|f| format!(" FAULT={f}")).unwrap_or_default(),
        replay,
        render: &|cmds| cmd::render(cmds),
        lockstep: &|| ToyLockstep::new(true, fault, x_seed),
        gtkw: &|dir, trace, m| compare::write_gtkw(dir, trace, m, "TOP.toy_counter.", "RTL: toy_counter ports"),
        no_script: None,
    };
    artifacts::write(&f, m)
}

/// Run the toy script `text` named `name` in lockstep or on the model alone.
pub fn run_text(name: &str, text: &str, o: &ScriptOpts) -> Result<u64, ScriptError> {
    let body = cmd::parse(name, text).map_err(ScriptError::Input)?;
    script::check_bound(name, body.iter().map(|(l, c)| (*l, c.clocks())), o.max_cycles())
        .map_err(ScriptError::Input)?;
    let x_seed = o.x_seed.unwrap_or(X_SEED);
    let l = ToyLockstep::new(!o.model_only, o.fault, x_seed).map_err(|e| ScriptError::Input(format!("{name}: {e}")))?;
    let cmds: Vec<Cmd> = body.iter().map(|(_, c)| c.clone()).collect();
    script::run_body(name, &body, l, o, "toy", |m, repro| {
        let replay = || -> Box<dyn Iterator<Item = Cmd> + '_> { Box::new(cmds.iter().cloned()) };
        write_failure(o.art, script::failure_tag(name), repro.to_string(), o.fault, x_seed, &replay, m)
    })
}

fn bench_rows(table: &mut bench::Table, seed: u64, cycles: u64, out: &Path) -> Result<(), String> {
    const LABEL: &str = "TOY counter";
    if !table.wants(LABEL) {
        return Ok(());
    }
    let cmds = cmds_through(stim(seed), cycles);
    bench::rows(table, LABEL, &out.join("bench-toy-trace.vcd"), |model, rtl, trace| {
        let mut l = ToyLockstep::new(rtl, None, X_SEED)?;
        l.model_on = model;
        bench::replay(l, &cmds, trace, "TOY")
    })
}
