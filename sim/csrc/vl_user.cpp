// The user hooks of vl_user.h. Every Verilated model of the harness runs on
// one thread from construction to its last eval() (a lockstep run, a replay,
// a shrink candidate), so what a model prints and the assertion it fails are
// kept per thread: a run reads its own failure, never another job's.
//
// Verilator reports a failing assertion as two calls on the evaluating
// thread: the message (`[t] %Error: FILE:LINE: Assertion failed in HIER:
// MSG`, through VL_PRINTF) and then $stop (vl_stop_maybe -> vl_stop). The
// first failure not yet taken is kept with its message; the shims return
// non-zero from the cycle in which one was recorded (shim_common.h), and the
// harness takes it with shim_take_assertion (sim/src/engine/assertion.rs).
#include "verilated.h"

#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>

namespace {

// What the models of this thread printed since the last cycle ended.
thread_local std::string printed;
// The first assertion failure not yet taken by the harness.
thread_local std::string failure;

constexpr std::size_t kKeep = 8192;

// The last non-empty line of `s`.
std::string last_line(const std::string& s) {
    std::size_t end = s.find_last_not_of("\r\n");
    if (end == std::string::npos) return std::string();
    std::size_t begin = s.rfind('\n', end);
    begin = begin == std::string::npos ? 0 : begin + 1;
    return s.substr(begin, end + 1 - begin);
}

}  // namespace

void shim_vl_printf(const char* format, ...) {
    char buf[1024];
    va_list ap;
    va_start(ap, format);
    const int n = std::vsnprintf(buf, sizeof buf, format, ap);
    va_end(ap);
    if (n <= 0) return;
    printed.append(buf, static_cast<std::size_t>(n) < sizeof buf ? static_cast<std::size_t>(n) : sizeof buf - 1);
    if (printed.size() > kKeep) printed.erase(0, printed.size() - kKeep);
}

// $stop, and a failing assertion's action: recorded, the model goes on (the
// harness stops the run at the end of this cycle).
void vl_stop(const char* filename, int linenum, const char* hier) {
    (void)hier;  // Verilator passes "" here; the message names the instance.
    Verilated::threadContextp()->gotError(true);
    if (failure.empty()) {
        failure = last_line(printed);
        if (failure.find("%Error") == std::string::npos) {
            char where[512];
            std::snprintf(where, sizeof where, "%%Error: %s:%d: Verilog $stop", filename, linenum);
            failure = where;
        }
    }
    printed.clear();
}

// $fatal and Verilator's own fatal errors: the model cannot go on. Print
// what the models said and abort (not exit 1, which means a mismatch).
void vl_fatal(const char* filename, int linenum, const char* hier, const char* msg) {
    (void)hier;
    std::fputs(printed.c_str(), stderr);
    std::fprintf(stderr, "%%Error: %s:%d: %s\nAborting (Verilator fatal error in the RTL model)\n", filename,
                 linenum, msg);
    std::fflush(stderr);
    std::abort();
}

// Called by the shims at the end of every cycle: text a model printed that
// was not an assertion's message ($display, Verilator warnings) goes to
// stderr as it would have without these hooks.
extern "C" void shim_flush_printed() {
    if (printed.empty()) return;
    std::fputs(printed.c_str(), stderr);
    printed.clear();
}

// The recorded failure into buf (NUL-terminated, cut to n - 1 bytes);
// returns 1 and forgets it, or 0 if none is recorded on this thread.
extern "C" int shim_take_assertion(char* buf, int n) {
    if (failure.empty()) return 0;
    if (n > 0) {
        const std::size_t k = failure.size() < static_cast<std::size_t>(n - 1) ? failure.size() : n - 1;
        std::memcpy(buf, failure.data(), k);
        buf[k] = '\0';
    }
    failure.clear();
    return 1;
}
