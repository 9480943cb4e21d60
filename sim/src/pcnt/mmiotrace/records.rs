//! The record parsers of the mmiotrace importer (`super`): one function
//! per record kind, each checking its fields and naming what was expected.

use super::{Access, Map};
use crate::pcnt::script::show;

const RW_USAGE: &str = "WIDTH TIMESTAMP MAP_ID ADDRESS VALUE PC PID";
const MAP_USAGE: &str = "MAP TIMESTAMP MAP_ID PHYS VIRT LEN PC PID";
const PCIDEV_USAGE: &str = "PCIDEV BUSDEVFN VENDORDEVICE IRQ BAR0 ...";

fn count_err(kind: &str, usage: &str, want: usize, got: usize) -> String {
    format!("{kind}: expected '{usage}' ({want} fields), found {got}")
}

/// `R|W WIDTH TIMESTAMP MAP_ID ADDRESS VALUE PC PID`.
pub(super) fn rw_record(toks: &[&str]) -> Result<Access, String> {
    let kind = toks[0];
    if toks.len() != 8 {
        return Err(count_err(kind, &format!("{kind} {RW_USAGE}"), 8, toks.len()));
    }
    let width = dec(toks[1], "WIDTH", kind)?;
    if ![1, 2, 4, 8].contains(&width) {
        return Err(format!(
            "{kind}: WIDTH {width} out of range (expected 1, 2, 4 or 8 bytes; fields: {kind} {RW_USAGE})"
        ));
    }
    timestamp(toks[2], kind)?;
    dec(toks[3], "MAP_ID", kind)?;
    let phys = hex(toks[4], "ADDRESS", kind)?;
    let value = hex(toks[5], "VALUE", kind)?;
    if width < 8 && value >> (8 * width) != 0 {
        return Err(format!("{kind}: VALUE {value:#x} does not fit {width} byte(s)"));
    }
    hex(toks[6], "PC", kind)?;
    dec(toks[7], "PID", kind)?;
    Ok(Access { line: 0, write: false, width, phys, value })
}

/// `MAP TIMESTAMP MAP_ID PHYS VIRT LEN PC PID`.
pub(super) fn map_record(toks: &[&str]) -> Result<Map, String> {
    if toks.len() != 8 {
        return Err(count_err("MAP", MAP_USAGE, 8, toks.len()));
    }
    timestamp(toks[1], "MAP")?;
    let id = dec(toks[2], "MAP_ID", "MAP")?;
    let phys = hex(toks[3], "PHYS", "MAP")?;
    hex(toks[4], "VIRT", "MAP")?;
    let len = hex(toks[5], "LEN", "MAP")?;
    hex(toks[6], "PC", "MAP")?;
    dec(toks[7], "PID", "MAP")?;
    Ok(Map { line: 0, id, phys, len })
}

/// `PCIDEV BUSDEVFN VENDORDEVICE IRQ BAR0 ...`: BAR0's physical base if the
/// device is NVIDIA's and BAR0 is a memory BAR.
pub(super) fn pcidev_record(toks: &[&str]) -> Result<Option<u64>, String> {
    if toks.len() < 5 {
        return Err(format!("PCIDEV: expected '{PCIDEV_USAGE}' (at least 5 fields), found {}", toks.len()));
    }
    let id = hex(toks[2], "VENDORDEVICE", "PCIDEV")?;
    let bar = hex(toks[4], "BAR0", "PCIDEV")?;
    // Low bits are the resource flags; bit 0 = I/O space.
    Ok((id >> 16 == 0x10de && bar & 1 == 0 && bar != 0).then_some(bar & !0xf))
}

fn bad(kind: &str, what: &str, tok: &str, expected: &str) -> String {
    let usage = match kind {
        "MAP" => MAP_USAGE.to_string(),
        "PCIDEV" => PCIDEV_USAGE.to_string(),
        k => format!("{k} {RW_USAGE}"),
    };
    format!("{kind}: bad {what} '{}' (expected {expected}; fields: {usage})", show(tok))
}

/// Hex with an optional `0x` (the kernel prints `0x%lx`, PCIDEV bare `%llx`).
fn hex(tok: &str, what: &str, kind: &str) -> Result<u64, String> {
    let digits = tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")).unwrap_or(tok);
    if digits.is_empty() || digits.len() > 16 || !digits.chars().all(|c| c.is_ascii_hexdigit()) {
        return Err(bad(kind, what, tok, "a hex number of at most 64 bits"));
    }
    u64::from_str_radix(digits, 16).map_err(|_| bad(kind, what, tok, "a hex number"))
}

fn dec(tok: &str, what: &str, kind: &str) -> Result<u64, String> {
    if tok.is_empty() || !tok.chars().all(|c| c.is_ascii_digit()) {
        return Err(bad(kind, what, tok, "a decimal number"));
    }
    tok.parse().map_err(|_| bad(kind, what, tok, "a decimal number of at most 64 bits"))
}

/// `SECONDS.MICROSECONDS` (`%lu.%06lu`).
fn timestamp(tok: &str, kind: &str) -> Result<(), String> {
    let ok = |s: &str| !s.is_empty() && s.chars().all(|c| c.is_ascii_digit());
    let valid = match tok.split_once('.') {
        Some((s, us)) => ok(s) && ok(us),
        None => ok(tok),
    };
    if valid {
        Ok(())
    } else {
        Err(bad(kind, "TIMESTAMP", tok, "SECONDS.MICROSECONDS"))
    }
}
