// Assertion macros of every device's RTL (rtl/<device>/):
// one header in rtl/common, on the include path of every harness build,
// lint and synthesis run (each device's file list has +incdir+rtl/common).
//
// Contract: the assertions of rtl/ go through these macros, so synthesis
// (`SYNTHESIS` defined, see rtl/*/synth.ys) sees none of them. Two forms: a
// simple concurrent property sampled on `clk_i` and disabled while `rst_ni`
// is low, and an immediate assertion for use inside procedural code. The
// macros refer to `clk_i`/`rst_ni` by name, so they are usable in any module
// that follows the house port naming.
//
// They run in every lockstep build: the harness Verilates with --assert, and
// a failing assertion ($error, then $stop) is a lockstep failure of that
// cycle, with report, reproducer, shrunk script and waves (sim/csrc/vl_user.cpp,
// sim/src/engine/assertion.rs). The message names the assertion; the harness
// reads the name from it, and from Verilator's scope for any other SVA.
// Parameter sanity checks are not assertions: they are generate-time
// `$error`s in the modules themselves and stay active in synthesis.

`ifndef PRIM_ASSERT_SVH
`define PRIM_ASSERT_SVH

`ifdef SYNTHESIS

`define PRIM_ASSERT(__name, __prop)
`define PRIM_ASSERT_I(__name, __expr)

`else

// Concurrent: __prop must hold at every rising clk_i edge outside reset.
`define PRIM_ASSERT(__name, __prop)                                       \
  __name: assert property (@(posedge clk_i) disable iff (!rst_ni) (__prop)) \
    else $error("assertion failed: %s", `"__name`");

// Immediate: for use inside an always block.
`define PRIM_ASSERT_I(__name, __expr)                                     \
  __name: assert (__expr) else $error("assertion failed: %s", `"__name`");

`endif

`endif // PRIM_ASSERT_SVH
