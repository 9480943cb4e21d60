//! `cargo fuzz run device_script`: the properties of `tests/fuzz/checks.rs`.
#![no_main]

// Each target uses one of the shared checks.
#[allow(dead_code)]
#[path = "../../tests/fuzz/checks.rs"]
mod checks;

libfuzzer_sys::fuzz_target!(|data: &[u8]| checks::device_script(data));
