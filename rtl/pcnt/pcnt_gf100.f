// GF100+ PCOUNTER RTL file list (pcnt_gf100_top, docs/design/gf100.md),
// compile order: packages, the shared cells of rtl/common, the layout-free
// engine, the GF100 files. Its own list beside rtl/pcnt/pcnt.f so a change to
// a GF100 file rebuilds only the GF100 harness builds. Paths relative to the
// repository root, e.g.
//   verilator --lint-only -Wall rtl/lint.vlt -f rtl/pcnt/pcnt_gf100.f --top-module pcnt_gf100_top
+incdir+rtl/common
rtl/pcnt/pcnt_reg_pkg.sv
rtl/pcnt/pcnt_gf_reg_pkg.sv
rtl/pcnt/pcnt_pkg.sv
rtl/common/prim_sync_2ff.sv
rtl/common/prim_edge_cnt.sv
rtl/common/prim_pulse_sync.sv
rtl/pcnt/pcnt_logic_op.sv
rtl/pcnt/pcnt_dom_core.sv
rtl/pcnt/pcnt_gf_domain.sv
rtl/pcnt/pcnt_gf_apb.sv
rtl/pcnt/pcnt_gf100_top.sv
