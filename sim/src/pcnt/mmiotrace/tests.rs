//! Unit tests of the mmiotrace importer (`super`).

use super::*;

const HEAD: &str = "VERSION 20070824\nMAP 1.000000 1 0xf6000000 0xffffc90000000000 0x1000000 0x0 0\n";

fn imp(body: &str) -> Result<Import, ParseError> {
    import("t.mmiotrace", &format!("{HEAD}{body}"), &Options::default())
}

fn cmds(body: &str) -> Vec<String> {
    imp(body).unwrap().entries.iter().map(|e| format!("{} @{}", e.cmd, e.trace_line)).collect()
}

#[test]
fn translates_window_and_pm_trigger() {
    let got = cmds(
        "W 4 1.1 1 0xf600a7c4 0x1 0x0 0\n\
         R 4 1.2 1 0xf600afff 0xffffffff 0x0 0\n\
         W 4 1.3 1 0xf6400084 0x21 0x0 0\n\
         W 4 1.4 1 0xf6400084 0x1 0x0 0\n\
         W 1 1.5 1 0xf6400084 0x20 0x0 0\n\
         R 4 1.6 1 0xf6009ffc 0x5 0x0 0\n\
         R 4 1.7 1 0xf600b000 0x5 0x0 0\n\
         W 8 1.8 1 0xf6100000 0xffffffffffffffff 0x0 0\n",
    );
    let want =
        ["write 0xa7c4 0x00000001 @3", "read 0xafff trace 0xffffffff @4", "pulse pm_trigger @5", "pulse pm_trigger @7"];
    assert_eq!(got, want);
    assert_eq!(imp("R 4 1.6 1 0xf6009ffc 0x5 0x0 0\n").unwrap().skipped, 1);
}

#[test]
fn bar0_selection() {
    // The VRAM BAR is mapped first; the NVIDIA PCIDEV line names BAR0.
    let t = "PCIDEV 0200 10de0400 10 f6000000 e000000c\n\
             PCIDEV 00f8 80862918 0 e0000000 0\n\
             MAP 1.0 7 0xe0000000 0x0 0x10000000 0x0 0\n\
             MAP 1.0 8 0xf6000000 0x0 0x1000000 0x0 0\n\
             W 4 1.1 7 0xe000a404 0x1 0x0 0\n\
             W 4 1.1 8 0xf600a404 0x2 0x0 0\n";
    let i = import("t", t, &Options::default()).unwrap();
    assert_eq!((i.bar0, i.bar0_line), (0xf600_0000, 4));
    assert_eq!(i.entries.len(), 1);
    assert!(i.script.contains("the BAR0 of the NVIDIA PCIDEV on line 1"), "{}", i.script);
    // Without PCIDEV lines: the first long MAP; short ones never count.
    let t = "MAP 1.0 1 0xf6000000 0x0 0x1000 0x0 0\nMAP 1.0 2 0xe0000000 0x0 0xb000 0x0 0\n";
    let i = import("t", t, &Options::default()).unwrap();
    assert_eq!(i.bar0, 0xe000_0000);
    let e = import("t", "MAP 1.0 1 0xf6000000 0x0 0xafff 0x0 0\n", &Options::default()).unwrap_err();
    let msg = "t: no NVIDIA PCIDEV line and no MAP of at least 0xb000 bytes";
    assert_eq!((e.line, e.to_string().starts_with(msg)), (0, true), "{e}");
    // BAR0 named by PCIDEV but mapped short (issue 29): the VRAM aperture,
    // mapped first and long, is never taken for BAR0, and a BAR0 access
    // outside its short MAP is still BAR0's.
    let t = "PCIDEV 0200 10de0400 10 f6000000 e000000c\n\
             MAP 1.0 7 0xe0000000 0x0 0x10000000 0x0 0\n\
             MAP 1.0 8 0xf6000000 0x0 0x1000 0x0 0\n\
             W 4 1.1 7 0xe000a404 0x1 0x0 0\n\
             W 4 1.1 8 0xf600a404 0x2 0x0 0\n";
    let i = import("t", t, &Options::default()).unwrap();
    assert_eq!((i.bar0, i.bar0_line, i.skipped), (0xf600_0000, 3, 1));
    assert_eq!(i.entries.iter().map(|e| e.cmd.to_string()).collect::<Vec<_>>(), ["write 0xa404 0x00000002"]);
    // PCIDEV without any MAP of its BAR0: still BAR0.
    let i = import("t", "PCIDEV 0200 10de0400 10 f6000000 0\nW 4 1.1 8 0xf600a404 0x2 0x0 0\n", &Options::default())
        .unwrap();
    assert_eq!((i.bar0, i.bar0_line, i.entries.len()), (0xf600_0000, 1, 1));
    assert!(i.script.contains("(no MAP of it in the trace)"), "{}", i.script);
}

/// GF100+ (issue 29, S25): nouveau's PM chipsets import as gen gf100 with
/// the window 0x180000..0x1bffff, PMC.ENABLE bit 28, and a preset that holds
/// every addressed domain.
#[test]
fn gf100_traces() {
    // GF100 (0xc0): fermi; PMC.ENABLE writes become pmc_enable of bit 28; a
    // PM_TRIGGER write is no GF100 input; 0xa000.. is no GF100 register.
    let i = imp("R 4 1.0 1 0xf6000000 0x0c0000a1 0x0 0\n\
         W 4 1.1 1 0xf618009c 0x40002 0x0 0\n\
         R 4 1.2 1 0xf6180070 0x22 0x0 0\n\
         W 4 1.3 1 0xf6000200 0xefffffff 0x0 0\n\
         W 4 1.4 1 0xf6000200 0xffffffff 0x0 0\n\
         W 4 1.5 1 0xf6400084 0x20 0x0 0\n\
         W 4 1.6 1 0xf600a7c4 0x1 0x0 0\n")
    .unwrap();
    assert_eq!((i.gen.as_str(), i.layout.as_deref(), i.domains, i.skipped), ("gf100", Some("fermi"), 4, 3));
    let got: Vec<String> = i.entries.iter().map(|e| format!("{} @{}", e.cmd, e.trace_line)).collect();
    let want =
        ["write 0x18009c 0x00040002 @4", "read 0x180070 trace 0x00000022 @5", "pmc_enable 0 @6", "pmc_enable 1 @7"];
    assert_eq!(got, want);
    assert!(i.script.contains("gen gf100\nlayout fermi\n"), "{}", i.script);
    assert!(i.script.contains("# layout fermi: chipset 0xc0's preset, holds every domain"), "{}", i.script);
    // GK104 (0xe4): kepler, whose hub fermi lacks.
    let i = imp("R 4 1.0 1 0xf6000000 0x0e4000a1 0x0 0\nW 4 1.1 1 0xf61b009c 0x40002 0x0 0\n").unwrap();
    assert_eq!((i.gen.as_str(), i.layout.as_deref(), i.domains), ("gf100", Some("kepler"), 18));
    // A real GK104's sample writes every domain: GPC3 is past every built
    // preset (no whole-GK104 build, S25.18), refused naming line and address.
    let e = imp("R 4 1.0 1 0xf6000000 0x0e4000a1 0x0 0\nW 4 1.1 1 0xf618346c 0xc7 0x0 0\n").unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.to_string().contains("write to 0x18346c: no such register"), "{e}");
    // A GF100 trace that writes the hub: the chipset's fermi lacks it.
    let i = imp("R 4 1.0 1 0xf6000000 0x0c0000a1 0x0 0\nW 4 1.1 1 0xf61b009c 0x40002 0x0 0\n").unwrap();
    assert_eq!(i.layout.as_deref(), Some("kepler"));
    assert!(i.script.contains("not the chipset's (fermi)"), "{}", i.script);
    // Only a read outside every preset: the write decides, the read answers PSLVERR.
    let i =
        imp("R 4 1.0 1 0xf6000000 0x0c0000a1 0x0 0\nW 4 1.1 1 0xf618009c 0x2 0x0 0\nR 4 1.2 1 0xf6184000 0x0 0x0 0\n")
            .unwrap();
    assert_eq!(i.layout.as_deref(), Some("fermi"));
    assert!(i.script.contains("the read of 0x184000 on line 5 answers PSLVERR"), "{}", i.script);
    // --layout: a write to a domain the preset lacks names line and address.
    let o = Options { layout: Some("fermi".into()), ..Options::default() };
    let t = format!("{HEAD}R 4 1.0 1 0xf6000000 0x0c0000a1 0x0 0\nW 4 1.1 1 0xf61b009c 0x40002 0x0 0\n");
    let e = import("t", &t, &o).unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.to_string().contains("write to 0x1b009c: no such register, domain or unit in layout fermi"), "{e}");
    // GPC 2 (nouveau's sample writes every GPC's domain): the whole GF100.
    let i = imp("R 4 1.0 1 0xf6000000 0x0c0000a1 0x0 0\nW 4 1.1 1 0xf618209c 0x2 0x0 0\n").unwrap();
    assert_eq!((i.layout.as_deref(), i.domains), (Some("fermi_full"), 10));
    // A write no preset holds (GPC 4; the whole GF100 has 4).
    let e = imp("R 4 1.0 1 0xf6000000 0x0c0000a1 0x0 0\nW 4 1.1 1 0xf618409c 0x2 0x0 0\n").unwrap_err();
    assert_eq!(e.line, 4);
    assert!(e.to_string().contains("write to 0x18409c: no such register, domain or unit in any preset"), "{e}");
    // --layout is for gen gf100 only; GK110 has no PM engine in nouveau.
    let t = format!("{HEAD}R 4 1.0 1 0xf6000000 0x084a00a2 0x0 0\n");
    assert!(import("t", &t, &o).unwrap_err().to_string().contains("--layout is for gen gf100 (the trace's gen is g84"));
    let e = imp("R 4 1.0 1 0xf6000000 0x0f0000a1 0x0 0\n").unwrap_err();
    assert!(e.to_string().contains("chipset 0xf0 has no PCOUNTER generation here"), "{e}");
}

#[test]
fn gen_and_domains() {
    let i = imp("R 4 1.0 1 0xf6000000 0x092a00a2 0x0 0\nW 4 1.1 1 0xf600a40c 0x1 0x0 0\n").unwrap();
    assert_eq!((i.gen.as_str(), i.domains), ("g92", 8));
    let i = imp("R 4 1.0 1 0xf6000000 0x0a3000a2 0x0 0\nW 4 1.1 1 0xf600a7a8 0x1 0x0 0\n").unwrap();
    assert_eq!((i.gen.as_str(), i.domains), ("gt215", 1), "GCTRL belongs to no domain");
    let i = imp("W 4 1.1 1 0xf600a820 0x1 0x0 0\n").unwrap();
    assert_eq!((i.gen.as_str(), i.domains), (script::DEFAULT_GEN, 2), "SIG_STATUS of domain 1");
    let o = Options { gen: Some("nv40".into()), domains: Some(8), layout: None };
    let i = import("t", &format!("{HEAD}R 4 1.0 1 0xf6000000 0x0c0000a1 0x0 0\n"), &o).unwrap();
    assert_eq!((i.gen.as_str(), i.domains), ("nv40", 8), "options override the trace");
    let e = imp("R 4 1.0 1 0xf6000000 0x108000a1 0x0 0\n").unwrap_err();
    assert!(e.to_string().starts_with("t.mmiotrace:3: PMC_BOOT_0 = 0x108000a1: chipset 0x108"), "{e}");
    // Bit 28 is part of the chipset: TU104 (0x164) is not an NV40 (0x64).
    let e = imp("R 4 1.0 1 0xf6000000 0x164000a1 0x0 0\n").unwrap_err();
    assert!(e.to_string().contains("chipset 0x164 has no PCOUNTER generation"), "{e}");
    // NV10 layout (seed 003 "MMIO registers", NV10): domain 1 at +0x100.
    // 0x518 is STOP_SRC[1] there and SETFLAG_OP[6] on the NV40 layout.
    let i = imp("R 4 1.0 1 0xf6000000 0x020000a1 0x0 0\nW 4 1.1 1 0xf600a518 0x1 0x0 0\n").unwrap();
    assert_eq!((i.gen.as_str(), i.domains), ("nv20", 2), "NV20: STOP_SRC[1] is domain 1");
    assert!(i.script.contains("# domains 2: the highest domain touched is 1.\n"), "{}", i.script);
    let i = imp("R 4 1.0 1 0xf6000000 0x030000a1 0x0 0\nW 4 1.1 1 0xf600a73c 0x1 0x0 0\n").unwrap();
    assert_eq!((i.gen.as_str(), i.domains), ("nv30", 1), "the shared CTRL belongs to no domain");
    let i = imp("R 4 1.0 1 0xf6000000 0x030000a1 0x0 0\nR 4 1.1 1 0xf600a72c 0x1 0x0 0\n").unwrap();
    assert_eq!(i.domains, 2, "THRESHOLD_HI[1] (0x72c) is domain 1 on the NV10 layout");
    assert!(i.script.contains("# domains 2: the highest domain touched is 1.\n"), "{}", i.script);
    let i = imp("R 4 1.0 1 0xf6000000 0x010000a1 0x0 0\nW 4 1.1 1 0xf600a500 0x1 0x0 0\n").unwrap();
    assert_eq!((i.gen.as_str(), i.domains), ("nv10", 1), "NV10 has one domain");
    assert!(i.script.contains("# domains 1: the highest domain touched is 1, but nv10 has at most 1"), "{}", i.script);
    for (boot0, gen) in [(0x0150_00a1, "nv15"), (0x01f0_00a1, "nv15"), (0x0280_00a1, "nv20"), (0x0360_00a1, "nv30")] {
        let i = imp(&format!("R 4 1.0 1 0xf6000000 {boot0:#x} 0x0 0\n")).unwrap();
        assert_eq!(i.gen, gen, "{boot0:#x}");
    }
    // Seed 003 "Introduction": NV11, NV17, NV18, NV1A have no PCOUNTER.
    for chipset in NO_PCOUNTER {
        let e = imp(&format!("R 4 1.0 1 0xf6000000 {:#x} 0x0 0\n", chipset << 20 | 0xa1)).unwrap_err();
        assert!(e.to_string().contains(&format!("chipset {chipset:#x} has no PCOUNTER generation")), "{e}");
        assert!(e.to_string().contains("NV1A have no PCOUNTER"), "{e}");
    }
    for (o, want) in [
        (Options { gen: Some("nv50".into()), domains: None, layout: None }, "--gen: unknown generation 'nv50'"),
        (Options { gen: None, domains: Some(9), layout: None }, "--domains: 9 out of range"),
        (
            Options { gen: Some("nv15".into()), domains: Some(2), layout: None },
            "--domains: 2 is more than nv15 has (at most 1",
        ),
        (
            Options { gen: Some("nv30".into()), domains: Some(8), layout: None },
            "--domains: 8 is more than nv30 has (at most 2",
        ),
    ] {
        let e = import("t", HEAD, &o).unwrap_err();
        assert!(e.to_string().contains(want), "{e}");
    }
}

#[test]
fn errors_name_the_line_and_the_fields() {
    #[rustfmt::skip]
    let cases: &[(&str, usize, &str)] = &[
        ("R 4 1.0 1 0xf600a704 0x3 0x0", 3, "R: expected 'R WIDTH TIMESTAMP MAP_ID ADDRESS VALUE PC PID' (8 fields), found 7"),
        ("W 3 1.0 1 0xf600a704 0x3 0x0 0", 3, "W: WIDTH 3 out of range"),
        ("W 2 1.0 1 0xf600a704 0x3 0x0 0", 3, "2-byte write at BAR0+0xa704, inside PCOUNTER"),
        ("R 1 1.0 1 0xf600a000 0x3 0x0 0", 3, "1-byte read at BAR0+0xa000"),
        ("W 4 1.0 1 0xf600a704 0xzz 0x0 0", 3, "W: bad VALUE '0xzz' (expected a hex number"),
        ("W 4 1.0 1 0xf600a704 0x100000000 0x0 0", 3, "W: VALUE 0x100000000 does not fit 4 byte(s)"),
        ("W 4 x 1 0xf600a704 0x1 0x0 0", 3, "W: bad TIMESTAMP 'x'"),
        ("W 4 1.0 -1 0xf600a704 0x1 0x0 0", 3, "W: bad MAP_ID '-1' (expected a decimal number"),
        ("\n\nMAP 2 1.5 0xf6000000 0x0 0x1000000 0x0 0", 5, "MAP: bad MAP_ID '1.5' (expected a decimal number; fields: MAP TIMESTAMP MAP_ID"),
        ("MAP 1.0 2 0xf6000000 0x0 0x1000000", 3, "MAP: expected 'MAP TIMESTAMP MAP_ID PHYS VIRT LEN PC PID' (8 fields), found 6"),
        ("MAP 1.0 2 0xf6000000 0x0 0x10000000000000000 0x0 0", 3, "MAP: bad LEN"),
        ("PCIDEV 0200 10de0400", 3, "PCIDEV: expected 'PCIDEV BUSDEVFN VENDORDEVICE IRQ BAR0 ...'"),
        ("PCIDEV 0200 nvidia 10 f6000000", 3, "PCIDEV: bad VENDORDEVICE 'nvidia'"),
    ];
    for &(body, line, want) in cases {
        let e = imp(body).unwrap_err();
        assert_eq!(e.line, line, "{body:?}: {e}");
        let shown = e.to_string();
        assert!(shown.starts_with(&format!("t.mmiotrace:{line}: ")), "{shown}");
        assert!(shown.contains(want), "{body:?}: {shown:?} lacks {want:?}");
    }
}

#[test]
fn unknown_kinds_and_marks() {
    let i = imp("LSPCI 01:00.0 VGA\nUNMAP 1.0 1 0x0 0\nFOO\nMARK 1.0   two  spaces\u{7}\n\n").unwrap();
    assert!(i.entries.is_empty());
    assert!(i.script.ends_with("domains 1\n\n# line 6: MARK two  spaces\\u{7}\n"), "{}", i.script);
}

/// Garbled traces never panic; every error names a real line (or the file).
#[test]
fn fuzz_no_panic() {
    let vocab = [
        "R",
        "W",
        "MAP",
        "PCIDEV",
        "MARK",
        "UNMAP",
        "4",
        "2",
        "8",
        "1.0",
        "1",
        "0xf6000000",
        "0xf600a704",
        "0xf6400084",
        "0x20",
        "0x1000000",
        "0x",
        "-1",
        "0xffffffffffffffffff",
        "10de0400",
        "é",
        "\t",
        "🦀",
    ];
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    for _ in 0..5000 {
        let mut t = String::from(HEAD);
        for _ in 0..next() % 6 {
            for _ in 0..next() % 9 {
                t.push_str(vocab[(next() % vocab.len() as u64) as usize]);
                t.push(' ');
            }
            t.push('\n');
        }
        match import("f", &t, &Options::default()) {
            Ok(i) => {
                script::parse("g", &i.script).unwrap_or_else(|e| panic!("{e}\n{}", i.script));
            }
            Err(e) => assert!(e.line <= t.lines().count() && !e.msg.is_empty(), "{e}"),
        }
    }
}
