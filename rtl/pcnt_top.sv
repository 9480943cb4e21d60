// PCOUNTER domain set, NV40:GF100 layout: the APB front-end and NumDomains
// domains on one clock.
//
// Contract (docs/semantics.md S0, S9, S11):
// * One clock (the bus clock) and one asynchronous active-low reset for the
//   whole set; every domain ticks every cycle (S0). gen_i is a strap,
//   constant after reset.
// * Domain d sees sig_i[d*256 +: 256], its own TrailerBase
//   (TrailerBases[d*8 +: 8]) and SigCount (SigCounts[d*9 +: 9]) (S9).
// * Cross-domain EVENT/FLAG imports are tied to 0 until the domain-set issue
//   adds the synchronizers (S9); the domains' event_o/flag_o are unused here.
// * dom_regs_o / glob_regs_o are the register views the read mux selects
//   from (S11): domain d register idx at bits (d*NumDomRegs+idx)*32 +: 32.
//   They are existing nets, for the lockstep compare only.
// * Parameters are checked at elaboration: NumDomains in 1..8; per domain
//   TrailerBase a multiple of 0x20, TrailerBase + 0x20 <= SigCount <= 256.
module pcnt_top #(
  parameter int unsigned  NumDomains   = 1,
  parameter logic [63:0]  TrailerBases = {8{8'he0}},
  parameter logic [71:0]  SigCounts    = {8{9'd256}}
) (
  input  logic                                                  clk_i,
  input  logic                                                  rst_ni,
  input  pcnt_reg_pkg::gen_e                                    gen_i,
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
  output logic [pcnt_reg_pkg::NumGlobalRegs*32-1:0]             glob_regs_o
);

  localparam int unsigned NumDomRegs = pcnt_reg_pkg::NumDomRegs;

  if (NumDomains < 1 || NumDomains > pcnt_reg_pkg::NumDomainsMax) begin : gen_num_domains_check
    $error("pcnt_top: NumDomains must be 1..8");
  end

  logic [NumDomains*NumDomRegs-1:0] dom_we;
  logic [31:0]                      wdata;

  pcnt_apb_regs #(
    .NumDomains (NumDomains)
  ) u_apb_regs (
    .clk_i,
    .rst_ni,
    .gen_i,
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
    .glob_regs_o
  );

  logic [NumDomains-1:0] dom_event, dom_flag;

  for (genvar d = 0; d < NumDomains; d++) begin : gen_dom
    localparam logic [7:0]  TrailerBase = TrailerBases[d * 8 +: 8];
    localparam int unsigned SigCount    = 32'(SigCounts[d * 9 +: 9]);

    if (TrailerBase[4:0] != 5'd0) begin : gen_trailer_align_check
      $error("pcnt_top: TrailerBase of a domain must be a multiple of 0x20");
    end
    if (32'(TrailerBase) + 32'h20 > SigCount || SigCount > 256) begin : gen_sig_count_check
      $error("pcnt_top: need TrailerBase + 0x20 <= SigCount <= 256");
    end

    pcnt_domain #(
      .DomIdx      (d),
      .TrailerBase (TrailerBase),
      .SigCount    (SigCount)
    ) u_domain (
      .clk_i,
      .rst_ni,
      .gen_i,
      .sig_i           (sig_i[d * 256 +: 256]),
      // Imports from other domains: 0 until the domain-set issue (S9).
      .dom_event_i     (8'h00),
      .dom_flag_i      (8'h00),
      .pm_trigger_i,
      .wrcache_flush_i,
      .reg_we_i        (dom_we[d * NumDomRegs +: NumDomRegs]),
      .reg_wdata_i     (wdata),
      .reg_rd_o        (dom_regs_o[d * NumDomRegs * 32 +: NumDomRegs * 32]),
      .event_o         (dom_event[d]),
      .flag_o          (dom_flag[d])
    );
  end

  // Exported for the cross-domain imports of a later issue.
  logic unused_dom_signals;
  assign unused_dom_signals = ^{dom_event, dom_flag};

endmodule
