//! The floors of a latency row: the same schedule, threads and rate with calls that do less
//! than any logging library can, so that a library's tail can be read against what this
//! machine adds on its own.
//!
//! * [`NO_OP`]: a call that does nothing. What it measures is the harness and the scheduler:
//!   a worker woken late, or preempted between its due time and its return, by the other
//!   workers (a row has more threads than the machine has cores) or by anything else running.
//!   A library's call waits for the same things and more.
//! * [`WRITE_ONLY`]: a call that only hands the row's bytes to the OS the way an
//!   immediate-flush appender that appends must, one `write(2)` per event
//!   ([`crate::ceiling`]'s writer), with no formatting, routing or lock of its own. Such an
//!   appender's call does that and more. Only synchronous appending rows have it: an
//!   asynchronous row's caller only hands the event to a queue, which the no-op call covers;
//!   and a bare copy into a fresh mapping is no floor for MemoryMappedFile, whose call would
//!   take each new page's fault where the appender's prefaulting thread takes them ahead.
//!
//! A floor runs in windows of its own, so it estimates what this machine adds rather than
//! bounding each percentile of another window: a library can be quicker than a floor at the
//! median of a quieter moment. The no-op floor runs twice, just before the libraries' windows
//! and just after them, and reports the quieter window ([`quieter`]): one taken while the
//! kernel still writes the libraries' files back, or while another job runs, would otherwise
//! make the machine look slower than it is. The `write(2)` floor runs once, after them (it
//! writes the bytes per event that l4rs's window measured).

use std::path::Path;
use std::time::Duration;

use super::result::Latency;
use super::{record, settle};
use crate::ceiling::{self, Delivery};
use crate::workload::Workload;

/// The library name of the no-op floor's rows (one token: `LATENCY` lines split at spaces).
pub const NO_OP: &str = "floor:no-op";
/// The library name of the `write(2)` floor's rows.
pub const WRITE_ONLY: &str = "floor:write(2)";

/// Whether `library` names one of the floors.
pub fn is_floor(library: &str) -> bool {
    [NO_OP, WRITE_ONLY].contains(&library)
}

/// Of two windows of the same floor, the one with the shorter tail: the lower p99.99, then the
/// lower maximum. A whole window is kept, not a mix of percentiles from both, so the reported
/// distribution is one that was measured (the report does not say which window it was).
pub fn quieter(first: Latency, second: Latency) -> Latency {
    let tail = |latency: &Latency| (latency.at(99.99), latency.at(100.0));
    if tail(&second) < tail(&first) {
        second
    } else {
        first
    }
}

/// A workload whose calls do nothing.
struct NoOp;

impl Workload for NoOp {
    fn plain(&self) {}

    fn with_error(&self) {}
}

/// The shape of one floor run: the latency row it stands beside.
pub struct Run<'a> {
    /// The row's label.
    pub label: &'a str,
    /// Worker threads.
    pub threads: usize,
    /// Calls offered per second by each thread.
    pub rate_per_thread: f64,
    /// Flat-out warm-up before the window.
    pub warmup: Duration,
    /// The timed window.
    pub measure: Duration,
}

impl Run<'_> {
    fn record(&self, library: &str, workload: &dyn Workload, settle: &dyn Fn()) -> Latency {
        let recorded = record::run(
            workload,
            self.threads,
            self.rate_per_thread,
            self.warmup,
            self.measure,
            &|| {},
            settle,
        );
        Latency::from_histogram(
            self.label,
            library,
            self.threads,
            self.rate_per_thread,
            recorded.due,
            &recorded.histogram,
        )
    }

    /// The no-op floor.
    pub fn no_op(&self) -> Latency {
        self.record(NO_OP, &NoOp, &|| {})
    }

    /// The `write(2)` floor: each call appends `event_bytes` to a scratch file in `dir` with
    /// one `write(2)`; the file is written back after the warm-up, as the libraries' are, and
    /// deleted afterwards, with a wait for a quiet machine when `quiet_wait` is set, as theirs
    /// are ([`settle`]): the next row's windows do not pay for this deletion either.
    pub fn write_only(
        &self,
        dir: &Path,
        event_bytes: usize,
        quiet_wait: bool,
    ) -> std::io::Result<Latency> {
        let scratch = [ceiling::scratch(dir)];
        let delete = |path: &Path| {
            settle::delete(&[path.to_path_buf()], quiet_wait);
        };
        ceiling::with_writer(dir, Delivery::Append, event_bytes, delete, |workload| {
            self.record(WRITE_ONLY, workload, &|| settle::write_back(&scratch))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::latency::result::PERCENTILES;

    fn run() -> Run<'static> {
        Run {
            label: "File",
            threads: 2,
            rate_per_thread: 2_000.0,
            warmup: Duration::from_millis(10),
            measure: Duration::from_millis(50),
        }
    }

    #[test]
    fn the_no_op_floor_times_every_due_call() {
        let floor = run().no_op();
        assert_eq!(floor.library, NO_OP);
        assert_eq!((floor.label.as_str(), floor.threads), ("File", 2));
        // 2 threads × 2000/s × 50 ms.
        assert_eq!(floor.due, 200);
        assert_eq!(floor.calls, 200);
        assert!(is_floor(&floor.library) && !is_floor("l4rs"));
        // Its LATENCY line reads back whole: a floor's name is one token.
        assert_eq!(Latency::parse(&floor.line()), Some(floor));
    }

    #[test]
    fn the_quieter_window_is_the_one_with_the_shorter_tail() {
        let window = |p99_99: u64, max: u64| {
            let mut latency = run().no_op();
            let at = |p: f64| PERCENTILES.iter().position(|(q, _)| *q == p).unwrap();
            latency.nanos[at(99.99)] = p99_99;
            latency.nanos[at(100.0)] = max;
            latency
        };
        assert_eq!(quieter(window(9, 20), window(5, 30)).at(99.99), Some(5));
        assert_eq!(quieter(window(5, 30), window(9, 20)).at(99.99), Some(5));
        // Equal p99.99: the lower maximum decides.
        assert_eq!(quieter(window(5, 30), window(5, 20)).at(100.0), Some(20));
        // A tie keeps the first (the window before the libraries').
        let first = window(5, 20);
        assert_eq!(quieter(first.clone(), window(5, 20)), first);
    }

    #[test]
    fn the_write_floor_writes_and_leaves_nothing_behind() {
        let dir = std::env::temp_dir().join(format!("l4rs-bench-floor-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let floor = run().write_only(&dir, 300, true).unwrap();
        assert_eq!(floor.library, WRITE_ONLY);
        assert_eq!(floor.calls, 200);
        assert!(floor.at(100.0).unwrap() > 0);
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
