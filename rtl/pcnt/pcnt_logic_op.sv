// One PCOUNTER input calculation (PRE, START, EVENT, STOP, SETFLAG or CLRFLAG).
//
// Purely combinational, docs/semantics.md S10 and seed 003 "Input selection"
// (the OP register bit lists). ARG[0..3] starts as the four selected signals
// src_i and is then replaced, in this order:
//   DELAY0 (bit 16)            -> ARG[0] = previous-cycle SRC[0]
//   DELAY1 (bit 17)            -> ARG[1] = previous-cycle SRC[1]
//   ARG2_SRC0_DELAYED (G92+)   -> ARG[2] = previous-cycle SRC[0]
//   ARG3_SRC1_DELAYED (G92+)   -> ARG[3] = previous-cycle SRC[1]
//   ARG3_SETFLAG (EVENT/STOP)  -> ARG[3] = same-cycle SETFLAG
// so ARG3_SETFLAG wins over ARG3_SRC1_DELAYED (seed: bit 20 applies "if not
// set to SETFLAG by bit 18"). The result is bit ARG of LOGIC_OP (op_i[15:0]).
// IsEventLike selects the EVENT_OP/STOP_OP bit layout (18 = ARG3_SETFLAG,
// 19/20 = the delay-replace bits) instead of the PRE_OP-like one (18/19 = the
// delay-replace bits). The replace bits act only on G92+; the write mask
// already stores them as 0 before G92 (S8), the gate here keeps the block
// correct on its own. SETFLAG itself is computed by an instance with
// IsEventLike = 0 and never depends on EVENT or STOP, so no loop exists.
module pcnt_logic_op #(
  parameter bit IsEventLike = 1'b0
) (
  input  logic [31:0]         op_i,        // *_OP register value
  input  logic [3:0]          src_i,       // SRC[0..3] of this cycle
  input  logic [1:0]          src_prev_i,  // SRC[0], SRC[1] of the previous cycle
  input  logic                setflag_i,   // SETFLAG of this cycle (EVENT/STOP only)
  input  pcnt_reg_pkg::gen_e  gen_i,
  output logic                result_o
);

  localparam int unsigned Delay0Bit = pcnt_reg_pkg::PreOpDelay0Lsb;
  localparam int unsigned Delay1Bit = pcnt_reg_pkg::PreOpDelay1Lsb;
  localparam int unsigned Arg2Bit   = IsEventLike ? pcnt_reg_pkg::EventOpArg2Src0DelayedLsb
                                                  : pcnt_reg_pkg::PreOpArg2Src0DelayedLsb;
  localparam int unsigned Arg3Bit   = IsEventLike ? pcnt_reg_pkg::EventOpArg3Src1DelayedLsb
                                                  : pcnt_reg_pkg::PreOpArg3Src1DelayedLsb;

  logic [15:0] logic_op;
  logic        replace_ok;
  logic        arg3_setflag;
  logic [3:0]  arg;

  assign logic_op   = op_i[pcnt_reg_pkg::PreOpLogicOpLsb +: pcnt_reg_pkg::PreOpLogicOpWidth];
  assign replace_ok = pcnt_reg_pkg::feat_delayed_args(gen_i);

  if (IsEventLike) begin : gen_setflag_arg
    assign arg3_setflag = op_i[pcnt_reg_pkg::EventOpArg3SetflagLsb];
  end else begin : gen_no_setflag_arg
    assign arg3_setflag = 1'b0;
  end

  always_comb begin
    arg = src_i;
    if (op_i[Delay0Bit])              arg[0] = src_prev_i[0];
    if (op_i[Delay1Bit])              arg[1] = src_prev_i[1];
    if (replace_ok && op_i[Arg2Bit])  arg[2] = src_prev_i[0];
    if (replace_ok && op_i[Arg3Bit])  arg[3] = src_prev_i[1];
    if (arg3_setflag)                 arg[3] = setflag_i;
  end

  // The OP bits above the layout, and SETFLAG for PRE-like inputs, are unused.
  logic unused_inputs;
  assign unused_inputs = ^{op_i, setflag_i};

  assign result_o = logic_op[arg];

endmodule
