// Source side of a pulse synchronizer: counts rising edges in Gray code.
//
// Contract (docs/semantics.md S16, S22; seed 003 "The EVENT and FLAG
// signals", PULSE: "converts all 0-to-1 transitions in source domain into
// single-clock pulses in destination domain"):
// * At each source tick (en_i = 1) with rise_i = 1 the count advances by one,
//   modulo 2**Width; between ticks it holds. The caller computes rise_i
//   (a 0-to-1 transition of the source signal at that tick).
// * The count is held in Gray code (gray_o is the flop itself), so a
//   destination sampling it with another clock sees either the old or the new
//   count, never a mix (one bit changes per step).
// * Every prim_pulse_sync reading gray_o delivers one destination pulse per
//   step of the count (S22).
// * Reset (S8): count 0.
// * Shared cell (rtl/common): no device package; Width is the caller's.
module prim_edge_cnt #(
  parameter int unsigned Width = 3
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,   // source domain tick (S15)
  input  logic             rise_i, // a 0-to-1 edge at this tick
  output logic [Width-1:0] gray_o  // edge count, Gray code
);

  logic [Width-1:0] gray_q, gray_d;
  logic [Width-1:0] count;

  // Gray to binary: bit i is the XOR of gray bits i and above.
  always_comb begin
    count = gray_q;
    for (int unsigned i = 1; i < Width; i++) begin
      count = count ^ (gray_q >> i);
    end
  end

  always_comb begin
    gray_d = gray_q;
    if (rise_i) begin
      gray_d = (count + 1'b1) ^ ((count + 1'b1) >> 1);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      gray_q <= '0;
    end else if (en_i) begin
      gray_q <= gray_d;
    end
  end

  assign gray_o = gray_q;

endmodule
