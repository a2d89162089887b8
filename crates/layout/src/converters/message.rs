//! `%m` / `%msg` / `%message`: the message text, never interpreted.
//!
//! `{lookups}`, `{nolookups}` and the map/structured formats (`{json}`, `{xml}` …) change
//! nothing for l4rs messages, which are plain text. `{ansi}` renders the `@|style text|@`
//! markup as ANSI escapes, as log4j2's JAnsi renderer does.

use l4rs_core::status::ReportLimit;
use l4rs_core::LogEvent;

use super::ansi;
use crate::scratch::with_scratch;

/// The message converter.
pub(crate) struct MessageConverter {
    ansi: bool,
    /// Unknown style words in messages, which can come with every event: at most one report
    /// a second.
    style_reports: ReportLimit,
}

impl MessageConverter {
    /// Reads the options; only `ansi` has an effect.
    pub(crate) fn new(options: &[String]) -> MessageConverter {
        MessageConverter {
            ansi: options
                .iter()
                .any(|o| o.trim().eq_ignore_ascii_case("ansi")),
            style_reports: ReportLimit::per_second(),
        }
    }

    /// Appends the message.
    #[inline]
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        if !self.ansi {
            event.message.write_to(out);
            return;
        }
        match event.message.as_str() {
            Some(text) => render_ansi_markup(text, out, &self.style_reports),
            None => with_scratch(|text| {
                event.message.write_to(text);
                render_ansi_markup(text, out, &self.style_reports);
            }),
        }
    }
}

/// Renders `@|code,code text|@` spans: the codes become one escape sequence, the text follows
/// and a reset closes it. Anything else is copied.
fn render_ansi_markup(text: &str, out: &mut String, style_reports: &ReportLimit) {
    let mut rest = text;
    while let Some(begin) = rest.find("@|") {
        let Some(length) = rest[begin + 2..].find("|@") else {
            break;
        };
        out.push_str(&rest[..begin]);
        let span = &rest[begin + 2..begin + 2 + length];
        let (codes, content) = span.split_once(' ').unwrap_or((span, ""));
        ansi::push_sequence(codes.split(','), out, Some(style_reports));
        out.push_str(content);
        out.push_str(ansi::RESET);
        rest = &rest[begin + 2 + length + 2..];
    }
    out.push_str(rest);
}

#[cfg(test)]
mod tests {
    use crate::test_support::{event, render};
    use l4rs_core::Message;

    #[test]
    fn messages_print_verbatim_whatever_the_options() {
        let mut e = event();
        e.message = Message::Text("${jndi:ldap://x} {} %d");
        assert_eq!(
            render("%m|%msg{lookups}|%message{nolookups}", &e),
            "${jndi:ldap://x} {} %d|${jndi:ldap://x} {} %d|${jndi:ldap://x} {} %d"
        );
        let args = format_args!("a{}", 1);
        e.message = Message::Args(args);
        assert_eq!(render("%m", &e), "a1");
    }

    #[test]
    fn ansi_option_renders_markup() {
        let mut e = event();
        e.message = Message::Text("x @|red,bold hot|@ y");
        assert_eq!(render("%m{ansi}", &e), "x \u{1b}[31;1mhot\u{1b}[m y");
    }

    #[test]
    fn an_unknown_style_in_messages_is_reported_at_most_once_a_second() {
        let converter = super::MessageConverter::new(&["ansi".to_string()]);
        let mut e = event();
        e.message = Message::Text("@|nosuchstyle x|@");
        let (rendered, records) = l4rs_core::status::capture(|| {
            (0..5)
                .map(|_| {
                    let mut out = String::new();
                    converter.format(&e, &mut out);
                    out
                })
                .collect::<Vec<_>>()
        });
        assert!(
            rendered.iter().all(|r| r == "\u{1b}[mx\u{1b}[m"),
            "{rendered:?}"
        );
        let messages: Vec<&str> = records.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(messages.len(), 1, "{messages:?}");
        assert!(messages[0].starts_with("The style attribute nosuchstyle is incorrect."));
    }
}
