// Formal environment of pcnt_gf100_top (`make formal`, tests/formal/pcnt.sby)
// on its default parameters, the `fermi` preset (two GPCs and two
// partitions of one 0xe0-signal domain each): every input free in every
// cycle except reset in the first cycle and the APB4 rule that ACCESS is
// the second cycle of a selected transfer (the same as pcnt_top_fv.sv).
// PMC.ENABLE, the ticks and the signals are free.
module pcnt_gf100_top_fv (
  input logic clk_i
);
  localparam int unsigned NumDoms = 4;
  localparam int unsigned NumSets = 4;
  (* anyseq *) logic                    rst_ni, pmc_enable_i;
  (* anyseq *) logic [NumDoms-1:0]      dom_tick_i;
  (* anyseq *) logic                    psel_i, penable_i, pwrite_i;
  (* anyseq *) logic [17:0]             paddr_i;
  (* anyseq *) logic [31:0]             pwdata_i;
  (* anyseq *) logic [3:0]              pstrb_i;
  (* anyseq *) logic [NumDoms*256-1:0]  sig_i;
  logic [31:0]                                                prdata_o;
  logic                                                       pready_o, pslverr_o;
  logic [NumDoms*pcnt_gf_reg_pkg::GfNumDomRegs*32-1:0]        dom_regs_o;
  logic [NumSets*pcnt_gf_reg_pkg::GfNumSetRegs*32-1:0]        set_regs_o;
  logic [pcnt_gf_reg_pkg::GfNumMainRegs*32-1:0]               main_regs_o;

  pcnt_gf100_top u_dut (.*);

  logic first = 1'b1;
  always @(posedge clk_i) first <= 1'b0;
  always @(*) if (first) assume (!rst_ni);
endmodule
