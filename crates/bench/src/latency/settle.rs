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
//! Deleting a row's files has a cost of its own that lands on whatever runs next. On a 2-core
//! AMD EPYC VM, deleting 6 GiB of written data paused the whole machine, both cores at once,
//! for 10–34 ms every 1–2 s for 12–19 s after the `rm`, whether the data was a second or ten
//! seconds old: two threads spinning on the clock saw the same gaps at the same moments, and
//! the steal time rose by 0.6–0.8 s. With one thread spinning and the other core idle there
//! was no pause. The likely cause, traced later on an Intel Xeon VM (the AMD VM was not
//! checked): the guest's free page reporting tells the host it may take back the freed page
//! cache, and each of its passes paused both cores ([`crate::page_reporting`]). Not every
//! deletion pauses: on the AMD VM the bench's MemoryMappedFile rows' files did and its File
//! rows' did not; on the Intel VM the File rows' 4–5 GB did too in most runs. The bench does
//! not switch reporting off, since that is the host's business.
//! So the wait measures rather than assumes: after deleting a row's files the bench
//! keeps every core busy until [`QUIET_SPAN`] passes without a [`PAUSE`] ([`until_quiet`]),
//! and every window starts on a machine that is not still paying for the previous row's
//! deletion.

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::OnceLock;
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
/// pause of the machine. The pauses after a deletion measured 10–34 ms; an idle machine's
/// longest gaps (timer ticks, the host's own preemption) 1–3 ms.
pub const PAUSE: Duration = Duration::from_millis(8);
/// The machine counts as quiet once this long passes without a [`PAUSE`]. The pauses after a
/// deletion came every 1–2 s.
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
    let why = likely_cause(
        quiet.pauses,
        crate::page_reporting::free_page_reporting(Path::new("/")) == Some(true),
    );
    eprintln!(
        "l4rs-bench: deleted {:.1} GB; the machine paused {} times ({} ms or more) and was {} after {:.1} s{why}",
        bytes as f64 / 1e9,
        quiet.pauses,
        PAUSE.as_millis(),
        if quiet.reached { "quiet" } else { "still pausing" },
        quiet.waited.as_secs_f64()
    );
    Some(quiet)
}

/// What the wait's message adds about the pauses it saw: the likely cause when the machine
/// reports freed memory to its host, which the deletion just gave it plenty of; nothing when
/// there were no pauses or no such reporting to blame.
fn likely_cause(pauses: u32, free_page_reporting: bool) -> &'static str {
    if pauses > 0 && free_page_reporting {
        " (likely the host taking back the freed page cache: free page reporting)"
    } else {
        ""
    }
}

/// Spins on the monotonic clock on every core until [`QUIET_SPAN`] passes without a [`PAUSE`]
/// on any of them, or [`QUIET_LIMIT`] passes. Every core, because the pauses came only while
/// every core was busy: with a core idle there were none to see.
pub fn until_quiet() -> Quiet {
    // `available_parallelism` counts a cgroup's CPU quota too, and that is what is wanted:
    // spinning on more threads than the quota allows would have the cgroup throttle them, and
    // the throttling would read as pauses that never end.
    let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
    let watch = Watch::new(PAUSE, QUIET_SPAN, QUIET_LIMIT);
    let origin = Instant::now();
    let spin = || {
        let mut last = origin.elapsed();
        loop {
            let at = origin.elapsed();
            if let Some(quiet) = watch.observe(&mut last, at) {
                return quiet;
            }
        }
    };
    std::thread::scope(|scope| {
        for _ in 1..cores {
            scope.spawn(spin);
        }
        spin()
    })
}

/// What the spinning threads share: when the last pause was seen on any of them.
struct Watch {
    pause: Duration,
    span: Duration,
    limit: Duration,
    /// The end of the latest pause seen, in µs from the start (0: none yet).
    last_pause_micros: AtomicU64,
    /// Pauses seen, each counted once however many cores saw it.
    pauses: AtomicU32,
    /// How the wait ended, set once by the thread that saw it end; the others then stop and
    /// return the same.
    outcome: OnceLock<Quiet>,
}

impl Watch {
    fn new(pause: Duration, span: Duration, limit: Duration) -> Watch {
        Watch {
            pause,
            span,
            limit,
            last_pause_micros: AtomicU64::new(0),
            pauses: AtomicU32::new(0),
            outcome: OnceLock::new(),
        }
    }

    /// One reading `at` (time since the start) of a thread whose previous reading was `last`:
    /// counts a pause between them, and returns how the wait ended once it has.
    fn observe(&self, last: &mut Duration, at: Duration) -> Option<Quiet> {
        if let Some(outcome) = self.outcome.get() {
            return Some(*outcome);
        }
        let micros = |d: Duration| u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        if at.saturating_sub(*last) >= self.pause {
            let previous_end = self
                .last_pause_micros
                .fetch_max(micros(at), Ordering::Relaxed);
            // Every core sees a pause of the whole machine: one that began before the last
            // one seen ended is that one.
            if micros(*last) >= previous_end {
                self.pauses.fetch_add(1, Ordering::Relaxed);
            }
        }
        *last = at;
        let quiet_since = Duration::from_micros(self.last_pause_micros.load(Ordering::Relaxed));
        let reached = at.saturating_sub(quiet_since) >= self.span;
        if !reached && at < self.limit {
            return None;
        }
        let _ = self.outcome.set(Quiet {
            waited: at,
            pauses: self.pauses.load(Ordering::Relaxed),
            reached,
        });
        self.outcome.get().copied()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn watch() -> Watch {
        Watch::new(ms(8), ms(100), ms(1000))
    }

    #[test]
    fn free_page_reporting_is_named_only_for_pauses_on_a_reporting_machine() {
        assert!(likely_cause(3, true).contains("free page reporting"));
        assert_eq!(likely_cause(0, true), "");
        assert_eq!(likely_cause(3, false), "");
    }

    /// Feeds one thread's `readings` (ms), then 1 ms steps, until the wait ends.
    fn wait(watch: &Watch, readings: &[u64]) -> Quiet {
        let mut last = ms(readings.first().copied().unwrap_or(0));
        let mut at = last;
        let mut rest = readings.iter().copied().map(ms);
        loop {
            at = rest.next().unwrap_or(at + ms(1));
            if let Some(quiet) = watch.observe(&mut last, at) {
                return quiet;
            }
        }
    }

    #[test]
    fn a_machine_without_pauses_is_quiet_after_one_span() {
        let quiet = wait(&watch(), &[]);
        assert_eq!(
            quiet,
            Quiet {
                waited: ms(100),
                pauses: 0,
                reached: true
            }
        );
    }

    #[test]
    fn each_pause_starts_the_span_again() {
        // A gap of 7 ms is no pause; 8 ms (10 → 18) and 20 ms (25 → 45) are.
        let quiet = wait(&watch(), &[0, 7, 10, 18, 19, 25, 45]);
        assert_eq!(quiet.pauses, 2);
        assert!(quiet.reached);
        assert_eq!(quiet.waited, ms(145));
    }

    #[test]
    fn a_pause_on_one_core_holds_the_others_back_and_the_end_stops_them_all() {
        let watch = watch();
        let (mut first, mut second) = (ms(0), ms(0));
        // The second core sees a pause that ends at 50 ms.
        assert_eq!(watch.observe(&mut second, ms(50)), None);
        // The first, reading every millisecond without a pause, is not done at 100 ms, and
        // ends the wait at 150: quiet for 100 ms since the other core's pause.
        let ended = (1..=150)
            .map(|at| (at, watch.observe(&mut first, ms(at))))
            .find_map(|(at, quiet)| quiet.map(|quiet| (at, quiet)))
            .expect("quiet for 100 ms");
        assert_eq!(ended.0, 150);
        assert_eq!((ended.1.pauses, ended.1.reached), (1, true));
        // The second core stops at its next reading.
        assert!(watch.observe(&mut second, ms(51)).is_some());
    }

    #[test]
    fn a_pause_every_core_sees_counts_once() {
        let watch = watch();
        let (mut first, mut second) = (ms(0), ms(5));
        // One pause of the machine, seen from 0 to 20 ms on one core and 5 to 22 on the other.
        assert_eq!(watch.observe(&mut first, ms(20)), None);
        assert_eq!(watch.observe(&mut second, ms(22)), None);
        assert_eq!(watch.pauses.load(Ordering::Relaxed), 1);
        // A later one, after the first ended.
        assert_eq!(watch.observe(&mut second, ms(40)), None);
        assert_eq!(watch.pauses.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn a_machine_that_keeps_pausing_is_left_at_the_limit() {
        let readings: Vec<u64> = (0..200).map(|i| i * 10).collect();
        let quiet = wait(&watch(), &readings);
        assert!(!quiet.reached);
        assert_eq!(quiet.waited, ms(1000));
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
