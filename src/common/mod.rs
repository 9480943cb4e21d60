//! Model cells shared by devices, each mirroring one `rtl/common` cell, and
//! the bus types every device's model takes (`bus`).

pub mod bus;
pub mod pulse_sync;
