//! The toy's script commands: the engine's `write`, `read`, `wait` of a bus
//! window, and `event 0|1` (event_i, held).

pub use crate::engine::apb_window::Expect;
use crate::engine::apb_window::{self as window, apb_window_cmd, apb_window_table, fmt_read, fmt_write, Window};
use crate::engine::script::num;

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    Write {
        off: u16,
        data: u32,
        strb: u8,
    },
    Read {
        off: u16,
        expect: Option<Expect>,
    },
    Wait {
        cycles: u64,
    },
    /// event_i, held until changed (0 clocks).
    Event(bool),
}

impl std::fmt::Display for Cmd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cmd::Write { off, data, strb } => fmt_write(f, *off, *data, *strb),
            Cmd::Read { off, expect } => fmt_read(f, *off, *expect),
            Cmd::Wait { cycles } => write!(f, "wait {cycles}"),
            Cmd::Event(on) => write!(f, "event {}", u8::from(*on)),
        }
    }
}

apb_window_cmd!(Cmd);

const OFF: Window = Window { max: 0xf, expected: "0..=0xf, the 4-bit window (T1)" };

pub static COMMANDS: &[window::CommandSpec<Cmd>] = apb_window_table!(Cmd, OFF;
    window::CommandSpec {
        name: "event",
        usage: "event 0|1 (event_i, held)",
        parse: |a| Ok(Cmd::Event(num(a.next("0|1")?, "event", 0, 1, "0 or 1")? == 1)),
    },
);

pub fn help() -> String {
    window::help(COMMANDS)
}

/// Parse a toy script (its `device toy` line, if kept, is accepted first).
pub fn parse(file: &str, text: &str) -> Result<Vec<(usize, Cmd)>, String> {
    window::parse(file, text, COMMANDS, "TOY", |toks, first| match toks {
        [d, name] if d.eq_ignore_ascii_case("device") && name.eq_ignore_ascii_case("toy") => {
            Some(if first { Ok(()) } else { Err("the device line comes before any command".into()) })
        }
        _ => None,
    })
}

pub fn render(cmds: &[Cmd]) -> String {
    format!("device toy\n{}", window::render(cmds))
}
