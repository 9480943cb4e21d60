//! GF100 runs: the regression's jobs (`GfJob`), the setup of a run and the
//! failure artifacts (reproducer first, then report, stimulus as a script,
//! waves of a deterministic re-run). Scripts run in `scripts.rs`.

use std::path::PathBuf;

use pcounter::pcnt::gf100::config::GfConfig;

use super::RunError;
use crate::engine::artifacts;
use crate::engine::compare;
use crate::engine::coverage::Coverage;
use crate::engine::mismatch::Mismatch;
use crate::pcnt::gf100::lockstep::GfLockstep;
use crate::pcnt::gf100::{ffi, stim::GfStim};
use crate::pcnt::script::{self, Cmd, Line, Script};

/// Everything that makes a GF100 run reproducible.
#[derive(Clone, Debug)]
pub struct GfSetup {
    pub preset: String,
    pub fault: Option<String>,
    pub clocks: Vec<(u8, script::ClockSpec)>,
    pub x_seed: u32,
}

impl GfSetup {
    pub fn lockstep(&self, rtl: bool) -> Result<GfLockstep, String> {
        GfLockstep::new(&self.preset, rtl, self.fault.as_deref(), &self.clocks, self.x_seed)
    }
}

/// Failure artifacts through the engine's one path (`engine::artifacts`):
/// the stimulus as a GF100 script on this preset (`s` gives its clocks and
/// initial values), waves of a re-run, the shrunk script.
pub fn write_failure(
    art: &super::Artifacts,
    tag: &str,
    repro: &str,
    m: &Mismatch,
    setup: &GfSetup,
    cmds: &[Cmd],
    s: &Script,
) -> std::io::Result<PathBuf> {
    let render = |cmds: &[Cmd]| {
        let body = cmds.iter().enumerate().map(|(i, c)| Line { line: i + 1, cmd: c.clone() }).collect();
        script::render(&Script { gf_layouts: vec![setup.preset.clone()], body, ..s.clone() }.compact())
    };
    let f = artifacts::Failure {
        art,
        tag: tag.to_string(),
        repro: repro.to_string(),
        ext: "pcs",
        replay_args: setup.fault.as_ref().map(|f| format!(" FAULT={f}")).unwrap_or_default(),
        replay: &|| -> Box<dyn Iterator<Item = Cmd> + '_> { Box::new(cmds.iter().cloned()) },
        render: &render,
        lockstep: &|| setup.lockstep(true),
        gtkw: &|dir, trace, m| {
            compare::write_gtkw(dir, trace, m, "TOP.pcnt_gf100_top.", "RTL: pcnt_gf100_top ports and flops")
        },
        no_script: None,
    };
    artifacts::write(&f, m)
}

/// One random GF100 lockstep run of the regression.
#[derive(Clone, Debug)]
pub struct GfJob {
    pub seed: u64,
    /// `fermi` or `kepler` (a fault run is built on `gf_fault` whatever this says).
    pub preset: String,
    pub cycles: u64,
    pub fault: Option<String>,
}

impl GfJob {
    /// The one-line command that reruns exactly this job.
    pub fn repro(&self) -> String {
        let fault = self.fault.as_ref().map(|f| format!(" FAULT={f}")).unwrap_or_default();
        format!("make cosim SEED={} SEEDS=1 CYCLES={} GEN=gf100 LAYOUT={}{fault}", self.seed, self.cycles, self.preset)
    }

    pub fn tag(&self) -> String {
        let fault = self.fault.as_ref().map(|f| format!("-{f}")).unwrap_or_default();
        format!("fail-seed{}-gf100-{}{fault}", self.seed, self.preset)
    }

    fn config(&self) -> GfConfig {
        let p = self.fault.as_deref().and_then(ffi::fault_base).unwrap_or(&self.preset);
        GfConfig::preset(p).expect("GF100 preset of a planned job")
    }

    pub fn domains(&self) -> usize {
        self.config().num_domains()
    }

    pub fn stimulus(&self) -> GfStim {
        GfStim::new(self.seed, &self.config())
    }

    pub fn setup(&self) -> GfSetup {
        GfSetup {
            preset: self.preset.clone(),
            fault: self.fault.clone(),
            clocks: self.stimulus().clocks().to_vec(),
            x_seed: self.seed as u32 ^ (self.seed >> 32) as u32,
        }
    }

    /// `Ok((cycles, coverage))` or the first mismatch.
    pub fn run(&self) -> Result<(u64, Coverage), RunError> {
        let mut l = self.setup().lockstep(true).map_err(RunError::Setup)?;
        crate::engine::device::run(&mut l, &mut self.stimulus(), self.cycles).map_err(RunError::Mismatch)
    }

    /// Failure artifacts of this job: the stimulus up to the mismatch as a
    /// GF100 script, waves of a re-run.
    pub fn write_failure(&self, art: &super::Artifacts, m: &Mismatch) -> std::io::Result<PathBuf> {
        let setup = self.setup();
        let cmds = super::cmds_through(self.stimulus(), m.cycle);
        let body = cmds.iter().enumerate().map(|(i, c)| Line { line: i + 1, cmd: c.clone() }).collect();
        let s = Script {
            gen: script::GEN_GF100.into(),
            gf_layouts: vec![self.preset.clone()],
            clocks: setup.clocks.clone(),
            x_seed: Some(setup.x_seed),
            body,
            ..Script::default()
        };
        let repro = crate::engine::artifacts::cosim_repro(&self.repro(), art);
        write_failure(art, &self.tag(), &repro, m, &setup, &cmds, &s)
    }
}
