//! PMON stimulus and script commands, declared once in `COMMANDS` (name,
//! usage, parser); `Display` renders a command back in the same syntax, so
//! a saved stimulus or a shrunk script replays. Lexing and numbers are the
//! engine's (`engine::script`), and so are the `write`, `read` and `wait`
//! commands of a bus window and the parse loop (`engine::apb_window`).

pub use crate::engine::apb_window::Expect;
use crate::engine::apb_window::{self as window, apb_window_cmd, apb_window_table, fmt_read, fmt_write};
use crate::engine::script::num;

/// Lanes of the default build: 4 sources x 8 lanes (P5), 4 bits each, lane
/// `k = src * 8 + l` at bits `4k..4k+4` of an `events` value.
pub const LANES: usize = 32;
pub const LANE_BITS: u32 = 4;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// APB write: SETUP then ACCESS (2 clocks).
    Write { off: u8, data: u32, strb: u8 },
    /// APB read (2 clocks), with an optional expectation (`Expect::Err`:
    /// PSLVERR, P1, P2).
    Read { off: u8, expect: Option<Expect> },
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

/// What `OFF` must be.
const OFF: &str = "0..=0xff, the box window (P1)";

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

/// Parse a PMON script; errors name `file`, the line and the known commands.
/// The device line (`device pmon`) selects this table; it runs nothing.
pub fn parse(file: &str, text: &str) -> Result<Script, String> {
    window::parse(file, text, COMMANDS, "PMON", |toks, _| (toks == ["device", "pmon"]).then_some(Ok(())))
}

/// Render commands as a script that parses back to the same commands.
pub fn render(cmds: &[Cmd]) -> String {
    window::render(cmds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_renders_back_to_itself() {
        let cmds = vec![
            Cmd::Write { off: 0x10, data: 0x0004_0f01, strb: 0xf },
            Cmd::Write { off: 0x55, data: 7, strb: 0x3 },
            Cmd::Read { off: 0x08, expect: None },
            Cmd::Read { off: 0x50, expect: Some(Expect::Value(0x64)) },
            Cmd::Read { off: 0x90, expect: Some(Expect::Err) },
            Cmd::Wait { cycles: 12 },
            Cmd::Events(0xf000_0000_0000_0000_0000_0000_0000_0001),
            Cmd::Lane { src: 3, lane: 7, value: 15 },
            Cmd::Freeze(true),
        ];
        let back: Vec<Cmd> = parse("t", &render(&cmds)).unwrap().into_iter().map(|(_, c)| c).collect();
        assert_eq!(back, cmds);
    }

    #[test]
    fn unknown_commands_and_bad_arguments_are_errors_with_line() {
        let e = parse("x.pms", "wait 1\npulse 3\n").unwrap_err();
        assert!(e.starts_with("x.pms:2: unknown command 'pulse'") && e.contains("write, read"), "{e}");
        assert!(parse("x", "write 0x100 1").unwrap_err().contains("x:1: OFF"));
        assert!(parse("x", "lane 4 0 1").is_err());
        assert!(parse("x", "read 0x10 0x5").unwrap_err().contains("expected '=='"));
        assert!(parse("x", "freeze 1 2").unwrap_err().contains("unexpected"));
    }
}
