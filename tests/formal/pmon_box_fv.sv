// Formal environment of pmon_box (`make formal`, tests/formal/pmon.sby) on
// its default parameters (4 counters, 4 event sources of 4-bit lanes):
// every input free in every cycle except reset in the first cycle. The box
// answers any APB4 input without a wait state (P1), so it needs no rule of
// the master.
module pmon_box_fv (
  input logic clk_i
);
  (* anyseq *) logic          rst_ni, psel_i, penable_i, pwrite_i, freeze_i;
  (* anyseq *) logic [pmon_reg_pkg::AddrW-1:0] paddr_i;
  (* anyseq *) logic [31:0]   pwdata_i;
  (* anyseq *) logic [3:0]    pstrb_i;
  (* anyseq *) logic [127:0]  event_i;
  logic [31:0]                prdata_o;
  logic                       pready_o, pslverr_o, ovf_o;

  pmon_box u_dut (.*);

  logic first = 1'b1;
  always @(posedge clk_i) first <= 1'b0;
  always @(*) if (first) assume (!rst_ni);
endmodule
