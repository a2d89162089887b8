//! `<Null>`: log4j2's `NullAppender`, which takes every event and writes nothing.

use std::sync::atomic::{AtomicBool, Ordering};

use l4rs_core::{AppendError, Appender, LogEvent};

/// Accepts every event and discards it: the routing, filters and references still run, so a
/// logger can be given an appender that silences it (log4j 1.2's `NullAppender`).
pub struct NullAppender {
    name: String,
    stopped: AtomicBool,
}

impl NullAppender {
    /// A started appender named `name`.
    pub fn new(name: impl Into<String>) -> NullAppender {
        NullAppender {
            name: name.into(),
            stopped: AtomicBool::new(false),
        }
    }
}

impl Appender for NullAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, _: &LogEvent<'_>) -> Result<(), AppendError> {
        // One relaxed load: a stopped appender is refused as every appender is.
        if self.stopped.load(Ordering::Relaxed) {
            return Err(AppendError::NotStarted(self.name.clone()));
        }
        Ok(())
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use l4rs_core::{Level, Message};

    use super::*;

    #[test]
    fn takes_events_until_stopped() {
        let appender = NullAppender::new("null");
        let event = LogEvent::new("a", Level::INFO, Message::Text("x"));
        assert_eq!(appender.name(), "null");
        assert!(appender.append(&event).is_ok());
        appender.stop();
        assert!(matches!(
            appender.append(&event),
            Err(AppendError::NotStarted(name)) if name == "null"
        ));
    }
}
