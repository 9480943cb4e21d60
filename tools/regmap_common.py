"""Helpers shared by the register-map exporters (tools/regmap.py drives them).

A device is one SystemRDL file under regmap/ and one exporter module
(tools/regmap_<device>.py) with an `outputs(root)` function that returns
{path: text} for every file generated from it; this module compiles the
.rdl and adds PeakRDL's Markdown reference and C header (docs/regmap/).
"""
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

try:
    from systemrdl import RDLCompiler, RDLCompileError
except ImportError:
    sys.exit("tools/regmap.py: systemrdl-compiler is missing; run `make venv` "
             "(installs tools/requirements.txt into .venv) and use .venv/bin/python")


# The Rust `impl Field` of a generated register module whose `Field` has
# `lsb` and `width` (the exporters of regmap/ that use it).
RUST_FIELD_IMPL = [
    "impl Field {",
    "    pub const fn mask(self) -> u32 {",
    "        (((1u64 << self.width) - 1) as u32) << self.lsb",
    "    }",
    "    pub const fn get(self, v: u32) -> u32 {",
    "        (v & self.mask()) >> self.lsb",
    "    }",
    "    pub const fn set(self, v: u32, x: u32) -> u32 {",
    "        (v & !self.mask()) | ((x << self.lsb) & self.mask())",
    "    }",
    "}",
]


def camel(name):
    return "".join(p.capitalize() for p in name.lower().split("_"))


def compile_rdl(src, top):
    """Compile and elaborate `src` (a Path) with `top` as the root addrmap."""
    rdlc = RDLCompiler()
    try:
        rdlc.compile_file(str(src))
        return rdlc.elaborate(top)
    except RDLCompileError:
        sys.exit(1)  # the compiler has printed file, line and what it expected


def compile_rdl_tops(src, tops):
    """Compile `src` once and elaborate each addrmap of `tops` as a root:
    {top: RootNode}."""
    rdlc = RDLCompiler()
    try:
        rdlc.compile_file(str(src))
        return {t: rdlc.elaborate(t) for t in tops}
    except RDLCompileError:
        sys.exit(1)


def access_of(f):
    if f.is_sw_writable and f.is_sw_readable:
        return "rw"
    return "ro" if f.is_sw_readable else "wo"


def peakrdl(root, src, md_path, h_path):
    """PeakRDL's Markdown reference and C header (driver writers) for `root`."""
    from peakrdl_markdown import MarkdownExporter
    from peakrdl_cheader.exporter import CHeaderExporter
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        md, h = Path(tmp) / md_path.name, Path(tmp) / h_path.name
        MarkdownExporter().export(root.top, str(md), input_files=[str(src.relative_to(ROOT))])
        # Per-instance names (reuse_typedefs=False): the types derived by
        # `REG -> desc = ...` would otherwise name the defines with hashes.
        CHeaderExporter().export(root.top, str(h), reuse_typedefs=False)
        out[md_path] = md.read_text()
        out[h_path] = h.read_text()
    return out
