//! `pcnt import-mmiotrace` (issue #11 item 9, "Replaying what a real driver
//! did"): a hand-written mmiotrace log of a G84 running nouveau's NV40-style
//! perfctr code on domain 1 (tests/mmiotrace/nv50_perfctr.mmiotrace) becomes
//! a scenario script whose exact text is checked here, runs model-only and in
//! lockstep, and reproduces the README's sample output; malformed traces
//! give `file:line` errors and exit status 2.
//!
//! The sample trace, line by line: VERSION (1); two PCIDEV lines, the NVIDIA
//! one naming BAR0 0xf6000000 (2, 3); MAP of BAR0 (4); PMC_BOOT_0 read, chipset
//! 0x84 (5); a MARK (6); per counter slot 0..3: CTRL 0xa7c4 = 1 (quad mode),
//! SRC 0xa404 + slot*0x40, OP 0xa424 + slot*0x40 = 0xaaaa (7..18); MAP of the
//! 256 MiB VRAM BAR (19) and a write through it at +0xa404 that must be
//! filtered (20); nv40_perfctr_next's PM_TRIGGER read-modify-write of
//! 0x400084 (21, 22); reads of CTR_PRE, CTR_START, CTR_EVENT, CTR_STOP,
//! CTR_CYCLES of domain 1 (23..27); a 2-byte read outside PCOUNTER (28); an
//! UNKNOWN opcode and an UNMAP, both skipped (29, 30).

use std::fs;
use std::process::Command;

use pcounter_sim::pcnt::mmiotrace::{import, Options};
use pcounter_sim::pcnt::runner::{run_parsed, Artifacts, ScriptError, ScriptOpts};
use pcounter_sim::pcnt::script::{self, Cmd, Expect};

const SAMPLE: &str = "tests/mmiotrace/nv50_perfctr.mmiotrace";

const GOLDEN: &str = "\
# Imported by `pcnt import-mmiotrace` from tests/mmiotrace/nv50_perfctr.mmiotrace (mmiotrace log).
# BAR0 0xf6000000: MAP id 1 on line 4 (0x1000000 bytes), the BAR0 of the NVIDIA PCIDEV on line 2.
# Kept: 32-bit accesses to BAR0+0xa000..0xafff (PCOUNTER); writes to BAR0+0x400084 with bit 5
# set (PGRAPH PM_TRIGGER) as `pulse pm_trigger`. Skipped: 4 other access(es).
# `read ADDR trace VALUE` prints the value read beside the traced one and never fails:
# the signals of the traced GPU are not the harness's.
# Timing: no waits; commands run back to back, trace timestamps are ignored.
# gen g84: PMC_BOOT_0 = 0x084a00a2 on line 5, chipset 0x84.
# domains 2: the highest domain touched is 1.
# `# line N`: the command's line in the trace.
gen g84
domains 2

# line 6: MARK perfctr: domain 1, quad mode, counters 0..3
write 0xa7c4 0x00000001        # line 7
write 0xa404 0x0000002a        # line 8
write 0xa424 0x0000aaaa        # line 9
write 0xa7c4 0x00000001        # line 10
write 0xa444 0x0000002b        # line 11
write 0xa464 0x0000aaaa        # line 12
write 0xa7c4 0x00000001        # line 13
write 0xa484 0x0000004d        # line 14
write 0xa4a4 0x0000aaaa        # line 15
write 0xa7c4 0x00000001        # line 16
write 0xa4c4 0x00000093        # line 17
write 0xa4e4 0x0000aaaa        # line 18
pulse pm_trigger               # line 22
read 0xa704 trace 0x00000003   # line 23
read 0xa6c4 trace 0x0001a2b3   # line 24
read 0xa684 trace 0x0004c1d0   # line 25
read 0xa744 trace 0x00000000   # line 26
read 0xa604 trace 0x0007a120   # line 27
";


use crate::common::{root, scratch};

/// A quiet script run without a fault, packets or a cycle bound of its own.
fn quiet_opts(model_only: bool, art: &Artifacts) -> ScriptOpts<'_> {
    ScriptOpts { model_only, fault: None, art, quiet: true, packets: None, x_seed: None, max_cycles: None }
}

fn sample() -> String {
    fs::read_to_string(root().join(SAMPLE)).unwrap()
}

#[test]
fn sample_imports_to_the_golden_script() {
    let imp = import(SAMPLE, &sample(), &Options::default()).unwrap();
    for (got, want) in imp.script.lines().zip(GOLDEN.lines()) {
        assert_eq!(got, want);
    }
    assert_eq!(imp.script, GOLDEN);
    assert_eq!((imp.gen.as_str(), imp.domains, imp.bar0, imp.skipped), ("g84", 2, 0xf600_0000, 4));
    // The script parses, and its body maps back to the trace lines.
    let s = script::parse("imported.pcs", &imp.script).unwrap();
    let trace_lines: Vec<usize> = imp.line_map(&s).into_iter().map(|(_, t)| t).collect();
    assert_eq!(trace_lines, [(7..=18).collect::<Vec<_>>(), vec![22, 23, 24, 25, 26, 27]].concat());
}

#[test]
fn sample_runs_model_only_and_in_lockstep() {
    let imp = import(SAMPLE, &sample(), &Options::default()).unwrap();
    let s = script::parse("nv50_perfctr.pcs", &imp.script).unwrap();
    let art = Artifacts { out: scratch("mmiotrace-run"), window: 100, shrink_secs: 0, wave: None };
    let traced: Vec<u32> = s
        .body
        .iter()
        .filter_map(|l| match l.cmd {
            Cmd::Read { expect: Some(Expect::Trace(t)), .. } => Some(t),
            _ => None,
        })
        .collect();
    assert_eq!(traced, [0x3, 0x1a2b3, 0x4c1d0, 0x0, 0x7a120]);
    let mut values = Vec::new();
    for model_only in [true, false] {
        let o = quiet_opts(model_only, &art);
        match run_parsed("nv50_perfctr.pcs", &s, &o, "make script FILE=nv50_perfctr.pcs") {
            Ok(r) => {
                assert!(r.cycles > 0);
                assert_eq!(r.reads.len(), 5, "one value per translated read");
                assert!(r.reads.iter().all(|r| !r.slverr), "domain 1 exists in a 2-domain build");
                values.push(r.reads.iter().map(|r| r.value).collect::<Vec<_>>());
            }
            Err(ScriptError::Input(e) | ScriptError::Failed(e)) => panic!("model_only={model_only}: {e}"),
        }
    }
    // Typed, not taken from a run: no signal is driven, so the four event
    // counters read 0; CTR_CYCLES (0xa604) counts the clocks after the
    // first CTRL write's ACCESS (cycle 1) through the last write's ACCESS
    // (cycle 23), 22, and the PM_TRIGGER pulse swaps them in (S1, S10).
    for v in &values {
        assert_eq!(v, &[0, 0, 0, 0, 22]);
    }
}

const GF100_SAMPLE: &str = "tests/mmiotrace/gf100_perfctr.mmiotrace";

/// The GF100 sample (issue 29), written from nouveau's sequence
/// (nvkm/engine/pm/base.c nvkm_perfdom_init / _sample / _read,
/// nvkm_pm_fini; gf100.c gf100_perfctr_init / _next / _read, gf100_pm_fini)
/// on a whole GF100 (4 GPCs and 6 partitions of one domain each, nouveau's
/// gf100 tables), line by line: VERSION (1); PCIDEV of a GF100 (10de:06c0,
/// BAR0 0xf4000000, 32 MiB) and of a host bridge (2, 3); MAP of BAR0 (4);
/// PMC_BOOT_0, chipset 0xc0 (5); MARK (6); nvkm_perfdom_init of GPC0 domain
/// 0 (dom->addr 0x180000): gf100_perfctr_init for slots 0..3, CTRL 0x09c =
/// 0x00040002, FILTER 0x100 = 0, the slot's SRC 0x040 + 8 * slot = signal
/// slot (nouveau's gf100_pm_gpc names 0x00..0x03 gpc00_l1_00..03; a signal
/// it does not name is refused before any write) and OP 0x044 + 8 * slot =
/// 0xaaaa (7..22), then its
/// gf100_perfctr_next, SWAP_SRC 0x06c = 0xe0 - 0x40 + 0x27 = 0xc7 and
/// USER_TRIGGER 0x0ec = 0x11 (23, 24); a VRAM MAP and a write through it at
/// +0x18009c, not nouveau's but the importer's filter at work (25, 26); MARK
/// (27); nvkm_perfdom_sample, next on
/// every domain of the list: GPC0..3 at 0x180000 + 0x1000 * g, PART0..5 at
/// 0x1a0000 + 0x1000 * p (28..47); MARK (48); gf100_perfctr_read of each
/// slot of GPC0 (CTR_PRE 0x08c, CTR_START 0x088, CTR_EVENT 0x080, CTR_STOP
/// 0x090), each followed by CTR_CYCLES 0x070 (49..56); a PGRAPH PM_TRIGGER
/// write, not nouveau's on GF100, no GF100 input (57); MARK (58); gf100_pm_fini's two nvkm_mask of
/// PMC.ENABLE bit 28, read then write each (59..62); UNMAP (63).
const GF100_GOLDEN_BODY: &str = "\
gen gf100
layout fermi_full

# line 6: MARK perfdom init: GPC0 domain 0, signals 0x00..0x03 (gpc00_l1_00..03), logic op 0xaaaa
write 0x18009c 0x00040002      # line 7
write 0x180100 0x00000000      # line 8
write 0x180040 0x00000000      # line 9
write 0x180044 0x0000aaaa      # line 10
write 0x18009c 0x00040002      # line 11
write 0x180100 0x00000000      # line 12
write 0x180048 0x00000001      # line 13
write 0x18004c 0x0000aaaa      # line 14
write 0x18009c 0x00040002      # line 15
write 0x180100 0x00000000      # line 16
write 0x180050 0x00000002      # line 17
write 0x180054 0x0000aaaa      # line 18
write 0x18009c 0x00040002      # line 19
write 0x180100 0x00000000      # line 20
write 0x180058 0x00000003      # line 21
write 0x18005c 0x0000aaaa      # line 22
write 0x18006c 0x000000c7      # line 23
write 0x1800ec 0x00000011      # line 24
# line 27: MARK perfdom sample: next on every domain (GPC0..3, PART0..5)
write 0x18006c 0x000000c7      # line 28
write 0x1800ec 0x00000011      # line 29
write 0x18106c 0x000000c7      # line 30
write 0x1810ec 0x00000011      # line 31
write 0x18206c 0x000000c7      # line 32
write 0x1820ec 0x00000011      # line 33
write 0x18306c 0x000000c7      # line 34
write 0x1830ec 0x00000011      # line 35
write 0x1a006c 0x000000c7      # line 36
write 0x1a00ec 0x00000011      # line 37
write 0x1a106c 0x000000c7      # line 38
write 0x1a10ec 0x00000011      # line 39
write 0x1a206c 0x000000c7      # line 40
write 0x1a20ec 0x00000011      # line 41
write 0x1a306c 0x000000c7      # line 42
write 0x1a30ec 0x00000011      # line 43
write 0x1a406c 0x000000c7      # line 44
write 0x1a40ec 0x00000011      # line 45
write 0x1a506c 0x000000c7      # line 46
write 0x1a50ec 0x00000011      # line 47
# line 48: MARK perfdom read
read 0x18008c trace 0x00001234 # line 49
read 0x180070 trace 0x0001869f # line 50
read 0x180088 trace 0x00000456 # line 51
read 0x180070 trace 0x0001869f # line 52
read 0x180080 trace 0x00000789 # line 53
read 0x180070 trace 0x0001869f # line 54
read 0x180090 trace 0x00000012 # line 55
read 0x180070 trace 0x0001869f # line 56
# line 58: MARK pm fini
pmc_enable 0                   # line 60
pmc_enable 1                   # line 62
";

/// The GF100 sample imports to the golden script (gen gf100 from
/// PMC_BOOT_0, fermi_full, the GF100 window, PMC.ENABLE) and replays in
/// lockstep and on the model with the values worked out by hand.
#[test]
fn gf100_sample_imports_and_replays() {
    let text = fs::read_to_string(root().join(GF100_SAMPLE)).unwrap();
    let imp = import(GF100_SAMPLE, &text, &Options::default()).unwrap();
    let body = imp.script.split_once("\ngen gf100\n").map(|(_, b)| format!("gen gf100\n{b}")).unwrap();
    assert_eq!(body, GF100_GOLDEN_BODY);
    assert!(imp.script.contains("# gen gf100: PMC_BOOT_0 = 0x0c0000a1 on line 5, chipset 0xc0.\n"));
    // fermi (nouveau's GF100 with two GPCs and two partitions) lacks GPC2..3
    // and PART2..5, which the sample writes: the whole GF100.
    assert!(imp.script.contains("# layout fermi_full: not the chipset's (fermi), which lacks a domain"));
    assert_eq!((imp.bar0, imp.bar0_line, imp.skipped), (0xf400_0000, 4, 5));
    let s = script::parse("gf100_perfctr.pcs", &imp.script).unwrap();
    let art = Artifacts { out: scratch("mmiotrace-gf100"), window: 100, shrink_secs: 0, wave: None };
    for model_only in [true, false] {
        let o = quiet_opts(model_only, &art);
        let r = run_parsed("gf100_perfctr.pcs", &s, &o, "make script FILE=gf100_perfctr.pcs")
            .unwrap_or_else(|e| panic!("model_only={model_only}: {e:?}"));
        // No signal driven: the four counters read 0. Write n's ACCESS is
        // at T0 + 2(n-1); the 18th (init's USER_TRIGGER) swaps GPC0 in tick
        // W + 1 = T0 + 35, the 20th (the sample's first, GPC0's) in tick
        // W2 + 1 = T0 + 39, so the period read has CTR_CYCLES = W2 - W = 4
        // (docs/design/gf100.md 3.8, S25); the other domains' swaps are
        // their own.
        let values: Vec<(u32, bool)> = r.reads.iter().map(|v| (v.value, v.slverr)).collect();
        assert_eq!(values, [0, 4, 0, 4, 0, 4, 0, 4].map(|v| (v, false)), "model_only={model_only}");
        assert_eq!(r.cycles, 92, "46 bus commands of 2 clocks; pmc_enable takes none");
    }
}

/// The README's sample block under "Replaying a driver trace" is exactly
/// what the command it shows prints (run from the repository root).
#[test]
fn readme_sample_output_is_reproduced() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let section = readme.split("## Replaying a driver trace").nth(1).expect("README section");
    // Fenced pieces are the odd ones: the sh block of the command, then the
    // next fence is its sample output.
    let pieces: Vec<&str> = section.split("```").collect();
    let at = (1..pieces.len())
        .step_by(2)
        .find(|&k| pieces[k].starts_with("sh\ntarget/release/pcnt import-mmiotrace "))
        .expect("the section's sh block running import-mmiotrace");
    let cmd = pieces[at].strip_prefix("sh\ntarget/release/pcnt ").unwrap().trim();
    let block = pieces[at + 2];
    let want: Vec<&str> = block.strip_prefix('\n').unwrap_or(block).lines().collect();
    let out =
        Command::new(env!("CARGO_BIN_EXE_pcnt")).args(cmd.split_whitespace()).current_dir(root()).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "{cmd}: {}\n{stdout}{}", out.status, String::from_utf8_lossy(&out.stderr));
    assert_eq!(stdout.lines().collect::<Vec<_>>(), want);
}

/// Malformed traces: `file:line: what was expected`, exit status 2, no panic.
#[test]
fn malformed_traces_give_file_line_errors() {
    let dir = scratch("mmiotrace-bad");
    let head = "VERSION 20070824\nMAP 1.000000 1 0xf6000000 0xffffc90000000000 0x1000000 0x0 0\n";
    let cases = [
        // An R record missing its PID.
        (
            "short_read",
            "R 4 1.000001 1 0xf600a704 0x3 0xffffffffa03b2d40\n",
            3,
            "R: expected 'R WIDTH TIMESTAMP MAP_ID ADDRESS VALUE PC PID' (8 fields), found 7",
        ),
        // A 16-bit write inside PCOUNTER.
        (
            "narrow_write",
            "W 4 1.000001 1 0xf600a7c4 0x1 0x0 0\nW 2 1.000002 1 0xf600a404 0x2a 0x0 0\n",
            4,
            "2-byte write at BAR0+0xa404, inside PCOUNTER (expected 4-byte accesses only",
        ),
        // A MAP whose fields are in the wrong order (MAP_ID before TIMESTAMP).
        (
            "map_order",
            "MAP 2 1.000001 0xe0000000 0x0 0x10000000 0x0 0\n",
            3,
            "MAP: bad MAP_ID '1.000001' (expected a decimal number; fields: MAP TIMESTAMP MAP_ID PHYS VIRT LEN PC PID)",
        ),
    ];
    for (name, body, line, want) in cases {
        let file = dir.join(format!("{name}.mmiotrace"));
        let text = format!("{head}{body}");
        fs::write(&file, &text).unwrap();
        let shown = file.display().to_string();
        // The library: an Err naming the line.
        let e = import(&shown, &text, &Options::default()).unwrap_err();
        assert_eq!(e.line, line, "{name}: {e}");
        assert_eq!(e.to_string(), format!("{shown}:{line}: {}", e.msg));
        assert!(e.msg.contains(want), "{name}: {e}");
        // The command: exit status 2, the same message on stderr, nothing run or written.
        let out = Command::new(env!("CARGO_BIN_EXE_pcnt"))
            .args([
                "import-mmiotrace",
                &shown,
                "--out",
                &dir.join(format!("{name}.pcs")).display().to_string(),
                "--run",
            ])
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{name}: {stderr}");
        assert!(stderr.starts_with(&format!("{shown}:{line}: ")) && stderr.contains(want), "{name}: {stderr}");
        assert!(!dir.join(format!("{name}.pcs")).exists());
    }
}

/// `--run` without `--out` saves the script in `--out-dir` (it always wrote
/// `./out/<trace>.pcs`); `make import-mmiotrace` passes `OUT` there.
#[test]
fn run_saves_the_script_in_out_dir() {
    let dir = scratch("mmiotrace-out-dir").join("elsewhere");
    let trace = root().join("tests/mmiotrace/nv50_perfctr.mmiotrace");
    let cwd = scratch("mmiotrace-out-dir-cwd");
    let out = Command::new(env!("CARGO_BIN_EXE_pcnt"))
        .args(["import-mmiotrace", &trace.display().to_string(), "--model-only", "--out-dir"])
        .arg(&dir)
        .current_dir(&cwd)
        .output()
        .unwrap();
    let (stdout, stderr) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
    assert_eq!(out.status.code(), Some(0), "{stdout}{stderr}");
    let script = dir.join("nv50_perfctr.pcs");
    assert!(script.is_file() && stdout.contains(&format!("wrote {}", script.display())), "{stdout}");
    assert!(!cwd.join("out").exists(), "wrote into ./out too");
}
