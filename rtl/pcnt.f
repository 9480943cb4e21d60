// PCOUNTER RTL file list, compile order (packages first).
// Paths are relative to the repository root: run tools from there, e.g.
//   verilator --lint-only -Wall -Irtl rtl/lint.vlt -f rtl/pcnt.f --top-module pcnt_top
+incdir+rtl
rtl/pcnt_reg_pkg.sv
rtl/pcnt_pkg.sv
rtl/pcnt_logic_op.sv
rtl/pcnt_sync_2ff.sv
rtl/pcnt_edge_cnt.sv
rtl/pcnt_pulse_sync.sv
rtl/pcnt_record.sv
rtl/pcnt_axi_wr.sv
rtl/pcnt_domain.sv
rtl/pcnt_apb_regs.sv
rtl/pcnt_top.sv
