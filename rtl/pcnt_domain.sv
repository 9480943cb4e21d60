// One PCOUNTER domain: register storage, signal selection, input calculation,
// FLAG and the single event counting process. Independent of the MMIO
// layout: registers are addressed by pcnt_reg_pkg view index only.
//
// Contract (docs/semantics.md; seed 003 "Input selection", "Counters",
// "Special counter modes", "Control registers", "Single event mode",
// "The flag", "The STATUS registers", "Trailer signals"):
// * Cycle model (S0, S1): everything below is computed from the state of
//   cycle t and the inputs of cycle t and committed at edge t+1. A write
//   (one-hot reg_we_i, already filtered for presence and PSTRB by the
//   front-end) is stored at edge t+1 masked by dom_rw_mask(idx, gen_i); the
//   counting of cycle t uses the old register values.
// * Abort (S1, S2): a write to a register with DomRegAborts set forces the
//   state of cycle t to INACTIVE before the state switch runs, so that cycle
//   neither counts nor updates the FLAG. A PRE_OP write in INACTIVE with
//   CTRL.MODE = SINGLE starts the process (counters initialised, FLAG
//   cleared, WAIT_FOR_PRE from t+1); in any other state it is only stored.
// * State switch S12, counters S5/S6/S7: all six counters saturate at
//   32'hffffffff (sat_add32) and never wrap; CTR_PRE/CTR_STOP decrement only
//   when != 0. CTR_CYCLES_ALT is an exact copy of CTR_CYCLES (S5), so both
//   read the same register.
// * FLAG (S3, S13): CLRFLAG wins over SETFLAG; frozen in INACTIVE while
//   CTRL.MODE = SINGLE; follows SETFLAG/CLRFLAG every cycle in other modes.
//   The FLAG signal and the EVENT signal are one-cycle registered copies of
//   FLAG and of the EVENT logic-op result (S3, S4): that register is what
//   breaks every selection loop through DOM[own].EVENT.
// * Signals (S9): sig_i beyond SigCount reads 0; trailer positions
//   TrailerBase+0x0c..+0x1f are internal (ZERO, PERIODIC = 0,
//   WRCACHE_FLUSH on G84+, PM_TRIGGER, DOM[k].EVENT/FLAG), the external input
//   there is ignored. The 16 selected signals are registered every cycle for
//   the delay bits (S10).
// * Register view reg_rd_o (S8, S11): what a read returns this cycle. Stored
//   rw bits; CTRL adds QUAD_STATE = EMPTY and SINGLE_STATE of this cycle;
//   counters read their current value; write-only registers and bits read 0;
//   SRC_STATUS and SIG_STATUS show this cycle's signals.
// * Reset (S8): every register and internal state is 0, state INACTIVE.
`include "pcnt_assert.svh"

module pcnt_domain #(
  parameter int unsigned DomIdx      = 0,
  parameter logic [7:0]  TrailerBase = 8'he0,
  parameter int unsigned SigCount    = 256
) (
  input  logic                                    clk_i,
  input  logic                                    rst_ni,
  input  pcnt_reg_pkg::gen_e                      gen_i,
  input  logic [255:0]                            sig_i,
  input  logic [7:0]                              dom_event_i,
  input  logic [7:0]                              dom_flag_i,
  input  logic                                    pm_trigger_i,
  input  logic                                    wrcache_flush_i,
  input  logic [pcnt_reg_pkg::NumDomRegs-1:0]     reg_we_i,
  input  logic [31:0]                             reg_wdata_i,
  output logic [pcnt_reg_pkg::NumDomRegs*32-1:0]  reg_rd_o,
  output logic                                    event_o,
  output logic                                    flag_o
);

  localparam int unsigned NumRegs      = pcnt_reg_pkg::NumDomRegs;
  localparam int unsigned NumSigStatus = pcnt_reg_pkg::SigStatusCount;
  localparam int unsigned TrailerLo    = 32'(TrailerBase) + pcnt_pkg::TrailerFirst;
  localparam int unsigned TrailerHi    = 32'(TrailerBase) + pcnt_pkg::TrailerSize - 1;

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
    localparam logic [31:0] StoreMask = pcnt_pkg::dom_store_mask(r);
    if (StoreMask != 32'h0) begin : gen_ff
      logic [31:0] store_d, store_q;
      assign store_d = reg_we_i[r] ? (reg_wdata_i & pcnt_reg_pkg::dom_rw_mask(r, gen_i))
                                   : store_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          store_q <= 32'h0;
        end else begin
          store_q <= store_d;
        end
      end
      assign cfg[r*32 +: 32] = store_q;
    end else begin : gen_none
      assign cfg[r*32 +: 32] = 32'h0;
    end
  end

  logic [31:0] pre_src, start_src, event_src, stop_src;
  logic [31:0] pre_op, start_op, event_op, stop_op, setflag_op, clrflag_op;
  logic [31:0] threshold, ctrl;

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

  logic [1:0] mode;
  logic [2:0] ctr_mode;
  logic       event_ctr_period;
  logic       mode_single;

  assign mode             = ctrl[pcnt_reg_pkg::CtrlModeLsb +: pcnt_reg_pkg::CtrlModeWidth];
  assign ctr_mode         = ctrl[pcnt_reg_pkg::CtrlCtrModeLsb +: pcnt_reg_pkg::CtrlCtrModeWidth];
  assign event_ctr_period = ctrl[pcnt_reg_pkg::CtrlEventCtrPeriodLsb];
  assign mode_single      = (mode == pcnt_pkg::ModeSingle);

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

  // Internal trailer signals, indexed by offset from the trailer base.
  logic [pcnt_pkg::TrailerSize-1:pcnt_pkg::TrailerFirst] trailer;

    // ZERO (+0x0c) and PERIODIC (+0x0d) are G84+; on NV40 the seed lists
  // nothing there, so those positions stay external signals (S9). PERIODIC
  // reads 0 until the PERIODIC generator exists (S9, known deviation).
  assign trailer[pcnt_pkg::TrailerZero]      = (gen_i >= pcnt_reg_pkg::GenG84)
                                             ? 1'b0 : sig_i[TrailerLo];
  assign trailer[pcnt_pkg::TrailerPeriodic]  = (gen_i >= pcnt_reg_pkg::GenG84)
                                             ? 1'b0 : sig_i[TrailerLo + 1];
  assign trailer[pcnt_pkg::TrailerWrcache]   = (gen_i >= pcnt_reg_pkg::GenG84) & wrcache_flush_i;
  assign trailer[pcnt_pkg::TrailerPmTrigger] = pm_trigger_i;

  for (genvar k = 0; k < 8; k++) begin : gen_dom_trailer
    if (k == DomIdx) begin : gen_own
      // Own signals bypass the cross-domain import (S3, S4).
      assign trailer[pcnt_pkg::TrailerDomEvent + 7 - k] = event_sig_q;
      assign trailer[pcnt_pkg::TrailerDomFlag  + 7 - k] = flag_sig_q;
    end else begin : gen_other
      assign trailer[pcnt_pkg::TrailerDomEvent + 7 - k] = dom_event_i[k];
      assign trailer[pcnt_pkg::TrailerDomFlag  + 7 - k] = dom_flag_i[k];
    end
  end

  // The effective signal vector of this domain, what SIG_STATUS shows.
  logic [pcnt_pkg::NumSignals-1:0] sig_eff;

  for (genvar s = 0; s < pcnt_pkg::NumSignals; s++) begin : gen_sig
    if (s >= SigCount) begin : gen_absent
      assign sig_eff[s] = 1'b0;
    end else if (s >= TrailerLo && s <= TrailerHi) begin : gen_trailer
      assign sig_eff[s] = trailer[s - 32'(TrailerBase)];
    end else begin : gen_external
      assign sig_eff[s] = sig_i[s];
    end
  end

  // Only part of sig_i is wired (trailer positions and s >= SigCount are
  // not), and the own-domain bits of the imports are replaced.
  logic unused_sig;
  assign unused_sig = ^{sig_i, dom_event_i[DomIdx], dom_flag_i[DomIdx]};

  // sel[g*4 + j] = signal selected by field j of PRE/START/EVENT/STOP_SRC
  // (g = 0..3): the SRC_STATUS bit order.
  logic [4*32-1:0]              src_regs;
  logic [pcnt_pkg::NumSel-1:0]  sel;
  logic [pcnt_pkg::NumSel-1:0]  sel_prev_q, sel_prev_d;

  assign src_regs = {stop_src, event_src, start_src, pre_src};

  for (genvar j = 0; j < pcnt_pkg::NumSel; j++) begin : gen_sel
    assign sel[j] = sig_eff[src_regs[j*8 +: 8]];
  end

  // Previous-cycle selected values, updated every cycle in every state (S10).
  // All 16 are kept as S10 describes them; only SRC[0]/SRC[1] of each input
  // (and START_SRC[2,3], PRE_SRC[2,3] for SETFLAG/CLRFLAG) are ever used, so
  // EVENT_SRC[2,3] and STOP_SRC[2,3] have no reader and synthesis drops them.
  assign sel_prev_d = sel;

  logic unused_sel_prev;
  assign unused_sel_prev = ^{sel_prev_q[15:14], sel_prev_q[11:10]};

  ////////////////////////////////////////////////////////////////////////////
  // Input calculation (S10)
  ////////////////////////////////////////////////////////////////////////////

  logic in_pre, in_start, in_event, in_stop, in_setflag, in_clrflag;

  // SETFLAG args: START_SRC[2], START_SRC[3], PRE_SRC[0], PRE_SRC[1].
  pcnt_logic_op #(.IsEventLike(1'b0)) u_setflag (
    .op_i       (setflag_op),
    .src_i      ({sel[1], sel[0], sel[7], sel[6]}),
    .src_prev_i ({sel_prev_q[7], sel_prev_q[6]}),
    .setflag_i  (1'b0),
    .gen_i,
    .result_o   (in_setflag)
  );

  // CLRFLAG args: PRE_SRC[2], PRE_SRC[3], START_SRC[0], START_SRC[1].
  pcnt_logic_op #(.IsEventLike(1'b0)) u_clrflag (
    .op_i       (clrflag_op),
    .src_i      ({sel[5], sel[4], sel[3], sel[2]}),
    .src_prev_i ({sel_prev_q[3], sel_prev_q[2]}),
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
  logic [31:0] event_inc, pre_inc;

  assign b4 = sel[7:4];
  assign b6 = {sel[11:10], b4};
  assign b2 = sel[9:8];

  always_comb begin
    event_inc = {31'd0, in_event};
    pre_inc   = 32'd0;
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
        pre_inc   = {28'd0, b4};
      end
      pcnt_pkg::CtrModeExtraB6EventB2: begin
        // B2 on every cycle, not gated by EVENT (S6, literal seed text).
        event_inc = {30'd0, b2};
        pre_inc   = {26'd0, b6};
      end
      default: begin
        // Reserved 5..7 count as SIMPLE (S6): the defaults above.
      end
    endcase
  end

  ////////////////////////////////////////////////////////////////////////////
  // Single event process and FLAG (S1, S2, S3, S5, S12, S13)
  ////////////////////////////////////////////////////////////////////////////

  pcnt_pkg::single_state_e single_q, single_d, single_cur;

  // The counter flops are reachable by the lockstep harness's backdoor
  // (`poke`, docs/semantics.md S14) so saturation can be reached without
  // 2^32 cycles; the metacomment has no effect on synthesis.
  logic [31:0] ctr_cycles_d, ctr_event_d, ctr_start_d, ctr_pre_d, ctr_stop_d;
  logic [31:0] ctr_cycles_q /*verilator public_flat_rw*/;
  logic [31:0] ctr_event_q  /*verilator public_flat_rw*/;
  logic [31:0] ctr_start_q  /*verilator public_flat_rw*/;
  logic [31:0] ctr_pre_q    /*verilator public_flat_rw*/;
  logic [31:0] ctr_stop_q   /*verilator public_flat_rw*/;

  logic abort, pre_op_we, flag_next;

  assign abort     = |(reg_we_i & pcnt_reg_pkg::DomRegAborts);
  assign pre_op_we = reg_we_i[pcnt_reg_pkg::RegPreOp];

  // FLAG as SETFLAG/CLRFLAG would leave it; CLRFLAG wins (S3).
  assign flag_next = in_clrflag ? 1'b0 : (in_setflag ? 1'b1 : flag_q);

  // Step (1) of S1: an aborting write makes this cycle's state INACTIVE.
  assign single_cur = abort ? pcnt_pkg::Inactive : single_q;

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
          // Single event mode does not run; the FLAG follows SETFLAG/CLRFLAG
                    // every cycle, also in the cycle of an aborting write (S1, S3, S13).
          flag_d = flag_next;
        end else if (pre_op_we) begin
          // Start of the counting process (S2, S12); FLAG frozen otherwise.
          ctr_event_d  = 32'd0;
          ctr_start_d  = 32'd0;
          ctr_cycles_d = 32'd0;
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
          ctr_cycles_d = 32'd0;
          if (event_ctr_period == pcnt_pkg::EventCtrPeriodOne) begin
            ctr_event_d = 32'd0;
          end
          single_d = pcnt_pkg::Counting;
        end
      end

      pcnt_pkg::Counting: begin
        flag_d       = flag_next;
        // Every COUNTING cycle counts, the STOP cycle included (S5, S6).
        ctr_cycles_d = pcnt_pkg::sat_add32(ctr_cycles_q, 32'd1);
        ctr_event_d  = pcnt_pkg::sat_add32(ctr_event_q, event_inc);
        ctr_pre_d    = pcnt_pkg::sat_add32(ctr_pre_q, pre_inc);
        if (in_stop) begin
          // THRESHOLD compares CTR_EVENT after this cycle's increment (S5).
          if (ctr_event_d >= threshold) begin
            ctr_start_d = pcnt_pkg::sat_add32(ctr_start_q, 32'd1);
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
  end

  // The EVENT and FLAG signals are registered copies (S3, S4).
  assign event_sig_d = in_event;
  assign flag_sig_d  = flag_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      single_q     <= pcnt_pkg::Inactive;
      flag_q       <= 1'b0;
      flag_sig_q   <= 1'b0;
      event_sig_q  <= 1'b0;
      sel_prev_q   <= '0;
      pre_init_q   <= 32'd0;
      stop_init_q  <= 32'd0;
      ctr_cycles_q <= 32'd0;
      ctr_event_q  <= 32'd0;
      ctr_start_q  <= 32'd0;
      ctr_pre_q    <= 32'd0;
      ctr_stop_q   <= 32'd0;
    end else begin
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
    end
  end

  assign event_o = event_sig_q;
  assign flag_o  = flag_sig_q;

  ////////////////////////////////////////////////////////////////////////////
  // Register view (S8, S9, S11)
  ////////////////////////////////////////////////////////////////////////////

  always_comb begin
    // Stored rw bits everywhere; registers without storage read 0 from cfg.
    reg_rd_o = cfg;
    reg_rd_o[pcnt_reg_pkg::RegSrcStatus    * 32 +: 32] = {16'h0, sel};
    reg_rd_o[pcnt_reg_pkg::RegCtrCycles    * 32 +: 32] = ctr_cycles_q;
    reg_rd_o[pcnt_reg_pkg::RegCtrCyclesAlt * 32 +: 32] = ctr_cycles_q;
    reg_rd_o[pcnt_reg_pkg::RegCtrEvent     * 32 +: 32] = ctr_event_q;
    reg_rd_o[pcnt_reg_pkg::RegCtrStart     * 32 +: 32] = ctr_start_q;
    reg_rd_o[pcnt_reg_pkg::RegCtrPre       * 32 +: 32] = ctr_pre_q;
    reg_rd_o[pcnt_reg_pkg::RegCtrStop      * 32 +: 32] = ctr_stop_q;
    reg_rd_o[pcnt_reg_pkg::RegCtrl * 32 + pcnt_reg_pkg::CtrlQuadStateLsb +:
             pcnt_reg_pkg::CtrlQuadStateWidth] = pcnt_pkg::QuadStateEmpty;
    reg_rd_o[pcnt_reg_pkg::RegCtrl * 32 + pcnt_reg_pkg::CtrlSingleStateLsb +:
             pcnt_reg_pkg::CtrlSingleStateWidth] = single_q;
    for (int unsigned i = 0; i < NumSigStatus; i++) begin
      reg_rd_o[(pcnt_reg_pkg::RegSigStatus + i) * 32 +: 32] = sig_eff[i * 32 +: 32];
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Assertions
  ////////////////////////////////////////////////////////////////////////////

  // The front-end delivers at most one accepted write per cycle.
  `PCNT_ASSERT(WeOneHot0_A, $onehot0(reg_we_i))
  // The process only leaves INACTIVE in MODE = SINGLE, and changing MODE is a
  // CTRL write, which aborts: so a running process implies MODE = SINGLE.
  `PCNT_ASSERT(RunningImpliesSingle_A, (single_q != pcnt_pkg::Inactive) |-> mode_single)

endmodule
