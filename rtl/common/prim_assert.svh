// Assertion macros of every device's RTL (rtl/<device>/):
// one header in rtl/common, on the include path of every harness build,
// lint, synthesis and formal run (each device's file list has
// +incdir+rtl/common).
//
// Contract: the assertions of rtl/ go through these macros, one expansion
// per tool, as OpenTitan's prim_assert has:
//   - simulation (Verilator, neither SYNTHESIS nor FORMAL defined):
//     concurrent SVA sampled on `clk_i`, disabled while `rst_ni` is low;
//   - FORMAL (Yosys/SymbiYosys, `make formal`): immediate assertions in a
//     clocked block under reset, since Yosys's own reader takes neither
//     `@(...)` nor `|->` inside a property: an implication is a boolean,
//     `|=>` goes through `$past`, and each implication also gets a cover of
//     its antecedent, which the proof must reach;
//   - SYNTHESIS: nothing.
// Forms: PRIM_ASSERT (a boolean invariant), PRIM_ASSERT_IMPLIES (`a |-> b`),
// PRIM_ASSERT_NEXT (`a |=> b`), PRIM_ASSUME and PRIM_ASSUME_NEXT (a property
// of the inputs: checked as an assertion in simulation, where the harness
// drives them, and assumed by the formal proof of the module's top), and
// PRIM_ASSERT_I (an immediate assertion inside procedural code). The macros refer to
// `clk_i`/`rst_ni` by name, so they are usable in any module that follows
// the house port naming.
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
`define PRIM_ASSERT_IMPLIES(__name, __ante, __cons)
`define PRIM_ASSERT_NEXT(__name, __ante, __cons)
`define PRIM_ASSUME_NEXT(__name, __ante, __cons)
`define PRIM_ASSUME(__name, __prop)
`define PRIM_ASSERT_I(__name, __expr)

`elsif FORMAL

// Unlabelled: Yosys names a procedural assertion's label without the
// generate scope around it, so a macro inside a generate loop would name
// two cells alike. `make formal` (tools/formal.py) names each check by the
// macro use at its source line instead.
`define PRIM_ASSERT(__name, __prop)                                       \
  always @(posedge clk_i) if (rst_ni) assert (__prop);

`define PRIM_ASSERT_IMPLIES(__name, __ante, __cons)                       \
  always @(posedge clk_i) if (rst_ni) begin                               \
    assert (!(__ante) || (__cons));                                       \
    cover (__ante);                                                       \
  end

`define PRIM_ASSERT_NEXT(__name, __ante, __cons)                          \
  always @(posedge clk_i) if (rst_ni && $past(rst_ni)) begin              \
    assert (!$past(__ante) || (__cons));                                  \
    cover ($past(__ante));                                                \
  end

`define PRIM_ASSUME_NEXT(__name, __ante, __cons)                          \
  always @(posedge clk_i) if (rst_ni && $past(rst_ni)) begin              \
    assume (!$past(__ante) || (__cons));                                  \
  end

`define PRIM_ASSUME(__name, __prop)                                       \
  always @(posedge clk_i) if (rst_ni) assume (__prop);

`define PRIM_ASSERT_I(__name, __expr)                                     \
  assert (__expr);

`else

// Concurrent: __prop must hold at every rising clk_i edge outside reset.
`define PRIM_ASSERT(__name, __prop)                                       \
  __name: assert property (@(posedge clk_i) disable iff (!rst_ni) (__prop)) \
    else $error("assertion failed: %s", `"__name`");

`define PRIM_ASSERT_IMPLIES(__name, __ante, __cons)                       \
  __name: assert property (@(posedge clk_i) disable iff (!rst_ni)         \
    (__ante) |-> (__cons)) else $error("assertion failed: %s", `"__name`");

`define PRIM_ASSERT_NEXT(__name, __ante, __cons)                          \
  __name: assert property (@(posedge clk_i) disable iff (!rst_ni)         \
    (__ante) |=> (__cons)) else $error("assertion failed: %s", `"__name`");

`define PRIM_ASSUME_NEXT(__name, __ante, __cons)                          \
  `PRIM_ASSERT_NEXT(__name, __ante, __cons)

`define PRIM_ASSUME(__name, __prop)                                       \
  `PRIM_ASSERT(__name, __prop)

// Immediate: for use inside an always block.
`define PRIM_ASSERT_I(__name, __expr)                                     \
  __name: assert (__expr) else $error("assertion failed: %s", `"__name`");

`endif

`endif // PRIM_ASSERT_SVH
