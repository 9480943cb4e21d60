// PMON IP (Intel uncore performance monitoring, seed 001 with the registers
// of Intel UG 817760 5.4.1..5.4.8): the global block (discovery, control,
// status), one unit (discovery; NumCounters pmon_counter instances, the
// box control and status registers) and the APB4 front-end.
//
// Contract (docs/semantics.md P1..P13):
// * APB4 completer on a 9-bit address, the IP's CSR space from I_PMON_BAR
//   = 0 (P1): PREADY always 1; PADDR[1:0] ignored; a write with PSTRB !=
//   4'hf, or any access to an offset that is no register (P2: 0x028..0x0ff,
//   counters >= NumCounters, 0x1a8 and up), answers PSLVERR with no effect
//   and PRDATA 0. PRDATA is 0 outside the ACCESS cycle of a read, PSLVERR 0
//   outside ACCESS.
// * Map (P2): global discovery 0x000..0x017 (constants), GCTRL 0x018/0x01c
//   (reserved), GSTS 0x020 (UnitBlock_Ov[0]) / 0x024 (reserved); unit
//   discovery 0x100..0x117 (constants; NumCntr = NumCounters); the unit
//   from PMON_UCADR = 0x118: BOX_CTL, BOX_CTL_HI (reserved), BOX_STATUS
//   0x120, BOX_STATUS_HI (reserved), 0x128+8j CTL0[j], 0x12c+8j CTL1[j],
//   0x168+8j DATA_LO[j], 0x16c+8j DATA_HI[j]. Reserved bits and constants
//   ignore writes (P3).
// * BOX_CTL (P9, P10): Freeze stored; Rst_Ctrl / Rst_Cntr act on the write
//   (controls / data and edge history of every counter 0 at the next edge)
//   and read 0. Freeze is also set by hardware when the global control
//   asserts the global freeze (a counter with Frz_On_Ov overflows); the
//   hardware set wins over a write of 0.
// * GSTS_L.UnitBlock_Ov[0] (P9): set at the edge that commits an overflow
//   of a counter with Frz_On_Ov; write 1 clears; a same-cycle set wins.
// * BOX_STATUS (P8): bit j set at the edge that commits counter j's
//   overflow; write 1 clears; a same-cycle overflow wins.
// * Counting enabled (P9) = ~Freeze & ~freeze_i (freeze_i acts in its own
//   cycle). ovf_o = |BOX_STATUS (a flop level).
// * Reads return the registers before the cycle's commit (P12).
// * Names the lockstep harness may rely on: gen_ctr[j].u_counter, freeze_q,
//   status_q, gsts_q (public_flat_rd).
// * Parameters checked at elaboration (P13).
`include "prim_assert.svh"

module pmon_box #(
  parameter int unsigned          NumCounters = 4,
  parameter int unsigned          NumEvents   = 4,
  parameter int unsigned          IncW        = 4,
  // P5: bit e = 1 when event code e has sub-events (Umask selects its
  // lanes); default every code from 2 up, so code 1 has none. Code 0 is
  // COUNTER_IDLE whatever bit 0 holds.
  parameter logic [NumEvents-1:0] SubEvents   = ~NumEvents'(3)
) (
  input  logic                        clk_i,
  input  logic                        rst_ni,
  // APB4 completer
  input  logic                        psel_i,
  input  logic                        penable_i,
  input  logic                        pwrite_i,
  input  logic [pmon_reg_pkg::AddrW-1:0] paddr_i,
  input  logic [31:0]                 pwdata_i,
  input  logic [3:0]                  pstrb_i,
  output logic [31:0]                 prdata_o,
  output logic                        pready_o,
  output logic                        pslverr_o,
  // global PMON control
  input  logic                        freeze_i,
  output logic                        ovf_o,
  // events: lane l of event code e at (e*8+l)*IncW +: IncW (P5)
  input  logic [NumEvents*8*IncW-1:0] event_i
);

  if (NumCounters < 1 || NumCounters > pmon_reg_pkg::NumCountersMax) begin : gen_num_counters_check
    $error("pmon_box: NumCounters must be 1..8");
  end
  if (NumEvents < 1 || NumEvents > 256) begin : gen_num_events_check
    $error("pmon_box: NumEvents must be 1..256");
  end
  if (IncW < 1 || IncW > 5) begin : gen_inc_w_check
    $error("pmon_box: IncW must be 1..5");
  end

  localparam int unsigned N = NumCounters;
  localparam int unsigned AW = pmon_reg_pkg::AddrW;

  ////////////////////////////////////////////////////////////////////////////
  // Decode (P1, P2)
  ////////////////////////////////////////////////////////////////////////////

  logic [AW-1:0] addr;
  logic       hit_box_ctl, hit_box_status, hit_reserved, hit_gsts, hit_udis_l, hit_const;
  logic [31:0] const_val;
  logic [N-1:0] hit_ctl0, hit_ctl1, hit_data_lo, hit_data_hi;

  assign addr    = {paddr_i[AW-1:2], 2'b00};

  // PADDR[1:0] are ignored (P1).
  logic unused_paddr;
  assign unused_paddr = ^paddr_i[1:0];

  assign hit_box_ctl    = (addr == pmon_reg_pkg::OffBoxCtl);
  assign hit_box_status = (addr == pmon_reg_pkg::OffBoxStatus);
  assign hit_reserved   = (addr == pmon_reg_pkg::OffBoxCtlHi) || (addr == pmon_reg_pkg::OffBoxStatusHi)
                        || (addr == pmon_reg_pkg::OffGsoffH) || (addr == pmon_reg_pkg::OffGctrlL)
                        || (addr == pmon_reg_pkg::OffGctrlH) || (addr == pmon_reg_pkg::OffGstsH)
                        || (addr == pmon_reg_pkg::OffUidtH);
  assign hit_gsts       = (addr == pmon_reg_pkg::OffGstsL);
  assign hit_udis_l     = (addr == pmon_reg_pkg::OffUdisL);

  // The discovery constants (P2: UG 817760 5.4.1, 5.4.4); UDIS_L apart, as
  // its NumCntr is the build's NumCounters.
  always_comb begin
    hit_const = 1'b1;
    const_val = 32'h0;
    unique case (addr)
      pmon_reg_pkg::OffGdisL:  const_val = pmon_reg_pkg::GdisLReset;
      pmon_reg_pkg::OffGdisH:  const_val = pmon_reg_pkg::GdisHReset;
      pmon_reg_pkg::OffGcadrL: const_val = pmon_reg_pkg::GcadrLReset;
      pmon_reg_pkg::OffGcadrH: const_val = pmon_reg_pkg::GcadrHReset;
      pmon_reg_pkg::OffGsoffL: const_val = pmon_reg_pkg::GsoffLReset;
      pmon_reg_pkg::OffUdisH:  const_val = pmon_reg_pkg::UdisHReset;
      pmon_reg_pkg::OffUcadrL: const_val = pmon_reg_pkg::UcadrLReset;
      pmon_reg_pkg::OffUcadrH: const_val = pmon_reg_pkg::UcadrHReset;
      pmon_reg_pkg::OffUidtL:  const_val = pmon_reg_pkg::UidtLReset;
      default:                 hit_const = 1'b0;
    endcase
  end

  for (genvar j = 0; j < N; j++) begin : gen_hit
    assign hit_ctl0[j]    = (addr == pmon_reg_pkg::OffCtl0Base + AW'(j) * pmon_reg_pkg::CtrStride);
    assign hit_ctl1[j]    = (addr == pmon_reg_pkg::OffCtl1Base + AW'(j) * pmon_reg_pkg::CtrStride);
    assign hit_data_lo[j] = (addr == pmon_reg_pkg::OffDataLoBase + AW'(j) * pmon_reg_pkg::CtrStride);
    assign hit_data_hi[j] = (addr == pmon_reg_pkg::OffDataHiBase + AW'(j) * pmon_reg_pkg::CtrStride);
  end

  logic access, present, strb_ok, wr_ok, rd_ok;

  assign access  = psel_i & penable_i;
  assign present = hit_box_ctl | hit_box_status | hit_reserved | hit_gsts | hit_udis_l | hit_const
                 | (|hit_ctl0) | (|hit_ctl1) | (|hit_data_lo) | (|hit_data_hi);
  assign strb_ok = (pstrb_i == 4'hf);
  assign wr_ok   = access & pwrite_i & present & strb_ok;
  assign rd_ok   = access & ~pwrite_i & present;

  logic box_ctl_we, box_status_we, gsts_we, rst_ctrl, rst_cntr;
  assign box_ctl_we    = wr_ok & hit_box_ctl;
  assign box_status_we = wr_ok & hit_box_status;
  assign gsts_we       = wr_ok & hit_gsts;
  assign rst_ctrl      = box_ctl_we & pwdata_i[pmon_reg_pkg::BoxCtlRstCtrlLsb];
  assign rst_cntr      = box_ctl_we & pwdata_i[pmon_reg_pkg::BoxCtlRstCntrLsb];

  ////////////////////////////////////////////////////////////////////////////
  // Counters
  ////////////////////////////////////////////////////////////////////////////

  // public_flat_rd: read every cycle by the lockstep harness; no effect on the logic.
  logic         freeze_q /*verilator public_flat_rd*/, freeze_d;
  logic [N-1:0] status_q /*verilator public_flat_rd*/, status_d;
  logic         gsts_q /*verilator public_flat_rd*/, gsts_d;
  logic         count_en;
  logic [N-1:0] ovf, frz_req;
  logic [N*32-1:0] ctl0, ctl1;
  logic [N*pmon_reg_pkg::CntrW-1:0] data;

  assign count_en = ~freeze_q & ~freeze_i;

  for (genvar j = 0; j < N; j++) begin : gen_ctr
    pmon_counter #(
      .NumEvents (NumEvents),
      .IncW      (IncW),
      .SubEvents (SubEvents)
    ) u_counter (
      .clk_i        (clk_i),
      .rst_ni       (rst_ni),
      .event_i      (event_i),
      .count_en_i   (count_en),
      .rst_ctrl_i   (rst_ctrl),
      .rst_cntr_i   (rst_cntr),
      .ctl0_we_i    (wr_ok & hit_ctl0[j]),
      .ctl1_we_i    (wr_ok & hit_ctl1[j]),
      .data_lo_we_i (wr_ok & hit_data_lo[j]),
      .data_hi_we_i (wr_ok & hit_data_hi[j]),
      .wdata_i      (pwdata_i),
      .ctl0_o       (ctl0[j*32 +: 32]),
      .ctl1_o       (ctl1[j*32 +: 32]),
      .data_o       (data[j*pmon_reg_pkg::CntrW +: pmon_reg_pkg::CntrW]),
      .ovf_o        (ovf[j]),
      .frz_req_o    (frz_req[j])
    );
  end

  ////////////////////////////////////////////////////////////////////////////
  // Box control and status, global status (P8, P9)
  ////////////////////////////////////////////////////////////////////////////

  // frz_req: a counter with Frz_On_Ov overflows in this cycle. The
  // indication goes to the global status, and the global control asserts
  // the global freeze, which sets the Freeze bit of every unit of the
  // domain (this one) at the same edge (P9).
  always_comb begin
    freeze_d = freeze_q;
    status_d = status_q;
    gsts_d   = gsts_q;
    if (gsts_we) begin
      gsts_d = gsts_q & ~pwdata_i[pmon_reg_pkg::GstsLUnitblockOvLsb];
    end
    if (box_ctl_we) begin
      freeze_d = pwdata_i[pmon_reg_pkg::BoxCtlFreezeLsb];
    end
    if (box_status_we) begin
      status_d = status_q & ~pwdata_i[N-1:0];
    end
    // Hardware sets win over the same cycle's software write (P8, P9).
    if (|frz_req) begin
      freeze_d = 1'b1;
      gsts_d   = 1'b1;
    end
    status_d = status_d | ovf;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      freeze_q <= 1'b0;
      status_q <= '0;
      gsts_q   <= 1'b0;
    end else begin
      freeze_q <= freeze_d;
      status_q <= status_d;
      gsts_q   <= gsts_d;
    end
  end

  assign ovf_o = |status_q;

  ////////////////////////////////////////////////////////////////////////////
  // Reads and response (P1, P12)
  ////////////////////////////////////////////////////////////////////////////

  logic [31:0] rd_view;
  logic [31:0] rd_ctr;

  // AND-OR over the one-hot hits of the per-counter registers.
  always_comb begin
    rd_ctr = 32'h0;
    for (int unsigned j = 0; j < N; j++) begin
      rd_ctr = rd_ctr
             | ({32{hit_ctl0[j]}} & ctl0[j*32 +: 32])
             | ({32{hit_ctl1[j]}} & ctl1[j*32 +: 32])
             | ({32{hit_data_lo[j]}} & data[j*pmon_reg_pkg::CntrW +: 32])
             | ({32{hit_data_hi[j]}} & 32'(data[j*pmon_reg_pkg::CntrW + 32 +: pmon_reg_pkg::CntrW - 32]));
    end
  end

  always_comb begin
    rd_view = rd_ctr;
    if (hit_box_ctl) begin
      rd_view = {31'h0, freeze_q};
    end else if (hit_box_status) begin
      rd_view = 32'(status_q);
    end else if (hit_gsts) begin
      rd_view = {31'h0, gsts_q};
    end else if (hit_udis_l) begin
      rd_view = pmon_reg_pkg::UdisLReset;
      rd_view[pmon_reg_pkg::UdisLNumCntrLsb +: pmon_reg_pkg::UdisLNumCntrWidth] =
        pmon_reg_pkg::UdisLNumCntrWidth'(N);
    end else if (hit_const) begin
      rd_view = const_val;
    end else if (hit_reserved) begin
      rd_view = 32'h0;
    end
  end

  assign prdata_o  = rd_ok ? rd_view : 32'h0;
  assign pready_o  = 1'b1;
  assign pslverr_o = access & (~present | (pwrite_i & ~strb_ok));

  ////////////////////////////////////////////////////////////////////////////
  // Assertions (live in every lockstep build, proven by `make formal`)
  ////////////////////////////////////////////////////////////////////////////

  // P1: no wait state; no response outside the ACCESS cycle.
  `PRIM_ASSERT(ReadyAlways_A, pready_o)
  `PRIM_ASSERT_IMPLIES(IdleQuiet_A, !(psel_i && penable_i), prdata_o == 32'h0 && !pslverr_o)
  // P8: an overflow sets its status bit at the next edge, whatever a write 1
  // to clear of the same cycle asks.
  `PRIM_ASSERT_NEXT(OvfSetsStatus_A, |ovf, (status_q & $past(ovf)) == $past(ovf))
  // P8: without an overflow, a write 1 to clear clears exactly its bits.
  `PRIM_ASSERT_NEXT(StatusW1C_A, box_status_we && !(|ovf),
                    status_q == ($past(status_q) & ~$past(pwdata_i[N-1:0])))
  // P9: an overflow with Frz_On_Ov freezes the box and sets the global
  // status at the next edge.
  `PRIM_ASSERT_NEXT(OvfFreezes_A, |frz_req, freeze_q && gsts_q)
  // P9: the global status is set only by such an overflow.
  `PRIM_ASSERT_NEXT(GstsOnlyByFrzOvf_A, !gsts_q && !(|frz_req), !gsts_q)

endmodule
