//! The device registry: every device of the harness as one unit, listed
//! once in [`DEVICES`]. The CLI, the script runner and the tests that check
//! a guarantee on every device iterate over it; a device is its folders
//! plus its line here.
//!
//! GF100 is not a device: it is a PCOUNTER generation on its own top
//! (docs/design/gf100.md, "Generation or device"), reached through the
//! PCOUNTER device (`gen gf100` in scripts, `--gen gf100` in cosim).
//!
//! Scripts: the first command line may name the device (`device pmon`,
//! `device r10k r12000`; case-insensitive; blank lines and comments may
//! come before it); a script without one is PCOUNTER's. The text is read
//! once by the caller (pipes, FIFOs, `/dev/stdin` and `-` work) and handed
//! to the device with the device line blanked, so every line keeps its
//! number.

use crate::engine::script::{lex, show, ScriptError, ScriptOpts};

pub use crate::engine::entry::{no_args, round_trip, seeds_only, Device, RoundTrip, ScriptSample};
pub use crate::engine::regress::{DeviceArgs, DEVICE_OPTIONS};

/// The coverage plan every device closes against: docs/coverage-plan.md as
/// built in, then each device's own rows ([`Device::plan`]).
pub fn plan() -> String {
    DEVICES.iter().fold(crate::engine::regress::PLAN.to_string(), |p, d| p + "\n" + d.plan)
}

/// Every device, PCOUNTER (the default) first: each is its folders and its
/// line here (its `DEVICE`, defined in its own module).
pub static DEVICES: &[&Device] = &[&crate::pcnt::DEVICE, &crate::pmon::DEVICE, &crate::r10k::DEVICE, &toy::DEVICE];

/// The toy fifth device, kept under tests/ (tests/toy/README.md).
#[path = "../../tests/toy/sim/mod.rs"]
pub mod toy;

/// The device named `name` (case-insensitive; its registry name or an alias).
pub fn by_name(name: &str) -> Option<&'static Device> {
    DEVICES
        .iter()
        .find(|d| d.name.eq_ignore_ascii_case(name) || d.aliases.iter().any(|a| a.eq_ignore_ascii_case(name)))
        .copied()
}

/// The device whose fault build `fault` is.
pub fn of_fault(fault: &str) -> Option<&'static Device> {
    DEVICES.iter().find(|d| (d.faults)().contains(&fault)).copied()
}

/// The device of fault `fault` when its build is linked into this binary;
/// else why not: a fault file's build is made only when asked for (issue
/// 33: `make cosim` builds none, `make cosim FAULT=x` builds x, `make test`
/// all), and the message says how.
pub fn linked_fault(fault: &str) -> Result<&'static Device, String> {
    if let Some(d) = of_fault(fault) {
        return Ok(d);
    }
    match crate::engine::entry::FAULT_FILES.contains(&fault) {
        true => Err(format!(
            "fault {fault}: its build is not linked into this binary (fault builds are made when asked for): \
             `make cosim FAULT={fault}` builds it, or `PCNT_FAULTS={fault} cargo build --release --features \
             pcounter-sim/faults`"
        )),
        false => Err(format!("unknown fault {fault} (`pcnt faults` lists them)")),
    }
}

/// A script split for its device: the device, the device line's arguments
/// and the text with that line blanked.
pub struct Split<'a> {
    pub device: &'static Device,
    pub args: Vec<&'a str>,
    pub text: String,
}

/// Which device the script `text` (named `name` in messages) is for: its
/// first command line `device NAME [ARGS]`, or PCOUNTER without one.
/// Refused: a script with no command, an unknown device, a `device` line
/// after another command (the error names both lines).
pub fn split<'t>(name: &str, text: &'t str) -> Result<Split<'t>, String> {
    let mut first: Option<(usize, Vec<&'t str>)> = None;
    let mut device: Option<(usize, Vec<&'t str>)> = None;
    let mut body = 0usize;
    for (i, raw) in text.lines().enumerate() {
        let toks = lex(raw.split('#').next().unwrap_or(""));
        let Some(cmd) = toks.first() else { continue };
        let line = i + 1;
        let is_device = cmd.eq_ignore_ascii_case("device");
        body += usize::from(!is_device);
        match &first {
            None => {
                if is_device {
                    device = Some((line, toks.clone()));
                }
                first = Some((line, toks));
            }
            Some((at, f)) if is_device => {
                return Err(format!(
                    "{name}:{line}: 'device' must be the script's first command (line {at} has '{}' before it)",
                    show(f[0])
                ));
            }
            Some(_) => {}
        }
    }
    let empty = || format!("{name}: no commands (an empty script checks nothing)");
    let Some((line, toks)) = device else {
        if body == 0 {
            return Err(empty());
        }
        return Ok(Split { device: DEVICES[0], args: Vec::new(), text: text.to_string() });
    };
    let known = || DEVICES.iter().map(|d| d.name).collect::<Vec<_>>().join(", ");
    let Some(dev_name) = toks.get(1) else {
        return Err(format!("{name}:{line}: missing the device name (usage: device NAME; devices: {})", known()));
    };
    let device = by_name(dev_name)
        .ok_or_else(|| format!("{name}:{line}: unknown device '{}' (devices: {})", show(dev_name), known()))?;
    if body == 0 {
        return Err(empty());
    }
    let blanked: Vec<&str> = text.lines().enumerate().map(|(i, l)| if i + 1 == line { "" } else { l }).collect();
    Ok(Split { device, args: toks[2..].to_vec(), text: blanked.join("\n") + "\n" })
}

/// Run the script `text` named `name` on the device it names.
pub fn run_script(name: &str, text: &str, o: &ScriptOpts) -> Result<(&'static Device, u64), ScriptError> {
    let s = split(name, text).map_err(ScriptError::Input)?;
    if o.packets.is_some() && !s.device.own_options.contains(&"--packets") {
        return Err(ScriptError::Input(format!(
            "{name}: --packets does not apply to a {} script (the {} has no record packets)",
            s.device.title, s.device.title
        )));
    }
    if let Some(f) = o.fault {
        let d = linked_fault(f).map_err(ScriptError::Input)?;
        if d.name != s.device.name {
            return Err(ScriptError::Input(format!(
                "{name}: fault {f} is a {} fault, the script is a {} script",
                d.title, s.device.title
            )));
        }
    }
    let cycles = (s.device.run_script)(name, &s.text, &s.args, o)?;
    Ok((s.device, cycles))
}

/// Read a script from `path` once (`-` is stdin; pipes, FIFOs and
/// `/dev/stdin` are read once too) as UTF-8 text.
pub fn read_script(path: &std::path::Path) -> Result<String, String> {
    use std::io::Read as _;
    let mut bytes = Vec::new();
    let r = if path.as_os_str() == "-" {
        std::io::stdin().read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|mut f| f.read_to_end(&mut bytes))
    };
    r.map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    String::from_utf8(bytes).map_err(|e| {
        let line = 1 + e.as_bytes()[..e.utf8_error().valid_up_to()].iter().filter(|&&b| b == b'\n').count();
        format!("{}:{line}: not UTF-8 text (a script is text)", path.display())
    })
}

/// [`read_script`] then [`run_script`]: the file's display name names it.
pub fn run_file(path: &std::path::Path, o: &ScriptOpts) -> Result<(&'static Device, u64), ScriptError> {
    let text = read_script(path).map_err(ScriptError::Input)?;
    run_script(&path.display().to_string(), &text, o)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_command_names_the_device() {
        let s = split("t", "# c\n\n  DEVICE Pmon # box\nwait 1\n").unwrap();
        assert_eq!((s.device.name, s.text.as_str()), ("pmon", "# c\n\n\nwait 1\n"));
        let s = split("t", "device r10k r12000\nwait 1").unwrap();
        assert_eq!((s.device.name, s.args.as_slice()), ("r10k", &["r12000"][..]));
        assert_eq!(split("t", "gen nv40\nwait 1\n").unwrap().device.name, "pcnt");
        assert_eq!(split("t", "device pcounter\nwait 1\n").unwrap().device.name, "pcnt");
    }

    #[test]
    fn bad_device_lines_and_empty_scripts_are_refused() {
        let e = split("t.pcs", "wait 1\n# x\ndevice pmon\n").err().unwrap();
        assert_eq!(e, "t.pcs:3: 'device' must be the script's first command (line 1 has 'wait' before it)");
        let e = split("t", "device gpu\n").err().unwrap();
        let names: Vec<&str> = DEVICES.iter().map(|d| d.name).collect();
        assert!(e.starts_with(&format!("t:1: unknown device 'gpu' (devices: {})", names.join(", "))), "{e}");
        assert!(split("t", "device\n").err().unwrap().starts_with("t:1: missing the device name"));
        for empty in ["", "\n\n", "# only a comment\n   # and another\n", "device pmon # and nothing else\n"] {
            assert!(split("e", empty).err().unwrap().starts_with("e: no commands"), "{empty:?}");
        }
    }

    #[test]
    fn every_device_has_its_own_name_extension_and_faults() {
        for (i, d) in DEVICES.iter().enumerate() {
            assert!(by_name(&d.name.to_uppercase()).is_some_and(|b| b.name == d.name));
            for o in DEVICES.iter().skip(i + 1) {
                assert_ne!(d.name, o.name);
                assert_ne!(d.script_ext, o.script_ext);
                assert!((d.faults)().iter().all(|f| !(o.faults)().contains(f)), "{} and {}", d.name, o.name);
            }
            assert!(d.own_options.iter().all(|o| DEVICE_OPTIONS.contains(o)));
        }
    }

    /// tools/check_vars.sh (`make check-vars`) reads the registry's names
    /// from the registry line: each device's module is named as the device.
    #[test]
    fn each_registry_entry_is_the_module_of_its_name() {
        let src = include_str!("devices.rs");
        let line = src.lines().find(|l| l.starts_with("pub static DEVICES:")).unwrap();
        let modules: Vec<&str> = line
            .split("::DEVICE")
            .filter_map(|p| p.rsplit(|c: char| !(c.is_alphanumeric() || c == '_')).next())
            .collect();
        let names: Vec<&str> = DEVICES.iter().map(|d| d.name).collect();
        assert_eq!(modules[..modules.len() - 1], names[..], "{line}");
    }
}
