//! The `pcnt` command line as clap definitions: every subcommand, option and
//! typed value. Values are checked here, against the lists the binary links
//! in (generations, layouts, Verilated domain counts, fault builds), so a bad
//! value is a usage error (exit 2) before anything runs.

use std::path::PathBuf;

use clap::builder::PossibleValuesParser;
use clap::{Args, Parser, Subcommand, ValueEnum};
use pcounter::pcnt::regs::Gen;
use pcounter_sim::pcnt::ffi::Rtl;
use pcounter_sim::pcnt::script;

/// Most seeds one `cosim` runs (the job list is built before the first run,
/// so an absurd count would abort on allocation).
pub const MAX_SEEDS: u64 = 1_000_000;

#[derive(Parser, Debug)]
#[command(
    name = "pcnt",
    // The crate's version and the pinned Verilator its builds were made
    // with (sim/build.rs checks the pin).
    version = concat!(env!("CARGO_PKG_VERSION"), ", RTL built with ", env!("PCNT_VERILATOR")),
    about = "PCOUNTER lockstep harness: the Verilated RTL and the Rust model, cycle by cycle",
    after_help = EXIT_STATUS,
    arg_required_else_help = true,
    disable_help_subcommand = false
)]
pub struct Cli {
    #[command(subcommand)]
    pub cmd: Cmd,
}

/// The exit statuses of `pcnt` (README "Exit status" has the same table).
pub const EXIT_STATUS: &str = "Exit status (cosim, script, merge and the other commands):
  0  pass
  1  a failure: RTL/model mismatch, failed script expectation, RTL assertion
  2  bad input: usage, a malformed script or file, an output folder that cannot be written
  3  an injected fault (--fault) ran and nothing failed: the fault was not detected";

#[derive(Subcommand, Debug)]
pub enum Cmd {
    /// Random lockstep regression: seeds x domain counts, generation rotating with the seed
    #[command(after_help = EXIT_STATUS)]
    Cosim(CosimArgs),
    /// Merge the --json results of the shards of a regression (per device, a summary each); fails on a failure or a missing job
    Merge {
        /// Results files written by `cosim --json`
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
    },
    /// Run scenario script(s) in lockstep (or on the model alone)
    #[command(after_help = script_help())]
    Script(ScriptArgs),
    /// Decode record packets from a packet log (`script --packets`) or a raw memory image
    RecordDump(RecordDumpArgs),
    /// Turn a Linux mmiotrace log's PCOUNTER accesses into a script (stdout, or --out)
    #[command(name = "import-mmiotrace")]
    ImportMmiotrace(ImportArgs),
    /// Throughput table: model alone, RTL alone, lockstep, tracing
    Bench {
        #[arg(long, default_value = "1", value_parser = num, value_name = "S")]
        seed: u64,
        #[arg(long, default_value = "300000", value_parser = cycles, value_name = "C")]
        cycles: u64,
        /// Folder of the results (created when missing)
        #[arg(long, default_value = "out", value_name = "DIR")]
        out: PathBuf,
        /// Only the configurations whose label contains TEXT (e.g. "8 domains", "GF100")
        #[arg(long, value_name = "TEXT")]
        only: Option<String>,
        /// Modes to run, comma-separated: model, rtl, lockstep, trace
        #[arg(long, default_value = "model,rtl,lockstep,trace", value_parser = bench_modes, value_name = "LIST")]
        modes: BenchModes,
    },
    /// List the injected-fault builds linked in
    Faults,
    /// Print a shell completion script (e.g. `pcnt completions bash > /etc/bash_completion.d/pcnt`)
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

fn script_help() -> String {
    format!("{}\n\n{EXIT_STATUS}", script_commands())
}

fn script_commands() -> String {
    let devices = pcounter_sim::devices::DEVICES.iter().enumerate().map(|(i, d)| {
        let head = if i == 0 {
            "Script commands (one per line, `#` starts a comment; no `device` line: PCOUNTER):".to_string()
        } else {
            format!("{} scripts (a `device {}` line first), {}:", d.title, d.name, d.about)
        };
        format!("{head}\n{}", (d.script_help)())
    });
    devices.collect::<Vec<_>>().join("\n")
}

#[derive(Args, Debug)]
pub struct CosimArgs {
    /// Device to run (the options marked PCOUNTER are refused for the others)
    #[arg(long, default_value = "pcnt", value_parser = device_parser(), value_name = "DEVICE")]
    pub device: String,
    /// First seed
    #[arg(long, default_value = "1", value_parser = num, value_name = "S")]
    pub seed: u64,
    /// Number of seeds (1..=1000000)
    #[arg(long, default_value = "28", value_parser = seeds, value_name = "N")]
    pub seeds: u64,
    /// Bus cycles per run
    #[arg(long, default_value = "200000", value_parser = cycles, value_name = "C")]
    pub cycles: u64,
    /// PCOUNTER: domain counts, comma-separated (those with a Verilated build) [default: 1,2,8]
    #[arg(long, value_delimiter = ',', value_parser = built_domains, value_name = "N,...")]
    pub domains: Option<Vec<usize>>,
    /// PCOUNTER: generations the runs rotate over, comma-separated, or all; each domain count rotates over those that have that many domains (nv10/nv15 1, nv20/nv30 2, nv40+ 8) [default: all]
    #[arg(long, value_delimiter = ',', value_parser = gen_parser(), value_name = "GEN,...")]
    pub gen: Option<Vec<String>>,
    /// Run on this injected-fault build (its domain count: 2, 1 for the gate faults of `make gatesim`; on the generations of the fault's `gens:` line; `pcnt faults` lists them)
    #[arg(long, value_parser = fault_parser(), value_name = "NAME")]
    pub fault: Option<String>,
    #[command(flatten)]
    pub art: ArtArgs,
    /// Fail when a bin of docs/coverage-plan.md is unhit
    #[arg(long)]
    pub coverage_gate: bool,
    /// How much coverage to print: the bin table, or only the summary lines
    #[arg(long, value_enum, default_value = "table", value_name = "HOW")]
    pub coverage: CoverageShow,
    /// Coverage plan to close against instead of the docs/coverage-plan.md built into pcnt
    #[arg(long, value_name = "FILE")]
    pub plan: Option<PathBuf>,
    /// PCOUNTER: harness self-test: flip an RTL flop at this cycle
    #[arg(long, value_parser = num, value_name = "CYCLE")]
    pub corrupt_at: Option<u64>,
    /// PCOUNTER: every run on this signal layout, or GF100 preset with --gen gf100 (default: from the seed)
    #[arg(long, value_parser = layout_parser(), value_name = "LAYOUT")]
    pub layout: Option<String>,
    /// PCOUNTER: every run with this decode (default: from the seed)
    #[arg(long, value_enum, value_name = "DECODE")]
    pub decode: Option<Decode>,
    /// No progress bar or progress lines
    #[arg(long)]
    pub no_progress: bool,
    /// Worker threads (default: all cores)
    #[arg(long, value_parser = jobs, value_name = "N")]
    pub jobs: Option<usize>,
    /// Run shard I of N of the plan (jobs whose index is I modulo N)
    #[arg(long, default_value = "0/1", value_parser = shard, value_name = "I/N")]
    pub shard: (usize, usize),
    /// Write the results here as JSON, for `pcnt merge` (folders created)
    #[arg(long, value_name = "FILE")]
    pub json: Option<PathBuf>,
    /// Write JUnit XML here: a test case per run (folders created)
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

/// Where failures go and how much of a run the waves cover.
#[derive(Args, Debug)]
pub struct ArtArgs {
    /// Folder of failure artifacts and coverage.json (created when missing)
    #[arg(long, default_value = "out", value_name = "DIR")]
    pub out: PathBuf,
    /// Bus cycles of the waves before a mismatch (1..=100000)
    #[arg(long, default_value = "2000", value_parser = window, value_name = "N")]
    pub window: u64,
    /// Format of a failure's waves [default: vcd up to a 10000-cycle window, fst above]
    #[arg(long, value_enum, value_name = "FORMAT")]
    pub wave: Option<WaveArg>,
    /// Time budget for shrinking a failure's stimulus to minimal.EXT (0: off)
    #[arg(long, default_value = "120", value_parser = num, value_name = "S")]
    pub shrink_secs: u64,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum WaveArg {
    /// wave.vcd: text, any viewer
    Vcd,
    /// wave.fst: compressed, for GTKWave (a tenth of the VCD or less)
    Fst,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum CoverageShow {
    /// every bin with its count, then the summary
    Table,
    /// the summary lines only (hit/counted, unhit, unplanned, whether the gate applied)
    Summary,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub enum Decode {
    /// PSLVERR for holes (StrictDecode = 1)
    Strict,
    /// the hardware's decode: holes read 0, no PSLVERR
    Lax,
}

#[derive(Args, Debug)]
pub struct ScriptArgs {
    /// Scenario scripts (the first command names the device, PCOUNTER without one; `-` reads stdin)
    #[arg(required = true, value_name = "FILE")]
    pub files: Vec<PathBuf>,
    /// Run the model alone (no RTL)
    #[arg(long)]
    pub model_only: bool,
    /// Run on this injected-fault build (`pcnt faults` lists them)
    #[arg(long, value_parser = fault_parser(), value_name = "NAME")]
    pub fault: Option<String>,
    #[command(flatten)]
    pub art: ArtArgs,
    /// Do not print the values read
    #[arg(long)]
    pub quiet: bool,
    /// PCOUNTER: write the model's record packets to LOG (one FILE only; folders created)
    #[arg(long, value_name = "LOG")]
    pub packets: Option<PathBuf>,
    /// Seed of the RTL's random initial values for scripts without an `xseed` line
    #[arg(long, value_parser = u32_num, value_name = "N")]
    pub xseed: Option<u32>,
    /// Most bus cycles a script may run (default 10000000); a longer script is refused at its wait
    #[arg(long, value_parser = cycles, value_name = "N")]
    pub max_cycles: Option<u64>,
    /// Write JUnit XML here: a test case per script (folders created)
    #[arg(long, value_name = "FILE")]
    pub junit: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct RecordDumpArgs {
    /// Packet log (`pcnt script --packets`) or, with --image, a raw memory image
    pub file: PathBuf,
    /// FILE is a raw memory image of the record buffer
    #[arg(long)]
    pub image: bool,
    /// Bus address of the image's first byte
    #[arg(long, default_value = "0", value_parser = num, value_name = "ADDR")]
    pub base: u64,
    /// Packet format of the image
    #[arg(long, value_enum, default_value = "long")]
    pub format: Format,
    /// Domain of the image's packets
    #[arg(long, default_value = "0", value_parser = domain_index, value_name = "N")]
    pub domain: usize,
    /// Also write the packets as CSV (folders created)
    #[arg(long, value_name = "OUT")]
    pub csv: Option<PathBuf>,
    /// Also draw the packets as SVG (folders created)
    #[arg(long, value_name = "OUT")]
    pub svg: Option<PathBuf>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Format {
    Long,
    Short,
}

#[derive(Args, Debug)]
pub struct ImportArgs {
    /// Linux mmiotrace log
    pub file: PathBuf,
    /// Write the script here (default: stdout; with --run, OUT_DIR/<trace name>.pcs)
    #[arg(long, value_name = "SCRIPT")]
    pub out: Option<PathBuf>,
    /// Folder of the default script with --run and of failure artifacts (created when missing)
    #[arg(long, default_value = "out", value_name = "OUT_DIR")]
    pub out_dir: PathBuf,
    /// Generation of the script (default: from the trace)
    #[arg(long, value_parser = PossibleValuesParser::new(script::GENS), value_name = "GEN")]
    pub gen: Option<String>,
    /// Domain count of the script (1..=8, at most the generation's: nv10/nv15 1, nv20/nv30 2)
    #[arg(long, value_parser = domain_count, value_name = "N")]
    pub domains: Option<usize>,
    /// GF100+ preset of the script (gen gf100; default: the chipset's, or the first that holds every domain the trace addresses)
    #[arg(long, value_parser = PossibleValuesParser::new(script::GF_PRESETS), value_name = "PRESET")]
    pub layout: Option<String>,
    /// Also run it (lockstep) and print each read beside the traced value
    #[arg(long)]
    pub run: bool,
    /// Run it on the model alone (implies --run)
    #[arg(long)]
    pub model_only: bool,
}

/// Decimal or 0x-hex, `_` separators allowed (as in scripts).
pub fn num(v: &str) -> Result<u64, String> {
    let t = v.replace('_', "");
    let r = match t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    };
    r.map_err(|_| "expected a decimal or 0x-hex number".to_string())
}

fn in_range(v: &str, lo: u64, hi: u64, what: &str) -> Result<u64, String> {
    let n = num(v)?;
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{n} out of range ({what})"))
    }
}

fn seeds(v: &str) -> Result<u64, String> {
    in_range(v, 1, MAX_SEEDS, &format!("1..={MAX_SEEDS}: at most {MAX_SEEDS} seeds per run"))
}

fn window(v: &str) -> Result<u64, String> {
    let max = pcounter_sim::engine::artifacts::WINDOW_MAX;
    in_range(v, 1, max, &format!("1..={max}: at most {max} cycles of waves before a mismatch"))
}

fn cycles(v: &str) -> Result<u64, String> {
    in_range(v, 1, u64::MAX, "at least 1")
}

/// `--modes` of `pcnt bench`.
#[derive(Clone, Debug)]
pub struct BenchModes(pub Vec<pcounter_sim::bench::Mode>);

fn bench_modes(v: &str) -> Result<BenchModes, String> {
    let mut modes = Vec::new();
    for w in v.split(',') {
        let m = pcounter_sim::bench::Mode::parse(w.trim())
            .ok_or_else(|| format!("unknown mode '{w}': expected model, rtl, lockstep or trace"))?;
        if !modes.contains(&m) {
            modes.push(m);
        }
    }
    Ok(BenchModes(modes))
}

fn jobs(v: &str) -> Result<usize, String> {
    in_range(v, 1, 4096, "1..=4096").map(|n| n as usize)
}

fn u32_num(v: &str) -> Result<u32, String> {
    in_range(v, 0, u64::from(u32::MAX), "a u32").map(|n| n as u32)
}

fn domain_count(v: &str) -> Result<usize, String> {
    in_range(v, 1, script::MAX_DOMAINS as u64, "1..=8").map(|n| n as usize)
}

fn domain_index(v: &str) -> Result<usize, String> {
    in_range(v, 0, script::MAX_DOMAINS as u64 - 1, "0..=7").map(|n| n as usize)
}

/// A domain count the lockstep can run: one with a Verilated build linked in.
fn built_domains(v: &str) -> Result<usize, String> {
    let n = domain_count(v)?;
    let built = Rtl::domain_counts();
    if built.contains(&n) {
        Ok(n)
    } else {
        let list: Vec<String> = built.iter().map(|d| d.to_string()).collect();
        Err(format!("no Verilated build for {n} domain(s) (built: {})", list.join(", ")))
    }
}

fn shard(v: &str) -> Result<(usize, usize), String> {
    let parsed = v.split_once('/').and_then(|(i, n)| Some((i.parse::<usize>().ok()?, n.parse::<usize>().ok()?)));
    match parsed {
        Some((i, n)) if n >= 1 && i < n => Ok((i, n)),
        _ => Err("expected I/N with 0 <= I < N".into()),
    }
}

fn gen_parser() -> impl clap::builder::TypedValueParser<Value = String> {
    PossibleValuesParser::new(
        std::iter::once("all").chain(Gen::ALL.iter().map(|g| g.name())).chain(std::iter::once("gf100")),
    )
}

fn layout_parser() -> impl clap::builder::TypedValueParser<Value = String> {
    PossibleValuesParser::new(
        pcounter::pcnt::config::Layout::NAMES.iter().chain(pcounter::pcnt::gf100::config::PRESETS).copied(),
    )
}

/// The fault names as a value enum generated from the builds linked in.
/// Every fault build of every device (the command checks the device).
fn fault_parser() -> impl clap::builder::TypedValueParser<Value = String> {
    PossibleValuesParser::new(all_faults())
}

/// The registry's devices (`make cosim DEVICE=`).
fn device_parser() -> impl clap::builder::TypedValueParser<Value = String> {
    PossibleValuesParser::new(
        pcounter_sim::devices::DEVICES.iter().map(|d| clap::builder::PossibleValue::new(d.name).help(d.about)),
    )
}

/// Every fault: each fault file's (built into this binary or not: the
/// command says how to build it), then any other build linked in (`make
/// gatesim`'s edited gates), the registry's devices in order.
pub fn all_faults() -> Vec<&'static str> {
    let files = pcounter_sim::engine::entry::FAULT_FILES;
    let linked = pcounter_sim::devices::DEVICES.iter().flat_map(|d| (d.faults)());
    files.iter().copied().chain(linked.filter(|f| !files.contains(f))).collect()
}
