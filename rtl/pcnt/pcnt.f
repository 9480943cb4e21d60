// PCOUNTER RTL file list, compile order (packages first): the shared cells of
// rtl/common, then the device. Paths are relative to the repository root:
// run tools from there, e.g.
//   verilator --lint-only -Wall rtl/lint.vlt -f rtl/pcnt/pcnt.f --top-module pcnt_top
+incdir+rtl/common
rtl/pcnt/pcnt_reg_pkg.sv
rtl/pcnt/pcnt_pkg.sv
rtl/common/prim_sync_2ff.sv
rtl/common/prim_edge_cnt.sv
rtl/common/prim_pulse_sync.sv
rtl/pcnt/pcnt_logic_op.sv
rtl/pcnt/pcnt_record.sv
rtl/pcnt/pcnt_axi_wr.sv
rtl/pcnt/pcnt_dom_core.sv
rtl/pcnt/pcnt_domain.sv
rtl/pcnt/pcnt_apb_regs.sv
rtl/pcnt/pcnt_top.sv
