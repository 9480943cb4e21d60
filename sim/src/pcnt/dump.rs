//! `pcnt record-dump`: decode record-mode packets (docs/semantics.md S21;
//! seed 003 "Record mode" packet layout) from a memory image or a packet
//! log into a table, a CSV and an SVG plot of the counters over time.
//!
//! Inputs:
//! * a packet log (`pcnt script --packets FILE`, or `cosim --packets DIR`):
//!   a `# pcnt packet log v1` line, then one packet per line:
//!   `CYCLE DOMAIN ADDRESS FORMAT W0 .. W15` (hex words, FORMAT long|short);
//! * a raw little-endian memory image of one domain's buffer: packets of
//!   `--format long|short` from byte 0 until the end of the file or the
//!   first packet that is all zero (never written).

use std::fmt::Write as _;

use pcounter::pcnt::record::Packet;

pub const LOG_HEADER: &str = "# pcnt packet log v1";

/// One decoded packet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Row {
    pub domain: usize,
    pub addr: u64,
    pub long: bool,
    /// 48-bit cycles counter of the packet (its timestamp).
    pub cycles: u64,
    pub stop: u16,
    /// PRE_SRC[0..3], START_SRC[0..3], EVENT_SRC[0..3]; SHORT packets carry
    /// only the first four.
    pub ev: Vec<u16>,
}

impl Row {
    pub fn from_words(domain: usize, addr: u64, long: bool, w: &[u16; 16]) -> Row {
        Row {
            domain,
            addr,
            long,
            cycles: u64::from(w[0]) | u64::from(w[1]) << 16 | u64::from(w[2]) << 32,
            stop: w[3] & 0xfff,
            ev: w[4..if long { 16 } else { 8 }].to_vec(),
        }
    }
}

/// One line of a packet log (the engine writes these).
pub fn log_line(cycle: u64, domain: usize, p: &Packet) -> String {
    let mut s = format!("{cycle} {domain} {:#012x} {}", p.addr, if p.long { "long" } else { "short" });
    for w in p.words {
        let _ = write!(s, " {w:04x}");
    }
    s
}

/// Parse a packet log; errors name the line.
pub fn parse_log(name: &str, text: &str) -> Result<Vec<Row>, String> {
    let mut rows = Vec::new();
    for (n, line) in text.lines().enumerate().skip(1) {
        let t: Vec<&str> = line.split_whitespace().collect();
        if t.is_empty() || t[0].starts_with('#') {
            continue;
        }
        let bad = |what: &str| format!("{name}:{}: {what} (expected CYCLE DOMAIN ADDRESS long|short W0..W15)", n + 1);
        if t.len() != 20 {
            return Err(bad(&format!("{} fields", t.len())));
        }
        let domain: usize = t[1].parse().map_err(|_| bad("bad DOMAIN"))?;
        let addr = u64::from_str_radix(t[2].trim_start_matches("0x"), 16).map_err(|_| bad("bad ADDRESS"))?;
        let long = match t[3] {
            "long" => true,
            "short" => false,
            _ => return Err(bad("bad FORMAT")),
        };
        let mut w = [0u16; 16];
        for (i, x) in t[4..].iter().enumerate() {
            w[i] = u16::from_str_radix(x, 16).map_err(|_| bad(&format!("bad word W{i}")))?;
        }
        rows.push(Row::from_words(domain, addr, long, &w));
    }
    Ok(rows)
}

/// Packets land in a 40-bit address space (docs/semantics.md S21).
pub const ADDR_LIMIT: u64 = 1 << 40;

/// Decode a raw image of one buffer. An image that would run past the
/// 40-bit address space is refused (its packet addresses would wrap).
pub fn parse_image(bytes: &[u8], base: u64, long: bool, domain: usize) -> Result<Vec<Row>, String> {
    let size = if long { 32 } else { 16 };
    if !matches!(base.checked_add(bytes.len() as u64), Some(end) if end <= ADDR_LIMIT) {
        return Err(format!(
            "--base {base:#x}: an image of {} bytes there ends past the 40-bit record address space (expected base + \
             size <= {ADDR_LIMIT:#x})",
            bytes.len()
        ));
    }
    let rows: Vec<Row> = bytes
        .chunks_exact(size)
        .enumerate()
        .map(|(i, c)| {
            let mut w = [0u16; 16];
            for (k, pair) in c.chunks_exact(2).enumerate() {
                w[k] = u16::from_le_bytes([pair[0], pair[1]]);
            }
            (i, w)
        })
        .take_while(|(_, w)| w.iter().any(|&x| x != 0))
        .map(|(i, w)| Row::from_words(domain, base + (i * size) as u64, long, &w))
        .collect();
    // Packets run up to the first all-zero one; an image that ends inside a
    // packet before any such end was cut short, and its last packet would
    // be lost without a word.
    let tail = bytes.len() % size;
    if rows.len() == bytes.len() / size && tail != 0 {
        return Err(format!(
            "the image ends inside a packet: {tail} byte(s) after packet {} at {:#x} (a {} packet is {size} bytes)",
            rows.len(),
            base + (rows.len() * size) as u64,
            if long { "long" } else { "short" }
        ));
    }
    Ok(rows)
}

const COLS: [&str; 12] =
    ["PRE0", "PRE1", "PRE2", "PRE3", "START0", "START1", "START2", "START3", "EVENT0", "EVENT1", "EVENT2", "EVENT3"];

pub fn table(rows: &[Row]) -> String {
    let mut s = format!("{:>14} {:>3} {:>12} {:>5}", "time", "dom", "address", "STOP");
    for c in COLS {
        let _ = write!(s, " {c:>6}");
    }
    s.push('\n');
    for r in rows {
        let _ = write!(s, "{:>14} {:>3} {:>#12x} {:>5}", r.cycles, r.domain, r.addr, r.stop);
        for i in 0..12 {
            match r.ev.get(i) {
                Some(v) => {
                    let _ = write!(s, " {v:>6}");
                }
                None => s.push_str("      -"),
            }
        }
        s.push('\n');
    }
    s
}

pub fn csv(rows: &[Row]) -> String {
    let mut s = format!("time,domain,address,format,stop,{}\n", COLS.join(","));
    for r in rows {
        let _ =
            write!(s, "{},{},{:#x},{},{}", r.cycles, r.domain, r.addr, if r.long { "long" } else { "short" }, r.stop);
        for i in 0..12 {
            s.push(',');
            if let Some(v) = r.ev.get(i) {
                let _ = write!(s, "{v}");
            }
        }
        s.push('\n');
    }
    s
}

/// Counters over time: one polyline per (domain, counter) that is ever
/// non-zero, x = packet time, y = count (0..0xffff).
pub fn svg(rows: &[Row]) -> String {
    let (w, h, m) = (900.0, 420.0, 40.0);
    let t0 = rows.iter().map(|r| r.cycles).min().unwrap_or(0);
    let t1 = rows.iter().map(|r| r.cycles).max().unwrap_or(1).max(t0 + 1);
    let x = |t: u64| m + (t - t0) as f64 / (t1 - t0) as f64 * (w - 2.0 * m);
    let y = |v: u16| h - m - f64::from(v) / 65535.0 * (h - 2.0 * m);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" font-family=\"monospace\" font-size=\"11\">\n\
         <rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n\
         <text x=\"{m}\" y=\"20\">record packets: counters vs time (cycles {t0}..{t1})</text>\n\
         <line x1=\"{m}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n",
        h - m,
        w - m,
        h - m
    );
    let colors = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#7f7f7f"];
    let mut legend = 0;
    let domains: std::collections::BTreeSet<usize> = rows.iter().map(|r| r.domain).collect();
    for d in domains {
        for c in 0..12 {
            let pts: Vec<(u64, u16)> =
                rows.iter().filter(|r| r.domain == d).filter_map(|r| r.ev.get(c).map(|v| (r.cycles, *v))).collect();
            if pts.iter().all(|p| p.1 == 0) {
                continue;
            }
            let color = colors[(d * 12 + c) % colors.len()];
            let path: Vec<String> = pts.iter().map(|&(t, v)| format!("{:.1},{:.1}", x(t), y(v))).collect();
            let _ = writeln!(s, "<polyline fill=\"none\" stroke=\"{color}\" points=\"{}\"/>", path.join(" "));
            let _ = writeln!(
                s,
                "<text x=\"{}\" y=\"{}\" fill=\"{color}\">dom{d} {}</text>",
                w - m - 90.0,
                m + 12.0 * f64::from(legend),
                COLS[c]
            );
            legend += 1;
        }
    }
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn packet(addr: u64, long: bool, k: u16) -> Packet {
        let mut words = [0u16; 16];
        for (i, w) in words.iter_mut().enumerate() {
            *w = k.wrapping_mul(7).wrapping_add(i as u16);
        }
        words[3] &= 0xfff;
        Packet { words, addr, long }
    }

    #[test]
    fn log_round_trip() {
        let pkts = [packet(0x42_1000_0000, true, 1), packet(0x10, false, 9)];
        let mut text = format!("{LOG_HEADER}\n");
        for (i, p) in pkts.iter().enumerate() {
            text.push_str(&log_line(100 + i as u64, i, p));
            text.push('\n');
        }
        let rows = parse_log("t.log", &text).unwrap();
        for (i, (r, p)) in rows.iter().zip(&pkts).enumerate() {
            assert_eq!(*r, Row::from_words(i, p.addr, p.long, &p.words));
        }
        assert_eq!(rows[0].cycles, 7 | 8 << 16 | 9 << 32);
        assert_eq!(rows[1].ev.len(), 4, "SHORT packets carry PRE_SRC[0..3] only");
        let e = parse_log("t.log", &format!("{LOG_HEADER}\n1 0 0x10 long 1 2\n")).unwrap_err();
        assert!(e.starts_with("t.log:2: 6 fields"), "{e}");
    }

    /// A raw image decodes to the same rows as the packets written into it
    /// (little-endian 16-bit words, seed 003 layout), up to the first
    /// never-written packet.
    #[test]
    fn image_matches_packets() {
        for long in [true, false] {
            let size = if long { 32 } else { 16 };
            let pkts: Vec<Packet> = (0..3).map(|k| packet(0x1000 + k * size, long, k as u16 + 1)).collect();
            let mut bytes = Vec::new();
            for p in &pkts {
                for w in &p.words[..size as usize / 2] {
                    bytes.extend_from_slice(&w.to_le_bytes());
                }
            }
            bytes.extend_from_slice(&[0; 64]);
            let rows = parse_image(&bytes, 0x1000, long, 3).unwrap();
            assert_eq!(rows.len(), 3);
            for (r, p) in rows.iter().zip(&pkts) {
                assert_eq!(*r, Row::from_words(3, p.addr, long, &p.words));
            }
            assert!(csv(&rows).lines().count() == 4 && table(&rows).contains("0x1000"));
            assert!(svg(&rows).contains("<polyline"));
        }
    }
    /// Fuzz finding (tests/fuzz/seeds/record_dump/crash-image-base-overflow):
    /// a base near the end of the address space overflowed the packet
    /// address (a panic with overflow checks, a wrapped address without).
    #[test]
    fn image_past_the_address_space_is_refused() {
        let packet = [1u8; 16];
        let e = parse_image(&packet, u64::MAX - 8, false, 0).unwrap_err();
        assert!(e.contains("40-bit") && e.contains("--base 0xfffffffffffffff7"), "{e}");
        assert!(parse_image(&packet, ADDR_LIMIT - 16, false, 0).unwrap()[0].addr == ADDR_LIMIT - 16);
        assert!(parse_image(&packet, ADDR_LIMIT - 15, false, 0).is_err());
    }

    /// An image cut inside a packet, with no all-zero packet before the cut,
    /// is refused (it dropped the partial packet silently); a partial tail
    /// after the end marker is not part of the record and stays allowed.
    #[test]
    fn image_ending_inside_a_packet_is_refused() {
        let mut bytes = vec![1u8; 16 + 10];
        let e = parse_image(&bytes, 0x100, false, 0).unwrap_err();
        assert!(e.contains("ends inside a packet: 10 byte(s) after packet 1 at 0x110"), "{e}");
        bytes.splice(16..16, [0u8; 16]);
        assert_eq!(parse_image(&bytes, 0x100, false, 0).unwrap().len(), 1);
        assert!(parse_image(&[1u8; 33], 0, true, 0).unwrap_err().contains("a long packet is 32 bytes"));
    }
}
