// Verilator's user hooks, force-included (-include) in every C++ file of the
// harness build (sim/build.rs), so the runtime and every model agree:
// VL_PRINTF is captured per thread, and $stop (what a failing SVA assertion
// calls after printing its message) is ours (VL_USER_STOP), so an assertion
// is a lockstep failure the harness reports and not the end of the process.
// Implemented in vl_user.cpp, compiled into the shared Verilator runtime.
#pragma once

#define VL_USER_STOP
#define VL_USER_FATAL
#define VL_PRINTF shim_vl_printf

void shim_vl_printf(const char* format, ...) __attribute__((format(printf, 1, 2)));
