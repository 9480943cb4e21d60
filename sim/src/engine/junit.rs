//! JUnit XML of a `pcnt cosim` or `pcnt script` run (`--junit FILE`), for CI
//! that calls `pcnt` without `make test` (whose cargo-nextest writes its
//! own): one `testsuite`, one `testcase` per job or script, a `failure`
//! with the mismatch and the repro line, `skipped` for the jobs a failure
//! kept from starting.

use std::fmt::Write as _;
use std::path::Path;

/// One test case.
pub struct Case {
    pub name: String,
    pub secs: f64,
    /// `(what failed, repro line or report)`; None: passed.
    pub failure: Option<(String, String)>,
    pub skipped: bool,
}

fn esc(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '"' => o.push_str("&quot;"),
            '\'' => o.push_str("&apos;"),
            // XML 1.0 has no other control characters.
            c if (c as u32) < 0x20 && !matches!(c, '\t' | '\n' | '\r') => o.push('?'),
            c => o.push(c),
        }
    }
    o
}

/// The document of suite `suite`.
pub fn xml(suite: &str, cases: &[Case]) -> String {
    let failures = cases.iter().filter(|c| c.failure.is_some()).count();
    let skipped = cases.iter().filter(|c| c.skipped).count();
    let secs: f64 = cases.iter().map(|c| c.secs).sum();
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(
        s,
        "<testsuites><testsuite name=\"{}\" tests=\"{}\" failures=\"{failures}\" errors=\"0\" skipped=\"{skipped}\" \
         time=\"{secs:.3}\">",
        esc(suite),
        cases.len()
    );
    for c in cases {
        let _ = write!(s, "  <testcase classname=\"{}\" name=\"{}\" time=\"{:.3}\"", esc(suite), esc(&c.name), c.secs);
        match (&c.failure, c.skipped) {
            (Some((what, detail)), _) => {
                let _ =
                    writeln!(s, ">\n    <failure message=\"{}\">{}</failure>\n  </testcase>", esc(what), esc(detail));
            }
            (None, true) => s.push_str(">\n    <skipped/>\n  </testcase>\n"),
            (None, false) => s.push_str("/>\n"),
        }
    }
    s.push_str("</testsuite></testsuites>\n");
    s
}

/// Write [`xml`] to `path` (its folder created).
pub fn write(path: &Path, suite: &str, cases: &[Case]) -> Result<(), String> {
    crate::engine::artifacts::write_file(path, xml(suite, cases))
        .map_err(|e| format!("--junit {}: cannot write: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cases_failures_and_escapes() {
        let cases = [
            Case { name: "seed 1 <nv40>".into(), secs: 0.5, failure: None, skipped: false },
            Case {
                name: "seed 2".into(),
                secs: 1.0,
                failure: Some(("CTR_START[1] & \"x\"".into(), "make cosim SEED=2 FAULT=f".into())),
                skipped: false,
            },
            Case { name: "seed 3".into(), secs: 0.0, failure: None, skipped: true },
        ];
        let x = xml("pcnt cosim", &cases);
        assert!(x.contains("tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\""), "{x}");
        assert!(x.contains("name=\"seed 1 &lt;nv40&gt;\""), "{x}");
        assert!(x.contains("<failure message=\"CTR_START[1] &amp; &quot;x&quot;\">make cosim SEED=2 FAULT=f</failure>"));
        assert!(x.contains("<skipped/>") && x.ends_with("</testsuite></testsuites>\n"), "{x}");
    }
}
