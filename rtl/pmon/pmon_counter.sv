// One PMON counter: its two control registers (seed 001), the 48-bit data
// register and the per-cycle increment pipeline.
//
// Contract (docs/semantics.md P5..P11):
// * Increment (P5): code e = CTL0.Evnt_Sel; code 0 is COUNTER_IDLE and codes
//   >= NumEvents name no source: inc = 0. Source e with sub-events
//   (SubEvents[e]): inc = sum of its lanes selected by CTL0.Umask (IncW+3
//   bits); without: inc = its lane 0, whatever Umask holds.
// * Pipeline (P6): Thresh = 0 -> v = inc; else cond = Invert ? inc < Thresh
//   : inc >= Thresh, v = cond. a = (v != 0). Edge -> d = (a & ~prev) ? v : 0,
//   else d = v. Max (CTL1 bit 0) -> cnt = (d > data) ? d : data, else
//   cnt = data + d wrapping at 2**48; ovf = carry out of bit 47.
// * prev <= a every cycle; rst_cntr_i clears it (P10).
// * Next data, first match (P11): rst_cntr_i -> 0; a CTL0 write with
//   Cntr_Rst -> 0; a DATA_LO/DATA_HI write -> that half replaced; count_en_i
//   -> cnt; else hold. ovf_o is 1 only when the counting result commits
//   (P8): the box sets the status bit at the same edge.
// * Controls (P3, P10): CTL0/CTL1 writes store wdata_i & mask; rst_ctrl_i
//   clears both (and wins over a same-cycle write, which cannot happen: one
//   bus operation per cycle). Cntr_Rst is never stored (P7).
// * frz_req_o = ovf_o & Frz_On_Ov (P9).
// * Reset: everything 0.
`include "prim_assert.svh"

module pmon_counter #(
  parameter int unsigned         NumEvents = 4,
  parameter int unsigned         IncW      = 4,
  parameter logic [NumEvents-1:0] SubEvents = ~NumEvents'(3)  // P5: bit e, code e has sub-events
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  input  logic [NumEvents*8*IncW-1:0] event_i,    // lane l of source e at (e*8+l)*IncW
  input  logic                        count_en_i, // not frozen (P9)
  input  logic                        rst_ctrl_i, // box Rst_Ctrl written (P10)
  input  logic                        rst_cntr_i, // box Rst_Cntr written (P10)
  input  logic                        ctl0_we_i,
  input  logic                        ctl1_we_i,
  input  logic                        data_lo_we_i,
  input  logic                        data_hi_we_i,
  input  logic [31:0]                 wdata_i,
  output logic [31:0]                 ctl0_o,
  output logic [31:0]                 ctl1_o,
  output logic [W-1:0]                data_o,
  output logic                        ovf_o,      // overflow committed at this edge
  output logic                        frz_req_o   // ... with Frz_On_Ov
);

  localparam int unsigned SumW = IncW + 3;
  localparam int unsigned W    = pmon_reg_pkg::CntrW;  // 48, DATA_HI holds W-32 bits

  // public_flat_rd: the lockstep harness reads the registers every cycle
  // (sim/csrc/pmon_shim.cpp); no effect on the logic.
  logic [31:0] ctl0_q /*verilator public_flat_rd*/, ctl0_d;
  logic [31:0] ctl1_q /*verilator public_flat_rd*/, ctl1_d;
  logic [W-1:0] data_q /*verilator public_flat_rw*/, data_d;
  logic        prev_q, prev_d;

  logic [7:0]      evnt_sel, umask, thresh;
  logic            edge_en, frz_on_ov, invert, max_en;
  logic [SumW-1:0] inc;
  logic [SumW-1:0] v;
  logic            asserted;
  logic [SumW-1:0] d;
  logic [W:0]      sum;
  logic [W-1:0]    cnt;
  logic            ovf;

  assign evnt_sel  = ctl0_q[pmon_reg_pkg::Ctl0EvntSelLsb +: 8];
  assign umask     = ctl0_q[pmon_reg_pkg::Ctl0UmaskLsb +: 8];
  assign edge_en   = ctl0_q[pmon_reg_pkg::Ctl0EdgeLsb];
  assign frz_on_ov = ctl0_q[pmon_reg_pkg::Ctl0FrzOnOvLsb];
  assign invert    = ctl0_q[pmon_reg_pkg::Ctl0InvertLsb];
  assign thresh    = ctl0_q[pmon_reg_pkg::Ctl0ThreshLsb +: 8];
  assign max_en    = ctl1_q[pmon_reg_pkg::Ctl1MaxLsb];

  // P5: code 0 is COUNTER_IDLE (its lanes are not read); a source with
  // sub-events sums the lanes Umask selects, one without gives its lane 0.
  always_comb begin
    inc = '0;
    for (int unsigned e = 1; e < NumEvents; e++) begin
      if (32'(evnt_sel) == e) begin
        if (SubEvents[e]) begin
          for (int unsigned l = 0; l < 8; l++) begin
            if (umask[l]) begin
              inc = inc + SumW'(event_i[(e * 8 + l) * IncW +: IncW]);
            end
          end
        end else begin
          inc = SumW'(event_i[e * 8 * IncW +: IncW]);
        end
      end
    end
  end

  // The lanes no code reads (code 0's, and lanes 1..7 of a source without
  // sub-events) stay on the port so that lane l of code e sits at
  // (e*8+l)*IncW whatever SubEvents holds.
  logic unused_lanes;
  always_comb begin
    unused_lanes = ^event_i[8*IncW-1:0];
    for (int unsigned e = 1; e < NumEvents; e++) begin
      if (!SubEvents[e]) begin
        unused_lanes = unused_lanes ^ (^event_i[(e * 8 + 1) * IncW +: 7 * IncW]);
      end
    end
  end

  // P6: threshold/invert, then edge, then Max or add.
  logic cond;
  assign cond = invert ? (32'(inc) < 32'(thresh)) : (32'(inc) >= 32'(thresh));

  always_comb begin
    v = inc;
    if (thresh != 8'd0) begin
      v = SumW'(cond);
    end
  end

  assign asserted = (v != '0);
  assign d        = (!edge_en || (asserted && !prev_q)) ? v : '0;
  assign sum      = {1'b0, data_q} + (W+1)'(d);

  always_comb begin
    cnt = sum[W-1:0];
    ovf = sum[W];
    if (max_en) begin
      cnt = (W'(d) > data_q) ? W'(d) : data_q;
      ovf = 1'b0;
    end
  end

  // P7, P10, P11: next data and edge history.
  always_comb begin
    data_d = data_q;
    ovf_o  = 1'b0;
    if (rst_cntr_i) begin
      data_d = '0;
    end else if (ctl0_we_i && wdata_i[pmon_reg_pkg::Ctl0CntrRstLsb]) begin
      data_d = '0;
    end else if (data_lo_we_i) begin
      data_d = {data_q[W-1:32], wdata_i};
    end else if (data_hi_we_i) begin
      data_d = {wdata_i[W-33:0], data_q[31:0]};
    end else if (count_en_i) begin
      data_d = cnt;
      ovf_o  = ovf;
    end
  end

  assign prev_d = rst_cntr_i ? 1'b0 : asserted;

  // P3, P10: control registers.
  always_comb begin
    ctl0_d = ctl0_q;
    ctl1_d = ctl1_q;
    if (ctl0_we_i) begin
      ctl0_d = wdata_i & pmon_reg_pkg::Ctl0WrMask;
    end
    if (ctl1_we_i) begin
      ctl1_d = wdata_i & pmon_reg_pkg::Ctl1WrMask;
    end
    if (rst_ctrl_i) begin
      ctl0_d = '0;
      ctl1_d = '0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctl0_q <= '0;
      ctl1_q <= '0;
      data_q <= '0;
      prev_q <= 1'b0;
    end else begin
      ctl0_q <= ctl0_d;
      ctl1_q <= ctl1_d;
      data_q <= data_d;
      prev_q <= prev_d;
    end
  end

  assign ctl0_o    = ctl0_q;
  assign ctl1_o    = ctl1_q;
  assign data_o    = data_q;
  assign frz_req_o = ovf_o & frz_on_ov;

  ////////////////////////////////////////////////////////////////////////////
  // Assertions (live in every lockstep build, proven by `make formal`)
  ////////////////////////////////////////////////////////////////////////////

  // P5: Evnt_Sel 0 is COUNTER_IDLE: no increment, whatever Umask and the lanes hold.
  `PRIM_ASSERT_IMPLIES(IdleCountsNothing_A, evnt_sel == 8'd0, inc == '0)
  // P3, P7: the controls hold only writable bits; Cntr_Rst is never stored.
  `PRIM_ASSERT(CtlInMask_A, (ctl0_q & ~pmon_reg_pkg::Ctl0WrMask) == 32'h0
                            && (ctl1_q & ~pmon_reg_pkg::Ctl1WrMask) == 32'h0)
  // P7: Cntr_Rst clears the counter at the next edge; the cycle's increment
  // is dropped.
  `PRIM_ASSERT_NEXT(CntrRstDropsIncrement_A, ctl0_we_i && wdata_i[pmon_reg_pkg::Ctl0CntrRstLsb],
                    data_q == '0)
  // P8: only a committed count overflows, and never in Max mode.
  `PRIM_ASSERT_IMPLIES(OvfOnlyCounting_A, ovf_o, count_en_i && !max_en && !rst_cntr_i)
  // P9, P11: a cycle that neither counts nor writes nor resets holds the data.
  `PRIM_ASSERT_NEXT(FrozenHolds_A, !count_en_i && !rst_cntr_i && !ctl0_we_i && !data_lo_we_i
                                   && !data_hi_we_i, $stable(data_q))
  // P10: Rst_Ctrl clears both controls at the next edge.
  `PRIM_ASSERT_NEXT(RstCtrlClears_A, rst_ctrl_i, ctl0_q == 32'h0 && ctl1_q == 32'h0)

endmodule
