//! The README's commands run in `make test`, so the README cannot go stale.
//!
//! The rule (README "The README is tested"): every line of a ```sh fence is a
//! command, run by bash from the root of a scratch copy of the repository
//! (like a fresh clone: no `out/`), in the order of the README, and must exit
//! 0. An HTML comment on the line before the fence changes that:
//!
//! * `<!-- readme-test: skip (REASON) -->`: not run;
//! * `<!-- readme-test: vars A=1 B=2 (REASON) -->`: each `make` line gets
//!   these variables appended (they override the line's own: shorter runs);
//! * `<!-- readme-test: exit N (REASON) -->`: the commands must exit N (make
//!   exits 2 when a recipe fails).
//!
//! A plain fence after `<!-- readme-test: sample -->` is the output of the
//! last command of the sh block before it: each of its lines, in order, must
//! have the same SHAPE as a line of the real output (stdout and stderr
//! together). The shape of a line is its whitespace-separated words, with
//! each word that holds a digit replaced by `#` (counts, cycles, seeds,
//! rates, addresses vary; names, labels and field names must not). A sample
//! line `...` stands for any lines; a line ending in ` ...` is cut and
//! matches any line that starts with the same shape. `sample; ignore P`
//! skips the sample lines starting with `P` (the terminal's progress bar).
//!
//! `make` lines run with `CARGO=true`: the `pcnt` this test binary was built
//! with is `target/release/pcnt` in the copy, so no build runs here.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..")
}

#[derive(Debug, Default)]
struct Block {
    /// README line of the first command.
    line: usize,
    cmds: Vec<String>,
    skip: bool,
    vars: Vec<String>,
    exit: i32,
    sample: Option<Sample>,
}

#[derive(Debug)]
struct Sample {
    line: usize,
    lines: Vec<String>,
    ignore: Vec<String>,
}

/// `<!-- readme-test: ... -->` of `line`, if it is one.
fn marker(line: &str) -> Option<&str> {
    line.trim().strip_prefix("<!-- readme-test:")?.strip_suffix("-->").map(str::trim)
}

/// The sh blocks of the README with their markers and samples. Malformed
/// markers are errors: a typo must not silently skip a command.
fn blocks(readme: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = readme.lines().collect();
    let mut out: Vec<Block> = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let fence = lines[i].trim_start();
        if !fence.starts_with("```") {
            i += 1;
            continue;
        }
        let lang = fence.trim_start_matches('`').trim();
        let start = i + 1;
        let end = (start..lines.len())
            .find(|&k| lines[k].trim_start().starts_with("```"))
            .ok_or(format!("README.md:{}: unclosed fence", i + 1))?;
        let body: Vec<String> = lines[start..end].iter().map(|l| l.to_string()).collect();
        let mark = (i > 0).then(|| marker(lines[i - 1])).flatten();
        if lang == "sh" {
            let mut b = Block { line: start + 1, ..Block::default() };
            if let Some(m) = mark {
                let (word, rest) = m.split_once(' ').unwrap_or((m, ""));
                match word {
                    "skip" if !rest.is_empty() => b.skip = true,
                    "vars" => {
                        let vars = rest.split(" (").next().unwrap_or("");
                        b.vars = vars.split_whitespace().map(String::from).collect();
                        if b.vars.is_empty() || !b.vars.iter().all(|v| v.contains('=')) {
                            return Err(format!("README.md:{i}: `vars` needs NAME=VALUE words: {m}"));
                        }
                    }
                    "exit" => {
                        let n = rest.split_whitespace().next().unwrap_or("");
                        b.exit = n.parse().map_err(|_| format!("README.md:{i}: `exit N (REASON)`: {m}"))?;
                    }
                    _ => {
                        return Err(format!(
                            "README.md:{i}: unknown marker before a sh block (skip REASON, vars, exit): {m}"
                        ))
                    }
                }
            }
            b.cmds = body.into_iter().filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#')).collect();
            if b.cmds.is_empty() {
                return Err(format!("README.md:{}: empty sh block", start));
            }
            out.push(b);
        } else if let Some(m) = mark {
            let mut parts = m.split(';').map(str::trim);
            if parts.next() != Some("sample") {
                return Err(format!("README.md:{i}: unknown marker before an output block (sample): {m}"));
            }
            let mut ignore = Vec::new();
            for p in parts {
                let prefix =
                    p.strip_prefix("ignore ").ok_or(format!("README.md:{i}: expected `ignore PREFIX`: {p}"))?;
                ignore.push(prefix.to_string());
            }
            let b = out.last_mut().ok_or(format!("README.md:{i}: a sample before any sh block"))?;
            // A skipped block never runs: its sample would never be
            // compared (the `make cosim` sample once followed the skipped
            // `make test` block and passed unchecked).
            if b.skip {
                return Err(format!(
                    "README.md:{i}: a sample after the skipped sh block of line {}: never compared",
                    b.line
                ));
            }
            if b.sample.is_some() {
                return Err(format!("README.md:{i}: a second sample for the sh block of line {}", b.line));
            }
            b.sample = Some(Sample { line: start + 1, lines: body, ignore });
        }
        i = end + 1;
    }
    Ok(out)
}

/// The words of a line, `#` for each word holding a digit.
fn shape(line: &str) -> Vec<String> {
    line.split_whitespace().map(|w| if w.chars().any(|c| c.is_ascii_digit()) { "#".into() } else { w.into() }).collect()
}

/// Each sample line, in order, matches a line of `output` (see the module
/// documentation); the first that does not is the error.
fn check_shape(sample: &Sample, output: &str) -> Result<(), String> {
    let actual: Vec<Vec<String>> = output.split(['\n', '\r']).map(shape).filter(|s| !s.is_empty()).collect();
    let mut at = 0;
    for (k, l) in sample.lines.iter().enumerate() {
        let t = l.trim();
        if t.is_empty() || t == "..." || sample.ignore.iter().any(|p| t.starts_with(p.as_str())) {
            continue;
        }
        let (want, prefix) = match t.strip_suffix(" ...") {
            Some(cut) => (shape(cut), true),
            None => (shape(t), false),
        };
        let hit = actual[at..].iter().position(|a| if prefix { a.starts_with(&want) } else { *a == want });
        match hit {
            Some(p) => at += p + 1,
            None => {
                return Err(format!(
                    "README.md:{}: sample line `{t}` (shape `{}`) has no counterpart in the output after line {at}",
                    sample.line + k,
                    want.join(" ")
                ))
            }
        }
    }
    Ok(())
}

/// A copy of the repository's sources (no build outputs, no `out/`), with
/// the tested `pcnt` as `target/release/pcnt`.
fn scratch_copy() -> PathBuf {
    let dst = std::env::temp_dir().join(format!("pcnt-readme-{}", std::process::id()));
    let _ = fs::remove_dir_all(&dst);
    copy_tree(&root(), &dst);
    fs::create_dir_all(dst.join("target/release")).unwrap();
    std::os::unix::fs::symlink(env!("CARGO_BIN_EXE_pcnt"), dst.join("target/release/pcnt")).unwrap();
    dst
}

fn copy_tree(from: &Path, to: &Path) {
    const SKIP: &[&str] = &["target", ".git", ".venv", "out", "corpus", "artifacts"];
    fs::create_dir_all(to).unwrap();
    for e in fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let name = e.file_name();
        let ty = e.file_type().unwrap();
        // fuzz/corpus and fuzz/artifacts are local fuzzing state; tests/corpus is source.
        let local_state = from.ends_with("fuzz") && SKIP.contains(&&*name.to_string_lossy());
        if ty.is_dir() {
            if from == root() && SKIP[..4].contains(&&*name.to_string_lossy()) || local_state {
                continue;
            }
            copy_tree(&e.path(), &to.join(&name));
        } else if ty.is_file() {
            fs::copy(e.path(), to.join(&name)).unwrap();
        }
    }
}

fn run(dir: &Path, b: &Block, cmd: &str) -> (i32, String) {
    let line = if cmd.trim_start().starts_with("make ") {
        // The variables go before a trailing `# comment`, which would hide them.
        let code = cmd.split(" #").next().unwrap_or(cmd);
        format!("{code} CARGO=true {}", b.vars.join(" "))
    } else {
        cmd.to_string()
    };
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!("{line} 2>&1"))
        .current_dir(dir)
        // A nested make of `make test` must not inherit its job server or
        // level; no display: `make waves` prints the command instead.
        .env_remove("MAKEFLAGS")
        .env_remove("MFLAGS")
        .env_remove("MAKELEVEL")
        .env_remove("DISPLAY")
        // Never a build here, even for a make line whose variables were
        // lost (cargo sets CARGO for tests; the Makefile reads it).
        .env("CARGO", "true")
        .output()
        .unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

#[test]
fn every_readme_command_runs_and_matches_its_sample() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let blocks = blocks(&readme).unwrap_or_else(|e| panic!("{e}"));
    let dir = scratch_copy();
    let mut errors = Vec::new();
    let (mut ran, mut skipped, mut samples) = (0, 0, 0);
    for b in &blocks {
        if b.skip {
            skipped += b.cmds.len();
            continue;
        }
        let mut last = String::new();
        for (k, cmd) in b.cmds.iter().enumerate() {
            let t0 = std::time::Instant::now();
            let (code, out) = run(&dir, b, cmd);
            ran += 1;
            eprintln!("README.md:{}: `{cmd}` -> exit {code} in {:.1} s", b.line + k, t0.elapsed().as_secs_f64());
            if code != b.exit {
                errors.push(format!("README.md:{}: `{cmd}`: exit {code}, expected {}\n{out}", b.line + k, b.exit));
            }
            last = out;
        }
        if let Some(s) = &b.sample {
            samples += 1;
            if let Err(e) = check_shape(s, &last) {
                errors.push(format!("{e}\n--- output of `{}`:\n{last}", b.cmds.last().unwrap()));
            }
        }
    }
    eprintln!("README: {ran} command(s) run, {skipped} skipped by marker, {samples} sample(s) compared");
    assert!(errors.is_empty(), "{}", errors.join("\n\n"));
    assert!(ran >= 10 && samples >= 4, "the extractor found too little: {ran} commands, {samples} samples");
    let _ = fs::remove_dir_all(&dir);
}

/// The README once carried two copies of its last sections, one cut into
/// the other's code block: every section heading appears once.
#[test]
fn readme_sections_are_unique() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let mut heads: Vec<&str> = readme.lines().filter(|l| l.starts_with("## ")).collect();
    let n = heads.len();
    heads.sort();
    heads.dedup();
    assert_eq!(heads.len(), n, "a section heading appears twice");
}

/// The extractor and the shape rule themselves, on a small README.
#[test]
fn extractor_rules() {
    let md = "x\n<!-- readme-test: vars SEEDS=2 (short) -->\n```sh\nmake cosim  # c\n\n# only a comment\n```\n\
              <!-- readme-test: sample; ignore [# -->\n```\ncosim PASSED: 84 runs, 0 mismatches\n[### progress\n...\n```\n\
              <!-- readme-test: skip (GUI) -->\n```sh\nmake waves\n```\n";
    let b = blocks(md).unwrap();
    assert_eq!(b.len(), 2);
    assert_eq!((b[0].line, b[0].cmds.len(), b[0].vars.as_slice()), (4, 1, &["SEEDS=2".to_string()][..]));
    assert!(b[1].skip && b[0].sample.is_some());
    let s = b[0].sample.as_ref().unwrap();
    assert!(check_shape(s, "noise\ncosim PASSED: 2 runs, 0 mismatches\n").is_ok());
    // A changed label or a missing word is caught; numbers are free.
    assert!(check_shape(s, "cosim PASSED: 2 jobs, 0 mismatches\n").is_err());
    assert!(check_shape(s, "cosim PASSED: 2 runs\n").is_err());
    assert!(blocks("<!-- readme-test: skp (typo) -->\n```sh\nmake x\n```\n").is_err());
    assert!(blocks("<!-- readme-test: skip -->\n```sh\nmake x\n```\n").is_err(), "skip needs a reason");
    let after_skip =
        "<!-- readme-test: skip (GUI) -->\n```sh\nmake waves\n```\n<!-- readme-test: sample -->\n```\nx\n```\n";
    assert!(blocks(after_skip).unwrap_err().contains("never compared"), "a sample of a skipped block");
}

/// Every seed line citation (`003:538`, `004:979`, `003:79-105`) in the
/// repository's sources and docs falls in a row of docs/seed-lines.md, so a
/// reader with the public document finds its section (README "Where the
/// spec comes from"); the table's rows of a seed are in order and leave no
/// gap.
#[test]
fn every_seed_citation_resolves_to_a_section() {
    let table = fs::read_to_string(root().join("docs/seed-lines.md")).unwrap();
    let mut rows: Vec<(String, u32, u32, String)> = Vec::new();
    for l in table.lines().filter(|l| l.starts_with("| 00")) {
        let c: Vec<&str> = l.trim_matches('|').split('|').map(str::trim).collect();
        let (a, b) = c[1].split_once('-').unwrap();
        rows.push((c[0].to_string(), a.parse().unwrap(), b.parse().unwrap(), c[2].to_string()));
    }
    assert!(rows.len() > 20, "docs/seed-lines.md has {} rows", rows.len());
    for w in rows.windows(2).filter(|w| w[0].0 == w[1].0) {
        assert_eq!(w[0].2 + 1, w[1].1, "docs/seed-lines.md: a gap or overlap after {w:?}");
    }
    let section = |seed: &str, line: u32| rows.iter().find(|r| r.0 == seed && (r.1..=r.2).contains(&line));
    let (mut n, mut bad) = (0, Vec::new());
    for f in &source_files() {
        let Ok(text) = fs::read_to_string(f) else { continue };
        for (i, line) in text.lines().enumerate() {
            let b = line.as_bytes();
            let mut k = 0;
            while let Some(j) = line[k..].find(':').map(|j| j + k) {
                k = j + 1;
                if j < 3 || !line.is_char_boundary(j - 3) {
                    continue;
                }
                let seed = &line[j - 3..j];
                let word_start = j < 4 || !b[j - 4].is_ascii_alphanumeric();
                if !matches!(seed, "003" | "004") || !word_start {
                    continue;
                }
                let num: String = line[k..].chars().take_while(|c| c.is_ascii_digit()).collect();
                let Ok(first) = num.parse::<u32>() else { continue };
                let rest = &line[k + num.len()..];
                let last = rest
                    .strip_prefix('-')
                    .map(|r| r.chars().take_while(|c| c.is_ascii_digit()).collect::<String>())
                    .and_then(|s| s.parse::<u32>().ok())
                    .unwrap_or(first);
                n += 1;
                for l in [first, last] {
                    if section(seed, l).is_none() {
                        bad.push(format!("{}:{}: {seed}:{l}", f.display(), i + 1));
                    }
                }
            }
        }
    }
    assert!(n > 300, "only {n} citations found: the scan is broken");
    assert!(bad.is_empty(), "citations outside docs/seed-lines.md:\n{}", bad.join("\n"));
}

/// The sources and docs a citation can sit in.
fn source_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut stack: Vec<PathBuf> = ["rtl", "src", "sim/src", "sim/csrc", "sim/rtl", "tests", "docs", "tools", "regmap"]
        .iter()
        .map(|d| root().join(d))
        .collect();
    files.extend(["README.md", "Makefile", "sim/build.rs"].iter().map(|f| root().join(f)));
    while let Some(d) = stack.pop() {
        for e in fs::read_dir(&d).into_iter().flatten().flatten() {
            let p = e.path();
            if p.is_dir() {
                stack.push(p);
            } else {
                files.push(p);
            }
        }
    }
    files
}

/// The section citations of `text`: `S25.9`, `P5`, `R13` as words (a
/// letter S, P or R, one or two digits, optionally a dot and one or two
/// more), not part of a longer name or number (`R10000`, `GP5x`, `v1.S2`).
fn section_citations(text: &str) -> Vec<&str> {
    let b = text.as_bytes();
    let word = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let digits = |from: usize| b[from..].iter().take_while(|c| c.is_ascii_digit()).count();
    let mut out = Vec::new();
    for i in 0..b.len() {
        if !matches!(b[i], b'S' | b'P' | b'R') || (i > 0 && (word(b[i - 1]) || matches!(b[i - 1], b'.' | b'/' | b'-')))
        {
            continue;
        }
        let n = digits(i + 1);
        if !(1..=2).contains(&n) {
            continue;
        }
        let mut end = i + 1 + n;
        if end + 1 < b.len() && b[end] == b'.' && (1..=2).contains(&digits(end + 1)) {
            end += 1 + digits(end + 1);
        }
        if end < b.len() && (word(b[end]) || (b[end] == b'.' && end + 1 < b.len() && b[end + 1].is_ascii_digit())) {
            continue;
        }
        out.push(&text[i..end]);
    }
    out
}

/// docs/semantics.md and its chapters (docs/semantics/*.md, each linked
/// from the entry point's chapter table): (entry text, [(file name, text)]).
fn semantics_chapters() -> (String, Vec<(String, String)>) {
    let doc = fs::read_to_string(root().join("docs/semantics.md")).unwrap();
    let mut chapters = Vec::new();
    for e in fs::read_dir(root().join("docs/semantics")).unwrap() {
        let name = e.unwrap().file_name().into_string().unwrap();
        assert!(doc.contains(&format!("](semantics/{name})")), "docs/semantics.md does not link chapter {name}");
        chapters.push((name.clone(), fs::read_to_string(root().join("docs/semantics").join(&name)).unwrap()));
    }
    chapters.sort();
    assert!(chapters.len() >= 4, "one chapter per device, GF100 its own");
    (doc, chapters)
}

/// Every S, P and R section citation in the sources and docs names a
/// heading of docs/semantics.md or one of its chapters, the documents that
/// decide (issue 32).
#[test]
fn every_section_citation_resolves_to_a_heading() {
    let (doc, chapters) = semantics_chapters();
    let section = |l: &str| {
        l.starts_with('#')
            .then(|| l.trim_start_matches('#').split_whitespace().next())
            .flatten()
            .map(|w| w.trim_end_matches(['.', ':']).to_string())
    };
    let all = std::iter::once(doc.as_str()).chain(chapters.iter().map(|(_, t)| t.as_str()));
    let headings: std::collections::HashSet<String> = all.flat_map(|t| t.lines().filter_map(section)).collect();
    // The entry point's contents list every section of every chapter, with
    // a link into the chapter that holds it.
    for (name, text) in &chapters {
        for id in text.lines().filter_map(section).filter(|w| !section_citations(w).is_empty()) {
            let entry = format!("* [{id}](semantics/{name}#");
            assert!(
                doc.lines().any(|l| l.trim_start().starts_with(&entry)),
                "docs/semantics.md's contents miss {id} of semantics/{name}"
            );
        }
    }
    // The scan can fail: a made-up section is reported, names that only
    // look like one are not.
    // (The made-up name is put together here, so this file cites no such
    // section itself.)
    let fake = format!("S{}", 90 + 9);
    let sample = format!("see {fake}, P5 and R10000 (S25.9); GP5x v1.S2");
    assert_eq!(section_citations(&sample), [fake.as_str(), "P5", "S25.9"]);
    assert!(!headings.contains(&fake));
    let (mut n, mut bad) = (0, Vec::new());
    for f in &source_files() {
        let Ok(text) = fs::read_to_string(f) else { continue };
        for (i, line) in text.lines().enumerate() {
            for c in section_citations(line) {
                n += 1;
                if !headings.contains(c) {
                    bad.push(format!("{}:{}: {c}", f.display(), i + 1));
                }
            }
        }
    }
    assert!(n > 2000, "only {n} section citations found: the scan is broken");
    assert!(bad.is_empty(), "citations of no docs/semantics.md heading:\n{}", bad.join("\n"));
}

/// The PeakRDL views of each PCOUNTER layout (docs/regmap/) say which of the
/// layout's generations have a register or field, and leave out what none
/// of them has (issue 29: the NV10 layout's pages listed the G92-only
/// ARG2/ARG3 delayed-argument bits as writable). Expectations typed from
/// seed 003: the delayed arguments are "[G92-]", SETFLAG_SRC is NV10:NV30.
#[test]
fn register_views_say_which_generations_have_each_field() {
    let read = |p: &str| fs::read_to_string(root().join(p)).unwrap();
    for p in ["docs/regmap/pcounter_nv10.md", "docs/regmap/pcounter_nv10.h"] {
        assert!(!read(p).contains("ARG2_SRC0_DELAYED"), "{p} lists a G92 field on the NV10 layout");
    }
    let nv10_h = read("docs/regmap/pcounter_nv10.h");
    assert!(nv10_h.contains("//   SETFLAG_SRC: NV10 to NV20\n"), "{nv10_h}");
    let nv10_md = read("docs/regmap/pcounter_nv10.md");
    assert!(nv10_md.contains("<p>Generations of this layout: NV10 to NV20 only. SETFLAG input selection"));
    let nv40 = read("docs/regmap/pcounter.md");
    let at = nv40.find("#### ARG2_SRC0_DELAYED field").expect("the NV40 layout keeps the G92 field");
    assert!(nv40[at..].starts_with("#### ARG2_SRC0_DELAYED field\n\n<p>Generations of this layout: G92 to GT215 only."));
}
