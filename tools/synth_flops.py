#!/usr/bin/env python3
"""Flops per pcnt_top domain against the architectural state (issue 18).

`make synth` runs it after the Yosys summary table. It reads

* the Yosys statistics of the pcnt_top run (`stat -top pcnt_top`, hierarchy
  kept, out/synth.log): flops per module and instance counts;
* optionally the flop dump of the same run (`dump` of the $_DFF* cells,
  RTLIL, target/synth/synth-pcnt-flops.il) for the breakdown by register;
* rtl/pcnt/pcnt_reg_pkg.sv, generated from regmap/pcounter.rdl: the stored
  bits of every per-domain register per generation (dom_rw_mask,
  dom_store_mask), field widths, feature flags and domain limits.

One domain of the netlist is pcnt_domain (with its inlined engine
pcnt_dom_core) and every cell under it (pcnt_record, the two source-side
edge counters prim_edge_cnt), plus the synchronizers pcnt_top instantiates
on the domain's ticks (prim_sync_2ff, prim_pulse_sync: imports from the
other domains and the two global pulses). The shared logic (APB registers,
AXI manager, global pulse counters) belongs to no domain.

The architectural state of a domain is the state a spec-level description
of it has to hold (docs/performance.md, "Flops per domain against the
architectural state"): counters, hidden initial values, shadows, stored
configuration bits, states and flags, delayed arguments, PERIODIC and USER,
record mode, the synchronizer stages of S15..S22. gen_i is a run-time strap
(docs/semantics.md S0, S24.1), so the netlist serves all eight generations
and the list is their union; --gens gives each generation's own figure.
Widths come from the register package where the register map has them and
from the seed (003) or docs/semantics.md otherwise, each cited below.

  tools/synth_flops.py --log out/synth.log [--flops target/synth/synth-pcnt-flops.il]
  tools/synth_flops.py ... --table   the breakdown as a Markdown table
  tools/synth_flops.py ... --gens    architectural bits per generation

Prints `pcnt_top: flops per domain N (architectural M, ratio R, target <=
1.30)` (and "NOT met" above the target; the exit status stays 0) and, with
the dump, the items where the netlist holds more than the list.
"""
import argparse
import collections
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = 1.30
FLOP_CELL = re.compile(r"^\$_(S?DFF|DFFSR|ALDFF|DLATCH)")


def popcount(v):
    return bin(v).count("1")


def snake(camel):
    """RegPreSrc -> PRE_SRC."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", camel).upper()


def function_body(text, name):
    m = re.search(r"function automatic [^;]*\b" + name + r"\b.*?endfunction", text, re.S)
    if not m:
        sys.exit(f"synth_flops: function {name} not found in the register package")
    return m.group(0)


def parse_pkg(path):
    """What the generated register package says about one domain."""
    text = Path(path).read_text()
    gens = [g for g, _ in sorted(re.findall(r"\bGen(\w+) = 3'd(\d+)", text), key=lambda x: int(x[1]))]
    gen_val = {g: i for i, g in enumerate(gens)}
    regs = {int(i): snake(n) for n, i in re.findall(r"localparam int unsigned Reg(\w+) = (\d+);", text)}
    widths = {n: int(w) for n, w in re.findall(r"localparam int unsigned (\w+)Width = (\d+);", text)}
    lsbs = {n: int(w) for n, w in re.findall(r"localparam int unsigned (\w+)Lsb = (\d+);", text)}
    store = {int(i): int(m, 16)
             for i, m in re.findall(r"(\d+): m = 32'h([0-9a-f]+);", function_body(text, "dom_store_mask"))}
    rw = {}
    body = function_body(text, "dom_rw_mask")
    for g, block in re.findall(r"pcnt_reg_pkg::Gen(\w+): begin(.*?)endcase", body, re.S):
        rw[g] = {int(i): int(m, 16) for i, m in re.findall(r"(\d+): m = 32'h([0-9a-f]+);", block)}
    max_dom = {g: int(n) for g, n in re.findall(r"pcnt_reg_pkg::Gen(\w+): n = (\d+);",
                                                function_body(text, "max_domains"))}
    feats = {}
    feat_rx = r"function automatic logic feat_(\w+)\(gen_e gen\);\s*feat_\1 = (.*?);"
    for name, expr in re.findall(feat_rx, text):
        py = re.sub(r"pcnt_reg_pkg::Gen(\w+)", lambda m: str(gen_val[m.group(1)]), expr)
        py = py.replace("&&", " and ")
        if not re.fullmatch(r"[\sgen0-9()<>=!and]*", py):
            sys.exit(f"synth_flops: cannot read feat_{name}: {expr}")
        feats[name] = {g for g in gens if eval(py, {"__builtins__": {}}, {"gen": gen_val[g]})}
    for idx, mask in store.items():
        union = 0
        for g in gens:
            union |= rw[g].get(idx, 0)
        if union != mask:
            sys.exit(f"synth_flops: dom_store_mask({idx}) is not the union of dom_rw_mask")
    return {"gens": gens, "regs": regs, "widths": widths, "lsbs": lsbs, "store": store, "rw": rw,
            "max_dom": max_dom, "feats": feats}


def stored(pkg, g, reg, field):
    """Whether CTRL-like register `reg` stores field `field` on generation g."""
    idx = next(i for i, n in pkg["regs"].items() if n == reg)
    return bool(pkg["rw"][g].get(idx, 0) >> pkg["lsbs"][field] & 1)


def arch_items(pkg, n):
    """The architectural state of one domain of an n-domain set, as a list
    of items: label, bits per generation (0 = not needed there), source,
    and the netlist flops (module kind, wire regex) that implement it."""
    gens, w, feats = pkg["gens"], pkg["widths"], pkg["feats"]
    ctr = w["CtrCyclesValue"]                      # 32: CTR_* registers
    hi = w["CtrCyclesHiValue"]                     # 8: CTR_*_HI, bits 39:32 (S24.5)
    quad = {g for g in gens if stored(pkg, g, "CTRL", "CtrlMode")}          # [NV30-]
    pulse_mode = {g for g in gens if stored(pkg, g, "CTRL", "CtrlEventImportMode")}  # NV40+ (S24.17)
    multi = {g for g in gens if pkg["max_dom"][g] >= 2}
    pm_trigger = feats["trailer20"] | feats["trailer40"]
    # PERIODIC: P = 0x400 << (PERIODIC_PERIOD - 1), the longest for the
    # largest field value; the counter runs 0..P-1 (seed, S18).
    per_max = 0x400 << ((1 << w["CtrlPeriodicPeriod"]) - 2)
    per_cnt = (per_max - 1).bit_length()
    # Record counters (seed 003 "Record mode": 48-bit cycles, 12 16-bit
    # event counters, 12-bit STOP counter).
    rec_cycles, rec_ev, rec_stop = 48, 12 * 16, 12
    cnt_w = 3          # PULSE edge counts: 3-bit Gray (S16, S22)
    stages = 2         # synchronizer stages (seed: "two domain y clocks ago", S16)
    items = []

    def add(label, bits, source, rtl, note=""):
        per_gen = {g: (bits(g) if callable(bits) else bits) for g in gens}
        items.append({"label": label, "per_gen": per_gen, "source": source, "rtl": rtl, "note": note})

    def wide(g):
        return ctr + (hi if g in feats["wide_counters"] else 0)

    add("CTR_CYCLES (= CTR_CYCLES_ALT)", wide, "seed \"Counters\"; S5 (ALT is a copy), S24.5",
        [("pcnt_domain", r"(u_core\.)?ctr_cycles(_q)?")])
    add("CTR_EVENT", wide, "seed \"Counters\"; S24.5", [("pcnt_domain", r"(u_core\.)?ctr_event(_q)?")])
    add("CTR_START", wide, "seed \"Counters\"; S24.5", [("pcnt_domain", r"(u_core\.)?ctr_start(_q)?")])
    add("CTR_PRE, CTR_STOP", 2 * ctr, "seed \"Counters\"; S24.7",
        [("pcnt_domain", r"(u_core\.)?ctr_(pre|stop)(_q)?")])
    add("CTR_PRE, CTR_STOP initial values", 2 * ctr, "seed \"Counters\" (hidden initial value); S8",
        [("pcnt_domain", r"(u_core\.)?(pre|stop)_init_q")])
    add("quad shadow counters (5)", lambda g: 5 * ctr if g in quad else 0,
        "seed \"Quad event mode\"; S17", [("pcnt_domain", r"(u_core\.)?shadow(_q)?")])
    add("SINGLE_STATE", w["CtrlSingleState"], "seed \"Single event mode\"; S12",
        [("pcnt_domain", r"(u_core\.)?single(_q|_state)?")])
    add("QUAD_STATE", lambda g: w["CtrlQuadState"] if g in quad else 0, "seed \"Quad event mode\"; S17",
        [("pcnt_domain", r"(u_core\.)?quad_state(_q)?")])
    add("FLAG, FLAG signal", 2, "seed \"The flag\" (signal 2 clocks after SETFLAG); S3",
        [("pcnt_domain", r"(u_core\.)?flag(_sig)?(_q)?")])
    # The EVENT signals are trailer signals from NV40 on (S9); before, no
    # position shows them, own or imported (S24.16).
    add("EVENT signal", lambda g: 1 if g in feats["trailer40"] else 0,
        "S4 (registered, breaks the selection loop)", [("pcnt_domain", r"(u_core\.)?event_sig(_q)?")])
    add("delayed arguments (SRC[0], SRC[1] of 6 inputs)", 6 * 2,
        "seed \"Input selection\" (OP bits 16-20); S10, S24.9",
        [("pcnt_domain", r"(u_core\.)?sel_prev(_q)?")],
        "12 are read: SRC[0,1] of PRE, START, EVENT, STOP and of SETFLAG, CLRFLAG (S10)")
    add("PERIODIC counter and output", lambda g: per_cnt + 1 if g in feats["periodic"] else 0,
        "seed \"The PERIODIC signal\" (period up to 0x%x); S18" % per_max,
        [("pcnt_domain", r"(u_core\.)?(per_cnt|periodic)(_q)?")],
        "%d-bit counter (0..0x%x) and the output flop" % (per_cnt, per_max - 1))
    user = w["UserTriggerUser0"] + w["UserTriggerUser1"] + w["UserTriggerPulse0"] + w["UserTriggerPulse1"]
    add("USER_0/1 values and pulse modes", lambda g: user if g in feats["user_signals"] else 0,
        "seed \"The USER signals\"; S19", [("pcnt_domain", r"(user|pulse)(_q)?")])
    for idx in sorted(pkg["store"]):
        name = pkg["regs"][idx]
        add(name, lambda g, i=idx: popcount(pkg["rw"][g].get(i, 0)),
            "stored bits, regmap/pcounter.rdl; S8",
            [("pcnt_domain", r"gen_store\[%d\]\.gen_ff\.store_q" % idx)])
    rec = feats["record"]
    add("record counters (CYCLES, EV[0..11], STOP)",
        lambda g: rec_cycles + rec_ev + rec_stop if g in rec else 0,
        "seed \"Record mode\"; S21", [("pcnt_record", r"(cycles|ev|stop)_q")])
    add("record POSITION, BUFFER_VALID, stale",
        lambda g: w["RecordStatusPosition"] + 2 if g in rec else 0,
        "seed \"Record mode setup\"; S21 (d)", [("pcnt_record", r"(pos|buf_valid|stale)_q")])
    add("RECORD_STATUS.FAULT, wedged", lambda g: w["RecordStatusFault"] + 1 if g in rec else 0,
        "seed \"Record mode setup\" (fault hangs the domain); S21", [("pcnt_record", r"(fault|wedged)_q")])
    add("outgoing packet slot (packet, address, format, busy)",
        lambda g: (rec_cycles + rec_ev + rec_stop)
        + (w["RecordAddressHighAddrHigh"] + w["RecordStatusPosition"]) + w["CtrlRecordFormat"] + 1
        if g in rec else 0,
        "seed \"Record mode\" (\"place for one outgoing packet\"); S21",
        [("pcnt_record", r"(pkt|addr|long|busy)_q")],
        "the packet's 252 counter bits (word 3 bits 15:12 are 0), 36 address bits")
    add("PULSE edge counts (EVENT, FLAG), source side",
        lambda g: 2 * cnt_w if n >= 2 and g in pulse_mode else 0,
        "S16, S22 (3-bit Gray count per exported signal)", [("prim_edge_cnt", r"gray_q")],
        "needed only when another domain imports")
    add("global pulse synchronizers (PM_TRIGGER, WRCACHE_FLUSH)",
        lambda g: 3 * cnt_w * ((g in pm_trigger) + (g in feats["wrcache_flush"])),
        "S22 (2 stages + seen count, 3 bits each)", [("prim_pulse_sync", r"global")])
    add("CONTINUOUS import synchronizers",
        lambda g: (n - 1) * stages * ((g in multi) + (g in feats["trailer40"])),
        "seed \"The EVENT and FLAG signals\"; S16 (2 flops x EVENT, FLAG x %d sources)" % (n - 1),
        [("prim_sync_2ff", r"s[12]_q")])
    add("PULSE import synchronizers", lambda g: (n - 1) * 2 * 3 * cnt_w if g in pulse_mode else 0,
        "S16, S22 (p1, p2, seen x EVENT, FLAG x %d sources)" % (n - 1), [("prim_pulse_sync", r"import")])
    return items


def union_bits(item):
    return max(item["per_gen"].values())


def module_kind(name):
    """`$paramod$<hash>\\pcnt_domain`, `$paramod\\prim_pulse_sync\\Width=..`, `\\pcnt_record`."""
    return re.sub(r"^\$paramod(\$[0-9a-f]+)?", "", name).lstrip("\\").split("\\")[0]


def parse_stat(path):
    """Per module: own flops and sub-module instance counts (Yosys `stat`)."""
    own, children = {}, {}
    cur, in_cells = None, False
    for line in Path(path).read_text().splitlines():
        m = re.match(r"^=== (.*) ===$", line)
        if m:
            cur, in_cells = m.group(1), False
            if cur != "design hierarchy":
                own[cur], children[cur] = 0, {}
            else:
                cur = None
            continue
        if cur is None:
            continue
        # Yosys 0.70: "N cells", "N submodules", then "N   <type>" rows;
        # older Yosys: "Number of cells: N", then "<type>   N" rows.
        if "Number of cells:" in line or re.match(r"^\s+\d+ (cells|submodules)$", line):
            in_cells = True
            continue
        m = re.match(r"^\s+(\S+)\s+(\d+)\s*$", line)
        if m and not m.group(1).isdigit():
            typ, cnt = m.group(1), int(m.group(2))
        else:
            m = re.match(r"^\s+(\d+)\s+(\S+)\s*$", line)
            typ, cnt = (m.group(2), int(m.group(1))) if m else (None, 0)
        if in_cells and typ is not None:
            if FLOP_CELL.match(typ):
                own[cur] += cnt
            elif not typ.startswith("$_"):
                children[cur][typ] = cnt      # a sub-module (kept only if it has a section)
    for mod in children:
        children[mod] = {c: k for c, k in children[mod].items() if c in own}
    return own, children


def hier(own, children, mod):
    return own[mod] + sum(k * hier(own, children, c) for c, k in children[mod].items())


def domain_cells(own, children):
    """Number of domains, the pcnt_domain modules under pcnt_top, and the
    per-domain synchronizer cells of pcnt_top (module -> instances per domain)."""
    top = "pcnt_top"
    if top not in own:
        sys.exit("synth_flops: no pcnt_top statistics in the log")
    doms = [c for c in children[top] if module_kind(c) == "pcnt_domain"]
    n = sum(children[top][c] for c in doms)
    sync = {}
    for c, k in children[top].items():
        if module_kind(c) in ("prim_sync_2ff", "prim_pulse_sync"):
            if k % n:
                sys.exit(f"synth_flops: {k} instances of {c} do not divide over {n} domains")
            sync[c] = k // n
    return n, doms, sync


def parse_dump(path):
    """Per module: flop bits by the name of the wire on Q."""
    mods, cur = {}, None
    for line in Path(path).read_text().splitlines():
        m = re.match(r"^module (\S+)", line)
        if m:
            cur = m.group(1).lstrip("\\")  # RTLIL \pcnt_record is pcnt_record in `stat`
            mods[cur] = collections.Counter()
            continue
        m = re.match(r"^\s+connect \\Q (.*)$", line)
        if m and cur is not None:
            q = m.group(1).strip()
            # one bit of a wire (`\w [3]`), a whole 1-bit wire, or a constant
            name = re.sub(r"\s*\[\d+\]$", "", q).lstrip("\\")
            mods[cur][name] += 1
    return mods


def breakdown(children, dump, dom, sync, items):
    """Flops of one domain by register, assigned to the architectural items.
    Returns {item index or wire name: flops}."""
    groups = collections.Counter()

    def walk(mod, mult):
        for wire, bits in dump.get(mod, {}).items():
            groups[(module_kind(mod), wire)] += bits * mult
        for c, k in children[mod].items():
            walk(c, mult * k)

    walk(dom, 1)
    glob_per_dom = 2            # PM_TRIGGER, WRCACHE_FLUSH (S22)
    for c, k in sync.items():
        if module_kind(c) == "prim_pulse_sync":
            for wire, bits in dump.get(c, {}).items():
                groups[("prim_pulse_sync", "global")] += bits * glob_per_dom
                groups[("prim_pulse_sync", "import")] += bits * (k - glob_per_dom)
        else:
            walk(c, k)
    got = collections.Counter()
    for (kind, wire), bits in groups.items():
        for i, it in enumerate(items):
            if any(kind == k and re.fullmatch(rx, wire) for k, rx in it["rtl"]):
                got[i] += bits
                break
        else:
            got["%s.%s" % (kind, wire)] += bits
    return got


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--log", required=True, help="Yosys log with `stat -top pcnt_top`")
    ap.add_argument("--flops", help="RTLIL dump of the flop cells of the same run")
    ap.add_argument("--pkg", default=str(ROOT / "rtl/pcnt/pcnt_reg_pkg.sv"))
    ap.add_argument("--table", action="store_true", help="the breakdown as a Markdown table")
    ap.add_argument("--gens", action="store_true", help="architectural bits per generation")
    args = ap.parse_args()

    pkg = parse_pkg(args.pkg)
    own, children = parse_stat(args.log)
    n, doms, sync = domain_cells(own, children)
    sync_ff = sum(k * hier(own, children, c) for c, k in sync.items())
    per_dom = [hier(own, children, d) + sync_ff for d in doms]
    flops = max(per_dom)
    items = arch_items(pkg, n)
    arch = sum(union_bits(it) for it in items)
    ratio = round(flops / arch, 2)     # judged as printed
    spread = "" if min(per_dom) == flops else ", domains %d..%d" % (min(per_dom), flops)
    met = "" if ratio <= TARGET else ", NOT met"
    print("pcnt_top: flops per domain %d (architectural %d, ratio %.2f, target <= %.2f%s)%s"
          % (flops, arch, ratio, TARGET, met, spread))

    if args.gens:
        shared = hier(own, children, "pcnt_top") - sum(per_dom)
        print("pcnt_top: %d domain%s, shared flops (APB registers, AXI manager, global pulse counters) %d"
              % (n, "s" if n > 1 else "", shared))
        for g in pkg["gens"]:
            if pkg["max_dom"][g] >= n:
                m = sum(it["per_gen"][g] for it in items)
                print("  %-6s architectural %5d  ratio %.2f" % (g.upper(), m, flops / m))

    if not args.flops:
        return
    dom = max(doms, key=lambda d: hier(own, children, d))
    got = breakdown(children, parse_dump(args.flops), dom, sync, items)
    if sum(got.values()) != flops:
        print("pcnt_top: the flop dump (%d) does not match the statistics (%d)" % (sum(got.values()), flops))
    over = []
    for i, it in enumerate(items):
        if got.get(i, 0) != union_bits(it):
            over.append("%s %+d" % (it["label"], got.get(i, 0) - union_bits(it)))
    over += ["%s %+d (not in the list)" % (k, v) for k, v in got.items() if isinstance(k, str)]
    if over:
        print("pcnt_top: netlist against the list: " + ", ".join(over))
    if args.table:
        print("\n| item | architectural | netlist | source |\n| --- | ---: | ---: | --- |")
        for i, it in enumerate(items):
            label = it["label"] + (" (%s)" % it["note"] if it["note"] else "")
            print("| %s | %d | %d | %s |" % (label, union_bits(it), got.get(i, 0), it["source"]))
        for k, v in got.items():
            if isinstance(k, str):
                print("| %s (not in the list) | 0 | %d | |" % (k, v))
        print("| **one domain** | **%d** | **%d** | ratio %.2f |" % (arch, flops, ratio))


if __name__ == "__main__":
    main()
