//! The device-independent part of the harness: nothing here names a
//! generation, a domain or a device's signal. The bus a device sits on is
//! not a device: `apb_window` and `compare` know APB (PRDATA, PSLVERR,
//! PREADY), which every small window device shares.

pub mod apb_window;
pub mod artifacts;
pub mod assertion;
pub mod bench;
pub mod compare;
pub mod coverage;
pub mod device;
pub mod entry;
pub mod jobs;
pub mod junit;
pub mod mismatch;
pub mod progress;
pub mod regress;
pub mod results;
pub mod script;
pub mod shrink;
pub mod verilated;
pub mod wave;
