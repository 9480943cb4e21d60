// C ABI shim around the Verilated toy_counter (tests/toy/README.md), the
// same shape as every device's (sim/csrc/shim_common.h): one call per bus
// clock sets the inputs, settles with clk low (outputs and the register
// views of cycle t), then the rising edge commits q(t+1).
#include "shim_common.h"
#include DEV_HDR

namespace {

struct ToyIn {
    uint32_t rst_n, psel, penable, pwrite, paddr, pwdata, pstrb, event;
};

struct ToyOut {
    uint32_t prdata, pready, pslverr, ctrl, count, found;
};

struct Ctx : shim::Model<DEV_TOP> {
    const VerilatedVar* ctrl = nullptr;
    const VerilatedVar* count = nullptr;
};

uint32_t get32(const VerilatedVar* v) { return static_cast<uint32_t>(shim::get_var(v)); }

}  // namespace

extern "C" {

void* FN(new)(uint32_t x_seed) {
    auto* c = new Ctx;
    c->open(x_seed);
    if (const VerilatedScope* s = c->vctx->scopeFind("TOP.toy_counter")) {
        c->ctrl = s->varFind("ctrl_view");
        c->count = s->varFind("count_q");
    }
    return c;
}

int FN(cycle)(void* p, const ToyIn* in, ToyOut* out) {
    auto* c = static_cast<Ctx*>(p);
    DEV_TOP* t = c->top.get();
    t->rst_ni = in->rst_n & 1;
    t->psel_i = in->psel & 1;
    t->penable_i = in->penable & 1;
    t->pwrite_i = in->pwrite & 1;
    t->paddr_i = in->paddr & 0xf;
    t->pwdata_i = in->pwdata;
    t->pstrb_i = in->pstrb & 0xf;
    t->event_i = in->event & 1;
    t->clk_i = 0;
    t->eval();
    out->prdata = t->prdata_o;
    out->pready = t->pready_o;
    out->pslverr = t->pslverr_o;
    out->ctrl = get32(c->ctrl);
    out->count = get32(c->count);
    out->found = c->ctrl && c->count;
    return c->edge();
}

}  // extern "C"

SHIM_EXPORT_FREE_AND_TRACE(Ctx)
