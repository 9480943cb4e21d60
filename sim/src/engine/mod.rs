//! The device-independent part of the harness: nothing here names a
//! generation, a domain or a signal.

pub mod coverage;
pub mod device;
pub mod mismatch;
pub mod script;
pub mod shrink;
pub mod wave;
