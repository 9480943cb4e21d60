// C ABI shim around one Verilated configuration of pcnt_gf100_top (the
// GF100+ PCOUNTER, docs/design/gf100.md), built by sim/build.rs once per
// preset with -DDEV_NAME=gf100_<cfg> -DDEV_TOP=Vgf100_<cfg> -DDEV_HDR=...
// One call per bus clock, as sim/csrc/shim.cpp: inputs set and settled
// with clk low (outputs of cycle t read here), then the rising edge.
#include "shim_common.h"
#include <cstdio>
#include <cstring>
#include DEV_HDR

namespace {

struct GfIn {
    uint32_t rst_n, pmc_enable, psel, penable, pwrite, paddr, pwdata, pstrb;
    uint32_t dom_tick[2];  // bit d of the 64-bit word = flat domain d ticks
    const uint32_t* sig;   // num_domains * 8 words
};

struct GfOut {
    uint32_t prdata, pready, pslverr;
    uint32_t* dom_regs;   // num_domains * GF_NUM_DOM_REGS words
    uint32_t* set_regs;   // num_sets * GF_NUM_SET_REGS words
    uint32_t* main_regs;  // GF_NUM_MAIN_REGS words
};

using shim::get_words;
using shim::put_words;

struct Ctx : shim::Model<DEV_TOP> {};

}  // namespace

extern "C" {

void* FN(new)(uint32_t x_seed) {
    auto* c = new Ctx;
    c->open(x_seed);
    return c;
}

int FN(cycle)(void* p, const GfIn* in, GfOut* out) {
    auto* c = static_cast<Ctx*>(p);
    DEV_TOP* t = c->top.get();
    t->rst_ni = in->rst_n & 1;
    t->pmc_enable_i = in->pmc_enable & 1;
    t->psel_i = in->psel & 1;
    t->penable_i = in->penable & 1;
    t->pwrite_i = in->pwrite & 1;
    t->paddr_i = in->paddr & 0x3ffff;
    t->pwdata_i = in->pwdata;
    t->pstrb_i = in->pstrb & 0xf;
    put_words(t->dom_tick_i, in->dom_tick);
    put_words(t->sig_i, in->sig);
    t->clk_i = 0;
    t->eval();
    out->prdata = t->prdata_o;
    out->pready = t->pready_o;
    out->pslverr = t->pslverr_o;
    get_words(t->dom_regs_o, out->dom_regs);
    get_words(t->set_regs_o, out->set_regs);
    get_words(t->main_regs_o, out->main_regs);
    return c->edge();
}

// Verification backdoor (docs/semantics.md S14), as sim/csrc/shim.cpp: `var`
// is relative to gen_dom[dom].u_domain (e.g. `u_core.ctr_event_q`).
int FN(poke)(void* p, uint32_t dom, const char* var, uint32_t lsb, uint32_t width, uint64_t value) {
    auto* c = static_cast<Ctx*>(p);
    char scope[96];
    const char* dot = std::strrchr(var, '.');
    if (dot) {
        std::snprintf(scope, sizeof scope, "TOP.pcnt_gf100_top.gen_dom[%u].u_domain.%.*s", dom,
                      static_cast<int>(dot - var), var);
    } else {
        std::snprintf(scope, sizeof scope, "TOP.pcnt_gf100_top.gen_dom[%u].u_domain", dom);
    }
    const VerilatedScope* s = c->vctx->scopeFind(scope);
    VerilatedVar* v = s ? s->varFind(dot ? dot + 1 : var) : nullptr;
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
