// APB4 register front-end of the NV40:GF100 PCOUNTER layout.
//
// Contract (docs/semantics.md S0, S1, S8, S11, S15, S20; seed 003 "MMIO
// registers", "NV40", "Control registers" for GCTRL):
// * APB4 completer: a transfer is one SETUP and at least one ACCESS cycle
//   (PSEL & PENABLE). PADDR[1:0] are ignored; PPROT is not implemented.
// * Decode with pcnt_reg_pkg::decode. An address is *present* when it names a
//   register the generation gen_i has (dom_reg_present / glob_reg_present)
//   and, for a domain register, the domain is < NumDomains.
// * Wait states (S15): an *accepted* write (present, PSTRB = 4'hf) to a
//   register of domain d completes only in a cycle with dom_tick_i[d] = 1;
//   until then PREADY = 0, no strobe, PRDATA = 0, PSLVERR = 0. The master
//   holds PSEL/PENABLE/PADDR/PWDATA stable meanwhile (APB). Reads, refused
//   writes and GCTRL writes complete at once (PREADY = 1).
// * Write completing in ACCESS: a one-hot strobe for that register
//   (dom_we_o, view-index order per domain; raised only in a tick of that
//   domain, which acts on it in the same cycle, S1) or a store into the
//   global register (GCTRL, masked by glob_rw_mask). PSTRB != 4'hf ->
//   PSLVERR = 1, no strobe, no effect at all (S0). Not present -> PSLVERR =
//   1, no effect (S8).
// * Read in ACCESS: present -> PRDATA = the register view of this cycle
//   (dom_regs_i / glob_regs_o, S11), PSLVERR = 0; not present -> PRDATA = 0,
//   PSLVERR = 1 (S8). Reads have no side effect (S1).
// * StrictDecode = 0 (real hardware, S8): PSLVERR is never raised; a read
//   of a hole returns 0 and a refused write (hole, absent register, partial
//   PSTRB) is ignored, exactly as with StrictDecode = 1 but silently.
//   StrictDecode = 1 (harness default) answers those with PSLVERR.
// * PRDATA is 0 in every cycle that is not the ACCESS cycle of a read (SETUP,
//   idle, wait states and the ACCESS cycles of a write); PSLVERR is 0 outside
//   completing ACCESS cycles.
// * GCTRL (S20, G84+): bit 0 RECORD_RESET and bit 4 PERIODIC_RESET stored
//   and exported as record_reset_o / periodic_reset_o (the stored values;
//   each domain samples them at its ticks, S18, S21).
// * RECORD_CHAN / RECORD_DMA (S21, G84+): storage. A RECORD_CHAN write with
//   VALID (bit 31) = 1 raises rec_bind_o for exactly the next cycle.
// * Channel binding (S21 (a)): dma_written is set by any RECORD_DMA write; a
//   RECORD_CHAN write with VALID = 1 sets bound = dma_written (the DMA object
//   must be written first), VALID = 0 leaves bound alone. rec_bound_o is
//   bound (not readable: no register has room).
// * The layout lives only here, so another layout (NV10) can be a sibling
//   module in front of the same domains.
// * Reset (S8): global registers 0, rec_bind_o 0, dma_written and bound 0.
`include "pcnt_assert.svh"

module pcnt_apb_regs #(
  parameter int unsigned NumDomains   = 1,
  parameter bit          StrictDecode = 1'b1
) (
  input  logic                                                   clk_i,
  input  logic                                                   rst_ni,
  input  pcnt_reg_pkg::gen_e                                     gen_i,
  input  logic [NumDomains-1:0]                                  dom_tick_i,
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
  output logic [pcnt_reg_pkg::NumGlobalRegs*32-1:0]              glob_regs_o,
  output logic                                                   periodic_reset_o,
  output logic                                                   record_reset_o,
  output logic                                                   rec_bind_o,
  output logic                                                   rec_bound_o
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

  assign {dec_dom, dec_glob, dec_dom_idx, dec_reg_idx} = pcnt_reg_pkg::decode(paddr_i, pcnt_reg_pkg::gen_layout(gen_i));

  // One-hot (or zero) hit on a *present* register: domain word d*NumDomRegs+r
  // or global register g. Absent domains have no hit bits at all.
  logic [NumDomWords-1:0]   dom_hit;
  logic [NumGlobalRegs-1:0] glob_hit;
  logic [NumDomains-1:0]    dom_sel;   // some register of domain d is hit

  for (genvar d = 0; d < NumDomains; d++) begin : gen_dom_hit
    for (genvar r = 0; r < NumDomRegs; r++) begin : gen_reg_hit
      assign dom_hit[d * NumDomRegs + r] = dec_dom
                                         && (dec_dom_idx == 3'(d))
                                         && (dec_reg_idx == RegIdxW'(r))
                                         && pcnt_reg_pkg::dom_reg_present(r, gen_i);
    end
    assign dom_sel[d] = |dom_hit[d * NumDomRegs +: NumDomRegs];
  end

  for (genvar g = 0; g < NumGlobalRegs; g++) begin : gen_glob_hit
    assign glob_hit[g] = dec_glob
                       && (dec_reg_idx == RegIdxW'(g))
                       && pcnt_reg_pkg::glob_reg_present(g, gen_i);
  end

  logic access, present, strb_ok, wr_ok, rd_ok, wr_wait;

  assign access  = psel_i & penable_i;
  assign present = (|dom_hit) | (|glob_hit);
  assign strb_ok = (pstrb_i == 4'hf);
  assign wr_ok   = access & pwrite_i & present & strb_ok;
  assign rd_ok   = access & ~pwrite_i & present;

  // S15: an accepted write to a domain register waits for a tick of that
  // domain. dom_sel is 0 for GCTRL, refused writes never get here.
  assign wr_wait = wr_ok & |(dom_sel & ~dom_tick_i);

  ////////////////////////////////////////////////////////////////////////////
  // Writes
  ////////////////////////////////////////////////////////////////////////////

  assign dom_we_o = (wr_ok & ~wr_wait) ? dom_hit : '0;
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

  // GCTRL.PERIODIC_RESET for the PERIODIC generators (S18, S20); 0 before
  // G84 (GCTRL stores nothing there).
  // A domain ticking in the write's ACCESS cycle still sees the old bit (S1,
  // S20).
  assign periodic_reset_o = glob_regs_o[pcnt_reg_pkg::GlobGctrl * 32
                                        + pcnt_reg_pkg::GctrlPeriodicResetLsb];
  assign record_reset_o   = glob_regs_o[pcnt_reg_pkg::GlobGctrl * 32
                                        + pcnt_reg_pkg::GctrlRecordResetLsb];

  // Channel bind event (S21): registered, one cycle after the write.
  logic bind_q, bind_d;
  assign bind_d = glob_we[pcnt_reg_pkg::GlobRecordChan] & pwdata_i[pcnt_reg_pkg::RecordChanValidLsb];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      bind_q <= 1'b0;
    end else begin
      bind_q <= bind_d;
    end
  end
  assign rec_bind_o = bind_q;

  // Channel binding (S21 (a)): the channel must be written after the DMA
  // object for a successful bind.
  logic dma_written_q, dma_written_d, bound_q, bound_d;
  always_comb begin
    dma_written_d = dma_written_q;
    bound_d       = bound_q;
    if (glob_we[pcnt_reg_pkg::GlobRecordDma]) begin
      dma_written_d = 1'b1;
    end
    if (bind_d) begin
      bound_d = dma_written_q;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      dma_written_q <= 1'b0;
      bound_q       <= 1'b0;
    end else begin
      dma_written_q <= dma_written_d;
      bound_q       <= bound_d;
    end
  end
  assign rec_bound_o = bound_q;

  ////////////////////////////////////////////////////////////////////////////
  // Reads and response
  ////////////////////////////////////////////////////////////////////////////

  // Indexed select of the addressed word. Logically the same mux as an
  // AND-OR over the one-hot hits (rd_ok already requires a present register),
  // but O(1) per evaluation in simulation instead of O(NumDomWords), which
  // dominated the Verilated model's cost (docs/performance.md).
  logic [31:0] dom_word_idx;
  logic [31:0] rd_dom, rd_glob, rd_view;

  assign dom_word_idx = 32'(dec_dom_idx) * NumDomRegs + 32'(dec_reg_idx);
  assign rd_dom  = (dom_word_idx < NumDomWords) ? dom_regs_i[dom_word_idx * 32 +: 32] : 32'h0;
  assign rd_glob = (32'(dec_reg_idx) < NumGlobalRegs) ? glob_regs_o[32'(dec_reg_idx) * 32 +: 32] : 32'h0;
  assign rd_view = dec_glob ? rd_glob : rd_dom;

  assign prdata_o  = rd_ok ? rd_view : 32'h0;
  assign pready_o  = ~wr_wait;
  assign pslverr_o = StrictDecode & access & (~present | (pwrite_i & ~strb_ok));

  ////////////////////////////////////////////////////////////////////////////
  // Assertions
  ////////////////////////////////////////////////////////////////////////////

  // The decoder names at most one register.
  `PCNT_ASSERT(HitOneHot0_A, $onehot0({dom_hit, glob_hit}))
  // A strobe only in the ACCESS cycle of an accepted write.
  `PCNT_ASSERT(WeOnlyOnWrite_A, (|dom_we_o) |-> wr_ok)
  // A strobe only in a tick of the addressed domain (S15).
  `PCNT_ASSERT(WeOnlyAtTick_A, (|dom_we_o) |-> |(dom_sel & dom_tick_i))
  // A wait state drives no response (S15).
  `PCNT_ASSERT(WaitQuiet_A, !pready_o |-> (prdata_o == 32'h0) && !pslverr_o)
  // APB: the master holds the transfer stable during a wait state.
  `PCNT_ASSERT(WaitStable_A, !pready_o |=> psel_i && penable_i && pwrite_i
                                          && $stable(paddr_i) && $stable(pwdata_i))

endmodule
