//! What a failure leaves behind, the same for every device and every kind
//! of failure (RTL/model mismatch, script expectation, RTL assertion), in
//! this order, so nothing is lost if a later step fails or is killed:
//!   1. `repro.txt`: the one-line command that reproduces it (also printed),
//!      and the `last-failure` pointer `make waves` reads;
//!   2. `report.txt`: the failure report;
//!   3. `stimulus.EXT`: the commands from reset through the failing cycle as
//!      a script of the device (EXT its script extension);
//!   4. `wave.vcd` (or `wave.fst`, [`WaveFormat`]) + `wave.gtkw`: a
//!      deterministic re-run traced over the failure window, RTL plus both
//!      sides' compared values;
//!   5. `minimal.EXT`: the stimulus shrunk to a script that still fails on
//!      the same register, expectation or assertion.
//!
//! A device says only how its run is rebuilt, how its commands render as a
//! script and how its waves are grouped ([`Failure`]).

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::engine::device::{self, Clocks, Lockstep};
use crate::engine::mismatch::Mismatch;
use crate::engine::shrink::{self, Wait};
use crate::engine::wave::{self, ExtraTrace};

/// Where failures go, how much of the run the waves cover, how long a
/// failing stimulus is shrunk (`--out`, `--window`, `--shrink-secs`).
#[derive(Clone, Debug)]
pub struct Artifacts {
    pub out: PathBuf,
    pub window: u64,
    /// Time budget for shrinking the stimulus to `minimal.EXT` (0: off).
    pub shrink_secs: u64,
    /// The waves' format (`--wave`); `None`: by the window ([`WaveFormat::for_window`]).
    pub wave: Option<WaveFormat>,
}

/// The file format of a failure's waves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum WaveFormat {
    /// `wave.vcd`: text, read by every viewer and by the `vcd` crate.
    Vcd,
    /// `wave.fst`: GTKWave's compressed format, about a tenth of the VCD
    /// (`engine::wave::fst`).
    Fst,
}

/// Above this many cycles of window, waves are FST unless `--wave vcd`
/// asks otherwise: up to about 200 MB of VCD on 8 domains.
pub const FST_ABOVE_WINDOW: u64 = 10_000;

impl WaveFormat {
    /// The default format of a `window`-cycle failure window.
    pub fn for_window(window: u64) -> WaveFormat {
        if window > FST_ABOVE_WINDOW {
            WaveFormat::Fst
        } else {
            WaveFormat::Vcd
        }
    }

    /// The format's name, as `--wave` and `WAVE=` take it.
    pub fn name(self) -> &'static str {
        match self {
            WaveFormat::Vcd => "vcd",
            WaveFormat::Fst => "fst",
        }
    }

    /// The file name of a failure's waves in this format.
    pub fn file_name(self) -> String {
        format!("wave.{}", self.name())
    }
}

impl Artifacts {
    /// The format the waves are written in.
    pub fn wave_format(&self) -> WaveFormat {
        self.wave.unwrap_or(WaveFormat::for_window(self.window))
    }
}

/// `repro`, a `make cosim ...` line, with the artifact options that differ
/// from the defaults (`OUT=`, `WINDOW=`), so the rerun writes where this
/// run did and the same window of waves; runnable where `pcnt` ran
/// ([`runnable_here`]).
pub fn cosim_repro(repro: &str, art: &Artifacts) -> String {
    let mut r = repro.to_string();
    if art.out != Path::new("out") {
        r += &format!(" OUT={}", art.out.display());
    }
    if art.window != 2000 {
        r += &format!(" WINDOW={}", art.window);
    }
    if let Some(w) = art.wave {
        r += &format!(" WAVE={}", w.name());
    }
    runnable_here(r)
}

/// A repro line `make GOAL VAR=...` as the user can paste it where `pcnt`
/// runs: unchanged in a checkout of the project (a folder with its Makefile
/// and sim/build.rs, where make finds its targets); from any other folder,
/// `make -C ROOT GOAL ...` on the checkout this binary was built in, with
/// the relative `FILE=` and `OUT=` paths made absolute (make runs in ROOT)
/// and `OUT=` always given (the artifacts go where this run's went).
/// A binary whose checkout is gone keeps the line as it is.
pub fn runnable_here(line: String) -> String {
    let is_checkout = |d: &Path| d.join("Makefile").is_file() && d.join("sim/build.rs").is_file();
    let (Ok(cwd), Some(root)) = (std::env::current_dir(), Path::new(env!("CARGO_MANIFEST_DIR")).parent()) else {
        return line;
    };
    let Some(rest) = line.strip_prefix("make ") else { return line };
    if is_checkout(&cwd) || !is_checkout(root) {
        return line;
    }
    let mut words: Vec<String> = rest
        .split(' ')
        .map(|w| match w.split_once('=') {
            Some((k @ ("FILE" | "OUT"), v)) if Path::new(v).is_relative() => {
                format!("{k}={}", shell_word(&cwd.join(v).display().to_string()))
            }
            _ => w.to_string(),
        })
        .collect();
    // The artifacts of the rerun go where this run's went (make's default
    // OUT would be ROOT/out).
    if !words.iter().any(|w| w.starts_with("OUT=")) {
        words.push(format!("OUT={}", shell_word(&cwd.join("out").display().to_string())));
    }
    format!("make -C {} {}", shell_word(&root.display().to_string()), words.join(" "))
}

/// `s` as one shell word: as it is when it holds only characters no shell
/// treats specially, else single-quoted.
fn shell_word(s: &str) -> String {
    let plain = |c: char| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c);
    match s.chars().all(plain) && !s.is_empty() {
        true => s.to_string(),
        false => format!("'{}'", s.replace('\'', "'\\''")),
    }
}

/// Most bus cycles of waves before a failure (`--window`): 100 000 cycles
/// of an 8-domain random run are 2.0 GB of VCD (49 MB as FST, the default
/// there), and a larger ask is refused (exit 2) rather than filling the disk.
pub const WINDOW_MAX: u64 = 100_000;

/// Past this many cycles a failure's stimulus is not written as a script
/// (millions of lines); the repro line regenerates it exactly.
pub const SCRIPT_CYCLES_MAX: u64 = 2_000_000;

/// A device's part of writing one failure's artifacts.
pub struct Failure<'a, 'r, L: Lockstep> {
    pub art: &'a Artifacts,
    /// Folder name under `art.out` (`fail-DEVICE-seed7`, `fail-script-x`).
    pub tag: String,
    /// The one-line command that reproduces the failure.
    pub repro: String,
    /// Script extension of the device (`pcs`, ...).
    pub ext: &'static str,
    /// What the saved scripts' replay line appends (` FAULT=f`: make builds
    /// that fault's variant and runs the script on it).
    pub replay_args: String,
    /// The run's command stream from reset (it may go on past the failure).
    pub replay: &'a dyn Fn() -> Box<dyn Iterator<Item = L::Cmd> + 'r>,
    /// Commands as a whole script of the device (device line and
    /// configuration first), after the header lines the engine writes.
    pub render: &'a dyn Fn(&[L::Cmd]) -> String,
    /// A fresh run of the same configuration (waves, shrinking).
    pub lockstep: &'a dyn Fn() -> Result<L, String>,
    /// The GTKWave save file of the traced run (`dir`, its trace).
    pub gtkw: &'a dyn Fn(&Path, &ExtraTrace, &Mismatch) -> std::io::Result<()>,
    /// Why the stimulus cannot be a script, if it cannot (`stimulus.txt`
    /// says so and names the repro instead).
    pub no_script: Option<String>,
}

/// Write the artifacts of failure `m` (steps 1 to 5 of the module doc);
/// the folder.
pub fn write<L>(f: &Failure<'_, '_, L>, m: &Mismatch) -> std::io::Result<PathBuf>
where
    L: Lockstep,
    L::Cmd: Clocks,
{
    let dir = begin(&f.art.out, &f.tag, &f.repro, m)?;
    let script_path = dir.join(format!("stimulus.{}", f.ext));
    let why = f.no_script.clone().or_else(|| {
        (m.cycle > SCRIPT_CYCLES_MAX).then(|| format!("the failure is at cycle {}, past {SCRIPT_CYCLES_MAX}", m.cycle))
    });
    if let Some(why) = why {
        fs::write(
            dir.join("stimulus.txt"),
            format!("No {}: {why}.\nReproduce with: {}\n", script_path.display(), f.repro),
        )?;
        let trace = waves(&dir, m, (f.lockstep)().map_err(std::io::Error::other)?, (f.replay)(), f.art.window)?;
        (f.gtkw)(&dir, &trace, m)?;
        finish_waves(&dir, f.art.wave_format())?;
        return Ok(dir);
    }
    let full = shrink::compact(device::cmds_through((f.replay)(), m.cycle));
    let header = |first: String, path: &Path| {
        let replay = runnable_here(format!("make script FILE={}{}", path.display(), f.replay_args));
        format!("# {first}\n# {}\n# Replay: {replay}\n", m.what)
    };
    let first = format!("Stimulus of a failing run up to its first failure ({}, cycle {}).", m.kind(), m.cycle);
    fs::write(&script_path, header(first, &script_path) + &(f.render)(&full))?;
    let trace = waves(&dir, m, (f.lockstep)().map_err(std::io::Error::other)?, (f.replay)(), f.art.window)?;
    (f.gtkw)(&dir, &trace, m)?;
    finish_waves(&dir, f.art.wave_format())?;
    if f.art.shrink_secs > 0 {
        let before = full.len();
        let fails = |cmds: &[L::Cmd]| device::fails_on((f.lockstep)(), cmds, &m.what);
        let min = shrink::shrink(full, &fails, Duration::from_secs(f.art.shrink_secs));
        let path = dir.join(format!("minimal.{}", f.ext));
        let first = format!(
            "Shrunk from {before} to {} commands; still fails on the same {}. \
             Add it to tests/corpus/ once the bug is fixed.",
            min.len(),
            if m.assertion.is_some() {
                "assertion"
            } else if m.expectation {
                "expectation"
            } else {
                "register"
            }
        );
        fs::write(&path, header(first, &path) + &(f.render)(&min))?;
    }
    Ok(dir)
}

/// The lines a failure prints under its report: repro, then where each
/// artifact is (`ext`: the device's script extension).
pub fn print_where(repro: &str, ext: &str, written: std::io::Result<PathBuf>) {
    eprintln!("repro:    {repro}");
    match written {
        Ok(dir) => {
            eprintln!("report:   {}", dir.join("report.txt").display());
            eprintln!("script:   {}", dir.join(format!("stimulus.{ext}")).display());
            let min = dir.join(format!("minimal.{ext}"));
            if min.exists() {
                eprintln!("minimal:  {} (shrunk)", min.display());
            }
            // The command that opens this failure (not `make waves`, which
            // knows neither `--out` nor which of parallel runs failed last).
            eprintln!("waves:    gtkwave {}", dir.join("wave.gtkw").display());
        }
        Err(e) => eprintln!("(could not write all failure artifacts: {e})"),
    }
}

/// Create `out/tag/` and write the reproducer and the report; the folder.
pub fn begin(out: &Path, tag: &str, repro: &str, m: &Mismatch) -> std::io::Result<PathBuf> {
    let dir = out.join(tag);
    fs::create_dir_all(&dir)?;
    fs::write(dir.join("repro.txt"), format!("{repro}\n"))?;
    // Absolute: `make waves` reads it from the checkout, whatever folder
    // pcnt ran in.
    let abs = std::path::absolute(&dir).unwrap_or_else(|_| dir.clone());
    fs::write(out.join("last-failure"), format!("{}\n", abs.display()))?;
    let report = format!("{m}\nrepro: {repro}\nfolder: {}\n", dir.display());
    fs::write(dir.join("report.txt"), &report)?;
    Ok(dir)
}

/// Bus clocks traced after a mismatch. GTKWave honours the save file's
/// `[timestart]` only if a whole page from there lies inside the dump
/// (wave::gtkw): 40 cycles of context before the mismatch, shown on every wave
/// area width the file allows for, need about 47 cycles of dump after it.
pub const WAVE_TAIL: u64 = 60;

/// Cycles of context before the mismatch the save file opens with.
pub const WAVE_CONTEXT: u64 = 40;

/// Replay `cmds` on the fresh run `l`, tracing `window` cycles before the
/// mismatch and `WAVE_TAIL` after (idle cycles follow the stimulus, so a
/// script that ends at its mismatch still has the tail), into
/// `dir/wave.vcd` (RTL + both sides' compared values); returns the trace's
/// signals, for the device's `wave.gtkw` groups.
pub fn waves<L: Lockstep>(
    dir: &Path,
    m: &Mismatch,
    l: L,
    cmds: impl Iterator<Item = L::Cmd>,
    window: u64,
) -> std::io::Result<wave::ExtraTrace> {
    let start = m.cycle.saturating_sub(window);
    let end = m.cycle + WAVE_TAIL;
    let rtl_vcd = dir.join("rtl.vcd");
    let cmds = cmds.chain(std::iter::once(<L::Cmd as Wait>::wait(WAVE_TAIL)));
    let mut trace = device::trace_window(l, cmds, start, end, &rtl_vcd).map_err(std::io::Error::other)?;
    // `mismatch` marks the reported cycle whatever failed there: a register
    // difference sets it by itself, an expectation or an assertion does not.
    trace.pulse("mismatch", m.cycle * wave::RAW_PER_CYCLE, wave::RAW_PER_CYCLE);
    // Merged in the shims' time (10 per cycle), then one timestamp per bus
    // cycle, so the marker's time is the cycle (engine::wave::cycles).
    let raw = dir.join("wave-raw.vcd");
    wave::merge_vcd(Some(&rtl_vcd), &trace, &raw)?;
    let _ = fs::remove_file(&rtl_vcd);
    wave::fold_to_cycles(&raw, &dir.join("wave.vcd"))?;
    let _ = fs::remove_file(&raw);
    Ok(trace)
}

/// The waves in `format`: the device wrote `wave.vcd` and a `wave.gtkw`
/// naming it; for FST both become `wave.fst` and the VCD goes.
fn finish_waves(dir: &Path, format: WaveFormat) -> std::io::Result<()> {
    if format == WaveFormat::Vcd {
        // A wave.fst of an earlier run into this folder would contradict it.
        return match fs::remove_file(dir.join(WaveFormat::Fst.file_name())) {
            Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(e),
            _ => Ok(()),
        };
    }
    let (vcd, gtkw) = (dir.join("wave.vcd"), dir.join("wave.gtkw"));
    wave::vcd_to_fst(&vcd, &dir.join(format.file_name()))?;
    let text = fs::read_to_string(&gtkw)?;
    fs::write(&gtkw, wave::with_dumpfile(&text, &format.file_name()))?;
    fs::remove_file(&vcd)
}

/// Writes `contents` to `path`, creating its folder first: every output
/// the user names (`--json`, `--packets`, `record-dump --csv`) may point
/// into a folder that does not exist yet, as `out/` on a fresh clone.
pub fn write_file(path: &std::path::Path, contents: impl AsRef<[u8]>) -> std::io::Result<()> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)?;
    }
    std::fs::write(path, contents)
}

#[cfg(test)]
mod tests {
    /// A path pasted into a repro line stays one shell word.
    #[test]
    fn shell_words_survive_spaces_and_quotes() {
        assert_eq!(super::shell_word("/work/a_b-1.2/out"), "/work/a_b-1.2/out");
        assert_eq!(super::shell_word("/tmp/my runs/t.pcs"), "'/tmp/my runs/t.pcs'");
        assert_eq!(super::shell_word("/tmp/it's"), "'/tmp/it'\\''s'");
        assert_eq!(super::shell_word(""), "''");
    }
}
