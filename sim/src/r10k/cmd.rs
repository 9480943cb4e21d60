//! R10K stimulus and script commands, declared once in `COMMANDS` (name,
//! usage, parser); `Display` renders a command back in the same syntax, so
//! a saved stimulus or a shrunk script replays. Lexing and numbers are the
//! engine's (`engine::script`), and so are the `write`, `read` and `wait`
//! commands of a bus window and the parse loop (`engine::apb_window`).

use pcounter::r10k::regs::{INC_W, NUM_SOURCES};
use pcounter::r10k::{Mode, Variant};

pub use crate::engine::apb_window::Expect;
use crate::engine::apb_window::{self as window, apb_window_cmd, apb_window_table, fmt_read, fmt_write, Window};
use crate::engine::script::{num, Args};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Cmd {
    /// APB write: SETUP then ACCESS (2 clocks).
    Write { off: u16, data: u32, strb: u8 },
    /// APB read (2 clocks), with an optional expectation (`Expect::Err`:
    /// PSLVERR, R1).
    Read { off: u16, expect: Option<Expect> },
    /// Idle clocks.
    Wait { cycles: u64 },
    /// Every source's increment, 3 bits each, held until changed (0 clocks).
    Events(u128),
    /// One source's increment, held until changed (0 clocks).
    Event { src: u8, value: u8 },
    /// The CP0 Status mode KSU/EXL/ERL, held (0 clocks).
    Mode(Mode),
    /// Expect `irq_o` in the coming cycle (0 clocks; scripts).
    Irq(bool),
}

impl std::fmt::Display for Cmd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Cmd::Write { off, data, strb } => fmt_write(f, *off, *data, *strb),
            Cmd::Read { off, expect } => fmt_read(f, *off, *expect),
            Cmd::Wait { cycles } => write!(f, "wait {cycles}"),
            Cmd::Events(v) => write!(f, "events {v:#x}"),
            Cmd::Event { src, value } => write!(f, "event {src} {value}"),
            Cmd::Mode(m) => write!(f, "mode {} {} {}", m.ksu, u8::from(m.exl), u8::from(m.erl)),
            Cmd::Irq(on) => write!(f, "irq == {}", u8::from(*on)),
        }
    }
}

apb_window_cmd!(Cmd);

/// One command of the format: name, usage (messages and `--help`), parser.
pub type CommandSpec = window::CommandSpec<Cmd>;

/// What `OFF` must be.
const OFF: Window = Window { max: 0xff, expected: "0..=0xff, the 8-bit window (R1)" };

fn mode(a: &mut Args) -> Result<Cmd, String> {
    let named = match a.peek() {
        Some("user") => Some(Mode::USER),
        Some("supervisor") => Some(Mode::SUPERVISOR),
        Some("kernel") => Some(Mode::KERNEL),
        Some("exl") => Some(Mode::EXL),
        Some("erl") => Some(Mode { ksu: 0, exl: false, erl: true }),
        _ => None,
    };
    if let Some(m) = named {
        a.next("MODE")?;
        return Ok(Cmd::Mode(m));
    }
    let ksu = num(a.next("KSU")?, "KSU", 0, 3, "0..=3")? as u8;
    let exl = num(a.next("EXL")?, "EXL", 0, 1, "0 or 1")? == 1;
    let erl = num(a.next("ERL")?, "ERL", 0, 1, "0 or 1")? == 1;
    Ok(Cmd::Mode(Mode { ksu, exl, erl }))
}

/// Every command, in `--help` order: the engine's `write`, `read`, `wait`,
/// then this device's. Adding one is a row here, its parser and its `Cmd`
/// arm (with `Display`).
pub static COMMANDS: &[CommandSpec] = apb_window_table!(Cmd, OFF;
    CommandSpec {
        name: "events",
        usage: "events V (source s at bits 3s+2..3s)",
        parse: |a| {
            let t = a.next("V")?;
            let hex = t.strip_prefix("0x").ok_or_else(|| format!("events takes a 0x-hex value, found '{t}'"))?;
            let v = u128::from_str_radix(&hex.replace('_', ""), 16)
                .map_err(|_| format!("bad events value '{t}' (at most 24 hex digits)"))?;
            if v >> (NUM_SOURCES as u32 * INC_W) != 0 {
                return Err(format!("events value '{t}' wider than 96 bits"));
            }
            Ok(Cmd::Events(v))
        },
    },
    CommandSpec {
        name: "event",
        usage: "event SRC V (SRC 0..=31, V 0..=7)",
        parse: |a| {
            let src = num(a.next("SRC")?, "SRC", 0, 31, "0..=31")? as u8;
            let value = num(a.next("V")?, "V", 0, 7, "0..=7")? as u8;
            Ok(Cmd::Event { src, value })
        },
    },
    CommandSpec { name: "mode", usage: "mode KSU EXL ERL | mode user|supervisor|kernel|exl|erl", parse: mode },
    CommandSpec {
        name: "irq",
        usage: "irq == 0|1 (irq_o in the coming cycle)",
        parse: |a| {
            let t = a.next("==")?;
            if t != "==" {
                return Err(format!("expected '==', found '{t}' (usage: {})", a.usage));
            }
            Ok(Cmd::Irq(num(a.next("0|1")?, "irq", 0, 1, "0 or 1")? == 1))
        },
    },
);

/// `pcnt script --help`: one line per command.
pub fn help() -> String {
    window::help(COMMANDS)
}

/// A parsed script: the variant of its `device` line, (line, command).
#[derive(Debug)]
pub struct Script {
    pub variant: Variant,
    pub body: Vec<(usize, Cmd)>,
}

/// The variant a `device r10k [r10000|r12000]` line names (tokens), if it is
/// such a line.
pub fn device_line(toks: &[&str]) -> Option<Result<Variant, String>> {
    match toks {
        ["device", "r10k"] => Some(Ok(Variant::R10000)),
        ["device", "r10k", v] => Some(Variant::from_name(v).ok_or_else(|| {
            format!("unknown variant '{v}' (expected {})", Variant::ALL.map(Variant::name).join(" or "))
        })),
        _ => None,
    }
}

/// Parse an R10K script; errors name `file`, the line and the known commands.
/// The device line selects this table and the variant; it runs nothing.
pub fn parse(file: &str, text: &str) -> Result<Script, String> {
    let mut variant = None;
    let body = window::parse(file, text, COMMANDS, "R10K", |toks, first| {
        let v = device_line(toks)?;
        if variant.is_some() || !first {
            return Some(Err("the device line must come first, once".to_string()));
        }
        Some(v.map(|v| variant = Some(v)))
    })?;
    Ok(Script { variant: variant.unwrap_or(Variant::R10000), body })
}

/// Every `event` and `events` value within what `variant` can add per cycle
/// (R6: `Variant::max_inc`; a cycle-count source ignores its input, so any
/// 3-bit value goes): the model refuses more, so a script asking for it is
/// an input error naming the line, not a failed run.
pub fn check_events(file: &str, body: &[(usize, Cmd)], variant: Variant) -> Result<(), String> {
    let max = |src: usize| if variant.is_cycles(src) { (1u8 << INC_W) - 1 } else { variant.max_inc(src) };
    for (line, c) in body {
        let over = match *c {
            Cmd::Event { src, value } => (value > max(usize::from(src))).then_some((usize::from(src), value)),
            Cmd::Events(v) => (0..NUM_SOURCES)
                .map(|s| (s, ((v >> (INC_W as usize * s)) & 7) as u8))
                .find(|&(s, value)| value > max(s)),
            _ => None,
        };
        if let Some((src, value)) = over {
            return Err(format!(
                "{file}:{line}: source {src} adds at most {} per cycle on the {} (R6), not {value}",
                max(src),
                variant.name()
            ));
        }
    }
    Ok(())
}

/// Render commands as a script body that parses back to the same commands.
pub fn render(cmds: &[Cmd]) -> String {
    window::render(cmds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_command_renders_back_to_itself() {
        let cmds = vec![
            Cmd::Write { off: 0x00, data: 0x0000_0128, strb: 0xf },
            Cmd::Write { off: 0x05, data: 7, strb: 0x3 },
            Cmd::Read { off: 0x04, expect: None },
            Cmd::Read { off: 0x0c, expect: Some(Expect::Value(0x8000_0000)) },
            Cmd::Read { off: 0x10, expect: Some(Expect::Err) },
            Cmd::Wait { cycles: 12 },
            Cmd::Events(0x7_0000_0000_0000_0000_0001),
            Cmd::Event { src: 31, value: 2 },
            Cmd::Mode(Mode { ksu: 3, exl: true, erl: false }),
            Cmd::Irq(true),
        ];
        let s = parse("t", &format!("device r10k r12000\n{}", render(&cmds))).unwrap();
        assert_eq!(s.variant, Variant::R12000);
        assert_eq!(s.body.into_iter().map(|(_, c)| c).collect::<Vec<_>>(), cmds);
    }

    #[test]
    fn names_errors_and_the_device_line() {
        let s = parse("t", "device r10k\nmode user\nmode erl\n").unwrap();
        assert_eq!(s.variant, Variant::R10000);
        assert_eq!(s.body[0].1, Cmd::Mode(Mode::USER));
        assert_eq!(s.body[1].1, Cmd::Mode(Mode { ksu: 0, exl: false, erl: true }));
        let e = parse("x.r10k", "wait 1\npulse 3\n").unwrap_err();
        assert!(e.starts_with("x.r10k:2: unknown command 'pulse'") && e.contains("write, read"), "{e}");
        assert!(parse("x", "write 0x100 1").unwrap_err().contains("x:1: OFF"));
        assert!(parse("x", "event 32 0").is_err());
        assert!(parse("x", "events 0x1000000000000000000000000").unwrap_err().contains("96 bits"));
        assert!(parse("x", "device r10k r8000").unwrap_err().contains("unknown variant 'r8000'"));
        assert!(parse("x", "wait 1\ndevice r10k").unwrap_err().contains("must come first"));
        assert!(parse("x", "irq 1").unwrap_err().contains("expected '=='"));
    }
}
