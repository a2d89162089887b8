//! The physical limit: raw sequential write bandwidth into the folder the logs go to.
//!
//! Large `write(2)` calls of preformatted bytes, with no fsync, which is exactly how far an
//! immediate-flush appender takes its bytes (into the OS); so an appender reaching this figure
//! is as fast as the folder allows, whatever its design.
//!
//! One writer stream meets the kernel's writeback throttling harder than a row's several
//! logging threads do (the throttle pauses each dirtying task), and the bandwidth of a
//! disk-backed folder swings from second to second; so the probe runs as many writer threads
//! as the row (each into its own scratch file, so the figure is an upper bound, not one
//! file's lock), twice, and keeps the better of the two ([`Probe`]).

use std::fs::OpenOptions;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use crate::report::MB;

/// Size of each write.
pub const CHUNK: usize = 1 << 20;

/// How the raw bandwidth is probed: `rounds` probes of `each`, `threads` writers each, the
/// best one kept.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// Writer threads, each with its own scratch file (the row's thread count).
    pub threads: usize,
    /// Probes taken; the best is kept.
    pub rounds: usize,
    /// Length of each probe.
    pub each: Duration,
}

impl Probe {
    /// Rounds per probe.
    pub const ROUNDS: usize = 2;
    /// Bounds of one round: a quarter of the measured window, at least 250 ms and at most
    /// 500 ms, so a row's probe takes 0.5–1 s.
    pub const MIN_EACH: Duration = Duration::from_millis(250);
    /// See [`Probe::MIN_EACH`].
    pub const MAX_EACH: Duration = Duration::from_millis(500);

    /// The probe beside a row of `threads` threads measured for `measure`.
    pub fn for_row(threads: usize, measure: Duration) -> Probe {
        Probe {
            threads: threads.max(1),
            rounds: Self::ROUNDS,
            each: (measure / 4).clamp(Self::MIN_EACH, Self::MAX_EACH),
        }
    }

    /// Time the whole probe takes (for the progress estimate).
    pub fn duration(&self) -> Duration {
        self.each * self.rounds as u32
    }

    /// The method, for footnotes: `best of 2 × 0.50 s probes, one writer thread per logging
    /// thread of the row (each its own file), 1 MiB writes, no fsync`.
    pub fn describe(&self) -> String {
        format!(
            "best of {} × {:.2} s probes, one writer thread per logging thread of the row (each its own file), {} MiB writes, no fsync",
            self.rounds,
            self.each.as_secs_f64(),
            CHUNK >> 20
        )
    }
}

/// The best of `samples` (the round that met the least throttling); `None` when none ran.
pub fn best_of(samples: &[f64]) -> Option<f64> {
    samples
        .iter()
        .copied()
        .filter(|s| s.is_finite() && *s > 0.0)
        .max_by(f64::total_cmp)
}

/// Runs `probe` in `dir` (at most `cap` bytes per round), deletes its files, and returns the
/// best round's bandwidth in MB/s (MB = 2^20).
pub fn probe_bandwidth(dir: &Path, probe: &Probe, cap: u64) -> io::Result<f64> {
    let mut samples = Vec::with_capacity(probe.rounds);
    for _ in 0..probe.rounds {
        samples.push(raw_write_bandwidth(dir, probe.threads, probe.each, cap)?);
    }
    best_of(&samples).ok_or_else(|| io::Error::other("the raw probe wrote nothing"))
}

/// `len` bytes of numbered text lines: log-like, so no filesystem can cheat with zero pages or
/// compression of a constant.
pub fn log_like_bytes(len: usize) -> Vec<u8> {
    let mut bytes = Vec::with_capacity(len + 80);
    let mut line = 0u64;
    while bytes.len() < len {
        let text = format!("{line:>12} raw bandwidth probe, no formatting on the write path\n");
        bytes.extend_from_slice(text.as_bytes());
        line += 1;
    }
    bytes.truncate(len);
    bytes
}

/// The scratch file of writer `index`.
fn scratch(dir: &Path, index: usize) -> PathBuf {
    dir.join(format!("l4rs-bench-raw-bandwidth-{index}.tmp"))
}

/// `threads` writers each write `CHUNK`-sized blocks into their own scratch file in `dir` for
/// `duration` (or until `cap` bytes in all), then the files are deleted; returns the
/// aggregate bandwidth in MB/s (MB = 2^20).
pub fn raw_write_bandwidth(
    dir: &Path,
    threads: usize,
    duration: Duration,
    cap: u64,
) -> io::Result<f64> {
    let threads = threads.max(1);
    let paths: Vec<PathBuf> = (0..threads).map(|i| scratch(dir, i)).collect();
    let result = write_for(&paths, duration, cap);
    for path in &paths {
        let _ = std::fs::remove_file(path);
    }
    result
}

fn write_for(paths: &[PathBuf], duration: Duration, cap: u64) -> io::Result<f64> {
    let mut files = Vec::with_capacity(paths.len());
    for path in paths {
        files.push(
            OpenOptions::new()
                .create(true)
                .write(true)
                .truncate(true)
                .open(path)?,
        );
    }
    let chunk = log_like_bytes(CHUNK);
    let per_thread_cap = (cap / files.len() as u64).max(CHUNK as u64);
    let start = Instant::now();
    let written = std::thread::scope(|scope| {
        let handles: Vec<_> = files
            .into_iter()
            .map(|mut file| {
                let chunk = &chunk;
                scope.spawn(move || -> io::Result<u64> {
                    let mut written = 0u64;
                    while start.elapsed() < duration && written < per_thread_cap {
                        file.write_all(chunk)?;
                        written += CHUNK as u64;
                    }
                    Ok(written)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err(io::Error::other("probe thread panicked")))
            })
            .sum::<io::Result<u64>>()
    })?;
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
        let probe = Probe {
            threads: 3,
            rounds: 2,
            each: Duration::from_millis(30),
        };
        let mb_per_s = probe_bandwidth(&dir, &probe, 8 * CHUNK as u64).unwrap();
        assert!(mb_per_s > 0.0);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir(&dir).unwrap();
    }

    #[test]
    fn the_best_round_is_kept() {
        assert_eq!(best_of(&[300.0, 450.0, 420.0]), Some(450.0));
        assert_eq!(best_of(&[f64::NAN, 0.0, 12.5]), Some(12.5));
        assert_eq!(best_of(&[]), None);
        assert_eq!(best_of(&[0.0]), None);
    }

    #[test]
    fn the_probe_follows_the_row_and_stays_bounded() {
        let default = Probe::for_row(4, Duration::from_secs(2));
        assert_eq!(default.threads, 4);
        assert_eq!(default.rounds, 2);
        assert_eq!(default.each, Duration::from_millis(500));
        assert_eq!(default.duration(), Duration::from_secs(1));
        let short = Probe::for_row(0, Duration::from_millis(100));
        assert_eq!(short.threads, 1);
        assert_eq!(short.each, Probe::MIN_EACH);
        let long = Probe::for_row(64, Duration::from_secs(60));
        assert_eq!(long.each, Probe::MAX_EACH);
        assert_eq!(long.threads, 64);
        assert_eq!(
            default.describe(),
            "best of 2 × 0.50 s probes, one writer thread per logging thread of the row (each its own file), 1 MiB writes, no fsync"
        );
        assert!(short.describe().starts_with("best of 2 × 0.25 s probes"));
    }
}
