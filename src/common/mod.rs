//! Model cells shared by devices, each mirroring one `rtl/common` cell.

pub mod pulse_sync;
