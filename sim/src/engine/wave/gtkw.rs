//! The GTKWave save file text, and where GTKWave opens it.
//!
//! # How GTKWave (3.3 and later) places the view
//!
//! It reads the save file line by line; a later line of the same kind
//! overrides an earlier one. `[timestart] T` records a wanted start;
//! `*Z M A B ...` sets the zoom `Z` (read as a C `float`) and the primary
//! marker `M`; `[size] W H` only sets the main window's size. The window is
//! then built, and at the first `configure` of the wave area (its width `w`
//! pixels now known) `[timestart]` is honoured only if
//! `first <= T <= last - w * nspx`, i.e. only if a whole page starting at `T`
//! lies inside the dump (`wavewindow.c`; `first`/`last` are the dump's first
//! and last time). `nspx` (time units per pixel) is `max(2^-Z, 1) / 200`
//! (`calczoom`, zoom base 2). Otherwise the view opens at `first`. Finally
//! `fix_wavehadj` clamps the start to `[first, last + 2 - page]`.
//!
//! So a `[timestart]` near the end of the dump is dropped whenever the wave
//! area is wider than the file assumed, which a large `[size]` makes likely:
//! before issue 13 the file zoomed the last 40 cycles onto 760 px, ending at
//! the dump's end, and GTKWave's 800 px wave area (3.3.118, `[size] 1400 800`)
//! pushed the page past `last`, so it opened at the start of the window
//! (seen in GTKWave 3.3.118 under Xvfb: view start = the dump's first time).
//!
//! The writer therefore places the page so that it fits for every wave width
//! up to the whole window (`GTKW_WAVE_PX_RANGE.1`) and still shows the marker
//! down to `GTKW_WAVE_PX_RANGE.0` pixels. That needs dump after the marker:
//! the harness traces `WAVE_TAIL` cycles past a mismatch (engine/artifacts.rs).
//! With less, the context shrinks (the marker stays in view); with almost
//! none, the file shows the whole dump from `first`. [`gtkw_opening`] reads a
//! file by these rules; the tests check the writer with it and, when
//! installed, with GTKWave itself.

use std::collections::{BTreeSet, HashMap};
use std::fmt::Write as _;

/// Window size requested in `[size]` and the panes' widths. The signals
/// pane shows each name and its value at the marker: 420 px holds
/// `lockstep.regs.DATA_LO_0_model[31:0]` and `0x0000_0000` beside it (300 px
/// cut the value off); the window is wider by as much, so the wave area
/// keeps its width.
const GTKW_WINDOW: (u32, u32) = (1600, 800);
const GTKW_SST_WIDTH: u32 = 220;
const GTKW_SIGNALS_WIDTH: u32 = 420;
/// The wave area widths the placement is made for: at least what the window
/// leaves after both panes and 200 px of borders and scroll bars (GTKWave
/// 3.3.118 gives 800 px), at most the whole window.
pub const GTKW_WAVE_PX_RANGE: (u32, u32) = (GTKW_WINDOW.0 - GTKW_SST_WIDTH - GTKW_SIGNALS_WIDTH - 200, GTKW_WINDOW.0);
/// Named markers a GTKWave 3.3 save file lists after the primary marker (A..Z).
pub(super) const GTKW_NAMED_MARKERS: usize = 26;

/// Time units per pixel for a zoom as GTKWave computes it (`calczoom`).
fn nspx(zoom: f32) -> f64 {
    2f64.powf(-f64::from(zoom)).max(1.0) / 200.0
}

/// `(zoom as written, [timestart])` for a marker at `marker` with `context`
/// time units before it, in a dump spanning `first..=last` (GTKWave units).
///
/// The span `d` shown on `lo` pixels (`lo`, `hi`: GTKW_WAVE_PX_RANGE) and the
/// start `s` must satisfy: `s + d * hi / lo <= last` (the page fits on `hi`
/// pixels, so GTKWave keeps `s`), `s + d >= marker + after` (the marker is
/// in view on `lo` pixels) and `first <= s <= marker`.
fn placement(marker: u64, context: u64, (first, last): (u64, u64)) -> (String, u64) {
    let (lo, hi) = (f64::from(GTKW_WAVE_PX_RANGE.0), f64::from(GTKW_WAVE_PX_RANGE.1));
    let after = context / 20 + 1;
    let wanted = (context + after) as f64;
    let context_start = marker.saturating_sub(context).max(first);
    // The widest span that still fits from `context_start` (less one unit:
    // the zoom is written with 6 decimals and read as a C float).
    let fits_from_context = (last - context_start).saturating_sub(1) as f64 * lo / hi;
    // Else the latest start: the span is bounded by the dump after the
    // marker (`room`) and by the whole dump.
    let room = last.saturating_sub(marker + after) as f64 / (hi / lo - 1.0);
    let from_context = wanted <= fits_from_context;
    let span =
        if from_context { wanted } else { wanted.min(room).min((last - first).saturating_sub(1) as f64 * lo / hi) };
    // GTKWave never zooms in past 0 itself (nspx >= 1/200), so neither do we.
    let zoom_text = |per_px: f64| format!("{:.6}", (-(per_px * 200.0).log2()).min(0.0));
    if span < 2.0 * after as f64 {
        // Too little dump after the marker: the whole dump on the narrowest
        // area, from `first` (GTKWave opens there whatever `[timestart]` says).
        return (zoom_text((last - first + 1) as f64 / lo), first);
    }
    let text = zoom_text(span / lo);
    // The start from the zoom GTKWave will read, so rounding cannot push the
    // page past `last`: the context's start, or the latest that fits.
    let page = hi * nspx(text.parse().unwrap_or(0.0));
    let latest = (last as f64 - page).floor();
    let start = if from_context { (context_start as f64).min(latest) } else { latest.min(marker as f64) };
    (text, start.max(first as f64) as u64)
}

/// The save file text; times are already in GTKWave's units.
pub(super) fn text(
    vcd: &str,
    save: &str,
    groups: &[(String, Vec<String>)],
    widths: &HashMap<String, u32>,
    marker: u64,
    context: u64,
    dump: (u64, u64),
) -> String {
    // A marker outside the dump (not written by the harness) is placed as if
    // at the nearest end; the file still names the real one.
    let (zoom, start) = placement(marker.clamp(dump.0, dump.1.max(dump.0)), context, dump);

    let mut s = String::new();
    let _ = writeln!(s, "[*]\n[*] lockstep mismatch view, written by pcounter-sim\n[*]");
    // Both relative to the save file's own folder: GTKWave opens `[dumpfile]`
    // as given from its working directory, and else (3.3.x
    // `find_dumpfile`) takes the dump's path relative to `[savefile]` and
    // applies it to the save file it was given, so the pair opens from any
    // directory and after the folder is moved or downloaded.
    let _ = writeln!(s, "[dumpfile] \"{vcd}\"");
    let _ = writeln!(s, "[savefile] \"{save}\"");
    let _ = writeln!(s, "[size] {} {}", GTKW_WINDOW.0, GTKW_WINDOW.1);
    let _ = writeln!(s, "[pos] -1 -1");
    let _ = writeln!(s, "[timestart] {start}");
    let _ = write!(s, "*{zoom} {marker}");
    for _ in 0..GTKW_NAMED_MARKERS {
        s.push_str(" -1");
    }
    s.push('\n');
    // Open the hierarchy of every listed signal in the signal search tree.
    let mut open = BTreeSet::new();
    for name in groups.iter().flat_map(|(_, names)| names) {
        for (i, _) in name.match_indices('.') {
            open.insert(&name[..=i]);
        }
    }
    for scope in open {
        let _ = writeln!(s, "[treeopen] {scope}");
    }
    let _ = writeln!(s, "[sst_width] {GTKW_SST_WIDTH}");
    let _ = writeln!(s, "[signals_width] {GTKW_SIGNALS_WIDTH}");
    let _ = writeln!(s, "[sst_expanded] 1");
    let _ = writeln!(s, "[sst_vpaned_height] 300");
    for (group, names) in groups {
        // Flags are hex TR_* bits: 0x800000 group begin, 0x1000000 group end,
        // 0x200 blank (label) row, 0x2 hex, 0x8 binary, 0x20 right-justify.
        let _ = writeln!(s, "@800200\n-{group}");
        for name in names {
            let is_vector = match widths.get(name) {
                Some(&w) => w > 1,
                None => name.ends_with(']') && name.rsplit('[').next().is_some_and(|r| r.contains(':')),
            };
            let _ = writeln!(s, "@{}\n{name}", if is_vector { "22" } else { "28" });
        }
        let _ = writeln!(s, "@1000200\n-{group}");
    }
    let _ = writeln!(s, "[pattern_trace] 1\n[pattern_trace] 0");
    s
}

/// The save file `text` naming `dump` (relative to its folder) as its
/// dump file instead: the same view of the same signals in another format
/// of the same waves (`wave.fst` for `wave.vcd`).
pub fn with_dumpfile(text: &str, dump: &str) -> String {
    text.lines()
        .map(|l| if l.starts_with("[dumpfile] ") { format!("[dumpfile] \"{dump}\"\n") } else { format!("{l}\n") })
        .collect()
}

/// Where GTKWave opens a save file on a wave area `wave_px` wide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct GtkwOpening {
    /// First time shown (GTKWave units).
    pub start: u64,
    /// Time at the right edge.
    pub end: f64,
    /// The primary marker, if the file sets one.
    pub marker: Option<u64>,
    /// `[timestart]` was honoured (not replaced by the dump's first time).
    pub timestart_honoured: bool,
}

/// Reads `gtkw` the way GTKWave 3.3+ does (see the module docs) for a dump
/// spanning `first..=last` and a wave area `wave_px` wide: where the view opens.
pub fn gtkw_opening(gtkw: &str, (first, last): (u64, u64), wave_px: u32) -> GtkwOpening {
    let (mut timestart, mut zoom, mut marker) = (None, None, None);
    for line in gtkw.lines() {
        if let Some(t) = line.strip_prefix("[timestart]") {
            timestart = t.trim().parse::<u64>().ok();
        } else if let Some(rest) = line.strip_prefix('*') {
            let mut f = rest.split_whitespace();
            zoom = f.next().and_then(|z| z.parse::<f32>().ok());
            marker = f.next().and_then(|m| m.parse::<i64>().ok()).and_then(|m| u64::try_from(m).ok());
        }
    }
    let page = match zoom {
        Some(z) => f64::from(wave_px) * nspx(z),
        // No zoom line on a short dump: GTKWave zooms to fit (main.c).
        None if last - first <= 400 => (last - first + 2) as f64,
        None => f64::from(wave_px) * nspx(0.0),
    };
    let honoured = timestart.is_some_and(|t| t >= first && t as f64 <= last as f64 - page);
    let mut start = if honoured { timestart.unwrap_or(first) as f64 } else { first as f64 };
    // fix_wavehadj
    let upper = last as f64 + 2.0;
    if page >= upper - first as f64 {
        start = first as f64;
    } else if start + page > upper {
        start = (upper - page).max(first as f64);
    }
    GtkwOpening { start: start as u64, end: start + page, marker, timestart_honoured: honoured }
}
