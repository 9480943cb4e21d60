//! GF100 scenario scripts (`gen gf100`, one run per `layout` preset) and
//! the failure artifacts of a GF100 run: reproducer first, then report,
//! stimulus as a script, waves of a deterministic re-run.

use std::fs;
use std::path::{Path, PathBuf};

use pcounter::gf100::config::GfConfig;

use super::lockstep::GfLockstep;
use super::stim::GfStim;
use crate::coverage::Coverage;
use crate::engine::artifacts;
use crate::engine::compare;
use crate::engine::mismatch::Mismatch;
use crate::runner::RunError;
use crate::runner::{ReadValue, ScriptError, ScriptOpts, ScriptRun, SCRIPT_MAX_CYCLES};
use crate::script::{self, Cmd, Line, Script};

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

/// Runs the parsed GF100 script `s` on `preset`.
pub fn run_script(name: &str, s: &Script, preset: &str, o: &ScriptOpts, repro: &str) -> Result<ScriptRun, ScriptError> {
    let setup = GfSetup {
        preset: preset.to_string(),
        fault: o.fault.map(String::from),
        clocks: s.clocks.clone(),
        x_seed: s.x_seed.or(o.x_seed).unwrap_or(super::lockstep::X_SEED),
    };
    let mut e = setup.lockstep(!o.model_only).map_err(|e| ScriptError::Input(format!("{name}: {e}")))?;
    let mut reads = Vec::new();
    let max = o.max_cycles.unwrap_or(SCRIPT_MAX_CYCLES);
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
        match e.exec(cmd) {
            Ok(Some(res)) => {
                let Cmd::Read { addr, expect } = cmd else { continue };
                let v = res.rdata;
                reads.push(ReadValue { line: *line, value: v, slverr: res.slverr });
                let err = if res.slverr { " PSLVERR" } else { "" };
                match expect {
                    Some(x) if !x.check(v) => {
                        return Err(ScriptError::Failed(format!(
                            "{name}:{line}: read {addr:#08x} returned {v:#010x}{err}, expected {}",
                            x.describe()
                        )));
                    }
                    _ if o.quiet => {}
                    _ => println!("{name}:{line}: read {addr:#08x} = {v:#010x}{err}"),
                }
            }
            Ok(None) => {
                if let (Cmd::Echo { text }, false) = (cmd, o.quiet) {
                    println!("{name}:{line}: cycle {}: {text}", e.cycle);
                }
            }
            Err(m) => {
                let stem = Path::new(name).file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
                let tag = format!("fail-script-{stem}-{preset}");
                let cmds: Vec<Cmd> = s.body.iter().map(|l| l.cmd.clone()).collect();
                let where_ = match write_failure(o.art, &tag, repro, &m, &setup, &cmds, s) {
                    Ok(dir) => format!("artifacts: {}", dir.display()),
                    Err(err) => format!("could not write all artifacts: {err}"),
                };
                return Err(ScriptError::Failed(format!(
                    "{name}:{line}: RTL and model disagree\n{m}repro: {repro}\n{where_}"
                )));
            }
        }
    }
    Ok(ScriptRun { cycles: e.cycle, reads })
}

/// Failure artifacts: `repro.txt` and the report first, then the stimulus
/// as a script (`stimulus.pcs`, the commands up to the mismatch, on this
/// preset) and the waves of a re-run.
pub fn write_failure(
    art: &crate::runner::Artifacts,
    tag: &str,
    repro: &str,
    m: &Mismatch,
    setup: &GfSetup,
    cmds: &[Cmd],
    s: &Script,
) -> std::io::Result<PathBuf> {
    let dir = artifacts::begin(&art.out, tag, repro, m)?;
    let one = Script { gf_layouts: vec![setup.preset.clone()], ..s.clone() };
    let path = dir.join("stimulus.pcs");
    let fault = setup.fault.as_ref().map(|f| format!(" ARGS='--fault {f}'")).unwrap_or_default();
    let head = format!(
        "# GF100 run ({}) up to its mismatch at cycle {}: {}\n# Replay: make script FILE={}{fault}\n",
        setup.preset,
        m.cycle,
        m.what,
        path.display()
    );
    fs::write(&path, head + &script::render(&one))?;
    let l = setup.lockstep(true).map_err(std::io::Error::other)?;
    let trace = artifacts::waves(&dir, m, l, cmds.iter().cloned(), art.window)?;
    compare::write_gtkw(&dir, &trace, m, "TOP.pcnt_gf100_top.", "RTL: pcnt_gf100_top ports and flops")?;
    Ok(dir)
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
        let p = if self.fault.is_some() { super::ffi::FAULT_PRESET } else { &self.preset };
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
    pub fn write_failure(&self, art: &crate::runner::Artifacts, m: &Mismatch) -> std::io::Result<PathBuf> {
        let setup = self.setup();
        let cmds = crate::runner::cmds_through(self.stimulus(), m.cycle);
        let body = cmds.iter().enumerate().map(|(i, c)| Line { line: i + 1, cmd: c.clone() }).collect();
        let s = Script {
            gen: script::GEN_GF100.into(),
            gf_layouts: vec![self.preset.clone()],
            clocks: setup.clocks.clone(),
            x_seed: Some(setup.x_seed),
            body,
            ..Script::default()
        };
        write_failure(art, &self.tag(), &self.repro(), m, &setup, &cmds, &s)
    }
}
