//! Writing a warm-up's bytes to the disk before a latency window starts.
//!
//! Each latency row warms up flat out, so that log4j2's JIT has compiled the error path before
//! the window; a library then leaves as many dirty pages as it could write in that time. On a
//! disk the kernel writes them back while the window runs, and the stalls of that write-back
//! land on the calls of whichever library wrote more in its warm-up: the faster one. So every
//! window (l4rs's, log4j2's in the Java harness's `writeBack`, and the `write(2)` floor's)
//! starts once its files' pages are on the disk, and no longer inherits the write-back of the
//! bytes its warm-up wrote.

use std::fs::File;
use std::path::PathBuf;

/// Writes each of `files` to the disk (`fsync(2)`) and returns once they are there. A file
/// that does not exist (a configuration that never created it) or cannot be synced is skipped:
/// the window is then only less settled, never wrong.
pub fn write_back(files: &[PathBuf]) {
    for file in files {
        if let Ok(open) = File::open(file) {
            let _ = open.sync_all();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_files_are_skipped_and_written_ones_left_as_they_are() {
        let dir = l4rs_test_support::TempDir::new("bench-settle");
        let written = dir.path().join("written.log");
        std::fs::write(&written, b"line\n").unwrap();
        write_back(&[dir.path().join("never-created.log"), written.clone()]);
        assert_eq!(std::fs::read(&written).unwrap(), b"line\n");
        assert!(!dir.path().join("never-created.log").exists());
    }
}
