//! What every input of the harness's text readers must keep, whatever its
//! bytes: no panic, no hang, and an error that names the file and the line
//! (1-based, within the input; 0 only for a whole-file error such as "no
//! BAR0 map"). Shared by the seeded corpus run in `make test`
//! (`tests/fuzz.rs`) and the cargo-fuzz targets (`fuzz/`), so both check the
//! same properties.

use std::path::PathBuf;

use pcounter_sim::{devices, pcnt::dump, pcnt::mmiotrace, pcnt::script};

/// Lines `str::lines` sees: an error may name any of them.
fn line_count(text: &str) -> usize {
    text.lines().count()
}

/// Bytes as the CLI sees a file: it reads text with `read_to_string`, which
/// refuses invalid UTF-8 before any parser runs.
fn text(data: &[u8]) -> Option<&str> {
    std::str::from_utf8(data).ok()
}

/// `pcnt script`: parse; a parsed script renders to text that parses back
/// to the same script (saved `stimulus.pcs` files depend on it).
pub fn script(data: &[u8]) {
    let Some(text) = text(data) else { return };
    match script::parse("fuzz.pcs", text) {
        Ok(s) => {
            let rendered = script::render(&s);
            let again = script::parse("rendered.pcs", &rendered)
                .unwrap_or_else(|e| panic!("render of a parsed script does not parse: {e}\n{rendered}"));
            assert_eq!(again, s.compact(), "render/parse round trip changed the script:\n{rendered}");
        }
        Err(e) => {
            assert_eq!(e.file, "fuzz.pcs");
            assert!(e.line >= 1 && e.line <= line_count(text), "line {} of {}: {e}", e.line, line_count(text));
            assert!(e.to_string().starts_with(&format!("fuzz.pcs:{}: ", e.line)), "{e}");
            assert!(!e.msg.is_empty());
        }
    }
}

/// An error of a device's script reader: `FILE:LINE: message`, the line
/// within the input (0: the script as a whole, e.g. its device line's
/// arguments or no command at all).
fn device_script_error(file: &str, text: &str, e: &str) {
    let rest = e.strip_prefix(&format!("{file}:")).unwrap_or_else(|| panic!("error without {file}: {e}"));
    let line = match rest.split(':').next().and_then(|n| n.parse::<usize>().ok()) {
        Some(n) => n,
        None if rest.starts_with(' ') => 0,
        None => panic!("error without {file}:LINE: {e}"),
    };
    assert!(line <= line_count(text), "line {line} of {}: {e}", line_count(text));
    assert!(e.len() > file.len() + 3, "empty message: {e}");
}

/// `pcnt script` on any device's script: the registry picks the device from
/// the first command line (none: PCOUNTER), its reader parses the script,
/// and the parsed commands render to a script that parses back to the same
/// commands (saved stimulus and shrunk scripts depend on it).
pub fn device_script(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let file = "fuzz.script";
    let s = match devices::split(file, text) {
        Ok(s) => s,
        Err(e) => return device_script_error(file, text, &e),
    };
    match (s.device.round_trip)(file, &s.text, &s.args) {
        Ok(None) => {}
        Ok(Some(why)) => panic!("{}: {why}", s.device.title),
        Err(e) => device_script_error(file, text, &e),
    }
}

/// `pcnt record-dump`: a packet log (then its table, CSV and SVG), and the
/// same bytes as a raw memory image with a base, format and domain taken
/// from the first bytes.
pub fn record_dump(data: &[u8]) {
    if let Some(text) = text(data) {
        match dump::parse_log("fuzz.log", text) {
            Ok(rows) => {
                let _ = dump::table(&rows);
                let _ = dump::csv(&rows);
                let _ = dump::svg(&rows);
            }
            Err(e) => {
                let line = e
                    .strip_prefix("fuzz.log:")
                    .and_then(|r| r.split(':').next())
                    .and_then(|n| n.parse::<usize>().ok())
                    .unwrap_or_else(|| panic!("error without fuzz.log:LINE: {e}"));
                assert!(line >= 1 && line <= line_count(text), "line {line} of {}: {e}", line_count(text));
            }
        }
    }
    let (head, image) = data.split_at(data.len().min(10));
    let mut b = [0u8; 8];
    b[..head.len().min(8)].copy_from_slice(&head[..head.len().min(8)]);
    let base = u64::from_le_bytes(b);
    let long = head.get(8).is_some_and(|x| x & 1 == 1);
    let domain = usize::from(head.get(9).copied().unwrap_or(0));
    match dump::parse_image(image, base, long, domain) {
        Ok(rows) => {
            let size = if long { 32 } else { 16 };
            assert!(rows.len() <= image.len() / size);
            for (i, r) in rows.iter().enumerate() {
                assert_eq!(Some(r.addr), base.checked_add((i * size) as u64), "packet {i}: wrapped address");
            }
            let _ = dump::table(&rows);
            let _ = dump::csv(&rows);
            let _ = dump::svg(&rows);
        }
        // The base past the 40-bit space, or an image cut inside a packet
        // (never a whole number of packets).
        Err(e) if e.starts_with("--base ") => {}
        Err(e) => {
            let size = if long { 32 } else { 16 };
            assert!(e.starts_with("the image ends inside a packet") && image.len() % size != 0, "{e}");
        }
    }
}

/// `pcnt import-mmiotrace`: an imported trace is a script `pcnt script`
/// accepts.
pub fn mmiotrace(data: &[u8]) {
    let Some(text) = text(data) else { return };
    match mmiotrace::import("fuzz.mmiotrace", text, &mmiotrace::Options::default()) {
        Ok(imp) => {
            let _ = imp.summary();
            let s = script::parse("imported.pcs", &imp.script)
                .unwrap_or_else(|e| panic!("the imported script does not parse: {e}\n{}", imp.script));
            let _ = imp.line_map(&s);
        }
        Err(e) => {
            assert_eq!(e.file, "fuzz.mmiotrace");
            assert!(e.line <= line_count(text), "line {} of {}: {e}", e.line, line_count(text));
            assert!(!e.msg.is_empty());
        }
    }
}

/// Separates the results files of one `merge` input.
pub const MERGE_SEP: &str = "\n=====\n";

/// `pcnt merge`: the input is up to 4 results files separated by
/// `MERGE_SEP`; a refusal names the file (and serde's line and column).
pub fn merge(data: &[u8]) {
    let Some(text) = text(data) else { return };
    let inputs: Vec<(PathBuf, String)> = text
        .split(MERGE_SEP)
        .take(4)
        .enumerate()
        .map(|(i, t)| (PathBuf::from(format!("shard{i}.json")), t.to_string()))
        .collect();
    match pcounter_sim::merge::merge_texts(&inputs) {
        Ok(code) => assert!(code <= 1),
        Err(e) => {
            let msg = e.to_string();
            assert!(msg.starts_with("shard") || msg == "merge: no files", "error without the file: {msg}");
            if msg.contains("not a results file") {
                assert!(msg.contains(" line ") && msg.contains(" column "), "JSON error without line: {msg}");
            }
        }
    }
}
