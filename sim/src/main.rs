//! `pcnt`: command line of the PCOUNTER lockstep harness (clap; the
//! options and their typed values are in `cli.rs`). `pcnt --help` and
//! `pcnt <command> --help` describe them:
//!
//!   pcnt cosim  [--seed S] [--seeds N] [--cycles C] [--domains 1,2,8] [--gen all|nv40,g84,...]
//!               [--fault NAME] [--out DIR] [--window N] [--no-progress] [--jobs N]
//!               [--shard I/N] [--json FILE] [--shrink-secs S] [--coverage-gate]
//!               [--corrupt-at CYCLE] [--layout default|real|odd] [--decode strict|lax]
//!   pcnt merge  FILE...
//!   pcnt script FILE... [--model-only] [--fault NAME] [--out DIR] [--window N] [--quiet]
//!               [--packets LOG] [--xseed N] [--max-cycles N]
//!   pcnt record-dump FILE [--image --base ADDR --format long|short --domain N]
//!               [--csv OUT] [--svg OUT]
//!   pcnt import-mmiotrace FILE [--out SCRIPT] [--gen GEN] [--domains N] [--layout PRESET] [--run] [--model-only]
//!   pcnt bench  [--seed S] [--cycles C] [--out DIR] [--only TEXT] [--modes model,rtl,lockstep,trace]
//!   pcnt faults
//!   pcnt completions bash|zsh|fish|elvish|powershell
//!
//! Exit status: 0 pass, 1 mismatch or failed expectation, 2 bad input (clap's
//! usage errors included), 3 an injected fault not detected (`--fault`, no
//! failure). Every output folder is created when missing.

mod cli;

use std::path::Path;
use std::process::ExitCode;

use clap::{CommandFactory as _, Parser as _};
use cli::{Cli, Cmd, CosimArgs, Decode, Format, ImportArgs, RecordDumpArgs, ScriptArgs};
use pcounter_sim::devices;
use pcounter_sim::engine::artifacts::WaveFormat;
use pcounter_sim::engine::regress::{self, Opts};
use pcounter_sim::engine::results::ShardOpts;
use pcounter_sim::pcnt::runner::{self, Artifacts, ScriptError, ScriptOpts};
use pcounter_sim::pcnt::script::{self, Cmd as ScriptCmd, Expect};

fn main() -> ExitCode {
    // Like any Unix tool: a closed pipe (`pcnt ... | head`) ends the process
    // quietly instead of panicking in println!.
    // SAFETY: setting a signal disposition before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // clap prints help (exit 0) or a usage error (exit 2) and exits here.
    let cli = Cli::parse();
    match run(cli.cmd) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("pcnt: {e}");
            ExitCode::from(2)
        }
    }
}

/// The artifacts options, after checking that the output folder can be
/// created and written: a run that cannot write its failure artifacts, its
/// coverage or its results is refused before it starts.
fn artifacts(a: &cli::ArtArgs) -> Result<Artifacts, String> {
    let probe = a.out.join(format!(".pcnt-write-check-{}", std::process::id()));
    std::fs::create_dir_all(&a.out)
        .and_then(|_| std::fs::write(&probe, b""))
        .and_then(|_| std::fs::remove_file(&probe))
        .map_err(|e| format!("--out {}: cannot write there: {e}", a.out.display()))?;
    let wave = a.wave.map(|w| match w {
        cli::WaveArg::Vcd => WaveFormat::Vcd,
        cli::WaveArg::Fst => WaveFormat::Fst,
    });
    Ok(Artifacts { out: a.out.clone(), window: a.window, shrink_secs: a.shrink_secs, wave })
}

fn run(cmd: Cmd) -> Result<u8, String> {
    match cmd {
        Cmd::Cosim(a) => cosim(a),
        Cmd::Script(a) => scripts(a),
        Cmd::Bench { seed, cycles, out, only, modes } => {
            let mut table = pcounter_sim::bench::Table::new(only, modes.0);
            // A missed target is the command's failure (exit 1).
            let missed = pcounter_sim::bench::bench(&mut table, seed, cycles, &out)?;
            Ok(u8::from(missed > 0))
        }
        Cmd::Merge { files } => pcounter_sim::merge::merge(&files).map_err(|e| e.to_string()),
        Cmd::RecordDump(a) => record_dump(a),
        Cmd::ImportMmiotrace(a) => import_mmiotrace(a),
        Cmd::Faults => {
            for f in cli::all_faults() {
                println!("{f}");
            }
            Ok(0)
        }
        Cmd::Completions { shell } => {
            clap_complete::generate(shell, &mut Cli::command(), "pcnt", &mut std::io::stdout());
            Ok(0)
        }
    }
}

fn cosim(a: CosimArgs) -> Result<u8, String> {
    for (opt, list) in
        [("--domains", a.domains.as_ref().map(|d| d.iter().map(|n| n.to_string()).collect())), ("--gen", a.gen.clone())]
    {
        let list: Vec<String> = list.unwrap_or_default();
        if let Some(v) = list.iter().enumerate().find_map(|(i, v)| list[..i].contains(v).then_some(v)) {
            return Err(format!("{opt} {}: {v} given twice (each runs once)", list.join(",")));
        }
    }
    let jobs = a.jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    let device = devices::by_name(&a.device).expect("every --device value is a registered device");
    let own = devices::DeviceArgs {
        domains: a.domains,
        gen: a.gen,
        layout: a.layout,
        strict: a.decode.map(|d| matches!(d, Decode::Strict)),
        corrupt_at: a.corrupt_at,
    };
    // An option the device does not take is refused, not dropped.
    if let Some(opt) = own.given().into_iter().find(|o| !device.own_options.contains(o)) {
        return Err(format!(
            "{opt} is a PCOUNTER option: not with --device {} (the {} takes --seed, --seeds, --cycles, --fault, \
             --out, --window, --shrink-secs, --coverage-gate, --jobs, --shard, --json)",
            device.name, device.title
        ));
    }
    if let Some(f) = a.fault.as_deref() {
        let owner = devices::linked_fault(f)?;
        if owner.name != device.name {
            return Err(format!("fault {f} is a {} fault: run it with --device {}", owner.title, owner.name));
        }
    }
    if a.seed.checked_add(a.seeds - 1).is_none() {
        return Err(format!(
            "--seed {} --seeds {}: the last seed would pass 2^64 - 1 (at most --seeds {})",
            a.seed,
            a.seeds,
            u64::MAX - a.seed + 1
        ));
    }
    if let Some(c) = a.corrupt_at.filter(|&c| c >= a.cycles) {
        return Err(format!(
            "--corrupt-at {c}: past the end of every run (--cycles {}: cycles 0..{})",
            a.cycles,
            a.cycles - 1
        ));
    }
    let o = Opts {
        seed: a.seed,
        seeds: a.seeds,
        cycles: a.cycles,
        fault: a.fault,
        art: artifacts(&a.art)?,
        progress: !a.no_progress,
        jobs,
        coverage_gate: a.coverage_gate,
        coverage_table: a.coverage == cli::CoverageShow::Table,
        coverage_plan: match &a.plan {
            None => devices::plan(),
            Some(p) => {
                let text = std::fs::read_to_string(p).map_err(|e| format!("--plan {}: {e}", p.display()))?;
                if pcounter_sim::engine::coverage::plan_rows(&text).is_empty() {
                    return Err(format!(
                        "--plan {}: no coverage bins (expected `| bin | ... |` table rows)",
                        p.display()
                    ));
                }
                text
            }
        },
    };
    let shard = ShardOpts { shard: a.shard, json: a.json, junit: a.junit };
    let failed = (device.cosim)(&o, &own, &shard)?;
    Ok(match (failed, &o.fault) {
        (0, None) => 0,
        (0, Some(_)) => regress::EXIT_UNDETECTED,
        _ => 1,
    })
}

fn scripts(a: ScriptArgs) -> Result<u8, String> {
    if a.packets.is_some() && a.files.len() > 1 {
        return Err("script: --packets takes one FILE".into());
    }
    if a.files.iter().filter(|f| f.as_os_str() == "-").count() > 1 {
        return Err("script: `-` (stdin) can be read once only".into());
    }
    let art = artifacts(&a.art)?;
    let o = ScriptOpts {
        model_only: a.model_only,
        fault: a.fault.as_deref(),
        art: &art,
        quiet: a.quiet,
        packets: a.packets.as_deref(),
        x_seed: a.xseed,
        max_cycles: a.max_cycles,
    };
    let mut code = 0;
    let mut cases = Vec::new();
    for f in &a.files {
        // Read once: a pipe, a FIFO or stdin has nothing left for a second read.
        let name = if f.as_os_str() == "-" { "stdin".to_string() } else { f.display().to_string() };
        let t0 = std::time::Instant::now();
        let run = devices::read_script(f).map_err(ScriptError::Input).and_then(|t| devices::run_script(&name, &t, &o));
        let mut failure = None;
        match run {
            Ok((d, cycles)) if a.fault.is_some() => {
                let f = a.fault.as_deref().unwrap_or_default();
                println!("NOT DETECTED {name}: fault {f} ({cycles} cycles, {})", d.title);
                code = worst(code, regress::EXIT_UNDETECTED);
                failure = Some((format!("fault {f} not detected"), String::new()));
            }
            Ok((d, cycles)) => {
                let dev = if d.name == devices::DEVICES[0].name { String::new() } else { format!("{}, ", d.title) };
                println!("PASS {name} ({cycles} cycles, {dev}{})", if a.model_only { "model only" } else { "lockstep" })
            }
            Err(ScriptError::Input(e)) => {
                eprintln!("{e}");
                code = worst(code, 2);
                failure = Some(("malformed script".to_string(), e));
            }
            Err(ScriptError::Failed(e)) => {
                eprintln!("FAIL {e}");
                code = worst(code, 1);
                failure = Some((e.lines().next().unwrap_or("failed").to_string(), e));
            }
        }
        cases.push(pcounter_sim::engine::junit::Case {
            name,
            secs: t0.elapsed().as_secs_f64(),
            failure,
            skipped: false,
        });
    }
    if let Some(path) = &a.junit {
        pcounter_sim::engine::junit::write(path, "pcnt script", &cases)?;
    }
    Ok(code)
}

/// The status of several scripts: bad input over a failure over a fault
/// not detected over a pass.
fn worst(a: u8, b: u8) -> u8 {
    let rank = |c: u8| [0, regress::EXIT_UNDETECTED, 1, 2].iter().position(|&x| x == c).unwrap_or(4);
    if rank(b) > rank(a) {
        b
    } else {
        a
    }
}

/// Writes `text` to `path`, creating its folder first.
fn write_out(path: &Path, text: &str) -> Result<(), String> {
    runner::write_file(path, text).map_err(|e| format!("{}: cannot write: {e}", path.display()))
}

fn record_dump(a: RecordDumpArgs) -> Result<u8, String> {
    use pcounter_sim::pcnt::dump;
    let RecordDumpArgs { file, image, base, format, domain, csv, svg } = a;
    let long = format == Format::Long;
    let bytes = std::fs::read(&file).map_err(|e| format!("{}: cannot read: {e}", file.display()))?;
    let rows = if image {
        dump::parse_image(&bytes, base, long, domain).map_err(|e| format!("{}: {e}", file.display()))?
    } else {
        let text = String::from_utf8(bytes)
            .map_err(|_| format!("{}: not a text packet log (use --image for a memory image)", file.display()))?;
        if !text.starts_with(dump::LOG_HEADER) {
            return Err(format!(
                "{}:1: expected '{}' (a packet log from `pcnt script --packets`; use --image for a memory image)",
                file.display(),
                dump::LOG_HEADER
            ));
        }
        dump::parse_log(&file.display().to_string(), &text)?
    };
    print!("{}", dump::table(&rows));
    println!("{} packet(s)", rows.len());
    for (path, text) in [(&csv, dump::csv(&rows)), (&svg, dump::svg(&rows))] {
        if let Some(p) = path {
            write_out(p, &text)?;
            println!("wrote {}", p.display());
        }
    }
    Ok(0)
}

/// `import-mmiotrace`: see `pcounter_sim::pcnt::mmiotrace`. Without `--out` and
/// `--run` the script goes to stdout (the summary to stderr); `--run`
/// without `--out` saves it as `out/<trace name>.pcs`, so a failure's repro
/// line names a file that exists.
fn import_mmiotrace(a: ImportArgs) -> Result<u8, String> {
    use pcounter_sim::pcnt::mmiotrace;
    let ImportArgs { file, out, out_dir, gen, domains, layout, run, model_only } = a;
    // The model alone is a way of running: it implies --run.
    let run = run || model_only;
    let o = mmiotrace::Options { gen, domains, layout };
    let art = &artifacts(&cli::ArtArgs { out: out_dir, window: 2000, shrink_secs: 120, wave: None })?;
    let name = file.display().to_string();
    let bytes = match std::fs::read(&file) {
        Ok(b) => b,
        Err(e) => {
            eprintln!("{name}: cannot read: {e}");
            return Ok(2);
        }
    };
    // MARK texts may hold any bytes; the records themselves are ASCII.
    let imp = match mmiotrace::import(&name, &String::from_utf8_lossy(&bytes), &o) {
        Ok(i) => i,
        Err(e) => {
            eprintln!("{e}");
            return Ok(2);
        }
    };
    let Some(out) = out.or_else(|| {
        run.then(|| {
            let stem = file.file_stem().map_or("trace".into(), |s| s.to_string_lossy().to_string());
            art.out.join(format!("{stem}.pcs"))
        })
    }) else {
        print!("{}", imp.script);
        eprintln!("{name}: {}", imp.summary());
        return Ok(0);
    };
    println!("{name}: {}", imp.summary());
    write_out(&out, &imp.script)?;
    println!("wrote {}", out.display());
    if !run {
        return Ok(0);
    }
    let sname = out.display().to_string();
    let s = script::parse(&sname, &imp.script).map_err(|e| format!("the imported script does not parse: {e}"))?;
    let lines = imp.line_map(&s);
    let opts = ScriptOpts { model_only, fault: None, art, quiet: true, packets: None, x_seed: None, max_cycles: None };
    let repro = format!("make script FILE={sname}{}", if model_only { " ARGS=--model-only" } else { "" });
    let repro = pcounter_sim::engine::artifacts::runnable_here(repro);
    match runner::run_parsed(&sname, &s, &opts, &repro) {
        Ok(r) => {
            for rv in &r.reads {
                let cmd = s.body.iter().find(|l| l.line == rv.line).map(|l| &l.cmd);
                let trace_line = lines.iter().find(|&&(sl, _)| sl == rv.line).map_or(0, |&(_, tl)| tl);
                if let Some(ScriptCmd::Read { addr, expect: Some(Expect::Trace(t)) }) = cmd {
                    let err = if rv.slverr { " PSLVERR" } else { "" };
                    println!("line {trace_line}: read {addr:#06x} model={:#010x} trace={t:#010x}{err}", rv.value);
                }
            }
            println!("PASS {sname} ({} cycles, {})", r.cycles, if model_only { "model only" } else { "lockstep" });
            Ok(0)
        }
        Err(ScriptError::Input(e)) => {
            eprintln!("{e}");
            Ok(2)
        }
        Err(ScriptError::Failed(e)) => {
            eprintln!("FAIL {e}");
            Ok(1)
        }
    }
}
