//! Every device's own tests in one binary: each folder `tests/<name>/` with
//! a `tests.rs` is its module `<name>` here (sim/build.rs lists the folders,
//! so a device's tests are its folder and nothing names it). The tests of a
//! guarantee every device keeps are the cross-device binaries (cli,
//! guarantees, csr, fuzz, ...), each one test over the registry.

mod common;

include!(concat!(env!("OUT_DIR"), "/device_tests.rs"));
