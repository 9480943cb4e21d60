"""What the PCOUNTER tools share about the repository: its root, pcnt_top's
file list (rtl/pcnt/pcnt.f) and paths shown relative to the root.
Used by tools/gatesim.py (make gatesim, make bench) and tools/bench_peer.py
(make bench-peer)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE_LIST = "rtl/pcnt/pcnt.f"


def rel(p):
    """`p` relative to the repository root when it is inside it (for messages)."""
    try:
        return p.relative_to(ROOT)
    except ValueError:
        return p


def rtl_files():
    """(sources, include folders) of the file list, relative to the repository root."""
    sources, incdirs = [], []
    for line in (ROOT / FILE_LIST).read_text().splitlines():
        line = line.split("//")[0].strip()
        if line.startswith("+incdir+"):
            incdirs += [d for d in line[len("+incdir+") :].split("+") if d]
        elif line and not line.startswith(("+", "-", "#")):
            sources.append(line)
    return sources, incdirs
