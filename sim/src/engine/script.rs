//! Device-independent parts of scenario scripts: lexing a line, numbers
//! (decimal or 0x-hex, `_` separators), an argument cursor that knows its
//! command's usage, and quoting a bad token for a message. A device's
//! command table (e.g. `pcnt::script::COMMANDS`) is built on these. Also
//! what a script run is given and answers on every device ([`ScriptOpts`],
//! [`ScriptError`]) and the cycle bound every device checks at parse time
//! ([`check_bound`]).

use std::path::Path;

use crate::engine::artifacts::Artifacts;

/// Outcome of a scenario script that did not pass.
#[derive(Debug)]
pub enum ScriptError {
    /// The script or the request is wrong: parse error, cycle bound, no
    /// build for its configuration, an option that does not apply (exit 2).
    Input(String),
    /// An expectation failed, RTL and model disagree, or an RTL assertion
    /// failed (exit 1); the artifacts are written.
    Failed(String),
}

/// How a script runs (`pcnt script` options), on any device.
#[derive(Clone, Copy, Debug)]
pub struct ScriptOpts<'a> {
    pub model_only: bool,
    pub fault: Option<&'a str>,
    pub art: &'a Artifacts,
    /// Do not print the values read.
    pub quiet: bool,
    /// Write the model's record packets here (PCOUNTER's `crate::pcnt::dump` log).
    pub packets: Option<&'a Path>,
    /// Initial-value seed for a script without an `xseed` line.
    pub x_seed: Option<u32>,
    /// Most bus cycles a script may run (`--max-cycles`; None: the default
    /// [`SCRIPT_MAX_CYCLES`]), checked when the script is parsed.
    pub max_cycles: Option<u64>,
}

impl ScriptOpts<'_> {
    pub fn max_cycles(&self) -> u64 {
        self.max_cycles.unwrap_or(SCRIPT_MAX_CYCLES)
    }
}

/// Default bound of a script's length in bus cycles (about a minute of
/// lockstep at 8 domains); `pcnt script --max-cycles N` raises it.
pub const SCRIPT_MAX_CYCLES: u64 = 10_000_000;

/// The cycle bound, checked on a parsed script before any cycle runs:
/// `clocks` gives each command's line and the bus clocks it takes (waits
/// and bus accesses). A script whose sum passes `max` is refused at the
/// line where it does, so no script runs for hours by a typo.
pub fn check_bound(file: &str, clocks: impl IntoIterator<Item = (usize, u64)>, max: u64) -> Result<u64, String> {
    let mut sum = 0u64;
    for (line, c) in clocks {
        sum = sum.saturating_add(c);
        if sum > max {
            return Err(format!(
                "{file}:{line}: the script would run {} bus cycles through this line, past the bound of {max} \
                 (raise it with --max-cycles)",
                if sum == u64::MAX { "more than 2^64".to_string() } else { sum.to_string() }
            ));
        }
    }
    Ok(sum)
}

/// Splits on whitespace, and also around `&` and runs of `=` so that
/// `read 0xa600==0x64` works as well as the spaced form.
pub fn lex(code: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut word: Option<usize> = None;
    let mut chars = code.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if !(c.is_whitespace() || c == '&' || c == '=') {
            word.get_or_insert(i);
            continue;
        }
        if let Some(start) = word.take() {
            out.push(&code[start..i]);
        }
        if c == '&' {
            out.push(&code[i..i + 1]);
        } else if c == '=' {
            let mut end = i + 1;
            while let Some(&(j, '=')) = chars.peek() {
                end = j + 1;
                chars.next();
            }
            out.push(&code[i..end]);
        }
    }
    if let Some(start) = word {
        out.push(&code[start..]);
    }
    out
}

/// A token quoted for a message: control characters escaped and long
/// garbage cut short, so one bad line cannot produce an unreadable error.
pub fn show(tok: &str) -> String {
    const MAX: usize = 40;
    let mut s: String = tok.chars().take(MAX).flat_map(|c| c.escape_debug()).collect();
    if tok.chars().nth(MAX).is_some() {
        s.push_str("...");
    }
    s
}

pub enum NumError {
    Syntax,
    TooBig,
}

/// Decimal or 0x-hex, `_` allowed between digits. Hand-rolled because
/// `from_str_radix` accepts a leading `+`, which the format does not.
pub fn parse_u64(tok: &str) -> Result<u64, NumError> {
    let (digits, radix) = match tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
        Some(hex) => (hex, 16),
        None => (tok, 10),
    };
    if digits.is_empty() || digits.starts_with('_') || digits.ends_with('_') {
        return Err(NumError::Syntax);
    }
    let mut v: Option<u64> = Some(0);
    for c in digits.chars().filter(|&c| c != '_') {
        let d = c.to_digit(radix).ok_or(NumError::Syntax)?;
        // Keep scanning after overflow: "999...9zz" is a syntax error, not "too big".
        v = v.and_then(|v| v.checked_mul(u64::from(radix))).and_then(|v| v.checked_add(u64::from(d)));
    }
    v.ok_or(NumError::TooBig)
}

/// Parses `tok` as the argument `what`, which must lie in `min..=max`;
/// `expected` tells the user what a valid value looks like.
pub fn num(tok: &str, what: &str, min: u64, max: u64, expected: &str) -> Result<u64, String> {
    match parse_u64(tok) {
        Err(NumError::Syntax) => Err(format!("bad number '{}' for {what} (expected {expected})", show(tok))),
        Ok(v) if (min..=max).contains(&v) => Ok(v),
        _ => Err(format!("{what} {} out of range (expected {expected})", show(tok))),
    }
}

/// Cursor over one command's arguments; knows the usage line so every
/// "missing"/"unexpected" message can show it.
pub struct Args<'a> {
    pub toks: &'a [&'a str],
    pub pos: usize,
    pub usage: &'static str,
}

impl<'a> Args<'a> {
    pub fn next(&mut self, what: &str) -> Result<&'a str, String> {
        let tok = self
            .peek()
            .ok_or_else(|| format!("missing argument {what} for '{}' (usage: {})", self.toks[0], self.usage))?;
        self.pos += 1;
        Ok(tok)
    }

    pub fn peek(&self) -> Option<&'a str> {
        self.toks.get(self.pos).copied()
    }

    pub fn finish(&self) -> Result<(), String> {
        match self.peek() {
            None => Ok(()),
            Some(tok) => Err(format!(
                "unexpected '{}' after '{}' (usage: {})",
                show(tok),
                self.toks[..self.pos].iter().map(|t| show(t)).collect::<Vec<_>>().join(" "),
                self.usage
            )),
        }
    }
}

/// Declares a device's body commands once: for each, the script name, the
/// usage line, the argument parser with its checks, how it renders back in
/// script syntax (shrinking, saved stimulus, reports) and what it does to the
/// engine, through the device's target trait. Generates the command enum,
/// its `Display`, `run` and the table rows the parser and `--help` read, so
/// adding a command is one entry in the device's table.
///
/// ```ignore
/// script_commands! {
///     enum Cmd; target Target; result Result<Option<BusResult>, Box<Mismatch>>;
///     config [ /* CommandSpec rows of configuration commands */ ];
///     /// doc of the variant
///     "wait" Wait { cycles: u64 }
///         usage "wait CYCLES";
///         example "wait 10";
///         parse(a) { Ok(Cmd::Wait { cycles: num(a.next("CYCLES")?, ..)? }) }
///         render(f) { write!(f, "wait {cycles}") }
///         run(t) { t.idle(*cycles).map(|()| None) }
/// }
/// ```
/// The table is `COMMANDS: &[CommandSpec]`, configuration rows first, each
/// body row built by `CommandSpec::body(name, usage, example, parse)` (the
/// device's type). The example is a line in script syntax that must parse to
/// this command and render back unchanged (the device's tests check every
/// row). Fields are bound by reference in `render` and `run`.
macro_rules! script_commands {
    (
        enum $Cmd:ident; target $Target:path; result $Res:ty;
        config [ $($config:expr),* $(,)? ];
        $(
            $(#[$meta:meta])*
            $name:literal $Var:ident { $($field:ident : $ty:ty),* $(,)? }
                usage $usage:expr;
                example $example:literal;
                parse($a:ident) $parse:block
                render($f:ident) $render:block
                run($t:ident) $run:block
        )*
    ) => {
        #[derive(Clone, Debug, PartialEq, Eq)]
        pub enum $Cmd {
            $( $(#[$meta])* $Var { $($field: $ty),* }, )*
        }

        impl ::std::fmt::Display for $Cmd {
            fn fmt(&self, formatter: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                match self {
                    $(
                        #[allow(unused_variables)]
                        $Cmd::$Var { $($field),* } => {
                            let $f = &mut *formatter;
                            $render
                        }
                    )*
                }
            }
        }

        impl $Cmd {
            /// Script name of the command.
            pub fn name(&self) -> &'static str {
                match self {
                    $( $Cmd::$Var { .. } => $name, )*
                }
            }

            /// Carry the command out on `target` (the device's engine).
            pub fn run<T: $Target + ?Sized>(&self, target: &mut T) -> $Res {
                match self {
                    $(
                        #[allow(unused_variables)]
                        $Cmd::$Var { $($field),* } => {
                            let $t = &mut *target;
                            $run
                        }
                    )*
                }
            }
        }

        /// Every command of the format, in `--help` order: configuration
        /// rows, then the body commands declared above.
        pub static COMMANDS: &[CommandSpec] = &[
            $($config,)*
            $( CommandSpec::body($name, $usage, $example, |$a| $parse), )*
        ];
    };
}
pub(crate) use script_commands;

/// The folder name of a failing script's artifacts: `fail-script-STEM`;
/// for a failure folder's own `stimulus` or `minimal` script,
/// `fail-script-FOLDER-STEM`, so that replaying one failure's script does
/// not overwrite another's replay.
pub fn failure_tag(name: &str) -> String {
    let p = Path::new(name);
    let stem = p.file_stem().map(|s| s.to_string_lossy().to_string()).unwrap_or_default();
    let parent = p.parent().and_then(|d| d.file_name()).map(|d| d.to_string_lossy().to_string());
    match parent {
        Some(dir) if matches!(stem.as_str(), "minimal" | "stimulus") => format!("fail-script-{dir}-{stem}"),
        _ => format!("fail-script-{stem}"),
    }
}

/// The one-line rerun of a script named `name` (on `fault`'s build). A
/// script that came from a pipe or stdin cannot be read again: its rerun
/// is the failure's saved stimulus (`out/TAG/stimulus.EXT`, which holds the
/// commands through the failing one).
/// The rerun keeps the options that change what runs or where it goes:
/// the fault (as `FAULT`), `--xseed`, `--window`, `--wave` (as `ARGS`) and `--out` (as
/// `OUT`); runnable where `pcnt` ran (`artifacts::runnable_here`).
pub fn repro(name: &str, o: &ScriptOpts, ext: &str) -> String {
    let out = &o.art.out;
    let file = if Path::new(name).is_file() {
        name.to_string()
    } else {
        out.join(failure_tag(name)).join(format!("stimulus.{ext}")).display().to_string()
    };
    let mut args = Vec::new();
    if let Some(x) = o.x_seed {
        args.push(format!("--xseed {x}"));
    }
    if o.art.window != 2000 {
        args.push(format!("--window {}", o.art.window));
    }
    if let Some(w) = o.art.wave {
        args.push(format!("--wave {}", w.name()));
    }
    let mut r = format!("make script FILE={file}");
    if out != Path::new("out") {
        r += &format!(" OUT={}", out.display());
    }
    // FAULT=, not --fault: make builds that fault's variant first.
    if let Some(f) = o.fault {
        r += &format!(" FAULT={f}");
    }
    if !args.is_empty() {
        r += &format!(" ARGS='{}'", args.join(" "));
    }
    crate::engine::artifacts::runnable_here(r)
}

/// The report of a script that failed at `line` with `m` (exit 1): where,
/// what kind of failure, the failure's report, the repro and where the
/// artifacts went.
pub fn failure_message(
    name: &str,
    line: usize,
    m: &crate::engine::mismatch::Mismatch,
    repro: &str,
    written: std::io::Result<std::path::PathBuf>,
) -> ScriptError {
    let where_ = match written {
        Ok(dir) => format!("artifacts: {}", dir.display()),
        Err(err) => format!("could not write all artifacts: {err}"),
    };
    ScriptError::Failed(format!("{name}:{line}: {}\n{m}repro: {repro}\n{where_}", m.kind()))
}

/// Run a parsed script `body` (line, command) on the fresh run `l`: every
/// command in lockstep (an unmet expectation fails like a disagreement);
/// the first failure has its artifacts written by `write` (given the
/// failure and the repro line) and is the error. The cycles run.
pub fn run_body<L: crate::engine::device::Lockstep>(
    name: &str,
    body: &[(usize, L::Cmd)],
    mut l: L,
    o: &ScriptOpts,
    ext: &str,
    write: impl FnOnce(&crate::engine::mismatch::Mismatch, &str) -> std::io::Result<std::path::PathBuf>,
) -> Result<u64, ScriptError> {
    let last = body.last().map_or(0, |b| b.0);
    let failed = body.iter().find_map(|(line, c)| l.exec_cmd(c).err().map(|m| (*line, m)));
    let failed = failed.or_else(|| l.finish_run().err().map(|m| (last, m)));
    match failed {
        None => Ok(l.cycles()),
        Some((line, m)) => {
            let repro = repro(name, o, ext);
            let written = write(&m, &repro);
            Err(failure_message(name, line, &m, &repro, written))
        }
    }
}
