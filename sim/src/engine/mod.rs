//! The device-independent part of the harness: nothing here names a
//! generation, a domain or a signal.

pub mod apb_window;
pub mod artifacts;
pub mod compare;
pub mod coverage;
pub mod device;
pub mod jobs;
pub mod mismatch;
pub mod progress;
pub mod results;
pub mod script;
pub mod shrink;
pub mod wave;
