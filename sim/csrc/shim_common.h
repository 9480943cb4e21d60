// What every device's C ABI shim shares (sim/csrc/shim.cpp for PCOUNTER,
// pmon_shim.cpp for PMON): the Verilated model's life (a context of its
// own, seeded random initial values, reset held low), the VCD trace, the
// clock edge that ends a bus cycle, and moving ports to and from 32-bit
// words. A shim adds its device's input and output records.
#pragma once

#include <cstdint>
#include <memory>
#include "verilated.h"
#include "verilated_vcd_c.h"

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
        vctx->randReset(2);
        vctx->randSeed(static_cast<int>(x_seed & 0x7fffffff) | 1);
        top = std::make_unique<Top>(vctx.get(), "TOP");
        top->clk_i = 0;
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
    // are read before this): the rising edge commits q(t+1).
    void edge() {
        if (tfp) tfp->dump(cycle * 10);
        top->clk_i = 1;
        top->eval();
        if (tfp) tfp->dump(cycle * 10 + 5);
        ++cycle;
    }
};

}  // namespace shim
