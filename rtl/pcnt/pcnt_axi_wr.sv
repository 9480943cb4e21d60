// Record-mode memory port (docs/semantics.md S21): an AMBA AXI4 write-only
// manager shared by all domains, 40-bit address, 128-bit data, one ID.
//
// Contract:
// * Each packet goes out as 16-byte single-beat transactions (AWLEN 0,
//   AWSIZE 4, AWBURST INCR, WSTRB all ones, WLAST 1): SHORT one, LONG two,
//   the second at address + 16 wrapping in the low 32 bits. Byte k of WDATA
//   is byte k of the packet half.
// * FSM IDLE -> XFER -> RESP. IDLE grants the first busy slot after the last
//   granted domain (round-robin; after reset domain 0 first). XFER raises
//   AWVALID and WVALID together, each drops after its own handshake; RESP
//   follows once both happened. RESP holds BREADY = 1; at BVALID a BRESP !=
//   OKAY sets the packet's error flag, a LONG packet's first half goes back
//   to XFER for the second, otherwise done_o[grant] pulses (with err_o) and
//   the FSM returns to IDLE. One transaction is outstanding at a time.
// * All outputs are functions of the state only (Moore). Reset: IDLE, last
//   granted = NumDomains - 1.
`include "prim_assert.svh"

module pcnt_axi_wr #(
  parameter int unsigned NumDomains = 1
) (
  input  logic                          clk_i,
  input  logic                          rst_ni,
  input  logic [NumDomains-1:0]         busy_i,
  input  logic [NumDomains*256-1:0]     pkt_i,
  input  logic [NumDomains*40-1:0]      addr_i,
  input  logic [NumDomains-1:0]         long_i,
  output logic [NumDomains-1:0]         done_o,
  output logic                          err_o,
  output logic                          awvalid_o,
  input  logic                          awready_i,
  output logic [39:0]                   awaddr_o,
  output logic [7:0]                    awlen_o,
  output logic [2:0]                    awsize_o,
  output logic [1:0]                    awburst_o,
  output logic                          wvalid_o,
  input  logic                          wready_i,
  output logic [127:0]                  wdata_o,
  output logic [15:0]                   wstrb_o,
  output logic                          wlast_o,
  input  logic                          bvalid_i,
  input  logic [1:0]                    bresp_i,
  output logic                          bready_o
);

  localparam int unsigned IdxW = (NumDomains > 1) ? $clog2(NumDomains) : 1;
  localparam logic [1:0]  RespOkay = 2'b00;

  typedef enum logic [1:0] {
    Idle = 2'd0,
    Xfer = 2'd1,
    Resp = 2'd2
  } axi_state_e;

  axi_state_e    state_q, state_d;
  logic [IdxW-1:0] grant_q, grant_d, last_q, last_d;
  logic          half_q, half_d;
  logic          aw_done_q, aw_done_d, w_done_q, w_done_d;
  logic          err_q, err_d;

  // Round-robin pick: the first busy domain after last_q, wrapping.
  logic          pick_valid;
  logic [IdxW-1:0] pick;

  always_comb begin
    pick_valid = 1'b0;
    pick       = '0;
    for (int unsigned k = 1; k <= NumDomains; k++) begin
      logic [IdxW-1:0] g;
      g = IdxW'((32'(last_q) + k) % NumDomains);
      if (!pick_valid && busy_i[g]) begin
        pick_valid = 1'b1;
        pick       = g;
      end
    end
  end

  logic [255:0] pkt;
  logic [39:0]  base;
  logic         long_pkt;

  assign pkt      = pkt_i[32'(grant_q) * 256 +: 256];
  assign base     = addr_i[32'(grant_q) * 40 +: 40];
  assign long_pkt = long_i[grant_q];

  logic aw_hs, w_hs;

  assign awvalid_o = (state_q == Xfer) & ~aw_done_q;
  assign wvalid_o  = (state_q == Xfer) & ~w_done_q;
  assign bready_o  = (state_q == Resp);
  assign awaddr_o  = (state_q == Idle) ? 40'd0
                   : {base[39:32], base[31:0] + (half_q ? 32'd16 : 32'd0)};
  assign awlen_o   = 8'd0;
  assign awsize_o  = (state_q == Idle) ? 3'd0 : 3'd4;
  assign awburst_o = (state_q == Idle) ? 2'd0 : 2'd1;
  assign wdata_o   = (state_q == Idle) ? 128'd0 : (half_q ? pkt[255:128] : pkt[127:0]);
  assign wstrb_o   = (state_q == Idle) ? 16'h0 : 16'hffff;
  assign wlast_o   = (state_q != Idle);
  assign aw_hs     = awvalid_o & awready_i;
  assign w_hs      = wvalid_o & wready_i;

  always_comb begin
    state_d   = state_q;
    grant_d   = grant_q;
    last_d    = last_q;
    half_d    = half_q;
    aw_done_d = aw_done_q;
    w_done_d  = w_done_q;
    err_d     = err_q;
    done_o    = '0;
    err_o     = 1'b0;
    unique case (state_q)
      Idle: begin
        if (pick_valid) begin
          state_d   = Xfer;
          grant_d   = pick;
          half_d    = 1'b0;
          aw_done_d = 1'b0;
          w_done_d  = 1'b0;
          err_d     = 1'b0;
        end
      end
      Xfer: begin
        aw_done_d = aw_done_q | aw_hs;
        w_done_d  = w_done_q | w_hs;
        if (aw_done_d && w_done_d) begin
          state_d = Resp;
        end
      end
      Resp: begin
        if (bvalid_i) begin
          err_d = err_q | (bresp_i != RespOkay);
          if (long_pkt && !half_q) begin
            state_d   = Xfer;
            half_d    = 1'b1;
            aw_done_d = 1'b0;
            w_done_d  = 1'b0;
          end else begin
            state_d          = Idle;
            last_d           = grant_q;
            done_o[grant_q]  = 1'b1;
            err_o            = err_d;
          end
        end
      end
      default: state_d = Idle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q   <= Idle;
      grant_q   <= '0;
      last_q    <= IdxW'(NumDomains - 1);
      half_q    <= 1'b0;
      aw_done_q <= 1'b0;
      w_done_q  <= 1'b0;
      err_q     <= 1'b0;
    end else begin
      state_q   <= state_d;
      grant_q   <= grant_d;
      last_q    <= last_d;
      half_q    <= half_d;
      aw_done_q <= aw_done_d;
      w_done_q  <= w_done_d;
      err_q     <= err_d;
    end
  end

  // The granted slot stays busy until its packet is done.
  `PRIM_ASSERT_IMPLIES(GrantBusy_A, state_q != Idle, busy_i[grant_q])

endmodule
