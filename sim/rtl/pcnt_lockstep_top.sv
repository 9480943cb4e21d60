// Harness-only wrapper of pcnt_top for the Verilated lockstep builds (not
// synthesised, not part of the IP; build.rs makes it the top of every RTL
// build of pcnt_top, the Yosys netlists of `make gatesim` run unwrapped).
//
// Contract: the same ports and parameters as pcnt_top; every input passes
// through a register loaded on the FALLING edge of clk_i, so within one bus
// cycle of the harness (inputs set, clk_i low, outputs read; then the rising
// edge, sim/csrc/shim.cpp) pcnt_top sees exactly the values the harness set,
// one half cycle before its rising edge, as it did with direct ports
// (docs/semantics.md S0: outputs of cycle t with the inputs of cycle t, then
// q(t+1) at the rising edge). The harness primes one falling edge before the
// first cycle (shim.cpp `new`), so no cycle's inputs are lost.
//
// Why (issue 18, docs/performance.md "Falling-edge input registers"):
// Under Verilator 5 all logic fed by top-level inputs (its 'ico'
// region) is evaluated again on every eval() call, whether the inputs changed or not, and the
// harness calls eval() twice per bus cycle. Behind these registers no logic
// reads a top-level input, so each eval() evaluates the logic once, after the
// edge that changed its sources, instead of once more per call.
module pcnt_lockstep_top #(
  parameter int unsigned  NumDomains   = 1,
  parameter bit           StrictDecode = 1'b1,
  parameter logic [63:0]  TrailerBases = {8{8'he0}},
  parameter logic [71:0]  SigCounts    = {8{9'd256}},
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
  logic                      rst_n_q, psel_q, penable_q, pwrite_q, pm_trigger_q, wrcache_flush_q;
  logic                      awready_q, wready_q, bvalid_q;
  pcnt_reg_pkg::gen_e        gen_q;
  logic [NumDomains-1:0]     dom_tick_q;
  logic [11:0]               paddr_q;
  logic [31:0]               pwdata_q;
  logic [3:0]                pstrb_q;
  logic [NumDomains*256-1:0] sig_q;
  logic [1:0]                bresp_q;

  // No reset: every register is loaded at each falling edge, the first one
  // before the first bus cycle.
  always_ff @(negedge clk_i) begin
    rst_n_q         <= rst_ni;
    gen_q           <= gen_i;
    dom_tick_q      <= dom_tick_i;
    psel_q          <= psel_i;
    penable_q       <= penable_i;
    pwrite_q        <= pwrite_i;
    paddr_q         <= paddr_i;
    pwdata_q        <= pwdata_i;
    pstrb_q         <= pstrb_i;
    sig_q           <= sig_i;
    pm_trigger_q    <= pm_trigger_i;
    wrcache_flush_q <= wrcache_flush_i;
    awready_q       <= m_axi_awready_i;
    wready_q        <= m_axi_wready_i;
    bvalid_q        <= m_axi_bvalid_i;
    bresp_q         <= m_axi_bresp_i;
  end

  pcnt_top #(
    .NumDomains  (NumDomains),
    .StrictDecode(StrictDecode),
    .TrailerBases(TrailerBases),
    .SigCounts   (SigCounts),
    .UserPoss    (UserPoss)
  ) u_dut (
    .clk_i,
    .rst_ni         (rst_n_q),
    .gen_i          (gen_q),
    .dom_tick_i     (dom_tick_q),
    .psel_i         (psel_q),
    .penable_i      (penable_q),
    .pwrite_i       (pwrite_q),
    .paddr_i        (paddr_q),
    .pwdata_i       (pwdata_q),
    .pstrb_i        (pstrb_q),
    .prdata_o,
    .pready_o,
    .pslverr_o,
    .sig_i          (sig_q),
    .pm_trigger_i   (pm_trigger_q),
    .wrcache_flush_i(wrcache_flush_q),
    .dom_regs_o,
    .glob_regs_o,
    .rec_bind_o,
    .m_axi_awvalid_o,
    .m_axi_awready_i(awready_q),
    .m_axi_awaddr_o,
    .m_axi_awlen_o,
    .m_axi_awsize_o,
    .m_axi_awburst_o,
    .m_axi_wvalid_o,
    .m_axi_wready_i (wready_q),
    .m_axi_wdata_o,
    .m_axi_wstrb_o,
    .m_axi_wlast_o,
    .m_axi_bvalid_i (bvalid_q),
    .m_axi_bresp_i  (bresp_q),
    .m_axi_bready_o
  );
endmodule
