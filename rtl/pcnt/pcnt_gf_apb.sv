// APB4 register front-end of the GF100+ PCOUNTER layout: decode of the
// 18-bit PADDR (pcnt_gf_reg_pkg::decode_gf), presence against the top's
// parameters, the S15 wait states of domain writes, and the storage of the
// domain-set CTRL registers and of MAIN.
//
// Contract (docs/semantics.md S0, S1, S8, S15; docs/design/gf100.md 1.1,
// 1.3, S25.12, S25.13, S25.14, S25.15, S25.16; S25.0, S25.14
// note):
// * APB4 completer: a transfer is one SETUP and at least one ACCESS cycle
//   (PSEL & PENABLE). PADDR = MMIO address - 0x180000; PADDR[1:0] ignored.
// * Present: decode names a register (not a hole) of a present unit: GPC
//   unit < NumGpc with domain < GpcDoms, PART unit < NumPart with domain <
//   PartDoms, HUB domain < HubDoms, GPC_DSET unit < NumGpc, PART_DSET unit <
//   NumPart, HUB_DSET iff HubDoms > 0, MAIN.
// * Accepted write: present, PSTRB = 4'hf, pmc_en_i. To a domain register it
//   completes in the first ACCESS cycle in which that domain ticks
//   (dom_tick_i[flat]); until then PREADY = 0, PRDATA = 0, PSLVERR = 0, no
//   strobe. In the completing cycle dom_we_o[flat] = 1 with reg_idx_o (view
//   index) and wdata_o = PWDATA; the domain stores or acts by the register's
//   kind (ro / zero registers: nothing, no PSLVERR). Every other access
//   (reads, DSET and MAIN writes, refused writes) completes in its first
//   ACCESS cycle.
// * PSLVERR (StrictDecode = 1) in the completing ACCESS cycle of: a
//   non-present address, a write with PSTRB != 4'hf, and every access while
//   pmc_en_i = 0 (S25.14: a disabled unit answers like an absent one). Those
//   transfers change nothing and read 0. StrictDecode = 0: the same, silently
//   (PSLVERR 0).
// * PRDATA is the addressed register's view word in the ACCESS cycle of an
//   accepted read (present, pmc_en_i), 0 in every other cycle.
// * DSET CTRL (S25.12): stores PWDATA & gf_set_store_mask (RECORD_RESET,
//   PERIODIC_RESET, UNK5, UNK29, UNK31); periodic_reset_o[set] is the stored
//   PERIODIC_RESET (a domain ticking in the write's ACCESS cycle still sees
//   the old bit). VSTATUS_0/1 read 0 (S25.16).
// * MAIN (S25.15): RECORD_CHAN, RECORD_START, RECORD_ADDRESS_HIGH, RECORD_LIMIT
//   store PWDATA & gf_main_store_mask; RECORD_POS reads RECORD_START's bits
//   31:4; RECORD_COUNT and VSTATUS read 0. No bind, no packets.
// * set_regs_o / main_regs_o: what a read of each DSET / MAIN register
//   returns this cycle (set s word idx at (s*GfNumSetRegs+idx)*32 +: 32).
//   The top zeroes them while PMC.ENABLE is off (S25.0).
// * Set numbering: GPC g = set g, PART p = set NumGpc + p, the hub set
//   NumGpc + NumPart. Flat domains: GPC g domain d = g*GpcDoms + d, PART p
//   domain d = NumGpc*GpcDoms + p*PartDoms + d, HUB d after the PARTs.
// * Reset (S8, S25.13): rst_ni is the top's core reset (rst_ni & pmc_en_q):
//   DSET and MAIN storage 0.
`include "prim_assert.svh"

module pcnt_gf_apb #(
  parameter int unsigned NumGpc       = 2,
  parameter int unsigned GpcDoms      = 1,
  parameter int unsigned NumPart      = 2,
  parameter int unsigned PartDoms     = 1,
  parameter int unsigned HubDoms      = 0,
  parameter bit          StrictDecode = 1'b1,
  localparam int unsigned NumDoms     = NumGpc * GpcDoms + NumPart * PartDoms + HubDoms,
  localparam int unsigned NumSets     = NumGpc + NumPart + ((HubDoms > 0) ? 1 : 0)
) (
  input  logic                                                  clk_i,
  input  logic                                                  rst_ni,
  // pmc_en_q of the top (S25.14): 0 = the unit is held in reset.
  input  logic                                                  pmc_en_i,
  input  logic [NumDoms-1:0]                                    dom_tick_i,
  input  logic                                                  psel_i,
  input  logic                                                  penable_i,
  input  logic                                                  pwrite_i,
  input  logic [pcnt_gf_reg_pkg::GfPaddrW-1:0]                  paddr_i,
  input  logic [31:0]                                           pwdata_i,
  input  logic [3:0]                                            pstrb_i,
  output logic [31:0]                                           prdata_o,
  output logic                                                  pready_o,
  output logic                                                  pslverr_o,
  input  logic [NumDoms*pcnt_gf_reg_pkg::GfNumDomRegs*32-1:0]   dom_regs_i,
  output logic [NumDoms-1:0]                                    dom_we_o,
  output logic [pcnt_gf_reg_pkg::GfRegIdxW-1:0]                 reg_idx_o,
  output logic [31:0]                                           wdata_o,
  output logic [NumSets*pcnt_gf_reg_pkg::GfNumSetRegs*32-1:0]   set_regs_o,
  output logic [pcnt_gf_reg_pkg::GfNumMainRegs*32-1:0]          main_regs_o,
  output logic [NumSets-1:0]                                    periodic_reset_o
);

  localparam int unsigned NumDomRegs  = pcnt_gf_reg_pkg::GfNumDomRegs;
  localparam int unsigned NumSetRegs  = pcnt_gf_reg_pkg::GfNumSetRegs;
  localparam int unsigned NumMainRegs = pcnt_gf_reg_pkg::GfNumMainRegs;
  localparam int unsigned IdxW        = pcnt_gf_reg_pkg::GfRegIdxW;
  localparam int unsigned NumDomWords = NumDoms * NumDomRegs;
  localparam int unsigned GpcBase     = 0;
  localparam int unsigned PartBase    = NumGpc * GpcDoms;
  localparam int unsigned HubBase     = PartBase + NumPart * PartDoms;
  localparam int unsigned HubSet      = NumGpc + NumPart;
  // The present HUB domains by DOM index (none without a hub).
  localparam logic [7:0]  HubMask     = 8'((9'd1 << HubDoms) - 9'd1);

  ////////////////////////////////////////////////////////////////////////////
  // Decode and presence (1.1, S8)
  ////////////////////////////////////////////////////////////////////////////

  // One decode net, then its fields (as pcnt_apb_regs: keeps Verilator from
  // inlining the decoder once per field).
  // Fields in the order of pcnt_gf_reg_pkg::gf_decoded_t.
  logic [pcnt_gf_reg_pkg::GfDecodeW-1:0]  dec;
  pcnt_gf_reg_pkg::gf_unit_e              dec_unit;
  logic [pcnt_gf_reg_pkg::GfUnitIdxW-1:0] dec_unit_idx;
  logic [pcnt_gf_reg_pkg::GfDomIdxW-1:0]  dec_dom;
  logic [IdxW-1:0]                        reg_idx;
  assign dec = pcnt_gf_reg_pkg::decode_gf(paddr_i);
  assign {dec_unit, dec_unit_idx, dec_dom, reg_idx} = dec;

  logic [31:0] unit_idx, dom_idx;
  assign unit_idx = 32'(dec_unit_idx);
  assign dom_idx  = 32'(dec_dom);

  // What the address names, if present: a domain (flat index), a set, MAIN.
  logic        hit_dom, hit_set, hit_main;
  logic [31:0] flat, set;

  always_comb begin
    hit_dom  = 1'b0;
    hit_set  = 1'b0;
    hit_main = 1'b0;
    flat     = 32'd0;
    set      = 32'd0;
    unique case (dec_unit)
      pcnt_gf_reg_pkg::GfUnitGpcDom: begin
        hit_dom = (unit_idx < NumGpc) && (dom_idx < GpcDoms);
        flat    = GpcBase + unit_idx * GpcDoms + dom_idx;
      end
      pcnt_gf_reg_pkg::GfUnitPartDom: begin
        hit_dom = (unit_idx < NumPart) && (dom_idx < PartDoms);
        flat    = PartBase + unit_idx * PartDoms + dom_idx;
      end
      pcnt_gf_reg_pkg::GfUnitHubDom: begin
        hit_dom = HubMask[dec_dom];
        flat    = HubBase + dom_idx;
      end
      pcnt_gf_reg_pkg::GfUnitGpcDset: begin
        hit_set = (unit_idx < NumGpc);
        set     = unit_idx;
      end
      pcnt_gf_reg_pkg::GfUnitPartDset: begin
        hit_set = (unit_idx < NumPart);
        set     = NumGpc + unit_idx;
      end
      pcnt_gf_reg_pkg::GfUnitHubDset: begin
        hit_set = (HubDoms > 0);
        set     = HubSet;
      end
      pcnt_gf_reg_pkg::GfUnitMain: begin
        hit_main = 1'b1;
      end
      default: begin
        // GfUnitNone: a hole (S8).
      end
    endcase
  end

  logic access, present, strb_ok, wr_ok, rd_ok, wr_wait;
  logic [NumDoms-1:0] dom_sel;   // one-hot: the addressed present domain

  for (genvar d = 0; d < NumDoms; d++) begin : gen_dom_sel
    assign dom_sel[d] = hit_dom & (flat == d);
  end

  assign access   = psel_i & penable_i;
  assign present  = hit_dom | hit_set | hit_main;
  assign strb_ok  = (pstrb_i == 4'hf);
  // S25.14: nothing is accepted while the unit is held in reset.
  assign wr_ok    = access & pwrite_i & present & strb_ok & pmc_en_i;
  assign rd_ok    = access & ~pwrite_i & present & pmc_en_i;
  // S15: an accepted domain write waits for a tick of that domain.
  assign wr_wait  = wr_ok & |(dom_sel & ~dom_tick_i);

  ////////////////////////////////////////////////////////////////////////////
  // Domain writes
  ////////////////////////////////////////////////////////////////////////////

  assign dom_we_o  = wr_ok ? (dom_sel & dom_tick_i) : '0;
  assign reg_idx_o = reg_idx;
  assign wdata_o   = pwdata_i;

  ////////////////////////////////////////////////////////////////////////////
  // DSET CTRL storage (S25.12) and MAIN storage (S25.15)
  ////////////////////////////////////////////////////////////////////////////

  for (genvar s = 0; s < NumSets; s++) begin : gen_set
    for (genvar r = 0; r < NumSetRegs; r++) begin : gen_reg
      localparam logic [31:0] StoreMask = pcnt_gf_reg_pkg::gf_set_store_mask(r);
      if (StoreMask != 32'h0) begin : gen_ff
        logic        we;
        logic [31:0] store_d, store_q;
        assign we      = wr_ok & hit_set & (set == s) & (reg_idx == IdxW'(r));
        assign store_d = we ? (pwdata_i & StoreMask) : store_q;
        always_ff @(posedge clk_i or negedge rst_ni) begin
          if (!rst_ni) begin
            store_q <= 32'h0;
          end else begin
            store_q <= store_d;
          end
        end
        assign set_regs_o[(s * NumSetRegs + r) * 32 +: 32] = store_q;
      end else begin : gen_zero
        // VSTATUS_0/1: zero (S25.16).
        assign set_regs_o[(s * NumSetRegs + r) * 32 +: 32] = 32'h0;
      end
    end
    assign periodic_reset_o[s] =
        set_regs_o[(s * NumSetRegs + pcnt_gf_reg_pkg::GfSetRegCtrl) * 32
                   + pcnt_gf_reg_pkg::GfSetCtrlPeriodicResetLsb];
  end

  // The stored MAIN bits, 0 where nothing is stored.
  logic [NumMainRegs*32-1:0] main_store;

  for (genvar r = 0; r < NumMainRegs; r++) begin : gen_main
    localparam logic [31:0] StoreMask = pcnt_gf_reg_pkg::gf_main_store_mask(r);
    if (StoreMask != 32'h0) begin : gen_ff
      logic        we;
      logic [31:0] store_d, store_q;
      assign we      = wr_ok & hit_main & (reg_idx == IdxW'(r));
      assign store_d = we ? (pwdata_i & StoreMask) : store_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          store_q <= 32'h0;
        end else begin
          store_q <= store_d;
        end
      end
      assign main_store[r * 32 +: 32] = store_q;
    end else begin : gen_none
      assign main_store[r * 32 +: 32] = 32'h0;
    end
  end

  always_comb begin
    main_regs_o = main_store;
    // S25.15: the position is RECORD_START's address, no packet moves it.
    main_regs_o[pcnt_gf_reg_pkg::GfMainRegRecordPos * 32 +: 32] =
        main_store[pcnt_gf_reg_pkg::GfMainRegRecordStart * 32 +: 32]
        & pcnt_gf_reg_pkg::gf_main_ro_mask(pcnt_gf_reg_pkg::GfMainRegRecordPos);
    // RECORD_COUNT, VSTATUS: zero (S25.15, S25.16), nothing stored.
  end

  ////////////////////////////////////////////////////////////////////////////
  // Reads and response
  ////////////////////////////////////////////////////////////////////////////

  // Indexed selects of the addressed word (O(1) in simulation, as
  // pcnt_apb_regs).
  logic [31:0] dom_word, set_word, rd_dom, rd_set, rd_main, rd_view;

  assign dom_word = flat * NumDomRegs + 32'(reg_idx);
  assign set_word = set * NumSetRegs + 32'(reg_idx);
  assign rd_dom   = (dom_word < NumDomWords) ? dom_regs_i[dom_word * 32 +: 32] : 32'h0;
  assign rd_set   = (set_word < NumSets * NumSetRegs) ? set_regs_o[set_word * 32 +: 32] : 32'h0;
  assign rd_main  = (32'(reg_idx) < NumMainRegs) ? main_regs_o[32'(reg_idx) * 32 +: 32] : 32'h0;
  assign rd_view  = hit_dom ? rd_dom : (hit_set ? rd_set : rd_main);

  assign prdata_o  = rd_ok ? rd_view : 32'h0;
  assign pready_o  = ~wr_wait;
  assign pslverr_o = StrictDecode & access & (~pmc_en_i | ~present | (pwrite_i & ~strb_ok));

  ////////////////////////////////////////////////////////////////////////////
  // Assertions
  ////////////////////////////////////////////////////////////////////////////

  // The decoder names at most one unit kind.
  `PRIM_ASSERT(HitOneHot0_A, $onehot0({hit_dom, hit_set, hit_main}))
  // A domain strobe only in a tick of that domain, at most one per cycle.
  `PRIM_ASSERT(WeOneHot0_A, $onehot0(dom_we_o))
  `PRIM_ASSERT(WeOnlyAtTick_A, (dom_we_o & ~dom_tick_i) == '0)
  // A wait state drives no response (S15).
  `PRIM_ASSERT_IMPLIES(WaitQuiet_A, !pready_o, (prdata_o == 32'h0) && !pslverr_o)
  // APB4, a property of the master (the formal proof assumes it; every
  // lockstep build asserts it of the harness): ACCESS is the second cycle of
  // a selected transfer.
  `PRIM_ASSUME(AccessAfterSetup_A, !penable_i || (psel_i && $past(psel_i)))

endmodule
