//! GTKWave itself, for the tests that open a failure's save file in the
//! real viewer (`make test` installs it with xvfb-run).

use std::fs;
use std::io;
use std::path::Path;

use super::invalid;

/// What GTKWave shows as it opens a save file ([`real_gtkwave_view`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GtkwaveView {
    /// First and last time of the wave area, and the primary marker.
    pub start: u64,
    pub end: u64,
    pub marker: u64,
    /// The format GTKWave read the dump as (`VCD`, `FST`).
    pub dump_type: String,
    /// Every signal name GTKWave knows from the dump, sorted.
    pub facs: Vec<String>,
    /// Each displayed row (group labels included) and its value at the
    /// marker, in display order: the value column as the user reads it.
    pub values: Vec<(String, String)>,
}

/// GTKWave itself under `xvfb-run`, given only the save file `gtkw` and
/// started in `cwd`: what it shows as it opens, read through its Tcl
/// interface. For the tests that check a failure's `.gtkw` in the real
/// viewer (`make test` installs both).
pub fn real_gtkwave_view(cwd: &Path, gtkw: &Path) -> io::Result<GtkwaveView> {
    let tcl = std::env::temp_dir().join(format!("pcnt-gtkw-view-{}.tcl", std::process::id()));
    fs::write(
        &tcl,
        "puts \"VIEW [gtkwave::getWindowStartTime] [gtkwave::getWindowEndTime] [gtkwave::getMarker]\"\n\
         puts \"TYPE [gtkwave::getDumpType]\"\n\
         for {set i 0} {$i < [gtkwave::getNumFacs]} {incr i} { puts \"FAC [gtkwave::getFacName $i]\" }\n\
         for {set i 0} {$i < [gtkwave::getTotalNumTraces]} {incr i} {\n\
         puts \"ROW [gtkwave::getTraceNameFromIndex $i]\\t[gtkwave::getTraceValueAtMarkerFromIndex $i]\" }\n\
         gtkwave::/File/Quit\n",
    )?;
    let out = std::process::Command::new("timeout")
        .args(["120", "xvfb-run", "-a", "gtkwave", "-S"])
        .arg(&tcl)
        .arg(gtkw)
        .current_dir(cwd)
        .output();
    let _ = fs::remove_file(&tcl);
    let out = out?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let no_view = || {
        invalid(format!(
            "no view from gtkwave {} in {}:\n{stdout}{}",
            gtkw.display(),
            cwd.display(),
            String::from_utf8_lossy(&out.stderr)
        ))
    };
    let view = stdout.lines().find_map(|l| l.strip_prefix("VIEW ")).ok_or_else(no_view)?;
    let v: Vec<u64> = view.split_whitespace().filter_map(|x| x.parse().ok()).collect();
    let [start, end, marker] = v[..] else { return Err(invalid(format!("gtkwave's view `{view}`"))) };
    let mut facs: Vec<String> = stdout.lines().filter_map(|l| l.strip_prefix("FAC ")).map(String::from).collect();
    facs.sort();
    let values = stdout
        .lines()
        .filter_map(|l| l.strip_prefix("ROW "))
        .map(|r| r.split_once('\t').unwrap_or((r, "")))
        .map(|(n, v)| (n.to_string(), v.to_string()))
        .collect();
    let dump_type = stdout.lines().find_map(|l| l.strip_prefix("TYPE ")).unwrap_or_default().to_string();
    Ok(GtkwaveView { start, end, marker, dump_type, facs, values })
}
