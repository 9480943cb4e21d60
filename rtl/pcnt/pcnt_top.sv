// PCOUNTER domain set, both MMIO layouts (NV10:NV40 and NV40:GF100, chosen
// by the gen_i strap): the APB front-end, NumDomains domains with
// per-domain clock enables, and the cross-domain import synchronizers.
//
// Contract (docs/semantics.md S0, S9, S11, S15..S20, S24):
// * One clock (the bus clock) and one asynchronous active-low reset for the
//   whole set. Domain d ticks in the cycles with dom_tick_i[d] = 1 (S15):
//   all its state, and that of the synchronizers into it, advances only
//   then. gen_i is a strap, constant after reset; it selects the layout
//   (pcnt_reg_pkg::gen_layout). The domain count a generation allows
//   (max_domains: 1 on NV10/NV15, 2 on NV20/NV30, 8 from NV40) is the
//   integrator's (the harness's) to respect; the RTL does not check it.
// * APB wait states (S15): pready_o = 0 while an accepted write to a register
//   of domain d waits for dom_tick_i[d] (pcnt_apb_regs); a write to a shared
//   register of the NV10 layout (SHARED_CTRL, SHARED_QUAD_ACK_TRIGGER) waits
//   until each of the domains d < min(NumDomains, 2) has taken it at its
//   own first tick, and reaches each as a write of its CTRL /
//   QUAD_ACK_TRIGGER view register with per-domain data (S24).
// * Domain d sees sig_i[d*256 +: 256], its own TrailerBase
//   (TrailerBases[d*8 +: 8]), SigCount (SigCounts[d*9 +: 9]) and USER_0
//   position (UserPoss[d*9 +: 9], USER_1 next; S9, S19).
// * Imports (S16): for every ordered pair k -> d of present domains, k != d,
//   a prim_sync_2ff per signal (EVENT, FLAG; source domain k's event_o /
//   flag_o) and a prim_pulse_sync per edge count (event_cnt_o / flag_cnt_o,
//   S22), all enabled by dom_tick_i[d]. Domain d gets them as bit k of
//   imp_{event,flag}_{cont,pulse}_i; its own bit and absent domains' bits
//   are 0. Domain d's CTRL selects CONTINUOUS or PULSE.
// * PM_TRIGGER / WRCACHE_FLUSH (S22): bus-clock edge counters
//   (prim_edge_cnt) and, per domain, a prim_pulse_sync on its ticks: every
//   pulse reaches every domain exactly once.
// * GCTRL.PERIODIC_RESET (S18, S20) and RECORD_RESET (S21) go to every
//   domain.
// * Record mode (S21): every domain's outgoing slot feeds one pcnt_axi_wr,
//   the AXI4 write manager on m_axi_*; rec_bind_o is the RECORD_CHAN bind
//   event; the binding state (pcnt_apb_regs rec_bound_o) goes to every
//   domain.
// * dom_regs_o / glob_regs_o are the register views the read mux selects
//   from (S11): domain d register idx at bits (d*NumDomRegs+idx)*32 +: 32.
//   They are existing nets, for the lockstep compare only.
// * Names the lockstep harness relies on: gen_dom[d].u_domain and its
//   u_core and u_record (S14 backdoor).
// * Parameters are checked at elaboration: NumDomains in 1..8; per domain
//   TrailerBase a multiple of 0x20, TrailerBase + 0x20 <= SigCount <= 256.
`include "prim_assert.svh"

module pcnt_top #(
  parameter int unsigned  NumDomains   = 1,
  // 1: decode holes, absent registers and partial-strobe writes answer
  // PSLVERR (verification default); 0: they read 0 / are ignored, as real
  // PCOUNTER does (S8).
  parameter bit           StrictDecode = 1'b1,
  parameter logic [63:0]  TrailerBases = {8{8'he0}},
  parameter logic [71:0]  SigCounts    = {8{9'd256}},
  // USER_0 position per domain (USER_1 next), GT215 (S19); 9 bits each.
  parameter logic [71:0]  UserPoss     = {8{9'h0ea}}
) (
  input  logic                                                  clk_i,
  input  logic                                                  rst_ni,
  input  pcnt_reg_pkg::gen_e                                    gen_i,
  input  logic [NumDomains-1:0]                                 dom_tick_i,
  input  logic                                                  psel_i,
  input  logic                                                  penable_i,
  input  logic                                                  pwrite_i,
  input  logic [11:0]                                           paddr_i,
  input  logic [31:0]                                           pwdata_i,
  input  logic [3:0]                                            pstrb_i,
  output logic [31:0]                                           prdata_o,
  output logic                                                  pready_o,
  output logic                                                  pslverr_o,
  input  logic [NumDomains*256-1:0]                             sig_i,
  input  logic                                                  pm_trigger_i,
  input  logic                                                  wrcache_flush_i,
  output logic [NumDomains*pcnt_reg_pkg::NumDomRegs*32-1:0]     dom_regs_o,
  output logic [pcnt_reg_pkg::NumGlobalRegs*32-1:0]             glob_regs_o,
  // Record mode (S21): channel bind event and the AXI4 write manager.
  output logic                                                  rec_bind_o,
  output logic                                                  m_axi_awvalid_o,
  input  logic                                                  m_axi_awready_i,
  output logic [39:0]                                           m_axi_awaddr_o,
  output logic [7:0]                                            m_axi_awlen_o,
  output logic [2:0]                                            m_axi_awsize_o,
  output logic [1:0]                                            m_axi_awburst_o,
  output logic                                                  m_axi_wvalid_o,
  input  logic                                                  m_axi_wready_i,
  output logic [127:0]                                          m_axi_wdata_o,
  output logic [15:0]                                           m_axi_wstrb_o,
  output logic                                                  m_axi_wlast_o,
  input  logic                                                  m_axi_bvalid_i,
  input  logic [1:0]                                            m_axi_bresp_i,
  output logic                                                  m_axi_bready_o
);

  localparam int unsigned NumDomRegs = pcnt_reg_pkg::NumDomRegs;

  if (NumDomains < 1 || NumDomains > pcnt_reg_pkg::NumDomainsMax) begin : gen_num_domains_check
    $error("pcnt_top: NumDomains must be 1..8");
  end

  logic [NumDomains*NumDomRegs-1:0] dom_we;
  logic [NumDomains*32-1:0]         wdata;   // per domain (shared registers, S24)
  logic                             periodic_reset;
  logic                             record_reset;
  logic                             rec_bound;

  // Record slots of every domain and the shared write manager (S21).
  logic [NumDomains-1:0]            rec_busy, rec_long, rec_done;
  logic [NumDomains*256-1:0]        rec_pkt;
  logic [NumDomains*40-1:0]         rec_addr;
  logic                             rec_err;

  pcnt_axi_wr #(
    .NumDomains (NumDomains)
  ) u_axi_wr (
    .clk_i,
    .rst_ni,
    .busy_i    (rec_busy),
    .pkt_i     (rec_pkt),
    .addr_i    (rec_addr),
    .long_i    (rec_long),
    .done_o    (rec_done),
    .err_o     (rec_err),
    .awvalid_o (m_axi_awvalid_o),
    .awready_i (m_axi_awready_i),
    .awaddr_o  (m_axi_awaddr_o),
    .awlen_o   (m_axi_awlen_o),
    .awsize_o  (m_axi_awsize_o),
    .awburst_o (m_axi_awburst_o),
    .wvalid_o  (m_axi_wvalid_o),
    .wready_i  (m_axi_wready_i),
    .wdata_o   (m_axi_wdata_o),
    .wstrb_o   (m_axi_wstrb_o),
    .wlast_o   (m_axi_wlast_o),
    .bvalid_i  (m_axi_bvalid_i),
    .bresp_i   (m_axi_bresp_i),
    .bready_o  (m_axi_bready_o)
  );

  pcnt_apb_regs #(
    .NumDomains   (NumDomains),
    .StrictDecode (StrictDecode)
  ) u_apb_regs (
    .clk_i,
    .rst_ni,
    .gen_i,
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
    .dom_regs_i  (dom_regs_o),
    .dom_we_o    (dom_we),
    .wdata_o     (wdata),
    .glob_regs_o,
    .periodic_reset_o (periodic_reset),
    .record_reset_o   (record_reset),
    .rec_bind_o,
    .rec_bound_o      (rec_bound)
  );

  localparam int unsigned CntW = pcnt_pkg::PulseCntW;

  // Per source domain: EVENT / FLAG signal flops and their PULSE edge counts.
  logic [NumDomains-1:0]      dom_event, dom_flag;
  logic [NumDomains*CntW-1:0] dom_event_cnt, dom_flag_cnt;

  // Global PGRAPH pulses (S22): PM_TRIGGER and WRCACHE_FLUSH are counted on
  // the bus clock (one count per 0-to-1 transition: a pulse held for several
  // bus cycles is one pulse) and reach every domain through its own
  // pulse synchronizer, exactly once whatever the domain's clock.
  logic       pm_trigger_q, wrcache_flush_q;
  logic [CntW-1:0] pm_trigger_cnt, wrcache_flush_cnt;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pm_trigger_q    <= 1'b0;
      wrcache_flush_q <= 1'b0;
    end else begin
      pm_trigger_q    <= pm_trigger_i;
      wrcache_flush_q <= wrcache_flush_i;
    end
  end

  prim_edge_cnt #(.Width(pcnt_pkg::PulseCntW)) u_pm_trigger_cnt (
    .clk_i,
    .rst_ni,
    .en_i   (1'b1),
    .rise_i (pm_trigger_i & ~pm_trigger_q),
    .gray_o (pm_trigger_cnt)
  );
  prim_edge_cnt #(.Width(pcnt_pkg::PulseCntW)) u_wrcache_flush_cnt (
    .clk_i,
    .rst_ni,
    .en_i   (1'b1),
    .rise_i (wrcache_flush_i & ~wrcache_flush_q),
    .gray_o (wrcache_flush_cnt)
  );

  for (genvar d = 0; d < NumDomains; d++) begin : gen_dom
    localparam logic [7:0]  TrailerBase = TrailerBases[d * 8 +: 8];
    localparam int unsigned SigCount    = 32'(SigCounts[d * 9 +: 9]);
    localparam int unsigned UserPos     = 32'(UserPoss[d * 9 +: 9]);

    if (TrailerBase[4:0] != 5'd0) begin : gen_trailer_align_check
      $error("pcnt_top: TrailerBase of a domain must be a multiple of 0x20");
    end
    if (32'(TrailerBase) + 32'h20 > SigCount || SigCount > 256) begin : gen_sig_count_check
      $error("pcnt_top: need TrailerBase + 0x20 <= SigCount <= 256");
    end
    if (UserPos + 2 > SigCount
        || (UserPos + 1 >= 32'(TrailerBase) + pcnt_pkg::TrailerFirst
            && UserPos < 32'(TrailerBase) + pcnt_pkg::TrailerSize)) begin : gen_user_pos_check
      $error("pcnt_top: USER_0/USER_1 must be present signals outside trailer +0x0c..+0x1f");
    end

    // Imports into domain d, bit k = source domain k (S16), synchronized on
    // d's ticks.
    logic [7:0] imp_event_cont, imp_event_pulse, imp_flag_cont, imp_flag_pulse;

    for (genvar k = 0; k < 8; k++) begin : gen_imp
      if (k < NumDomains && k != d) begin : gen_sync
        prim_sync_2ff u_event_cont (
          .clk_i,
          .rst_ni,
          .en_i    (dom_tick_i[d]),
          .d_i     (dom_event[k]),
          .q_o     (imp_event_cont[k])
        );
        prim_sync_2ff u_flag_cont (
          .clk_i,
          .rst_ni,
          .en_i    (dom_tick_i[d]),
          .d_i     (dom_flag[k]),
          .q_o     (imp_flag_cont[k])
        );
        prim_pulse_sync #(.Width(pcnt_pkg::PulseCntW)) u_event_pulse (
          .clk_i,
          .rst_ni,
          .en_i    (dom_tick_i[d]),
          .gray_i  (dom_event_cnt[k * CntW +: CntW]),
          .pulse_o (imp_event_pulse[k])
        );
        prim_pulse_sync #(.Width(pcnt_pkg::PulseCntW)) u_flag_pulse (
          .clk_i,
          .rst_ni,
          .en_i    (dom_tick_i[d]),
          .gray_i  (dom_flag_cnt[k * CntW +: CntW]),
          .pulse_o (imp_flag_pulse[k])
        );
      end else begin : gen_none
        // Own domain (connected directly inside it) or absent domain (S9).
        assign imp_event_cont[k]  = 1'b0;
        assign imp_event_pulse[k] = 1'b0;
        assign imp_flag_cont[k]   = 1'b0;
        assign imp_flag_pulse[k]  = 1'b0;
      end
    end

    // The global pulses into domain d (S22), on d's ticks.
    logic pm_trigger_pulse, wrcache_flush_pulse;

    prim_pulse_sync #(.Width(pcnt_pkg::PulseCntW)) u_pm_trigger_sync (
      .clk_i,
      .rst_ni,
      .en_i    (dom_tick_i[d]),
      .gray_i  (pm_trigger_cnt),
      .pulse_o (pm_trigger_pulse)
    );
    prim_pulse_sync #(.Width(pcnt_pkg::PulseCntW)) u_wrcache_flush_sync (
      .clk_i,
      .rst_ni,
      .en_i    (dom_tick_i[d]),
      .gray_i  (wrcache_flush_cnt),
      .pulse_o (wrcache_flush_pulse)
    );

    pcnt_domain #(
      .DomIdx      (d),
      .TrailerBase (TrailerBase),
      .SigCount    (SigCount),
      .UserPos     (UserPos)
    ) u_domain (
      .clk_i,
      .rst_ni,
      .tick_i            (dom_tick_i[d]),
      .gen_i,
      .sig_i             (sig_i[d * 256 +: 256]),
      .imp_event_cont_i  (imp_event_cont),
      .imp_event_pulse_i (imp_event_pulse),
      .imp_flag_cont_i   (imp_flag_cont),
      .imp_flag_pulse_i  (imp_flag_pulse),
      .pm_trigger_i      (pm_trigger_pulse),
      .wrcache_flush_i   (wrcache_flush_pulse),
      .periodic_reset_i  (periodic_reset),
      .reg_we_i          (dom_we[d * NumDomRegs +: NumDomRegs]),
      .reg_wdata_i       (wdata[d * 32 +: 32]),
      .reg_rd_o          (dom_regs_o[d * NumDomRegs * 32 +: NumDomRegs * 32]),
      .event_o           (dom_event[d]),
      .flag_o            (dom_flag[d]),
      .event_cnt_o       (dom_event_cnt[d * CntW +: CntW]),
      .flag_cnt_o        (dom_flag_cnt[d * CntW +: CntW]),
      .record_reset_i    (record_reset),
      .rec_bound_i       (rec_bound),
      .rec_done_i        (rec_done[d]),
      .rec_err_i         (rec_err),
      .rec_busy_o        (rec_busy[d]),
      .rec_pkt_o         (rec_pkt[d * 256 +: 256]),
      .rec_addr_o        (rec_addr[d * 40 +: 40]),
      .rec_long_o        (rec_long[d])
    );
  end

  // With one domain nothing imports the domain's signals (S16).
  if (NumDomains == 1) begin : gen_no_imports
    logic unused_dom_signals;
    assign unused_dom_signals = ^{dom_event, dom_flag, dom_event_cnt, dom_flag_cnt};
  end

  // gen_i is a strap (contract above): the formal proofs assume it; every
  // lockstep build asserts it of the harness.
  `PRIM_ASSUME(GenStrap_A, $stable(gen_i))

endmodule
