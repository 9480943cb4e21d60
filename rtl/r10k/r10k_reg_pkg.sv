// R10000/R12000 event counters: window offsets, control-register fields,
// write masks and the event lists' shape (docs/semantics.md R1..R6; seed
// 002 "THE CONTROL REGISTERS", "EVENTS").
//
// Contract:
// * Offsets are byte offsets inside the window (PADDR[7:0]): the CP0
//   register 25 selects 0..3 (PerfCtl0, PerfCnt0, PerfCtl1, PerfCnt1) at
//   4 * select (R1).
// * *WrMask: the control bits a write stores per variant; every other bit
//   reads 0 and ignores writes (R3).
// * Hand-written like PMON's package; src/r10k/regs.rs carries the same
//   numbers; the model's table tests and the lockstep compare catch a
//   disagreement.
package r10k_reg_pkg;

  // Variant parameter values (R2).
  localparam int unsigned VariantR10000 = 0;
  localparam int unsigned VariantR12000 = 1;

  localparam int unsigned NumCounters = 2;   // seed: "two performance counters"
  localparam int unsigned NumSources  = 32;  // event_i sources (R4)
  localparam int unsigned IncW        = 3;   // largest per-cycle count 5 (R6)

  // Offsets (R1): counter j's PerfCtl at OffCtl0 + j * CtrStride (0x00,
  // 0x08), its PerfCnt at OffCnt0 + j * CtrStride (0x04, 0x0c).
  localparam logic [7:0] OffCtl0   = 8'h00;
  localparam logic [7:0] OffCnt0   = 8'h04;
  localparam logic [7:0] CtrStride = 8'h08;

  // Control fields (seed "THE CONTROL REGISTERS"; R2 for the Event width).
  localparam int unsigned CtlExlLsb   = 0;
  localparam int unsigned CtlKLsb     = 1;
  localparam int unsigned CtlSLsb     = 2;
  localparam int unsigned CtlULsb     = 3;
  localparam int unsigned CtlIeLsb    = 4;
  localparam int unsigned CtlEventLsb = 5;
  localparam logic [31:0] CtlWrMaskR10000 = 32'h0000_01ff;  // Event 8:5
  localparam logic [31:0] CtlWrMaskR12000 = 32'h0000_03ff;  // Event 9:5

endpackage
