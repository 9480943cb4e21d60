// C ABI shim around one Verilated configuration of pcnt_top.
//
// Compiled once per configuration by sim/build.rs with
//   -DPCNT_NAME=<name> -DPCNT_TOP=Vpcnt_<name> -DPCNT_HDR="Vpcnt_<name>.h"
// so several configurations (domain counts, injected faults) link into one
// binary. One call per bus clock (pcnt_<name>_cycle) keeps FFI cost low: set
// inputs, settle with clk low (outputs sampled here: the values of cycle t,
// docs/semantics.md S0), then the rising edge commits q(t+1).
#include <cstdint>
#include <memory>
#include "verilated.h"
#include "verilated_syms.h"
#include "verilated_vcd_c.h"
#include <cstdio>
#include PCNT_HDR

#define PCNT_CAT2(a, b) pcnt_##a##_##b
#define PCNT_CAT(a, b) PCNT_CAT2(a, b)
#define FN(x) PCNT_CAT(PCNT_NAME, x)

namespace {

struct PcntIn {
    uint32_t rst_n, gen, psel, penable, pwrite, paddr, pwdata, pstrb, pm_trigger, wrcache_flush, dom_tick;
    const uint32_t* sig;  // num_domains * 8 words, domain d signal s = word d*8 + s/32, bit s%32
};

struct PcntOut {
    uint32_t prdata, pready, pslverr;
    uint32_t* dom_regs;   // num_domains * NUM_DOM_REGS words
    uint32_t* glob_regs;  // NUM_GLOBAL_REGS words
};

// Verilator stores ports up to 64 bits as integers and wider ones as VlWide.
void put_words(CData& p, const uint32_t* s) { p = static_cast<CData>(s[0]); }
void put_words(SData& p, const uint32_t* s) { p = static_cast<SData>(s[0]); }
void put_words(IData& p, const uint32_t* s) { p = s[0]; }
void put_words(QData& p, const uint32_t* s) { p = s[0] | (static_cast<QData>(s[1]) << 32); }
template <std::size_t N> void put_words(VlWide<N>& p, const uint32_t* s) {
    for (std::size_t i = 0; i < N; ++i) p[i] = s[i];
}
void get_words(const IData& p, uint32_t* d) { d[0] = p; }
void get_words(const QData& p, uint32_t* d) { d[0] = static_cast<uint32_t>(p); d[1] = static_cast<uint32_t>(p >> 32); }
template <std::size_t N> void get_words(const VlWide<N>& p, uint32_t* d) {
    for (std::size_t i = 0; i < N; ++i) d[i] = p[i];
}

struct Ctx {
    std::unique_ptr<VerilatedContext> vctx;
    std::unique_ptr<PCNT_TOP> top;
    std::unique_ptr<VerilatedVcdC> tfp;
    uint64_t cycle = 0;
};

}  // namespace

extern "C" {

void* FN(new)() {
    auto* c = new Ctx;
    c->vctx = std::make_unique<VerilatedContext>();
    c->vctx->traceEverOn(true);
    // Built with --x-initial unique: every variable starts random (fixed seed,
    // so runs stay deterministic), so a flop missing from the reset shows up
    // as a mismatch instead of hiding behind a convenient 0.
    c->vctx->randReset(2);
    c->vctx->randSeed(0x5eed);
    c->top = std::make_unique<PCNT_TOP>(c->vctx.get(), "TOP");
    c->top->clk_i = 0;
    c->top->rst_ni = 0;
    c->top->eval();
    return c;
}

void FN(free)(void* p) {
    auto* c = static_cast<Ctx*>(p);
    // The model's scopes unregister through Verilator's *current* context of
    // this thread; with several models alive that may be another (possibly
    // already freed) one. Make ours current first.
    Verilated::threadContextp(c->vctx.get());
    if (c->tfp) c->tfp->close();
    c->top->final();
    delete c;
}

// Start writing a VCD of the RTL; later cycles are dumped at 10*cycle (inputs
// applied, clk low) and 10*cycle+5 (after the rising edge).
int FN(trace_open)(void* p, const char* path) {
    auto* c = static_cast<Ctx*>(p);
    if (c->tfp) return 0;
    c->tfp = std::make_unique<VerilatedVcdC>();
    c->top->trace(c->tfp.get(), 99);
    c->tfp->open(path);
    return c->tfp->isOpen() ? 0 : -1;
}

void FN(trace_close)(void* p) {
    auto* c = static_cast<Ctx*>(p);
    if (c->tfp) {
        c->tfp->close();
        c->tfp.reset();
    }
}

void FN(cycle)(void* p, const PcntIn* in, PcntOut* out) {
    auto* c = static_cast<Ctx*>(p);
    PCNT_TOP* t = c->top.get();
    t->rst_ni = in->rst_n & 1;
    t->gen_i = in->gen & 3;
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
    t->clk_i = 0;
    t->eval();
    out->prdata = t->prdata_o;
    out->pready = t->pready_o;
    out->pslverr = t->pslverr_o;
    get_words(t->dom_regs_o, out->dom_regs);
    get_words(t->glob_regs_o, out->glob_regs);
    if (c->tfp) c->tfp->dump(c->cycle * 10);
    t->clk_i = 1;
    t->eval();
    if (c->tfp) c->tfp->dump(c->cycle * 10 + 5);
    ++c->cycle;
}

// Verification backdoor (docs/semantics.md S14): overwrite 32-bit word `word`
// of a public_flat_rw flop of domain `dom` between two clocks (a 32-bit flop
// has only word 0). Returns -1 if it does not exist.
int FN(poke)(void* p, uint32_t dom, const char* var, uint32_t word, uint32_t value) {
    auto* c = static_cast<Ctx*>(p);
    char scope[64];
    std::snprintf(scope, sizeof scope, "TOP.pcnt_top.gen_dom[%u].u_domain", dom);
    const VerilatedScope* s = c->vctx->scopeFind(scope);
    VerilatedVar* v = s ? s->varFind(var) : nullptr;
    if (!v) return -1;
    if (v->vltype() == VLVT_UINT32 && word == 0) {
        *static_cast<uint32_t*>(v->datap()) = value;
    } else if (v->vltype() == VLVT_WDATA && word * 32 < static_cast<uint32_t>(v->packed().elements())) {
        static_cast<uint32_t*>(v->datap())[word] = value;  // VlWide: word 0 = bits 31:0
    } else {
        return -1;
    }
    c->top->eval();
    return 0;
}

}  // extern "C"
