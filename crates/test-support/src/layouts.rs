//! A stand-in for PatternLayout, for tests of appenders and routing that care about where the
//! bytes go rather than how an event is formatted.

use l4rs_core::{Layout, LogEvent};

/// `[<prefix>][<LEVEL> ]<message>\n` per event, with an optional header and footer; what
/// `%m%n` with a literal prefix would write, without the layout crate.
#[derive(Clone, Debug, Default)]
pub struct LineLayout {
    prefix: &'static str,
    header: &'static str,
    footer: &'static str,
    level: bool,
    location: bool,
}

impl LineLayout {
    /// `<message>\n`, no header, no footer.
    pub const fn new() -> LineLayout {
        LineLayout::with_header_footer("", "")
    }

    /// `<message>\n`, with `header` at the start of each new file and `footer` at its end.
    pub const fn with_header_footer(header: &'static str, footer: &'static str) -> LineLayout {
        LineLayout {
            prefix: "",
            header,
            footer,
            level: false,
            location: false,
        }
    }

    /// Each line starts with `prefix` (which layout wrote a line, when several share a file).
    pub const fn prefixed(mut self, prefix: &'static str) -> LineLayout {
        self.prefix = prefix;
        self
    }

    /// Each line starts with the event's level name and a space.
    pub const fn with_level(mut self) -> LineLayout {
        self.level = true;
        self
    }

    /// Says it needs the caller's location, as a pattern with `%L` does.
    pub const fn with_location(mut self) -> LineLayout {
        self.location = true;
        self
    }
}

impl Layout for LineLayout {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        out.push_str(self.prefix);
        if self.level {
            out.push_str(event.level.name());
            out.push(' ');
        }
        event.message.write_to(out);
        out.push('\n');
    }

    fn header(&self, out: &mut String) {
        out.push_str(self.header);
    }

    fn footer(&self, out: &mut String) {
        out.push_str(self.footer);
    }

    fn requires_location(&self) -> bool {
        self.location
    }
}

/// `<name of the thread that formats>|<message>\n`, and it renders ahead: shows on which thread
/// an asynchronous stage formatted an event.
#[derive(Clone, Copy, Debug, Default)]
pub struct FormattingThreadLayout;

impl Layout for FormattingThreadLayout {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        out.push_str(std::thread::current().name().unwrap_or("?"));
        out.push('|');
        event.message.write_to(out);
        out.push('\n');
    }

    fn renders_ahead(&self) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_core::{Level, Message};

    #[test]
    fn writes_prefix_level_and_message_with_its_frame() {
        let layout = LineLayout::with_header_footer("H\n", "F\n")
            .prefixed("a: ")
            .with_level();
        let mut out = String::new();
        layout.header(&mut out);
        layout.format(
            &LogEvent::new("t", Level::WARN, Message::Text("m")),
            &mut out,
        );
        layout.footer(&mut out);
        assert_eq!(out, "H\na: WARN m\nF\n");
        assert!(!layout.requires_location());
        assert!(LineLayout::new().with_location().requires_location());
    }
}
