//! The layout stage: turns an event into text.

use crate::LogEvent;

/// Formats events into text, and the text into the bytes an appender writes.
pub trait Layout: Send + Sync {
    /// Appends the formatted event to `out`. Implementations must not allocate in steady state
    /// beyond growing `out`.
    fn format(&self, event: &LogEvent<'_>, out: &mut String);

    /// Appends the header written at the start of a new file or stream, if any.
    fn header(&self, _out: &mut String) {}

    /// Appends the footer written when the appender stops, if any.
    fn footer(&self, _out: &mut String) {}

    /// Encodes formatted text into the layout's charset. The default is UTF-8, which needs no
    /// copy: the text's own bytes are returned.
    fn encode<'b>(&self, text: &'b str, _scratch: &'b mut Vec<u8>) -> &'b [u8] {
        text.as_bytes()
    }

    /// True when the layout prints the caller's location (`%C %M %L %F %l`), so the logger must
    /// capture it.
    fn requires_location(&self) -> bool {
        false
    }
}
