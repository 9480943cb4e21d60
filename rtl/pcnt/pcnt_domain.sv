// One PCOUNTER domain: register storage, signal selection, input calculation,
// FLAG, the single event counting process, quad event mode, the PERIODIC
// generator, the USER signals and the source side of the PULSE imports.
// Independent of the MMIO layout: registers are addressed by pcnt_reg_pkg
// view index only.
//
// Contract (docs/semantics.md; seed 003 "Input selection", "Counters",
// "Special counter modes", "Control registers", "Single event mode",
// "Quad event mode", "The flag", "The STATUS registers", "Trailer signals",
// "The EVENT and FLAG signals", "The USER signals", "The PERIODIC signal"):
// * Clock enable (S15): every flop of the domain advances only in a cycle
//   with tick_i = 1 (a *tick*) and holds otherwise; "cycle t" below means
//   tick t. The combinational view (reg_rd_o, SRC_STATUS, SIG_STATUS) follows
//   the inputs of the current bus cycle also between ticks. The front-end
//   raises reg_we_i only in a tick (APB wait states), so every write is
//   consumed at a tick; inputs are seen by the logic only at ticks.
// * Cycle model (S0, S1): everything below is computed from the state of
//   tick t and the inputs of tick t and committed at the edge ending it. A
//   write (one-hot reg_we_i, already filtered for presence and PSTRB by the
//   front-end) is stored masked by dom_rw_mask(idx, gen_i); the counting of
//   tick t uses the old register values.
// * Abort (S1, S2): a write to a register with DomRegAborts set forces the
//   state of tick t to INACTIVE before the state switch runs, so that tick
//   neither counts nor updates the FLAG (single event mode). A PRE_OP write
//   with CTRL.MODE = SINGLE starts the process in any state (a running one
//   restarts: counters initialised, FLAG cleared, WAIT_FOR_PRE from t+1);
//   in other modes it is only stored (and swaps in quad mode on G84+, S17).
// * State switch S12, counters S5/S6/S7: from NV30 on all six counters
//   saturate at 32'hffffffff (sat_add32) and never wrap; CTR_PRE/CTR_STOP
//   decrement only when != 0. CTR_CYCLES_ALT is an exact copy of CTR_CYCLES
//   (S5), so both read the same register.
// * 40-bit counters (S24, NV10, NV15, NV20 = feat_wide_counters): CTR_CYCLES
//   (and so CTR_CYCLES_ALT), CTR_EVENT and CTR_START are 40 bits; counting
//   adds to the low 39 bits modulo 2^39 and a carry out of bit 38 sets bit
//   39, which counting never clears (sticky_add40). Every clear (process
//   start, START, reset) clears all 40 bits. CTR_PRE/CTR_STOP stay 32-bit
//   saturating. The STOP compare is 40-bit: CTR_EVENT' >= {THRESHOLD_HI[7:0],
//   THRESHOLD}. On NV30+ bits 39:32 stay 0 and THRESHOLD_HI is never
//   written (not present), so the rules above are today's 32-bit ones.
// * Own flag selections (S24, NV10, NV15, NV20 = feat_flag_src): SETFLAG's
//   SRC[0..3] are SETFLAG_SRC's four selected signals and CLRFLAG's are
//   CLRFLAG_SRC's, with the delay bits on their previous-tick SRC[0]/SRC[1];
//   from NV30 on the shared START_SRC/PRE_SRC arguments of S10.
// * Quad event mode (S17), while the stored CTRL.MODE = QUAD: five invisible
//   shadow counters; per tick (1) QUAD_ACK_TRIGGER bit 0 acks (VALID ->
//   EMPTY, OVERFLOW -> VALID), (2) a swap (SWAP = signal SPEC_SRC.SWAP on
//   G84+, PM_TRIGGER on NV40, or a PRE_OP write on G84+) copies the shadows
//   to CTR_*, clears them and bumps QUAD_STATE (EMPTY -> VALID -> OVERFLOW),
//   (3) the tick's increments are added to the shadows, so a swap tick's
//   events count for the new period. Increments: cycles +1, EVENT by the S6
//   CTR_EVENT column, START +START (EXTRA_B4: +B4, EXTRA_B6_EVENT_B2: +B6),
//   PRE +PRE, STOP +STOP, all saturating. A CTRL write that changes MODE to
//   QUAD from another mode clears the shadows and QUAD_STATE (that tick still
//   runs the old mode). The single event state stays INACTIVE throughout.
// * FLAG (S3, S13, S17): CLRFLAG wins over SETFLAG; frozen in INACTIVE while
//   CTRL.MODE = SINGLE; follows SETFLAG/CLRFLAG every tick in other modes.
//   The FLAG signal and the EVENT signal are one-tick registered copies of
//   FLAG and of the EVENT logic-op result (S3, S4): that register is what
//   breaks every selection loop through DOM[own].EVENT.
// * Imports (S16, S22): event_cnt_o / flag_cnt_o (prim_edge_cnt) count the
//   ticks at which the EVENT / FLAG signal rises (event_sig_d & ~event_sig_q),
//   at the same edge as the signal. Other domains' EVENT/FLAG arrive synchronized
//   (imp_*_cont_i from prim_sync_2ff, imp_*_pulse_i from prim_pulse_sync, on
//   this domain's ticks, bit k = domain k); CTRL.EVENT_IMPORT_MODE /
//   FLAG_IMPORT_MODE (0 CONTINUOUS, 1 PULSE) select per signal kind. The own
//   bit of each vector is unused (own signals are connected directly); the
//   top ties absent domains' bits to 0.
// * PERIODIC (S18, G84+): 17-bit counter and registered output; with
//   P = 0x400 << (PERIODIC_PERIOD - 1): held at 0 while
//   periodic_reset_i (GCTRL.PERIODIC_RESET, S20) or PERIODIC_PERIOD = 0;
//   else cnt >= P - 1 wraps to 0 and raises PERIODIC for one tick.
// * USER (S19, GT215): a USER_TRIGGER write sets user = data[1:0],
//   pulse = data[3:2]; every other tick user <= user & ~pulse.
// * Signals (S9): sig_i beyond SigCount reads 0; internal trailer positions
//   (the external input there is ignored): USER_0/USER_1 at UserPos and
//   UserPos + 1 on GT215 (S19). Trailer by generation (S24), NV40+
//   (feat_trailer40): +0x0c ZERO and +0x0d PERIODIC on G84+; +0x0e
//   WRCACHE_FLUSH on G84+ (ZERO on NV40); +0x0f PM_TRIGGER (both
//   synchronized pulses, S22); +0x10+(7-k) DOM[k].EVENT, +0x18+(7-k)
//   DOM[k].FLAG. NV20, NV30 (feat_trailer20): +0x1d PM_TRIGGER (this
//   domain's synchronized pulse), +0x1e DOM[1].FLAG, +0x1f DOM[0].FLAG.
//   NV10, NV15: +0x1f the own FLAG signal only. The own domain's FLAG is the
//   FLAG signal, another's the import CTRL.FLAG_IMPORT_MODE selects (always
//   CONTINUOUS before NV40: the field is not stored). Other positions are
//   the external inputs. The 24 selected signals (16 of the SRC_STATUS
//   order, then SETFLAG_SRC, CLRFLAG_SRC) are registered at every tick for
//   the delay bits (S10, S24).
// * Register view reg_rd_o (S8, S11): what a read returns this cycle. Stored
//   rw bits; CTRL adds QUAD_STATE and SINGLE_STATE of this tick; counters
//   read their current value; write-only registers and bits read 0;
//   SRC_STATUS and SIG_STATUS show this cycle's signals. The 40-bit
//   counters (S24) are read live, nothing latched: CTR_CYCLES,
//   CTR_CYCLES_ALT, CTR_EVENT, CTR_START show bits 31:0, their _HI views
//   {24'h0, bits 39:32} (on every generation; 0 on 32-bit ones).
// * Record mode (S21, G84+, CTRL.MODE = RECORD): pcnt_record counts the 12
//   raw selected signals (SRC_STATUS bits 0..11) and the STOP logic-op
//   output; RECORD_STATUS reads its position and FAULT; CTRL.FAULT_CLEAR
//   (write-only) clears FAULT; rec_bound_i (the channel binding) decides
//   whether a send writes memory or faults. The single/quad counters hold in record mode.
// * Reset (S8, S16..S19, S21): every register and internal state is 0, state
//   INACTIVE, QUAD_STATE EMPTY.
`include "pcnt_assert.svh"

module pcnt_domain #(
  parameter int unsigned DomIdx      = 0,
  parameter logic [7:0]  TrailerBase = 8'he0,
  parameter int unsigned SigCount    = 256,
  // Signal position of USER_0 (USER_1 is the next one), GT215 (S19): the
  // envytools tables place them per domain (0x2a in the G80:GF100 host
  // domain, 0x69 in core clock A, ...).
  parameter int unsigned UserPos     = 32'hea
) (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  logic                                    tick_i,
  input  pcnt_reg_pkg::gen_e                      gen_i,
  input  logic [255:0]                            sig_i,
  input  logic [7:0]                              imp_event_cont_i,
  input  logic [7:0]                              imp_event_pulse_i,
  input  logic [7:0]                              imp_flag_cont_i,
  input  logic [7:0]                              imp_flag_pulse_i,
  // PM_TRIGGER / WRCACHE_FLUSH pulses after this domain's pulse
  // synchronizers (pcnt_top, S22): one tick per bus-clock pulse.
  input  logic                                    pm_trigger_i,
  input  logic                                    wrcache_flush_i,
  input  logic                                    periodic_reset_i,
  input  logic [pcnt_reg_pkg::NumDomRegs-1:0]     reg_we_i,
  input  logic [31:0]                             reg_wdata_i,
  output logic [pcnt_reg_pkg::NumDomRegs*32-1:0]  reg_rd_o,
  output logic                                    event_o,
  output logic                                    flag_o,
  output logic [pcnt_pkg::PulseCntW-1:0]          event_cnt_o,
  output logic [pcnt_pkg::PulseCntW-1:0]          flag_cnt_o,
  // Record mode (S21): GCTRL.RECORD_RESET, the channel binding, and the slot
  // towards pcnt_axi_wr.
  input  logic                                    record_reset_i,
  input  logic                                    rec_bound_i,
  input  logic                                    rec_done_i,
  input  logic                                    rec_err_i,
  output logic                                    rec_busy_o,
  output logic [255:0]                            rec_pkt_o,
  output logic [39:0]                             rec_addr_o,
  output logic                                    rec_long_o
);

  localparam int unsigned NumRegs      = pcnt_reg_pkg::NumDomRegs;
  localparam int unsigned NumSigStatus = pcnt_reg_pkg::SigStatusCount;
  localparam int unsigned TrailerLo    = 32'(TrailerBase) + pcnt_pkg::TrailerFirst;
  localparam int unsigned TrailerHi    = 32'(TrailerBase) + pcnt_pkg::TrailerSize - 1;
  localparam int unsigned QuadW        = pcnt_pkg::NumQuadCtr * 32;
  localparam int unsigned PerW         = pcnt_pkg::PeriodicCntW;

  // The SIG_STATUS array must cover the whole signal space (S9).
  if (NumSigStatus * 32 != pcnt_pkg::NumSignals) begin : gen_sig_status_check
    $error("pcnt_domain: SIG_STATUS registers do not cover the signal space");
  end

  ////////////////////////////////////////////////////////////////////////////
  // Register storage (S8)
  ////////////////////////////////////////////////////////////////////////////

  // cfg holds the stored rw bits of every view register, 0 where nothing is
  // stored. Flops exist only for registers that store bits on some
  // generation; bits a generation lacks are masked on write, so they stay 0.
  logic [NumRegs*32-1:0] cfg;

  for (genvar r = 0; r < NumRegs; r++) begin : gen_store
    localparam logic [31:0] StoreMask = pcnt_reg_pkg::dom_store_mask(r);
    // SPEC_SRC.SWAP resets to this domain's PM_TRIGGER trailer signal (S2,
    // S8: inferred from the Linux driver, which never writes SPEC_SRC and
    // samples by PM_TRIGGER); every other stored bit resets to 0.
    localparam logic [31:0] ResetVal = (r == pcnt_reg_pkg::RegSpecSrc)
        ? {24'h0, TrailerBase + 8'(pcnt_pkg::TrailerPmTrigger)} : 32'h0;
    if (StoreMask != 32'h0) begin : gen_ff
      logic [31:0] store_d, store_q;
      assign store_d = reg_we_i[r] ? (reg_wdata_i & pcnt_reg_pkg::dom_rw_mask(r, gen_i))
                                   : store_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          store_q <= ResetVal;
        end else if (tick_i) begin
          store_q <= store_d;
        end
      end
      if (ResetVal != 32'h0) begin : gen_reset_val
        // A register with a non-zero reset value reads 0 on a generation
        // that lacks it (SPEC_SRC on NV40, S8).
        assign cfg[r*32 +: 32] = store_q & pcnt_reg_pkg::dom_rw_mask(r, gen_i);
      end else begin : gen_reset_zero
        assign cfg[r*32 +: 32] = store_q;
      end
    end else begin : gen_none
      assign cfg[r*32 +: 32] = 32'h0;
    end
  end

  logic [31:0] pre_src, start_src, event_src, stop_src;
  logic [31:0] pre_op, start_op, event_op, stop_op, setflag_op, clrflag_op;
  logic [31:0] threshold, ctrl, spec_src;
  logic [31:0] setflag_src, clrflag_src, threshold_hi;

  assign pre_src    = cfg[pcnt_reg_pkg::RegPreSrc    * 32 +: 32];
  assign start_src  = cfg[pcnt_reg_pkg::RegStartSrc  * 32 +: 32];
  assign event_src  = cfg[pcnt_reg_pkg::RegEventSrc  * 32 +: 32];
  assign stop_src   = cfg[pcnt_reg_pkg::RegStopSrc   * 32 +: 32];
  assign pre_op     = cfg[pcnt_reg_pkg::RegPreOp     * 32 +: 32];
  assign start_op   = cfg[pcnt_reg_pkg::RegStartOp   * 32 +: 32];
  assign event_op   = cfg[pcnt_reg_pkg::RegEventOp   * 32 +: 32];
  assign stop_op    = cfg[pcnt_reg_pkg::RegStopOp    * 32 +: 32];
  assign setflag_op = cfg[pcnt_reg_pkg::RegSetflagOp * 32 +: 32];
  assign clrflag_op = cfg[pcnt_reg_pkg::RegClrflagOp * 32 +: 32];
  assign threshold  = cfg[pcnt_reg_pkg::RegThreshold * 32 +: 32];
  assign ctrl       = cfg[pcnt_reg_pkg::RegCtrl      * 32 +: 32];
  assign spec_src   = cfg[pcnt_reg_pkg::RegSpecSrc   * 32 +: 32];
  // NV10:NV30 only (S24): not present elsewhere, so never written there and 0.
  assign setflag_src  = cfg[pcnt_reg_pkg::RegSetflagSrc  * 32 +: 32];
  assign clrflag_src  = cfg[pcnt_reg_pkg::RegClrflagSrc  * 32 +: 32];
  assign threshold_hi = cfg[pcnt_reg_pkg::RegThresholdHi * 32 +: 32];

  // THRESHOLD_HI stores bits 7:0 (the threshold's bits 39:32, S24).
  logic unused_threshold_hi;
  assign unused_threshold_hi = ^threshold_hi[31:8];

  // SPEC_SRC.UNK8 is stored and read back only ("purpose unknown", seed 003
  // "Input selection"); only SPEC_SRC.SWAP acts (S17).
  logic unused_spec_src;
  assign unused_spec_src = ^spec_src[31:pcnt_reg_pkg::SpecSrcSwapWidth];

  logic [1:0] mode;
  logic [2:0] ctr_mode;
  logic       event_ctr_period;
  logic       mode_single, mode_quad;
  logic       event_import_pulse, flag_import_pulse;
  logic [2:0] periodic_period;
  // Feature flags of the generation (regmap pcnt_features, docs/registers.md).
  logic       feat_periodic, feat_wrcache_flush, feat_swap_src, feat_pre_op_swap;
  logic       feat_record, feat_user_signals;
  logic       feat_wide_counters, feat_flag_src, feat_trailer20, feat_trailer40;

  assign mode               = ctrl[pcnt_reg_pkg::CtrlModeLsb +: pcnt_reg_pkg::CtrlModeWidth];
  assign ctr_mode           = ctrl[pcnt_reg_pkg::CtrlCtrModeLsb +: pcnt_reg_pkg::CtrlCtrModeWidth];
  assign event_ctr_period   = ctrl[pcnt_reg_pkg::CtrlEventCtrPeriodLsb];
  assign event_import_pulse = ctrl[pcnt_reg_pkg::CtrlEventImportModeLsb];
  assign flag_import_pulse  = ctrl[pcnt_reg_pkg::CtrlFlagImportModeLsb];
  assign periodic_period    = ctrl[pcnt_reg_pkg::CtrlPeriodicPeriodLsb +:
                                   pcnt_reg_pkg::CtrlPeriodicPeriodWidth];
  assign mode_single        = (mode == pcnt_pkg::ModeSingle);
  assign mode_quad          = (mode == pcnt_pkg::ModeQuad);
  assign feat_periodic      = pcnt_reg_pkg::feat_periodic(gen_i);
  assign feat_wrcache_flush = pcnt_reg_pkg::feat_wrcache_flush(gen_i);
  assign feat_swap_src      = pcnt_reg_pkg::feat_swap_src(gen_i);
  assign feat_pre_op_swap   = pcnt_reg_pkg::feat_pre_op_swap(gen_i);
  assign feat_record        = pcnt_reg_pkg::feat_record(gen_i);
  assign feat_user_signals  = pcnt_reg_pkg::feat_user_signals(gen_i);
  assign feat_wide_counters = pcnt_reg_pkg::feat_wide_counters(gen_i);
  assign feat_flag_src      = pcnt_reg_pkg::feat_flag_src(gen_i);
  assign feat_trailer20     = pcnt_reg_pkg::feat_trailer20(gen_i);
  assign feat_trailer40     = pcnt_reg_pkg::feat_trailer40(gen_i);

  // Hidden initial values of CTR_PRE / CTR_STOP: a write to the counter's
  // address sets them, a read shows the counter (S8; seed "Counters").
  logic [31:0] pre_init_d, pre_init_q, stop_init_d, stop_init_q;

  assign pre_init_d  = reg_we_i[pcnt_reg_pkg::RegCtrPre]  ? reg_wdata_i : pre_init_q;
  assign stop_init_d = reg_we_i[pcnt_reg_pkg::RegCtrStop] ? reg_wdata_i : stop_init_q;

  ////////////////////////////////////////////////////////////////////////////
  // Signals, trailer and selection (S9, S10)
  ////////////////////////////////////////////////////////////////////////////

  logic flag_q, flag_d;
  logic flag_sig_q, flag_sig_d;
  logic event_sig_q, event_sig_d;
  logic periodic_q, periodic_d;
  logic [1:0] user_q, user_d;

  // DOM[k].EVENT / DOM[k].FLAG as this domain sees them: its own signals
  // directly (S3, S4), another domain's through the import CTRL selects.
  logic [7:0] dom_event_view, dom_flag_view;

  for (genvar k = 0; k < 8; k++) begin : gen_dom_view
    if (k == DomIdx) begin : gen_own
      // Own signals bypass the cross-domain import (S3, S4, S16).
      assign dom_event_view[k] = event_sig_q;
      assign dom_flag_view[k]  = flag_sig_q;
    end else begin : gen_other
      // Both synchronizers always run; CTRL only selects the output (S16).
      // Before NV40 the import mode fields are not stored: CONTINUOUS (S24).
      assign dom_event_view[k] = event_import_pulse ? imp_event_pulse_i[k] : imp_event_cont_i[k];
      assign dom_flag_view[k]  = flag_import_pulse  ? imp_flag_pulse_i[k]  : imp_flag_cont_i[k];
    end
  end

  // Internal trailer signals of the NV40:GF100 list (S9), indexed by offset
  // from the trailer base.
  logic [pcnt_pkg::TrailerSize-1:pcnt_pkg::TrailerFirst] trailer40;

  // ZERO (+0x0c) and PERIODIC (+0x0d, S18) are G84+; on NV40 the seed lists
  // nothing there, so those positions stay external signals (S9).
  assign trailer40[pcnt_pkg::TrailerZero] =
      feat_periodic ? 1'b0 : sig_i[32'(TrailerBase) + pcnt_pkg::TrailerZero];
  assign trailer40[pcnt_pkg::TrailerPeriodic] =
      feat_periodic ? periodic_q : sig_i[32'(TrailerBase) + pcnt_pkg::TrailerPeriodic];
  assign trailer40[pcnt_pkg::TrailerWrcache]   = feat_wrcache_flush & wrcache_flush_i;
  assign trailer40[pcnt_pkg::TrailerPmTrigger] = pm_trigger_i;

  for (genvar k = 0; k < 8; k++) begin : gen_dom_trailer
    assign trailer40[pcnt_pkg::TrailerDomEvent + 7 - k] = dom_event_view[k];
    assign trailer40[pcnt_pkg::TrailerDomFlag  + 7 - k] = dom_flag_view[k];
  end

  // The trailer of this generation (S24): the NV40 list, the NV20:NV40 list
  // (+0x1d PM_TRIGGER, +0x1e DOM[1].FLAG, +0x1f DOM[0].FLAG) or the NV10:NV20
  // one (+0x1f own FLAG); every other position is the external input. The
  // positions are constants, only the choice is made at run time.
  logic [pcnt_pkg::TrailerSize-1:pcnt_pkg::TrailerFirst] trailer;

  for (genvar p = pcnt_pkg::TrailerFirst; p < pcnt_pkg::TrailerSize; p++) begin : gen_trailer_gen
    localparam int unsigned Pos = 32'(TrailerBase) + p;
    logic t20, t10;
    if (p == pcnt_pkg::TrailerNv20PmTrigger) begin : gen_pm_trigger
      assign t20 = pm_trigger_i;
      assign t10 = sig_i[Pos];
    end else if (p == pcnt_pkg::TrailerNv10Flag) begin : gen_dom0_flag
      // +0x1f: DOM[0].FLAG on NV20:NV40, the own FLAG on NV10:NV20.
      assign t20 = dom_flag_view[0];
      assign t10 = flag_sig_q;
    end else if (p == pcnt_pkg::TrailerNv20DomFlag) begin : gen_dom1_flag
      // +0x1e: DOM[1].FLAG; an absent domain 1's bit is tied to 0 by the top.
      assign t20 = dom_flag_view[1];
      assign t10 = sig_i[Pos];
    end else begin : gen_ext
      assign t20 = sig_i[Pos];
      assign t10 = sig_i[Pos];
    end
    assign trailer[p] = feat_trailer40 ? trailer40[p] : (feat_trailer20 ? t20 : t10);
  end

  // The effective signal vector of this domain, what SIG_STATUS shows.
  logic [pcnt_pkg::NumSignals-1:0] sig_eff;

  for (genvar s = 0; s < pcnt_pkg::NumSignals; s++) begin : gen_sig
    if (s >= SigCount) begin : gen_absent
      assign sig_eff[s] = 1'b0;
    end else if (s >= TrailerLo && s <= TrailerHi) begin : gen_trailer
      assign sig_eff[s] = trailer[s - 32'(TrailerBase)];
    end else if (s == UserPos || s == UserPos + 1) begin : gen_user
      // USER_0/USER_1 on GT215 (S19); before GT215 an external signal (S9).
      assign sig_eff[s] = feat_user_signals ? user_q[s - UserPos] : sig_i[s];
    end else begin : gen_external
      assign sig_eff[s] = sig_i[s];
    end
  end

  // Only part of sig_i is wired (internal trailer positions and
  // s >= SigCount are not), and the own-domain bits of the imports are
  // replaced by the own signals.
  logic unused_sig;
  assign unused_sig = ^{sig_i, imp_event_cont_i[DomIdx], imp_event_pulse_i[DomIdx],
                        imp_flag_cont_i[DomIdx], imp_flag_pulse_i[DomIdx]};

  // sel[g*4 + j] = signal selected by field j of PRE/START/EVENT/STOP_SRC,
  // SETFLAG_SRC, CLRFLAG_SRC (g = 0..5): bits 15:0 are the SRC_STATUS bit
  // order. SETFLAG_SRC/CLRFLAG_SRC (S24) store nothing from NV30 on, so
  // sel[23:16] then select signal 0; only feat_flag_src reads them.
  logic [6*32-1:0]              src_regs;
  logic [pcnt_pkg::NumSel-1:0]  sel;
  logic [pcnt_pkg::NumSel-1:0]  sel_prev_q, sel_prev_d;

  assign src_regs = {clrflag_src, setflag_src, stop_src, event_src, start_src, pre_src};

  for (genvar j = 0; j < pcnt_pkg::NumSel; j++) begin : gen_sel
    assign sel[j] = sig_eff[src_regs[j*8 +: 8]];
  end

  // Previous-tick selected values, updated at every tick in every state
  // (S10, S15).
  // All 24 are kept as S10 describes them; only SRC[0]/SRC[1] of each input
  // (and START_SRC[2,3], PRE_SRC[2,3] for the NV30+ SETFLAG/CLRFLAG) are ever
  // used, so EVENT_SRC[2,3], STOP_SRC[2,3], SETFLAG_SRC[2,3] and
  // CLRFLAG_SRC[2,3] have no reader and synthesis drops them.
  assign sel_prev_d = sel;

  logic unused_sel_prev;
  assign unused_sel_prev = ^{sel_prev_q[23:22], sel_prev_q[19:18],
                             sel_prev_q[15:14], sel_prev_q[11:10]};

  ////////////////////////////////////////////////////////////////////////////
  // Input calculation (S10)
  ////////////////////////////////////////////////////////////////////////////

  logic in_pre, in_start, in_event, in_stop, in_setflag, in_clrflag;

  // SETFLAG/CLRFLAG arguments (S24): their own selections SETFLAG_SRC /
  // CLRFLAG_SRC on NV10:NV30, the shared ones of S10 from NV30 on.
  logic [3:0] setflag_src_sel, clrflag_src_sel;
  logic [1:0] setflag_prev_sel, clrflag_prev_sel;

  // NV30+ SETFLAG args: START_SRC[2], START_SRC[3], PRE_SRC[0], PRE_SRC[1].
  assign setflag_src_sel = feat_flag_src ? sel[19:16] : {sel[1], sel[0], sel[7], sel[6]};
  assign setflag_prev_sel = feat_flag_src ? sel_prev_q[17:16] : {sel_prev_q[7], sel_prev_q[6]};
  // NV30+ CLRFLAG args: PRE_SRC[2], PRE_SRC[3], START_SRC[0], START_SRC[1].
  assign clrflag_src_sel = feat_flag_src ? sel[23:20] : {sel[5], sel[4], sel[3], sel[2]};
  assign clrflag_prev_sel = feat_flag_src ? sel_prev_q[21:20] : {sel_prev_q[3], sel_prev_q[2]};

  pcnt_logic_op #(.IsEventLike(1'b0)) u_setflag (
    .op_i       (setflag_op),
    .src_i      (setflag_src_sel),
    .src_prev_i (setflag_prev_sel),
    .setflag_i  (1'b0),
    .gen_i,
    .result_o   (in_setflag)
  );

  pcnt_logic_op #(.IsEventLike(1'b0)) u_clrflag (
    .op_i       (clrflag_op),
    .src_i      (clrflag_src_sel),
    .src_prev_i (clrflag_prev_sel),
    .setflag_i  (1'b0),
    .gen_i,
    .result_o   (in_clrflag)
  );

  pcnt_logic_op #(.IsEventLike(1'b0)) u_pre (
    .op_i       (pre_op),
    .src_i      (sel[3:0]),
    .src_prev_i (sel_prev_q[1:0]),
    .setflag_i  (1'b0),
    .gen_i,
    .result_o   (in_pre)
  );

  pcnt_logic_op #(.IsEventLike(1'b0)) u_start (
    .op_i       (start_op),
    .src_i      (sel[7:4]),
    .src_prev_i (sel_prev_q[5:4]),
    .setflag_i  (1'b0),
    .gen_i,
    .result_o   (in_start)
  );

  pcnt_logic_op #(.IsEventLike(1'b1)) u_event (
    .op_i       (event_op),
    .src_i      (sel[11:8]),
    .src_prev_i (sel_prev_q[9:8]),
    .setflag_i  (in_setflag),
    .gen_i,
    .result_o   (in_event)
  );

  pcnt_logic_op #(.IsEventLike(1'b1)) u_stop (
    .op_i       (stop_op),
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
    unique case (ctr_mode)
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
  // Writes with side effects (S1, S2, S17, S19)
  ////////////////////////////////////////////////////////////////////////////

  logic abort, pre_op_we, quad_ack_we, user_we, quad_enter;

  assign abort       = |(reg_we_i & pcnt_reg_pkg::DomRegAborts);
  assign pre_op_we   = reg_we_i[pcnt_reg_pkg::RegPreOp];
  assign quad_ack_we = reg_we_i[pcnt_reg_pkg::RegQuadAckTrigger]
                     & reg_wdata_i[pcnt_reg_pkg::QuadAckTriggerAckLsb];
  assign user_we     = reg_we_i[pcnt_reg_pkg::RegUserTrigger];
  // A CTRL write that changes MODE to QUAD from another mode (S17). MODE is
  // stored on every generation, so the written field is the new MODE.
  assign quad_enter  = reg_we_i[pcnt_reg_pkg::RegCtrl] & ~mode_quad
                     & (reg_wdata_i[pcnt_reg_pkg::CtrlModeLsb +: pcnt_reg_pkg::CtrlModeWidth]
                        == pcnt_pkg::ModeQuad);

  ////////////////////////////////////////////////////////////////////////////
  // Quad event mode (S17)
  ////////////////////////////////////////////////////////////////////////////

  // Shadow counters, packed at pcnt_pkg::Quad* indices (cycles, EVENT, START,
  // PRE, STOP). Invisible: CTR_* show the previous period.
  // The shadows are reachable by the harness backdoor (`poke`, S14).
  logic [QuadW-1:0] shadow_q /*verilator public_flat_rw*/;
  logic [QuadW-1:0] shadow_d;
  logic [QuadW-1:0] quad_inc, quad_old_inc, quad_new_inc, quad_old_set;
  logic             swap_sig, quad_swap, quad_ack;

  pcnt_pkg::quad_state_e quad_state_q, quad_state_d, quad_state_acked;

  // SWAP: the raw signal selected by SPEC_SRC.SWAP on G84+ (no logic
  // operation, S9 rule), PM_TRIGGER on NV40 (seed: "hardwired to
  // PGRAPH.PM_TRIGGER on NV30:G84"). A PRE_OP write also swaps on G84+.
  assign swap_sig  = feat_swap_src ? sig_eff[spec_src[pcnt_reg_pkg::SpecSrcSwapLsb +:
                                                pcnt_reg_pkg::SpecSrcSwapWidth]]
                             : pm_trigger_i;
  assign quad_swap = mode_quad & (swap_sig | (feat_pre_op_swap & pre_op_we));
  assign quad_ack  = mode_quad & quad_ack_we;

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

  always_comb begin
    shadow_d = shadow_q;
    if (quad_enter) begin
      // Entering QUAD from another mode: that tick still runs the old mode.
      shadow_d = '0;
    end else if (mode_quad) begin
      shadow_d = quad_swap ? quad_new_inc : quad_old_set;
    end
  end

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
    if (quad_enter) begin
      quad_state_d = pcnt_pkg::QuadEmpty;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // PERIODIC generator (S18) and USER signals (S19)
  ////////////////////////////////////////////////////////////////////////////

  // per_cnt_q is reachable by the harness backdoor (`poke`, S14).
  logic [PerW-1:0] per_cnt_q /*verilator public_flat_rw*/;
  logic [PerW-1:0] per_cnt_d, periodic_last;

  // P - 1 for P = 0x400 << (PERIODIC_PERIOD - 1); PERIODIC_PERIOD = 0 is
  // "disabled" and does not use it.
  always_comb begin
    periodic_last = 17'h003ff;
    unique case (periodic_period)
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

  // GCTRL.PERIODIC_RESET holds the generator at the start of its cycle. On
  // NV40 PERIODIC_PERIOD is not stored (reads 0), so the generator idles;
  // feat_periodic makes that explicit. A shorter period wraps at once (>=).
  always_comb begin
    per_cnt_d  = per_cnt_q + 17'd1;
    periodic_d = 1'b0;
    if (periodic_reset_i || !feat_periodic || (periodic_period == 3'd0)) begin
      per_cnt_d  = 17'd0;
    end else if (per_cnt_q >= periodic_last) begin
      per_cnt_d  = 17'd0;
      periodic_d = 1'b1;
    end
  end

  // USER_TRIGGER exists on GT215 only, so user_we never fires before it.
  logic [1:0] pulse_q, pulse_d;

  always_comb begin
    user_d  = user_q & ~pulse_q;
    pulse_d = pulse_q;
    if (user_we) begin
      user_d  = {reg_wdata_i[pcnt_reg_pkg::UserTriggerUser1Lsb],
                 reg_wdata_i[pcnt_reg_pkg::UserTriggerUser0Lsb]};
      pulse_d = {reg_wdata_i[pcnt_reg_pkg::UserTriggerPulse1Lsb],
                 reg_wdata_i[pcnt_reg_pkg::UserTriggerPulse0Lsb]};
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
  // does a PRE_OP write in single event mode (S2): the process restarts from
  // INACTIVE in the same tick, whatever state it was in.
  assign single_cur = (abort | (pre_op_we & mode_single)) ? pcnt_pkg::Inactive : single_q;

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
        if (!mode_single) begin
          // Single event mode does not run (QUAD, RECORD, 3); the FLAG
          // follows SETFLAG/CLRFLAG every tick, also in the tick of an
          // aborting write (S1, S3, S13, S17).
          flag_d = flag_next;
        end else if (pre_op_we) begin
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
          if (event_ctr_period == pcnt_pkg::EventCtrPeriodOne) begin
            ctr_event_d = 40'h0;
          end
          single_d = pcnt_pkg::Counting;
        end
      end

      pcnt_pkg::Counting: begin
        flag_d       = flag_next;
        // Every COUNTING cycle counts, the STOP cycle included (S5, S6);
        // 40-bit sticky on NV10:NV30, 32-bit saturating after (S24).
        ctr_cycles_d = pcnt_pkg::ctr_add(ctr_cycles_q, 32'd1, feat_wide_counters);
        ctr_event_d  = pcnt_pkg::ctr_add(ctr_event_q, event_inc, feat_wide_counters);
        ctr_pre_d    = pcnt_pkg::sat_add32(ctr_pre_q, extra_inc);
        if (in_stop) begin
          // THRESHOLD compares CTR_EVENT after this cycle's increment (S5),
          // over 40 bits with THRESHOLD_HI (S24; 0 where absent).
          if (ctr_event_d >= {threshold_hi[7:0], threshold}) begin
            ctr_start_d = pcnt_pkg::ctr_add(ctr_start_q, 32'd1, feat_wide_counters);
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
      user_q       <= 2'd0;
      pulse_q      <= 2'd0;
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
      user_q       <= user_d;
      pulse_q      <= pulse_d;
    end
  end

  assign event_o     = event_sig_q;
  // Other domains synchronize the FLAG register itself: "the state of FLAG
  // in domain x as of two domain y clocks ago" (seed; S16).
  assign flag_o      = flag_q;

  ////////////////////////////////////////////////////////////////////////////
  // Record mode (S21)
  ////////////////////////////////////////////////////////////////////////////

  logic [31:0] rec_status;

  pcnt_record u_record (
    .clk_i,
    .rst_ni,
    .tick_i,
    .record_mode_i  (feat_record & (mode == pcnt_pkg::ModeRecord)),
    .sel_i          (sel[11:0]),
    .stop_i         (in_stop),
    .record_reset_i,
    .bound_i        (rec_bound_i),
    .start_we_i     (reg_we_i[pcnt_reg_pkg::RegRecordStart]),
    .start_data_i   (reg_wdata_i[31:4]),
    .limit_i        (cfg[pcnt_reg_pkg::RegRecordLimit * 32 + 4 +: 28]),
    .addr_high_i    (cfg[pcnt_reg_pkg::RegRecordAddressHigh * 32 +: 8]),
    .long_i         (~ctrl[pcnt_reg_pkg::CtrlRecordFormatLsb]),
    .fault_clear_i  (feat_record & reg_we_i[pcnt_reg_pkg::RegCtrl]
                     & reg_wdata_i[pcnt_reg_pkg::CtrlFaultClearLsb]),
    .done_i         (rec_done_i),
    .err_i          (rec_err_i),
    .busy_o         (rec_busy_o),
    .pkt_o          (rec_pkt_o),
    .addr_o         (rec_addr_o),
    .long_o         (rec_long_o),
    .status_o       (rec_status)
  );

  ////////////////////////////////////////////////////////////////////////////
  // Register view (S8, S9, S11)
  ////////////////////////////////////////////////////////////////////////////

  always_comb begin
    // Stored rw bits everywhere; registers without storage read 0 from cfg.
    reg_rd_o = cfg;
    reg_rd_o[pcnt_reg_pkg::RegSrcStatus    * 32 +: 32] = {16'h0, sel[15:0]};
    reg_rd_o[pcnt_reg_pkg::RegCtrCycles    * 32 +: 32] = ctr_cycles_q[31:0];
    reg_rd_o[pcnt_reg_pkg::RegCtrCyclesAlt * 32 +: 32] = ctr_cycles_q[31:0];
    reg_rd_o[pcnt_reg_pkg::RegCtrEvent     * 32 +: 32] = ctr_event_q[31:0];
    reg_rd_o[pcnt_reg_pkg::RegCtrStart     * 32 +: 32] = ctr_start_q[31:0];
    // The _HI views (S24): live, the same cycle's bits 39:32 (no latch).
    reg_rd_o[pcnt_reg_pkg::RegCtrCyclesHi * 32 +: 32] = {24'h0, ctr_cycles_q[39:32]};
    reg_rd_o[pcnt_reg_pkg::RegCtrCyclesAltHi * 32 +: 32] = {24'h0, ctr_cycles_q[39:32]};
    reg_rd_o[pcnt_reg_pkg::RegCtrEventHi * 32 +: 32] = {24'h0, ctr_event_q[39:32]};
    reg_rd_o[pcnt_reg_pkg::RegCtrStartHi * 32 +: 32] = {24'h0, ctr_start_q[39:32]};
    reg_rd_o[pcnt_reg_pkg::RegCtrPre       * 32 +: 32] = ctr_pre_q;
    reg_rd_o[pcnt_reg_pkg::RegCtrStop      * 32 +: 32] = ctr_stop_q;
    reg_rd_o[pcnt_reg_pkg::RegCtrl * 32 + pcnt_reg_pkg::CtrlQuadStateLsb +:
             pcnt_reg_pkg::CtrlQuadStateWidth] = quad_state_q;
    reg_rd_o[pcnt_reg_pkg::RegCtrl * 32 + pcnt_reg_pkg::CtrlSingleStateLsb +:
             pcnt_reg_pkg::CtrlSingleStateWidth] = single_q;
    for (int unsigned i = 0; i < NumSigStatus; i++) begin
      reg_rd_o[(pcnt_reg_pkg::RegSigStatus + i) * 32 +: 32] = sig_eff[i * 32 +: 32];
    end
    reg_rd_o[pcnt_reg_pkg::RegRecordStatus * 32 +: 32] = feat_record ? rec_status : 32'h0;
  end

  ////////////////////////////////////////////////////////////////////////////
  // Assertions
  ////////////////////////////////////////////////////////////////////////////

  // The front-end delivers at most one accepted write per cycle, and only in
  // a tick of this domain (APB wait states, S15).
  `PCNT_ASSERT(WeOneHot0_A, $onehot0(reg_we_i))
  `PCNT_ASSERT(WeOnlyAtTick_A, (|reg_we_i) |-> tick_i)
  // QUAD_STATE never takes the unused encoding 2 (S17).
  `PCNT_ASSERT(QuadStateLegal_A, quad_state_q != 2'd2)
  // The process only leaves INACTIVE in MODE = SINGLE, and changing MODE is a
  // CTRL write, which aborts: so a running process implies MODE = SINGLE.
  `PCNT_ASSERT(RunningImpliesSingle_A, (single_q != pcnt_pkg::Inactive) |-> mode_single)

endmodule
