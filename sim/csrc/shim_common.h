// What every device's C ABI shim shares (sim/csrc/shim.cpp for PCOUNTER,
// the `shim` of each device manifest for the others): the Verilated model's life (a context of its
// own, seeded random initial values, reset held low), the VCD trace, the
// clock edge that ends a bus cycle, moving ports to and from 32-bit words,
// finding and reading the public flops of the register views, and the C
// functions `free`, `trace_open` and `trace_close` every shim exports. A
// shim adds its device's input and output records, `new` and `cycle`.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include "verilated.h"
#include "verilated_syms.h"
#include "verilated_vcd_c.h"

// sim/csrc/vl_user.cpp, in the shared Verilator runtime.
extern "C" void shim_flush_printed();

namespace shim {

// Verilator stores ports up to 64 bits as integers and wider ones as VlWide.
inline void put_words(CData& p, const uint32_t* s) { p = static_cast<CData>(s[0]); }
inline void put_words(SData& p, const uint32_t* s) { p = static_cast<SData>(s[0]); }
inline void put_words(IData& p, const uint32_t* s) { p = s[0]; }
inline void put_words(QData& p, const uint32_t* s) { p = s[0] | (static_cast<QData>(s[1]) << 32); }
template <std::size_t N> void put_words(VlWide<N>& p, const uint32_t* s) {
    for (std::size_t i = 0; i < N; ++i) p[i] = s[i];
}
inline void get_words(const IData& p, uint32_t* d) { d[0] = p; }
inline void get_words(const QData& p, uint32_t* d) {
    d[0] = static_cast<uint32_t>(p);
    d[1] = static_cast<uint32_t>(p >> 32);
}
template <std::size_t N> void get_words(const VlWide<N>& p, uint32_t* d) {
    for (std::size_t i = 0; i < N; ++i) d[i] = p[i];
}

// A public variable of `scope` (the `public_flat_rd` flops a shim reads its
// register views from), or null when the build has none there.
inline const VerilatedVar* find_var(VerilatedContext* ctx, const char* scope, const char* var) {
    const VerilatedScope* s = ctx->scopeFind(scope);
    return s ? s->varFind(var) : nullptr;
}

// A public flop's value, whatever Verilator's storage for its width (up to
// 64 bits; 0 for a null variable or a wider one).
inline uint64_t get_var(const VerilatedVar* v) {
    if (!v) return 0;
    const void* d = v->datap();
    switch (v->vltype()) {
        case VLVT_UINT8: return *static_cast<const CData*>(d);
        case VLVT_UINT16: return *static_cast<const SData*>(d);
        case VLVT_UINT32: return *static_cast<const IData*>(d);
        case VLVT_UINT64: return *static_cast<const QData*>(d);
        default: return 0;
    }
}

template <class Top> struct Model {
    std::unique_ptr<VerilatedContext> vctx;
    std::unique_ptr<Top> top;
    std::unique_ptr<VerilatedVcdC> tfp;
    uint64_t cycle = 0;

    // Built with --x-initial unique: every variable starts random (seeded by
    // the caller, so runs stay deterministic; random runs use their stimulus
    // seed, so a regression tries many patterns), so a flop missing from the
    // reset shows up as a mismatch instead of hiding behind a convenient 0.
    void open(uint32_t x_seed) {
        vctx = std::make_unique<VerilatedContext>();
        vctx->traceEverOn(true);
        // A failing assertion ($error, then $stop) sets gotError and the
        // model goes on: the harness ends the run itself, with the report,
        // reproducer and waves of any lockstep failure (status()).
        vctx->fatalOnError(false);
        // PCNT_ASSERTIONS=off: the same build with its assertions switched
        // off at run time, for the mutation figures without assertions
        // (tools/mutate.py), comparable with the figures from before they ran.
        if (const char* a = std::getenv("PCNT_ASSERTIONS"); a && std::strcmp(a, "off") == 0) vctx->assertOn(false);
        vctx->randReset(2);
        vctx->randSeed(static_cast<int>(x_seed & 0x7fffffff) | 1);
        top = std::make_unique<Top>(vctx.get(), "TOP");
        // The clock starts HIGH: the first eval() sees no edge (Verilator
        // takes the values of the first eval as the previous ones), so the
        // first edge of the model's life is a falling one and the first
        // rising edge comes with the first cycle, with rst_ni low. A model
        // whose first edge was rising would clock its random initial state
        // with whatever reset its input registers held (the harness
        // wrapper's, sim/rtl/pcnt_lockstep_top.sv, have no reset of their
        // own), and its assertions would check that state (issue 34).
        top->clk_i = 1;
        top->rst_ni = 0;
        top->eval();
    }

    // The model's scopes unregister through Verilator's *current* context of
    // this thread; with several models alive that may be another (possibly
    // already freed) one. Make ours current first.
    void close() {
        Verilated::threadContextp(vctx.get());
        if (tfp) tfp->close();
        top->final();
    }

    // Start writing a VCD of the RTL; later cycles are dumped at 10*cycle
    // (inputs applied, clk low) and 10*cycle+5 (after the rising edge).
    int trace_open(const char* path) {
        if (tfp) return 0;
        tfp = std::make_unique<VerilatedVcdC>();
        top->trace(tfp.get(), 99);
        tfp->open(path);
        return tfp->isOpen() ? 0 : -1;
    }

    void trace_close() {
        if (tfp) {
            tfp->close();
            tfp.reset();
        }
    }

    // The inputs are set and settled with clk low (the outputs of cycle t
    // are read before this): the rising edge commits q(t+1). Returns
    // status(): what the shims' cycle functions return.
    int edge() {
        if (tfp) tfp->dump(cycle * 10);
        top->clk_i = 1;
        top->eval();
        if (tfp) tfp->dump(cycle * 10 + 5);
        ++cycle;
        return status();
    }

    // 1 if an assertion failed in an eval() since the last call (the
    // harness then takes its message, shim_take_assertion), else 0.
    int status() {
        if (!vctx->gotError()) {
            shim_flush_printed();
            return 0;
        }
        vctx->gotError(false);
        return 1;
    }
};

}  // namespace shim

// A device shim built with -DDEV_NAME=<name> (sim/build.rs): its C
// functions are <name>_new, <name>_cycle, ... (PCOUNTER's own shim.cpp
// names its pcnt_<name>_*).
#ifdef DEV_NAME
#define SHIM_CAT2(a, b) a##_##b
#define SHIM_CAT(a, b) SHIM_CAT2(a, b)
#define FN(x) SHIM_CAT(DEV_NAME, x)
#endif

// The C functions every shim exports besides its own `new` and `cycle`:
// `free`, and the VCD trace's `trace_open` and `trace_close`, on the shim's
// record `Ctx` (a shim::Model), named through the shim's FN.
#define SHIM_EXPORT_FREE_AND_TRACE(Ctx)                                                                  \
    extern "C" void FN(free)(void* p) {                                                                  \
        auto* c = static_cast<Ctx*>(p);                                                                  \
        c->close();                                                                                      \
        delete c;                                                                                        \
    }                                                                                                    \
    extern "C" int FN(trace_open)(void* p, const char* path) { return static_cast<Ctx*>(p)->trace_open(path); } \
    extern "C" void FN(trace_close)(void* p) { static_cast<Ctx*>(p)->trace_close(); }
