// toy_counter: the toy fifth device (tests/toy/README.md), a minimal event
// counter behind an APB window, kept under tests/ to show that a device is
// its folders plus one registry line.
//
// Contract (tests/toy/README.md T1..T3):
// * Registers: 0x0 CTRL (bit 0 EN; other bits read 0), 0x4 COUNT (32 bits).
//   Every other offset, and a write whose strobes are not all set, answers
//   PSLVERR with PRDATA 0 and changes nothing. PREADY is always 1; an access
//   is taken in its ACCESS cycle; a read returns the value before the edge.
// * COUNT: a COUNT write wins over the cycle's increment; otherwise COUNT
//   adds 1 when EN and event_i are 1, wrapping at 2^32.
// * Reset (rst_ni low, asynchronous): CTRL and COUNT 0.
module toy_counter (
    input  logic        clk_i,
    input  logic        rst_ni,
    input  logic        psel_i,
    input  logic        penable_i,
    input  logic        pwrite_i,
    input  logic [3:0]  paddr_i,
    input  logic [31:0] pwdata_i,
    input  logic [3:0]  pstrb_i,
    input  logic        event_i,
    output logic [31:0] prdata_o,
    output logic        pready_o,
    output logic        pslverr_o
);
  logic        en_q, en_d;
  logic [31:0] count_q /* verilator public_flat_rd */, count_d;
  logic [31:0] ctrl_view /* verilator public_flat_rd */;

  logic access, hit_ctrl, hit_count, full;
  assign access    = psel_i & penable_i;
  assign hit_ctrl  = paddr_i == 4'h0;
  assign hit_count = paddr_i == 4'h4;
  assign full      = pstrb_i == 4'hf;
  assign ctrl_view = {31'd0, en_q};

  always_comb begin
    en_d      = en_q;
    count_d   = count_q;
    prdata_o  = '0;
    pslverr_o = 1'b0;
    if (en_q && event_i) count_d = count_q + 32'd1;
    if (access) begin
      if (!(hit_ctrl || hit_count) || (pwrite_i && !full)) begin
        pslverr_o = 1'b1;
      end else if (pwrite_i) begin
        if (hit_ctrl) en_d = pwdata_i[0];
        else count_d = pwdata_i;
      end else begin
        prdata_o = hit_ctrl ? ctrl_view : count_q;
      end
    end
  end
  assign pready_o = 1'b1;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      en_q    <= 1'b0;
      count_q <= '0;
    end else begin
      en_q    <= en_d;
      count_q <= count_d;
    end
  end
endmodule
