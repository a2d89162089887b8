//! The physical limit: raw sequential write bandwidth into the folder the logs go to.
//!
//! Large `write(2)` calls of preformatted bytes, with no fsync, which is exactly how far an
//! immediate-flush appender takes its bytes (into the OS); so an appender reaching this figure
//! is as fast as the folder allows, whatever its design.

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::Path;
use std::time::{Duration, Instant};

use crate::report::MB;

/// Size of each write.
pub const CHUNK: usize = 1 << 20;

/// Writes `CHUNK`-sized blocks into a scratch file in `dir` for `duration` (or until `cap`
/// bytes), deletes it, and returns the bandwidth in MB/s (MB = 2^20).
pub fn raw_write_bandwidth(dir: &Path, duration: Duration, cap: u64) -> io::Result<f64> {
    let path = dir.join("l4rs-bench-raw-bandwidth.tmp");
    let result = write_for(&path, duration, cap);
    let _ = std::fs::remove_file(&path);
    result
}

fn write_for(path: &Path, duration: Duration, cap: u64) -> io::Result<f64> {
    let mut file = OpenOptions::new()
        .create(true)
        .write(true)
        .truncate(true)
        .open(path)?;
    // Log-like bytes (text lines), so no filesystem can cheat with zero pages or compression
    // of a constant.
    let mut chunk = Vec::with_capacity(CHUNK);
    let mut line = 0u64;
    while chunk.len() < CHUNK {
        let text = format!("{line:>12} raw bandwidth probe, no formatting on the write path\n");
        chunk.extend_from_slice(text.as_bytes());
        line += 1;
    }
    chunk.truncate(CHUNK);
    let start = Instant::now();
    let mut written = 0u64;
    while start.elapsed() < duration && written < cap {
        file.write_all(&chunk)?;
        written += CHUNK as u64;
    }
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    Ok(written as f64 / MB / seconds)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn measures_and_cleans_up() {
        let dir = std::env::temp_dir().join(format!("l4rs-bench-disk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mb_per_s =
            raw_write_bandwidth(&dir, Duration::from_millis(30), 8 * CHUNK as u64).unwrap();
        assert!(mb_per_s > 0.0);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir(&dir).unwrap();
    }
}
