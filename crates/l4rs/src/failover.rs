//! `<Failover>`: log4j2's FailoverAppender. It writes each event to its primary appender and,
//! when that fails, to its failovers in order until one takes it; after a failure the primary
//! is left alone for `retryIntervalSeconds` before it is tried again.
//!
//! Only a failure the primary *returns* is seen, so the primary needs
//! `ignoreExceptions="false"` (with the default `true` its errors are reported and swallowed,
//! and the failovers are never used); likewise a failover must have `ignoreExceptions="false"`
//! for the next one to be tried after it fails.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Instant;

use l4rs_config::model::{AppenderSpec, FailoverSpec};
use l4rs_core::{status, AppendError, Appender, LogEvent};

use crate::appender_control::AppenderControl;

/// The names a Failover appender refers to: its primary, then its failovers.
pub(crate) fn referenced(spec: &FailoverSpec) -> impl Iterator<Item = &str> {
    std::iter::once(spec.primary.as_str()).chain(spec.failovers.iter().map(String::as_str))
}

/// The appender behind `<Failover>`.
pub(crate) struct FailoverAppender {
    name: String,
    primary: Arc<AppenderControl>,
    failovers: Vec<Arc<AppenderControl>>,
    retry_interval_nanos: u64,
    /// When the primary may be tried again, in nanoseconds since [`clock_origin`]; 0 when it
    /// has not failed (log4j2's `nextCheckNanos`).
    next_check_nanos: AtomicU64,
    ignore_exceptions: bool,
}

/// The origin of the monotonic clock the retry interval is measured with.
fn clock_origin() -> Instant {
    static ORIGIN: OnceLock<Instant> = OnceLock::new();
    *ORIGIN.get_or_init(Instant::now)
}

/// Nanoseconds since [`clock_origin`], never 0 (which means "no retry pending").
fn now_nanos() -> u64 {
    (clock_origin().elapsed().as_nanos() as u64).max(1)
}

impl FailoverAppender {
    fn failover(
        &self,
        event: &LogEvent<'_>,
        primary_error: Option<AppendError>,
    ) -> Result<(), AppendError> {
        let mut first_error = None;
        for control in &self.failovers {
            match control.call(event) {
                Ok(()) => return Ok(()),
                Err(error) => {
                    first_error.get_or_insert(error);
                }
            }
        }
        // log4j2 throws only when its own ignoreExceptions is false; otherwise the event is
        // lost without a report of its own (each appender has reported its failure).
        if self.ignore_exceptions {
            return Ok(());
        }
        // log4j2 rethrows the primary's failure, or "Unable to write to failover appenders"
        // caused by the first failover's; l4rs returns that cause itself.
        match primary_error.or(first_error) {
            Some(error) => Err(error),
            None => Ok(()),
        }
    }
}

impl Appender for FailoverAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        let next_check = self.next_check_nanos.load(Ordering::Relaxed);
        if next_check != 0 && now_nanos() <= next_check {
            return self.failover(event, None);
        }
        match self.primary.call(event) {
            Ok(()) => {
                // A store only after a failure: the steady state is one load.
                if next_check != 0 {
                    self.next_check_nanos.store(0, Ordering::Relaxed);
                }
                Ok(())
            }
            Err(error) => {
                self.next_check_nanos.store(
                    now_nanos().saturating_add(self.retry_interval_nanos),
                    Ordering::Relaxed,
                );
                self.failover(event, Some(error))
            }
        }
    }

    fn requires_location(&self) -> bool {
        self.primary.requires_location()
            || self
                .failovers
                .iter()
                .any(|control| control.requires_location())
    }
}

/// Builds a Failover appender from the appenders built so far (log4j2's `start`, with its
/// messages): without its primary or any failover it is not created.
pub(crate) fn build_failover_appender(
    spec: &AppenderSpec,
    failover: &FailoverSpec,
    by_name: &HashMap<String, Arc<AppenderControl>>,
) -> Option<AppenderControl> {
    let primary = by_name.get(&failover.primary).cloned();
    if primary.is_none() {
        status::error(format_args!(
            "Unable to locate primary Appender {}",
            failover.primary
        ));
    }
    let mut failovers = Vec::new();
    for name in &failover.failovers {
        match by_name.get(name) {
            Some(control) => failovers.push(Arc::clone(control)),
            None => status::error(format_args!("Failover appender {name} is not configured")),
        }
    }
    if failovers.is_empty() {
        status::error("No failover appenders are available");
    }
    let primary = primary.filter(|_| !failovers.is_empty())?;
    let appender = FailoverAppender {
        name: spec.name.clone(),
        primary,
        failovers,
        retry_interval_nanos: failover
            .retry_interval_seconds
            .saturating_mul(1_000_000_000),
        next_check_nanos: AtomicU64::new(0),
        ignore_exceptions: spec.ignore_exceptions,
    };
    Some(AppenderControl::new(
        Arc::new(appender),
        spec.filter.as_ref().map(l4rs_filter::build_filter),
        spec.ignore_exceptions,
    ))
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::{AtomicBool, AtomicUsize};

    use l4rs_core::{Level, Message};

    use super::*;

    /// Counts what it takes; fails while `failing` is set.
    struct Flaky {
        name: &'static str,
        failing: AtomicBool,
        taken: AtomicUsize,
    }

    impl Flaky {
        fn new(name: &'static str, failing: bool) -> Arc<Flaky> {
            Arc::new(Flaky {
                name,
                failing: AtomicBool::new(failing),
                taken: AtomicUsize::new(0),
            })
        }

        fn taken(&self) -> usize {
            self.taken.load(Ordering::Relaxed)
        }
    }

    impl Appender for Flaky {
        fn name(&self) -> &str {
            self.name
        }

        fn append(&self, _: &LogEvent<'_>) -> Result<(), AppendError> {
            if self.failing.load(Ordering::Relaxed) {
                return Err(AppendError::NotStarted(self.name.to_string()));
            }
            self.taken.fetch_add(1, Ordering::Relaxed);
            Ok(())
        }
    }

    fn control(appender: &Arc<Flaky>, ignore_exceptions: bool) -> Arc<AppenderControl> {
        Arc::new(AppenderControl::new(
            appender.clone(),
            None,
            ignore_exceptions,
        ))
    }

    fn failover(
        primary: &Arc<Flaky>,
        failovers: &[&Arc<Flaky>],
        retry_interval_nanos: u64,
        ignore_exceptions: bool,
    ) -> FailoverAppender {
        FailoverAppender {
            name: "fo".to_string(),
            primary: control(primary, false),
            failovers: failovers.iter().map(|f| control(f, false)).collect(),
            retry_interval_nanos,
            next_check_nanos: AtomicU64::new(0),
            ignore_exceptions,
        }
    }

    fn event() -> LogEvent<'static> {
        LogEvent::new("a", Level::INFO, Message::Text("m"))
    }

    #[test]
    fn a_failing_primary_is_left_alone_for_the_retry_interval() {
        let primary = Flaky::new("primary", true);
        let backup = Flaky::new("backup", false);
        let appender = failover(&primary, &[&backup], u64::MAX / 4, true);
        let ((), reported) = status::capture(|| {
            for _ in 0..3 {
                assert!(appender.append(&event()).is_ok());
            }
        });
        assert_eq!(backup.taken(), 3);
        // Only the first event tried the primary, so its failure was reported once.
        let primary_reports = reported
            .iter()
            .filter(|record| record.message.contains("Appender primary"))
            .count();
        assert_eq!(primary_reports, 1, "{reported:?}");
        // Once the interval has passed the primary is tried again, and keeps the events.
        primary.failing.store(false, Ordering::Relaxed);
        appender.next_check_nanos.store(1, Ordering::Relaxed);
        assert!(appender.append(&event()).is_ok());
        assert_eq!((primary.taken(), backup.taken()), (1, 3));
        assert_eq!(appender.next_check_nanos.load(Ordering::Relaxed), 0);
    }

    #[test]
    fn failovers_are_tried_in_order_and_the_primary_error_is_returned() {
        let primary = Flaky::new("primary", true);
        let first = Flaky::new("first", true);
        let second = Flaky::new("second", false);
        let appender = failover(&primary, &[&first, &second], 0, false);
        let ((), _) = status::capture(|| assert!(appender.append(&event()).is_ok()));
        assert_eq!((first.taken(), second.taken()), (0, 1));
        second.failing.store(true, Ordering::Relaxed);
        let (result, _) = status::capture(|| appender.append(&event()));
        assert!(
            matches!(&result, Err(AppendError::NotStarted(name)) if name == "primary"),
            "{result:?}"
        );
        // With ignoreExceptions (the default) the loss is not the caller's business.
        let quiet = failover(&primary, &[&first], 0, true);
        let (result, _) = status::capture(|| quiet.append(&event()));
        assert!(result.is_ok());
    }
}
