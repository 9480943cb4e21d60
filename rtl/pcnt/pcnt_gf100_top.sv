// PCOUNTER of the GF100+ layout (docs/design/gf100.md): NumGpc GPC sets of
// GpcDoms domains, NumPart partition sets of PartDoms domains and an
// optional hub set of HubDoms domains behind one APB completer, with
// per-domain clock enables, EVENT/FLAG imports inside each set, per-set
// CTRL and PMC.ENABLE.
//
// Contract (docs/semantics.md S25.0, S25.9, S25.12..S25.16, S15, S16;
// docs/design/gf100.md 3.2):
// * One clock (the bus clock), one asynchronous active-low reset rst_ni.
//   Flat domain i ticks in the cycles with dom_tick_i[i] = 1 (S15). Flat
//   numbering: GPC units in order, each unit's domains; then the PART units;
//   then the hub. Set numbering: GPC g = g, PART p = NumGpc + p, hub
//   NumGpc + NumPart (present iff HubDoms > 0).
// * Parameters: NumGpc 1..32, GpcDoms 1..8, NumPart 1..16, PartDoms 1..8,
//   HubDoms 0..8, NumDoms <= 64 (checked at elaboration). GpcSigCounts
//   [9*k +: 9] = SigCount of domain k of every GPC (k < GpcDoms; the other
//   fields are ignored), likewise PartSigCounts and HubSigCounts; each used
//   SigCount a multiple of 0x20 in 0x20..0x100 (checked at elaboration).
// * PMC.ENABLE (S25.14, S25.14): pmc_en_q <= pmc_enable_i every cycle,
//   reset 0 by rst_ni. Everything else (domains, import synchronizers, DSET
//   CTRL, MAIN) has the asynchronous reset rst_core_n = rst_ni & pmc_en_q.
//   That gives exactly the cycle rule "the state at t+1 is the reset state
//   unless pmc_en_q(t) = 1 and pmc_enable_i(t) = 1": an input 0 in cycle t
//   clears pmc_en_q at the edge ending t, whose reset then clears the state
//   that edge computed, so the state of t+1 is the reset state; while
//   pmc_en_q(t) = 0 the reset holds through the edge ending t. With both 1
//   the edge commits the normal next state and the reset stays off. While
//   pmc_en_q = 0 every APB access completes in its first ACCESS cycle with
//   PRDATA 0, PSLVERR = StrictDecode and no effect (pcnt_gf_apb).
// * Bus (S25.0): pcnt_gf_apb (its contract): APB4, wait states for
//   domain writes until that domain ticks, PSLVERR per StrictDecode.
// * Signals (S25.9): domain i sees sig_i[i*256 +: 256]; its trailer
//   (S25.9) is in pcnt_gf_domain.
// * Imports (S16, S25.12): for every ordered pair k -> j of domains of one set,
//   k != j, a prim_sync_2ff per signal (EVENT: source's event_o, FLAG:
//   source's flag_o) and a prim_pulse_sync per edge count (event_cnt_o /
//   flag_cnt_o), all enabled by the destination's tick: the cells and the
//   latency of pcnt_top. Domain j gets them as bit k (the source's DOM[k]
//   number) of imp_*; its own bit and bits k >= the set's size are 0. No
//   import crosses sets.
// * DSET CTRL.PERIODIC_RESET of set s goes to the domains of set s (S25.12).
// * Views (S25.0): dom_regs_o word (i*GfNumDomRegs + idx), set_regs_o
//   word (s*GfNumSetRegs + idx), main_regs_o word idx = what a read of that
//   register returns this cycle; all 0 while pmc_en_q = 0.
// * Names the lockstep harness relies on: gen_dom[i].u_domain and
//   gen_dom[i].u_domain.u_core (S14 backdoor).
module pcnt_gf100_top #(
  parameter int unsigned  NumGpc        = 2,
  parameter int unsigned  GpcDoms       = 1,
  parameter int unsigned  NumPart       = 2,
  parameter int unsigned  PartDoms      = 1,
  parameter int unsigned  HubDoms       = 0,
  parameter logic [71:0]  GpcSigCounts  = {8{9'h0e0}},
  parameter logic [71:0]  PartSigCounts = {8{9'h0e0}},
  parameter logic [71:0]  HubSigCounts  = {8{9'h0e0}},
  // 1: holes, absent units/domains, partial-strobe writes and accesses while
  // PMC.ENABLE is off answer PSLVERR (verification default); 0: silently.
  parameter bit           StrictDecode  = 1'b1,
  localparam int unsigned NumDoms       = NumGpc * GpcDoms + NumPart * PartDoms + HubDoms,
  localparam int unsigned NumSets       = NumGpc + NumPart + ((HubDoms > 0) ? 1 : 0)
) (
  input  logic                                                  clk_i,
  input  logic                                                  rst_ni,
  input  logic                                                  pmc_enable_i,
  input  logic [NumDoms-1:0]                                    dom_tick_i,
  input  logic                                                  psel_i,
  input  logic                                                  penable_i,
  input  logic                                                  pwrite_i,
  input  logic [17:0]                                           paddr_i,
  input  logic [31:0]                                           pwdata_i,
  input  logic [3:0]                                            pstrb_i,
  output logic [31:0]                                           prdata_o,
  output logic                                                  pready_o,
  output logic                                                  pslverr_o,
  input  logic [NumDoms*256-1:0]                                sig_i,
  output logic [NumDoms*pcnt_gf_reg_pkg::GfNumDomRegs*32-1:0]   dom_regs_o,
  output logic [NumSets*pcnt_gf_reg_pkg::GfNumSetRegs*32-1:0]   set_regs_o,
  output logic [pcnt_gf_reg_pkg::GfNumMainRegs*32-1:0]          main_regs_o
);

  localparam int unsigned NumDomRegs = pcnt_gf_reg_pkg::GfNumDomRegs;
  localparam int unsigned CntW       = pcnt_pkg::PulseCntW;
  localparam int unsigned PartBase   = NumGpc * GpcDoms;
  localparam int unsigned HubBase    = PartBase + NumPart * PartDoms;

  ////////////////////////////////////////////////////////////////////////////
  // Parameter checks (3.2)
  ////////////////////////////////////////////////////////////////////////////

  if (NumGpc < 1 || NumGpc > pcnt_gf_reg_pkg::GfGpcDomUnits) begin : gen_num_gpc_check
    $error("pcnt_gf100_top: NumGpc must be 1..32");
  end
  if (NumPart < 1 || NumPart > pcnt_gf_reg_pkg::GfPartDomUnits) begin : gen_num_part_check
    $error("pcnt_gf100_top: NumPart must be 1..16");
  end
  if (GpcDoms < 1 || GpcDoms > 8 || PartDoms < 1 || PartDoms > 8) begin : gen_set_size_check
    $error("pcnt_gf100_top: GpcDoms and PartDoms must be 1..8");
  end
  if (HubDoms > 8) begin : gen_hub_check
    $error("pcnt_gf100_top: HubDoms must be 0..8");
  end
  if (NumDoms > 64) begin : gen_num_doms_check
    $error("pcnt_gf100_top: at most 64 domains");
  end

  // Placement of flat domain i (1.4): its set's first flat domain, the set's
  // size, its DOM[k] number, its SigCount.
  // (Function-name results, no `return`: Yosys 0.23 reads only that form.)
  function automatic int unsigned set_base(int unsigned i);
    int unsigned r;
    r = HubBase;
    if (i < PartBase) begin
      r = (i / GpcDoms) * GpcDoms;
    end else if (i < HubBase) begin
      r = PartBase + ((i - PartBase) / PartDoms) * PartDoms;
    end
    set_base = r;
  endfunction
  function automatic int unsigned set_of(int unsigned i);
    int unsigned r;
    r = NumGpc + NumPart;
    if (i < PartBase) begin
      r = i / GpcDoms;
    end else if (i < HubBase) begin
      r = NumGpc + (i - PartBase) / PartDoms;
    end
    set_of = r;
  endfunction
  function automatic int unsigned set_size(int unsigned i);
    int unsigned r;
    r = HubDoms;
    if (i < PartBase) begin
      r = GpcDoms;
    end else if (i < HubBase) begin
      r = PartDoms;
    end
    set_size = r;
  endfunction
  function automatic int unsigned sig_count(int unsigned i);
    int unsigned k;
    logic [71:0] counts;
    k      = i - set_base(i);
    counts = HubSigCounts;
    if (i < PartBase) begin
      counts = GpcSigCounts;
    end else if (i < HubBase) begin
      counts = PartSigCounts;
    end
    sig_count = 32'(counts[9 * k +: 9]);
  endfunction

  ////////////////////////////////////////////////////////////////////////////
  // PMC.ENABLE (S25.14)
  ////////////////////////////////////////////////////////////////////////////

  logic pmc_en_q, pmc_en_d, rst_core_n;

  assign pmc_en_d = pmc_enable_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pmc_en_q <= 1'b0;
    end else begin
      pmc_en_q <= pmc_en_d;
    end
  end

  // The reset of everything else (S25.13, S25.14): from a flop, so it never glitches.
  assign rst_core_n = rst_ni & pmc_en_q;

  ////////////////////////////////////////////////////////////////////////////
  // APB front-end, DSET CTRL, MAIN (S25.0, S25.12, S25.15)
  ////////////////////////////////////////////////////////////////////////////

  logic [NumDoms-1:0]                          dom_we;
  logic [pcnt_gf_reg_pkg::GfRegIdxW-1:0]       reg_idx;
  logic [31:0]                                 wdata;
  logic [NumSets-1:0]                          periodic_reset;
  logic [NumDoms*NumDomRegs*32-1:0]            dom_view;
  logic [NumSets*pcnt_gf_reg_pkg::GfNumSetRegs*32-1:0] set_view;
  logic [pcnt_gf_reg_pkg::GfNumMainRegs*32-1:0]        main_view;

  pcnt_gf_apb #(
    .NumGpc       (NumGpc),
    .GpcDoms      (GpcDoms),
    .NumPart      (NumPart),
    .PartDoms     (PartDoms),
    .HubDoms      (HubDoms),
    .StrictDecode (StrictDecode)
  ) u_apb (
    .clk_i,
    .rst_ni           (rst_core_n),
    .pmc_en_i         (pmc_en_q),
    .dom_tick_i,
    .psel_i,
    .penable_i,
    .pwrite_i,
    .paddr_i,
    .pwdata_i,
    .pstrb_i,
    .prdata_o,
    .pready_o,
    .pslverr_o,
    .dom_regs_i       (dom_view),
    .dom_we_o         (dom_we),
    .reg_idx_o        (reg_idx),
    .wdata_o          (wdata),
    .set_regs_o       (set_view),
    .main_regs_o      (main_view),
    .periodic_reset_o (periodic_reset)
  );

  // Decision 3: every view word is 0 while the unit is held in reset (S25.14).
  // (dom_regs_o per domain, in gen_dom below.)
  assign set_regs_o  = pmc_en_q ? set_view  : '0;
  assign main_regs_o = pmc_en_q ? main_view : '0;

  ////////////////////////////////////////////////////////////////////////////
  // Domains and the imports inside each set (S16, S25.12)
  ////////////////////////////////////////////////////////////////////////////

  // Per source domain: EVENT signal, FLAG register and their edge counts.
  logic [NumDoms-1:0]      dom_event, dom_flag;
  logic [NumDoms*CntW-1:0] dom_event_cnt, dom_flag_cnt;

  for (genvar i = 0; i < NumDoms; i++) begin : gen_dom
    localparam int unsigned SetBase  = set_base(i);
    localparam int unsigned SetOf    = set_of(i);
    localparam int unsigned SetSize  = set_size(i);
    localparam int unsigned DomIdx   = i - SetBase;
    localparam int unsigned SigCount = sig_count(i);

    if (SigCount < 32'h20 || SigCount > 32'h100 || SigCount % 32'h20 != 0) begin : gen_sig_check
      $error("pcnt_gf100_top: a SigCount must be a multiple of 0x20 in 0x20..0x100");
    end

    // Imports into domain i, bit k = DOM[k] of its set, on i's ticks.
    logic [7:0] imp_event_cont, imp_event_pulse, imp_flag_cont, imp_flag_pulse;

    for (genvar k = 0; k < 8; k++) begin : gen_imp
      if (k < SetSize && k != DomIdx) begin : gen_sync
        prim_sync_2ff u_event_cont (
          .clk_i,
          .rst_ni  (rst_core_n),
          .en_i    (dom_tick_i[i]),
          .d_i     (dom_event[SetBase + k]),
          .q_o     (imp_event_cont[k])
        );
        prim_sync_2ff u_flag_cont (
          .clk_i,
          .rst_ni  (rst_core_n),
          .en_i    (dom_tick_i[i]),
          .d_i     (dom_flag[SetBase + k]),
          .q_o     (imp_flag_cont[k])
        );
        prim_pulse_sync #(.Width(CntW)) u_event_pulse (
          .clk_i,
          .rst_ni  (rst_core_n),
          .en_i    (dom_tick_i[i]),
          .gray_i  (dom_event_cnt[(SetBase + k) * CntW +: CntW]),
          .pulse_o (imp_event_pulse[k])
        );
        prim_pulse_sync #(.Width(CntW)) u_flag_pulse (
          .clk_i,
          .rst_ni  (rst_core_n),
          .en_i    (dom_tick_i[i]),
          .gray_i  (dom_flag_cnt[(SetBase + k) * CntW +: CntW]),
          .pulse_o (imp_flag_pulse[k])
        );
      end else begin : gen_none
        // Own domain (connected inside it) or k beyond the set (S25.9: 0).
        assign imp_event_cont[k]  = 1'b0;
        assign imp_event_pulse[k] = 1'b0;
        assign imp_flag_cont[k]   = 1'b0;
        assign imp_flag_pulse[k]  = 1'b0;
      end
    end

    pcnt_gf_domain #(
      .DomIdx   (DomIdx),
      .SigCount (SigCount)
    ) u_domain (
      .clk_i,
      .rst_ni            (rst_core_n),
      .tick_i            (dom_tick_i[i]),
      .sig_i             (sig_i[i * 256 +: 256]),
      .imp_event_cont_i  (imp_event_cont),
      .imp_event_pulse_i (imp_event_pulse),
      .imp_flag_cont_i   (imp_flag_cont),
      .imp_flag_pulse_i  (imp_flag_pulse),
      .periodic_reset_i  (periodic_reset[SetOf]),
      .reg_we_i          (dom_we[i]),
      .reg_idx_i         (reg_idx),
      .reg_wdata_i       (wdata),
      .reg_rd_o          (dom_view[i * NumDomRegs * 32 +: NumDomRegs * 32]),
      .event_o           (dom_event[i]),
      .flag_o            (dom_flag[i]),
      .event_cnt_o       (dom_event_cnt[i * CntW +: CntW]),
      .flag_cnt_o        (dom_flag_cnt[i * CntW +: CntW])
    );

    assign dom_regs_o[i * NumDomRegs * 32 +: NumDomRegs * 32] =
        pmc_en_q ? dom_view[i * NumDomRegs * 32 +: NumDomRegs * 32] : '0;
  end

  // A one-domain set exports signals nobody imports (S16); so does every
  // domain of a preset made only of such sets.
  logic unused_dom_signals;
  assign unused_dom_signals = ^{dom_event, dom_flag, dom_event_cnt, dom_flag_cnt};

endmodule
