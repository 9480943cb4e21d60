"""cocotb side of `make bench-peer` (tools/bench_peer.py runs it; issue 18).

One cocotb test on pcnt_top (GT215, NumDomains from the build) that does per
bus clock what the project's harness does through its C shim
(sim/csrc/shim.cpp, `cycle`): drive the inputs, settle with clk_i low, read
every output the lockstep compares (PRDATA/PREADY/PSLVERR, the record bind
event and the AXI4 manager outputs, the whole per-domain register views
dom_regs_o and glob_regs_o), each converted to a Python int as a comparing
testbench needs (LogicArray.to_unsigned() for the vectors, int() of the
Logic of a 1-bit output), then the rising edge. There is no Python model
and no compare: the figure is an upper bound for a cocotb testbench of this
design.

Stimulus, from a pinned RNG (random.Random(PEER_SEED)): new random sig_i
bits every cycle; the domain ticks of `pcnt bench` (1 domain: every cycle;
8 domains: the mixed clocks 1/1, 1/2, 2/3, 1/3, irregular, 1/1, 1/2,
irregular); a PM_TRIGGER pulse every 1000 cycles; over APB the Linux
driver's perfctr setup of every domain (tests/scripts/driver_nv40_perfctr.pcs:
quad mode, one signal per slot, logic op ARG0), then a read of one counter
every 8 cycles, domain and counter in turn. Inputs are written only when
they change (cheaper than the shim, which sets all of them every cycle).

The clock: by default (PEER_CLOCK=timer) the test drives clk_i itself, two
Timer waits of half a period per cycle: two scheduler wake-ups a cycle.
PEER_CLOCK=clock (`tools/bench_peer.py --clock clock`) runs a cocotb Clock
instead, for comparison: in cocotb 2 on Verilator that Clock toggles clk_i
from C++ (COCOTB_TRUST_INERTIAL_WRITES, on by default there), but the test
then waits on FallingEdge and ReadOnly, still two wake-ups. The same values
are read either way.

Environment: PEER_CYCLES, PEER_SEED, PEER_CLOCK, PEER_RESULT (a JSON file
for the timings). The timed part is from the end of reset to the last cycle.
"""

import json
import os
import random
import time
from collections import deque

import cocotb
from cocotb.clock import Clock
from cocotb.handle import LogicObject
from cocotb.triggers import FallingEdge, ReadOnly, Timer

GEN_GT215 = 7  # pcnt_reg_pkg::GenGt215
RESET_CYCLES = 4
PM_TRIGGER_EVERY = 1000
READ_EVERY = 8
HALF_PERIOD_NS = 5

# NV40 layout offsets (regmap/pcounter.rdl); domain d's register at +4*d.
CTRL = 0x7C0
SLOTS = [(0x400, 0x420), (0x440, 0x460), (0x480, 0x4A0), (0x4C0, 0x4E0)]  # (*_SRC, *_OP)
COUNTERS = [0x600, 0x680, 0x6C0, 0x700, 0x740]  # CTR_CYCLES, _EVENT, _START, _PRE, _STOP
OP_ARG0 = 0xAAAA

# `pcnt bench`'s 8-domain clocks (sim/src/pcnt/bench.rs): (m, n) ticks when
# cycle % n < m; None is irregular (5 in 8 cycles at random).
MIXED_CLOCKS = [(1, 1), (1, 2), (2, 3), (1, 3), None, (1, 1), (1, 2), None]


def driver_setup(domains):
    """APB writes (address, data) of the driver's perfctr init, every domain."""
    writes = []
    for d in range(domains):
        for slot, (src, op) in enumerate(SLOTS):
            writes += [(CTRL + 4 * d, 1), (src + 4 * d, 0x40 + slot), (op + 4 * d, OP_ARG0)]
    return writes


class Inputs:
    """The input handles; writes a signal only when its value changes."""

    def __init__(self, dut):
        self.dut = dut
        self.handles = {}
        self.last = {}

    def set(self, name, value):
        if self.last.get(name) != value:
            self.last[name] = value
            h = self.handles.get(name)
            if h is None:
                h = self.handles[name] = getattr(self.dut, name)
            h.value = value


@cocotb.test()
async def bench(dut):
    cycles = int(os.environ.get("PEER_CYCLES", "10000"))
    rng = random.Random(int(os.environ.get("PEER_SEED", "1")))
    clock_mode = os.environ.get("PEER_CLOCK", "timer")
    domains = len(dut.dom_tick_i)
    sig_bits = len(dut.sig_i)

    clk = dut.clk_i
    inp = Inputs(dut)
    outputs = [
        dut.prdata_o,
        dut.pready_o,
        dut.pslverr_o,
        dut.rec_bind_o,
        dut.m_axi_awvalid_o,
        dut.m_axi_awaddr_o,
        dut.m_axi_awlen_o,
        dut.m_axi_awsize_o,
        dut.m_axi_awburst_o,
        dut.m_axi_wvalid_o,
        dut.m_axi_wdata_o,
        dut.m_axi_wstrb_o,
        dut.m_axi_wlast_o,
        dut.m_axi_bready_o,
        dut.dom_regs_o,
        dut.glob_regs_o,
    ]
    # cocotb 2 gives a 1-bit port's value as a Logic, which has no
    # to_unsigned(), and a vector's as a LogicArray: sorted once, not per read.
    bits = [h for h in outputs if isinstance(h, LogicObject)]
    vectors = [h for h in outputs if not isinstance(h, LogicObject)]
    prdata_at, pready_at = vectors.index(dut.prdata_o), bits.index(dut.pready_o)

    clk.value = 0
    half = Timer(HALF_PERIOD_NS, unit="ns")
    if clock_mode == "clock":
        # cocotb 2's Clock.start() runs its own task (no start_soon).
        clock = Clock(clk, 2 * HALF_PERIOD_NS, unit="ns")
        clock.start(start_high=False)
        falling = FallingEdge(clk)
        read_only = ReadOnly()

        async def settle():
            await read_only

        async def edge():
            await falling

    else:

        async def settle():
            await half

        async def edge():
            clk.value = 1
            await half
            clk.value = 0

    # Reset: the AXI subordinate always ready, no write response.
    for name, value in [
        ("rst_ni", 0),
        ("gen_i", GEN_GT215),
        ("dom_tick_i", (1 << domains) - 1),
        ("psel_i", 0),
        ("penable_i", 0),
        ("pwrite_i", 0),
        ("paddr_i", 0),
        ("pwdata_i", 0),
        ("pstrb_i", 0xF),
        ("sig_i", 0),
        ("pm_trigger_i", 0),
        ("wrcache_flush_i", 0),
        ("m_axi_awready_i", 1),
        ("m_axi_wready_i", 1),
        ("m_axi_bvalid_i", 0),
        ("m_axi_bresp_i", 0),
    ]:
        inp.set(name, value)
    if clock_mode == "clock":
        await falling
    for _ in range(RESET_CYCLES):
        await settle()
        await edge()
    inp.set("rst_ni", 1)

    apb = deque(driver_setup(domains))
    phase = None  # None (idle), "setup", "access", "done" (PSEL falls next cycle)
    next_read = 0
    reads = 0
    checksum = 0
    nonzero_counts = 0
    clocks = MIXED_CLOCKS if domains == 8 else [(1, 1)] * domains

    t0 = time.perf_counter()
    for cycle in range(cycles):
        # This cycle's inputs (clk_i is low).
        inp.set("sig_i", rng.getrandbits(sig_bits))
        ticks = 0
        for d, ratio in enumerate(clocks):
            if (rng.randrange(8) < 5) if ratio is None else (cycle % ratio[1] < ratio[0]):
                ticks |= 1 << d
        inp.set("dom_tick_i", ticks)
        inp.set("pm_trigger_i", int(cycle % PM_TRIGGER_EVERY == PM_TRIGGER_EVERY - 1))
        if phase == "setup":
            inp.set("penable_i", 1)
            phase = "access"
        elif phase in (None, "done"):
            # Idle or just done: the next transfer's SETUP cycle, or PSEL low.
            if not apb and cycle % READ_EVERY == 0:
                d, k = divmod(next_read, len(COUNTERS))
                apb.append((COUNTERS[k] + 4 * d, None))
                next_read = (next_read + 1) % (domains * len(COUNTERS))
            if apb:
                addr, wdata = apb.popleft()
                inp.set("psel_i", 1)
                inp.set("penable_i", 0)
                inp.set("pwrite_i", int(wdata is not None))
                inp.set("paddr_i", addr)
                if wdata is not None:
                    inp.set("pwdata_i", wdata)
                phase = "setup"
            else:
                inp.set("psel_i", 0)
                inp.set("penable_i", 0)
                phase = None

        await settle()
        words = [h.value.to_unsigned() for h in vectors]
        flags = [int(h.value) for h in bits]

        prdata, pready = words[prdata_at], flags[pready_at]
        if phase == "access" and pready:
            if not inp.last["pwrite_i"]:
                reads += 1
                checksum ^= prdata
                nonzero_counts += prdata != 0
            phase = "done"
        await edge()
    seconds = time.perf_counter() - t0

    result = {
        "domains": domains,
        "cycles": cycles,
        "seconds": seconds,
        "clock": clock_mode,
        "apb_reads": reads,
        "nonzero_counter_reads": nonzero_counts,
        "checksum": checksum,
        "cocotb": cocotb.__version__,
    }
    cocotb.log.info("bench-peer: %s", result)
    path = os.environ.get("PEER_RESULT")
    if path:
        with open(path, "w") as f:
            json.dump(result, f)
