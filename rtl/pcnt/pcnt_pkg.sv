// Hand-written types, constants and helpers of the PCOUNTER RTL.
//
// Complements the generated register map (pcnt_reg_pkg: addresses, fields,
// per-generation masks) with what the map does not describe: the single event
// state encoding (CTRL.SINGLE_STATE, docs/semantics.md S12; seed 003 "Control
// registers"), the quad event state encoding (CTRL.QUAD_STATE, S17; seed
// "Quad event mode"), the CTRL.MODE / CTRL.CTR_MODE encodings (seed "Control
// registers", "Special counter modes"), the trailer positions (NV40:GF100:
// S9, S18, S19; NV10:NV40: S24; seed "Trailer signals"), the quad shadow
// counter indices (S17), the PERIODIC counter width (S18), the saturating
// adder of the 32-bit counters (S6: they saturate at 32'hffffffff, they
// never wrap) and the 40-bit sticky adder of the NV10:NV30 counters (S24:
// the low 39 bits wrap, bit 39 is sticky).
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
  // The NV10:NV40 trailers (S24): NV20:NV40 +0x1d PM_TRIGGER, DOM[k].FLAG at
  // +0x1e + (1 - k); NV10:NV20 only +0x1f FLAG (the own domain's). Every
  // other position from TrailerFirst on is external on those generations.
  localparam int unsigned TrailerNv20PmTrigger = 32'h1d;
  localparam int unsigned TrailerNv20DomFlag   = 32'h1e;
  localparam int unsigned TrailerNv10Flag      = 32'h1f;

  // Pulse synchronizers (S16, S22): width of the edge counter a source keeps
  // and a destination follows. Up to 2**PulseCntW - 1 edges may be pending
  // in one synchronizer; PulseCntW = 1 is the classic toggle synchronizer.
  // The Width parameter of the shared cells prim_edge_cnt / prim_pulse_sync.
  localparam int unsigned PulseCntW = 3;

  // Signal space of one domain and the selection fields addressing it.
  localparam int unsigned NumSignals = 256;
  // PRE_SRC[0..3] .. STOP_SRC[0..3] (sel[15:0], the SRC_STATUS order), then
  // SETFLAG_SRC[0..3] = sel[19:16] and CLRFLAG_SRC[0..3] = sel[23:20]
  // (NV10:NV30 own flag selections, S24).
  localparam int unsigned NumSel     = 24;

  // min(a + b, 32'hffffffff): the counter update of S6, also for B4/B6/B2
  // increments that cross the top (0xfffffffe + 15 = 0xffffffff).
  function automatic logic [31:0] sat_add32(logic [31:0] a, logic [31:0] b);
    logic [32:0] sum;
    sum = {1'b0, a} + {1'b0, b};
    sat_add32 = sum[32] ? 32'hffff_ffff : sum[31:0];
  endfunction

  // The 40-bit counter update of NV10, NV15, NV20 (S24; seed 003
  // "Counters": 0xffffffffff + 1 = 0x8000000000): the low 39 bits add
  // modulo 2^39, bit 39 is set by a carry out of bit 38 and never cleared by
  // counting. The same rule for increments > 1 (EVENT_B4): 0xfffffffffe + 15
  // = 0x800000000d.
  function automatic logic [39:0] sticky_add40(logic [39:0] a, logic [31:0] b);
    logic [39:0] sum;
    sum = {1'b0, a[38:0]} + {8'h0, b};
    sticky_add40 = {a[39] | sum[39], sum[38:0]};
  endfunction

  // A counter update on any generation (S6, S24): 40-bit sticky when wide
  // (feat_wide_counters), else 32-bit saturating with bits 39:32 kept 0.
  function automatic logic [39:0] ctr_add(logic [39:0] a, logic [31:0] b, logic wide);
    ctr_add = wide ? sticky_add40(a, b) : {8'h0, sat_add32(a[31:0], b)};
  endfunction

endpackage
