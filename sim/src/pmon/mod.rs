//! The PMON box (seed 001, issue 14) in the lockstep flow: its Verilated
//! RTL (`ffi`), commands and scripts (`cmd`), random stimulus (`stim`), the
//! lockstep compare (`lockstep`), coverage (`bins`) and the regression and
//! script runs (`runner`), and its `pcnt bench` rows (`bench`).

pub mod bench;
pub mod bins;
pub mod cmd;
pub mod ffi;
pub mod lockstep;
pub mod runner;
pub mod stim;

use crate::engine::entry::{seeds_only, Device, ScriptSample};
use crate::engine::regress;
use crate::engine::script::ScriptError;

/// This device in the registry (`crate::devices::DEVICES`).
pub static DEVICE: Device = Device {
    name: "pmon",
    title: "PMON",
    about: "Intel PMON FPGA IP counter box (seed 001)",
    aliases: &[],
    script_ext: "pms",
    script_help: cmd::help,
    faults: ffi::faults,
    own_options: &[],
    run_script: |name, text, args, o| {
        let base = cmd::Base::from_args(args).map_err(|e| ScriptError::Input(format!("{name}: {e}")))?;
        runner::run_text(name, text, base, o)
    },
    cosim: seeds_only::<runner::Job>,
    summary: |r, secs| regress::print_summary("PMON", r, secs),
    job_label: |j| format!("PMON job {} (seed {})", j.index, j.seed),
    bench_rows: bench::rows,
    round_trip: |file, text, args| {
        let base = cmd::Base::from_args(args).map_err(|e| format!("{file}:0: {e}"))?;
        let parse = |f: &str, t: &str| Ok(cmd::parse(f, t, base)?.into_iter().map(|(_, c)| c).collect::<Vec<_>>());
        crate::engine::entry::round_trip(file, parse, cmd::render, text)
    },
    samples: &[ScriptSample { label: "pmon", head: "device pmon\n", read0: "read 0x08", bad_line: "lane 4 0 1" }],
    plan: "",
};
