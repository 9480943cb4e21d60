// MIPS R10000/R12000 event counters (seed 002, the IRIX man page
// r10k_evcntrs(5)): two r10k_counter instances, the APB4 window onto the
// CP0 PerfCtl/PerfCnt registers and the overflow interrupt.
//
// Contract (docs/semantics.md R1..R12):
// * Window (R1): CP0 register 25 select s at offset 4*s: 0x00 PerfCtl0,
//   0x04 PerfCnt0, 0x08 PerfCtl1, 0x0c PerfCnt1. APB4 completer on an
//   8-bit address: PREADY always 1; PADDR[1:0] ignored; a write with
//   PSTRB != 4'hf, or any access at 0x10 and up, answers PSLVERR with no
//   effect and PRDATA 0. PRDATA is 0 outside the ACCESS cycle of a read,
//   PSLVERR 0 outside ACCESS.
// * Variant (R2): VariantR10000 (Event 8:5, counter 1 has events 16..31)
//   or VariantR12000 (Event 9:5, one list of 32 for both counters).
// * Inputs of the cycle: the CP0 Status mode (ksu_i, exl_i, erl_i, R7) and
//   event_i, source s at s*IncW +: IncW (R4..R6).
// * irq_o (R9) = OR over the counters of cnt[31] & IE: a level from flops.
// * Reads return the registers before the cycle's commit (R10).
// * Names the lockstep harness relies on: gen_ctr[j].u_counter.
`include "prim_assert.svh"

module r10k_perf #(
  parameter int unsigned Variant = r10k_reg_pkg::VariantR10000
) (
  input  logic                                               clk_i,
  input  logic                                               rst_ni,
  // APB4 completer
  input  logic                                               psel_i,
  input  logic                                               penable_i,
  input  logic                                               pwrite_i,
  input  logic [7:0]                                         paddr_i,
  input  logic [31:0]                                        pwdata_i,
  input  logic [3:0]                                         pstrb_i,
  output logic [31:0]                                        prdata_o,
  output logic                                               pready_o,
  output logic                                               pslverr_o,
  // CP0 Status mode of the cycle
  input  logic [1:0]                                         ksu_i,
  input  logic                                               exl_i,
  input  logic                                               erl_i,
  // event sources: source s at s*IncW +: IncW
  input  logic [r10k_reg_pkg::NumSources*r10k_reg_pkg::IncW-1:0] event_i,
  // overflow interrupt request
  output logic                                               irq_o
);

  if (Variant != r10k_reg_pkg::VariantR10000 && Variant != r10k_reg_pkg::VariantR12000) begin : gen_variant_check
    $error("r10k_perf: Variant must be VariantR10000 (0) or VariantR12000 (1)");
  end

  localparam int unsigned N = r10k_reg_pkg::NumCounters;

  ////////////////////////////////////////////////////////////////////////////
  // Decode (R1)
  ////////////////////////////////////////////////////////////////////////////

  logic [7:0]   addr;
  logic [N-1:0] hit_ctl, hit_cnt;

  assign addr = {paddr_i[7:2], 2'b00};

  // PADDR[1:0] are ignored (R1).
  logic unused_paddr;
  assign unused_paddr = ^paddr_i[1:0];

  for (genvar j = 0; j < N; j++) begin : gen_hit
    assign hit_ctl[j] = (addr == r10k_reg_pkg::OffCtl0 + 8'(j) * r10k_reg_pkg::CtrStride);
    assign hit_cnt[j] = (addr == r10k_reg_pkg::OffCnt0 + 8'(j) * r10k_reg_pkg::CtrStride);
  end

  logic access, present, strb_ok, wr_ok, rd_ok;

  assign access  = psel_i & penable_i;
  assign present = (|hit_ctl) | (|hit_cnt);
  assign strb_ok = (pstrb_i == 4'hf);
  assign wr_ok   = access & pwrite_i & present & strb_ok;
  assign rd_ok   = access & ~pwrite_i & present;

  ////////////////////////////////////////////////////////////////////////////
  // Counters
  ////////////////////////////////////////////////////////////////////////////

  logic [N*32-1:0] ctl, cnt;
  logic [N-1:0]    irq;

  for (genvar j = 0; j < N; j++) begin : gen_ctr
    r10k_counter #(
      .Variant (Variant),
      .Index   (j)
    ) u_counter (
      .clk_i    (clk_i),
      .rst_ni   (rst_ni),
      .event_i  (event_i),
      .ksu_i    (ksu_i),
      .exl_i    (exl_i),
      .erl_i    (erl_i),
      .ctl_we_i (wr_ok & hit_ctl[j]),
      .cnt_we_i (wr_ok & hit_cnt[j]),
      .wdata_i  (pwdata_i),
      .ctl_o    (ctl[j*32 +: 32]),
      .cnt_o    (cnt[j*32 +: 32]),
      .irq_o    (irq[j])
    );
  end

  assign irq_o = |irq;

  ////////////////////////////////////////////////////////////////////////////
  // Reads and response (R1, R10)
  ////////////////////////////////////////////////////////////////////////////

  logic [31:0] rd_view;

  // AND-OR over the one-hot hits.
  always_comb begin
    rd_view = 32'h0;
    for (int unsigned j = 0; j < N; j++) begin
      rd_view = rd_view
              | ({32{hit_ctl[j]}} & ctl[j*32 +: 32])
              | ({32{hit_cnt[j]}} & cnt[j*32 +: 32]);
    end
  end

  assign prdata_o  = rd_ok ? rd_view : 32'h0;
  assign pready_o  = 1'b1;
  assign pslverr_o = access & (~present | (pwrite_i & ~strb_ok));

  ////////////////////////////////////////////////////////////////////////////
  // Assertions (live in every lockstep build, proven by `make formal`)
  ////////////////////////////////////////////////////////////////////////////

  // R1: no wait state; no response outside the ACCESS cycle.
  `PRIM_ASSERT(ReadyAlways_A, pready_o)
  `PRIM_ASSERT_IMPLIES(IdleQuiet_A, !(psel_i && penable_i), prdata_o == 32'h0 && !pslverr_o)
  // R9: irq_o = OR over both counters (the window has two, R1) of cnt[31] & IE.
  `PRIM_ASSERT(IrqFromCounters_A,
               irq_o == ((cnt[31] & ctl[r10k_reg_pkg::CtlIeLsb])
                         | (cnt[63] & ctl[32 + r10k_reg_pkg::CtlIeLsb])))

endmodule
