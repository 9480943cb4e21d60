// Hand-written types, constants and helpers of the PCOUNTER RTL.
//
// Complements the generated register map (pcnt_reg_pkg: addresses, fields,
// per-generation masks) with what the map does not describe: the single event
// state encoding (CTRL.SINGLE_STATE, docs/semantics.md S12; seed 003 "Control
// registers"), the quad event state encoding (CTRL.QUAD_STATE, S17; seed
// "Quad event mode"), the CTRL.MODE / CTRL.CTR_MODE encodings (seed "Control
// registers", "Special counter modes"), the NV40:GF100 trailer positions
// (S9, S18, S19; seed "Trailer signals"), the quad shadow counter indices
// (S17), the PERIODIC counter width (S18) and the saturating adder every
// counter uses (S6: counters saturate at 32'hffffffff, they never wrap).
// Enum items are always package-qualified at their use: Yosys 0.23 does not
// resolve them through imports.
package pcnt_pkg;

  // Single event state; the encoding is what CTRL bits 29:28 read (S12).
  typedef enum logic [1:0] {
    Inactive  = 2'd0,
    WaitPre   = 2'd1,
    WaitStart = 2'd2,
    Counting  = 2'd3
  } single_state_e;

  // CTRL.MODE. SINGLE (S12), QUAD (S17) and RECORD (G84+, S21) run; 3 is
  // stored and counts nothing (S13).
  typedef enum logic [1:0] {
    ModeSingle = 2'd0,
    ModeQuad   = 2'd1,
    ModeRecord = 2'd2,
    ModeUnk3   = 2'd3
  } ctrl_mode_e;

  // CTRL.CTR_MODE (S6). 5..7 are reserved and count as SIMPLE.
  typedef enum logic [2:0] {
    CtrModeSimple         = 3'd0,
    CtrModeEventB4        = 3'd1,
    CtrModeEventB6        = 3'd2,
    CtrModeExtraB4        = 3'd3,
    CtrModeExtraB6EventB2 = 3'd4
  } ctr_mode_e;

  // CTRL.EVENT_CTR_PERIOD = ONE clears CTR_EVENT at START (S5); ALL = 1'b1.
  localparam logic EventCtrPeriodOne = 1'b0;

  // CTRL.QUAD_STATE (S17). 2'd2 is never reached.
  typedef enum logic [1:0] {
    QuadEmpty    = 2'd0,
    QuadValid    = 2'd1,
    QuadOverflow = 2'd3
  } quad_state_e;

  // Quad event mode shadow counters (S17): index of each 32-bit counter in
  // the packed shadow vector.
  localparam int unsigned NumQuadCtr = 5;
  localparam int unsigned QuadCycles = 0;
  localparam int unsigned QuadEvent  = 1;
  localparam int unsigned QuadStart  = 2;
  localparam int unsigned QuadPre    = 3;
  localparam int unsigned QuadStop   = 4;

  // PERIODIC generator counter width (S18): holds up to P - 1 = 0xffff.
  localparam int unsigned PeriodicCntW = 17;

  // Trailer positions relative to the trailer base, NV40:GF100 list (S9).
  // Offsets below TrailerFirst are always ordinary external signals; which
  // positions from TrailerFirst on are internal depends on the generation.
  // USER_0/USER_1 (GT215, S19) are not in the trailer: their position is a
  // per-domain parameter (UserPos; default 0xea = default base + 0x0a).
  localparam int unsigned TrailerFirst     = 32'h0c;
  localparam int unsigned TrailerZero      = 32'h0c;
  localparam int unsigned TrailerPeriodic  = 32'h0d;
  localparam int unsigned TrailerWrcache   = 32'h0e;
  localparam int unsigned TrailerPmTrigger = 32'h0f;
  localparam int unsigned TrailerDomEvent  = 32'h10; // DOM[k].EVENT at +0x10 + (7 - k)
  localparam int unsigned TrailerDomFlag   = 32'h18; // DOM[k].FLAG  at +0x18 + (7 - k)
  localparam int unsigned TrailerSize      = 32'h20;

  // Pulse synchronizers (S16, S22): width of the edge counter a source keeps
  // and a destination follows. Up to 2**PulseCntW - 1 edges may be pending
  // in one synchronizer; PulseCntW = 1 is the classic toggle synchronizer.
  // The Width parameter of the shared cells prim_edge_cnt / prim_pulse_sync.
  localparam int unsigned PulseCntW = 3;

  // Signal space of one domain and the selection fields addressing it.
  localparam int unsigned NumSignals = 256;
  localparam int unsigned NumSel     = 16; // PRE_SRC[0..3] .. STOP_SRC[0..3]

  // min(a + b, 32'hffffffff): the counter update of S6, also for B4/B6/B2
  // increments that cross the top (0xfffffffe + 15 = 0xffffffff).
  function automatic logic [31:0] sat_add32(logic [31:0] a, logic [31:0] b);
    logic [32:0] sum;
    sum = {1'b0, a} + {1'b0, b};
    sat_add32 = sum[32] ? 32'hffff_ffff : sum[31:0];
  endfunction

endpackage
