//! Writing a warm-up's bytes to the disk before a latency window starts.
//!
//! Each latency row warms up flat out, so that log4j2's JIT has compiled the error path before
//! the window; a library then leaves as many dirty pages as it could write in that time. On a
//! disk the kernel writes them back while the window runs, and the stalls of that write-back
//! land on the calls of whichever library wrote more in its warm-up: the faster one. So every
//! window (l4rs's, log4j2's in the Java harness's `writeBack`, and the `write(2)` floor's)
//! starts once its files' pages are on the disk, and no longer inherits the write-back of the
//! bytes its warm-up wrote.
//!
//! Deleting a row's files has a cost of its own that lands on whatever runs next. On this VM
//! (ext4 mounted with `discard`), deleting 6 GiB of written data paused the whole machine,
//! both cores at once, for 16–34 ms every 2 s over the next 20 s: two threads spinning on the
//! clock saw the same gaps at the same moments, and the steal time rose by 0.6–0.8 s. Nothing
//! inside the VM waits then (the disk's discards completed within the `rm`); the host does the
//! work. So after deleting a row's files the bench waits until the machine has gone
//! [`QUIET_SPAN`] without such a pause ([`until_quiet`]), and every window starts on a
//! machine that is not still paying for the previous row's deletion.

use std::fs::File;
use std::path::PathBuf;
use std::time::{Duration, Instant};

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

/// A gap this long between two readings of the clock on a thread that does nothing else is a
/// pause of the machine. The pauses after a deletion measured 8–34 ms; an idle machine's
/// longest gaps (timer ticks, the host's own preemption) 1–3 ms.
pub const PAUSE: Duration = Duration::from_millis(8);
/// The machine counts as quiet once this long passes without a [`PAUSE`]. The pauses after a
/// deletion came every 2 s.
pub const QUIET_SPAN: Duration = Duration::from_secs(4);
/// The wait never lasts longer than this: a machine that never goes quiet is measured as it is.
pub const QUIET_LIMIT: Duration = Duration::from_secs(90);
/// Deleting less than this is not waited for.
pub const WAIT_FROM_BYTES: u64 = 256 << 20;

/// How a wait for a quiet machine ended.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Quiet {
    /// How long it waited, quiet span included.
    pub waited: Duration,
    /// Pauses seen while waiting.
    pub pauses: u32,
    /// False when [`QUIET_LIMIT`] ended the wait first.
    pub reached: bool,
}

/// Deletes `files` (missing ones are skipped) and, when they held [`WAIT_FROM_BYTES`] or more
/// and `wait` is set, waits for the machine to go quiet ([`until_quiet`]), saying so on
/// stderr. Returns the wait, if there was one.
pub fn delete(files: &[PathBuf], wait: bool) -> Option<Quiet> {
    let mut bytes = 0;
    for file in files {
        if let Ok(metadata) = std::fs::metadata(file) {
            if std::fs::remove_file(file).is_ok() {
                bytes += metadata.len();
            }
        }
    }
    if !wait || bytes < WAIT_FROM_BYTES {
        return None;
    }
    let quiet = until_quiet();
    eprintln!(
        "l4rs-bench: deleted {:.1} GB; the machine paused {} times ({} ms or more) and was {} after {:.1} s",
        bytes as f64 / 1e9,
        quiet.pauses,
        PAUSE.as_millis(),
        if quiet.reached { "quiet" } else { "still pausing" },
        quiet.waited.as_secs_f64()
    );
    Some(quiet)
}

/// Spins on the monotonic clock until [`QUIET_SPAN`] passes without a [`PAUSE`], or
/// [`QUIET_LIMIT`] passes. One thread spins; the other core stays free, and a pause of the
/// whole machine shows on either.
pub fn until_quiet() -> Quiet {
    let origin = Instant::now();
    wait_for_quiet(|| origin.elapsed(), PAUSE, QUIET_SPAN, QUIET_LIMIT)
}

/// [`until_quiet`] on the clock `now`.
fn wait_for_quiet(
    mut now: impl FnMut() -> Duration,
    pause: Duration,
    span: Duration,
    limit: Duration,
) -> Quiet {
    let start = now();
    let mut last = start;
    let mut quiet_since = start;
    let mut pauses = 0;
    loop {
        let at = now();
        if at - last >= pause {
            pauses += 1;
            quiet_since = at;
        }
        last = at;
        let waited = at - start;
        if at - quiet_since >= span || waited >= limit {
            return Quiet {
                waited,
                pauses,
                reached: at - quiet_since >= span,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A clock that reads `readings` (in ms) one after the other, then steps 1 ms at a time.
    fn clock(readings: &[u64]) -> impl FnMut() -> Duration + '_ {
        let mut next = 0;
        let mut last = 0;
        move || {
            last = readings.get(next).copied().unwrap_or(last + 1);
            next += 1;
            Duration::from_millis(last)
        }
    }

    fn wait(readings: &[u64]) -> Quiet {
        let ms = Duration::from_millis;
        wait_for_quiet(clock(readings), ms(8), ms(100), ms(1000))
    }

    #[test]
    fn a_machine_without_pauses_is_quiet_after_one_span() {
        assert_eq!(
            wait(&[]),
            Quiet {
                waited: Duration::from_millis(100),
                pauses: 0,
                reached: true
            }
        );
    }

    #[test]
    fn each_pause_starts_the_span_again() {
        // A gap of 7 ms is no pause; 8 ms (10 → 18) and 20 ms (25 → 45) are.
        let quiet = wait(&[0, 7, 10, 18, 19, 25, 45]);
        assert_eq!(quiet.pauses, 2);
        assert!(quiet.reached);
        assert_eq!(quiet.waited, Duration::from_millis(145));
    }

    #[test]
    fn a_machine_that_keeps_pausing_is_left_at_the_limit() {
        let readings: Vec<u64> = (0..200).map(|i| i * 10).collect();
        let quiet = wait(&readings);
        assert!(!quiet.reached);
        assert_eq!(quiet.waited, Duration::from_millis(1000));
        assert_eq!(quiet.pauses, 100);
    }

    #[test]
    fn small_deletions_are_not_waited_for_and_missing_files_are_skipped() {
        let dir = l4rs_test_support::TempDir::new("bench-settle-delete");
        let written = dir.path().join("written.log");
        std::fs::write(&written, b"line\n").unwrap();
        let quiet = delete(
            &[dir.path().join("never-created.log"), written.clone()],
            true,
        );
        assert_eq!(quiet, None);
        assert!(!written.exists());
    }

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
