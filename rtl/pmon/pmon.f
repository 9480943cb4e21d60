// PMON box RTL file list, compile order (package first). Paths are relative
// to the repository root: run tools from there, e.g.
//   verilator --lint-only -Wall rtl/lint.vlt -f rtl/pmon/pmon.f --top-module pmon_box
+incdir+rtl/common
rtl/pmon/pmon_reg_pkg.sv
rtl/pmon/pmon_counter.sv
rtl/pmon/pmon_box.sv
