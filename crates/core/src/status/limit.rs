//! Rate limits for status reports that repeat.
//!
//! A failing destination fails every event: a full disk, a database that is down or a broker
//! that does not answer would otherwise print one status line per log call and bury the first,
//! useful one. Each kind of report that can repeat per event keeps a [`ReportLimit`], and every
//! appender that reports per event uses one of the two policies here rather than its own.

use std::fmt;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use crate::Level;

/// log4j2's `DefaultErrorHandler`: after the first report, three more, then one per interval.
const ERROR_HANDLER_BURST: u64 = 4;
/// log4j2's `DefaultErrorHandler`: the least time since the last report before another, once
/// the burst is used up.
const ERROR_HANDLER_INTERVAL: Duration = Duration::from_secs(5 * 60);

/// How often the reports of one kind are printed, and what they say about the others.
///
/// Cheap to check (a monotonic clock read and two atomic loads when a report is left out, and
/// an atomic add for a limit that counts them) and safe to share between threads; every method
/// takes `&self`.
#[derive(Debug)]
pub struct ReportLimit {
    /// Reports printed at any time before the interval applies (at least 1).
    burst: u64,
    /// The least time between two reports once the burst is used up, in milliseconds.
    interval_ms: u64,
    /// Whether a report says how many were left out since the last one.
    summarize: bool,
    /// When the last report that starts the interval was printed, as [`now_ms`] reads the
    /// clock (0 means never).
    last_ms: AtomicU64,
    /// Reports of the burst printed so far (the first one included).
    burst_used: AtomicU64,
    /// Reports left out since the last one printed.
    left_out: AtomicU64,
}

impl ReportLimit {
    /// log4j2's default error handler, which its appenders report through: the first report
    /// and three more, then one when five minutes have passed since the last. Reports are
    /// printed as they are, so that they read as log4j2's do.
    pub const fn error_handler() -> ReportLimit {
        ReportLimit::new(ERROR_HANDLER_BURST, ERROR_HANDLER_INTERVAL, false)
    }

    /// At most one report a second, each saying how many similar ones were left out before
    /// it: for reports log4j2 prints for every event (l4rs keeps them readable during an
    /// outage).
    pub const fn per_second() -> ReportLimit {
        ReportLimit::new(1, Duration::from_secs(1), true)
    }

    /// `burst` reports at any time (at least one), then one once `interval` has passed since
    /// the last; with `summarize` each report printed after others were left out says how
    /// many.
    pub const fn new(burst: u64, interval: Duration, summarize: bool) -> ReportLimit {
        ReportLimit {
            burst: if burst == 0 { 1 } else { burst },
            interval_ms: if interval.as_millis() > u64::MAX as u128 {
                u64::MAX
            } else {
                interval.as_millis() as u64
            },
            summarize,
            last_ms: AtomicU64::new(0),
            burst_used: AtomicU64::new(0),
            left_out: AtomicU64::new(0),
        }
    }

    /// Whether a report may be printed now, and if so how many were left out before it (always
    /// 0 for a limit that does not summarize); a report that may not is counted as left out.
    pub fn admit(&self) -> Option<u64> {
        let now = now_ms();
        let last = self.last_ms.load(Ordering::Relaxed);
        let interval_passed = last == 0 || now.saturating_sub(last) >= self.interval_ms;
        let admitted = (interval_passed
            && self
                .last_ms
                .compare_exchange(last, now, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok())
            || (self
                .burst_used
                .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                    // The first interval report is the burst's first one too.
                    (used + 1 < self.burst).then_some(used + 1)
                })
                .is_ok()
                // A burst report starts the interval again, as in log4j2's handler.
                && {
                    self.last_ms.fetch_max(now, Ordering::Relaxed);
                    true
                });
        if !self.summarize {
            // Nobody reads the count: a refused report costs no read-modify-write.
            return admitted.then_some(0);
        }
        if admitted {
            Some(self.left_out.swap(0, Ordering::Relaxed))
        } else {
            self.left_out.fetch_add(1, Ordering::Relaxed);
            None
        }
    }

    /// Prints `message` at `level` to the status logger if [`admit`](Self::admit) allows it,
    /// followed, for a summarizing limit, by how many similar reports were left out.
    pub fn report(&self, level: Level, message: impl fmt::Display) {
        match self.admit() {
            Some(left_out) if self.summarize && left_out > 0 => super::log(
                level,
                format_args!("{message} ({left_out} similar reports left out since the last one)"),
            ),
            Some(_) => super::log(level, message),
            None => {}
        }
    }
}

impl Default for ReportLimit {
    /// [`ReportLimit::error_handler`]: log4j2's default error handler's limit.
    fn default() -> ReportLimit {
        ReportLimit::error_handler()
    }
}

/// Milliseconds on the monotonic clock, plus 1 so that 0 can mean "never".
fn now_ms() -> u64 {
    (crate::time::monotonic_nanos() / 1_000_000) as u64 + 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_error_handler_allows_four_reports_then_waits() {
        let limit = ReportLimit::error_handler();
        let allowed = (0..20).filter(|_| limit.admit().is_some()).count();
        assert_eq!(allowed, 4);
    }

    /// Long enough that a busy machine's pause between two calls is not an interval.
    const INTERVAL: Duration = Duration::from_millis(400);

    #[test]
    fn a_summarizing_limit_counts_what_it_left_out() {
        let limit = ReportLimit::new(1, INTERVAL, true);
        assert_eq!(limit.admit(), Some(0));
        assert_eq!(limit.admit(), None);
        assert_eq!(limit.admit(), None);
        std::thread::sleep(INTERVAL + Duration::from_millis(20));
        assert_eq!(limit.admit(), Some(2));
        assert_eq!(limit.admit(), None);
    }

    #[test]
    fn a_report_says_how_many_were_left_out() {
        let limit = ReportLimit::new(1, INTERVAL, true);
        let ((), records) = crate::status::capture(|| {
            for _ in 0..5 {
                limit.report(Level::ERROR, "Unable to write");
            }
            std::thread::sleep(INTERVAL + Duration::from_millis(20));
            limit.report(Level::ERROR, "Unable to write");
        });
        let messages: Vec<&str> = records.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(
            messages,
            [
                "Unable to write",
                "Unable to write (4 similar reports left out since the last one)"
            ]
        );
    }

    #[test]
    fn threads_together_get_no_more_than_the_burst_and_every_refusal_is_counted() {
        // Four reports at any time, then one per interval, with the count: the burst across
        // threads, and no refusal lost between the counter and the reports that read it.
        let limit = ReportLimit::new(4, Duration::from_secs(3600), true);
        let allowed = AtomicU64::new(0);
        let counted_in_reports = AtomicU64::new(0);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..1000 {
                        if let Some(left_out) = limit.admit() {
                            allowed.fetch_add(1, Ordering::Relaxed);
                            counted_in_reports.fetch_add(left_out, Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert_eq!(allowed.into_inner(), 4);
        let still_counted = limit.left_out.load(Ordering::Relaxed);
        assert_eq!(counted_in_reports.into_inner() + still_counted, 3996);
    }

    #[test]
    fn the_interval_runs_from_the_last_report_of_the_burst() {
        // log4j2 2.19's DefaultErrorHandler: every report it lets through, burst ones too,
        // starts the interval again.
        let limit = ReportLimit::new(2, Duration::from_millis(1000), false);
        assert_eq!(limit.admit(), Some(0));
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(limit.admit(), Some(0), "the burst's second report");
        std::thread::sleep(Duration::from_millis(600));
        assert_eq!(
            limit.admit(),
            None,
            "1.2 s after the first, 0.6 s after the last"
        );
        std::thread::sleep(Duration::from_millis(500));
        assert_eq!(limit.admit(), Some(0));
    }

    #[test]
    fn the_error_handler_limit_counts_nothing() {
        let limit = ReportLimit::error_handler();
        let admitted: Vec<Option<u64>> = (0..6).map(|_| limit.admit()).collect();
        assert_eq!(admitted, [Some(0), Some(0), Some(0), Some(0), None, None]);
        assert_eq!(limit.left_out.load(Ordering::Relaxed), 0);
    }
}
