//! `pcnt`: command line of the PCOUNTER lockstep harness.
//!
//!   pcnt cosim  [--seed S] [--seeds N] [--cycles C] [--domains 1,2] [--gen all|nv40,g84,...]
//!               [--fault NAME] [--out DIR] [--window N] [--no-progress]
//!               [--jobs N] [--shard I/N] [--json FILE]
//!   pcnt merge  FILE...
//!   pcnt script FILE... [--model-only] [--fault NAME] [--out DIR] [--quiet]
//!   pcnt faults
//!   pcnt import-mmiotrace FILE [--out SCRIPT] [--gen GEN] [--domains N] [--run] [--model-only]
//!   pcnt record-dump FILE [--image --base ADDR --format long|short --domain N]
//!               [--csv OUT] [--svg OUT]
//!
//! Exit status: 0 pass, 1 mismatch or failed expectation, 2 bad input.

use std::path::PathBuf;
use std::process::ExitCode;

use pcounter::regs::Gen;
use pcounter_sim::ffi::Rtl;
use pcounter_sim::runner::{self, Artifacts, CosimOpts, ScriptError, ScriptOpts};
use pcounter_sim::script::{self, Cmd, Expect};

const USAGE: &str = "usage:
  pcnt cosim  [--seed S] [--seeds N] [--cycles C] [--domains 1,2] [--gen all|nv40,g84,g92,gt215]
              [--fault NAME] [--out DIR] [--window N] [--no-progress]
              [--jobs N] [--shard I/N] [--json FILE] [--shrink-secs S] [--coverage-gate]
              [--corrupt-at CYCLE]   (harness self-test: flip an RTL flop at CYCLE)
              [--layout default|real|odd] [--decode strict|lax]
                                     (every run on that layout / decode; default: from the seed)
  pcnt merge  FILE...   merge --json results of shards; fails on failures or missing jobs
  pcnt script FILE... [--model-only] [--fault NAME] [--out DIR] [--quiet] [--packets LOG] [--xseed N] [--help]
              [--max-cycles N]   (default 10 000 000: a longer script is refused at its wait)
  pcnt record-dump FILE [--image] [--base ADDR] [--format long|short] [--domain N] [--csv OUT] [--svg OUT]
              decode record packets from a packet log (script --packets) or a raw memory image
  pcnt import-mmiotrace FILE [--out SCRIPT] [--gen GEN] [--domains N] [--run] [--model-only]
              turn a Linux mmiotrace log's PCOUNTER accesses into a script (stdout, or SCRIPT);
              --run also runs it (lockstep; --model-only: the model alone) and prints
              each read beside the traced value
  pcnt bench  [--seed S] [--cycles C]   throughput table (model, RTL, lockstep, tracing)
  pcnt faults     list the injected-fault builds linked in";

fn main() -> ExitCode {
    // Like any Unix tool: a closed pipe (`pcnt ... | head`) ends the process
    // quietly instead of panicking in println!.
    // SAFETY: setting a signal disposition before any thread exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(code) => ExitCode::from(code),
        Err(e) => {
            eprintln!("pcnt: {e}\n{USAGE}");
            ExitCode::from(2)
        }
    }
}

/// Most seeds one `cosim` runs (the job list is built before the first run).
const MAX_SEEDS: u64 = 1_000_000;

fn num(flag: &str, v: Option<&String>) -> Result<u64, String> {
    let v = v.ok_or_else(|| format!("{flag} needs a value"))?;
    let t = v.replace('_', "");
    let r = match t.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16),
        None => t.parse(),
    };
    r.map_err(|_| format!("{flag}: bad number '{v}' (expected decimal or 0x-hex)"))
}

fn gens(v: &str) -> Result<Vec<Gen>, String> {
    if v == "all" {
        return Ok(Gen::ALL.to_vec());
    }
    v.split(',')
        .map(|g| {
            Gen::from_name(g.trim())
                .ok_or_else(|| format!("--gen: unknown generation '{g}' (expected all, nv40, g84, g92, gt215)"))
        })
        .collect()
}

fn domains(v: &str) -> Result<Vec<usize>, String> {
    v.split(',')
        .map(|d| match d.trim().parse::<usize>() {
            Ok(n) if (1..=8).contains(&n) => Ok(n),
            _ => Err(format!("--domains: bad domain count '{d}' (expected 1..8, comma-separated)")),
        })
        .collect()
}

fn run(args: &[String]) -> Result<u8, String> {
    let Some(cmd) = args.first() else {
        return Err("missing command".into());
    };
    let mut art = Artifacts { out: PathBuf::from("out"), window: 2000, shrink_secs: 120 };
    match cmd.as_str() {
        "cosim" => {
            let mut o = CosimOpts {
                seed: 1,
                seeds: 28,
                cycles: 200_000,
                domains: vec![1, 2, 8],
                gens: Gen::ALL.to_vec(),
                fault: None,
                art: art.clone(),
                progress: true,
                jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
                shard: (0, 1),
                json: None,
                coverage_plan: PathBuf::from("docs/coverage-plan.md"),
                coverage_gate: false,
                corrupt_at: None,
                pin: runner::Pin::default(),
            };
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--seed" => o.seed = num(a, it.next())?,
                    "--seeds" => {
                        // The job list is built up front: bound it rather than
                        // abort on allocation.
                        o.seeds = num(a, it.next())?.max(1);
                        if o.seeds > MAX_SEEDS {
                            return Err(format!("--seeds {}: at most {MAX_SEEDS} seeds per run", o.seeds));
                        }
                    }
                    "--cycles" => o.cycles = num(a, it.next())?,
                    "--domains" => o.domains = domains(it.next().ok_or("--domains needs a value")?)?,
                    "--gen" => o.gens = gens(it.next().ok_or("--gen needs a value")?)?,
                    "--fault" => o.fault = Some(it.next().ok_or("--fault needs a value")?.clone()),
                    "--out" => o.art.out = PathBuf::from(it.next().ok_or("--out needs a value")?),
                    "--window" => o.art.window = num(a, it.next())?,
                    "--shrink-secs" => o.art.shrink_secs = num(a, it.next())?,
                    "--coverage-gate" => o.coverage_gate = true,
                    "--corrupt-at" => o.corrupt_at = Some(num(a, it.next())?),
                    "--layout" => {
                        let v = it.next().ok_or("--layout needs a value")?;
                        let l = pcounter::Layout::from_name(v)
                            .ok_or_else(|| format!("--layout {v}: expected default, real or odd"))?;
                        o.pin.layout = Some(l);
                    }
                    "--decode" => {
                        o.pin.strict = match it.next().map(String::as_str) {
                            Some("strict") => Some(true),
                            Some("lax") => Some(false),
                            v => return Err(format!("--decode {}: expected strict or lax", v.unwrap_or(""))),
                        }
                    }
                    "--no-progress" => o.progress = false,
                    "--jobs" => o.jobs = num(a, it.next())?.max(1) as usize,
                    "--json" => o.json = Some(PathBuf::from(it.next().ok_or("--json needs a value")?)),
                    "--shard" => {
                        let v = it.next().ok_or("--shard needs I/N")?;
                        let parsed = v.split_once('/').and_then(|(i, n)| Some((i.parse().ok()?, n.parse().ok()?)));
                        match parsed {
                            Some((i, n)) if n >= 1 && i < n => o.shard = (i, n),
                            _ => return Err(format!("--shard: bad value '{v}' (expected I/N with 0 <= I < N)")),
                        }
                    }
                    _ => return Err(format!("cosim: unknown option '{a}'")),
                }
            }
            let failed = runner::cosim(&o).map_err(|e| e.to_string())?;
            Ok(if failed == 0 { 0 } else { 1 })
        }
        "script" => {
            let mut files = Vec::new();
            let mut model_only = false;
            let mut quiet = false;
            let mut fault: Option<String> = None;
            let mut packets: Option<PathBuf> = None;
            let mut x_seed: Option<u32> = None;
            let mut max_cycles: Option<u64> = None;
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--model-only" => model_only = true,
                    "--quiet" => quiet = true,
                    "--fault" => fault = Some(it.next().ok_or("--fault needs a value")?.clone()),
                    "--out" => art.out = PathBuf::from(it.next().ok_or("--out needs a value")?),
                    "--window" => art.window = num(a, it.next())?,
                    "--packets" => packets = Some(PathBuf::from(it.next().ok_or("--packets needs a file")?)),
                    "--xseed" => x_seed = Some(num(a, it.next())? as u32),
                    "--max-cycles" => max_cycles = Some(num(a, it.next())?),
                    "--help" | "-h" => {
                        println!("usage: pcnt script FILE... [--model-only] [--fault NAME] [--out DIR] [--quiet] [--packets LOG] [--xseed N] [--max-cycles N]\n\nscript commands (one per line, `#` starts a comment):\n{}", script::help());
                        return Ok(0);
                    }
                    f if f.starts_with("--") => return Err(format!("script: unknown option '{f}'")),
                    f => files.push(PathBuf::from(f)),
                }
            }
            if files.is_empty() {
                return Err("script: no FILE given".into());
            }
            if packets.is_some() && files.len() > 1 {
                return Err("script: --packets takes one FILE".into());
            }
            let mut code = 0;
            for f in &files {
                let o = ScriptOpts {
                    model_only,
                    fault: fault.as_deref(),
                    art: &art,
                    quiet,
                    packets: packets.as_deref(),
                    x_seed,
                    max_cycles,
                };
                match runner::run_script_with(f, &o) {
                    Ok(cycles) => println!(
                        "PASS {} ({cycles} cycles, {})",
                        f.display(),
                        if model_only { "model only" } else { "lockstep" }
                    ),
                    Err(ScriptError::Input(e)) => {
                        eprintln!("{e}");
                        code = code.max(2);
                    }
                    Err(ScriptError::Failed(e)) => {
                        eprintln!("FAIL {e}");
                        code = code.max(1);
                    }
                }
            }
            Ok(code)
        }
        "bench" => {
            let (mut seed, mut cycles) = (1u64, 300_000u64);
            let mut it = args[1..].iter();
            while let Some(a) = it.next() {
                match a.as_str() {
                    "--seed" => seed = num(a, it.next())?,
                    "--cycles" => cycles = num(a, it.next())?,
                    "--out" => art.out = PathBuf::from(it.next().ok_or("--out needs a value")?),
                    _ => return Err(format!("bench: unknown option '{a}'")),
                }
            }
            pcounter_sim::bench::bench(seed, cycles, &art.out)?;
            Ok(0)
        }
        "merge" => {
            let files: Vec<PathBuf> = args[1..].iter().map(PathBuf::from).collect();
            runner::merge(&files).map_err(|e| e.to_string())
        }
        "record-dump" => record_dump(&args[1..]),
        "import-mmiotrace" => import_mmiotrace(&args[1..], &art),
        "faults" => {
            for f in Rtl::faults() {
                println!("{f}");
            }
            Ok(0)
        }
        "help" | "--help" | "-h" => {
            println!("{USAGE}");
            Ok(0)
        }
        c => Err(format!("unknown command '{c}'")),
    }
}

fn record_dump(args: &[String]) -> Result<u8, String> {
    use pcounter_sim::dump;
    let (mut file, mut image, mut base, mut long, mut domain) = (None, false, 0u64, true, 0usize);
    let (mut csv, mut svg): (Option<PathBuf>, Option<PathBuf>) = (None, None);
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--image" => image = true,
            "--base" => base = num(a, it.next())?,
            "--domain" => domain = num(a, it.next())? as usize,
            "--format" => {
                long = match it.next().map(String::as_str) {
                    Some("long") => true,
                    Some("short") => false,
                    v => return Err(format!("--format: expected long or short, got {v:?}")),
                }
            }
            "--csv" => csv = Some(PathBuf::from(it.next().ok_or("--csv needs a file")?)),
            "--svg" => svg = Some(PathBuf::from(it.next().ok_or("--svg needs a file")?)),
            f if f.starts_with("--") => return Err(format!("record-dump: unknown option '{f}'")),
            f => file = Some(PathBuf::from(f)),
        }
    }
    let file = file.ok_or("record-dump: no FILE given")?;
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
            std::fs::write(p, text).map_err(|e| format!("{}: cannot write: {e}", p.display()))?;
            println!("wrote {}", p.display());
        }
    }
    Ok(0)
}

/// `import-mmiotrace`: see `pcounter_sim::mmiotrace`. Without `--out` and
/// `--run` the script goes to stdout (the summary to stderr); `--run`
/// without `--out` saves it as `out/<trace name>.pcs`, so a failure's repro
/// line names a file that exists.
fn import_mmiotrace(args: &[String], art: &Artifacts) -> Result<u8, String> {
    use pcounter_sim::mmiotrace;
    let (mut file, mut out): (Option<PathBuf>, Option<PathBuf>) = (None, None);
    let (mut run, mut model_only) = (false, false);
    let mut o = mmiotrace::Options::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--out" => out = Some(PathBuf::from(it.next().ok_or("--out needs a file")?)),
            "--gen" => {
                let g = it.next().ok_or("--gen needs a value")?;
                if !script::GENS.contains(&g.as_str()) {
                    return Err(format!(
                        "--gen: unknown generation '{g}' (expected one of: {})",
                        script::GENS.join(", ")
                    ));
                }
                o.gen = Some(g.clone());
            }
            "--domains" => {
                let d = num(a, it.next())?;
                if !(1..=script::MAX_DOMAINS as u64).contains(&d) {
                    return Err(format!("--domains: {d} out of range (expected 1..={})", script::MAX_DOMAINS));
                }
                o.domains = Some(d as usize);
            }
            "--run" => run = true,
            // The model alone is a way of running: it implies --run.
            "--model-only" => (run, model_only) = (true, true),
            f if f.starts_with("--") => return Err(format!("import-mmiotrace: unknown option '{f}'")),
            f if file.is_none() => file = Some(PathBuf::from(f)),
            f => return Err(format!("import-mmiotrace: one FILE only (got '{f}' too)")),
        }
    }
    let file = file.ok_or("import-mmiotrace: no FILE given")?;
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
    if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: cannot create: {e}", dir.display()))?;
    }
    std::fs::write(&out, &imp.script).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    println!("wrote {}", out.display());
    if !run {
        return Ok(0);
    }
    let sname = out.display().to_string();
    let s = script::parse(&sname, &imp.script).map_err(|e| format!("the imported script does not parse: {e}"))?;
    let lines = imp.line_map(&s);
    let opts = ScriptOpts { model_only, fault: None, art, quiet: true, packets: None, x_seed: None, max_cycles: None };
    let repro = format!("make script FILE={sname}{}", if model_only { " ARGS=--model-only" } else { "" });
    match runner::run_parsed(&sname, &s, &opts, &repro) {
        Ok(r) => {
            for rv in &r.reads {
                let cmd = s.body.iter().find(|l| l.line == rv.line).map(|l| &l.cmd);
                let trace_line = lines.iter().find(|&&(sl, _)| sl == rv.line).map_or(0, |&(_, tl)| tl);
                if let Some(Cmd::Read { addr, expect: Some(Expect::Trace(t)) }) = cmd {
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
