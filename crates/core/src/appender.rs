//! The appender stage: writes formatted events somewhere.

use std::io;
use std::sync::Arc;

use crate::{Layout, LogEvent};

/// Why an appender could not write an event.
#[derive(Debug, thiserror::Error)]
pub enum AppendError {
    /// Writing to the destination failed.
    #[error("Error writing to stream {destination}: {source}")]
    Io {
        /// The file or stream that failed.
        destination: String,
        /// The OS error.
        #[source]
        source: io::Error,
    },
    /// The appender has been stopped (or never started).
    #[error("Attempted to append to non-started appender {0}")]
    NotStarted(String),
    /// The appender reported why it failed itself; this is the Java exception log4j2's
    /// appender throws then (SMTP's `LoggingException: Error occurred while sending email`).
    #[error("{0}")]
    Failed(String),
    /// The appender reported the failure through its own error handler, as log4j2's
    /// `AbstractAppender.error(message, event, exception)` does (Http's `Unable to send HTTP in
    /// appender [name]`): printed as `message exception`. The event is lost; only with
    /// `ignoreExceptions="false"` does the caller see it, as an `AppenderLoggingException`
    /// carrying `message`.
    #[error("{message} {exception}")]
    Reported {
        /// The appender's words.
        message: String,
        /// The Java exception log4j2 would pass with them (`java.net.ConnectException: …`).
        exception: String,
    },
}

/// A destination for events (log4j2's `Appender`). Filters and `ignoreExceptions` are applied
/// by the caller; an appender only formats and writes.
pub trait Appender: Send + Sync {
    /// The appender's configured name.
    fn name(&self) -> &str;

    /// Formats and writes one event.
    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError>;

    /// Pushes buffered bytes to the OS.
    fn flush(&self) -> Result<(), AppendError> {
        Ok(())
    }

    /// Writes the footer, flushes and closes. Appending after `stop` fails with
    /// [`AppendError::NotStarted`]. Stopping twice is harmless.
    fn stop(&self) {}

    /// True when the appender's layout prints the caller's location.
    fn requires_location(&self) -> bool {
        false
    }

    /// The layout an asynchronous stage whose events all go to this appender may format them
    /// with on the calling thread ([`Layout::renders_ahead`]), handing the text over in
    /// [`LogEvent::rendered`]. `Some` only for an appender that writes exactly what that layout
    /// formats and uses the rendered text when it is its layout's.
    fn layout_rendering_ahead(&self) -> Option<Arc<dyn Layout>> {
        None
    }

    /// The number of events a counting appender has taken since it was built (log4j2's
    /// `CountingNoOpAppender.getCount()`); `None` for an appender that does not count.
    fn counted_events(&self) -> Option<u64> {
        None
    }

    /// Takes an event the appender's own filter denied. log4j2's SMTP appender keeps such
    /// events, to mail them with the next event its filter lets through; other appenders
    /// ignore them.
    fn denied_by_filter(&self, _event: &LogEvent<'_>) {}
}
