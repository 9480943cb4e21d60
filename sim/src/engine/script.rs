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
