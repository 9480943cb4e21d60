#!/usr/bin/env python3
"""Fail when modules of a crate import each other in a cycle (issue 12).

For each crate (sim/src = pcounter_sim, src = pcounter), every file is a
module (`a/b.rs` and `a/b/mod.rs` are `a::b`). A reference `crate::x::y::..`
(in `use` lines and in paths) or `super::..` from module M to module T is an
edge M -> T, where T is the module the path lands in (re-exports followed).
Edges between a module and its own ancestors or descendants are not counted
(a parent declares its children; a child may use its parent's items); other
edges are lifted to the two children of the common ancestor, so a folder
counts as one module. A cycle is then between siblings, e.g. two modules, or
two folders, that import each other. Prints every cycle found and exits 1.

  tools/check_imports.py        check both crates
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CRATES = {"pcounter-sim": ROOT / "sim" / "src", "pcounter": ROOT / "src"}
PATH = re.compile(r"\b(crate|super)((?:::[A-Za-z_][A-Za-z0-9_]*)+|::\{)")


def module_of(src, f):
    parts = list(f.relative_to(src).with_suffix("").parts)
    if parts[-1] in ("mod", "lib", "main"):
        parts = parts[:-1]
    return tuple(parts)


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return "\n".join(line.split("//")[0] for line in text.splitlines())


def uses(text):
    """Paths after `crate::` / `super::`, with `{a, b::c}` groups expanded."""
    out = []
    for m in re.finditer(r"\b(crate|super)::((?:[A-Za-z_][A-Za-z0-9_]*::)*)\{([^}]*)\}", text):
        base = m.group(2).rstrip(":").split("::") if m.group(2) else []
        for item in m.group(3).split(","):
            item = item.strip().split(" as ")[0]
            if item:
                out.append((m.group(1), base + item.split("::")))
    for m in PATH.finditer(text):
        if m.group(2) != "::{":
            out.append((m.group(1), m.group(2).strip(":").split("::")))
    return out


def related(a, b):
    n = min(len(a), len(b))
    return a[:n] == b[:n]


def resolve(mods, aliases, full):
    """The module a path lands in: modules are walked, re-exported names
    (`pub use a::b` in a module file) followed to where they come from."""
    cur = ()
    for comp in full:
        cand = cur + (comp,)
        if cand in mods:
            cur = cand
        elif cand in aliases:
            cur = aliases[cand]
        else:
            break
    return cur


def check(name, src):
    # The library crate; main.rs is the binary's root (its own crate).
    files = sorted(f for f in src.rglob("*.rs") if f != src / "main.rs")
    mods = {module_of(src, f): f for f in files}
    texts = {m: strip_comments(f.read_text()) for m, f in mods.items()}
    # `pub use path::{x, y}` in module m: m::x stands for path::x.
    aliases = {}
    for _ in range(3):  # re-exports of re-exports
        for m, text in texts.items():
            for line in re.findall(r"^\s*pub use ([^;]*);", text, flags=re.M):
                for kind, path in uses("crate::" + line if not line.startswith(("crate", "super")) else line):
                    full = list(m) + path if kind == "crate" and not line.startswith("crate") else path
                    if path and path[-1] != "*":
                        aliases[m + (path[-1],)] = resolve(mods, aliases, full)
    edges = {m: set() for m in mods}
    for m, f in mods.items():
        is_dir_mod = f.name in ("mod.rs", "lib.rs", "main.rs")
        for kind, path in uses(texts[m]):
            if kind == "super":
                base = list(m if is_dir_mod else m[:-1])
                while path and path[0] == "super":
                    base, path = base[:-1], path[1:]
                full = base + path
            else:
                full = path
            target = resolve(mods, aliases, full)
            if not related(m, target):
                # Lift both ends to the children of their common ancestor,
                # so folders count as one module (stim/record.rs -> runner
                # and runner/regress.rs -> stim is a stim <-> runner cycle).
                k = 0
                while m[k] == target[k]:
                    k += 1
                edges.setdefault(m[: k + 1], set()).add(target[: k + 1])
    # Tarjan's strongly connected components.
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                sccs.append(comp)

    sys.setrecursionlimit(10000)
    for v in list(edges):
        edges.setdefault(v, set())
        for w in edges[v]:
            edges.setdefault(w, set())
    for v in list(edges):
        if v not in index:
            visit(v)
    for comp in sccs:
        names = sorted("::".join(c) or "crate" for c in comp)
        print(f"{name}: import cycle between {', '.join(names)}")
    return len(sccs), len(mods), sum(len(e) for e in edges.values())


def main():
    bad = 0
    for name, src in CRATES.items():
        n, mods, edges = check(name, src)
        bad += n
        if n == 0:
            print(f"{name}: {mods} modules, {edges} imports between unrelated modules, no cycle")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
