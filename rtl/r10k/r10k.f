// R10000/R12000 event-counter RTL file list, compile order (package
// first). Paths are relative to the repository root: run tools from there,
// e.g.
//   verilator --lint-only -Wall rtl/lint.vlt -f rtl/r10k/r10k.f --top-module r10k_perf
+incdir+rtl/common
rtl/r10k/r10k_reg_pkg.sv
rtl/r10k/r10k_counter.sv
rtl/r10k/r10k_perf.sv
