#!/usr/bin/env python3
"""Generate every device's register-map artefacts from its SystemRDL source.

Each device is one .rdl under regmap/ and one exporter module beside it,
named by the `regmap` key of a top in its device manifest
(rtl/*/device.toml, tests/*/device.toml), whose `outputs()` returns {path:
text} for every file generated from that .rdl (its SystemVerilog package,
its Rust register module, a docs page, and PeakRDL's docs/regmap/<name>.md
and .h through regmap_common.peakrdl) and whose optional `checks()` returns
source-tree findings. A new device is one .rdl, one exporter and its
manifest's `regmap` line.

  tools/regmap.py                      rewrite every device's files
  tools/regmap.py --device NAME        only that top's (a manifest top name)
  tools/regmap.py --check [--device D] exit 1 (listing the files) when any is
                                       stale or a check finds something
"""
import argparse
import importlib
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from regmap_common import ROOT  # noqa: E402
import devices  # noqa: E402

# top name: its exporter (a path relative to the repository root).
EXPORTERS = {t["name"]: t["regmap"] for t in devices.tops() if "regmap" in t}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--check", action="store_true", help="only report stale files")
    ap.add_argument("--device", choices=sorted(EXPORTERS), action="append",
                    help="limit to this device (repeatable; default: all)")
    args = ap.parse_args()
    outs, findings = {}, []
    for name in args.device or EXPORTERS:
        exporter = ROOT / EXPORTERS[name]
        # The exporter's folder first: an exporter may import its siblings.
        sys.path.insert(0, str(exporter.parent))
        mod = importlib.import_module(exporter.stem)
        outs.update(mod.outputs())
        if args.check and hasattr(mod, "checks"):
            findings += mod.checks()
    if args.check:
        stale = [p for p, t in outs.items() if not p.exists() or p.read_text() != t]
        for p in stale:
            print(f"stale generated file: {p.relative_to(ROOT)} (run `make regmap` and commit)")
        for h in findings:
            print(h)
        sys.exit(1 if stale or findings else 0)
    for p, t in outs.items():
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(t)
        print(f"wrote {p.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
