// CONTINUOUS import synchronizer: two flops on the destination domain's ticks.
//
// Contract (docs/semantics.md S15, S16; seed 003 "The EVENT and FLAG
// signals", CONTINUOUS: "the state of DOM[x].FLAG signal in domain y will be
// the same as the state of FLAG in domain x as of two domain y clocks ago"):
// * At each destination tick (en_i = 1): s1 <= d_i, s2 <= s1. Between ticks
//   both hold (S15: all of a domain's state changes only at its ticks).
// * q_o = s2: the source as sampled two destination ticks before. Short
//   pulses of a fast source may be lost, slow ones stretched (seed).
// * d_i is a flop of the source domain (event_sig / flag_sig, S3/S4).
//   There is one bus clock, so no metastability model: the cell fixes the
//   cycle timing the lockstep model reproduces bit-exactly.
// * Reset (S8, S16): both flops 0.
module prim_sync_2ff (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic en_i,  // destination domain tick (S15)
  input  logic d_i,   // source signal
  output logic q_o    // source as of two destination ticks ago
);

  logic s1_q, s1_d;
  logic s2_q, s2_d;

  assign s1_d = d_i;
  assign s2_d = s1_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      s1_q <= 1'b0;
      s2_q <= 1'b0;
    end else if (en_i) begin
      s1_q <= s1_d;
      s2_q <= s2_d;
    end
  end

  assign q_o = s2_q;

endmodule
