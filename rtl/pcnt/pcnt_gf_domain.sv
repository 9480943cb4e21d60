// One PCOUNTER domain of the GF100+ layout: the GF100 register shell around
// the counting engine pcnt_dom_core. Register storage by GF100 view index
// (pcnt_gf_reg_pkg), the decode of CTRL and of the writes with side effects,
// the effective signal vector (GF100 trailer, four USER signals, PAUSED,
// imports inside the set), the STATE flops and the register view.
// Independent of the MMIO layout: registers are addressed by view index only
// (pcnt_gf_apb does the decode).
//
// Contract (docs/semantics.md S25.0..G11, S25.16 and the S sections they
// keep; S25.0, S25.1, S25.2, S25.9):
// * Clock enable (S15): every flop of the domain (here and in u_core)
//   advances only in a cycle with tick_i = 1 (a *tick*) and holds otherwise.
//   The combinational view (reg_rd_o: SIG_STATUS, SRC_STATUS) follows the
//   inputs of the current bus cycle also between ticks. The front-end raises
//   reg_we_i only in a tick (APB wait states), so every write is consumed at
//   a tick; the counting of a write's own tick uses the old register values
//   (S0, S1).
// * Writes: reg_we_i with the view index reg_idx_i (present, full strobe:
//   filtered by the front-end). Kind storage registers store
//   reg_wdata_i & gf_dom_store_mask(idx) (S8; FILTER, UNK74/7C/84 and the
//   UNK fields of CTRL are stored, read back, act on nothing: S25.2, S25.8, S25.16).
//   Writes to ro, counter-read, zero and CTR_CYCLES_NEXT_RO /
//   CTR_CYCLES_NEXT_HIGH / CTR_RECORD_STOP_NEXT registers store nothing.
// * CTRL (S25.1, S25.2, S25.1): MODE 2:0 (engine mode_single = MODE == 1,
//   mode_quad = MODE == 2; every other MODE counts nothing), CTR_MODE 5:3,
//   EVENT_CTR_PERIOD 6, EVENT/FLAG_IMPORT_MODE 7/8 (0 CONTINUOUS, 1 PULSE),
//   PERIODIC_PERIOD 23:21.
// * Events to the engine (S25.3, S25.4, S25.5, S25.1): quad_enter = CTRL write
//   with new MODE 2 while the stored MODE != 2; abort = SINGLE_ABORT_TRIGGER
//   write, or a CTRL write whose new MODE != 1; start = SINGLE_BEGIN_TRIGGER
//   write while the stored MODE == 1; swap = the raw signal SWAP_SRC[7:0]
//   selects (sig_eff, no PRE_OP swap: D8); ack = QUAD_ACK_TRIGGER write with
//   bit 0; CTR_PRE / CTR_STOP writes load the hidden initial values; NEXT
//   writes (CTR_CYCLES_NEXT, CTR_EVENT_NEXT, CTR_START_NEXT, CTR_PRE_NEXT,
//   CTR_STOP_NEXT) drive the engine's shadow write port (S25.4).
// * OP words (D2, S25.0): PRE/START/SETFLAG/CLRFLAG_OP bits 19/20 (ARG2,
//   ARG3) go to the engine's PRE-like bits 18/19; EVENT/STOP_OP keep their
//   bit positions (18 ARG3_SETFLAG, 19 ARG2, 20 ARG3), which are the GT215
//   engine's. The engine runs as GT215 (replace bits on), with 32-bit
//   saturating counters (wide_counters 0) and the shared SETFLAG/CLRFLAG
//   arguments of S10 (flag_src 0).
// * Signals (S25.9, S25.9): base B = SigCount - 0x40 (may be negative;
//   positions below 0 do not exist); positions >= SigCount read 0;
//   B+0x27..B+0x2a USER_0..3 (S25.7), B+0x2c PAUSED (S25.11: stored MODE == 0),
//   B+0x2e PERIODIC (S18), B+0x30+(7-k) DOM[k].EVENT, B+0x38+(7-k)
//   DOM[k].FLAG: the own domain (k == DomIdx) its EVENT / FLAG signal, others
//   the import CTRL bit 7 / 8 selects (imp_*_i bit k; the top ties bits
//   k >= the set's size to 0). Every other position is sig_i.
// * USER (S25.7): a USER_TRIGGER write sets user = data[3:0], pulse =
//   data[7:4]; every other tick user <= user & ~pulse. Reads {pulse, user}.
// * STATE (S25.6): flops of this domain (changes only at its ticks):
//   SINGLE_STATE, QUAD_STATE, FLAG_NEXT = FLAG register, FLAG_CUR = FLAG
//   signal, EVENT_TOGGLE = parity of the EVENT edge count, EVENT_SRC[0..3],
//   STOP_SRC[0..3], PRE_SRC2/3, START_SRC2/3 = previous tick's selections,
//   SWAP = previous tick's swap signal, EVENT = EVENT signal, PRE/START/STOP
//   = previous tick's logic-op results; UNK6/UNK30/UNK31 read 0.
// * SRC_STATUS (S25.10): bits 15:0 as S9, 19:16 SETFLAG's arguments (START_SRC
//   [2], [3], PRE_SRC[0], [1]), 23:20 CLRFLAG's (PRE_SRC[2], [3],
//   START_SRC[0], [1]), this cycle's signals.
// * View reg_rd_o (S25.0, S25.2): what a read returns this cycle, word idx
//   at bits idx*32 +: 32: stored bits; CTRL | QUAD_STATE << 24 |
//   SINGLE_STATE << 28; counters; the running shadows for the NEXT
//   registers and CTR_CYCLES_NEXT_RO (S25.4); triggers and zero registers 0.
// * Reset (S8, S25.13): every stored bit 0 (MODE = HALTED), engine reset.
// * Names the harness relies on (S14 backdoor, `poke`): u_core.
`include "prim_assert.svh"

module pcnt_gf_domain #(
  // DOM[k] number of this domain inside its set (0..7).
  parameter int unsigned DomIdx   = 0,
  // Signals of this domain: a multiple of 0x20 in 0x20..0x100 (S25.9).
  parameter int unsigned SigCount = 32'he0
) (
  input  logic                                       clk_i,
  input  logic                                       rst_ni,
  input  logic                                       tick_i,
  input  logic [255:0]                               sig_i,
  // Synchronized EVENT/FLAG of the set's domains (bit k = DOM[k]).
  input  logic [7:0]                                 imp_event_cont_i,
  input  logic [7:0]                                 imp_event_pulse_i,
  input  logic [7:0]                                 imp_flag_cont_i,
  input  logic [7:0]                                 imp_flag_pulse_i,
  // DSET CTRL.PERIODIC_RESET of this domain's set (S25.12).
  input  logic                                       periodic_reset_i,
  input  logic                                       reg_we_i,
  input  logic [pcnt_gf_reg_pkg::GfRegIdxW-1:0]      reg_idx_i,
  input  logic [31:0]                                reg_wdata_i,
  output logic [pcnt_gf_reg_pkg::GfNumDomRegs*32-1:0] reg_rd_o,
  output logic                                       event_o,
  output logic                                       flag_o,
  output logic [pcnt_pkg::PulseCntW-1:0]             event_cnt_o,
  output logic [pcnt_pkg::PulseCntW-1:0]             flag_cnt_o
);

  localparam int unsigned NumRegs = pcnt_gf_reg_pkg::GfNumDomRegs;
  localparam int unsigned QuadW   = pcnt_pkg::NumQuadCtr * 32;
  // Trailer base B = SigCount - 0x40 (S25.9, D5), signed: -0x20 for 0x20.
  localparam int          TrailerB = $signed(SigCount) - 32'sh40;

  if (DomIdx > 7) begin : gen_dom_idx_check
    $error("pcnt_gf_domain: DomIdx must be 0..7");
  end
  if (SigCount < 32'h20 || SigCount > 32'h100 || SigCount % 32'h20 != 0) begin : gen_sig_check
    $error("pcnt_gf_domain: SigCount must be a multiple of 0x20 in 0x20..0x100");
  end

  ////////////////////////////////////////////////////////////////////////////
  // Write strobes by view index
  ////////////////////////////////////////////////////////////////////////////

  logic [NumRegs-1:0] we;
  for (genvar r = 0; r < NumRegs; r++) begin : gen_we
    assign we[r] = reg_we_i && (reg_idx_i == pcnt_gf_reg_pkg::GfRegIdxW'(r));
  end

  ////////////////////////////////////////////////////////////////////////////
  // Register storage (S8, S25.2, S25.8, S25.16)
  ////////////////////////////////////////////////////////////////////////////

  // cfg holds the stored bits of every kind-storage register (USER_TRIGGER
  // apart: its bits are the USER state below), 0 elsewhere.
  logic [NumRegs*32-1:0] cfg;

  for (genvar r = 0; r < NumRegs; r++) begin : gen_store
    localparam logic [31:0] StoreMask = pcnt_gf_reg_pkg::gf_dom_store_mask(r);
    localparam bit IsStorage = (pcnt_gf_reg_pkg::gf_dom_kind(r) == pcnt_gf_reg_pkg::GfKindStorage)
                               && (r != pcnt_gf_reg_pkg::GfRegUserTrigger);
    if (IsStorage && StoreMask != 32'h0) begin : gen_ff
      logic [31:0] store_d, store_q;
      assign store_d = we[r] ? (reg_wdata_i & StoreMask) : store_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          store_q <= 32'h0;
        end else if (tick_i) begin
          store_q <= store_d;
        end
      end
      assign cfg[r*32 +: 32] = store_q;
    end else begin : gen_none
      assign cfg[r*32 +: 32] = 32'h0;
    end
  end

  logic [31:0] pre_src, start_src, event_src, stop_src, swap_src;
  logic [31:0] pre_op, start_op, event_op, stop_op, setflag_op, clrflag_op;
  logic [31:0] threshold, ctrl;

  assign pre_src    = cfg[pcnt_gf_reg_pkg::GfRegPreSrc    * 32 +: 32];
  assign start_src  = cfg[pcnt_gf_reg_pkg::GfRegStartSrc  * 32 +: 32];
  assign event_src  = cfg[pcnt_gf_reg_pkg::GfRegEventSrc  * 32 +: 32];
  assign stop_src   = cfg[pcnt_gf_reg_pkg::GfRegStopSrc   * 32 +: 32];
  assign swap_src   = cfg[pcnt_gf_reg_pkg::GfRegSwapSrc   * 32 +: 32];
  assign pre_op     = cfg[pcnt_gf_reg_pkg::GfRegPreOp     * 32 +: 32];
  assign start_op   = cfg[pcnt_gf_reg_pkg::GfRegStartOp   * 32 +: 32];
  assign event_op   = cfg[pcnt_gf_reg_pkg::GfRegEventOp   * 32 +: 32];
  assign stop_op    = cfg[pcnt_gf_reg_pkg::GfRegStopOp    * 32 +: 32];
  assign setflag_op = cfg[pcnt_gf_reg_pkg::GfRegSetflagOp * 32 +: 32];
  assign clrflag_op = cfg[pcnt_gf_reg_pkg::GfRegClrflagOp * 32 +: 32];
  assign threshold  = cfg[pcnt_gf_reg_pkg::GfRegThreshold * 32 +: 32];
  assign ctrl       = cfg[pcnt_gf_reg_pkg::GfRegCtrl      * 32 +: 32];

  // D2: the PRE-like OP words carry ARG2/ARG3 at 19/20 on GF100 (bit 18 is
  // not stored); the engine's PRE-like layout has them at 18/19. EVENT/STOP
  // keep 18 ARG3_SETFLAG, 19 ARG2, 20 ARG3, the engine's EVENT-like layout.
  logic [31:0] pre_op_e, start_op_e, setflag_op_e, clrflag_op_e;
  assign pre_op_e     = {12'h0, pre_op[20:19],     pre_op[17:0]};
  assign start_op_e   = {12'h0, start_op[20:19],   start_op[17:0]};
  assign setflag_op_e = {12'h0, setflag_op[20:19], setflag_op[17:0]};
  assign clrflag_op_e = {12'h0, clrflag_op[20:19], clrflag_op[17:0]};

  // Bits the store masks keep 0 (S8): OP bit 18 and 31:21 of the PRE-like
  // words, SWAP_SRC 31:8.
  logic unused_cfg;
  assign unused_cfg = ^{pre_op[31:21], pre_op[18], start_op[31:21], start_op[18],
                        setflag_op[31:21], setflag_op[18], clrflag_op[31:21], clrflag_op[18],
                        swap_src[31:8]};

  // CTRL fields (S25.1, S25.2).
  logic [2:0] mode, ctr_mode, periodic_period, wr_mode;
  logic       event_ctr_period, event_import_pulse, flag_import_pulse;
  logic       mode_single, mode_quad, paused;

  assign mode               = ctrl[pcnt_gf_reg_pkg::GfCtrlModeLsb +: pcnt_gf_reg_pkg::GfCtrlModeWidth];
  assign ctr_mode           = ctrl[pcnt_gf_reg_pkg::GfCtrlCtrModeLsb +:
                                   pcnt_gf_reg_pkg::GfCtrlCtrModeWidth];
  assign event_ctr_period   = ctrl[pcnt_gf_reg_pkg::GfCtrlEventCtrPeriodLsb];
  assign event_import_pulse = ctrl[pcnt_gf_reg_pkg::GfCtrlEventImportModeLsb];
  assign flag_import_pulse  = ctrl[pcnt_gf_reg_pkg::GfCtrlFlagImportModeLsb];
  assign periodic_period    = ctrl[pcnt_gf_reg_pkg::GfCtrlPeriodicPeriodLsb +:
                                   pcnt_gf_reg_pkg::GfCtrlPeriodicPeriodWidth];
  // MODE codes (S25.1): 0 HALTED, 1 SINGLE, 2 QUAD, others count nothing.
  assign mode_single        = (mode == 3'd1);
  assign mode_quad          = (mode == 3'd2);
  // S25.11: PAUSED while the stored MODE is HALTED.
  assign paused             = (mode == 3'd0);
  assign wr_mode            = reg_wdata_i[pcnt_gf_reg_pkg::GfCtrlModeLsb +:
                                          pcnt_gf_reg_pkg::GfCtrlModeWidth];

  ////////////////////////////////////////////////////////////////////////////
  // Signals and trailer (S25.9)
  ////////////////////////////////////////////////////////////////////////////

  // The counting engine's state and results (u_core below).
  logic [39:0]                  ctr_cycles, ctr_event, ctr_start;
  logic [31:0]                  ctr_pre, ctr_stop;
  logic [QuadW-1:0]             shadow;
  pcnt_pkg::quad_state_e        quad_state;
  pcnt_pkg::single_state_e      single_state;
  logic                         flag, flag_sig, event_sig, periodic;
  logic [pcnt_pkg::NumSel-1:0]  sel, sel_prev;
  logic                         in_pre, in_start, in_event, in_stop, in_setflag, in_clrflag;

  logic [3:0] user_q, user_d, pulse_q, pulse_d;

  // DOM[k].EVENT / DOM[k].FLAG as this domain sees them (S16, S25.12).
  logic [7:0] dom_event_view, dom_flag_view;

  for (genvar k = 0; k < 8; k++) begin : gen_dom_view
    if (k == DomIdx) begin : gen_own
      // Own signals bypass the import (S3, S4, S16).
      assign dom_event_view[k] = event_sig;
      assign dom_flag_view[k]  = flag_sig;
    end else begin : gen_other
      // Both synchronizers always run; CTRL only selects the output (S16).
      assign dom_event_view[k] = event_import_pulse ? imp_event_pulse_i[k] : imp_event_cont_i[k];
      assign dom_flag_view[k]  = flag_import_pulse  ? imp_flag_pulse_i[k]  : imp_flag_cont_i[k];
    end
  end

  // The effective signal vector of this domain, what SIG_STATUS shows. Every
  // position is a constant, so each bit is one wire.
  logic [pcnt_pkg::NumSignals-1:0] sig_eff;

  for (genvar s = 0; s < pcnt_pkg::NumSignals; s++) begin : gen_sig
    // Offset from the trailer base (S25.9); s < SigCount gives Off < 0x40.
    localparam int Off = s - TrailerB;
    if (s >= SigCount) begin : gen_absent
      assign sig_eff[s] = 1'b0;
    end else if (Off >= 32'sh27 && Off <= 32'sh2a) begin : gen_user
      assign sig_eff[s] = user_q[Off - 32'sh27];
    end else if (Off == 32'sh2c) begin : gen_paused
      assign sig_eff[s] = paused;
    end else if (Off == 32'sh2e) begin : gen_periodic
      assign sig_eff[s] = periodic;
    end else if (Off >= 32'sh30 && Off <= 32'sh37) begin : gen_dom_event
      assign sig_eff[s] = dom_event_view[32'sh37 - Off];
    end else if (Off >= 32'sh38 && Off <= 32'sh3f) begin : gen_dom_flag
      assign sig_eff[s] = dom_flag_view[32'sh3f - Off];
    end else begin : gen_external
      assign sig_eff[s] = sig_i[s];
    end
  end

  // Only part of sig_i is wired (internal positions and s >= SigCount are
  // not); the own-domain bits of the imports are replaced by the own signals.
  logic unused_sig;
  assign unused_sig = ^{sig_i, imp_event_cont_i[DomIdx], imp_event_pulse_i[DomIdx],
                        imp_flag_cont_i[DomIdx], imp_flag_pulse_i[DomIdx]};

  ////////////////////////////////////////////////////////////////////////////
  // Writes with side effects (S25.3, S25.4, S25.5, S25.7)
  ////////////////////////////////////////////////////////////////////////////

  logic abort, single_start, quad_ack, quad_enter, swap;
  logic [pcnt_pkg::NumQuadCtr-1:0] shadow_we;

  // S25.5: SINGLE_ABORT_TRIGGER (the only register of GfDomRegAborts) and a CTRL
  // write leaving or not entering SINGLE abort; SINGLE_BEGIN_TRIGGER starts
  // in MODE = SINGLE only.
  assign abort        = |(we & pcnt_gf_reg_pkg::GfDomRegAborts)
                      | (we[pcnt_gf_reg_pkg::GfRegCtrl] & (wr_mode != 3'd1));
  assign single_start = we[pcnt_gf_reg_pkg::GfRegSingleBeginTrigger] & mode_single;
  assign quad_ack     = we[pcnt_gf_reg_pkg::GfRegQuadAckTrigger]
                      & reg_wdata_i[pcnt_gf_reg_pkg::GfQuadAckTriggerAckLsb];
  // S17, S25.2: a CTRL write that changes MODE to QUAD from another mode.
  assign quad_enter   = we[pcnt_gf_reg_pkg::GfRegCtrl] & ~mode_quad & (wr_mode == 3'd2);
  // S25.3: the raw signal SWAP_SRC selects; no other swap source.
  assign swap         = sig_eff[swap_src[pcnt_gf_reg_pkg::GfSwapSrcSwapLsb +:
                                         pcnt_gf_reg_pkg::GfSwapSrcSwapWidth]];

  // S25.4: the NEXT registers write the running shadows.
  assign shadow_we[pcnt_pkg::QuadCycles] = we[pcnt_gf_reg_pkg::GfRegCtrCyclesNext];
  assign shadow_we[pcnt_pkg::QuadEvent]  = we[pcnt_gf_reg_pkg::GfRegCtrEventNext];
  assign shadow_we[pcnt_pkg::QuadStart]  = we[pcnt_gf_reg_pkg::GfRegCtrStartNext];
  assign shadow_we[pcnt_pkg::QuadPre]    = we[pcnt_gf_reg_pkg::GfRegCtrPreNext];
  assign shadow_we[pcnt_pkg::QuadStop]   = we[pcnt_gf_reg_pkg::GfRegCtrStopNext];

  ////////////////////////////////////////////////////////////////////////////
  // USER signals (S25.7) and STATE flops (S25.6)
  ////////////////////////////////////////////////////////////////////////////

  logic swap_prev_q, swap_prev_d;
  logic pre_prev_q, pre_prev_d, start_prev_q, start_prev_d, stop_prev_q, stop_prev_d;

  always_comb begin
    user_d       = user_q & ~pulse_q;
    pulse_d      = pulse_q;
    swap_prev_d  = swap;
    pre_prev_d   = in_pre;
    start_prev_d = in_start;
    stop_prev_d  = in_stop;
    if (we[pcnt_gf_reg_pkg::GfRegUserTrigger]) begin
      user_d  = reg_wdata_i[pcnt_gf_reg_pkg::GfUserTriggerValLsb +:
                            pcnt_gf_reg_pkg::GfUserTriggerValWidth];
      pulse_d = reg_wdata_i[pcnt_gf_reg_pkg::GfUserTriggerPulseLsb +:
                            pcnt_gf_reg_pkg::GfUserTriggerPulseWidth];
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      user_q       <= 4'd0;
      pulse_q      <= 4'd0;
      swap_prev_q  <= 1'b0;
      pre_prev_q   <= 1'b0;
      start_prev_q <= 1'b0;
      stop_prev_q  <= 1'b0;
    end else if (tick_i) begin
      user_q       <= user_d;
      pulse_q      <= pulse_d;
      swap_prev_q  <= swap_prev_d;
      pre_prev_q   <= pre_prev_d;
      start_prev_q <= start_prev_d;
      stop_prev_q  <= stop_prev_d;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Counting engine (S1..S7, S10, S12, S13, S16..S18, S25.3, S25.4, S25.5)
  ////////////////////////////////////////////////////////////////////////////

  pcnt_dom_core u_core (
    .clk_i,
    .rst_ni,
    .tick_i,
    // GT215: the G92+ replace bits act (D2 remaps GF100's into them).
    .gen_i              (pcnt_reg_pkg::GenGt215),
    .sig_eff_i          (sig_eff),
    // No own SETFLAG_SRC/CLRFLAG_SRC on GF100 (flag_src 0).
    .src_i              ({32'h0, 32'h0, stop_src, event_src, start_src, pre_src}),
    .pre_op_i           (pre_op_e),
    .start_op_i         (start_op_e),
    .event_op_i         (event_op),
    .stop_op_i          (stop_op),
    .setflag_op_i       (setflag_op_e),
    .clrflag_op_i       (clrflag_op_e),
    .threshold_i        ({8'h0, threshold}),
    .mode_single_i      (mode_single),
    .mode_quad_i        (mode_quad),
    .ctr_mode_i         (ctr_mode),
    .event_ctr_period_i (event_ctr_period),
    .periodic_period_i  (periodic_period),
    .periodic_reset_i,
    .wide_counters_i    (1'b0),
    .flag_src_i         (1'b0),
    .start_i            (single_start),
    .abort_i            (abort),
    .swap_i             (swap),
    .ack_i              (quad_ack),
    .quad_enter_i       (quad_enter),
    .init_pre_we_i      (we[pcnt_gf_reg_pkg::GfRegCtrPre]),
    .init_stop_we_i     (we[pcnt_gf_reg_pkg::GfRegCtrStop]),
    .wdata_i            (reg_wdata_i),
    .shadow_we_i        (shadow_we),
    .shadow_wdata_i     (reg_wdata_i),
    .ctr_cycles_o       (ctr_cycles),
    .ctr_event_o        (ctr_event),
    .ctr_start_o        (ctr_start),
    .ctr_pre_o          (ctr_pre),
    .ctr_stop_o         (ctr_stop),
    .shadow_o           (shadow),
    .quad_state_o       (quad_state),
    .single_o           (single_state),
    .flag_o             (flag),
    .flag_sig_o         (flag_sig),
    .event_sig_o        (event_sig),
    .periodic_o         (periodic),
    .sel_o              (sel),
    .sel_prev_o         (sel_prev),
    .in_pre_o           (in_pre),
    .in_start_o         (in_start),
    .in_event_o         (in_event),
    .in_stop_o          (in_stop),
    .in_setflag_o       (in_setflag),
    .in_clrflag_o       (in_clrflag),
    .event_cnt_o,
    .flag_cnt_o
  );

  // 32-bit counters (wide_counters 0): bits 39:32 stay 0. SETFLAG_SRC /
  // CLRFLAG_SRC selections (sel[23:16]) select signal 0 and are unread; the
  // previous-tick selections the STATE register does not show, and the
  // SETFLAG/CLRFLAG results, have no reader here.
  logic unused_core;
  assign unused_core = ^{ctr_cycles[39:32], ctr_event[39:32], ctr_start[39:32], sel[23:16],
                         sel_prev[23:16], sel_prev[1:0], sel_prev[5:4], in_event,
                         in_setflag, in_clrflag};

  assign event_o = event_sig;
  // Other domains synchronize the FLAG register itself (S16), as pcnt_domain.
  assign flag_o  = flag;

  ////////////////////////////////////////////////////////////////////////////
  // Register view (S25.0, S8, S25.4, S25.6, S25.7, S25.9, S25.10)
  ////////////////////////////////////////////////////////////////////////////

  logic [31:0] state_word, src_status;

  always_comb begin
    state_word = 32'h0;
    state_word[pcnt_gf_reg_pkg::GfStateSingleStateLsb +: 2] = single_state;
    state_word[pcnt_gf_reg_pkg::GfStateQuadStateLsb +: 2]   = quad_state;
    state_word[pcnt_gf_reg_pkg::GfStateFlagNextLsb]         = flag;
    state_word[pcnt_gf_reg_pkg::GfStateFlagCurLsb]          = flag_sig;
    // Parity of the Gray edge count = bit 0 of the binary count (S25.6).
    state_word[pcnt_gf_reg_pkg::GfStateEventToggleLsb]      = ^event_cnt_o;
    state_word[pcnt_gf_reg_pkg::GfStateEventSrcLsb +: 4]    = sel_prev[11:8];
    state_word[pcnt_gf_reg_pkg::GfStateSwapLsb]             = swap_prev_q;
    state_word[pcnt_gf_reg_pkg::GfStateStopSrcLsb +: 4]     = sel_prev[15:12];
    state_word[pcnt_gf_reg_pkg::GfStatePreSrc2Lsb]          = sel_prev[2];
    state_word[pcnt_gf_reg_pkg::GfStatePreSrc3Lsb]          = sel_prev[3];
    state_word[pcnt_gf_reg_pkg::GfStateStartSrc2Lsb]        = sel_prev[6];
    state_word[pcnt_gf_reg_pkg::GfStateStartSrc3Lsb]        = sel_prev[7];
    state_word[pcnt_gf_reg_pkg::GfStateEventLsb]            = event_sig;
    state_word[pcnt_gf_reg_pkg::GfStatePreLsb]              = pre_prev_q;
    state_word[pcnt_gf_reg_pkg::GfStateStartLsb]            = start_prev_q;
    state_word[pcnt_gf_reg_pkg::GfStateStopLsb]             = stop_prev_q;
  end

  // S25.10: 15:0 PRE/START/EVENT/STOP_SRC[0..3]; 19:16 SETFLAG's arguments
  // START_SRC[2], START_SRC[3], PRE_SRC[0], PRE_SRC[1]; 23:20 CLRFLAG's
  // PRE_SRC[2], PRE_SRC[3], START_SRC[0], START_SRC[1].
  assign src_status = {8'h0, sel[5:2], sel[1:0], sel[7:6], sel[15:0]};

  always_comb begin
    // Stored bits everywhere; registers without storage read 0 from cfg.
    reg_rd_o = cfg;
    for (int unsigned i = 0; i < pcnt_gf_reg_pkg::GfSigStatusCount; i++) begin
      reg_rd_o[(pcnt_gf_reg_pkg::GfRegSigStatus + i) * 32 +: 32] = sig_eff[i * 32 +: 32];
    end
    reg_rd_o[pcnt_gf_reg_pkg::GfRegSrcStatus * 32 +: 32]       = src_status;
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrCycles * 32 +: 32]       = ctr_cycles[31:0];
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrEvent  * 32 +: 32]       = ctr_event[31:0];
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrStart  * 32 +: 32]       = ctr_start[31:0];
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrPre    * 32 +: 32]       = ctr_pre;
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrStop   * 32 +: 32]       = ctr_stop;
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrl * 32 + pcnt_gf_reg_pkg::GfCtrlQuadStateLsb +:
             pcnt_gf_reg_pkg::GfCtrlQuadStateWidth] = quad_state;
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrl * 32 + pcnt_gf_reg_pkg::GfCtrlSingleStateLsb +:
             pcnt_gf_reg_pkg::GfCtrlSingleStateWidth] = single_state;
    // S25.4: the running shadows; CTR_CYCLES_NEXT_RO reads the cycles shadow too.
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrCyclesNextRo * 32 +: 32] =
        shadow[pcnt_pkg::QuadCycles * 32 +: 32];
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrCyclesNext * 32 +: 32] =
        shadow[pcnt_pkg::QuadCycles * 32 +: 32];
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrEventNext * 32 +: 32] =
        shadow[pcnt_pkg::QuadEvent * 32 +: 32];
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrStartNext * 32 +: 32] =
        shadow[pcnt_pkg::QuadStart * 32 +: 32];
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrPreNext * 32 +: 32] =
        shadow[pcnt_pkg::QuadPre * 32 +: 32];
    reg_rd_o[pcnt_gf_reg_pkg::GfRegCtrStopNext * 32 +: 32] =
        shadow[pcnt_pkg::QuadStop * 32 +: 32];
    reg_rd_o[pcnt_gf_reg_pkg::GfRegState * 32 +: 32]       = state_word;
    reg_rd_o[pcnt_gf_reg_pkg::GfRegUserTrigger * 32 +: 32] = {24'h0, pulse_q, user_q};
  end

  ////////////////////////////////////////////////////////////////////////////
  // Assertions
  ////////////////////////////////////////////////////////////////////////////

  // Writes come only in a tick of this domain (APB wait states, S15).
  `PRIM_ASSERT_IMPLIES(WeOnlyAtTick_A, reg_we_i, tick_i)
  // The ro mask of STATE covers exactly the bits the view drives.
  `PRIM_ASSERT(StateInRoMask_A,
               (state_word & ~pcnt_gf_reg_pkg::gf_dom_ro_mask(pcnt_gf_reg_pkg::GfRegState)) == 32'h0)

endmodule
