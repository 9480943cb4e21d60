// C ABI shim around one Verilated configuration of pmon_box.
//
// Compiled once per configuration by sim/build.rs with
//   -DDEV_NAME=pmon_<config> -DDEV_TOP=Vpmon_<config> -DDEV_HDR="Vpmon_<config>.h"
// One call per bus clock (DEV_NAME_cycle): set inputs, settle with clk low
// (outputs and register views sampled here: the values of cycle t), then the
// rising edge commits q(t+1). The register views are the flops themselves,
// found once through Verilator's public scopes (`public_flat_rd` in the RTL),
// so the harness compares every MMIO-visible register without a port added to
// the design.
#include <cstdio>
#include <cstring>
#include "shim_common.h"
#include DEV_HDR

namespace {

constexpr int kMaxCounters = 8;

struct PmonIn {
    uint32_t rst_n, psel, penable, pwrite, paddr, pwdata, pstrb, freeze;
    const uint32_t* events;  // event_i as 32-bit words, bit 0 of word 0 first
};

struct PmonOut {
    uint32_t prdata, pready, pslverr, ovf;
    uint32_t freeze, status;  // BOX_CTL.Freeze, BOX_STATUS
    uint32_t gsts;            // GSTS_L.UnitBlock_Ov
    uint32_t num_counters;    // counters found in the build
    uint32_t ctl0[kMaxCounters], ctl1[kMaxCounters], data_lo[kMaxCounters], data_hi[kMaxCounters];
};

using shim::find_var;
using shim::get_var;
using shim::put_words;

struct Ctx : shim::Model<DEV_TOP> {
    const VerilatedVar* freeze = nullptr;
    const VerilatedVar* status = nullptr;
    const VerilatedVar* gsts = nullptr;
    const VerilatedVar* ctl0[kMaxCounters] = {};
    const VerilatedVar* ctl1[kMaxCounters] = {};
    const VerilatedVar* data[kMaxCounters] = {};
    uint32_t n = 0;
};

}  // namespace

extern "C" {

void* FN(new)(uint32_t x_seed) {
    auto* c = new Ctx;
    c->open(x_seed);
    c->freeze = find_var(c->vctx.get(), "TOP.pmon_box", "freeze_q");
    c->status = find_var(c->vctx.get(), "TOP.pmon_box", "status_q");
    c->gsts = find_var(c->vctx.get(), "TOP.pmon_box", "gsts_q");
    for (int j = 0; j < kMaxCounters; ++j) {
        char scope[64];
        std::snprintf(scope, sizeof scope, "TOP.pmon_box.gen_ctr[%d].u_counter", j);
        c->ctl0[j] = find_var(c->vctx.get(), scope, "ctl0_q");
        c->ctl1[j] = find_var(c->vctx.get(), scope, "ctl1_q");
        c->data[j] = find_var(c->vctx.get(), scope, "data_q");
        if (!c->ctl0[j] || !c->ctl1[j] || !c->data[j]) break;
        c->n = j + 1;
    }
    return c;
}

int FN(cycle)(void* p, const PmonIn* in, PmonOut* out) {
    auto* c = static_cast<Ctx*>(p);
    DEV_TOP* t = c->top.get();
    t->rst_ni = in->rst_n & 1;
    t->psel_i = in->psel & 1;
    t->penable_i = in->penable & 1;
    t->pwrite_i = in->pwrite & 1;
    t->paddr_i = in->paddr & 0x1ff;
    t->pwdata_i = in->pwdata;
    t->pstrb_i = in->pstrb & 0xf;
    t->freeze_i = in->freeze & 1;
    put_words(t->event_i, in->events);
    t->clk_i = 0;
    t->eval();
    out->prdata = t->prdata_o;
    out->pready = t->pready_o;
    out->pslverr = t->pslverr_o;
    out->ovf = t->ovf_o;
    out->freeze = c->freeze ? static_cast<uint32_t>(get_var(c->freeze)) : 0xffffffffu;
    out->status = c->status ? static_cast<uint32_t>(get_var(c->status)) : 0xffffffffu;
    out->gsts = c->gsts ? static_cast<uint32_t>(get_var(c->gsts)) : 0xffffffffu;
    out->num_counters = c->n;
    for (uint32_t j = 0; j < c->n; ++j) {
        out->ctl0[j] = static_cast<uint32_t>(get_var(c->ctl0[j]));
        out->ctl1[j] = static_cast<uint32_t>(get_var(c->ctl1[j]));
        const uint64_t d = get_var(c->data[j]);
        out->data_lo[j] = static_cast<uint32_t>(d);
        out->data_hi[j] = static_cast<uint32_t>(d >> 32);
    }
    return c->edge();
}

}  // extern "C"

SHIM_EXPORT_FREE_AND_TRACE(Ctx)
