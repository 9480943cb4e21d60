//! The PCOUNTER device in the lockstep flow (seed 003).

pub mod axi_mem;
pub mod bench;
pub mod dump;
pub mod ffi;
pub mod gf100;
pub mod lockstep;
pub mod mmiotrace;
pub mod runner;
pub mod script;
pub mod stim;

use crate::engine::entry::{no_args, Device, ScriptSample};
use crate::engine::regress::DEVICE_OPTIONS;

/// This device in the registry (`crate::devices::DEVICES`).
pub static DEVICE: Device = Device {
    name: "pcnt",
    title: "PCOUNTER",
    about: "NVIDIA PCOUNTER, NV10 to GF100 (seed 003)",
    aliases: &["pcounter"],
    script_ext: "pcs",
    script_help: script::help,
    faults: || {
        let mut v = crate::pcnt::ffi::Rtl::faults();
        v.extend(gf100::ffi::faults());
        v
    },
    own_options: DEVICE_OPTIONS,
    run_script: |name, text, args, o| {
        no_args("pcnt", name, args)?;
        runner::run_text(name, text, o)
    },
    cosim: runner::cosim_with,
    summary: runner::print_summary,
    job_label: |j| format!("job {} (seed {} {} d{})", j.index, j.seed, j.gen, j.domains),
    bench_rows: |t, seed, cycles, out| {
        bench::rows(t, seed, cycles, out)?;
        bench::gf100_rows(t, seed, cycles, out)
    },
    round_trip: |file, text, _| {
        let s = script::parse(file, text).map_err(|e| e.to_string())?;
        let rendered = script::render(&s);
        Ok(match script::parse("rendered", &rendered) {
            Err(e) => Some(format!("the render of a parsed script does not parse: {e}\n{rendered}")),
            Ok(again) if again != s.compact() => {
                Some(format!("the render/parse round trip changed the script:\n{rendered}"))
            }
            Ok(_) => None,
        })
    },
    samples: &[
        ScriptSample { label: "nv40", head: "gen nv40\ndomains 1\n", read0: "read 0xa400", bad_line: "frob 1" },
        ScriptSample { label: "gf100", head: "gen gf100\nlayout fermi\n", read0: "read 0x180098", bad_line: "wait 0x" },
    ],
    plan: "",
};
