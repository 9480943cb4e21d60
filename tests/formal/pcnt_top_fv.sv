// Formal environment of pcnt_top (`make formal`, tests/formal/pcnt.sby):
// every input is free in every cycle after reset in the first one. What a
// real master and a real chip guarantee of the inputs is in the RTL as
// PRIM_ASSUME macros (the gen_i strap in pcnt_top; APB4's ACCESS after
// SETUP and the transfer held in a wait state in pcnt_apb_regs): assumed
// here, asserted in every lockstep build, where the harness drives them.
module pcnt_top_fv #(
  parameter int unsigned NumDomains = 1
) (
  input logic clk_i
);
  (* anyseq *) logic                                  rst_ni;
  (* anyseq *) pcnt_reg_pkg::gen_e                    gen_i;
  (* anyseq *) logic [NumDomains-1:0]                 dom_tick_i;
  (* anyseq *) logic                                  psel_i, penable_i, pwrite_i;
  (* anyseq *) logic [11:0]                           paddr_i;
  (* anyseq *) logic [31:0]                           pwdata_i;
  (* anyseq *) logic [3:0]                            pstrb_i;
  (* anyseq *) logic [NumDomains*256-1:0]             sig_i;
  (* anyseq *) logic                                  pm_trigger_i, wrcache_flush_i;
  (* anyseq *) logic                                  m_axi_awready_i, m_axi_wready_i, m_axi_bvalid_i;
  (* anyseq *) logic [1:0]                            m_axi_bresp_i;
  logic [31:0]                                        prdata_o;
  logic                                               pready_o, pslverr_o;
  logic [NumDomains*pcnt_reg_pkg::NumDomRegs*32-1:0]  dom_regs_o;
  logic [pcnt_reg_pkg::NumGlobalRegs*32-1:0]          glob_regs_o;
  logic                                               rec_bind_o;
  logic                                               m_axi_awvalid_o, m_axi_wvalid_o, m_axi_wlast_o;
  logic                                               m_axi_bready_o;
  logic [39:0]                                        m_axi_awaddr_o;
  logic [7:0]                                         m_axi_awlen_o;
  logic [2:0]                                         m_axi_awsize_o;
  logic [1:0]                                         m_axi_awburst_o;
  logic [127:0]                                       m_axi_wdata_o;
  logic [15:0]                                        m_axi_wstrb_o;

  pcnt_top #(.NumDomains(NumDomains)) u_dut (.*);

  logic first = 1'b1;
  always @(posedge clk_i) first <= 1'b0;
  always @(*) if (first) assume (!rst_ni);
endmodule
