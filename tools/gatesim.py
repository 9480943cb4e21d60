#!/usr/bin/env python3
"""`make gatesim`: the synthesized netlist of pcnt_top in lockstep with the model.

Yosys synthesises pcnt_top to a generic gate netlist (`synth -flatten`,
`write_verilog`: one `assign` per gate, one `always` per flop) for each
domain count; the harness is built with those netlists in place of the RTL
(build.rs, PCNT_NETLIST_DIR) and runs the same lockstep regression against
the model. Then one gate of the 1-domain netlist is edited (an inverter at
the D input of one flop, `--fault`) and the same regression must fail with
a mismatch, its waves and its reproducer: the check that the netlist path
compares what it claims to.

Usage (from the repository root; `make gatesim` passes the variables):
    tools/gatesim.py [--domains 1,8] [--seeds N] [--cycles N] [--out DIR]
Exit status 0 when the clean netlists pass and the edited one is caught.

    tools/gatesim.py --bench [--domains 1] [--cycles N] [--out DIR]
(`make bench`): the same netlist build, then `pcnt bench` rows of the
netlists (RTL alone and lockstep, the GT215 configurations of the main
table) instead of the regression.
"""

import argparse
import hashlib
import os
import re
import shutil
import subprocess
import sys
import time

sys.dont_write_bytecode = True  # no tools/__pycache__ from the shared module
from pcnt_files import ROOT, rel, rtl_files  # noqa: E402


# The edited gate: bit 5 of domain 0's EVENT counter (CTR_EVENT, S3) gets an
# inverter at its flop's D input. Observable as soon as the domain counts
# 32 events, which every regression run does.
FAULT_NAME = "gate_ctr_event_bit5"
FAULT_FLOP = r"\gen_dom[0].u_domain.u_core.ctr_event_q [5]"

# The generations pcnt_top implements (GF100 has its own top, not synthesised here).
GENS = "nv10,nv15,nv20,nv30,nv40,g84,g92,gt215"


def synth(domains, out):
    """Netlist of pcnt_top with `domains` domains at out/d<N>.v (kept while the RTL is unchanged)."""
    files = rtl_files()[0]
    key = hashlib.sha256(str(domains).encode())
    for f in files + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rtl/common").glob("*.svh")):
        key.update((ROOT / f).read_bytes())
    netlist = out / f"d{domains}.v"
    stamp = out / f"d{domains}.key"
    if netlist.is_file() and stamp.is_file() and stamp.read_text() == key.hexdigest():
        print(f"gatesim: {rel(netlist)} is up to date")
        return netlist
    script = "\n".join(
        [
            f"read_verilog -sv -DSYNTHESIS -Irtl/common {' '.join(files)}",
            f"chparam -set NumDomains {domains} pcnt_top",
            "hierarchy -check -top pcnt_top",
            "synth -flatten -top pcnt_top",
            # No combinational loop, no undriven or multiply driven net: the
            # harness build then waives Verilator's UNOPTFLAT (build.rs).
            "check -assert",
            "tee -o /dev/stdout stat",
            f"write_verilog -noattr {netlist}",
        ]
    )
    ys = out / f"d{domains}.ys"
    ys.write_text(script + "\n")
    t = time.time()
    log = out / f"d{domains}.log"
    with open(log, "w") as f:
        r = subprocess.run(["yosys", "-q", "-s", str(ys)], cwd=ROOT, stdout=f, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        sys.exit(f"gatesim: yosys failed for {domains} domain(s), see {log}")
    mark_public(netlist, files)
    cells = re.search(r"Number of cells:\s+(\d+)", log.read_text())
    print(f"gatesim: synthesised {domains} domain(s) in {time.time() - t:.0f} s: "
          f"{cells.group(1) if cells else '?'} cells -> {rel(netlist)}")
    stamp.write_text(key.hexdigest())
    return netlist


def mark_public(netlist, files):
    """Give the netlist's copies of the RTL's backdoor flops (`/*verilator
    public_flat_rw*/` in the RTL, docs/semantics.md S14) the same marking, so
    the harness's poke finds them (shim.cpp looks them up by their flat name)."""
    public = set()
    for f in files:
        public |= set(re.findall(r"(\w+)\s*/\*verilator public_flat_rw\*/", (ROOT / f).read_text()))
    text = netlist.read_text()
    decl = re.compile(r"^(\s*reg (?:\[\d+:0\] )?\\gen_dom\[\d+\]\.u_domain\.\S*?(\w+) );$", re.M)
    marked = 0

    def mark(m):
        nonlocal marked
        if m.group(2) not in public:
            return m.group(0)
        marked += 1
        return m.group(1) + "/*verilator public_flat_rw*/;"

    text = decl.sub(mark, text)
    if marked == 0:
        sys.exit(f"gatesim: none of the backdoor flops {sorted(public)} found in {netlist}")
    netlist.write_text(text)


def inject(clean, faulty):
    """Copy of `clean` with an inverter at the D input of FAULT_FLOP (exactly one flop)."""
    text = clean.read_text()
    # write_verilog gives every flop `<q> <= <d>;` in its `always` block; the
    # reset branch assigns a constant, the other a net.
    pat = re.compile(re.escape(FAULT_FLOP) + r"\s*<=\s*([^\s\d][^;]*);")
    hits = pat.findall(text)
    if len(hits) != 1:
        sys.exit(f"gatesim: expected one D assignment of {FAULT_FLOP} in {clean}, found {len(hits)}")
    faulty.write_text(pat.sub(lambda m: m.group(0).replace(m.group(1), f"~({m.group(1)})"), text, count=1))
    print(f"gatesim: {faulty.name}: D of {FAULT_FLOP} inverted ({hits[0].strip()})")


def cargo_build(netlists):
    env = dict(os.environ)
    env["PCNT_NETLIST_DIR"] = str(netlists)
    env["PCNT_CONFIGS"] = ",".join(sorted(p.stem for p in netlists.glob("d*.v")))
    # Without the `faults` feature: no RTL fault builds. The other devices'
    # builds come from the main build's cache.
    env.setdefault("PCNT_VCACHE", str(ROOT / "target/vcache"))
    env["CARGO_TARGET_DIR"] = str(ROOT / "target/gatesim")
    # The netlists are large flat C++ after Verilation: -O1 (as the fault builds).
    env.setdefault("PCNT_CXX_OPT", "1")
    t = time.time()
    r = subprocess.run(["cargo", "build", "--release", "-q", "-p", "pcounter-sim"], cwd=ROOT, env=env)
    if r.returncode != 0:
        sys.exit("gatesim: the harness build on the netlists failed")
    print(f"gatesim: harness on the netlists built in {time.time() - t:.0f} s")
    return ROOT / "target/gatesim/release/pcnt"


def cosim(pcnt, args, out):
    cmd = [str(pcnt), "cosim", "--no-progress", "--jobs", "2", "--shrink-secs", "0", "--out", str(out)] + args
    print("gatesim: " + " ".join(cmd[1:]), flush=True)
    return subprocess.run(cmd, cwd=ROOT).returncode


def bench(pcnt, domains, cycles, out):
    """`pcnt bench` rows of the netlist build: the main table's GT215
    configurations with those domain counts, RTL alone and lockstep."""
    labels = {1: "netlist, 1 domain", 2: "netlist, NV20, 2 domains", 8: "netlist, 8 domains, mixed clocks"}
    for d in domains:
        cmd = [str(pcnt), "bench", "--cycles", str(cycles), "--out", str(out), "--modes", "rtl,lockstep",
               "--only", labels[d]]
        print("gatesim: " + " ".join(cmd[1:]), flush=True)
        if subprocess.run(cmd, cwd=ROOT).returncode != 0:
            sys.exit(f"gatesim: the netlist bench ({d} domain(s)) failed")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--domains", default="1,8", help="domain counts to synthesise and run (default 1,8)")
    ap.add_argument("--seeds", type=int, default=8, help="seeds per domain count (default 8)")
    ap.add_argument("--cycles", type=int, default=20000, help="bus cycles per run (default 20000)")
    ap.add_argument("--out", default="out/gatesim", help="netlists, logs and failure artifacts")
    ap.add_argument("--bench", action="store_true", help="throughput rows of the netlists (make bench) instead of the regression")
    a = ap.parse_args()
    try:
        domains = [int(d) for d in a.domains.split(",")]
    except ValueError:
        sys.exit(f"gatesim: --domains {a.domains!r}: expected comma-separated domain counts, e.g. 1,8")
    # The plain configurations a netlist can stand in for (build.rs CONFIGS d1, d2, d8).
    if not domains or any(d not in (1, 2, 8) for d in domains):
        sys.exit(f"gatesim: --domains {a.domains!r}: each count must be 1, 2 or 8 (the d1/d2/d8 builds)")
    if shutil.which("yosys") is None:
        sys.exit("gatesim: yosys is missing: run `make setup`")
    out = (ROOT / a.out).resolve()
    nets = out / "netlists"
    nets.mkdir(parents=True, exist_ok=True)
    for p in nets.glob("gate_*.v"):
        p.unlink()
    for d in sorted(set(domains) | {1}):
        synth(d, nets)
    for p in nets.glob("d*.v"):
        if int(p.stem[1:]) not in domains and p.stem != "d1":
            p.unlink()
    inject(nets / "d1.v", nets / f"{FAULT_NAME}.v")
    pcnt = cargo_build(nets)
    if a.bench:
        bench(pcnt, domains, a.cycles, out)
        return

    common = ["--gen", GENS, "--layout", "default", "--seeds", str(a.seeds), "--cycles", str(a.cycles)]
    dlist = ",".join(str(d) for d in domains)
    if cosim(pcnt, common + ["--domains", dlist], out / "clean") != 0:
        sys.exit("gatesim: FAILED: the netlist and the model disagree (artifacts above)")
    fault_out = out / "fault"
    shutil.rmtree(fault_out, ignore_errors=True)
    rc = cosim(pcnt, common + ["--domains", "1", "--fault", FAULT_NAME], fault_out)
    waves = list(fault_out.rglob("*.vcd"))
    if rc == 0 or not waves:
        sys.exit(f"gatesim: FAILED: the edited gate ({FAULT_NAME}) was not caught (exit {rc}, {len(waves)} wave files)")
    print(f"gatesim: the edited gate was caught (exit {rc}), waves: {rel(waves[0])}")
    print(f"gatesim: the gate faults exist in this build only; rerun one with "
          f"PCNT_NETLIST_DIR={rel(nets)} {rel(pcnt)} cosim --domains 1 --fault {FAULT_NAME} --seed N --seeds 1 "
          f"--cycles {a.cycles} --layout default")
    print("gatesim: passed")


if __name__ == "__main__":
    main()
