// Destination side of a pulse synchronizer: one destination tick of pulse
// per source edge, for the PULSE imports (S16) and the global PGRAPH pulses
// PM_TRIGGER and WRCACHE_FLUSH (S22). The one pulse-synchronizer cell of
// the project; its source side is prim_edge_cnt.
//
// Contract (docs/semantics.md S15, S16, S22; seed 003 "The EVENT and FLAG
// signals", PULSE: "converts all 0-to-1 transitions in source domain into
// single-clock pulses in destination domain"):
// * gray_i is the source's edge count (prim_edge_cnt, Gray code, a flop).
// * At each destination tick (en_i = 1): p1 <= gray_i, p2 <= p1 (two
//   synchronizer stages), seen <= seen + pulse_o. Between ticks all hold (S15).
// * pulse_o = (gray2bin(p2) != seen): 1 for one destination tick per edge
//   the count has advanced by and the destination has not yet delivered. So
//   every edge gives exactly one pulse, in order, one per destination tick,
//   even when several edges arrive between two destination ticks; only more
//   than 2**Width - 1 edges pending at once lose edges (the count is
//   modular: the destination then delivers count mod 2**Width of them).
// * Latency: an edge counted at source edge t (visible from t+1) gives its
//   pulse in the second destination tick that starts after it, with no
//   backlog (S22).
// * Reset (S8): all stages and seen 0.
// * Shared cell (rtl/common): no device package; Width is the caller's.
module prim_pulse_sync #(
  parameter int unsigned Width = 3
) (
  input  logic             clk_i,
  input  logic             rst_ni,
  input  logic             en_i,    // destination domain tick (S15)
  input  logic [Width-1:0] gray_i,  // source edge count (Gray)
  output logic             pulse_o  // one destination tick per edge
);

  localparam int unsigned W = Width;

  logic [W-1:0] p1_q, p1_d;
  logic [W-1:0] p2_q, p2_d;
  logic [W-1:0] seen_q, seen_d;
  logic [W-1:0] count;

  // Gray to binary: bit i is the XOR of gray bits i and above.
  always_comb begin
    count = p2_q;
    for (int unsigned i = 1; i < W; i++) begin
      count = count ^ (p2_q >> i);
    end
  end

  assign pulse_o = (count != seen_q);

  assign p1_d   = gray_i;
  assign p2_d   = p1_q;
  assign seen_d = seen_q + W'(pulse_o);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p1_q   <= '0;
      p2_q   <= '0;
      seen_q <= '0;
    end else if (en_i) begin
      p1_q   <= p1_d;
      p2_q   <= p2_d;
      seen_q <= seen_d;
    end
  end

endmodule
