//! PMON stimulus and script commands, declared once in `COMMANDS` (name,
//! usage, parser); `Display` renders a command back in the same syntax, so
//! a saved stimulus or a shrunk script replays. Lexing and numbers are the
//! engine's (`engine::script`), and so are the `write`, `read` and `wait`
//! commands of a bus window and the parse loop (`engine::apb_window`).
//!
//! Offsets: a command holds the bus address in the IP's CSR space (from
//! I_PMON_BAR = 0, P2). A script's device line says what its `OFF`s are
//! relative to: `device pmon bar` the whole space (0..=0x1ff), `device
//! pmon` (or `device pmon unit`) the unit's registers from PMON_UCADR =
//! 0x118 (0..=0xe7), the map every PMON script had before the global block
//! existed, so those scripts run unchanged. Rendering writes `device pmon
//! bar`.

pub use crate::engine::apb_window::Expect;
use crate::engine::apb_window::{self as window, apb_window_cmd, apb_window_table, fmt_read, fmt_write, Window};
use crate::engine::script::num;
use pcounter::pmon::regs::{BOX_CTL, WINDOW_SIZE};

/// Lanes of the default build: 4 sources x 8 lanes (P5), 4 bits each, lane
/// `k = src * 8 + l` at bits `4k..4k+4` of an `events` value.
pub const LANES: usize = 32;
pub const LANE_BITS: u32 = 4;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// APB write: SETUP then ACCESS (2 clocks).
    Write { off: u16, data: u32, strb: u8 },
    /// APB read (2 clocks), with an optional expectation (`Expect::Err`:
    /// PSLVERR, P1, P2).
    Read { off: u16, expect: Option<Expect> },
    /// Idle clocks.
    Wait { cycles: u64 },
    /// Every lane's increment, held until changed (0 clocks).
    Events(u128),
    /// One lane's increment, held until changed (0 clocks).
    Lane { src: u8, lane: u8, value: u8 },
    /// The global freeze input `freeze_i` (P9), held (0 clocks).
    Freeze(bool),
}

impl std::fmt::Display for Cmd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cmd::Write { off, data, strb } => fmt_write(f, *off, *data, *strb),
            Cmd::Read { off, expect } => fmt_read(f, *off, *expect),
            Cmd::Wait { cycles } => write!(f, "wait {cycles}"),
            Cmd::Events(v) => write!(f, "events {v:#x}"),
            Cmd::Lane { src, lane, value } => write!(f, "lane {src} {lane} {value}"),
            Cmd::Freeze(on) => write!(f, "freeze {}", u8::from(*on)),
        }
    }
}

apb_window_cmd!(Cmd);

/// One command of the format: name, usage (messages and `--help`), parser.
pub type CommandSpec = window::CommandSpec<Cmd>;

/// What `OFF` may be: the whole CSR space; a `device pmon` (unit) script's
/// offsets are checked against the unit's part of it after parsing.
const OFF: Window = Window { max: WINDOW_SIZE - 1, expected: "0..=0x1ff with 'device pmon bar', 0..=0xe7 else (P2)" };

/// What a script's offsets are relative to (its device line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// `device pmon [unit]`: from PMON_UCADR (BOX_CTL, 0x118).
    Unit,
    /// `device pmon bar`: from I_PMON_BAR = 0, the whole CSR space.
    Bar,
}

impl Base {
    /// The words after `device pmon`.
    pub fn from_args(args: &[&str]) -> Result<Base, String> {
        match args {
            [] => Ok(Base::Unit),
            [a] if a.eq_ignore_ascii_case("unit") => Ok(Base::Unit),
            [a] if a.eq_ignore_ascii_case("bar") => Ok(Base::Bar),
            [a, ..] => Err(format!(
                "unexpected '{}' after 'device pmon' (expected 'bar' for offsets from I_PMON_BAR, 'unit' or nothing \
                 for offsets from PMON_UCADR)",
                crate::engine::script::show(a)
            )),
        }
    }

    /// The bus address of a script offset.
    fn place(self, off: u16) -> Result<u16, String> {
        match self {
            Base::Bar => Ok(off),
            Base::Unit if off < WINDOW_SIZE - BOX_CTL => Ok(BOX_CTL + off),
            Base::Unit => Err(format!(
                "OFF {off:#x} is past the unit's registers (0..=0xe7 from PMON_UCADR = 0x118); \
                 'device pmon bar' takes offsets in the whole CSR space"
            )),
        }
    }
}

/// Every command, in `--help` order: the engine's `write`, `read`, `wait`,
/// then this device's. Adding one is a row here, its parser and its `Cmd`
/// arm (with `Display`).
pub static COMMANDS: &[CommandSpec] = apb_window_table!(Cmd, OFF;
    CommandSpec {
        name: "events",
        usage: "events V (lane k = src*8+l at bits 4k+3..4k)",
        parse: |a| {
            let t = a.next("V")?;
            let hex = t.strip_prefix("0x").ok_or_else(|| format!("events takes a 0x-hex value, found '{t}'"))?;
            u128::from_str_radix(&hex.replace('_', ""), 16)
                .map(Cmd::Events)
                .map_err(|_| format!("bad events value '{t}' (at most 32 hex digits)"))
        },
    },
    CommandSpec {
        name: "lane",
        usage: "lane SRC L V (SRC 0..=3, L 0..=7, V 0..=15)",
        parse: |a| {
            let src = num(a.next("SRC")?, "SRC", 0, 3, "0..=3")? as u8;
            let lane = num(a.next("L")?, "L", 0, 7, "0..=7")? as u8;
            let value = num(a.next("V")?, "V", 0, 15, "0..=15")? as u8;
            Ok(Cmd::Lane { src, lane, value })
        },
    },
    CommandSpec {
        name: "freeze",
        usage: "freeze 0|1 (the freeze_i input)",
        parse: |a| Ok(Cmd::Freeze(num(a.next("0|1")?, "freeze", 0, 1, "0 or 1")? == 1)),
    },
);

/// `pcnt script --device pmon --help`: one line per command.
pub fn help() -> String {
    window::help(COMMANDS)
}

/// A parsed script: (line, command).
pub type Script = Vec<(usize, Cmd)>;

/// Parse a PMON script whose offsets are from `base` unless its own device
/// line (`device pmon [bar|unit]`, before any command) says otherwise;
/// errors name `file`, the line and the known commands.
pub fn parse(file: &str, text: &str, base: Base) -> Result<Script, String> {
    let mut base = base;
    let body = window::parse(file, text, COMMANDS, "PMON", |toks, first| match toks {
        ["device", d, args @ ..] if d.eq_ignore_ascii_case("pmon") => Some(match first {
            true => Base::from_args(args).map(|b| base = b),
            false => Err("the device line comes before any command".into()),
        }),
        _ => None,
    })?;
    let at = |line: usize, e: String| format!("{file}:{line}: {e}");
    body.into_iter()
        .map(|(line, c)| {
            match c {
                Cmd::Write { off, data, strb } => base.place(off).map(|off| (line, Cmd::Write { off, data, strb })),
                Cmd::Read { off, expect } => base.place(off).map(|off| (line, Cmd::Read { off, expect })),
                c => Ok((line, c)),
            }
            .map_err(|e| at(line, e))
        })
        .collect()
}

/// Render commands as a script (`device pmon bar` and the bus addresses)
/// that parses back to the same commands.
pub fn render(cmds: &[Cmd]) -> String {
    format!("device pmon bar\n{}", window::render(cmds))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_renders_back_to_itself() {
        let cmds = vec![
            Cmd::Write { off: 0x128, data: 0x0004_0f01, strb: 0xf },
            Cmd::Write { off: 0x16d, data: 7, strb: 0x3 },
            Cmd::Read { off: 0x020, expect: None },
            Cmd::Read { off: 0x100, expect: Some(Expect::Value(0x5030_1004)) },
            Cmd::Read { off: 0x1a8, expect: Some(Expect::Err) },
            Cmd::Wait { cycles: 12 },
            Cmd::Events(0xf000_0000_0000_0000_0000_0000_0000_0001),
            Cmd::Lane { src: 3, lane: 7, value: 15 },
            Cmd::Freeze(true),
        ];
        let back: Vec<Cmd> = parse("t", &render(&cmds), Base::Unit).unwrap().into_iter().map(|(_, c)| c).collect();
        assert_eq!(back, cmds);
    }

    #[test]
    fn the_device_line_says_where_offsets_start() {
        // P2: BOX_CTL is at PMON_UCADR = 0x118; `device pmon` scripts count
        // from there, `device pmon bar` from 0.
        let off = |text: &str| match parse("t", text, Base::Unit).map(|s| s[0].1.clone()) {
            Ok(Cmd::Read { off, .. }) => Ok(off),
            Ok(c) => panic!("{c}"),
            Err(e) => Err(e),
        };
        assert_eq!(off("device pmon\nread 0x08\n"), Ok(0x120));
        assert_eq!(off("device pmon unit\nread 0x00\n"), Ok(0x118));
        assert_eq!(off("device pmon bar\nread 0x100\n"), Ok(0x100));
        assert_eq!(off("read 0xe4\n"), Ok(0x1fc));
        assert!(off("read 0xe8\n").unwrap_err().starts_with("t:1: OFF 0xe8 is past the unit's registers"));
        assert!(off("device pmon bar\nread 0x200\n").unwrap_err().contains("t:2: OFF"));
        assert!(off("device pmon global\n").unwrap_err().contains("t:1: unexpected 'global' after 'device pmon'"));
        assert!(off("wait 1\ndevice pmon bar\n").unwrap_err().contains("t:2: the device line comes before"));
    }

    #[test]
    fn unknown_commands_and_bad_arguments_are_errors_with_line() {
        let parse = |f, t| parse(f, t, Base::Unit);
        let e = parse("x.pms", "wait 1\npulse 3\n").unwrap_err();
        assert!(e.starts_with("x.pms:2: unknown command 'pulse'") && e.contains("write, read"), "{e}");
        assert!(parse("x", "write 0x200 1").unwrap_err().contains("x:1: OFF"));
        assert!(parse("x", "lane 4 0 1").is_err());
        assert!(parse("x", "read 0x10 0x5").unwrap_err().contains("expected '=='"));
        assert!(parse("x", "freeze 1 2").unwrap_err().contains("unexpected"));
    }
}
