//! What a device gives the registry (`crate::devices::DEVICES`): its
//! [`Device`] entry, defined in the device's own module, and the helpers
//! such entries share. Here, below every device, so a device and the
//! registry that lists it do not import each other.

use std::path::Path;

use super::bench::Table;
use super::regress::{self, DeviceArgs, Opts};
use super::results::{JobResult, ShardOpts};
use super::script::{show, ScriptError, ScriptOpts};

include!(concat!(env!("OUT_DIR"), "/fault_names.rs"));

/// One device: what the engine and the CLI need above one lockstep run.
pub struct Device {
    /// Registry key and `--device` value (`pcnt`, `toy`, ...).
    pub name: &'static str,
    /// Name in summaries and messages (`PCOUNTER`, `TOY`, ...).
    pub title: &'static str,
    /// What `--device` help says it is, with its seed.
    pub about: &'static str,
    /// Other names a script's device line may use (besides `name`).
    pub aliases: &'static [&'static str],
    /// Extension of the device's scripts (and of saved stimulus).
    pub script_ext: &'static str,
    /// Its script commands, one usage line each (`pcnt script --help`).
    pub script_help: fn() -> String,
    /// The injected-fault builds linked in.
    pub faults: fn() -> Vec<&'static str>,
    /// Options of [`DEVICE_OPTIONS`](super::regress::DEVICE_OPTIONS) this device takes (the CLI refuses
    /// the others, naming the device).
    pub own_options: &'static [&'static str],
    /// Run the script `text` named `name` (device line blanked; the rest
    /// of that line): parsed, its cycle bound checked before any cycle
    /// runs, then run; a failure writes the engine's artifacts.
    pub run_script: fn(name: &str, text: &str, args: &[&str], o: &ScriptOpts) -> Result<u64, ScriptError>,
    /// The random regression (shard `s` of it); the number of failing runs.
    pub cosim: fn(o: &Opts, a: &DeviceArgs, s: &ShardOpts) -> Result<usize, String>,
    /// The summary line of a passing regression (also `pcnt merge`'s).
    pub summary: fn(results: &[JobResult], wall_secs: f64),
    /// A job of a results file in messages (`job 3 (seed 4 g84 d2)`).
    pub job_label: fn(&JobResult) -> String,
    /// Its rows of `pcnt bench` (those the table selects).
    pub bench_rows: fn(&mut Table, u64, u64, &Path) -> Result<(), String>,
    /// The reader's round trip (the fuzz checks, tests/fuzz/checks.rs):
    /// parse the script `text` named `file` (device line blanked, `args` its
    /// arguments), render the commands and parse that again. `Ok(None)`: the
    /// same commands; `Ok(Some(why))`: the round trip changed them;
    /// `Err("FILE:LINE: message")`: the reader refuses the script.
    pub round_trip: RoundTrip,
    /// Scripts of its format for the tests of the guarantees every device
    /// keeps (tests/guarantees.rs), one per configuration worth its own run.
    pub samples: &'static [ScriptSample],
    /// Its coverage plan rows when they are not in docs/coverage-plan.md
    /// (a device kept outside the tree's docs, as the toy under tests/).
    pub plan: &'static str,
}

/// A script sample of a device's format: the configuration lines (the
/// device line among them; none is PCOUNTER's default), a read of a
/// register that is 0 after reset, and a line that is no command of the
/// format.
pub struct ScriptSample {
    pub label: &'static str,
    pub head: &'static str,
    pub read0: &'static str,
    pub bad_line: &'static str,
}

/// See [`Device::round_trip`].
pub type RoundTrip = fn(file: &str, text: &str, args: &[&str]) -> Result<Option<String>, String>;

/// [`Device::round_trip`] of a reader `parse` and renderer `render` over the
/// commands, whatever they are.
pub fn round_trip<C: PartialEq + std::fmt::Debug>(
    file: &str,
    parse: impl Fn(&str, &str) -> Result<Vec<C>, String>,
    render: impl Fn(&[C]) -> String,
    text: &str,
) -> Result<Option<String>, String> {
    let cmds = parse(file, text)?;
    let rendered = render(&cmds);
    Ok(match parse("rendered", &rendered) {
        Err(e) => Some(format!("the render of a parsed script does not parse: {e}\n{rendered}")),
        Ok(again) if again != cmds => Some(format!("the render/parse round trip changed the script:\n{rendered}")),
        Ok(_) => None,
    })
}

/// A device with one build per seed, run by the engine's regression
/// (`engine::regress`): its device-specific options are none.
pub fn seeds_only<J: regress::Job>(o: &Opts, _: &DeviceArgs, s: &ShardOpts) -> Result<usize, String> {
    regress::cosim_shard::<J>(o, s)
}

pub fn no_args(device: &str, name: &str, args: &[&str]) -> Result<(), ScriptError> {
    match args.first() {
        None => Ok(()),
        Some(a) => Err(ScriptError::Input(format!("{name}: unexpected '{}' after 'device {device}'", show(a)))),
    }
}
