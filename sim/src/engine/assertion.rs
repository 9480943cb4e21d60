//! An SVA assertion of the RTL that failed, as a lockstep failure.
//!
//! Every harness build is Verilated with `--assert`, and Verilator's `$stop`
//! is the harness's own (sim/csrc/vl_user.cpp): a failing assertion prints
//! its message and marks the model's context, the shim's cycle function
//! returns non-zero, and the device turns the message taken here into a
//! `Mismatch` of the cycle (`Mismatch::of_assertion`). From there it is a failure like a register
//! mismatch: the run stops, and the report, reproducer, stimulus, shrunk
//! script (shrunk on the same assertion, `what` names it) and waves go
//! through the same engine path. Any assertion counts, whether or not it
//! goes through the macros of rtl/common/prim_assert.svh.

use std::ffi::{c_char, c_int, CStr};

extern "C" {
    /// sim/csrc/vl_user.cpp: the failure recorded on this thread.
    fn shim_take_assertion(buf: *mut c_char, n: c_int) -> c_int;
}

/// A failed assertion, from Verilator's message
/// `[t] %Error: FILE:LINE: Assertion failed in HIER: MESSAGE`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Assertion {
    /// The assertion's label: the macros' message names it
    /// (`assertion failed: NAME`); otherwise the last part of Verilator's
    /// scope of it, which is the label of a labelled assertion (an
    /// unlabelled one is named by its module instance; `file`:`line` tell
    /// it apart).
    pub name: String,
    /// Source file (as Verilator names it) and line.
    pub file: String,
    pub line: u32,
    /// The scope the message names (`TOP.pcnt_lockstep_top.u_dut...`).
    pub instance: String,
    /// Verilator's message line, verbatim.
    pub message: String,
}

impl Assertion {
    /// After a shim's cycle function returned non-zero: the failure this
    /// thread's models recorded.
    pub fn take() -> Assertion {
        let mut buf = [0 as c_char; 2048];
        // SAFETY: the buffer is writable for its length; the callee writes
        // at most n - 1 bytes and a NUL.
        let got = unsafe { shim_take_assertion(buf.as_mut_ptr(), buf.len() as c_int) };
        if got == 0 {
            return Assertion::parse("%Error: ?:0: an assertion failed, but its message was not recorded");
        }
        // SAFETY: NUL-terminated by the callee.
        let text = unsafe { CStr::from_ptr(buf.as_ptr()) };
        Assertion::parse(&text.to_string_lossy())
    }

    /// Parse Verilator's message line; what does not parse is kept whole
    /// (the report shows the message verbatim anyway).
    pub fn parse(message: &str) -> Assertion {
        let message = message.trim().to_string();
        let after = message.split_once("%Error: ").map_or(message.as_str(), |(_, r)| r);
        // FILE:LINE: REST
        let mut parts = after.splitn(3, ':');
        let (file, line, rest) = match (parts.next(), parts.next().and_then(|l| l.trim().parse().ok()), parts.next()) {
            (Some(f), Some(l), Some(r)) => (f.trim().to_string(), l, r.trim()),
            _ => (String::from("?"), 0, after),
        };
        let (instance, text) = match rest.strip_prefix("Assertion failed in ") {
            Some(r) => r.split_once(": ").map_or((r.to_string(), ""), |(i, t)| (i.to_string(), t)),
            None => (String::new(), rest),
        };
        let name = match text.strip_prefix("assertion failed: ") {
            Some(n) => n.trim().to_string(),
            None if !instance.is_empty() => instance.rsplit('.').next().unwrap_or(&instance).to_string(),
            None => format!("{file}:{line}"),
        };
        Assertion { name, file, line, instance, message }
    }

    /// `what` of the failure: the name and the source line, so a shrunk
    /// script must fail on this same assertion.
    pub fn what(&self) -> String {
        format!("assertion {} ({}:{})", self.name, self.file, self.line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn verilator_messages_parse() {
        let a = Assertion::parse(
            "[0] %Error: pcnt_dom_core.sv:657: Assertion failed in TOP.pcnt_lockstep_top.u_dut.gen_dom[0].u_domain\
             .u_core.RunningImpliesSingle_A: assertion failed: RunningImpliesSingle_A",
        );
        assert_eq!((a.name.as_str(), a.file.as_str(), a.line), ("RunningImpliesSingle_A", "pcnt_dom_core.sv", 657));
        assert!(a.instance.ends_with("u_core.RunningImpliesSingle_A"), "{}", a.instance);
        assert_eq!(a.what(), "assertion RunningImpliesSingle_A (pcnt_dom_core.sv:657)");
        // A labelled assertion outside the macros: the scope ends in its label.
        let b = Assertion::parse("[0] %Error: t.sv:4: Assertion failed in TOP.t.u_sub.Imm_A: 'assert' failed.");
        assert_eq!((b.name.as_str(), b.line, b.instance.as_str()), ("Imm_A", 4, "TOP.t.u_sub.Imm_A"));
        assert_eq!(b.what(), "assertion Imm_A (t.sv:4)");
        // A bare $stop.
        let c = Assertion::parse("%Error: box.sv:12: Verilog $stop");
        assert_eq!((c.name.as_str(), c.file.as_str(), c.line), ("box.sv:12", "box.sv", 12));
        // Whatever does not parse is kept.
        let d = Assertion::parse("garbage");
        assert_eq!((d.name.as_str(), d.message.as_str()), ("?:0", "garbage"));
    }
}
