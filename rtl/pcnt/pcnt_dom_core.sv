// The counting engine of one PCOUNTER domain, independent of any register
// layout: signal selection, input calculation, the B2/B4/B6 increments,
// FLAG, the single event counting process, quad event mode, the PERIODIC
// generator and the source side of the PULSE imports. A register shell
// (pcnt_domain for NV10:GF100) owns the registers, decodes CTRL and the
// writes with side effects, builds the effective signal vector and the
// register view, and drives this engine with decoded controls; the engine
// holds the counters and every other piece of counting state.
//
// Contract (docs/semantics.md; seed 003 "Input selection", "Counters",
// "Special counter modes", "Single event mode", "Quad event mode",
// "The flag", "The EVENT and FLAG signals", "The PERIODIC signal"):
// * Clock enable (S15): every flop advances only in a cycle with tick_i = 1
//   (a *tick*) and holds otherwise; "cycle t" below means tick t, and
//   inputs act only at ticks. sel_o and the in_*_o results follow the
//   inputs of the current cycle also between ticks. The event inputs that
//   come from register writes (start_i, abort_i, ack_i, quad_enter_i,
//   init_*_we_i, shadow_we_i) are raised only in a tick (APB wait states).
// * Cycle model (S0, S1): everything below is computed from the state of
//   tick t and the inputs of tick t and committed at the edge ending it; the
//   controls (OP words, SRC words, threshold, CTRL fields) are the stored
//   register values of tick t, so the counting of a write's own tick uses
//   the old ones.
// * Selection (S9, S10): sel_o[g*4 + j] = sig_eff_i[src_i[g*32 + j*8 +: 8]],
//   src_i words g = 0..5 being PRE, START, EVENT, STOP, SETFLAG_SRC,
//   CLRFLAG_SRC (bits 15:0 the SRC_STATUS order). The 24 selected signals
//   are registered at every tick (sel_prev_o) for the delay bits (S10, S24).
// * Input calculation (S10, S24): one pcnt_logic_op per input, OP words in
//   today's bit format (gen_i gates the G92+ replace bits). SETFLAG's
//   SRC[0..3] are SETFLAG_SRC's selections and CLRFLAG's CLRFLAG_SRC's when
//   flag_src_i (NV10, NV15, NV20), else the shared START_SRC/PRE_SRC
//   arguments of S10.
// * Abort and start (S1, S2): abort_i (a write to a register that aborts)
//   and start_i (a PRE_OP write in MODE = SINGLE) force the state of tick t
//   to INACTIVE before the state switch runs, so that tick neither counts
//   nor updates the FLAG (single event mode); start_i then starts the
//   process (counters initialised, FLAG cleared, WAIT_FOR_PRE from t+1), a
//   running one restarting.
// * State switch S12, counters S5/S6/S7: the six counters saturate at
//   32'hffffffff (sat_add32) and never wrap; CTR_PRE/CTR_STOP decrement only
//   when != 0 and start from the hidden initial values pre_init_q /
//   stop_init_q (S8: init_pre_we_i / init_stop_we_i load wdata_i).
// * 40-bit counters (S24, wide_counters_i): CTR_CYCLES, CTR_EVENT and
//   CTR_START are 40 bits; counting adds to the low 39 bits modulo 2^39 and
//   a carry out of bit 38 sets bit 39, which counting never clears
//   (sticky_add40). Every clear clears all 40 bits. CTR_PRE/CTR_STOP stay
//   32-bit saturating. The STOP compare is 40-bit: CTR_EVENT' >=
//   threshold_i. Without wide_counters_i bits 39:32 stay 0.
// * Increments (S6, S7): B4 = START_SRC[0..3], B6 = B4 | EVENT_SRC[2] << 4 |
//   EVENT_SRC[3] << 5, B2 = EVENT_SRC[0..1], raw selected signals; the
//   CTR_EVENT column and the EXTRA_* integer of ctr_mode_i (reserved 5..7
//   count as SIMPLE).
// * Quad event mode (S17), while mode_quad_i: five invisible shadow
//   counters; per tick (1) ack_i acks (VALID -> EMPTY, OVERFLOW -> VALID),
//   (2) a swap (swap_i, which the shell builds from the generation's SWAP
//   sources) copies the shadows to CTR_*, clears them and bumps QUAD_STATE
//   (EMPTY -> VALID -> OVERFLOW), (3) the tick's increments are added to
//   the shadows, so a swap tick's events count for the new period.
//   Increments: cycles +1, EVENT by the S6 CTR_EVENT column, START +START
//   (EXTRA_B4: +B4, EXTRA_B6_EVENT_B2: +B6), PRE +PRE, STOP +STOP, all
//   saturating. quad_enter_i (a CTRL write that changes MODE to QUAD from
//   another mode) clears the shadows and QUAD_STATE (that tick still runs
//   the old mode). The single event state stays INACTIVE throughout.
// * Shadow write port (docs/design/gf100.md G4; tied to 0 by pcnt_domain):
//   shadow_we_i[i] at tick t sets shadow i at t+1 to shadow_wdata_i, in
//   every mode. It replaces that tick's increment of shadow i; a swap in the
//   same tick still copies the closing set (shadow i of tick t, no
//   increment) to CTR_* and bumps QUAD_STATE, and the written value wins
//   over the swap's restart. quad_enter_i wins over a shadow write (a shell
//   never raises both: one write per tick).
// * FLAG (S3, S13, S17): CLRFLAG wins over SETFLAG; frozen in INACTIVE while
//   mode_single_i; follows SETFLAG/CLRFLAG every tick in other modes.
//   The FLAG signal (flag_sig_o) and the EVENT signal (event_sig_o) are
//   one-tick registered copies of FLAG and of the EVENT logic-op result
//   (S3, S4): that register is what breaks every selection loop through
//   DOM[own].EVENT, which the shell feeds back through sig_eff_i.
// * Imports, source side (S16, S22): event_cnt_o / flag_cnt_o
//   (prim_edge_cnt) count the ticks at which the EVENT / FLAG signal rises,
//   at the same edge as the signal.
// * PERIODIC (S18): 17-bit counter and registered output periodic_o; with
//   P = 0x400 << (periodic_period_i - 1): held at 0 while periodic_reset_i
//   or periodic_period_i = 0 (the shell passes 0 on a generation without
//   PERIODIC); else cnt >= P - 1 wraps to 0 and raises PERIODIC for one
//   tick.
// * Reset (S8, S16..S18): every flop is 0, state INACTIVE, QUAD_STATE EMPTY.
// * Names the harness relies on (S14 backdoor, `poke`): the public flops
//   ctr_cycles_q, ctr_event_q, ctr_start_q, ctr_pre_q, ctr_stop_q, shadow_q
//   and per_cnt_q of the instance u_core.
`include "prim_assert.svh"

module pcnt_dom_core (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic                                    tick_i,
  // Only for the logic operations' G92+ replace bits (pcnt_logic_op).
  input  pcnt_reg_pkg::gen_e                      gen_i,
  // The effective signal vector, built by the shell (S9).
  input  logic [pcnt_pkg::NumSignals-1:0]         sig_eff_i,
  // Selection words: PRE_SRC, START_SRC, EVENT_SRC, STOP_SRC, SETFLAG_SRC,
  // CLRFLAG_SRC (word g at bits g*32 +: 32), four 8-bit fields each.
  input  logic [6*32-1:0]                         src_i,
  // The *_OP words (LOGIC_OP 15:0, delay and replace bits, S10).
  input  logic [31:0]                             pre_op_i,
  input  logic [31:0]                             start_op_i,
  input  logic [31:0]                             event_op_i,
  input  logic [31:0]                             stop_op_i,
  input  logic [31:0]                             setflag_op_i,
  input  logic [31:0]                             clrflag_op_i,
  // {THRESHOLD_HI[7:0], THRESHOLD} (S5, S24).
  input  logic [39:0]                             threshold_i,
  // Decoded CTRL and generation features.
  input  logic                                    mode_single_i,
  input  logic                                    mode_quad_i,
  input  logic [2:0]                              ctr_mode_i,
  input  logic                                    event_ctr_period_i,
  input  logic [2:0]                              periodic_period_i,
  input  logic                                    periodic_reset_i,
  input  logic                                    wide_counters_i,
  input  logic                                    flag_src_i,
  // Events of this tick.
  input  logic                                    start_i,
  input  logic                                    abort_i,
  input  logic                                    swap_i,
  input  logic                                    ack_i,
  input  logic                                    quad_enter_i,
  // Hidden initial values of CTR_PRE / CTR_STOP (S8).
  input  logic                                    init_pre_we_i,
  input  logic                                    init_stop_we_i,
  input  logic [31:0]                             wdata_i,
  // Shadow write port (G4), bit i = pcnt_pkg::Quad* index i.
  input  logic [pcnt_pkg::NumQuadCtr-1:0]         shadow_we_i,
  input  logic [31:0]                             shadow_wdata_i,
  // State for the shell's views and signals.
  output logic [39:0]                             ctr_cycles_o,
  output logic [39:0]                             ctr_event_o,
  output logic [39:0]                             ctr_start_o,
  output logic [31:0]                             ctr_pre_o,
  output logic [31:0]                             ctr_stop_o,
  output logic [pcnt_pkg::NumQuadCtr*32-1:0]      shadow_o,
  output pcnt_pkg::quad_state_e                   quad_state_o,
  output pcnt_pkg::single_state_e                 single_o,
  output logic                                    flag_o,
  output logic                                    flag_sig_o,
  output logic                                    event_sig_o,
  output logic                                    periodic_o,
  output logic [pcnt_pkg::NumSel-1:0]             sel_o,
  output logic [pcnt_pkg::NumSel-1:0]             sel_prev_o,
  output logic                                    in_pre_o,
  output logic                                    in_start_o,
  output logic                                    in_event_o,
  output logic                                    in_stop_o,
  output logic                                    in_setflag_o,
  output logic                                    in_clrflag_o,
  output logic [pcnt_pkg::PulseCntW-1:0]          event_cnt_o,
  output logic [pcnt_pkg::PulseCntW-1:0]          flag_cnt_o
);

  localparam int unsigned QuadW = pcnt_pkg::NumQuadCtr * 32;
  localparam int unsigned PerW  = pcnt_pkg::PeriodicCntW;

  // Hidden initial values of CTR_PRE / CTR_STOP: a write to the counter's
  // address sets them, a read shows the counter (S8; seed "Counters").
  logic [31:0] pre_init_d, pre_init_q, stop_init_d, stop_init_q;

  assign pre_init_d  = init_pre_we_i  ? wdata_i : pre_init_q;
  assign stop_init_d = init_stop_we_i ? wdata_i : stop_init_q;

  logic flag_q, flag_d;
  logic flag_sig_q, flag_sig_d;
  logic event_sig_q, event_sig_d;
  logic periodic_q, periodic_d;

  ////////////////////////////////////////////////////////////////////////////
  // Selection (S9, S10)
  ////////////////////////////////////////////////////////////////////////////

  // sel[g*4 + j] = signal selected by field j of PRE/START/EVENT/STOP_SRC,
  // SETFLAG_SRC, CLRFLAG_SRC (g = 0..5): bits 15:0 are the SRC_STATUS bit
  // order. SETFLAG_SRC/CLRFLAG_SRC (S24) store nothing from NV30 on, so
  // sel[23:16] then select signal 0; only flag_src_i reads them.
  logic [pcnt_pkg::NumSel-1:0]  sel;
  logic [pcnt_pkg::NumSel-1:0]  sel_prev_q, sel_prev_d;

  for (genvar j = 0; j < pcnt_pkg::NumSel; j++) begin : gen_sel
    assign sel[j] = sig_eff_i[src_i[j*8 +: 8]];
  end

  // Previous-tick selected values, updated at every tick in every state
  // (S10, S15).
  // All 24 are kept as S10 describes them; only SRC[0]/SRC[1] of each input
  // (and START_SRC[2,3], PRE_SRC[2,3] for the NV30+ SETFLAG/CLRFLAG) are ever
  // used, so EVENT_SRC[2,3], STOP_SRC[2,3], SETFLAG_SRC[2,3] and
  // CLRFLAG_SRC[2,3] have no reader and synthesis drops them (rtl/pcnt/synth.ys
  // inlines this engine into its shell, which does not read sel_prev_o).
  assign sel_prev_d = sel;

  ////////////////////////////////////////////////////////////////////////////
  // Input calculation (S10)
  ////////////////////////////////////////////////////////////////////////////

  logic in_pre, in_start, in_event, in_stop, in_setflag, in_clrflag;

  // SETFLAG/CLRFLAG arguments (S24): their own selections SETFLAG_SRC /
  // CLRFLAG_SRC on NV10:NV30, the shared ones of S10 from NV30 on.
  logic [3:0] setflag_src_sel, clrflag_src_sel;
  logic [1:0] setflag_prev_sel, clrflag_prev_sel;

  // NV30+ SETFLAG args: START_SRC[2], START_SRC[3], PRE_SRC[0], PRE_SRC[1].
  assign setflag_src_sel = flag_src_i ? sel[19:16] : {sel[1], sel[0], sel[7], sel[6]};
  assign setflag_prev_sel = flag_src_i ? sel_prev_q[17:16] : {sel_prev_q[7], sel_prev_q[6]};
  // NV30+ CLRFLAG args: PRE_SRC[2], PRE_SRC[3], START_SRC[0], START_SRC[1].
  assign clrflag_src_sel = flag_src_i ? sel[23:20] : {sel[5], sel[4], sel[3], sel[2]};
  assign clrflag_prev_sel = flag_src_i ? sel_prev_q[21:20] : {sel_prev_q[3], sel_prev_q[2]};

  pcnt_logic_op #(.IsEventLike(1'b0)) u_setflag (
    .op_i       (setflag_op_i),
    .src_i      (setflag_src_sel),
    .src_prev_i (setflag_prev_sel),
    .setflag_i  (1'b0),
    .gen_i,
    .result_o   (in_setflag)
  );

  pcnt_logic_op #(.IsEventLike(1'b0)) u_clrflag (
    .op_i       (clrflag_op_i),
    .src_i      (clrflag_src_sel),
    .src_prev_i (clrflag_prev_sel),
    .setflag_i  (1'b0),
    .gen_i,
    .result_o   (in_clrflag)
  );

  pcnt_logic_op #(.IsEventLike(1'b0)) u_pre (
    .op_i       (pre_op_i),
    .src_i      (sel[3:0]),
    .src_prev_i (sel_prev_q[1:0]),
    .setflag_i  (1'b0),
    .gen_i,
    .result_o   (in_pre)
  );

  pcnt_logic_op #(.IsEventLike(1'b0)) u_start (
    .op_i       (start_op_i),
    .src_i      (sel[7:4]),
    .src_prev_i (sel_prev_q[5:4]),
    .setflag_i  (1'b0),
    .gen_i,
    .result_o   (in_start)
  );

  pcnt_logic_op #(.IsEventLike(1'b1)) u_event (
    .op_i       (event_op_i),
    .src_i      (sel[11:8]),
    .src_prev_i (sel_prev_q[9:8]),
    .setflag_i  (in_setflag),
    .gen_i,
    .result_o   (in_event)
  );

  pcnt_logic_op #(.IsEventLike(1'b1)) u_stop (
    .op_i       (stop_op_i),
    .src_i      (sel[15:12]),
    .src_prev_i (sel_prev_q[13:12]),
    .setflag_i  (in_setflag),
    .gen_i,
    .result_o   (in_stop)
  );

  ////////////////////////////////////////////////////////////////////////////
  // Counter increments (S6, S7)
  ////////////////////////////////////////////////////////////////////////////

  // Raw selected signals, not logic-op outputs: B4 = START_SRC[0..3],
  // B6 = B4 | EVENT_SRC[2] << 4 | EVENT_SRC[3] << 5, B2 = EVENT_SRC[0..1].
  logic [3:0]  b4;
  logic [5:0]  b6;
  logic [1:0]  b2;
  logic [31:0] event_inc, extra_inc;
  logic        extra_mode;

  assign b4 = sel[7:4];
  assign b6 = {sel[11:10], b4};
  assign b2 = sel[9:8];

  // extra_inc is the EXTRA_* integer (B4 or B6): it goes to CTR_PRE in
  // single event mode (S6) and to CTR_START in quad event mode (S17).
  always_comb begin
    event_inc  = {31'd0, in_event};
    extra_inc  = 32'd0;
    extra_mode = 1'b0;
    unique case (ctr_mode_i)
      pcnt_pkg::CtrModeSimple: begin
        event_inc = {31'd0, in_event};
      end
      pcnt_pkg::CtrModeEventB4: begin
        event_inc = in_event ? {28'd0, b4} : 32'd0;
      end
      pcnt_pkg::CtrModeEventB6: begin
        event_inc = in_event ? {26'd0, b6} : 32'd0;
      end
      pcnt_pkg::CtrModeExtraB4: begin
        extra_inc  = {28'd0, b4};
        extra_mode = 1'b1;
      end
      pcnt_pkg::CtrModeExtraB6EventB2: begin
        // B2 on every cycle, not gated by EVENT (S6, literal seed text).
        event_inc  = {30'd0, b2};
        extra_inc  = {26'd0, b6};
        extra_mode = 1'b1;
      end
      default: begin
        // Reserved 5..7 count as SIMPLE (S6): the defaults above.
      end
    endcase
  end

  ////////////////////////////////////////////////////////////////////////////
  // Quad event mode (S17)
  ////////////////////////////////////////////////////////////////////////////

  // Shadow counters, packed at pcnt_pkg::Quad* indices (cycles, EVENT, START,
  // PRE, STOP). Invisible: CTR_* show the previous period.
  // The shadows are reachable by the harness backdoor (`poke`, S14).
  logic [QuadW-1:0] shadow_q /*verilator public_flat_rw*/;
  logic [QuadW-1:0] shadow_d;
  logic [QuadW-1:0] quad_inc, quad_old_inc, quad_new_inc, quad_old_set;
  logic             quad_swap, quad_ack;

  pcnt_pkg::quad_state_e quad_state_q, quad_state_d, quad_state_acked;

  assign quad_swap = mode_quad_i & swap_i;
  assign quad_ack  = mode_quad_i & ack_i;

  // Increments of this tick (S17; S6 CTR_EVENT column; START takes the
  // EXTRA_* integer in the EXTRA modes).
  assign quad_inc[pcnt_pkg::QuadCycles * 32 +: 32] = 32'd1;
  assign quad_inc[pcnt_pkg::QuadEvent  * 32 +: 32] = event_inc;
  assign quad_inc[pcnt_pkg::QuadStart  * 32 +: 32] = extra_mode ? extra_inc : {31'd0, in_start};
  assign quad_inc[pcnt_pkg::QuadPre    * 32 +: 32] = {31'd0, in_pre};
  assign quad_inc[pcnt_pkg::QuadStop   * 32 +: 32] = {31'd0, in_stop};

  // Steps (2) swap and (3) count: the tick's increments are split between
  // the period a swap closes (quad_old_inc) and the one it opens
  // (quad_new_inc). The swap comes first (seed: "the swap is performed
  // before updating the counters"), so at a swap all of them go to the new
  // period. quad_old_inc is either 0 or quad_inc, so the XOR is the rest.
  assign quad_old_inc = quad_swap ? '0 : quad_inc;
  assign quad_new_inc = quad_inc ^ quad_old_inc;

  // The current period with its share of this tick: the new shadows without
  // a swap, the set a swap copies to CTR_* otherwise.
  for (genvar i = 0; i < pcnt_pkg::NumQuadCtr; i++) begin : gen_quad_sum
    assign quad_old_set[i * 32 +: 32] = pcnt_pkg::sat_add32(shadow_q[i * 32 +: 32],
                                                            quad_old_inc[i * 32 +: 32]);
  end

  // The shadows as the mode leaves them: counting, or restarting at a swap,
  // in quad mode; held otherwise.
  logic [QuadW-1:0] shadow_run, shadow_wr;

  assign shadow_run = mode_quad_i ? (quad_swap ? quad_new_inc : quad_old_set) : shadow_q;

  // G4: a written shadow takes the written value in every mode, instead of
  // this tick's increment and over a swap's restart. The swap's copy to
  // CTR_* (quad_old_set) does not see the write. (A separate block, so that
  // a shell tying the port to 0 leaves the whole-vector muxes of S17.)
  always_comb begin
    shadow_wr = shadow_run;
    for (int unsigned i = 0; i < pcnt_pkg::NumQuadCtr; i++) begin
      if (shadow_we_i[i]) begin
        shadow_wr[i * 32 +: 32] = shadow_wdata_i;
      end
    end
  end

  // Entering QUAD from another mode clears the shadows (that tick still runs
  // the old mode); it wins over a write.
  assign shadow_d = quad_enter_i ? '0 : shadow_wr;

  always_comb begin
    // Step (1): the ack retires a set.
    quad_state_acked = quad_state_q;
    if (quad_ack) begin
      unique case (quad_state_q)
        pcnt_pkg::QuadValid:    quad_state_acked = pcnt_pkg::QuadEmpty;
        pcnt_pkg::QuadOverflow: quad_state_acked = pcnt_pkg::QuadValid;
        default:                quad_state_acked = quad_state_q; // EMPTY stays
      endcase
    end
    // Step (2): the swap brings a new set.
    quad_state_d = quad_state_acked;
    if (quad_swap) begin
      unique case (quad_state_acked)
        pcnt_pkg::QuadEmpty: quad_state_d = pcnt_pkg::QuadValid;
        default:             quad_state_d = pcnt_pkg::QuadOverflow; // VALID up, OVERFLOW stays
      endcase
    end
    if (quad_enter_i) begin
      quad_state_d = pcnt_pkg::QuadEmpty;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // PERIODIC generator (S18)
  ////////////////////////////////////////////////////////////////////////////

  // per_cnt_q is reachable by the harness backdoor (`poke`, S14).
  logic [PerW-1:0] per_cnt_q /*verilator public_flat_rw*/;
  logic [PerW-1:0] per_cnt_d, periodic_last;

  // P - 1 for P = 0x400 << (PERIODIC_PERIOD - 1); PERIODIC_PERIOD = 0 is
  // "disabled" and does not use it.
  always_comb begin
    periodic_last = 17'h003ff;
    unique case (periodic_period_i)
      3'd1:    periodic_last = 17'h003ff;
      3'd2:    periodic_last = 17'h007ff;
      3'd3:    periodic_last = 17'h00fff;
      3'd4:    periodic_last = 17'h01fff;
      3'd5:    periodic_last = 17'h03fff;
      3'd6:    periodic_last = 17'h07fff;
      3'd7:    periodic_last = 17'h0ffff;
      default: periodic_last = 17'h003ff;
    endcase
  end

  // GCTRL.PERIODIC_RESET holds the generator at the start of its cycle, and
  // so does PERIODIC_PERIOD = 0 (also what the shell passes on a generation
  // without PERIODIC, e.g. NV40). A shorter period wraps at once (>=).
  always_comb begin
    per_cnt_d  = per_cnt_q + 17'd1;
    periodic_d = 1'b0;
    if (periodic_reset_i || (periodic_period_i == 3'd0)) begin
      per_cnt_d  = 17'd0;
    end else if (per_cnt_q >= periodic_last) begin
      per_cnt_d  = 17'd0;
      periodic_d = 1'b1;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Single event process and FLAG (S1, S2, S3, S5, S12, S13)
  ////////////////////////////////////////////////////////////////////////////

  pcnt_pkg::single_state_e single_q, single_d, single_cur;

  // The counter flops are reachable by the lockstep harness's backdoor
  // (`poke`, docs/semantics.md S14) so saturation can be reached without
  // 2^32 cycles; the metacomment has no effect on synthesis. CTR_CYCLES
  // (= CTR_CYCLES_ALT), CTR_EVENT and CTR_START are 40 bits (S24; bits 39:32
  // stay 0 on the 32-bit generations), CTR_PRE/CTR_STOP 32 on every one.
  logic [39:0] ctr_cycles_d, ctr_event_d, ctr_start_d;
  logic [31:0] ctr_pre_d, ctr_stop_d;
  logic [39:0] ctr_cycles_q /*verilator public_flat_rw*/;
  logic [39:0] ctr_event_q  /*verilator public_flat_rw*/;
  logic [39:0] ctr_start_q  /*verilator public_flat_rw*/;
  logic [31:0] ctr_pre_q    /*verilator public_flat_rw*/;
  logic [31:0] ctr_stop_q   /*verilator public_flat_rw*/;

  logic flag_next;

  // FLAG as SETFLAG/CLRFLAG would leave it; CLRFLAG wins (S3).
  assign flag_next = in_clrflag ? 1'b0 : (in_setflag ? 1'b1 : flag_q);

  // Step (1) of S1: an aborting write makes this cycle's state INACTIVE. So
  // does a start (a PRE_OP write in single event mode, S2): the process
  // restarts from INACTIVE in the same tick, whatever state it was in.
  assign single_cur = (abort_i | start_i) ? pcnt_pkg::Inactive : single_q;

  always_comb begin
    single_d     = single_cur;
    flag_d       = flag_q;
    ctr_cycles_d = ctr_cycles_q;
    ctr_event_d  = ctr_event_q;
    ctr_start_d  = ctr_start_q;
    ctr_pre_d    = ctr_pre_q;
    ctr_stop_d   = ctr_stop_q;

    // Step (2) of S1: the state switch on the state after the abort step.
    unique case (single_cur)
      pcnt_pkg::Inactive: begin
        if (!mode_single_i) begin
          // Single event mode does not run (QUAD, RECORD, 3); the FLAG
          // follows SETFLAG/CLRFLAG every tick, also in the tick of an
          // aborting write (S1, S3, S13, S17).
          flag_d = flag_next;
        end else if (start_i) begin
          // Start of the counting process (S2, S12); FLAG frozen otherwise.
          // All 40 bits clear, bit 39 included (S24).
          ctr_event_d  = 40'h0;
          ctr_start_d  = 40'h0;
          ctr_cycles_d = 40'h0;
          ctr_pre_d    = pre_init_q;
          ctr_stop_d   = stop_init_q;
          flag_d       = 1'b0;
          single_d     = pcnt_pkg::WaitPre;
        end
      end

      pcnt_pkg::WaitPre: begin
        flag_d = flag_next;
        if (in_pre) begin
          // CTR_PRE_init + 1 PRE cycles are needed (S5).
          if (ctr_pre_q != 32'd0) begin
            ctr_pre_d = ctr_pre_q - 32'd1;
          end else begin
            single_d  = pcnt_pkg::WaitStart;
          end
        end
      end

      pcnt_pkg::WaitStart: begin
        flag_d = flag_next;
        if (in_start) begin
          // The START cycle itself is not counted (S5).
          ctr_cycles_d = 40'h0;
          if (event_ctr_period_i == pcnt_pkg::EventCtrPeriodOne) begin
            ctr_event_d = 40'h0;
          end
          single_d = pcnt_pkg::Counting;
        end
      end

      pcnt_pkg::Counting: begin
        flag_d       = flag_next;
        // Every COUNTING cycle counts, the STOP cycle included (S5, S6);
        // 40-bit sticky on NV10:NV30, 32-bit saturating after (S24).
        ctr_cycles_d = pcnt_pkg::ctr_add(ctr_cycles_q, 32'd1, wide_counters_i);
        ctr_event_d  = pcnt_pkg::ctr_add(ctr_event_q, event_inc, wide_counters_i);
        ctr_pre_d    = pcnt_pkg::sat_add32(ctr_pre_q, extra_inc);
        if (in_stop) begin
          // THRESHOLD compares CTR_EVENT after this cycle's increment (S5),
          // over 40 bits with THRESHOLD_HI (S24; 0 where absent).
          if (ctr_event_d >= threshold_i) begin
            ctr_start_d = pcnt_pkg::ctr_add(ctr_start_q, 32'd1, wide_counters_i);
          end
          if (ctr_stop_q != 32'd0) begin
            ctr_stop_d = ctr_stop_q - 32'd1;
            single_d   = pcnt_pkg::WaitStart;
          end else begin
            single_d   = pcnt_pkg::Inactive;
          end
        end
      end

      default: begin
        single_d = pcnt_pkg::Inactive;
      end
    endcase

    // Quad event mode, step (2) of S17: a swap copies the closing period to
    // CTR_* (the single event state is INACTIVE, so nothing above wrote them).
    // Quad mode exists from NV30 on, where counters are 32-bit (S24).
    if (quad_swap) begin
      ctr_cycles_d = {8'h0, quad_old_set[pcnt_pkg::QuadCycles * 32 +: 32]};
      ctr_event_d  = {8'h0, quad_old_set[pcnt_pkg::QuadEvent  * 32 +: 32]};
      ctr_start_d  = {8'h0, quad_old_set[pcnt_pkg::QuadStart  * 32 +: 32]};
      ctr_pre_d    = quad_old_set[pcnt_pkg::QuadPre    * 32 +: 32];
      ctr_stop_d   = quad_old_set[pcnt_pkg::QuadStop   * 32 +: 32];
    end
  end

  // The EVENT and FLAG signals are registered copies (S3, S4).
  assign event_sig_d = in_event;
  assign flag_sig_d  = flag_q;

  // Source side of the PULSE imports (S16, S22): a Gray edge count that
  // advances at each tick at which the signal rises, at the same edge as the
  // signal.
  prim_edge_cnt #(.Width(pcnt_pkg::PulseCntW)) u_event_cnt (
    .clk_i,
    .rst_ni,
    .en_i   (tick_i),
    .rise_i (event_sig_d & ~event_sig_q),
    .gray_o (event_cnt_o)
  );
  prim_edge_cnt #(.Width(pcnt_pkg::PulseCntW)) u_flag_cnt (
    .clk_i,
    .rst_ni,
    .en_i   (tick_i),
    .rise_i (flag_d & ~flag_q),
    .gray_o (flag_cnt_o)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      single_q     <= pcnt_pkg::Inactive;
      flag_q       <= 1'b0;
      flag_sig_q   <= 1'b0;
      event_sig_q  <= 1'b0;
      sel_prev_q   <= '0;
      pre_init_q   <= 32'd0;
      stop_init_q  <= 32'd0;
      ctr_cycles_q <= 40'h0;
      ctr_event_q  <= 40'h0;
      ctr_start_q  <= 40'h0;
      ctr_pre_q    <= 32'd0;
      ctr_stop_q   <= 32'd0;
      shadow_q     <= '0;
      quad_state_q <= pcnt_pkg::QuadEmpty;
      per_cnt_q    <= 17'd0;
      periodic_q   <= 1'b0;
    end else if (tick_i) begin
      single_q     <= single_d;
      flag_q       <= flag_d;
      flag_sig_q   <= flag_sig_d;
      event_sig_q  <= event_sig_d;
      sel_prev_q   <= sel_prev_d;
      pre_init_q   <= pre_init_d;
      stop_init_q  <= stop_init_d;
      ctr_cycles_q <= ctr_cycles_d;
      ctr_event_q  <= ctr_event_d;
      ctr_start_q  <= ctr_start_d;
      ctr_pre_q    <= ctr_pre_d;
      ctr_stop_q   <= ctr_stop_d;
      shadow_q     <= shadow_d;
      quad_state_q <= quad_state_d;
      per_cnt_q    <= per_cnt_d;
      periodic_q   <= periodic_d;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Outputs
  ////////////////////////////////////////////////////////////////////////////

  assign ctr_cycles_o = ctr_cycles_q;
  assign ctr_event_o  = ctr_event_q;
  assign ctr_start_o  = ctr_start_q;
  assign ctr_pre_o    = ctr_pre_q;
  assign ctr_stop_o   = ctr_stop_q;
  assign shadow_o     = shadow_q;
  assign quad_state_o = quad_state_q;
  assign single_o     = single_q;
  assign flag_o       = flag_q;
  assign flag_sig_o   = flag_sig_q;
  assign event_sig_o  = event_sig_q;
  assign periodic_o   = periodic_q;
  assign sel_o        = sel;
  assign sel_prev_o   = sel_prev_q;
  assign in_pre_o     = in_pre;
  assign in_start_o   = in_start;
  assign in_event_o   = in_event;
  assign in_stop_o    = in_stop;
  assign in_setflag_o = in_setflag;
  assign in_clrflag_o = in_clrflag;

  ////////////////////////////////////////////////////////////////////////////
  // Assertions
  ////////////////////////////////////////////////////////////////////////////

  // QUAD_STATE never takes the unused encoding 2 (S17).
  `PRIM_ASSERT(QuadStateLegal_A, quad_state_q != 2'd2)
  // The process only leaves INACTIVE in MODE = SINGLE, and the shell makes
  // every change of MODE (a CTRL write) an abort: so a running process
  // implies MODE = SINGLE.
  `PRIM_ASSERT_IMPLIES(RunningImpliesSingle_A, single_q != pcnt_pkg::Inactive, mode_single_i)
  // Shadow writes are register writes: at most one per cycle, only at a tick
  // (S15, G4).
  `PRIM_ASSERT(ShadowWeOneHot0_A, $onehot0(shadow_we_i))
  `PRIM_ASSERT_IMPLIES(ShadowWeOnlyAtTick_A, |shadow_we_i, tick_i)

endmodule
