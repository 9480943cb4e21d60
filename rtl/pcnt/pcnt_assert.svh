// Assertion macros for the PCOUNTER RTL.
//
// Contract: every assertion in rtl/ goes through these macros, so that
// synthesis (`SYNTHESIS` defined, see rtl/pcnt/synth.ys) sees none of them. Only
// forms that both Verilator 5.006 and a simulator accept are used: a simple
// concurrent property sampled on `clk_i` and disabled while `rst_ni` is low,
// and an immediate assertion for use inside procedural code. The macros refer
// to `clk_i`/`rst_ni` by name, so they are usable in any module that follows
// the house port naming. Verilator checks them only when built with --assert.
// Parameter sanity checks are not assertions: they are generate-time `$error`s
// in the modules themselves and stay active in synthesis.

`ifndef PCNT_ASSERT_SVH
`define PCNT_ASSERT_SVH

`ifdef SYNTHESIS

`define PCNT_ASSERT(__name, __prop)
`define PCNT_ASSERT_I(__name, __expr)

`else

// Concurrent: __prop must hold at every rising clk_i edge outside reset.
`define PCNT_ASSERT(__name, __prop)                                       \
  __name: assert property (@(posedge clk_i) disable iff (!rst_ni) (__prop)) \
    else $error("assertion failed: %s", `"__name`");

// Immediate: for use inside an always block.
`define PCNT_ASSERT_I(__name, __expr)                                     \
  __name: assert (__expr) else $error("assertion failed: %s", `"__name`");

`endif

`endif // PCNT_ASSERT_SVH
