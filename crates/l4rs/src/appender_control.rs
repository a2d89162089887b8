//! What stands between the routing and an appender (log4j2's `AppenderControl`): the appender's
//! filter, recursion protection, and error reporting that never reaches the caller unless
//! `ignoreExceptions="false"`.

use std::cell::RefCell;
use std::sync::Arc;

use l4rs_core::status::ReportLimit;
use l4rs_core::{status, AppendError, Appender, Filter, FilterResult, LogEvent};

thread_local! {
    /// The appenders this thread is inside `append` of, to catch an appender that logs into
    /// itself.
    static APPENDING: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
    /// Set by a call that returned its appender's error to the appender that called it (a
    /// Routing, Rewrite or Failover appender with `ignoreExceptions="false"` all the way), so
    /// that the calling control reports the error as its own processing error only: the stream
    /// that failed was named once, by the appender that wrote to it, as in log4j2.
    static PROPAGATED: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// One configured appender as the routing calls it.
pub(crate) struct AppenderControl {
    appender: Arc<dyn Appender>,
    filter: Option<Arc<dyn Filter>>,
    ignore_exceptions: bool,
    /// The appender's error handler: log4j2's default one rate-limits what it reports.
    errors: ReportLimit,
    /// True for an Async appender: calling it queues the event for a thread of its own.
    queue: bool,
    /// True for an Async appender that drops events when its queue is full
    /// (`blocking="false"`, or the `Discard` queue-full policy).
    drops_when_full: bool,
}

impl AppenderControl {
    pub(crate) fn new(
        appender: Arc<dyn Appender>,
        filter: Option<Arc<dyn Filter>>,
        ignore_exceptions: bool,
    ) -> AppenderControl {
        AppenderControl {
            appender,
            filter,
            ignore_exceptions,
            errors: ReportLimit::error_handler(),
            queue: false,
            drops_when_full: false,
        }
    }

    /// The control of an appender that queues events (an Async appender) rather than writing
    /// them in the caller's thread.
    pub(crate) fn queueing(mut self, drops_when_full: bool) -> AppenderControl {
        self.queue = true;
        self.drops_when_full = drops_when_full;
        self
    }

    /// True when a call through this appender waits at a closed caller gate during a
    /// reconfiguration: it writes in the caller's thread, or it queues into a queue that drops
    /// when full (its thread waits at the gate, so the queue would fill and throw events away;
    /// the caller waiting instead loses nothing).
    pub(crate) fn waits_at_caller_gate(&self) -> bool {
        !self.queue || self.drops_when_full
    }

    pub(crate) fn name(&self) -> &str {
        self.appender.name()
    }

    pub(crate) fn requires_location(&self) -> bool {
        self.appender.requires_location()
    }

    /// The count of a counting appender ([`Appender::counted_events`]).
    pub(crate) fn counted_events(&self) -> Option<u64> {
        self.appender.counted_events()
    }

    /// The layout a queue in front of this appender may format events with on the calling
    /// thread ([`Appender::layout_rendering_ahead`]).
    pub(crate) fn layout_rendering_ahead(&self) -> Option<Arc<dyn l4rs_core::Layout>> {
        self.appender.layout_rendering_ahead()
    }

    /// Filters and appends one event. Errors are reported through the status logger; they are
    /// returned only when the appender has `ignoreExceptions="false"`.
    pub(crate) fn call(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        if let Some(filter) = &self.filter {
            if filter.filter(event) == FilterResult::Deny {
                self.appender.denied_by_filter(event);
                return Ok(());
            }
        }
        let id = self as *const AppenderControl as usize;
        let entered = APPENDING
            .try_with(|stack| {
                let mut stack = stack.borrow_mut();
                if stack.contains(&id) {
                    false
                } else {
                    stack.push(id);
                    true
                }
            })
            .unwrap_or(true);
        if !entered {
            // log4j2 reports it through the appender's error handler, so it shares the
            // rate limit of the append errors.
            if self.errors.admit().is_some() {
                status::error(format_args!("Recursive call to appender {}", self.name()));
            }
            return Ok(());
        }
        let _ = PROPAGATED.try_with(|flag| flag.set(false));
        let result = if self.ignore_exceptions || !l4rs_core::batch::is_deferring() {
            self.appender.append(event)
        } else {
            // Its errors go back to the caller per event (errorRef, Failover), so its flush
            // cannot wait for the end of a queue's batch.
            l4rs_core::batch::without_deferring(|| self.appender.append(event))
        };
        let propagated = PROPAGATED
            .try_with(|flag| flag.replace(false))
            .unwrap_or(false);
        let _ = APPENDING.try_with(|stack| {
            stack.borrow_mut().retain(|entry| *entry != id);
        });
        match result {
            Ok(()) => Ok(()),
            Err(error) => {
                // log4j2 sends each of the two messages through the appender's error handler,
                // so each one uses up one report of the rate limit (checked with 2.19).
                match &error {
                    AppendError::Io {
                        destination,
                        source,
                    } => {
                        // As log4j2 prints them (message, then the exception), with the OS
                        // error, which Java keeps in the cause, as l4rs's help.
                        let exception = format!(
                            "org.apache.logging.log4j.core.appender.AppenderLoggingException: Error writing to stream {destination} (help: {source})"
                        );
                        if !propagated && self.errors.admit().is_some() {
                            status::error(format_args!(
                                "Unable to write to stream {destination} for appender {} {exception}",
                                self.name()
                            ));
                        }
                        if self.errors.admit().is_some() {
                            status::error(format_args!(
                                "An exception occurred processing Appender {} {exception}",
                                self.name()
                            ));
                        }
                    }
                    AppendError::Reported { message, exception } => {
                        // The appender's error handler reports it, and throws only when the
                        // appender does not ignore exceptions; then the handler is asked again,
                        // about what was thrown (checked with 2.19's Http appender).
                        if self.errors.admit().is_some() {
                            status::error(format_args!("{message} {exception}"));
                        }
                        if self.ignore_exceptions {
                            return Ok(());
                        }
                        if self.errors.admit().is_some() {
                            status::error(format_args!(
                                "An exception occurred processing Appender {} org.apache.logging.log4j.core.appender.AppenderLoggingException: {message}",
                                self.name()
                            ));
                        }
                    }
                    AppendError::Failed(exception) => {
                        if self.errors.admit().is_some() {
                            status::error(format_args!(
                                "An exception occurred processing Appender {} {exception}",
                                self.name()
                            ));
                        }
                    }
                    _ => {
                        if self.errors.admit().is_some() {
                            status::error(format_args!(
                                "An exception occurred processing Appender {}: {error}",
                                self.name()
                            ));
                        }
                    }
                }
                if self.ignore_exceptions {
                    Ok(())
                } else {
                    let _ = PROPAGATED.try_with(|flag| flag.set(true));
                    Err(error)
                }
            }
        }
    }

    /// Flushes the appender; a failure shares the rate limit of the append errors, since a
    /// program may flush after every event.
    pub(crate) fn flush(&self) {
        if let Err(error) = self.appender.flush() {
            if self.errors.admit().is_some() {
                status::error(format_args!(
                    "Unable to flush appender {}: {error}",
                    self.name()
                ));
            }
        }
    }

    pub(crate) fn stop(&self) {
        self.appender.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Fails every write as a full disk does.
    struct Full;

    impl Appender for Full {
        fn name(&self) -> &str {
            "full"
        }

        fn append(&self, _: &LogEvent<'_>) -> Result<(), AppendError> {
            Err(AppendError::Io {
                destination: "/dev/full".to_string(),
                source: std::io::Error::other("no space"),
            })
        }

        fn flush(&self) -> Result<(), AppendError> {
            Err(AppendError::Failed("no space".to_string()))
        }
    }

    /// Writes through another control, as Routing, Rewrite and Failover do.
    struct Through(AppenderControl);

    impl Appender for Through {
        fn name(&self) -> &str {
            "through"
        }

        fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
            self.0.call(event)
        }
    }

    #[test]
    fn a_propagated_write_error_names_the_stream_once() {
        let inner = AppenderControl::new(Arc::new(Full), None, false);
        let outer = AppenderControl::new(Arc::new(Through(inner)), None, false);
        let event = LogEvent::new("a", l4rs_core::Level::INFO, l4rs_core::Message::Text("m"));
        let (result, records) = status::capture(|| outer.call(&event));
        assert!(result.is_err());
        let messages: Vec<&str> = records
            .iter()
            .map(|record| record.message.split(" org.").next().unwrap_or_default())
            .collect();
        // log4j2 2.19's lines for a Routing appender with ignoreExceptions="false" in front of
        // a failing File (crates/conformance/tests/scenarios/448-routing-ignore-exceptions).
        assert_eq!(
            messages,
            [
                "Unable to write to stream /dev/full for appender full",
                "An exception occurred processing Appender full",
                "An exception occurred processing Appender through",
            ]
        );
        // The next direct failure names its stream again.
        let direct = AppenderControl::new(Arc::new(Full), None, true);
        let ((), records) = status::capture(|| assert!(direct.call(&event).is_ok()));
        assert!(records[0]
            .message
            .starts_with("Unable to write to stream /dev/full"));
    }

    #[test]
    fn a_failing_appender_reports_four_times_then_keeps_quiet() {
        let control = AppenderControl::new(Arc::new(Full), None, true);
        let event = LogEvent::new("a", l4rs_core::Level::INFO, l4rs_core::Message::Text("m"));
        let ((), records) = status::capture(|| {
            for _ in 0..20 {
                assert!(control.call(&event).is_ok());
            }
        });
        // Each failure asks the handler twice (the stream, then the processing error), as
        // log4j2's appenders do: the four reports cover the first two failures.
        assert_eq!(records.len(), 4, "{records:?}");
    }

    #[test]
    fn failing_flushes_are_rate_limited_as_append_errors() {
        let control = AppenderControl::new(Arc::new(Full), None, true);
        let ((), records) = status::capture(|| (0..10).for_each(|_| control.flush()));
        assert_eq!(records.len(), 4, "{records:?}");
        assert_eq!(
            records[0].message,
            "Unable to flush appender full: no space"
        );
    }
}
