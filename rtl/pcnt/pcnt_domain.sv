// One PCOUNTER domain of NV10:GF100: the register shell around the counting
// engine pcnt_dom_core. Register storage, the decode of CTRL and of the
// writes with side effects, the effective signal vector (trailer, USER
// signals, imports), the record block and the register view. Independent of
// the MMIO layout: registers are addressed by pcnt_reg_pkg view index only.
//
// Contract (docs/semantics.md; seed 003 "Input selection", "Counters",
// "Control registers", "Single event mode", "Quad event mode",
// "The STATUS registers", "Trailer signals", "The EVENT and FLAG signals",
// "The USER signals", "The PERIODIC signal"):
// * Clock enable (S15): every flop of the domain (here and in u_core)
//   advances only in a cycle with tick_i = 1 (a *tick*) and holds otherwise;
//   "cycle t" below means tick t. The combinational view (reg_rd_o,
//   SRC_STATUS, SIG_STATUS) follows the inputs of the current bus cycle also
//   between ticks. The front-end raises reg_we_i only in a tick (APB wait
//   states), so every write is consumed at a tick; inputs are seen by the
//   logic only at ticks.
// * Cycle model (S0, S1): everything is computed from the state of tick t
//   and the inputs of tick t and committed at the edge ending it. A write
//   (one-hot reg_we_i, already filtered for presence and PSTRB by the
//   front-end) is stored masked by dom_rw_mask(idx, gen_i); the counting of
//   tick t uses the old register values.
// * Counting (selection, input calculation, counters, single and quad event
//   modes, FLAG, the EVENT/FLAG signals, PERIODIC): pcnt_dom_core u_core,
//   whose contract states the rules (S1..S7, S10, S12, S13, S17, S18, S24).
//   This shell drives it with:
//   - the stored SRC and OP words, {THRESHOLD_HI[7:0], THRESHOLD} (S24) and
//     the CTRL fields MODE (as mode_single / mode_quad), CTR_MODE,
//     EVENT_CTR_PERIOD and PERIODIC_PERIOD; PERIODIC_PERIOD goes in as 0
//     without feat_periodic (NV40 has no PERIODIC generator, S18);
//     GCTRL.PERIODIC_RESET (S20); feat_wide_counters and feat_flag_src (S24);
//   - abort: a write to a register with DomRegAborts set (S1, S2); start: a
//     PRE_OP write with CTRL.MODE = SINGLE, which starts the process in any
//     state (in other modes PRE_OP is only stored, and swaps in quad mode on
//     G84+, S17);
//   - swap (S17): the raw signal SPEC_SRC.SWAP selects on G84+, PM_TRIGGER
//     on NV40, or a PRE_OP write on G84+; ack: QUAD_ACK_TRIGGER bit 0; the
//     engine acts on both in quad mode only;
//   - quad_enter: a CTRL write that changes MODE to QUAD from another mode;
//   - a CTR_PRE / CTR_STOP write loads the hidden initial value (S8);
//   - the shadow write port tied to 0: these generations have no writable
//     shadows (CTR_*_NEXT is GF100+, docs/design/gf100.md G4).
// * Imports (S16, S22): event_cnt_o / flag_cnt_o are the engine's edge
//   counts of the EVENT / FLAG signal. Other domains' EVENT/FLAG arrive
//   synchronized (imp_*_cont_i from prim_sync_2ff, imp_*_pulse_i from
//   prim_pulse_sync, on this domain's ticks, bit k = domain k);
//   CTRL.EVENT_IMPORT_MODE / FLAG_IMPORT_MODE (0 CONTINUOUS, 1 PULSE) select
//   per signal kind. The own bit of each vector is unused (own signals are
//   connected directly); the top ties absent domains' bits to 0.
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
//   the external inputs. The engine selects from this vector (sig_eff).
// * Register view reg_rd_o (S8, S11): what a read returns this cycle. Stored
//   rw bits; CTRL adds QUAD_STATE and SINGLE_STATE of this tick; counters
//   read their current value; write-only registers and bits read 0;
//   SRC_STATUS and SIG_STATUS show this cycle's signals. CTR_CYCLES_ALT is
//   an exact copy of CTR_CYCLES (S5), so both read the same register. The
//   40-bit counters (S24) are read live, nothing latched: CTR_CYCLES,
//   CTR_CYCLES_ALT, CTR_EVENT, CTR_START show bits 31:0, their _HI views
//   {24'h0, bits 39:32} (on every generation; 0 on 32-bit ones).
// * Record mode (S21, G84+, CTRL.MODE = RECORD): pcnt_record counts the 12
//   raw selected signals (SRC_STATUS bits 0..11) and the STOP logic-op
//   output; RECORD_STATUS reads its position and FAULT; CTRL.FAULT_CLEAR
//   (write-only) clears FAULT; rec_bound_i (the channel binding) decides
//   whether a send writes memory or faults. The single/quad counters hold in
//   record mode.
// * Reset (S8, S16..S19, S21): every register and internal state is 0, state
//   INACTIVE, QUAD_STATE EMPTY.
// * Names the harness relies on (S14 backdoor, `poke`): u_core (counters,
//   shadows, PERIODIC counter) and u_record.
`include "prim_assert.svh"

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
  ////////////////////////////////////////////////////////////////////////////
  // Signals and trailer (S9)
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

  logic [1:0] user_q, user_d;


  // DOM[k].EVENT / DOM[k].FLAG as this domain sees them: its own signals
  // directly (S3, S4), another domain's through the import CTRL selects.
  logic [7:0] dom_event_view, dom_flag_view;

  for (genvar k = 0; k < 8; k++) begin : gen_dom_view
    if (k == DomIdx) begin : gen_own
      // Own signals bypass the cross-domain import (S3, S4, S16).
      assign dom_event_view[k] = event_sig;
      assign dom_flag_view[k]  = flag_sig;
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
      feat_periodic ? periodic : sig_i[32'(TrailerBase) + pcnt_pkg::TrailerPeriodic];
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
      assign t10 = flag_sig;
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
  ////////////////////////////////////////////////////////////////////////////
  // Writes with side effects (S1, S2, S8, S17, S19)
  ////////////////////////////////////////////////////////////////////////////

  logic abort, pre_op_we, single_start, quad_ack_we, user_we, quad_enter;
  logic swap_sig, swap;

  assign abort        = |(reg_we_i & pcnt_reg_pkg::DomRegAborts);
  assign pre_op_we    = reg_we_i[pcnt_reg_pkg::RegPreOp];
  // A PRE_OP write starts the single event process in MODE = SINGLE (S2).
  assign single_start = pre_op_we & mode_single;
  assign quad_ack_we  = reg_we_i[pcnt_reg_pkg::RegQuadAckTrigger]
                      & reg_wdata_i[pcnt_reg_pkg::QuadAckTriggerAckLsb];
  assign user_we      = reg_we_i[pcnt_reg_pkg::RegUserTrigger];
  // A CTRL write that changes MODE to QUAD from another mode (S17). MODE is
  // stored on every generation, so the written field is the new MODE.
  assign quad_enter   = reg_we_i[pcnt_reg_pkg::RegCtrl] & ~mode_quad
                      & (reg_wdata_i[pcnt_reg_pkg::CtrlModeLsb +: pcnt_reg_pkg::CtrlModeWidth]
                         == pcnt_pkg::ModeQuad);

  // SWAP (S17): the raw signal selected by SPEC_SRC.SWAP on G84+ (no logic
  // operation, S9 rule), PM_TRIGGER on NV40 (seed: "hardwired to
  // PGRAPH.PM_TRIGGER on NV30:G84"). A PRE_OP write also swaps on G84+. The
  // engine swaps only in quad mode.
  assign swap_sig = feat_swap_src ? sig_eff[spec_src[pcnt_reg_pkg::SpecSrcSwapLsb +:
                                                     pcnt_reg_pkg::SpecSrcSwapWidth]]
                                  : pm_trigger_i;
  assign swap     = swap_sig | (feat_pre_op_swap & pre_op_we);

  ////////////////////////////////////////////////////////////////////////////
  // USER signals (S19)
  ////////////////////////////////////////////////////////////////////////////

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

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      user_q  <= 2'd0;
      pulse_q <= 2'd0;
    end else if (tick_i) begin
      user_q  <= user_d;
      pulse_q <= pulse_d;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Counting engine (S1..S7, S10, S12, S13, S16..S18, S24)
  ////////////////////////////////////////////////////////////////////////////

  pcnt_dom_core u_core (
    .clk_i,
    .rst_ni,
    .tick_i,
    .gen_i,
    .sig_eff_i          (sig_eff),
    .src_i              ({clrflag_src, setflag_src, stop_src, event_src, start_src, pre_src}),
    .pre_op_i           (pre_op),
    .start_op_i         (start_op),
    .event_op_i         (event_op),
    .stop_op_i          (stop_op),
    .setflag_op_i       (setflag_op),
    .clrflag_op_i       (clrflag_op),
    // THRESHOLD_HI reads 0 where absent (S24).
    .threshold_i        ({threshold_hi[7:0], threshold}),
    .mode_single_i      (mode_single),
    .mode_quad_i        (mode_quad),
    .ctr_mode_i         (ctr_mode),
    .event_ctr_period_i (event_ctr_period),
    // No PERIODIC generator before G84 (S18): period 0 holds it idle.
    .periodic_period_i  (feat_periodic ? periodic_period : 3'd0),
    .periodic_reset_i,
    .wide_counters_i    (feat_wide_counters),
    .flag_src_i         (feat_flag_src),
    .start_i            (single_start),
    .abort_i            (abort),
    .swap_i             (swap),
    .ack_i              (quad_ack_we),
    .quad_enter_i       (quad_enter),
    // Hidden initial values of CTR_PRE / CTR_STOP: a write to the counter's
    // address sets them, a read shows the counter (S8; seed "Counters").
    .init_pre_we_i      (reg_we_i[pcnt_reg_pkg::RegCtrPre]),
    .init_stop_we_i     (reg_we_i[pcnt_reg_pkg::RegCtrStop]),
    .wdata_i            (reg_wdata_i),
    // No writable shadows before GF100 (docs/design/gf100.md G4).
    .shadow_we_i        ('0),
    .shadow_wdata_i     (32'h0),
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

  // The view shows the counters and SRC_STATUS (sel[15:0]); the record block
  // takes sel[11:0] and STOP. The rest of the engine's results have no
  // reader here (synthesis inlines u_core and drops what they alone need).
  logic unused_core;
  assign unused_core = ^{shadow, sel[23:16], sel_prev, in_pre, in_start, in_event,
                         in_setflag, in_clrflag};

  assign event_o = event_sig;
  // Other domains synchronize the FLAG register itself: "the state of FLAG
  // in domain x as of two domain y clocks ago" (seed; S16).
  assign flag_o  = flag;

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
    reg_rd_o[pcnt_reg_pkg::RegCtrCycles    * 32 +: 32] = ctr_cycles[31:0];
    reg_rd_o[pcnt_reg_pkg::RegCtrCyclesAlt * 32 +: 32] = ctr_cycles[31:0];
    reg_rd_o[pcnt_reg_pkg::RegCtrEvent     * 32 +: 32] = ctr_event[31:0];
    reg_rd_o[pcnt_reg_pkg::RegCtrStart     * 32 +: 32] = ctr_start[31:0];
    // The _HI views (S24): live, the same cycle's bits 39:32 (no latch).
    reg_rd_o[pcnt_reg_pkg::RegCtrCyclesHi * 32 +: 32] = {24'h0, ctr_cycles[39:32]};
    reg_rd_o[pcnt_reg_pkg::RegCtrCyclesAltHi * 32 +: 32] = {24'h0, ctr_cycles[39:32]};
    reg_rd_o[pcnt_reg_pkg::RegCtrEventHi * 32 +: 32] = {24'h0, ctr_event[39:32]};
    reg_rd_o[pcnt_reg_pkg::RegCtrStartHi * 32 +: 32] = {24'h0, ctr_start[39:32]};
    reg_rd_o[pcnt_reg_pkg::RegCtrPre       * 32 +: 32] = ctr_pre;
    reg_rd_o[pcnt_reg_pkg::RegCtrStop      * 32 +: 32] = ctr_stop;
    reg_rd_o[pcnt_reg_pkg::RegCtrl * 32 + pcnt_reg_pkg::CtrlQuadStateLsb +:
             pcnt_reg_pkg::CtrlQuadStateWidth] = quad_state;
    reg_rd_o[pcnt_reg_pkg::RegCtrl * 32 + pcnt_reg_pkg::CtrlSingleStateLsb +:
             pcnt_reg_pkg::CtrlSingleStateWidth] = single_state;
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
  `PRIM_ASSERT(WeOneHot0_A, $onehot0(reg_we_i))
  `PRIM_ASSERT_IMPLIES(WeOnlyAtTick_A, |reg_we_i, tick_i)

endmodule
