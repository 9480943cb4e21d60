//! Helpers shared by the harness's integration tests (`tests/pcnt/lockstep.rs`,
//! `tests/pcnt/mmiotrace.rs`, every device's lockstep tests, ...).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// An empty folder under target/test-out for one test's artifacts.
#[allow(dead_code)]
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
    // One timestamp per bus cycle (engine::wave::cycles).
    let t = cycle;
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

/// The first line of a failure's report: `MISMATCH at cycle N: WHAT`, or
/// `ASSERTION FAILED at cycle N: NAME` for an RTL assertion.
#[allow(dead_code)]
pub fn headline(m: &pcounter_sim::engine::mismatch::Mismatch) -> String {
    m.to_string().lines().next().unwrap_or_default().to_string()
}

/// Every fault file: tests/faults/*.fault and each device folder's
/// tests/<name>/faults/*.fault (sim/build.rs builds them all).
#[allow(dead_code)]
pub fn fault_files() -> Vec<PathBuf> {
    let mut dirs = vec![root().join("tests/faults")];
    dirs.extend(fs::read_dir(root().join("tests")).unwrap().flatten().map(|e| e.path().join("faults")));
    let mut v: Vec<PathBuf> = dirs
        .iter()
        .filter(|d| d.is_dir())
        .flat_map(|d| fs::read_dir(d).unwrap().flatten().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "fault"))
        .collect();
    v.sort();
    v.dedup();
    v
}

/// The file of the fault build `fault` (its name, `-` or `_` alike).
#[allow(dead_code)]
pub fn fault_file(fault: &str) -> PathBuf {
    let want = fault.replace('-', "_");
    fault_files()
        .into_iter()
        .find(|p| p.file_stem().is_some_and(|s| s.to_string_lossy().replace('-', "_") == want))
        .unwrap_or_else(|| panic!("no fault file {fault}.fault in tests/faults/ or tests/*/faults/"))
}

/// A fault's `expect:` line (tests/faults/README.md; every fault has one):
/// the failure it causes must name one of the listed registers, outputs or
/// assertions.
#[allow(dead_code)]
pub fn assert_fault_expectation(fault: &str, m: &pcounter_sim::engine::mismatch::Mismatch) {
    let file = fault_file(fault);
    let text = fs::read_to_string(&file).unwrap();
    let list = text
        .lines()
        .find_map(|l| l.strip_prefix("expect:"))
        .unwrap_or_else(|| panic!("{}: no `expect:` line (every fault names what it is about)", file.display()));
    let names: Vec<&str> = list.split(',').map(str::trim).filter(|n| !n.is_empty()).collect();
    assert!(!names.is_empty(), "{}: empty `expect:` line", file.display());
    assert!(
        names.iter().any(|n| m.what.contains(n)),
        "fault {fault} failed on `{}`, not on what its `expect:` names ({})",
        m.what,
        names.join(", ")
    );
    // An assertion fault fails as an assertion, with the assertion's name
    // in the report's first line.
    if names.iter().all(|n| n.ends_with("_A")) {
        let a = m.assertion.as_ref().unwrap_or_else(|| panic!("fault {fault}: `{}` is not an assertion", m.what));
        assert!(names.iter().any(|n| a.instance.contains(n) || a.name.contains(n)), "{a:?}");
    }
}

/// Run a script file of any device through the device registry, as `pcnt
/// script` does; failure artifacts go under target/test-out/script-runs.
/// `Ok(cycles)`, or the message of an input error or a failure.
#[allow(dead_code)]
pub fn run_script(path: &Path, model_only: bool, fault: Option<&str>) -> Result<u64, String> {
    use pcounter_sim::engine::{artifacts::Artifacts, script::ScriptError, script::ScriptOpts};
    let art = Artifacts { out: root().join("target/test-out/script-runs"), window: 100, shrink_secs: 0, wave: None };
    let o = ScriptOpts { model_only, fault, art: &art, quiet: true, packets: None, x_seed: None, max_cycles: None };
    pcounter_sim::devices::run_file(path, &o).map(|(_, cycles)| cycles).map_err(|e| match e {
        ScriptError::Input(m) | ScriptError::Failed(m) => m,
    })
}

/// The registry's name of the device a script file is for.
#[allow(dead_code)]
pub fn script_device(path: &Path) -> &'static str {
    let text = fs::read_to_string(path).unwrap();
    pcounter_sim::devices::split(&path.display().to_string(), &text).unwrap().device.name
}

/// GTKWave itself (under xvfb-run, `make test` installs both) opening the
/// save file `gtkw` alone from the directory `cwd`: what it shows, or None
/// when `PCNT_NO_GTKWAVE=1` skips the check.
#[allow(dead_code)]
pub fn gtkwave_view(cwd: &Path, gtkw: &Path) -> Option<pcounter_sim::engine::wave::GtkwaveView> {
    if std::env::var_os("PCNT_NO_GTKWAVE").is_some_and(|v| v == "1") {
        return None;
    }
    Some(
        pcounter_sim::engine::wave::real_gtkwave_view(cwd, gtkw)
            .unwrap_or_else(|e| panic!("{e} (make test installs gtkwave and xvfb-run; PCNT_NO_GTKWAVE=1 skips)")),
    )
}

/// `pcnt ARGS` run in `dir`.
#[allow(dead_code)]
pub fn pcnt_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_pcnt")).args(args).current_dir(dir).output().unwrap()
}

/// `pcnt ARGS` run in the repository root.
#[allow(dead_code)]
pub fn pcnt(args: &[&str]) -> Output {
    pcnt_in(&root(), args)
}

/// A run's (stdout, stderr) as text.
#[allow(dead_code)]
pub fn text(o: &Output) -> (String, String) {
    (String::from_utf8_lossy(&o.stdout).into_owned(), String::from_utf8_lossy(&o.stderr).into_owned())
}

/// `pcnt merge FILES`: (exit status, stdout, stderr).
#[allow(dead_code)]
pub fn merge(files: &[&str]) -> (Option<i32>, String, String) {
    let o = pcnt(&[&["merge"][..], files].concat());
    let (out, err) = text(&o);
    (o.status.code(), out, err)
}

/// Shard `shard` (I/N) of a short regression, `pcnt cosim ARGS`, results to
/// `json`, artifacts under `out`; it must pass. Returns (stdout, stderr).
#[allow(dead_code)]
pub fn cosim_shard(args: &[&str], shard: &str, json: &str, out: &str) -> (String, String) {
    let a = [&["cosim"][..], args, &["--no-progress", "--shard", shard, "--json", json, "--out", out]].concat();
    let r = pcnt(&a);
    let (o, e) = text(&r);
    assert_eq!(r.status.code(), Some(0), "{a:?}:\n{o}{e}");
    (o, e)
}

/// Copies `from` into `to` (files only, recursively).
#[allow(dead_code)]
pub fn copy_tree(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        let dest = to.join(p.file_name().unwrap());
        if p.is_dir() {
            copy_tree(&p, &dest);
        } else {
            fs::copy(&p, &dest).unwrap();
        }
    }
}
