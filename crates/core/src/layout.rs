//! The layout stage: turns an event into text.

use std::sync::Arc;

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

    /// True when the layout's text for an event depends on the event alone, not on the thread
    /// that formats it, on when, or on earlier events (no `%sn` counter, time-based `%u` or
    /// `%endOfBatch`), and formatting it allocates nothing beyond the output: an asynchronous
    /// stage may then format the event on the calling thread, before queueing it, and its
    /// writer copy the text ([`crate::event::Rendered`]). The line is the one the queue's
    /// thread would write.
    fn renders_ahead(&self) -> bool {
        false
    }

    /// The MIME type of the layout's text (log4j2's `getContentType()`), which an appender
    /// that sends it as a document (SMTP's mail) declares; `text/plain` unless the layout
    /// writes a format of its own.
    fn content_type(&self) -> String {
        "text/plain".to_string()
    }
}

/// Which layout formatted a [`crate::event::Rendered`] text: the address of the layout in its
/// `Arc`, compared only while the layout is alive (the queue that carries the text belongs to
/// the configuration that owns the layout), never dereferenced. Taken from an `Arc` only:
/// every live `Arc` has an allocation of its own (its counts give even a zero-sized layout a
/// distinct address), where plain references to zero-sized values, or to a layout held at the
/// start of another, may share one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LayoutId(usize);

impl LayoutId {
    /// The identity of `layout`.
    pub fn of(layout: &Arc<dyn Layout>) -> LayoutId {
        LayoutId(Arc::as_ptr(layout) as *const () as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::LogEvent;

    struct Stateless;
    struct Named(&'static str);

    impl Layout for Stateless {
        fn format(&self, _event: &LogEvent<'_>, _out: &mut String) {}
    }

    impl Layout for Named {
        fn format(&self, _event: &LogEvent<'_>, out: &mut String) {
            out.push_str(self.0);
        }
    }

    #[test]
    fn each_shared_layout_has_an_identity_of_its_own() {
        let first: Arc<dyn Layout> = Arc::new(Named("a"));
        let second: Arc<dyn Layout> = Arc::new(Named("a"));
        assert_eq!(LayoutId::of(&first), LayoutId::of(&Arc::clone(&first)));
        assert_ne!(
            LayoutId::of(&first),
            LayoutId::of(&second),
            "an equal layout is another"
        );
        // Zero-sized values may share an address; in an `Arc` each has its own.
        let (zero, other_zero): (Arc<dyn Layout>, Arc<dyn Layout>) =
            (Arc::new(Stateless), Arc::new(Stateless));
        assert_ne!(LayoutId::of(&zero), LayoutId::of(&other_zero));
    }
}
