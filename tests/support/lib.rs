//! Helpers shared by the integration tests in `tests/`.
//!
//! Each integration test file is its own process, because l4rs's configuration is global, as
//! log4j2's `LoggerContext` is.

use std::path::{Path, PathBuf};

/// The text after the sequence number in each line the exit probe's `crash-loop` mode logs.
pub const CRASH_PAYLOAD: &str = "payload-0123456789-abcdefghijklmnopqrstuvwxyz";

/// The workspace root (where `config-samples/` is).
pub fn workspace_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh, empty directory under `target/test-output/<name>`.
pub fn fresh_output_dir(name: &str) -> PathBuf {
    let dir = workspace_root().join("target/test-output").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("create test output directory");
    dir
}

/// Writes `xml` as a configuration file in `dir` and returns its path.
pub fn write_config(dir: &Path, xml: &str) -> PathBuf {
    let path = dir.join("log4j2.xml");
    std::fs::write(&path, xml).expect("write configuration");
    path
}

/// The lines of a file, or an empty list when it does not exist.
pub fn read_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .map(|text| text.lines().map(str::to_string).collect())
        .unwrap_or_default()
}
