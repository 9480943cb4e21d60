//! The MIPS R10000/R12000 event counters (seed 002, issue 17) in the
//! lockstep flow: their Verilated RTL (`ffi`), commands and scripts
//! (`cmd`), random stimulus (`stim`), the lockstep compare (`lockstep`),
//! coverage (`bins`), the regression and script runs (`runner`), and the
//! `pcnt bench` rows (`bench`).

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
    name: "r10k",
    title: "R10K",
    about: "MIPS R10000/R12000 event counters (seed 002)",
    aliases: &[],
    script_ext: "r10k",
    script_help: cmd::help,
    faults: ffi::faults,
    own_options: &[],
    run_script: |name, text, args, o| match args {
        [] | [_] => runner::run_text(name, text, args.first().copied(), o),
        _ => Err(ScriptError::Input(format!("{name}: usage: device r10k [r10000|r12000]"))),
    },
    cosim: seeds_only::<runner::Job>,
    summary: |r, secs| regress::print_summary("R10K", r, secs),
    job_label: |j| format!("R10K job {} (seed {} {})", j.index, j.seed, j.gen),
    bench_rows: bench::rows,
    round_trip: |file, text, _| {
        let parse = |f: &str, t: &str| Ok(cmd::parse(f, t)?.body.into_iter().map(|(_, c)| c).collect::<Vec<_>>());
        crate::engine::entry::round_trip(file, parse, cmd::render, text)
    },
    samples: &[ScriptSample {
        label: "r12000",
        head: "Device R10K r12000\n",
        read0: "read 0x00",
        bad_line: "event 99 1",
    }],
    plan: "",
};
