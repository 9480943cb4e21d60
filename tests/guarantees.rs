//! The guarantees every device gives, each checked once over the device
//! registry (`pcounter_sim::devices::DEVICES`), through the `pcnt` binary as
//! a user runs it. A device added to the registry without script samples
//! (`Device::samples`) fails `every_device_has_samples`; every other test then
//! covers it.
//!
//! Guarantees (issue "Every device gets every guarantee"):
//! - a script is read once (pipes, `-`, `/dev/stdin`) and names its device
//!   on its first command line;
//! - a script with no commands is refused (exit 2);
//! - the cycle bound (`--max-cycles`, default 10 M) holds at parse time, on
//!   the sum of the script's waits and bus clocks: exit 2 naming the line,
//!   before any cycle runs;
//! - malformed input exits 2 naming file:line, a failure exits 1, nothing
//!   panics;
//! - a failing expectation writes the same artifacts as an RTL/model
//!   mismatch (repro, report, stimulus, shrunk script, waves + .gtkw), and
//!   the saved stimulus replays the failure;
//! - an option that does not apply to the device is refused (exit 2);
//! - `pcnt bench` measures each of its configurations in the four modes;
//! - its regression shards (`--shard I/N --json F`) merge into its own
//!   summary, alone or beside every other device's; a missing or doubled
//!   shard fails the merge, and a failing shard's job is named with its
//!   repro line (in the merge and in the shard's `--junit` file).

mod common;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use common::scratch;
use pcounter_sim::devices::{self, DEVICES};

/// Every device's script samples (`Device::samples`: the configuration
/// lines, a read of a register that is 0 after reset, a line that is no
/// command of its format), with the device's registry name.
struct Sample {
    device: &'static str,
    label: &'static str,
    head: &'static str,
    read0: &'static str,
    bad_line: &'static str,
}

fn samples() -> Vec<Sample> {
    DEVICES
        .iter()
        .flat_map(|d| {
            d.samples.iter().map(|s| Sample {
                device: d.name,
                label: s.label,
                head: s.head,
                read0: s.read0,
                bad_line: s.bad_line,
            })
        })
        .collect()
}

fn pcnt(dir: &Path, args: &[&str], stdin: Option<&str>) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_pcnt"));
    c.args(args).current_dir(dir).stdout(Stdio::piped()).stderr(Stdio::piped());
    c.stdin(if stdin.is_some() { Stdio::piped() } else { Stdio::null() });
    let mut child = c.spawn().unwrap();
    if let Some(text) = stdin {
        child.stdin.take().unwrap().write_all(text.as_bytes()).unwrap();
    }
    child.wait_with_output().unwrap()
}

fn err(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Exit status, never a panic (101) or a signal.
fn code(o: &Output) -> i32 {
    let c = o.status.code().unwrap_or_else(|| panic!("killed by a signal: {}", err(o)));
    assert_ne!(c, 101, "panicked: {}", err(o));
    c
}

fn write(dir: &Path, name: &str, text: &str) -> String {
    std::fs::write(dir.join(name), text).unwrap();
    name.to_string()
}

fn ext(s: &Sample) -> &'static str {
    devices::by_name(s.device).unwrap().script_ext
}

#[test]
fn every_device_has_samples() {
    for d in DEVICES {
        assert!(
            samples().iter().any(|s| s.device == d.name),
            "device {} has no script samples (Device::samples)",
            d.name
        );
    }
    for s in &samples() {
        assert!(devices::by_name(s.device).is_some(), "{}: not a registered device", s.device);
    }
}

#[test]
fn scripts_are_read_once_from_pipes_and_name_their_device() {
    let dir = scratch("guarantee-pipes");
    for s in &samples() {
        let pass = format!("# comment first\n\n{}wait 3\n{} == 0\n", s.head, s.read0);
        let fail = format!("{}wait 3\n{} == 0x1234\n", s.head, s.read0);
        for path in ["-", "/dev/stdin"] {
            let o = pcnt(&dir, &["script", path, "--out", "o"], Some(&pass));
            let out = String::from_utf8_lossy(&o.stdout);
            assert_eq!(code(&o), 0, "{} via {path}: {}", s.label, err(&o));
            assert!(out.lines().any(|l| l.starts_with("PASS ") && !l.contains("(0 cycles")), "{}: {out}", s.label);
            let o = pcnt(&dir, &["script", path, "--out", "o"], Some(&fail));
            assert_eq!(code(&o), 1, "{} via {path}: a failing script must fail: {}", s.label, err(&o));
        }
    }
}

#[test]
fn scripts_without_commands_are_refused() {
    let dir = scratch("guarantee-empty");
    for s in &samples() {
        for (k, text) in
            ["".to_string(), "# nothing\n\n".to_string(), s.head.lines().next().unwrap().to_string()].iter().enumerate()
        {
            // PCOUNTER's head line is a configuration line, not a device line.
            if k == 2 && s.device == "pcnt" {
                continue;
            }
            let f = write(&dir, &format!("e{k}.{}", ext(s)), text);
            let o = pcnt(&dir, &["script", &f], None);
            assert_eq!(code(&o), 2, "{} {text:?}: {}", s.label, err(&o));
            assert!(err(&o).contains("no commands"), "{}", err(&o));
        }
    }
}

#[test]
fn the_cycle_bound_is_checked_before_any_cycle_runs() {
    let dir = scratch("guarantee-bound");
    for s in &samples() {
        // Two waits that each fit the default bound but not together.
        let f = write(&dir, &format!("b.{}", ext(s)), &format!("{}wait 6000000\nwait 4000001\n", s.head));
        let waits = s.head.lines().count() + 2;
        let t0 = Instant::now();
        let o = pcnt(&dir, &["script", &f], None);
        assert_eq!(code(&o), 2, "{}: {}", s.label, err(&o));
        assert!(err(&o).starts_with(&format!("{f}:{waits}: ")), "{}: {}", s.label, err(&o));
        assert!(t0.elapsed() < Duration::from_secs(5), "{}: ran cycles before refusing", s.label);
        // --max-cycles moves it, counting bus clocks too (a read is 2).
        let f = write(&dir, &format!("m.{}", ext(s)), &format!("{}wait 96\n{}\n", s.head, s.read0));
        let o = pcnt(&dir, &["script", &f, "--max-cycles", "97"], None);
        assert_eq!(code(&o), 2, "{}: {}", s.label, err(&o));
        let o = pcnt(&dir, &["script", &f, "--max-cycles", "98"], None);
        assert_eq!(code(&o), 0, "{}: {}", s.label, err(&o));
    }
}

#[test]
fn malformed_scripts_exit_2_naming_the_line() {
    let dir = scratch("guarantee-malformed");
    for s in &samples() {
        let line = s.head.lines().count() + 2;
        let f = write(&dir, &format!("x.{}", ext(s)), &format!("{}wait 1\n{}\n", s.head, s.bad_line));
        let o = pcnt(&dir, &["script", &f], None);
        assert_eq!(code(&o), 2, "{}: {}", s.label, err(&o));
        assert!(err(&o).starts_with(&format!("{f}:{line}: ")), "{}: {}", s.label, err(&o));
        // A device line after a command names both lines.
        let f = write(&dir, &format!("y.{}", ext(s)), &format!("{}wait 1\ndevice {}\n", s.head, s.device));
        let o = pcnt(&dir, &["script", &f], None);
        assert_eq!(code(&o), 2, "{}: {}", s.label, err(&o));
        assert!(err(&o).contains("must be the script's first command (line"), "{}", err(&o));
    }
}

#[test]
fn a_failing_expectation_leaves_every_artifact_and_replays() {
    let dir = scratch("guarantee-artifacts");
    for s in &samples() {
        let name = format!("fail_{}.{}", s.label, ext(s));
        let f = write(&dir, &name, &format!("{}wait 5\n{} == 0x1234\nwait 5\n", s.head, s.read0));
        let o = pcnt(&dir, &["script", &f, "--out", "o", "--window", "50"], None);
        assert_eq!(code(&o), 1, "{}: {}", s.label, err(&o));
        let e = err(&o);
        assert!(e.contains("EXPECTATION FAILED") && e.contains("(script)"), "{}: {e}", s.label);
        let fail = dir.join("o").join(format!("fail-script-fail_{}", s.label));
        let x = ext(s);
        let files =
            ["repro.txt", "report.txt", &format!("stimulus.{x}"), &format!("minimal.{x}"), "wave.vcd", "wave.gtkw"];
        for a in files {
            assert!(fail.join(a).is_file(), "{}: no {a} in {}", s.label, fail.display());
        }
        // GTKWave opens the failure's own save file, from its folder and
        // from elsewhere, with the marker at the reported cycle (the waves'
        // time is the bus cycle).
        let cycle: u64 = e
            .lines()
            .find_map(|l| l.strip_prefix("EXPECTATION FAILED at cycle "))
            .and_then(|r| r.split(':').next())
            .and_then(|c| c.trim().parse().ok())
            .unwrap_or_else(|| panic!("{}: no cycle in {e}", s.label));
        let mut views = Vec::new();
        for (cwd, gtkw) in [(fail.clone(), PathBuf::from("wave.gtkw")), (dir.clone(), fail.join("wave.gtkw"))] {
            if let Some(v) = common::gtkwave_view(&cwd, &gtkw) {
                assert_eq!(v.marker, cycle, "{}: GTKWave's marker, from {}", s.label, cwd.display());
                assert!(v.start <= cycle && cycle <= v.end, "{}: GTKWave's view {v:?}", s.label);
                // The value column at the marker shows the failure.
                let mismatch = v.values.iter().find(|(n, _)| n == "mismatch").map(|(_, x)| x.as_str());
                assert_eq!(mismatch, Some("1"), "{}: GTKWave's value column {:?}", s.label, v.values);
                views.push(v);
            }
        }
        // The same failure as FST (`--wave fst`): only wave.fst beside the
        // save file, and GTKWave shows the same signals, view and values.
        let o = pcnt(&dir, &["script", &f, "--out", "ofst", "--window", "50", "--wave", "fst"], None);
        assert_eq!(code(&o), 1, "{}: {}", s.label, err(&o));
        let fst = dir.join("ofst").join(format!("fail-script-fail_{}", s.label));
        assert!(fst.join("wave.fst").is_file() && !fst.join("wave.vcd").exists(), "{}: {}", s.label, fst.display());
        if let (Some(vcd_view), Some(v)) = (views.last(), common::gtkwave_view(&dir, &fst.join("wave.gtkw"))) {
            assert_eq!((v.dump_type.as_str(), vcd_view.dump_type.as_str()), ("FST", "VCD"), "{}", s.label);
            let same = |v: &pcounter_sim::engine::wave::GtkwaveView| {
                (v.start, v.end, v.marker, v.facs.clone(), v.values.clone())
            };
            assert!(same(&v) == same(vcd_view), "{}: FST view {v:?}\nVCD view {vcd_view:?}", s.label);
        }
        // The repro keeps where the artifacts went and the window, and runs
        // where pcnt ran: here, a folder outside the checkout, so make is
        // pointed at the checkout and the paths are absolute.
        let repro = std::fs::read_to_string(fail.join("repro.txt")).unwrap();
        let (file, o) = (dir.join(&f).display().to_string(), dir.join("o").display().to_string());
        let want = format!("make -C {} script FILE={file} OUT={o} ARGS='--window 50'", common::root().display());
        assert_eq!(repro.trim(), want, "{}", s.label);
        assert!(e.contains(&format!("repro: {want}")), "{}: {e}", s.label);
        // The saved stimulus and the shrunk script fail the same way, each
        // replay in a folder of its own.
        for saved in ["stimulus", "minimal"] {
            let p = fail.join(format!("{saved}.{x}")).display().to_string();
            let o = pcnt(&dir, &["script", &p, "--out", "o2"], None);
            assert_eq!(code(&o), 1, "{} {saved}: {}", s.label, err(&o));
            assert!(err(&o).contains("script expectation of `"), "{}", err(&o));
            let own = dir.join("o2").join(format!("fail-script-fail-script-fail_{}-{saved}", s.label));
            assert!(own.join("repro.txt").is_file(), "{} {saved}: no {}", s.label, own.display());
        }
    }
}

#[test]
fn options_a_device_does_not_take_are_refused() {
    let dir = scratch("guarantee-options");
    for d in DEVICES {
        for opt in devices::DEVICE_OPTIONS.iter().filter(|o| !d.own_options.contains(o)) {
            let value = match *opt {
                "--domains" => "2",
                "--gen" => "nv40",
                "--layout" => "odd",
                "--decode" => "lax",
                "--corrupt-at" => "5",
                _ => "x.log",
            };
            let s = d.samples.first().unwrap();
            let f = write(&dir, &format!("o.{}", d.script_ext), &format!("{}wait 1\n", s.head));
            let args: Vec<&str> = if *opt == "--packets" {
                vec!["script", &f, opt, value]
            } else {
                vec!["cosim", "--device", d.name, "--seeds", "1", "--cycles", "10", opt, value]
            };
            let o = pcnt(&dir, &args, None);
            assert_eq!(code(&o), 2, "{} {opt}: {}", d.name, err(&o));
            assert!(err(&o).contains(opt), "{} {opt}: {}", d.name, err(&o));
        }
    }
}

/// A fault build belongs to one device: another device's `cosim --fault`
/// refuses it (exit 2) and names the device to run it with.
#[test]
fn another_devices_fault_is_refused_naming_its_device() {
    let dir = scratch("guarantee-fault-device");
    for d in DEVICES {
        let Some(fault) = (d.faults)().first().copied() else { continue };
        for o in DEVICES.iter().filter(|o| o.name != d.name) {
            let r = pcnt(&dir, &["cosim", "--device", o.name, "--fault", fault, "--seeds", "1"], None);
            assert_eq!(code(&r), 2, "{fault} on {}: {}", o.name, err(&r));
            let want = format!("is a {} fault: run it with --device {}", d.title, d.name);
            assert!(err(&r).contains(&want), "{fault} on {}: {}", o.name, err(&r));
        }
    }
}

/// The `expect:` names of a fault (its file, `common::fault_file`).
fn fault_expect(fault: &str) -> Vec<String> {
    let text = std::fs::read_to_string(common::fault_file(fault)).unwrap();
    let line = text.lines().find_map(|l| l.strip_prefix("expect:")).unwrap_or_else(|| panic!("{fault}: no expect:"));
    line.split(',').map(|n| n.trim().to_string()).filter(|n| !n.is_empty()).collect()
}

/// Every injected fault of every device, as a user meets it: `pcnt cosim
/// --fault F` fails (exit 1) within 10 seeds on the first register or
/// assertion its `expect:` line names, leaves repro, report, stimulus and
/// waves whose save file opens on the failure, and the saved stimulus fails
/// again on the fault build (same headline) and passes on the unfaulted
/// build (the clean control).
#[test]
fn every_fault_is_caught_with_artifacts_and_a_clean_control() {
    let dir = scratch("guarantee-faults");
    let mut seen = 0;
    for d in DEVICES {
        for fault in (d.faults)() {
            seen += 1;
            let out = format!("o-{fault}");
            let args = [
                "cosim",
                "--device",
                d.name,
                "--fault",
                fault,
                "--seeds",
                "10",
                "--cycles",
                "200000",
                "--shrink-secs",
                "0",
                "--window",
                "300",
                "--no-progress",
                "--jobs",
                "2",
                "--out",
                &out,
            ];
            let o = pcnt(&dir, &args, None);
            let e = err(&o);
            assert_eq!(code(&o), 1, "{fault} survived 10 seeds x 200k cycles:\n{e}");
            let what = e.lines().find_map(|l| l.split_once(" FAILED: ").map(|(_, r)| r)).unwrap_or_default();
            let what = what.split_once(" — ").map_or("", |(_, w)| w);
            let names = fault_expect(fault);
            assert!(names.iter().any(|n| what.contains(n.as_str())), "{fault} failed on `{what}`, expect: {names:?}");
            let report = e.lines().find_map(|l| l.strip_prefix("report:   ")).unwrap_or_else(|| panic!("{e}"));
            let fail = dir.join(Path::new(report).parent().unwrap());
            for a in ["repro.txt", "report.txt", &format!("stimulus.{}", d.script_ext), "wave.vcd", "wave.gtkw"] {
                assert!(fail.join(a).is_file(), "{fault}: no {a} in {}", fail.display());
            }
            let headline =
                std::fs::read_to_string(fail.join("report.txt")).unwrap().lines().next().unwrap().to_string();
            let cycle: u64 =
                headline.split("at cycle ").nth(1).and_then(|r| r.split(':').next()?.parse().ok()).unwrap();
            common::assert_gtkw_opens_on(&fail, cycle, fault);
            let stim = fail.join(format!("stimulus.{}", d.script_ext)).display().to_string();
            let o = pcnt(
                &dir,
                &["script", &stim, "--fault", fault, "--out", "replay", "--quiet", "--shrink-secs", "0"],
                None,
            );
            assert_eq!(code(&o), 1, "{fault}: the saved stimulus did not fail: {}", err(&o));
            assert!(err(&o).contains(&headline), "{fault}: the replay fails elsewhere than `{headline}`: {}", err(&o));
            let o = pcnt(&dir, &["script", &stim, "--out", "replay", "--quiet"], None);
            assert_eq!(code(&o), 0, "{fault}: the saved stimulus fails on the clean build: {}", err(&o));
        }
    }
    let on_disk = common::fault_files().len();
    assert_eq!(
        seen, on_disk,
        "every fault file (tests/faults/, tests/*/faults/) is a linked-in build of a registered device"
    );
}

/// `pcnt bench`'s rows of every device (`Device::bench_rows`): each
/// configuration it measures has all four modes at a positive rate, and the
/// tracing run leaves no trace file behind.
#[test]
fn every_device_measures_its_bench_rows_in_every_mode() {
    use pcounter_sim::engine::bench::{Mode, Table};
    for d in DEVICES {
        let out = scratch(&format!("guarantee-bench-{}", d.name));
        let mut t = Table::new(None, Mode::ALL.to_vec());
        (d.bench_rows)(&mut t, 1, 3000, &out).unwrap_or_else(|e| panic!("{}: {e}", d.name));
        let mut labels: Vec<&str> = t.measured.iter().map(|m| m.label.as_str()).collect();
        labels.dedup();
        assert!(!labels.is_empty(), "{}: no bench row", d.name);
        for label in labels {
            for mode in Mode::ALL {
                let rate = t.rate(label, mode);
                assert!(rate.is_some_and(|r| r > 0.0), "{} {label}, {}: {rate:?}", d.name, mode.name());
            }
        }
        let left: Vec<_> = std::fs::read_dir(&out).unwrap().flatten().map(|e| e.file_name()).collect();
        assert!(left.is_empty(), "{}: the bench left {left:?}", d.name);
    }
}

/// `cosim --device D --shard I/N --json F` of every device: the shards run
/// every N-th job of one plan and write results naming the device; `pcnt
/// merge` gives each device its own summary, alone or with every other
/// device's shards in one call, and fails on a missing or a doubled shard.
/// A failing shard (the device's first fault) still writes its results, and
/// the merge names the failing job with its repro line. Each shard's
/// `--junit` file has a case per job, the failing one with its repro.
#[test]
fn every_device_shards_merge_into_its_own_summary() {
    use pcounter_sim::pcnt::runner::Results;
    let dir = scratch("guarantee-shards");
    let merge = |files: &[&String]| {
        let args: Vec<&str> = ["merge"].into_iter().chain(files.iter().map(|f| f.as_str())).collect();
        let o = pcnt(&dir, &args, None);
        (code(&o), String::from_utf8_lossy(&o.stdout).into_owned() + &err(&o))
    };
    let shards = |d: &devices::Device, tag: &str, cycles: &str, extra: &[&str]| -> (Vec<String>, Vec<i32>) {
        let mut files = Vec::new();
        let mut codes = Vec::new();
        for (i, shard) in ["0/2", "1/2"].into_iter().enumerate() {
            let json = format!("{}-{tag}{i}.json", d.name);
            let junit = format!("{}-{tag}{i}.xml", d.name);
            let args = [
                &["cosim", "--device", d.name, "--seeds", "4", "--cycles", cycles, "--no-progress"][..],
                extra,
                &["--shard", shard, "--json", &json, "--junit", &junit, "--out", "o"],
            ]
            .concat();
            let o = pcnt(&dir, &args, None);
            assert!(dir.join(&json).is_file(), "{} {shard}: no results file: {}", d.name, err(&o));
            codes.push(code(&o));
            files.push(dir.join(&json).display().to_string());
        }
        (files, codes)
    };
    let mut everyone = Vec::new();
    for d in DEVICES {
        let (files, codes) = shards(d, "s", "2000", &[]);
        assert_eq!(codes, [0, 0], "{}: a clean shard failed", d.name);
        let results: Vec<Results> =
            files.iter().map(|f| serde_json::from_str(&std::fs::read_to_string(f).unwrap()).unwrap()).collect();
        let plan = results[0].plan.clone();
        assert!(plan.len() >= 4, "{}: plan {plan:?}", d.name);
        for (i, r) in results.iter().enumerate() {
            assert_eq!(r.device, d.name);
            assert_eq!(r.plan, plan, "{}: every shard has the whole plan", d.name);
            let idx: Vec<usize> = r.jobs.iter().map(|j| j.index).collect();
            let want: Vec<usize> = (i..plan.len()).step_by(2).collect();
            assert_eq!(idx, want, "{}: shard {i}/2 runs every second job", d.name);
            // Its JUnit file: a passing case per job of the shard.
            let xml = std::fs::read_to_string(files[i].replace(".json", ".xml")).unwrap();
            let head = format!("tests=\"{}\" failures=\"0\"", want.len());
            assert!(xml.contains("<testsuite name=\"cosim") && xml.contains(&head), "{}: {xml}", d.name);
        }
        // PCOUNTER's lines keep their names from before the registry.
        let default = d.name == DEVICES[0].name;
        let (label, summary, plan_name) = match default {
            true => ("merge".to_string(), "cosim PASSED: ".to_string(), "docs/coverage-plan.md;".to_string()),
            false => (
                format!("merge {}", d.title),
                format!("cosim {} PASSED: ", d.title),
                format!("docs/coverage-plan.md, {};", d.title),
            ),
        };
        let (c, out) = merge(&[&files[0], &files[1]]);
        assert_eq!(c, 0, "{out}");
        let all = format!("{label}: 2 files, all {} jobs of the plan exactly once", plan.len());
        assert!(out.contains(&all) && out.contains(&format!("{summary}{} runs", plan.len())), "{out}");
        assert!(out.contains(&format!("coverage ({plan_name} ")), "{}: no coverage closure: {out}", d.name);
        let (c, out) = merge(&[&files[0]]);
        assert_eq!(c, 1, "{out}");
        assert!(out.contains(&format!("{label}: {} of {} jobs missing", plan.len() / 2, plan.len())), "{out}");
        assert!(!out.contains(&summary), "{out}");
        let (c, out) = merge(&[&files[0], &files[1], &files[1]]);
        assert_eq!(c, 1, "{out}");
        assert!(out.contains(&format!("{label}: jobs run more than once: [1, 3")), "{out}");
        everyone.push((files, summary));
        // A failing shard, on the device's first fault (every device has
        // faults: the mutation and fault guarantees need them).
        let fault = (d.faults)().first().copied().unwrap_or_else(|| panic!("{}: no fault build linked", d.name));
        let (files, codes) = shards(d, "f", "200000", &["--fault", fault, "--shrink-secs", "0", "--window", "50"]);
        assert!(codes.contains(&1), "{}: {fault} was not caught in 4 seeds: {codes:?}", d.name);
        let (c, out) = merge(&[&files[0], &files[1]]);
        assert_eq!(c, 1, "{out}");
        let failed = if default { "FAILED job ".to_string() } else { format!("FAILED {} job ", d.title) };
        assert!(
            out.contains(&failed) && out.contains("  repro: make -C ") && out.contains(" cosim "),
            "{fault}: {out}"
        );
        assert!(out.contains(&format!("FAULT={fault}")) && !out.contains(" PASSED"), "{fault}: {out}");
        // The failing shard's JUnit case carries the failure and its repro.
        let failing = files[codes.iter().position(|&c| c == 1).unwrap()].replace(".json", ".xml");
        let xml = std::fs::read_to_string(failing).unwrap();
        assert!(xml.contains("<failure message=\"") && xml.contains(&format!("FAULT={fault}")), "{fault}: {xml}");
    }
    // Every device's shards in one call, in mixed order: a summary each.
    let mut files: Vec<&String> = everyone.iter().flat_map(|(f, _)| f.iter()).collect();
    files.reverse();
    let (c, out) = merge(&files);
    assert_eq!(c, 0, "{out}");
    for (_, summary) in &everyone {
        assert!(out.contains(summary.as_str()), "no `{summary}`: {out}");
    }
    // One device's shard missing fails the merge, and every other device's
    // summary still prints.
    for (k, (_, summary)) in everyone.iter().enumerate() {
        let files: Vec<&String> =
            everyone.iter().enumerate().flat_map(|(j, (f, _))| if j == k { &f[..1] } else { &f[..] }).collect();
        let (c, out) = merge(&files);
        assert_eq!(c, 1, "{out}");
        assert!(!out.contains(summary.as_str()) && out.contains("jobs missing"), "{summary}: {out}");
        for (_, other) in everyone.iter().enumerate().filter(|&(j, _)| j != k).map(|(_, e)| e) {
            assert!(out.contains(other.as_str()), "no `{other}` beside the missing shard: {out}");
        }
    }
}
