// APB4 register front-end of the NV40:GF100 PCOUNTER layout.
//
// Contract (docs/semantics.md S0, S1, S8, S11; seed 003 "MMIO registers",
// "NV40", "Control registers" for GCTRL):
// * APB4 completer, PREADY = 1: a transfer is one SETUP and one ACCESS cycle
//   (PSEL & PENABLE). PADDR[1:0] are ignored; PPROT is not implemented.
// * Decode with pcnt_reg_pkg::decode. An address is *present* when it names a
//   register the generation gen_i has (dom_reg_present / glob_reg_present)
//   and, for a domain register, the domain is < NumDomains.
// * Write in ACCESS: present and PSTRB = 4'hf -> a one-hot strobe for that
//   register (dom_we_o, view-index order per domain; the domain acts on it in
//   the same cycle, S1) or a store into the global register (GCTRL, masked by
//   glob_rw_mask). PSTRB != 4'hf -> PSLVERR = 1, no strobe, no effect at all
//   (S0). Not present -> PSLVERR = 1, no effect (S8).
// * Read in ACCESS: present -> PRDATA = the register view of this cycle
//   (dom_regs_i / glob_regs_o, S11), PSLVERR = 0; not present -> PRDATA = 0,
//   PSLVERR = 1 (S8). Reads have no side effect (S1).
// * PRDATA is 0 in every cycle that is not the ACCESS cycle of a read (SETUP,
//   idle, and the ACCESS cycle of a write); PSLVERR is 0 outside ACCESS.
// * The layout lives only here, so another layout (NV10) can be a sibling
//   module in front of the same domains.
// * Reset (S8): GCTRL = 0.
`include "pcnt_assert.svh"

module pcnt_apb_regs #(
  parameter int unsigned NumDomains = 1
) (
  input  logic                                                   clk_i,
  input  logic                                                   rst_ni,
  input  pcnt_reg_pkg::gen_e                                     gen_i,
  input  logic                                                   psel_i,
  input  logic                                                   penable_i,
  input  logic                                                   pwrite_i,
  input  logic [11:0]                                            paddr_i,
  input  logic [31:0]                                            pwdata_i,
  input  logic [3:0]                                             pstrb_i,
  output logic [31:0]                                            prdata_o,
  output logic                                                   pready_o,
  output logic                                                   pslverr_o,
  input  logic [NumDomains*pcnt_reg_pkg::NumDomRegs*32-1:0]      dom_regs_i,
  output logic [NumDomains*pcnt_reg_pkg::NumDomRegs-1:0]         dom_we_o,
  output logic [31:0]                                            wdata_o,
  output logic [pcnt_reg_pkg::NumGlobalRegs*32-1:0]              glob_regs_o
);

  localparam int unsigned NumDomRegs    = pcnt_reg_pkg::NumDomRegs;
  localparam int unsigned NumGlobalRegs = pcnt_reg_pkg::NumGlobalRegs;
  localparam int unsigned NumDomWords   = NumDomains * NumDomRegs;
  localparam int unsigned RegIdxW       = pcnt_reg_pkg::RegIdxW;

  ////////////////////////////////////////////////////////////////////////////
  // Decode
  ////////////////////////////////////////////////////////////////////////////

  logic               dec_dom, dec_glob;
  logic [2:0]         dec_dom_idx;
  logic [RegIdxW-1:0] dec_reg_idx;

  assign {dec_dom, dec_glob, dec_dom_idx, dec_reg_idx} = pcnt_reg_pkg::decode(paddr_i);

  // One-hot (or zero) hit on a *present* register: domain word d*NumDomRegs+r
  // or global register g. Absent domains have no hit bits at all.
  logic [NumDomWords-1:0]   dom_hit;
  logic [NumGlobalRegs-1:0] glob_hit;

  for (genvar d = 0; d < NumDomains; d++) begin : gen_dom_hit
    for (genvar r = 0; r < NumDomRegs; r++) begin : gen_reg_hit
      assign dom_hit[d * NumDomRegs + r] = dec_dom
                                         && (dec_dom_idx == 3'(d))
                                         && (dec_reg_idx == RegIdxW'(r))
                                         && pcnt_reg_pkg::dom_reg_present(r, gen_i);
    end
  end

  for (genvar g = 0; g < NumGlobalRegs; g++) begin : gen_glob_hit
    assign glob_hit[g] = dec_glob
                       && (dec_reg_idx == RegIdxW'(g))
                       && pcnt_reg_pkg::glob_reg_present(g, gen_i);
  end

  logic access, present, strb_ok, wr_ok, rd_ok;

  assign access  = psel_i & penable_i;
  assign present = (|dom_hit) | (|glob_hit);
  assign strb_ok = (pstrb_i == 4'hf);
  assign wr_ok   = access & pwrite_i & present & strb_ok;
  assign rd_ok   = access & ~pwrite_i & present;

  ////////////////////////////////////////////////////////////////////////////
  // Writes
  ////////////////////////////////////////////////////////////////////////////

  assign dom_we_o = wr_ok ? dom_hit : '0;
  assign wdata_o  = pwdata_i;

  logic [NumGlobalRegs-1:0] glob_we;
  assign glob_we = wr_ok ? glob_hit : '0;

  for (genvar g = 0; g < NumGlobalRegs; g++) begin : gen_glob_store
    logic [31:0] store_d, store_q;
    assign store_d = glob_we[g] ? (pwdata_i & pcnt_reg_pkg::glob_rw_mask(g, gen_i)) : store_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        store_q <= 32'h0;
      end else begin
        store_q <= store_d;
      end
    end
    assign glob_regs_o[g * 32 +: 32] = store_q;
  end

  ////////////////////////////////////////////////////////////////////////////
  // Reads and response
  ////////////////////////////////////////////////////////////////////////////

  // AND-OR mux over the one-hot hit vector.
  logic [31:0] rd_view;

  always_comb begin
    rd_view = 32'h0;
    for (int unsigned i = 0; i < NumDomWords; i++) begin
      rd_view = rd_view | (dom_regs_i[i * 32 +: 32] & {32{dom_hit[i]}});
    end
    for (int unsigned g = 0; g < NumGlobalRegs; g++) begin
      rd_view = rd_view | (glob_regs_o[g * 32 +: 32] & {32{glob_hit[g]}});
    end
  end

  assign prdata_o  = rd_ok ? rd_view : 32'h0;
  assign pready_o  = 1'b1;
  assign pslverr_o = access & (~present | (pwrite_i & ~strb_ok));

  ////////////////////////////////////////////////////////////////////////////
  // Assertions
  ////////////////////////////////////////////////////////////////////////////

  // The decoder names at most one register.
  `PCNT_ASSERT(HitOneHot0_A, $onehot0({dom_hit, glob_hit}))
  // A strobe only in the ACCESS cycle of an accepted write.
  `PCNT_ASSERT(WeOnlyOnWrite_A, (|dom_we_o) |-> wr_ok)

endmodule
