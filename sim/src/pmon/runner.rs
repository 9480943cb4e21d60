//! PMON runs: the random regression's job (the engine's `regress` runs
//! it), scripts, and how a PMON failure renders (the engine's artifacts:
//! repro, report, stimulus script, waves, shrunk script).

use std::path::PathBuf;

use super::cmd::{self, Cmd};
use super::lockstep::{PmonLockstep, X_SEED};
use super::stim::RandomStim;
use crate::engine::artifacts::{self, Artifacts, Failure};
use crate::engine::compare;
use crate::engine::coverage::Coverage;
use crate::engine::mismatch::Mismatch;
use crate::engine::regress;
use crate::engine::script::{self, ScriptError, ScriptOpts};

/// The box build every PMON job runs on (sim/build.rs DEVICES): the `gen`
/// of its entries in a results file (`domains` is 0).
pub const BUILD: &str = "c4";

/// One random PMON run.
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
        BUILD.into()
    }
    fn repro(&self) -> String {
        let fault = self.fault.as_ref().map(|f| format!(" FAULT={f}")).unwrap_or_default();
        format!("make cosim DEVICE=pmon SEED={} SEEDS=1 CYCLES={}{fault}", self.seed, self.cycles)
    }
    fn write_failure(&self, art: &Artifacts, m: &Mismatch) -> std::io::Result<PathBuf> {
        let fault = self.fault.as_ref().map(|f| format!("-{f}")).unwrap_or_default();
        let tag = format!("fail-pmon-seed{}{fault}", self.seed);
        let replay = || -> Box<dyn Iterator<Item = Cmd>> { Box::new(RandomStim::new(self.seed)) };
        let repro = crate::engine::artifacts::cosim_repro(&regress::Run::repro(self), art);
        write_pmon_failure(art, tag, repro, self.fault.as_deref(), self.x_seed(), &replay, m)
    }
    fn run_job(&self) -> Result<Result<(u64, Coverage), Box<Mismatch>>, String> {
        regress::Job::run(self)
    }
}

impl regress::Job for Job {
    type L = PmonLockstep;
    const DEVICE: (&'static str, &'static str) = ("pmon", "PMON");
    const EXT: &'static str = "pms";

    fn new(seed: u64, cycles: u64, fault: Option<String>) -> Job {
        Job { seed, cycles, fault }
    }
    fn cycles(&self) -> u64 {
        self.cycles
    }
    fn lockstep(&self) -> Result<PmonLockstep, String> {
        PmonLockstep::new(true, self.fault.as_deref(), self.x_seed())
    }
    fn stim(&self) -> Box<dyn Iterator<Item = Cmd> + '_> {
        Box::new(RandomStim::new(self.seed))
    }
}

/// Commands needed to reach `cycle` (inclusive), the engine's.
pub(crate) use crate::engine::apb_window::cmds_through;

/// The engine's failure artifacts (`engine::artifacts`) of a PMON run,
/// random or scripted: `stimulus.pms`, `minimal.pms`, waves of the box.
fn write_pmon_failure<'r>(
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
        ext: "pms",
        replay_args: fault.map(|f| format!(" FAULT={f}")).unwrap_or_default(),
        replay,
        render: &|cmds| cmd::render(cmds),
        lockstep: &|| PmonLockstep::new(true, fault, x_seed),
        gtkw: &|dir, trace, m| compare::write_gtkw(dir, trace, m, "TOP.pmon_box.", "RTL: pmon_box ports and flops"),
        no_script: None,
    };
    artifacts::write(&f, m)
}

/// Run the PMON script `text` named `name` (its `device pmon` line taken
/// off by the device registry; `base` from that line's words) in lockstep
/// or on the model alone: parsed, its cycle bound checked, then run; a
/// failure writes the engine's artifacts. The cycles run.
pub fn run_text(name: &str, text: &str, base: cmd::Base, o: &ScriptOpts) -> Result<u64, ScriptError> {
    let body = cmd::parse(name, text, base).map_err(ScriptError::Input)?;
    script::check_bound(name, body.iter().map(|(l, c)| (*l, c.clocks())), o.max_cycles())
        .map_err(ScriptError::Input)?;
    let x_seed = o.x_seed.unwrap_or(X_SEED);
    let l =
        PmonLockstep::new(!o.model_only, o.fault, x_seed).map_err(|e| ScriptError::Input(format!("{name}: {e}")))?;
    let cmds: Vec<Cmd> = body.iter().map(|(_, c)| c.clone()).collect();
    script::run_body(name, &body, l, o, "pms", |m, repro| {
        let replay = || -> Box<dyn Iterator<Item = Cmd> + '_> { Box::new(cmds.iter().cloned()) };
        write_pmon_failure(o.art, script::failure_tag(name), repro.to_string(), o.fault, x_seed, &replay, m)
    })
}
