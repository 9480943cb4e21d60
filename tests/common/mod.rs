//! Helpers shared by the harness's integration tests (`tests/lockstep.rs`,
//! `tests/mmiotrace.rs`, the PMON and R10K lockstep tests, ...).

use std::fs;
use std::path::{Path, PathBuf};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// An empty folder under target/test-out for one test's artifacts.
pub fn scratch(name: &str) -> PathBuf {
    let d = root().join("target").join("test-out").join(name);
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}

/// A failure folder's `wave.gtkw` opens GTKWave (3.3+) on the mismatch of
/// bus cycle `cycle`: it names `wave.vcd`, sets the primary marker there, and
/// the view contains it at every wave-area width the file is made for
/// (`wave::gtkw` describes GTKWave's rules).
#[allow(dead_code)] // not every test binary that includes this module uses it
pub fn assert_gtkw_opens_on(dir: &Path, cycle: u64, what: &str) {
    use pcounter_sim::engine::wave;
    let gtkw = fs::read_to_string(dir.join("wave.gtkw")).unwrap();
    let t = cycle * 10;
    assert!(gtkw.contains("wave.vcd") && gtkw.contains(&t.to_string()), "{what}: gtkw lacks dumpfile/marker");
    let dump = wave::dump_span(&dir.join("wave.vcd")).unwrap();
    let (lo, hi) = wave::GTKW_WAVE_PX_RANGE;
    for px in [lo, 800, hi] {
        let o = wave::gtkw_opening(&gtkw, dump, px);
        assert!(o.timestart_honoured, "{what}: GTKWave would ignore [timestart] at {px} px: {o:?} dump {dump:?}");
        assert_eq!(o.marker, Some(t), "{what}: primary marker");
        assert!(o.start <= t && t as f64 <= o.end, "{what}: {px} px view {o:?} misses the mismatch at {t}");
    }
}
