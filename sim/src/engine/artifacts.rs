//! The device-independent steps of what a mismatch leaves behind: the
//! failure folder with `repro.txt` (first: everything after it may fail or
//! be killed), the `last-failure` pointer `make waves` reads, `report.txt`,
//! and the waves of a deterministic re-run over the failure window.

use std::fs;
use std::path::{Path, PathBuf};

use crate::engine::device::{self, Lockstep};
use crate::engine::mismatch::Mismatch;
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

/// Replay `cmds` on the fresh run `l`, tracing `window` cycles before the
/// mismatch and a few after, into `dir/wave.vcd` (RTL + both sides'
/// compared values); returns the trace's signals and the window start, for
/// the device's `wave.gtkw` groups.
pub fn waves<L: Lockstep>(
    dir: &Path,
    m: &Mismatch,
    l: L,
    cmds: impl Iterator<Item = L::Cmd>,
    window: u64,
) -> std::io::Result<(wave::ExtraTrace, u64, u64)> {
    let start = m.cycle.saturating_sub(window);
    let end = m.cycle + 3;
    let rtl_vcd = dir.join("rtl.vcd");
    let trace = device::trace_window(l, cmds, start, end, &rtl_vcd).map_err(std::io::Error::other)?;
    wave::merge_vcd(Some(&rtl_vcd), &trace, &dir.join("wave.vcd"))?;
    let _ = fs::remove_file(&rtl_vcd);
    Ok((trace, start, end))
}
