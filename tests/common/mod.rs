//! Helpers shared by the harness's integration tests (`tests/lockstep.rs`,
//! `tests/mmiotrace.rs`).

use std::fs;
use std::path::PathBuf;

/// The repository root.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).parent().unwrap().to_path_buf()
}

/// An empty folder under target/test-out for one test's artifacts.
pub fn scratch(name: &str) -> PathBuf {
    let d = root().join("target").join("test-out").join(name);
    let _ = fs::remove_dir_all(&d);
    fs::create_dir_all(&d).unwrap();
    d
}
