// APB4 register front-end of PCOUNTER, both MMIO layouts: NV10:NV40 (NV10,
// NV15, NV20, NV30) and NV40:GF100 (NV40, G84, G92, GT215).
//
// Contract (docs/semantics.md S0, S1, S8, S11, S15, S20, S24; seed 003 "MMIO
// registers", "NV10", "NV40", "Control registers" for GCTRL and the shared
// CTRL):
// * APB4 completer: a transfer is one SETUP and at least one ACCESS cycle
//   (PSEL & PENABLE). PADDR[1:0] are ignored; PPROT is not implemented.
// * Decode with pcnt_reg_pkg::decode(paddr, gen_layout(gen_i)): the strap
//   selects the layout (S24). Both layouts address the same per-domain view
//   registers; the NV10 layout has the 0x100-stride blocks of domains 0 and
//   1 and the shared registers (globals with GlobShared set) SHARED_CTRL
//   (0x73c) and, on NV30, SHARED_QUAD_ACK_TRIGGER (0x738). An address is
//   *present* when it names a register the generation gen_i has
//   (dom_reg_present / glob_reg_present) and, for a domain register, the
//   domain is < NumDomains.
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
// * Shared registers (S24, NV10 layout): they store only the bits of
//   glob_rw_mask themselves (SHARED_CTRL: TVOUT_DEBUG_SEL/ENABLE, stored, no
//   effect); every other field is a view of a per-domain register. The
//   shared domains are d < min(NumDomains, NumSharedDoms). An accepted write
//   to shared register g is delivered to each shared domain d as a write
//   strobe of its view register shared_target(g) with the data
//   shared_wdata(g, d, PWDATA, gen) (wdata_o[d*32 +: 32]; every other write
//   gives every domain PWDATA), in the first cycle of the ACCESS phase in
//   which dom_tick_i[d] = 1: each domain takes it at its own first tick, at
//   most once per transfer (taken flags, cleared when the transfer
//   completes). PREADY = 0 while some shared domain has neither taken it nor
//   ticks now; PREADY rises in the cycle the last one takes it, and the
//   stored bits are written then. A SHARED_CTRL write is a CTRL write in
//   every shared domain, so it aborts single event mode in all of them.
// * Shared reads (S24): glob_regs_o[g] of a shared register is composed,
//   shared_rdata(g, stored bits, views, gen) with views[d*32 +: 32] = domain
//   d's view register shared_target(g) (0 for an absent domain). It is what
//   a read returns and what the lockstep compares.
// * The layouts live only here and in pcnt_reg_pkg; the domains are
//   addressed by view index only.
// * Reset (S8): global registers 0, rec_bind_o 0, dma_written and bound 0.
`include "prim_assert.svh"

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
  output logic [NumDomains*32-1:0]                               wdata_o,
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
  localparam int unsigned NumSharedDoms = pcnt_reg_pkg::NumSharedDoms;

  // The domains a shared register reaches (S24): d < min(NumDomains,
  // NumSharedDoms).
  function automatic logic [NumDomains-1:0] shared_dom_mask();
    logic [NumDomains-1:0] m;
    for (int unsigned d = 0; d < NumDomains; d++) begin
      m[d] = (d < NumSharedDoms);
    end
    shared_dom_mask = m;
  endfunction
  localparam logic [NumDomains-1:0] SharedDoms = shared_dom_mask();

  ////////////////////////////////////////////////////////////////////////////
  // Decode
  ////////////////////////////////////////////////////////////////////////////

  logic               dec_dom, dec_glob;
  logic [2:0]         dec_dom_idx;
  logic [RegIdxW-1:0] dec_reg_idx;

  // One decode net, then its fields: assigning the concatenation straight
  // from the function let Verilator inline the decoder once per field.
  logic [pcnt_reg_pkg::DecodeW-1:0] dec;
  assign dec = pcnt_reg_pkg::decode(paddr_i, pcnt_reg_pkg::gen_layout(gen_i));
  assign {dec_dom, dec_glob, dec_dom_idx, dec_reg_idx} = dec;

  // Which view registers the generation addresses: one bit per register,
  // shared by every domain's hit logic below.
  logic [NumDomRegs-1:0] reg_present;
  for (genvar r = 0; r < NumDomRegs; r++) begin : gen_reg_present
    assign reg_present[r] = pcnt_reg_pkg::dom_reg_present(r, gen_i);
  end

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
                                         && reg_present[r];
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

  // Shared registers (S24): a hit on a global with GlobShared set (only the
  // NV10 layout decodes them). shared_idx is that global's index.
  logic                  shared_hit;
  logic [31:0]           shared_idx;
  logic [RegIdxW-1:0]    shared_tgt;   // the per-domain view register it writes
  logic [NumDomains-1:0] taken_q, taken_d, shared_we;

  assign shared_hit = |(glob_hit & pcnt_reg_pkg::GlobShared);
  assign shared_idx = 32'(dec_reg_idx);
  assign shared_tgt = RegIdxW'(pcnt_reg_pkg::shared_target(shared_idx));

  // Each shared domain takes the write at its own first tick in the ACCESS
  // phase, once (S24, S15).
  assign shared_we = (wr_ok & shared_hit) ? (SharedDoms & dom_tick_i & ~taken_q) : '0;

  // S15: an accepted write to a domain register waits for a tick of that
  // domain. dom_sel is 0 for GCTRL and the shared registers, refused writes
  // never get here. A shared write waits while a shared domain has neither
  // taken it nor ticks now (S24).
  assign wr_wait = wr_ok & (|(dom_sel & ~dom_tick_i)
                            | (shared_hit & |(SharedDoms & ~(taken_q | dom_tick_i))));

  // The taken flags live only during a waiting shared transfer; the cycle it
  // completes (or any other cycle) clears them.
  assign taken_d = (wr_ok & shared_hit & wr_wait) ? (taken_q | shared_we) : '0;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      taken_q <= '0;
    end else begin
      taken_q <= taken_d;
    end
  end

  ////////////////////////////////////////////////////////////////////////////
  // Writes
  ////////////////////////////////////////////////////////////////////////////

  // Per-domain write data: the shared register's translation during a shared
  // write (S24), PWDATA otherwise.
  logic [31:0] shared_wdata [NumDomains];

  for (genvar d = 0; d < NumDomains; d++) begin : gen_dom_we
    assign shared_wdata[d] = pcnt_reg_pkg::shared_wdata(shared_idx, d, pwdata_i, gen_i);
    assign wdata_o[d * 32 +: 32] = shared_hit ? shared_wdata[d] : pwdata_i;
    for (genvar r = 0; r < NumDomRegs; r++) begin : gen_reg_we
      assign dom_we_o[d * NumDomRegs + r] = ((wr_ok & ~wr_wait) & dom_hit[d * NumDomRegs + r])
                                          | (shared_we[d] & (shared_tgt == RegIdxW'(r)));
    end
  end

  // Stored bits are written when the transfer completes: at once for GCTRL
  // and the other plain globals, after the last shared domain took it for a
  // shared register (S24).
  logic [NumGlobalRegs-1:0] glob_we;
  assign glob_we = (wr_ok & ~wr_wait) ? glob_hit : '0;

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
    if (pcnt_reg_pkg::GlobShared[g]) begin : gen_shared
      // The composed read (S24): stored bits plus each shared domain's view
      // of the target register; an absent domain's view is 0.
      localparam int unsigned Target = pcnt_reg_pkg::shared_target(g);
      logic [NumSharedDoms*32-1:0] views;
      for (genvar d = 0; d < NumSharedDoms; d++) begin : gen_view
        if (d < NumDomains) begin : gen_present
          assign views[d * 32 +: 32] = dom_regs_i[(d * NumDomRegs + Target) * 32 +: 32];
        end else begin : gen_absent
          assign views[d * 32 +: 32] = 32'h0;
        end
      end
      assign glob_regs_o[g * 32 +: 32] = pcnt_reg_pkg::shared_rdata(g, store_q, views, gen_i);
    end else begin : gen_plain
      assign glob_regs_o[g * 32 +: 32] = store_q;
    end
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
  `PRIM_ASSERT(HitOneHot0_A, $onehot0({dom_hit, glob_hit}))
  // A strobe only in the ACCESS cycle of an accepted write.
  `PRIM_ASSERT_IMPLIES(WeOnlyOnWrite_A, |dom_we_o, wr_ok)
  // A strobe only in a tick of the domain it goes to (S15; for a shared
  // register each domain it reaches, S24).
  for (genvar d = 0; d < NumDomains; d++) begin : gen_we_assert
    `PRIM_ASSERT_IMPLIES(WeOnlyAtTick_A, |dom_we_o[d * NumDomRegs +: NumDomRegs], dom_tick_i[d])
  end
  // A shared write reaches each domain at most once per transfer (S24).
  `PRIM_ASSERT(SharedOnce_A, (shared_we & taken_q) == '0)
  // A shared write completes only once every shared domain has taken it,
  // earlier or in this cycle (S24).
  `PRIM_ASSERT_IMPLIES(SharedReadyAll_A, wr_ok && shared_hit && pready_o,
                       ((taken_q | shared_we) & SharedDoms) == SharedDoms)
  // A wait state drives no response (S15).
  `PRIM_ASSERT_IMPLIES(WaitQuiet_A, !pready_o, (prdata_o == 32'h0) && !pslverr_o)
  // APB4, properties of the master (the formal proofs assume them; every
  // lockstep build asserts them of the harness): ACCESS is the second cycle
  // of a selected transfer, and the transfer holds during a wait state.
  `PRIM_ASSUME(AccessAfterSetup_A, !penable_i || (psel_i && $past(psel_i)))
  `PRIM_ASSUME_NEXT(WaitStable_A, !pready_o, psel_i && penable_i && pwrite_i
                                          && $stable(paddr_i) && $stable(pwdata_i))

endmodule
