// One R10000/R12000 event counter: its control register (PerfCtl), its
// 32-bit count (PerfCnt), the event select and the mode match.
//
// Contract (docs/semantics.md R3..R10):
// * Event select (R4): src = Event + (R10000 and Index = 1 ? 16 : 0); the
//   cycle sources (R10000 0 and 16, R12000 0) add 1 every cycle and ignore
//   their input (R5); inc = the source's IncW-bit input otherwise.
// * Mode match (R7): counts in cycle t when ERL = 0 and (EXL & ctl.EXL |
//   ~EXL & (KSU = 2 & ctl.U | KSU = 1 & ctl.S | KSU = 0 & ctl.K)).
// * Next count, first match (R10): a count write -> the written value; a
//   counting cycle -> cnt + inc, wrapping at 2^32 (R8); else hold. A
//   control write stores wdata_i & the variant's mask (R3) at the same
//   edge; the cycle counts with the old control.
// * irq_o = cnt_q[31] & ctl_q.IE (R9), from flops.
// * Reset: both registers 0 (R11).
`include "prim_assert.svh"

module r10k_counter #(
  parameter int unsigned Variant = r10k_reg_pkg::VariantR10000,
  parameter int unsigned Index   = 0
) (
  input  logic                                               clk_i,
  input  logic                                               rst_ni,
  input  logic [r10k_reg_pkg::NumSources*r10k_reg_pkg::IncW-1:0] event_i,
  input  logic [1:0]                                         ksu_i,
  input  logic                                               exl_i,
  input  logic                                               erl_i,
  input  logic                                               ctl_we_i,
  input  logic                                               cnt_we_i,
  input  logic [31:0]                                        wdata_i,
  output logic [31:0]                                        ctl_o,
  output logic [31:0]                                        cnt_o,
  output logic                                               irq_o
);

  localparam int unsigned IncW = r10k_reg_pkg::IncW;
  // The R12000's event list (R4): both counters select from sources 0..31,
  // and only source 0 is the cycle count. The R10000's counter 1 has the
  // seed's events 16..31.
  localparam bit ListR12000 = (Variant == r10k_reg_pkg::VariantR12000);
  localparam logic [31:0] WrMask = (Variant == r10k_reg_pkg::VariantR12000)
                                 ? r10k_reg_pkg::CtlWrMaskR12000 : r10k_reg_pkg::CtlWrMaskR10000;

  // public_flat_rd: read every cycle by the lockstep harness
  // (sim/csrc/r10k_shim.cpp); no effect on the logic.
  logic [31:0] ctl_q /*verilator public_flat_rd*/, ctl_d;
  logic [31:0] cnt_q /*verilator public_flat_rd*/, cnt_d;

  logic [4:0]      event_sel;
  logic [4:0]      src;
  logic            cycles;
  logic [IncW-1:0] inc;
  logic            mode_match;

  // Bits above the variant's Event field are 0 in ctl_q (WrMask).
  assign event_sel = ctl_q[r10k_reg_pkg::CtlEventLsb +: 5];
  assign src       = (!ListR12000 && Index == 1) ? (event_sel | 5'd16) : event_sel;
  assign cycles    = ListR12000 ? (src == 5'd0) : (src[3:0] == 4'd0);

  always_comb begin
    inc = event_i[32'(src) * IncW +: IncW];
    if (cycles) begin
      inc = IncW'(1);
    end
  end

  always_comb begin
    mode_match = 1'b0;
    if (!erl_i) begin
      if (exl_i) begin
        mode_match = ctl_q[r10k_reg_pkg::CtlExlLsb];
      end else begin
        unique case (ksu_i)
          2'd2:    mode_match = ctl_q[r10k_reg_pkg::CtlULsb];
          2'd1:    mode_match = ctl_q[r10k_reg_pkg::CtlSLsb];
          2'd0:    mode_match = ctl_q[r10k_reg_pkg::CtlKLsb];
          default: mode_match = 1'b0;  // KSU = 3: no mode bit names it (R7)
        endcase
      end
    end
  end

  always_comb begin
    ctl_d = ctl_q;
    cnt_d = cnt_q;
    if (mode_match) begin
      cnt_d = cnt_q + 32'(inc);
    end
    if (cnt_we_i) begin
      cnt_d = wdata_i;
    end
    if (ctl_we_i) begin
      ctl_d = wdata_i & WrMask;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctl_q <= '0;
      cnt_q <= '0;
    end else begin
      ctl_q <= ctl_d;
      cnt_q <= cnt_d;
    end
  end

  assign ctl_o = ctl_q;
  assign cnt_o = cnt_q;
  assign irq_o = cnt_q[31] & ctl_q[r10k_reg_pkg::CtlIeLsb];

  ////////////////////////////////////////////////////////////////////////////
  // Assertions (live in every lockstep build, proven by `make formal`)
  ////////////////////////////////////////////////////////////////////////////

  // R3: the control holds only the variant's fields.
  `PRIM_ASSERT(CtlInMask_A, (ctl_q & ~WrMask) == 32'h0)
  // R7: in error level (ERL) nothing counts: without a count write the count holds.
  `PRIM_ASSERT_NEXT(ErlHolds_A, erl_i && !cnt_we_i, $stable(cnt_q))
  // R10: a count write wins over the cycle's increment.
  `PRIM_ASSERT_NEXT(CntWriteWins_A, cnt_we_i, cnt_q == $past(wdata_i))

endmodule
