//! The device-independent steps of what a mismatch leaves behind: the
//! failure folder with `repro.txt` (first: everything after it may fail or
//! be killed), the `last-failure` pointer `make waves` reads, `report.txt`,
//! and the waves of a deterministic re-run over the failure window.

use std::fs;
use std::path::{Path, PathBuf};

use crate::engine::device::{self, Lockstep};
use crate::engine::mismatch::Mismatch;
use crate::engine::shrink::Wait;
use crate::engine::wave;

/// Create `out/tag/` and write the reproducer and the report; the folder.
pub fn begin(out: &Path, tag: &str, repro: &str, m: &Mismatch) -> std::io::Result<PathBuf> {
    let dir = out.join(tag);
    fs::create_dir_all(&dir)?;
    fs::write(dir.join("repro.txt"), format!("{repro}\n"))?;
    fs::write(out.join("last-failure"), format!("{}\n", dir.display()))?;
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
    let trace = device::trace_window(l, cmds, start, end, &rtl_vcd).map_err(std::io::Error::other)?;
    wave::merge_vcd(Some(&rtl_vcd), &trace, &dir.join("wave.vcd"))?;
    let _ = fs::remove_file(&rtl_vcd);
    Ok(trace)
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
