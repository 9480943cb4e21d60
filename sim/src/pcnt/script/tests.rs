//! Parser and renderer tests of scenario scripts.

use super::*;

fn body(text: &str) -> Vec<Cmd> {
    match parse("t.pcs", text) {
        Ok(s) => s.body.into_iter().map(|l| l.cmd).collect(),
        Err(e) => panic!("{text:?} failed: {e}"),
    }
}

fn err(text: &str) -> ParseError {
    match parse("t.pcs", text) {
        Ok(s) => panic!("{text:?} parsed unexpectedly: {s:?}"),
        Err(e) => e,
    }
}

#[test]
fn every_command() {
    use Cmd::*;
    let r = |addr, expect| Read { addr, expect };
    // One case per line reads as a table; keep rustfmt from unrolling it.
    #[rustfmt::skip]
        let cases: Vec<(&str, Cmd)> = vec![
            ("write 0xa7c0 0x00000001", Write { addr: 0xa7c0, data: 1, strb: 0xf }),
            ("write 0xa000 4294967295", Write { addr: 0xa000, data: u32::MAX, strb: 0xf }),
            ("write 0XAFFC 0x0000_0001", Write { addr: 0xaffc, data: 1, strb: 0xf }),
            ("write 40960 1_000", Write { addr: 0xa000, data: 1000, strb: 0xf }),
            ("read 0xa600", r(0xa600, None)),
            ("read 0xa600 == 0x64", r(0xa600, Some(Expect::Eq(0x64)))),
            ("read 0xa600==100", r(0xa600, Some(Expect::Eq(100)))),
            (
                "read 0xa7c0 & 0x03000000 == 0x03000000",
                r(0xa7c0, Some(Expect::MaskEq { mask: 0x0300_0000, value: 0x0300_0000 })),
            ),
            ("read 0xa7c0&0xff==0", r(0xa7c0, Some(Expect::MaskEq { mask: 0xff, value: 0 }))),
            ("read 0xa600 in 100..110", r(0xa600, Some(Expect::Range { lo: 100, hi: 110 }))),
            ("read 0xa600 in 0x10..0x10", r(0xa600, Some(Expect::Range { lo: 16, hi: 16 }))),
            ("read 0xa704 trace 0x00001234", r(0xa704, Some(Expect::Trace(0x1234)))),
            ("read 0xa704 trace 0", r(0xa704, Some(Expect::Trace(0)))),
            ("wait 100", Wait { cycles: 100 }),
            ("wait 0", Wait { cycles: 0 }),
            ("wait 18446744073709551615", Wait { cycles: u64::MAX }),
            ("set 0 0x12 1", Set { dom: 0, sig: 0x12, value: true }),
            ("set 0 255 0", Set { dom: 0, sig: 0xff, value: false }),
            ("pulse pm_trigger", Pulse { input: GlobalInput::PmTrigger, cycles: 1 }),
            ("pulse pm_trigger 3", Pulse { input: GlobalInput::PmTrigger, cycles: 3 }),
            ("poke 0 ctr_event 0xfffffff0", Poke { dom: 0, counter: Counter::Event, value: 0xffff_fff0 }),
            // 40 bits parse (NV10:NV30 counters); the fit per generation is the runner's.
            ("poke 0 ctr_event 0xff_ffff_fffd", Poke { dom: 0, counter: Counter::Event, value: 0xff_ffff_fffd }),
            ("poke 0 rec_ev11 0xf000", Poke { dom: 0, counter: Counter::RecEv(11), value: 0xf000 }),
            ("poke 0 rec_cycles_hi 1", Poke { dom: 0, counter: Counter::RecCyclesHi, value: 1 }),
            ("mem 0x42_1000_0000 == 0xb", Mem { addr: 0x42_1000_0000, expect: Some(Expect::Eq(0xb)) }),
            ("mem 0x10", Mem { addr: 0x10, expect: None }),
            ("fault 0x100 0x1ff", Fault { lo: 0x100, hi: 0x1ff }),
            ("latency 0 8", Latency { min: 0, max: 8, seed: 0 }),
            ("latency 1 20 99", Latency { min: 1, max: 20, seed: 99 }),
            ("pulse wrcache_flush", Pulse { input: GlobalInput::WrcacheFlush, cycles: 1 }),
            // Comments, tabs, CRLF and odd spacing.
            ("\twait\t7   # comment # more\r\n", Wait { cycles: 7 }),
            ("  read 0xa600   ==   0x1  #x", r(0xa600, Some(Expect::Eq(1)))),
        ];
    for (text, want) in cases {
        assert_eq!(body(text), vec![want], "{text:?}");
    }
}

#[test]
fn config_and_defaults() {
    for text in ["", "\n\n", "# only\n   # comments\r\n", "\u{feff}# leading byte-order mark is skipped\n"] {
        assert_eq!(parse("t.pcs", text), Ok(Script::default()), "{text:?}");
    }
    let s = parse("t.pcs", "clock 1 3\r\ngen nv40\r\ndomains 2\r\nclock 0 1\r\nwait 1\r\n").unwrap();
    assert_eq!(s.gen, "nv40");
    assert_eq!(s.domains, 2);
    assert_eq!(s.clocks, vec![(1, ClockSpec::Ratio { m: 1, n: 3 }), (0, ClockSpec::Ratio { m: 1, n: 1 })]);
    assert_eq!(s.body, vec![Line { line: 5, cmd: Cmd::Wait { cycles: 1 } }]);
    for g in GENS {
        assert_eq!(parse("t", &format!("gen {g}")).unwrap().gen, *g);
    }
    // S22 scripts run on several generations: a comma-separated list.
    assert_eq!(parse("t", "gen nv40,g84,g92,gt215").unwrap().gen, "nv40,g84,g92,gt215");
    for (bad, msg) in [
        ("gen nv40,nv40", "listed twice"),
        ("gen nv40,", "unknown generation ''"),
        ("gen nv40,gf100", "gf100 cannot be listed with other generations"),
    ] {
        let e = parse("t", bad).unwrap_err().to_string();
        assert!(e.contains(msg), "{bad}: {e}");
    }
}

#[test]
fn line_numbers_count_blank_and_comment_lines() {
    let s = parse("t", "# head\n\nwrite 0xa000 1\n   \nread 0xa000 # c\n").unwrap();
    let lines: Vec<usize> = s.body.iter().map(|l| l.line).collect();
    assert_eq!(lines, vec![3, 5]);
}

#[test]
fn every_error() {
    // (text, line, parts the message must contain)
    // One case per line reads as a table; keep rustfmt from unrolling it.
    #[rustfmt::skip]
        let cases: &[(&str, usize, &[&str])] = &[
            ("wait 1\nwrte 0xa000 1", 2, &["unknown command 'wrte'", "expected one of: gen, domains, clock, xseed, decode, layout, write, read, wait, set, pulse"]),
            ("WRITE 0xa000 1", 1, &["unknown command 'WRITE'", "commands are lowercase"]),
            ("REA 0xa000", 1, &["unknown command 'REA' (expected one of: gen, domains, clock, xseed, decode, layout, write, read, wait, set, pulse, poke, mem, fault, latency, ", ")"]),
            ("xseed 1\nxseed 2", 2, &["duplicate 'xseed'"]),
            ("wait 1\nxseed 2", 2, &["'xseed' must come before the first"]),
            ("mem 0x1002", 1, &["mem address 0x1002 is not 4-byte aligned"]),
            ("mem 0x10000000000", 1, &["ADDR 0x10000000000 out of range", "40-bit address"]),
            ("mem 0x100 = 1", 1, &["bad expectation '=' after 'mem ADDR'"]),
            ("mem 0x100 trace 1", 1, &["bad expectation 'trace' after 'mem ADDR'", "usage: mem ADDR"]),
            ("read 0xa600 trace", 1, &["missing argument VALUE for 'read'", READ_USAGE]),
            ("read 0xa600 trace 0x1_0000_0000", 1, &["VALUE 0x1_0000_0000 out of range"]),
            ("read 0xa600 trace 1 == 1", 1, &["unexpected '==' after 'read 0xa600 trace 1'"]),
            ("read 0xa600 TRACE 1", 1, &["bad expectation 'TRACE'"]),
            ("fault 0x20 0x10", 1, &["fault range 0x20..0x10 is empty"]),
            ("fault 0x20", 1, &["missing argument HI for 'fault'", "usage: fault LO HI"]),
            ("latency 5 2", 1, &["latency 5 2: MIN > MAX"]),
            ("latency 0 1001", 1, &["MAX 1001 out of range", "0..=1000"]),
            ("poke 0 rec_ev12 1", 1, &["unknown counter 'rec_ev12'", "rec_ev0..rec_ev11"]),
            ("write 0xa000 0xZZ", 1, &["bad number '0xZZ' for DATA", "expected decimal or 0x-hex u32"]),
            ("write 0xa000 -1", 1, &["bad number '-1' for DATA"]),
            ("write 0xa000 +1", 1, &["bad number '+1' for DATA"]),
            ("write 0xa000 0x", 1, &["bad number '0x' for DATA"]),
            ("write 0xa000 1_", 1, &["bad number '1_' for DATA"]),
            ("write 0xa000 0x_1", 1, &["bad number '0x_1' for DATA"]),
            ("write 0xa000 0x1_0000_0000", 1, &["DATA 0x1_0000_0000 out of range", "u32"]),
            ("write 0xa000 99999999999999999999999", 1, &["DATA 99999999999999999999999 out of range"]),
            ("write 0xa000", 1, &["missing argument DATA for 'write'", "usage: write ADDR DATA"]),
            ("write", 1, &["missing argument ADDR for 'write'"]),
            ("write 0xb000 1", 1, &["address 0xb000 out of range", "expected 0xa000..=0xafff"]),
            ("read 0x9ffc", 1, &["address 0x9ffc out of range"]),
            ("read 0xfffffffff", 1, &["address 0xfffffffff out of range", "0xa000..=0xafff"]),
            ("read 0x1_0000_0000_0000_0000", 1, &["address 0x1_0000_0000_0000_0000 out of range"]),
            ("read a000", 1, &["bad number 'a000' for ADDR", "0xa000..=0xafff"]),
            ("write 0xa000 1 2", 1, &["unexpected '2' after 'write 0xa000 1'"]),
            ("\n\nwait 10 foo", 3, &["unexpected 'foo' after 'wait 10'"]),
            ("wait 10 == 1", 1, &["unexpected '==' after 'wait 10'"]),
            ("wait", 1, &["missing argument CYCLES for 'wait'", "usage: wait CYCLES"]),
            ("wait 18446744073709551616", 1, &["CYCLES 18446744073709551616 out of range", "u64"]),
            ("wait 1.5", 1, &["bad number '1.5' for CYCLES"]),
            ("read 0xa600 = 1", 1, &["bad expectation '=' after 'read ADDR'", READ_USAGE]),
            ("read 0xa600 != 1", 1, &["bad expectation '!'", READ_USAGE]),
            ("read 0xa600 ===1", 1, &["bad expectation '==='"]),
            ("read 0xa600 ==", 1, &["missing argument VALUE for 'read'", READ_USAGE]),
            ("read 0xa600 == x", 1, &["bad number 'x' for VALUE"]),
            ("read 0xa600 == 1 2", 1, &["unexpected '2' after 'read 0xa600 == 1'"]),
            ("read 0xa600 & 0xff", 1, &["missing argument '==' for 'read'", READ_USAGE]),
            ("read 0xa600 & 0xff in 1..2", 1, &["expected '==' after '& MASK', found 'in'", READ_USAGE]),
            ("read 0xa600 & 0xff ==", 1, &["missing argument VALUE"]),
            ("read 0xa600 & 0x0f == 0x10", 1, &["VALUE 0x10 has bits outside MASK 0xf", "never pass"]),
            ("read 0xa600 in", 1, &["missing argument LO..HI for 'read'"]),
            ("read 0xa600 in 100", 1, &["bad range '100'", "expected LO..HI"]),
            ("read 0xa600 in 100...110", 1, &["bad number '.110' for HI"]),
            ("read 0xa600 in 100 .. 110", 1, &["bad range '100'"]),
            ("read 0xa600 in 110..100", 1, &["empty range '110..100'", "LO <= HI"]),
            ("read 0xa600 in 1..0x100000000", 1, &["HI 0x100000000 out of range"]),
            ("set 0 0x12", 1, &["missing argument VALUE for 'set'", "usage: set DOM SIG VALUE"]),
            ("set 8 0 1", 1, &["set domain 8 out of range", "no 'domains' line"]),
            ("set 64 0 1", 1, &["DOM 64 out of range", "0..=7, or 0..=63 with gen gf100"]),
            ("set 0 0x100 1", 1, &["SIG 0x100 out of range", "0..=0xff"]),
            ("set 0 0 2", 1, &["VALUE 2 out of range", "0 or 1"]),
            ("set 0 0 yes", 1, &["bad number 'yes' for VALUE", "0 or 1"]),
            ("pulse", 1, &["missing argument INPUT for 'pulse'", "pm_trigger | wrcache_flush"]),
            ("pulse PM_TRIGGER", 1, &["unknown input 'PM_TRIGGER'", "expected pm_trigger or wrcache_flush"]),
            ("pulse pm_trigger now", 1, &["bad number 'now' for CYCLES"]),
            ("pulse pm_trigger 0", 1, &["CYCLES 0 out of range", "1..="]),
            ("poke 0 ctr_foo 1", 1, &["unknown counter 'ctr_foo' for 'poke'", "ctr_cycles"]),
            ("poke 0 ctr_event", 1, &["missing argument VALUE for 'poke'"]),
            ("poke 1 ctr_event 5", 1, &["poke domain 1 out of range"]),
            ("write 0xa000 1 strb 0x10", 1, &["MASK 0x10 out of range", "0..=0xf"]),
            ("gen", 1, &["missing argument GEN for 'gen'", "nv10, nv15, nv20, nv30, nv40, g84, g92, gt215"]),
            (
                "gen nv50",
                1,
                &["unknown generation 'nv50'", "expected one of: nv10, nv15, nv20, nv30, nv40, g84, g92, gt215, gf100"],
            ),
            ("gen GT215", 1, &["unknown generation 'GT215'"]),
            // A generation's domain limit names the gen line (S24).
            ("gen nv10\ndomains 2", 1, &["generation 'nv10' has at most 1 domain,", "'domains 2' on line 2"]),
            ("domains 3\n\ngen g84,nv30", 3, &["generation 'nv30' has at most 2 domains, but the script has 3"]),
            ("gen nv15\nclock 1 2\ndomains 2", 1, &["'nv15' has at most 1 domain"]),
            ("poke 0 ctr_event 0x100_0000_0000", 1, &["VALUE 0x100_0000_0000 out of range", "below 2^40"]),
            ("gen g84 g92", 1, &["unexpected 'g92' after 'gen g84'"]),
            ("gen g84\n# x\ngen g92", 3, &["duplicate 'gen'", "first given on line 1"]),
            ("domains 0", 1, &["N 0 out of range", "1..=8"]),
            ("domains 9", 1, &["N 9 out of range", "1..=8"]),
            ("domains 2\ndomains 2", 2, &["duplicate 'domains'", "line 1"]),
            ("clock 1", 1, &["missing argument RATE for 'clock'", "usage: clock DOM N"]),
            ("clock 0 0", 1, &["N 0 out of range", "1..=1000000"]),
            ("clock 0 3/2", 1, &["clock rate 3/2", "M <= N"]),
            ("clock 0 irregular", 1, &["missing argument SEED"]),
            ("clock 8 1", 1, &["clock domain 8 out of range"]),
            ("clock 64 1", 1, &["DOM 64 out of range"]),
            // GF100 (docs/design/gf100.md): its window, presets, no `domains`.
            ("gen gf100\ndomains 2", 2, &["'domains' does not apply to gen gf100"]),
            ("gen gf100\nlayout real", 2, &["gen gf100 takes layout fermi | kepler | gf_fault"]),
            ("gen gf100\nlayout fermi,fermi", 2, &["layout 'fermi' listed twice"]),
            ("gen gf100\nlayout tesla", 2, &["unknown layout 'tesla'", "with gen gf100: fermi, kepler, gf_fault"]),
            ("gen gf100\nwrite 0xa000 1", 2, &["address 0xa000 is outside the gf100 window"]),
            ("gen gf100\nset 4 0 1", 2, &["set domain 4 out of range", "layout fermi has 4 domains"]),
            ("gen gf100\nlayout fermi,kepler\nset 4 0 1", 3, &["set domain 4 out of range"]),
            ("gen gf100\npulse pm_trigger", 2, &["'pulse pm_trigger' does not exist on gf100"]),
            ("gen gf100\nmem 0x100", 2, &["'mem' needs record mode"]),
            ("gen gf100\npoke 0 rec_stop 1", 2, &["poke rec_stop needs record mode"]),
            ("gen gf100\npoke 0 ctr_event 0x1_0000_0000", 2, &["does not fit ctr_event on gf100 (32 bits"]),
            ("gen gf100\nlayout kepler\ndecode lax", 3, &["'decode lax' is built for gen gf100 on layout fermi only, not kepler"]),
            ("gen g84\nlayout kepler", 2, &["layout kepler needs gen gf100"]),
            ("write 0x180000 1", 1, &["address 0x180000 is outside the window of gt215"]),
            ("pmc_enable 1", 1, &["'pmc_enable' needs gen gf100"]),
            ("write 0x1c0000 1", 1, &["address 0x1c0000 out of range", "0x180000..=0x1bffff with gen gf100"]),
            ("domains 2\nclock 1 3\nclock 1 4", 3, &["duplicate 'clock' for domain 1", "first given on line 2"]),
            // Config after the body names both lines.
            ("gen g84\nwait 1\nclock 0 2", 3, &["'clock' must come before the first", "line 2 has 'wait 1'"]),
            ("write 0xa000 1\ngen g84", 2, &["'gen' must come before", "line 1 has 'write 0xa000 0x00000001'"]),
            ("read 0xa000\n\ndomains 2", 3, &["'domains' must come before", "line 1"]),
            // Domain indices against the final count.
            ("clock 1 3", 1, &["clock domain 1 out of range", "expected 0..=0", "no 'domains' line"]),
            ("clock 2 3\ndomains 2", 1, &["clock domain 2 out of range", "expected 0..=1", "'domains 2' on line 2"]),
            ("domains 3\nwait 1\nset 2 0 1\nset 3 0 1", 4, &["set domain 3 out of range", "expected 0..=2", "'domains 3' on line 1"]),
            ("set 1 0 1", 1, &["set domain 1 out of range", "no 'domains' line"]),
            // Unicode and control characters are quoted safely.
            ("wait 1\nécrire 0xa000 1", 2, &["unknown command 'écrire'"]),
            ("wait ١٢", 1, &["bad number '١٢' for CYCLES"]),
            ("wait 1 \u{7}", 1, &["unexpected '\\u{7}'"]),
        ];
    for &(text, line, parts) in cases {
        let e = err(text);
        assert_eq!(e.line, line, "{text:?}: {e}");
        let shown = e.to_string();
        assert!(shown.starts_with(&format!("t.pcs:{line}: ")), "{text:?}: {shown}");
        for part in parts {
            assert!(shown.contains(part), "{text:?}: {shown:?} lacks {part:?}");
        }
    }
}

/// `echo` keeps the rest of the line (up to a comment) and renders back.
#[test]
fn echo_keeps_the_rest_of_the_line() {
    let text = "INIT: domain 1, OP 0xaaaa";
    assert_eq!(body(&format!("echo {text}  # a comment")), vec![Cmd::Echo { text: text.into() }]);
    assert!(err("echo").msg.contains("missing argument TEXT for 'echo'"));
    let s = parse("t", "echo a   b\nwait 1\necho c").unwrap();
    assert_eq!(parse("t", &render(&s)).unwrap(), s.compact());
    // A `#` inside the text is text; a lone `#` word starts the comment.
    for (line, want) in [
        ("echo issue #5 fixed", "issue #5 fixed"),
        ("echo issue #5 fixed # and a comment", "issue #5 fixed"),
        ("echo C# and F#", "C# and F#"),
        ("echo done #", "done"),
    ] {
        assert_eq!(body(line), vec![Cmd::Echo { text: want.into() }], "{line}");
        let s = parse("t", line).unwrap();
        assert_eq!(parse("t", &render(&s)).unwrap(), s.compact(), "{line}");
    }
    // Elsewhere `#` starts a comment wherever it is.
    assert_eq!(body("wait 3#x"), vec![Cmd::Wait { cycles: 3 }]);
}

/// The command table drives the parser, its errors and `--help`.
#[test]
fn command_table_drives_parser_and_help() {
    let h = help();
    for c in COMMANDS {
        assert!(c.usage.starts_with(c.name), "usage of '{}' starts with its name: {}", c.name, c.usage);
        assert!(h.contains(c.usage), "--help lists '{}'", c.name);
    }
    let e = err("frobnicate 1");
    assert_eq!(e.line, 1);
    for c in COMMANDS {
        assert!(e.msg.contains(c.name), "the unknown-command error lists '{}': {}", c.name, e.msg);
    }
    // A known command with a bad argument shows that command's usage.
    // (echo takes any text.)
    for c in COMMANDS.iter().filter(|c| !["xseed", "echo"].contains(&c.name)) {
        let e = err(&format!("{} @", c.name));
        assert!(e.msg.contains(c.usage) || e.msg.contains('@'), "{}: {}", c.name, e.msg);
    }
}

/// Every body command's declared example is canonical script syntax: it
/// parses to exactly that command (checked by name, so a row parsing into
/// another command's variant fails) and renders back unchanged, so a command
/// added to the table is covered by the round trip without a test edit.
#[test]
fn every_command_example_round_trips() {
    let body: Vec<_> = COMMANDS.iter().filter(|c| !c.is_config()).collect();
    assert!(body.len() >= 10, "the body commands are in the table");
    for c in body {
        let ex = c.example.unwrap_or_else(|| panic!("'{}' declares no example", c.name));
        // A GF100-only command (`pmc_enable`) is an example under `gen gf100`.
        let s = parse("example", ex)
            .or_else(|_| parse("example", &format!("gen gf100\n{ex}")))
            .unwrap_or_else(|e| panic!("example of '{}': {e}", c.name));
        assert_eq!(s.body.len(), 1, "{ex}");
        assert_eq!(s.body[0].cmd.name(), c.name, "{ex}");
        assert_eq!(s.body[0].cmd.to_string(), ex, "example of '{}' renders back", c.name);
    }
    assert!(COMMANDS.iter().filter(|c| c.is_config()).all(|c| c.example.is_none()));
}

#[test]
fn first_error_wins() {
    let e = err("wait 1\nbogus\nwrite 0xb000 1");
    assert_eq!(e.line, 2);
}

#[test]
fn long_garbage_is_truncated_in_messages() {
    let junk = "x".repeat(10_000);
    let e = err(&format!("wait 1 {junk}"));
    assert!(e.msg.len() < 200, "{}", e.msg);
    assert!(e.msg.contains("..."));
    // Consumed tokens are echoed too: a valid but absurdly zero-padded number.
    let e = err(&format!("wait {} x", "0".repeat(10_000)));
    assert!(e.msg.len() < 300, "{}", e.msg);
}

#[test]
fn display() {
    let e = ParseError { file: "a.pcs".into(), line: 0, msg: "m".into() };
    assert_eq!(e.to_string(), "a.pcs: m");
    let e = ParseError { line: 7, ..e };
    assert_eq!(e.to_string(), "a.pcs:7: m");
}

#[test]
fn expect_check_and_describe() {
    let eq = Expect::Eq(0x64);
    assert!(eq.check(100) && !eq.check(101));
    assert_eq!(eq.describe(), "== 0x64");
    let m = Expect::MaskEq { mask: 0x0300_0000, value: 0x0300_0000 };
    assert!(m.check(0xff00_0000) && !m.check(0x0100_0000));
    assert_eq!(m.describe(), "& 0x3000000 == 0x3000000");
    let r = Expect::Range { lo: 100, hi: 110 };
    assert!(r.check(100) && r.check(110) && !r.check(99) && !r.check(111));
    assert_eq!(r.describe(), "in 100..110");
    // A trace value is shown, never checked.
    let t = Expect::Trace(0x12);
    assert!(t.check(0x12) && t.check(0) && t.check(u32::MAX));
    assert_eq!(t.describe(), "trace 0x00000012");
    // describe() is script syntax: it parses back to the same expectation.
    for e in [eq, m, r, t] {
        let cmds = body(&format!("read 0xa000 {}", e.describe()));
        assert_eq!(cmds, vec![Cmd::Read { addr: 0xa000, expect: Some(e) }]);
    }
}

#[test]
fn render_compresses_waits() {
    let s = parse("t", "domains 2\nclock 1 3\nwait 0\nwait 5\nwait 6\nwrite 0xa000 1\nwait 0\nwait 2").unwrap();
    let text = render(&s);
    assert_eq!(text, "gen gt215\ndomains 2\nclock 1 3\n\nwait 11\nwrite 0xa000 0x00000001\nwait 2\n");
    assert_eq!(parse("r", &text), Ok(s.compact()));
    // Overflowing sums are split, not saturated.
    let big = parse("t", "wait 18446744073709551615\nwait 1").unwrap();
    assert_eq!(big.compact().body.len(), 2);
}

/// Small deterministic PRNG so the randomized tests need no crates.
struct XorShift(u64);
impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    fn pick<'a>(&mut self, xs: &[&'a str]) -> &'a str {
        xs[self.below(xs.len())]
    }
}

fn random_script(rng: &mut XorShift) -> Script {
    // The domain count within the picked generation's limit (parse refuses more).
    let gen = rng.pick(GENS);
    let max = pcounter::pcnt::regs::Gen::from_name(gen).map_or(MAX_DOMAINS, |g| g.max_domains());
    let domains = 1 + rng.below(max);
    let mut clocks = Vec::new();
    for dom in 0..domains as u8 {
        if rng.below(3) == 0 {
            let n = 1 + (rng.next() as u32 >> rng.below(32)) % MAX_CLOCK_N as u32;
            clocks.push((
                dom,
                match rng.below(3) {
                    0 => ClockSpec::Ratio { m: 1, n },
                    1 => ClockSpec::Ratio { m: 1 + rng.below(n.min(1000) as usize) as u32, n },
                    _ => ClockSpec::Irregular { seed: rng.next() },
                },
            ));
        }
    }
    let addr = |rng: &mut XorShift| MMIO_FIRST + 4 * rng.below(0x400) as u32;
    let mut body = Vec::new();
    for i in 0..rng.below(30) {
        let v = rng.next() as u32;
        let cmd = match rng.below(12) {
            0 => {
                Cmd::Write { addr: addr(rng), data: v, strb: if rng.below(4) == 0 { rng.below(16) as u8 } else { 0xf } }
            }
            1 => Cmd::Read { addr: addr(rng), expect: None },
            2 => Cmd::Read { addr: addr(rng), expect: Some(Expect::Eq(v)) },
            3 => Cmd::Read { addr: addr(rng), expect: Some(Expect::MaskEq { mask: v, value: v & rng.next() as u32 }) },
            4 if v & 8 == 0 => Cmd::Read { addr: addr(rng), expect: Some(Expect::Range { lo: v / 2, hi: v }) },
            4 => Cmd::Read { addr: addr(rng), expect: Some(Expect::Trace(v)) },
            5 => Cmd::Wait { cycles: rng.next() >> rng.below(64) },
            6 => Cmd::Set { dom: rng.below(domains) as u8, sig: v as u8, value: v & 256 != 0 },
            7 => Cmd::Poke {
                dom: rng.below(domains) as u8,
                counter: Counter::ALL[rng.below(5)],
                value: u64::from(v) | ((rng.next() & 0xff) << (32 * rng.below(2))),
            },
            8 => Cmd::Mem {
                addr: (rng.next() & 0xff_ffff_fffc),
                expect: if v & 1 == 0 { None } else { Some(Expect::Eq(v)) },
            },
            9 => {
                let lo = rng.next() & 0xff_ffff_ffff;
                Cmd::Fault { lo, hi: lo.saturating_add(u64::from(v)).min(0xff_ffff_ffff) }
            }
            10 => {
                let min = v % 1001;
                Cmd::Latency { min, max: min.max((v >> 10) % 1001), seed: rng.next() }
            }
            _ => Cmd::Pulse {
                input: if v & 1 == 0 { GlobalInput::PmTrigger } else { GlobalInput::WrcacheFlush },
                cycles: 1 + (v >> 1) % 4,
            },
        };
        body.push(Line { line: i + 1, cmd });
    }
    let x_seed = if rng.below(3) == 0 { Some(rng.next() as u32) } else { None };
    let layout = [
        pcounter::pcnt::config::Layout::Default,
        pcounter::pcnt::config::Layout::Real,
        pcounter::pcnt::config::Layout::Odd,
    ][rng.below(3)];
    let strict = rng.below(4) != 0;
    Script {
        gen: gen.to_string(),
        domains,
        clocks,
        x_seed,
        strict,
        layout,
        gf_layouts: Vec::new(),
        body,
        build_lines: Default::default(),
    }
}

#[test]
fn render_round_trip() {
    let mut rng = XorShift(0x9e37_79b9_7f4a_7c15);
    for _ in 0..2000 {
        let s = random_script(&mut rng);
        let text = render(&s);
        let back = parse("rt", &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(back, s.compact(), "\n{text}");
        // The rendered form is a fixed point.
        assert_eq!(render(&back), text);
    }
}

/// Garbled input must never panic, and every error must point at a real
/// line; successful parses must survive a render round trip.
#[test]
fn fuzz_no_panic() {
    let vocab = [
        "gen",
        "domains",
        "clock",
        "write",
        "read",
        "wait",
        "set",
        "pulse",
        "mem",
        "fault",
        "latency",
        "trace",
        "rec_ev3",
        "pm_trigger",
        "wrcache_flush",
        "gt215",
        "nv40",
        "nv10",
        "g84",
        "0",
        "1",
        "2",
        "7",
        "8",
        "0xa000",
        "0xa7c0",
        "0xafff",
        "0xb000",
        "0xa001",
        "0x",
        "0x_",
        "_1",
        "1_0",
        "0xffffffff",
        "0x100000000",
        "18446744073709551616",
        "99999999999999999999999999",
        "-1",
        "+1",
        "==",
        "=",
        "&",
        "in",
        "..",
        "1..2",
        "2..1",
        "0x10..0x20",
        "#",
        "# c",
        "\t",
        "\r",
        "é",
        "١",
        "\u{0}",
        "\u{7f}",
        "\u{feff}",
        "🦀",
        "READ",
        "  ",
        "==0x1",
        "&0xff",
    ];
    let mut rng = XorShift(0x2545_f491_4f6c_dd1d);
    for _ in 0..20_000 {
        let nlines = rng.below(8);
        let mut text = String::new();
        for _ in 0..nlines {
            for _ in 0..rng.below(7) {
                match rng.below(10) {
                    0 => text.push(char::from_u32(rng.next() as u32 % 0x11_0000).unwrap_or('?')),
                    1 => text.push(char::from(rng.below(128) as u8)),
                    _ => text.push_str(rng.pick(&vocab)),
                }
                if rng.below(4) != 0 {
                    text.push(' ');
                }
            }
            text.push_str(if rng.below(2) == 0 { "\n" } else { "\r\n" });
        }
        match parse("fz", &text) {
            Err(e) => {
                let lines = text.lines().count();
                assert!(e.line >= 1 && e.line <= lines, "line {} of {lines}: {e}\n{text:?}", e.line);
                assert!(!e.msg.is_empty());
            }
            Ok(s) => {
                let again = parse("fz", &render(&s)).unwrap_or_else(|e| panic!("{e}\n{text:?}"));
                assert_eq!(again, s.compact(), "{text:?}");
            }
        }
    }
}

/// A GF100 script renders with its preset on line 2 (no `domains`) and
/// parses back to the same script (docs/design/gf100.md 3.4).
#[test]
fn gf100_script_round_trips() {
    let text = "gen gf100\nlayout fermi,kepler\n\nwrite 0x18009c 0x00040002\nset 3 0xc7 1\npmc_enable 0\nread 0x180070 == 0x0\n";
    let s = parse("t", text).unwrap();
    assert_eq!((s.gen.as_str(), s.gf_layouts.clone(), s.domains), ("gf100", vec!["fermi".into(), "kepler".into()], 4));
    let out = render(&s);
    assert_eq!(out, text);
    assert_eq!(parse("t", &out).unwrap(), s.compact());
    // Without a layout line: fermi.
    assert_eq!(parse("t", "gen gf100").unwrap().gf_layouts, vec!["fermi".to_string()]);
}
