// Formal environment of r10k_perf (`make formal`, tests/formal/r10k.sby), each
// variant: every input free in every cycle except reset in the first cycle.
// The window answers any APB4 input without a wait state (R1).
module r10k_perf_fv #(
  parameter int unsigned Variant = r10k_reg_pkg::VariantR10000
) (
  input logic clk_i
);
  (* anyseq *) logic          rst_ni, psel_i, penable_i, pwrite_i, exl_i, erl_i;
  (* anyseq *) logic [1:0]    ksu_i;
  (* anyseq *) logic [7:0]    paddr_i;
  (* anyseq *) logic [31:0]   pwdata_i;
  (* anyseq *) logic [3:0]    pstrb_i;
  (* anyseq *) logic [r10k_reg_pkg::NumSources*r10k_reg_pkg::IncW-1:0] event_i;
  logic [31:0]                prdata_o;
  logic                       pready_o, pslverr_o, irq_o;

  r10k_perf #(.Variant(Variant)) u_dut (.*);

  logic first = 1'b1;
  always @(posedge clk_i) first <= 1'b0;
  always @(*) if (first) assume (!rst_ni);
endmodule
