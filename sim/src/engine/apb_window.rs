//! What every device behind a small APB window (offsets up to 16 bits,
//! 32-bit data, byte strobes) shares: the `write`, `read` and `wait` script commands
//! (parsing with their checks, rendering back, the expectation of a read,
//! bus clocks), a command table, and the loop that parses a script over such
//! a table. The device keeps its own command enum, its own commands and
//! what its `device` line means; it calls these pieces so that the shared
//! syntax and messages exist once.

use std::fmt;

use super::script::{lex, num, Args};

/// What a read expects (scripts; random stimulus expects nothing: the
/// lockstep compare checks every read against the model).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Expect {
    Value(u32),
    /// PSLVERR.
    Err,
}

/// One command of a device's format: name, usage (messages and `--help`),
/// parser.
pub struct CommandSpec<C: 'static> {
    pub name: &'static str,
    pub usage: &'static str,
    pub parse: fn(&mut Args) -> Result<C, String>,
}

/// What a device's `OFF` may be: at most `max`; `expected` says what the
/// device's window is (messages).
#[derive(Clone, Copy, Debug)]
pub struct Window {
    pub max: u16,
    pub expected: &'static str,
}

/// The `OFF` argument.
pub fn off(a: &mut Args, w: Window) -> Result<u16, String> {
    num(a.next("OFF")?, "OFF", 0, u64::from(w.max), w.expected).map(|v| v as u16)
}

/// A 32-bit argument named `what`.
pub fn u32_arg(a: &mut Args, what: &str) -> Result<u32, String> {
    num(a.next(what)?, what, 0, u64::from(u32::MAX), "a 32-bit number").map(|v| v as u32)
}

/// Usage of the shared commands, for the device's table.
pub const WRITE_USAGE: &str = "write OFF DATA [strb S]";
pub const READ_USAGE: &str = "read OFF [== V | == err]";
pub const WAIT_USAGE: &str = "wait N";

/// `write OFF DATA [strb S]`: (offset, data, strobes; 0xf when not given).
pub fn parse_write(a: &mut Args, w: Window) -> Result<(u16, u32, u8), String> {
    let (off, data) = (off(a, w)?, u32_arg(a, "DATA")?);
    let strb = match a.peek() {
        Some("strb") => {
            a.next("strb")?;
            num(a.next("S")?, "S", 0, 0xf, "0..=0xf").map(|v| v as u8)?
        }
        _ => 0xf,
    };
    Ok((off, data, strb))
}

/// `read OFF [== V | == err]`: (offset, expectation).
pub fn parse_read(a: &mut Args, w: Window) -> Result<(u16, Option<Expect>), String> {
    let off = off(a, w)?;
    let expect = match a.peek() {
        None => None,
        Some("==") => {
            a.next("==")?;
            match a.peek() {
                Some("err") => {
                    a.next("err")?;
                    Some(Expect::Err)
                }
                _ => Some(Expect::Value(u32_arg(a, "V")?)),
            }
        }
        Some(t) => return Err(format!("expected '==' after the offset, found '{t}' (usage: {})", a.usage)),
    };
    Ok((off, expect))
}

/// `wait N`: idle clocks.
pub fn parse_wait(a: &mut Args) -> Result<u64, String> {
    num(a.next("N")?, "N", 0, 1 << 40, "0..=2^40")
}

/// A write in script syntax (the strobes only when not all four).
pub fn fmt_write(f: &mut fmt::Formatter<'_>, off: u16, data: u32, strb: u8) -> fmt::Result {
    match strb {
        0xf => write!(f, "write {off:#04x} {data:#010x}"),
        _ => write!(f, "write {off:#04x} {data:#010x} strb {strb:#x}"),
    }
}

/// A read in script syntax.
pub fn fmt_read(f: &mut fmt::Formatter<'_>, off: u16, expect: Option<Expect>) -> fmt::Result {
    match expect {
        None => write!(f, "read {off:#04x}"),
        Some(Expect::Value(v)) => write!(f, "read {off:#04x} == {v:#x}"),
        Some(Expect::Err) => write!(f, "read {off:#04x} == err"),
    }
}

/// `--help`: one line per command.
pub fn help<C>(table: &[CommandSpec<C>]) -> String {
    table.iter().map(|c| format!("  {}\n", c.usage)).collect()
}

/// Render commands as a script body that parses back to the same commands.
pub fn render<C: fmt::Display>(cmds: &[C]) -> String {
    cmds.iter().map(|c| format!("{c}\n")).collect()
}

/// Parse a script over `table`: `#` comments, blank lines, and the device's
/// own line, which `device` recognises (tokens, whether no command came
/// before) and answers with `Some(Ok(()))`, or `Some(Err(..))` when it is
/// wrong; it runs nothing. Errors name `file`, the line and, for an
/// unknown command, the `label` device's known commands.
pub fn parse<C>(
    file: &str,
    text: &str,
    table: &[CommandSpec<C>],
    label: &str,
    mut device: impl FnMut(&[&str], bool) -> Option<Result<(), String>>,
) -> Result<Vec<(usize, C)>, String> {
    let mut body = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let code = raw.split('#').next().unwrap_or("");
        let toks = lex(code);
        let Some(&name) = toks.first() else { continue };
        let line = i + 1;
        if let Some(r) = device(&toks, body.is_empty()) {
            r.map_err(|e| format!("{file}:{line}: {e}"))?;
            continue;
        }
        let spec = table.iter().find(|c| c.name == name).ok_or_else(|| {
            let known: Vec<&str> = table.iter().map(|c| c.name).collect();
            format!("{file}:{line}: unknown command '{name}' ({label} commands: {})", known.join(", "))
        })?;
        let mut a = Args { toks: &toks, pos: 1, usage: spec.usage };
        let cmd =
            (spec.parse)(&mut a).and_then(|c| a.finish().map(|()| c)).map_err(|e| format!("{file}:{line}: {e}"))?;
        body.push((line, cmd));
    }
    Ok(body)
}

pub use crate::engine::device::{cmds_through, Clocks};

/// For a device command enum with `Write`, `Read` and `Wait { cycles }`
/// variants: the engine's `Wait` (shrinking) and `clocks()` (bus clocks
/// the command takes: two for a write or read, SETUP then ACCESS; the
/// wait's count; none for the rest, which only set held inputs or check).
macro_rules! apb_window_cmd {
    ($Cmd:ident) => {
        impl $crate::engine::shrink::Wait for $Cmd {
            fn wait_cycles(&self) -> Option<u64> {
                match self {
                    $Cmd::Wait { cycles } => Some(*cycles),
                    _ => None,
                }
            }
            fn wait(cycles: u64) -> $Cmd {
                $Cmd::Wait { cycles }
            }
        }

        impl $crate::engine::device::Clocks for $Cmd {
            fn clocks(&self) -> u64 {
                match self {
                    $Cmd::Write { .. } | $Cmd::Read { .. } => 2,
                    $Cmd::Wait { cycles } => *cycles,
                    _ => 0,
                }
            }
        }

        impl $Cmd {
            /// Bus clocks the command takes.
            pub fn clocks(&self) -> u64 {
                $crate::engine::device::Clocks::clocks(self)
            }
        }
    };
}
pub(crate) use apb_window_cmd;

/// A device's command table (`&[CommandSpec<$Cmd>]`, `--help` order): the
/// shared `write`, `read` and `wait` rows first (`$off`: the device's
/// [`Window`], what `OFF` may be), then the device's own rows.
macro_rules! apb_window_table {
    ($Cmd:ident, $off:expr; $($row:expr),* $(,)?) => {
        &[
            $crate::engine::apb_window::CommandSpec {
                name: "write",
                usage: $crate::engine::apb_window::WRITE_USAGE,
                parse: |a| {
                    $crate::engine::apb_window::parse_write(a, $off)
                        .map(|(off, data, strb)| $Cmd::Write { off, data, strb })
                },
            },
            $crate::engine::apb_window::CommandSpec {
                name: "read",
                usage: $crate::engine::apb_window::READ_USAGE,
                parse: |a| $crate::engine::apb_window::parse_read(a, $off).map(|(off, expect)| $Cmd::Read { off, expect }),
            },
            $crate::engine::apb_window::CommandSpec {
                name: "wait",
                usage: $crate::engine::apb_window::WAIT_USAGE,
                parse: |a| $crate::engine::apb_window::parse_wait(a).map(|cycles| $Cmd::Wait { cycles }),
            },
            $($row),*
        ]
    };
}
pub(crate) use apb_window_table;
