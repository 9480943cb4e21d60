//! Seeded fuzz corpus run of the text readers (`make test`): the real inputs
//! of the repository (scripts of every device, malformed scripts, the corpus, the sample
//! mmiotrace; a packet log, shard results files and past findings in
//! tests/fuzz/seeds/), each mutated a fixed
//! number of times by a ChaCha8 stream with a fixed seed, through the checks
//! of `tests/fuzz/checks.rs` (no panic, an error naming file and line). The same
//! checks run open-ended under cargo-fuzz (`make fuzz`, README "Fuzzing").
//! Deterministic: a failure names the seed file and the iteration, and
//! `mutant(seed, iteration)` rebuilds the input. A hang is a failure by the
//! nextest timeout of this binary (.config/nextest.toml).

#[path = "fuzz/checks.rs"]
mod checks;

use std::fs;
use std::path::{Path, PathBuf};
use std::time::Instant;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Mutants per target: a few seconds each in a release build on one core.
const ITERATIONS: u64 = 30_000;

/// Tokens that reach the readers' corners: number bases and overflow,
/// ranges, comparisons, separators, comments, byte-order marks, CRLF.
const TOKENS: &[&str] = &[
    "0x",
    "0xffffffff",
    "0xffffffffffffffff",
    "18446744073709551616",
    "99999999999",
    "4294967295",
    "-1",
    "0",
    "..",
    "==",
    "&",
    "/",
    "#",
    "\r\n",
    "\u{feff}",
    "\t",
    " ",
    "\n",
    "in",
    "trace",
    "strb",
    "long",
    "short",
    "irregular",
    "all",
    "gen",
    "domains",
    "clock",
    "wait",
    "write",
    "read",
    "set",
    "pulse",
    "poke",
    "mem",
    "latency",
    "fault",
    "layout",
    "decode",
    "xseed",
    "echo",
    "\"",
    "MAP",
    "R",
    "W",
    "PCIDEV",
    "MARK",
    "4",
    "null",
    "{",
    "}",
    "[",
    "]",
    ",",
    ":",
    "\"index\"",
    "\"plan\"",
    "\"jobs\"",
    "1e308",
    "é",
    "\0",
];

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The files of `dirs` whose name ends in `ext` ("" for all), sorted.
fn seeds(dirs: &[&str], ext: &str) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    for d in dirs {
        let mut files: Vec<PathBuf> = fs::read_dir(root().join(d))
            .unwrap_or_else(|e| panic!("{d}: {e}"))
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file() && p.to_string_lossy().ends_with(ext))
            .collect();
        files.sort();
        for f in files {
            out.push((format!("{d}/{}", f.file_name().unwrap().to_string_lossy()), fs::read(&f).unwrap()));
        }
    }
    assert!(!out.is_empty(), "no seed inputs in {dirs:?}");
    out
}

/// One mutation step: flip, insert, delete, duplicate or splice bytes,
/// insert a token, or swap two lines.
fn mutate(rng: &mut ChaCha8Rng, data: &mut Vec<u8>, donors: &[(String, Vec<u8>)]) {
    let at = |rng: &mut ChaCha8Rng, len: usize| rng.gen_range(0..=len);
    match rng.gen_range(0..7) {
        0 if !data.is_empty() => {
            let i = rng.gen_range(0..data.len());
            data[i] ^= 1 << rng.gen_range(0..8);
        }
        1 => {
            let i = at(rng, data.len());
            data.insert(i, rng.gen());
        }
        2 if !data.is_empty() => {
            let i = rng.gen_range(0..data.len());
            let n = rng.gen_range(1..=16).min(data.len() - i);
            data.drain(i..i + n);
        }
        3 if !data.is_empty() => {
            let i = rng.gen_range(0..data.len());
            let n = rng.gen_range(1..=64).min(data.len() - i);
            let chunk = data[i..i + n].to_vec();
            let j = at(rng, data.len());
            data.splice(j..j, chunk);
        }
        4 => {
            let d = &donors[rng.gen_range(0..donors.len())].1;
            if !d.is_empty() {
                let i = rng.gen_range(0..d.len());
                let n = rng.gen_range(1..=128).min(d.len() - i);
                let j = at(rng, data.len());
                data.splice(j..j, d[i..i + n].iter().copied());
            }
        }
        5 => {
            let t = TOKENS[rng.gen_range(0..TOKENS.len())].as_bytes();
            let j = at(rng, data.len());
            data.splice(j..j, t.iter().copied());
        }
        _ => {
            let mut lines: Vec<Vec<u8>> = data.split(|&b| b == b'\n').map(<[u8]>::to_vec).collect();
            if lines.len() > 1 {
                let (a, b) = (rng.gen_range(0..lines.len()), rng.gen_range(0..lines.len()));
                lines.swap(a, b);
                *data = lines.join(&b'\n');
            }
        }
    }
}

/// Iteration `i`'s input: the seed, mutated 1..=8 times, from a stream of
/// its own (so one input can be rebuilt without the ones before it).
fn mutant(seed: &[u8], donors: &[(String, Vec<u8>)], target: &str, i: u64) -> Vec<u8> {
    let salt = target.bytes().fold(0u64, |h, b| h.wrapping_mul(131).wrapping_add(u64::from(b)));
    let mut rng = ChaCha8Rng::seed_from_u64(salt ^ i.wrapping_mul(0x9e37_79b9_7f4a_7c15));
    let mut data = seed.to_vec();
    for _ in 0..rng.gen_range(1..=8) {
        mutate(&mut rng, &mut data, donors);
    }
    data
}

fn run(target: &str, seeds: &[(String, Vec<u8>)], check: fn(&[u8])) {
    let t0 = Instant::now();
    // The seeds themselves first: the real inputs must pass the checks.
    for (name, data) in seeds {
        check_one(target, name, None, data, check);
    }
    for i in 0..ITERATIONS {
        let (name, seed) = &seeds[i as usize % seeds.len()];
        let data = mutant(seed, seeds, target, i);
        check_one(target, name, Some(i), &data, check);
    }
    eprintln!("fuzz {target}: {} seeds + {ITERATIONS} mutants in {:.2} s", seeds.len(), t0.elapsed().as_secs_f64());
}

fn check_one(target: &str, name: &str, i: Option<u64>, data: &[u8], check: fn(&[u8])) {
    let r = std::panic::catch_unwind(|| check(data));
    if r.is_err() {
        let dump = std::env::temp_dir().join(format!("fuzz-{target}-{}.bin", i.map_or(-1, |i| i as i64)));
        let _ = fs::write(&dump, data);
        panic!(
            "fuzz {target}: seed {name}, iteration {i:?} failed (input saved to {}; feed it to `cargo fuzz run \
             {target} FILE`):\n{}",
            dump.display(),
            String::from_utf8_lossy(data)
        );
    }
}

#[test]
fn script_parser() {
    run("script", &seeds(&["tests/scripts", "tests/scripts/bad", "tests/corpus"], ".pcs"), checks::script);
}

/// Every device's script reader but PCOUNTER's (above), through the
/// registry: the device's scripts (tests/scripts/<name>/*.<ext>) as seeds.
#[test]
fn every_device_script_reader() {
    for d in &pcounter_sim::devices::DEVICES[1..] {
        let dir = format!("tests/scripts/{}", d.name);
        run("device_script", &seeds(&[dir.as_str()], &format!(".{}", d.script_ext)), checks::device_script);
    }
}

#[test]
fn record_dump() {
    run("record_dump", &seeds(&["tests/fuzz/seeds/record_dump"], ""), checks::record_dump);
}

#[test]
fn mmiotrace_import() {
    run("mmiotrace", &seeds(&["tests/mmiotrace"], ".mmiotrace"), checks::mmiotrace);
}

#[test]
fn merge_inputs() {
    // Two shards of a small regression, and both in one input (a passing
    // merge, checks::MERGE_SEP between them).
    run("merge", &seeds(&["tests/fuzz/seeds/merge"], ""), checks::merge);
}
