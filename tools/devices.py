#!/usr/bin/env python3
"""The device manifests (`rtl/*/device.toml`, and `tests/*/device.toml` for
devices kept under tests/): one list of every RTL top, its builds, lint,
synthesis, equivalence and mutation entries. sim/build.rs reads the same
files for the harness builds.

  tools/devices.py lint VERILATOR      Verilator -Wall lint of every entry
  tools/devices.py synth YOSYS OUT     every listed Yosys script; statistics
                                       to OUT/synth-<name>.log
  tools/devices.py tops                the tops, one `name module` per line
  tools/devices.py regressions         the tops with their own default
                                       regression: `name:seeds:cycles` words
"""
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WAIVERS = "rtl/lint.vlt"
SYNTH_DIR = "target/synth"


def manifests():
    """Every manifest, in path order (rtl/ before tests/)."""
    return sorted(ROOT.glob("rtl/*/device.toml")) + sorted(ROOT.glob("tests/*/device.toml"))


def tops():
    """Every top of every manifest, as dicts (the manifest's path added)."""
    out = []
    for m in manifests():
        try:
            doc = tomllib.loads(m.read_text())
        except tomllib.TOMLDecodeError as e:
            sys.exit(f"{m.relative_to(ROOT)}: {e}")
        for t in doc.get("top", []):
            for key in ("name", "module", "file_list"):
                if key not in t:
                    sys.exit(f"{m.relative_to(ROOT)}: a [[top]] without '{key}'")
            out.append({**t, "manifest": str(m.relative_to(ROOT))})
    names = [t["name"] for t in out]
    dup = {n for n in names if names.count(n) > 1}
    if dup:
        sys.exit(f"device manifests: top name(s) {sorted(dup)} listed twice")
    return out


def top(name):
    for t in tops():
        if t["name"] == name:
            return t
    sys.exit(f"no device manifest lists a top named '{name}' (known: {', '.join(t['name'] for t in tops())})")


def lint(verilator):
    for t in tops():
        for e in t.get("lint", []):
            module = e.get("module", t["module"])
            params = e.get("params", [])
            print(f"lint: {module} {' '.join(params) or '(defaults)'}", flush=True)
            cmd = [verilator, "--lint-only", "-Wall", "--quiet", WAIVERS, "-f", t["file_list"],
                   *e.get("extra", []), "--top-module", module, *params]
            if subprocess.run(cmd, cwd=ROOT).returncode != 0:
                sys.exit(f"lint: {module} failed ({t['manifest']})")
    print("lint: clean")


def synth(yosys, out):
    out = Path(out)
    for t in tops():
        s = t.get("synth")
        if not s:
            continue
        print(f"synth: {t['module']} ({s['script']})", flush=True)
        if subprocess.run([yosys, "-q", "-s", s["script"]], cwd=ROOT).returncode != 0:
            sys.exit(f"synth: {s['script']} failed")
        log = out / f"synth-{t['name']}.log"
        log.write_text((ROOT / SYNTH_DIR / s["stat"]).read_text())
        subprocess.run(["awk", "-f", "tools/synth_summary.awk", str(log)], cwd=ROOT, check=True)
        print(f"(full Yosys statistics: {log})")


def main():
    match sys.argv[1:]:
        case ["lint", verilator]:
            lint(verilator)
        case ["synth", yosys, out]:
            synth(yosys, out)
        case ["regressions"]:
            print(" ".join(f"{t['name']}:{t['regression']['seeds']}:{t['regression']['cycles']}"
                           for t in tops() if "regression" in t))
        case ["tops"]:
            for t in tops():
                print(t["name"], t["module"])
        case _:
            sys.exit(__doc__)


if __name__ == "__main__":
    main()
