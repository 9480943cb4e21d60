//! R10K runs: the random regression's job (the engine's `regress` runs
//! it; the variant rotates with the seed), scripts, and how an R10K failure
//! renders (the engine's artifacts: repro, report, stimulus script, waves,
//! shrunk script).

use std::path::PathBuf;

use pcounter::r10k::Variant;

use super::cmd::{self, Cmd};
use super::ffi;
use super::lockstep::{R10kLockstep, X_SEED};
use super::stim::RandomStim;
use crate::engine::artifacts::{self, Artifacts, Failure};
use crate::engine::compare;
use crate::engine::coverage::Coverage;
use crate::engine::mismatch::Mismatch;
use crate::engine::regress;
use crate::engine::script::{self, ScriptError, ScriptOpts};

/// One random R10K run.
#[derive(Clone, Debug)]
pub struct Job {
    pub seed: u64,
    pub cycles: u64,
    pub fault: Option<String>,
}

impl Job {
    /// Odd seeds run the R10000, even ones the R12000; a fault run its
    /// build's variant (`config:` in the fault file, default R10000).
    pub fn variant(&self) -> Variant {
        match self.fault.as_deref() {
            Some(f) => ffi::fault_variant(f).unwrap_or(Variant::R10000),
            None if self.seed % 2 == 1 => Variant::R10000,
            None => Variant::R12000,
        }
    }

    fn run_of(&self) -> Setup<'_> {
        Setup {
            variant: self.variant(),
            fault: self.fault.as_deref(),
            x_seed: self.seed as u32 ^ (self.seed >> 32) as u32,
        }
    }
}

impl regress::Run for Job {
    fn seed(&self) -> u64 {
        self.seed
    }
    /// The variant: a merge refuses shards whose seeds ran other variants.
    fn build(&self) -> String {
        self.variant().name().to_string()
    }
    fn repro(&self) -> String {
        let fault = self.fault.as_ref().map(|f| format!(" FAULT={f}")).unwrap_or_default();
        format!("make cosim DEVICE=r10k SEED={} SEEDS=1 CYCLES={}{fault}", self.seed, self.cycles)
    }
    fn write_failure(&self, art: &Artifacts, m: &Mismatch) -> std::io::Result<PathBuf> {
        let fault = self.fault.as_ref().map(|f| format!("-{f}")).unwrap_or_default();
        let tag = format!("fail-r10k-seed{}{fault}", self.seed);
        let replay = || -> Box<dyn Iterator<Item = Cmd>> { Box::new(RandomStim::new(self.seed, self.variant())) };
        let repro = crate::engine::artifacts::cosim_repro(&regress::Run::repro(self), art);
        write_r10k_failure(art, tag, repro, &self.run_of(), &replay, m)
    }
    fn run_job(&self) -> Result<Result<(u64, Coverage), Box<Mismatch>>, String> {
        regress::Job::run(self)
    }
}

impl regress::Job for Job {
    type L = R10kLockstep;
    const DEVICE: (&'static str, &'static str) = ("r10k", "R10K");
    const EXT: &'static str = "r10k";
    fn plan_note(fault: Option<&str>) -> String {
        match fault {
            // A fault build is one variant (its fault file's `config:`).
            Some(f) => {
                format!("(every seed on the fault's {} build)", ffi::fault_variant(f).unwrap_or(Variant::R10000).name())
            }
            None => "(odd R10000, even R12000)".into(),
        }
    }

    fn new(seed: u64, cycles: u64, fault: Option<String>) -> Job {
        Job { seed, cycles, fault }
    }
    fn cycles(&self) -> u64 {
        self.cycles
    }
    fn lockstep(&self) -> Result<R10kLockstep, String> {
        let r = self.run_of();
        R10kLockstep::new(r.variant, true, r.fault, r.x_seed)
    }
    fn stim(&self) -> Box<dyn Iterator<Item = Cmd> + '_> {
        Box::new(RandomStim::new(self.seed, self.variant()))
    }
}

/// Commands needed to reach `cycle` (inclusive), the engine's.
pub(crate) use crate::engine::apb_window::cmds_through;

/// What makes an R10K run: the variant, the fault build, the initial values.
struct Setup<'a> {
    variant: Variant,
    fault: Option<&'a str>,
    x_seed: u32,
}

/// The engine's failure artifacts (`engine::artifacts`) of an R10K run,
/// random or scripted: `stimulus.r10k`, `minimal.r10k`, waves of the unit.
fn write_r10k_failure<'r>(
    art: &Artifacts,
    tag: String,
    repro: String,
    run: &Setup,
    replay: &dyn Fn() -> Box<dyn Iterator<Item = Cmd> + 'r>,
    m: &Mismatch,
) -> std::io::Result<PathBuf> {
    let f = Failure {
        art,
        tag,
        repro,
        ext: "r10k",
        replay_args: run.fault.map(|f| format!(" FAULT={f}")).unwrap_or_default(),
        replay,
        render: &|cmds| format!("device r10k {}\n{}", run.variant.name(), cmd::render(cmds)),
        lockstep: &|| R10kLockstep::new(run.variant, true, run.fault, run.x_seed),
        gtkw: &|dir, trace, m| compare::write_gtkw(dir, trace, m, "TOP.r10k_perf.", "RTL: r10k_perf ports"),
        no_script: None,
    };
    artifacts::write(&f, m)
}

/// Run the R10K script `text` named `name` in lockstep or on the model
/// alone; `variant` is the device line's argument (`r10000` when none; the
/// registry took the line off). Parsed, the events checked against the
/// variant's table and the cycle bound checked, then run; a failure writes
/// the engine's artifacts. The cycles run.
pub fn run_text(name: &str, text: &str, variant: Option<&str>, o: &ScriptOpts) -> Result<u64, ScriptError> {
    let input = ScriptError::Input;
    let variant = match variant {
        None => Variant::R10000,
        Some(v) => cmd::device_line(&["device", "r10k", v])
            .expect("a three-token r10k device line")
            .map_err(|e| input(format!("{name}: {e}")))?,
    };
    let s = cmd::parse(name, text).map_err(input)?;
    cmd::check_events(name, &s.body, variant).map_err(input)?;
    script::check_bound(name, s.body.iter().map(|(l, c)| (*l, c.clocks())), o.max_cycles()).map_err(input)?;
    let run = Setup { variant, fault: o.fault, x_seed: o.x_seed.unwrap_or(X_SEED) };
    let l =
        R10kLockstep::new(variant, !o.model_only, o.fault, run.x_seed).map_err(|e| input(format!("{name}: {e}")))?;
    let cmds: Vec<Cmd> = s.body.iter().map(|(_, c)| c.clone()).collect();
    script::run_body(name, &s.body, l, o, "r10k", |m, repro| {
        let replay = || -> Box<dyn Iterator<Item = Cmd> + '_> { Box::new(cmds.iter().cloned()) };
        write_r10k_failure(o.art, script::failure_tag(name), repro.to_string(), &run, &replay, m)
    })
}
