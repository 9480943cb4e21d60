// PULSE import synchronizer, destination side of a toggle pulse synchronizer.
//
// Contract (docs/semantics.md S15, S16; seed 003 "The EVENT and FLAG
// signals", PULSE: "converts all 0-to-1 transitions in source domain into
// single-clock pulses in destination domain"):
// * The source side lives in the source domain (pcnt_domain event_tog_o /
//   flag_tog_o): a toggle flipped at each source tick at which the signal
//   rises. tog_i is that toggle flop.
// * At each destination tick (en_i = 1): p1 <= tog_i, p2 <= p1, p3 <= p2.
//   Between ticks all three hold (S15).
// * pulse_o = p2 ^ p3: 1 for exactly one destination tick per toggle change
//   the destination observes. Rising edges closer than the destination's
//   sampling merge: an odd number between two samples gives one pulse, an
//   even number none; a long level gives one pulse (S16).
// * Reset (S8, S16): all three flops 0 (and the source toggle is 0).
module pcnt_pulse_sync (
  input  logic clk_i,
  input  logic rst_ni,
  input  logic en_i,    // destination domain tick (S15)
  input  logic tog_i,   // source toggle
  output logic pulse_o  // one destination tick per observed toggle change
);

  logic p1_q, p1_d;
  logic p2_q, p2_d;
  logic p3_q, p3_d;

  assign p1_d = tog_i;
  assign p2_d = p1_q;
  assign p3_d = p2_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      p1_q <= 1'b0;
      p2_q <= 1'b0;
      p3_q <= 1'b0;
    end else if (en_i) begin
      p1_q <= p1_d;
      p2_q <= p2_d;
      p3_q <= p3_d;
    end
  end

  assign pulse_o = p2_q ^ p3_q;

endmodule
