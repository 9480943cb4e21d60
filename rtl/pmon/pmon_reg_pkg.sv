// PMON box register map: offsets, field positions and write masks
// (docs/semantics.md P2, P3, P4; seed 001 for CTL0/CTL1, Intel UG 817760
// 5.4.5/5.4.6/5.4.8 for the others).
//
// Contract:
// * Offsets are byte offsets inside the box window (PADDR[7:0]); counter j's
//   registers are at base + j * CtrStride.
// * *WrMask: the bits a write stores; every other bit is reserved (P3:
//   reads 0, writes ignored) or an action bit (Cntr_Rst, Rst_Ctrl,
//   Rst_Cntr: act on the write, never stored, read 0; P7, P10).
// * Hand-written for now: the project's register-map generator
//   (tools/regmap.py) is specific to PCOUNTER's domain arrays and
//   generations. src/pmon/regs.rs carries the same numbers; the model's
//   table tests and the lockstep compare catch a disagreement.
package pmon_reg_pkg;

  localparam int unsigned NumCountersMax = 8;
  localparam int unsigned CntrW          = 48;  // UG 817760 5.4.4 CntrWidth default;
                                                // DATA_HI holds bits CntrW-1:32

  // Offsets (P2).
  localparam logic [7:0] OffBoxCtl      = 8'h00;
  localparam logic [7:0] OffBoxCtlHi    = 8'h04;
  localparam logic [7:0] OffBoxStatus   = 8'h08;
  localparam logic [7:0] OffBoxStatusHi = 8'h0c;
  localparam logic [7:0] OffCtl0Base    = 8'h10;
  localparam logic [7:0] OffCtl1Base    = 8'h14;
  localparam logic [7:0] OffDataLoBase  = 8'h50;
  localparam logic [7:0] OffDataHiBase  = 8'h54;
  localparam logic [7:0] CtrStride      = 8'h08;

  // CTL0 fields (seed 001 first table; P4: Frz_On_Ov is one bit).
  localparam int unsigned Ctl0EvntSelLsb = 0;
  localparam int unsigned Ctl0UmaskLsb   = 8;
  localparam int unsigned Ctl0CntrRstLsb = 17;
  localparam int unsigned Ctl0EdgeLsb    = 18;
  localparam int unsigned Ctl0FrzOnOvLsb = 20;
  localparam int unsigned Ctl0InvertLsb  = 23;
  localparam int unsigned Ctl0ThreshLsb  = 24;
  localparam logic [31:0] Ctl0WrMask     = 32'hff94_ffff;

  // CTL1 (seed 001 second table).
  localparam int unsigned Ctl1MaxLsb = 0;
  localparam logic [31:0] Ctl1WrMask = 32'h0000_0001;

  // BOX_CTL (UG 817760 5.4.5 PMON_UCTRL_L).
  localparam int unsigned BoxCtlFreezeLsb  = 0;
  localparam int unsigned BoxCtlRstCtrlLsb = 8;
  localparam int unsigned BoxCtlRstCntrLsb = 9;

endpackage
