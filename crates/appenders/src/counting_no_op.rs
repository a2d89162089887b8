//! `<CountingNoOp>`: log4j2's `CountingNoOpAppender`, which counts the events it takes and
//! writes nothing (log4j2's own performance tests measure the logging path with it).

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use l4rs_core::{AppendError, Appender, LogEvent};

/// Counts every event it is given and discards it: the routing, filters and references still
/// run, so the count tells how many events reached this appender. The program reads it with
/// `l4rs::counted_events`.
pub struct CountingNoOpAppender {
    name: String,
    count: AtomicU64,
    stopped: AtomicBool,
}

impl CountingNoOpAppender {
    /// A started appender named `name`, with a count of 0.
    pub fn new(name: impl Into<String>) -> CountingNoOpAppender {
        CountingNoOpAppender {
            name: name.into(),
            count: AtomicU64::new(0),
            stopped: AtomicBool::new(false),
        }
    }
}

impl Appender for CountingNoOpAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, _: &LogEvent<'_>) -> Result<(), AppendError> {
        // A stopped appender refuses events, as every appender does, and does not count them:
        // log4j2's AppenderControl refuses them before they reach the appender.
        if self.stopped.load(Ordering::Relaxed) {
            return Err(AppendError::NotStarted(self.name.clone()));
        }
        // Relaxed: the count orders nothing else, and a reader after the writers' threads
        // joined (or after `flush`) sees every increment.
        self.count.fetch_add(1, Ordering::Relaxed);
        Ok(())
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }

    fn counted_events(&self) -> Option<u64> {
        Some(self.count.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use l4rs_core::{Level, Message};

    use super::*;

    #[test]
    fn counts_the_events_it_takes_until_stopped() {
        let appender = CountingNoOpAppender::new("counter");
        let event = LogEvent::new("a", Level::INFO, Message::Text("x"));
        assert_eq!(appender.counted_events(), Some(0));
        for _ in 0..3 {
            assert!(appender.append(&event).is_ok());
        }
        assert_eq!(appender.counted_events(), Some(3));
        appender.stop();
        assert!(matches!(
            appender.append(&event),
            Err(AppendError::NotStarted(name)) if name == "counter"
        ));
        assert_eq!(
            appender.counted_events(),
            Some(3),
            "a refused event is not counted"
        );
    }

    #[test]
    fn counts_every_event_of_concurrent_writers() {
        let appender = CountingNoOpAppender::new("counter");
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    let event = LogEvent::new("a", Level::INFO, Message::Text("x"));
                    for _ in 0..10_000 {
                        appender.append(&event).expect("started");
                    }
                });
            }
        });
        assert_eq!(appender.counted_events(), Some(40_000));
    }
}
