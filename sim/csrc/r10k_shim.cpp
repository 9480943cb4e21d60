// C ABI shim around one Verilated configuration of r10k_perf (the MIPS
// R10000/R12000 event counters).
//
// Compiled once per configuration by sim/build.rs with
//   -DDEV_NAME=r10k_<config> -DDEV_TOP=Vr10k_<config> -DDEV_HDR="Vr10k_<config>.h"
// One call per bus clock (DEV_NAME_cycle): set inputs, settle with clk low
// (outputs and register views sampled here: the values of cycle t), then the
// rising edge commits q(t+1). The register views are the flops themselves,
// found once through Verilator's public scopes (`public_flat_rd` in the RTL).
#include <cstdio>
#include "shim_common.h"
#include DEV_HDR

namespace {

constexpr int kCounters = 2;

struct R10kIn {
    uint32_t rst_n, psel, penable, pwrite, paddr, pwdata, pstrb, ksu, exl, erl;
    const uint32_t* events;  // event_i as 32-bit words, bit 0 of word 0 first
};

struct R10kOut {
    uint32_t prdata, pready, pslverr, irq;
    uint32_t num_counters;  // counters found in the build
    uint32_t ctl[kCounters], cnt[kCounters];
};

struct Ctx : shim::Model<DEV_TOP> {
    const VerilatedVar* ctl[kCounters] = {};
    const VerilatedVar* cnt[kCounters] = {};
    uint32_t n = 0;
};

// The registers are 32-bit flops (IData: checked when found).
uint32_t get32(const VerilatedVar* v) { return static_cast<uint32_t>(shim::get_var(v)); }

}  // namespace

extern "C" {

void* FN(new)(uint32_t x_seed) {
    auto* c = new Ctx;
    c->open(x_seed);
    for (int j = 0; j < kCounters; ++j) {
        char scope[64];
        std::snprintf(scope, sizeof scope, "TOP.r10k_perf.gen_ctr[%d].u_counter", j);
        c->ctl[j] = shim::find_var(c->vctx.get(), scope, "ctl_q");
        c->cnt[j] = shim::find_var(c->vctx.get(), scope, "cnt_q");
        if (!c->ctl[j] || !c->cnt[j] || c->ctl[j]->vltype() != VLVT_UINT32 || c->cnt[j]->vltype() != VLVT_UINT32)
            break;
        c->n = j + 1;
    }
    return c;
}

int FN(cycle)(void* p, const R10kIn* in, R10kOut* out) {
    auto* c = static_cast<Ctx*>(p);
    DEV_TOP* t = c->top.get();
    t->rst_ni = in->rst_n & 1;
    t->psel_i = in->psel & 1;
    t->penable_i = in->penable & 1;
    t->pwrite_i = in->pwrite & 1;
    t->paddr_i = in->paddr & 0xff;
    t->pwdata_i = in->pwdata;
    t->pstrb_i = in->pstrb & 0xf;
    t->ksu_i = in->ksu & 3;
    t->exl_i = in->exl & 1;
    t->erl_i = in->erl & 1;
    shim::put_words(t->event_i, in->events);
    t->clk_i = 0;
    t->eval();
    out->prdata = t->prdata_o;
    out->pready = t->pready_o;
    out->pslverr = t->pslverr_o;
    out->irq = t->irq_o;
    out->num_counters = c->n;
    for (uint32_t j = 0; j < c->n; ++j) {
        out->ctl[j] = get32(c->ctl[j]);
        out->cnt[j] = get32(c->cnt[j]);
    }
    return c->edge();
}

}  // extern "C"

SHIM_EXPORT_FREE_AND_TRACE(Ctx)
