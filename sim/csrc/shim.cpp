// C ABI shim around one Verilated configuration of pcnt_top.
//
// Compiled once per configuration by sim/build.rs with
//   -DPCNT_NAME=<name> -DPCNT_TOP=Vpcnt_<name> -DPCNT_HDR="Vpcnt_<name>.h"
//   -DPCNT_SCOPE="<Verilator scope of pcnt_top>" (under the harness wrapper
//   sim/rtl/pcnt_lockstep_top.sv, or the top itself in a netlist build)
// so several configurations (domain counts, injected faults) link into one
// binary. One call per bus clock (pcnt_<name>_cycle) keeps FFI cost low: set
// inputs, settle with clk low (outputs sampled here: the values of cycle t,
// docs/semantics.md S0), then the rising edge commits q(t+1).
#include "shim_common.h"
#include <cstdio>
#include <cstring>
#include PCNT_HDR

#define PCNT_CAT2(a, b) pcnt_##a##_##b
#define PCNT_CAT(a, b) PCNT_CAT2(a, b)
#define FN(x) PCNT_CAT(PCNT_NAME, x)

namespace {

struct PcntIn {
    uint32_t rst_n, gen, psel, penable, pwrite, paddr, pwdata, pstrb, pm_trigger, wrcache_flush, dom_tick;
    const uint32_t* sig;  // num_domains * 8 words, domain d signal s = word d*8 + s/32, bit s%32
    uint32_t awready, wready, bvalid, bresp;  // AXI4 subordinate -> manager (S21)
};

struct PcntOut {
    uint32_t prdata, pready, pslverr;
    uint32_t* dom_regs;   // num_domains * NUM_DOM_REGS words
    uint32_t* glob_regs;  // NUM_GLOBAL_REGS words
    // Record mode (S21): bind event and the AXI4 manager outputs.
    uint32_t bind, awvalid, awaddr_lo, awaddr_hi, awlen, awsize, awburst;
    uint32_t wvalid, wdata[4], wstrb, wlast, bready;
};

using shim::get_words;
using shim::put_words;

struct Ctx : shim::Model<PCNT_TOP> {};

}  // namespace

extern "C" {

void* FN(new)(uint32_t x_seed) {
    auto* c = new Ctx;
    c->open(x_seed);
    // One falling edge before the first cycle (open() left the clock
    // high): the RTL builds' wrapper (sim/rtl/pcnt_lockstep_top.sv) loads
    // its input registers there, rst_ni low among them, so pcnt_top's first
    // rising edge is the first cycle's, in reset, and the first cycle's
    // inputs reach pcnt_top like every later cycle's. A netlist build (no
    // wrapper) has no falling-edge logic.
    c->top->clk_i = 0;
    c->top->eval();
    return c;
}

int FN(cycle)(void* p, const PcntIn* in, PcntOut* out) {
    auto* c = static_cast<Ctx*>(p);
    PCNT_TOP* t = c->top.get();
    t->rst_ni = in->rst_n & 1;
    t->gen_i = in->gen & 7;
    t->psel_i = in->psel & 1;
    t->penable_i = in->penable & 1;
    t->pwrite_i = in->pwrite & 1;
    t->paddr_i = in->paddr & 0xfff;
    t->pwdata_i = in->pwdata;
    t->pstrb_i = in->pstrb & 0xf;
    t->pm_trigger_i = in->pm_trigger & 1;
    t->wrcache_flush_i = in->wrcache_flush & 1;
    t->dom_tick_i = in->dom_tick;
    put_words(t->sig_i, in->sig);
    t->m_axi_awready_i = in->awready & 1;
    t->m_axi_wready_i = in->wready & 1;
    t->m_axi_bvalid_i = in->bvalid & 1;
    t->m_axi_bresp_i = in->bresp & 3;
    t->clk_i = 0;
    t->eval();
    out->prdata = t->prdata_o;
    out->pready = t->pready_o;
    out->pslverr = t->pslverr_o;
    out->bind = t->rec_bind_o;
    out->awvalid = t->m_axi_awvalid_o;
    out->awaddr_lo = static_cast<uint32_t>(t->m_axi_awaddr_o);
    out->awaddr_hi = static_cast<uint32_t>(t->m_axi_awaddr_o >> 32);
    out->awlen = t->m_axi_awlen_o;
    out->awsize = t->m_axi_awsize_o;
    out->awburst = t->m_axi_awburst_o;
    out->wvalid = t->m_axi_wvalid_o;
    get_words(t->m_axi_wdata_o, out->wdata);
    out->wstrb = t->m_axi_wstrb_o;
    out->wlast = t->m_axi_wlast_o;
    out->bready = t->m_axi_bready_o;
    get_words(t->dom_regs_o, out->dom_regs);
    get_words(t->glob_regs_o, out->glob_regs);
    return c->edge();
}

// Verification backdoor (docs/semantics.md S14): overwrite bits
// [lsb, lsb+width) of a public_flat_rw flop `var` of domain `dom` between two
// clocks (width <= 64: the 40-bit counters of NV10:NV30, S24). `var` may name
// a sub-instance of the domain (`u_core.ctr_event_q`, the counting engine;
// `u_record.ev_q`). Returns -1 if the
// flop does not exist or is too narrow.
int FN(poke)(void* p, uint32_t dom, const char* var, uint32_t lsb, uint32_t width, uint64_t value) {
    auto* c = static_cast<Ctx*>(p);
    char scope[128];
    const char* dot = std::strrchr(var, '.');
    if (dot) {
        std::snprintf(scope, sizeof scope, PCNT_SCOPE ".gen_dom[%u].u_domain.%.*s", dom,
                      static_cast<int>(dot - var), var);
    } else {
        std::snprintf(scope, sizeof scope, PCNT_SCOPE ".gen_dom[%u].u_domain", dom);
    }
    const VerilatedScope* s = c->vctx->scopeFind(scope);
    VerilatedVar* v = s ? s->varFind(dot ? dot + 1 : var) : nullptr;
    if (!v) {
        // A flattened Yosys netlist (make gatesim): one scope, the flop under
        // its hierarchical name (tools/gatesim.py marks it public), an
        // escaped identifier that Verilator 5.48 registers as written, with
        // its backslash and closing space (5.006 dropped both).
        char flat[160];
        std::snprintf(flat, sizeof flat, "\\gen_dom[%u].u_domain.%s ", dom, var);
        s = c->vctx->scopeFind(PCNT_SCOPE);
        v = s ? s->varFind(flat) : nullptr;
    }
    if (!v || width == 0 || width > 64) return -1;
    if (lsb + width > static_cast<uint32_t>(v->entBits())) return -1;
    void* d = v->datap();
    for (uint32_t k = 0; k < width; ++k) {
        const uint32_t b = lsb + k;
        const bool one = (value >> k) & 1;
        switch (v->vltype()) {
            case VLVT_UINT8: { auto* x = static_cast<CData*>(d); *x = one ? (*x | (1u << b)) : (*x & ~(1u << b)); break; }
            case VLVT_UINT16: { auto* x = static_cast<SData*>(d); *x = one ? (*x | (1u << b)) : (*x & ~(1u << b)); break; }
            case VLVT_UINT32: { auto* x = static_cast<IData*>(d); *x = one ? (*x | (1u << b)) : (*x & ~(1u << b)); break; }
            case VLVT_UINT64: { auto* x = static_cast<QData*>(d); *x = one ? (*x | (1ull << b)) : (*x & ~(1ull << b)); break; }
            case VLVT_WDATA: { auto* x = static_cast<EData*>(d) + b / 32; *x = one ? (*x | (1u << (b % 32))) : (*x & ~(1u << (b % 32))); break; }
            default: return -1;
        }
    }
    c->top->eval();
    return 0;
}

}  // extern "C"

SHIM_EXPORT_FREE_AND_TRACE(Ctx)
