//! Device-independent parts of scenario scripts: lexing a line, numbers
//! (decimal or 0x-hex, `_` separators), an argument cursor that knows its
//! command's usage, and quoting a bad token for a message. A device's
//! command table (e.g. `pcnt::script::COMMANDS`) is built on these.

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
