// Record mode of one domain (docs/semantics.md S21; seed 003 "Record mode",
// "Record mode setup"): the record counters, buffer position and limit, and
// the domain's outgoing packet slot towards the shared memory port.
//
// Contract:
// * Counting part, advanced only at ticks (tick_i, S15), from the state of
//   the tick: rec = record_mode_i (CTRL.MODE = RECORD on G84+). The counters
//   a packet carries are EV[0..11] in LONG, EV[0..3] in SHORT (~long_i).
//   trigger = rec & (stop_q != 0 | some carried ev_q >= 16'hf000 | stale_q);
//   fire = trigger & ~busy_q & ~wedged_q & ~start_we_i & ~record_reset_i;
//   send = fire & buf_valid_q & bound_i (a packet to the slot);
//   unbound = fire & buf_valid_q & ~bound_i (VM fault at once, S21 (b));
//   fire & ~buf_valid_q drops the packet (S21 (c)). Next counters, first
//   match: record_reset_i -> all 0; start_we_i & rec -> all 0; rec & fire ->
//   cycles + 1, ev[i] = sel_i[i], stop = stop_i; rec -> cycles + 1 (48-bit
//   wrap), ev[i] + sel_i[i] saturating at 16'hffff, stop + stop_i saturating
//   at 12'hfff; else hold. In rec with SHORT, EV[4..11] are 0 (S21 (e)).
// * stale (S21 (d)), at ticks: record_reset_i -> 0; start_we_i -> ~rec;
//   fire -> 0; else hold.
// * Position: a RECORD_START write loads start_data_i[31:4] and sets
//   buf_valid; a send advances by 16 (SHORT) or 32 (LONG) bytes wrapping at
//   2^32 and clears buf_valid when the packet address >= limit_i[31:4]
//   (checked after the write: one packet always goes out).
// * Slot, FAULT, wedged: memory-port state, every bus cycle. A send loads the
//   packet (pre-tick values, S21 word layout), its 40-bit address
//   {addr_high_i, position} and size, and sets busy; done_i clears busy and,
//   with err_i, sets fault and wedged; unbound sets fault and wedged.
//   fault_clear_i clears fault (a fault set in the same cycle wins); wedged
//   clears only at reset.
// * Reset: everything 0.
`include "prim_assert.svh"

module pcnt_record (
  input  logic         clk_i,
  input  logic         rst_ni,
  input  logic         tick_i,
  input  logic         record_mode_i,
  input  logic [11:0]  sel_i,
  input  logic         stop_i,
  input  logic         record_reset_i,
  input  logic         bound_i,
  input  logic         start_we_i,
  input  logic [31:4]  start_data_i,
  input  logic [31:4]  limit_i,
  input  logic [7:0]   addr_high_i,
  input  logic         long_i,
  input  logic         fault_clear_i,
  input  logic         done_i,
  input  logic         err_i,
  output logic         busy_o,
  output logic [255:0] pkt_o,
  output logic [39:0]  addr_o,
  output logic         long_o,
  output logic [31:0]  status_o
);

  localparam logic [15:0] NearOverflow = 16'hf000;
  localparam logic [15:0] EvMax        = 16'hffff;
  localparam logic [11:0] StopMax      = 12'hfff;

  // The counters are public for the S14 poke backdoor (verification only).
  logic [47:0]      cycles_q /*verilator public_flat_rw*/, cycles_d;
  logic [191:0]     ev_q /*verilator public_flat_rw*/, ev_d;  // EV[i] at bits i*16 +: 16
  logic [11:0]      stop_q /*verilator public_flat_rw*/, stop_d;
  logic [27:0]      pos_q, pos_d;
  logic             buf_valid_q, buf_valid_d;
  logic             busy_q, busy_d;
  logic [255:0]     pkt_q, pkt_d;
  logic [39:0]      addr_q, addr_d;
  logic             long_q, long_d;
  logic             fault_q, fault_d;
  logic             wedged_q, wedged_d;
  logic             stale_q, stale_d;

  logic        near_overflow, trigger, fire, send, unbound;
  logic [11:0] carried;  // counters a packet of this tick's format carries

  // SHORT carries EV[0..3] only; the others neither count nor trigger (S21 (e)).
  assign carried = long_i ? 12'hfff : 12'h00f;

  // EV counters at or past the near-overflow mark (S21), a flag each. A
  // generate loop, so that an index past the vector is an elaboration error
  // (make lint), not a read that two-state simulation turns into 0.
  logic [11:0] ev_near;
  for (genvar i = 0; i < 12; i++) begin : gen_ev_near
    assign ev_near[i] = (ev_q[i*16 +: 16] >= NearOverflow);
  end
  assign near_overflow = |(carried & ev_near);

  assign trigger = record_mode_i & ((stop_q != 12'd0) | near_overflow | stale_q);
  assign fire    = tick_i & trigger & ~busy_q & ~wedged_q & ~start_we_i & ~record_reset_i;
  assign send    = fire & buf_valid_q & bound_i;
  assign unbound = fire & buf_valid_q & ~bound_i;

  // Counters (advance at ticks).
  always_comb begin
    cycles_d = cycles_q;
    ev_d     = ev_q;
    stop_d   = stop_q;
    if (record_reset_i || (start_we_i && record_mode_i)) begin
      cycles_d = 48'd0;
      ev_d     = '0;
      stop_d   = 12'd0;
    end else if (record_mode_i) begin
      cycles_d = cycles_q + 48'd1;
      for (int unsigned i = 0; i < 12; i++) begin
        if (!carried[i]) begin
          ev_d[i*16 +: 16] = 16'd0;
        end else if (fire) begin
          ev_d[i*16 +: 16] = {15'd0, sel_i[i]};
        end else if (ev_q[i*16 +: 16] != EvMax) begin
          ev_d[i*16 +: 16] = ev_q[i*16 +: 16] + {15'd0, sel_i[i]};
        end
      end
      if (fire) begin
        stop_d = {11'd0, stop_i};
      end else if (stop_q != StopMax) begin
        stop_d = stop_q + {11'd0, stop_i};
      end
    end
  end

  // Bogus-packet flag (S21 (d), advances at ticks).
  always_comb begin
    stale_d = stale_q;
    if (record_reset_i) begin
      stale_d = 1'b0;
    end else if (start_we_i) begin
      stale_d = ~record_mode_i;
    end else if (fire) begin
      stale_d = 1'b0;
    end
  end

  // Position and buffer valid (advance at ticks).
  always_comb begin
    pos_d       = pos_q;
    buf_valid_d = buf_valid_q;
    if (start_we_i) begin
      pos_d       = start_data_i[31:4];
      buf_valid_d = 1'b1;
    end else if (send) begin
      pos_d = pos_q + (long_i ? 28'd2 : 28'd1);
      if (pos_q >= limit_i[31:4]) begin
        buf_valid_d = 1'b0;
      end
    end
  end

  // Slot and fault (memory-port state, every cycle).
  always_comb begin
    busy_d   = busy_q;
    pkt_d    = pkt_q;
    addr_d   = addr_q;
    long_d   = long_q;
    fault_d  = fault_q;
    wedged_d = wedged_q;
    if (send) begin
      busy_d = 1'b1;
      pkt_d  = {ev_q, 4'd0, stop_q, cycles_q};
      addr_d = {addr_high_i, pos_q, 4'd0};
      long_d = long_i;
    end
    if (fault_clear_i) begin
      fault_d = 1'b0;
    end
    if (unbound) begin
      fault_d  = 1'b1;
      wedged_d = 1'b1;
    end
    if (done_i) begin
      busy_d = 1'b0;
      if (err_i) begin
        fault_d  = 1'b1;
        wedged_d = 1'b1;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cycles_q    <= 48'd0;
      ev_q        <= '0;
      stop_q      <= 12'd0;
      pos_q       <= 28'd0;
      buf_valid_q <= 1'b0;
      stale_q     <= 1'b0;
    end else if (tick_i) begin
      cycles_q    <= cycles_d;
      ev_q        <= ev_d;
      stop_q      <= stop_d;
      pos_q       <= pos_d;
      buf_valid_q <= buf_valid_d;
      stale_q     <= stale_d;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q   <= 1'b0;
      pkt_q    <= '0;
      addr_q   <= 40'd0;
      long_q   <= 1'b0;
      fault_q  <= 1'b0;
      wedged_q <= 1'b0;
    end else begin
      busy_q   <= busy_d;
      pkt_q    <= pkt_d;
      addr_q   <= addr_d;
      long_q   <= long_d;
      fault_q  <= fault_d;
      wedged_q <= wedged_d;
    end
  end

  assign busy_o   = busy_q;
  assign pkt_o    = pkt_q;
  assign addr_o   = addr_q;
  assign long_o   = long_q;
  assign status_o = {pos_q, 3'd0, fault_q};

  // A packet is only handed over when the slot is free, and the port only
  // finishes a packet that is in a slot.
  `PRIM_ASSERT_IMPLIES(SendOnlyWhenFree_A, send, !busy_q)
  `PRIM_ASSERT_IMPLIES(DoneOnlyWhenBusy_A, done_i, busy_q)

endmodule
