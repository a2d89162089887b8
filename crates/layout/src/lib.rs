//! log4j2's PatternLayout for l4rs.
//!
//! A team can drop its `log4j2.xml` into a Rust service and get the lines log4j2 2.24 would
//! write, byte for byte. This crate turns a `<PatternLayout>` (pattern, header, footer,
//! `<Replace>`, pattern selectors, charset) into a [`PatternLayout`]: the pattern is parsed
//! once, with log4j2's parser quirks and status messages, into a list of converters
//! ([`Pattern`]); formatting an event runs them into the caller's buffer without allocating
//! for the common converters (dates, levels, names, location, message, thread, MDC/NDC,
//! markers and exception traces).
//!
//! Where log4j2 versions differ, this crate follows 2.24: exception traces in the pre-2.25
//! format with the implicit `%xEx`, dates with `FastDateFormat`/`FixedDateFormat` semantics,
//! 2.20's `%c{1.N*}`. The exception is `%notEmpty`, which keeps the `[]` and `{}` of an empty
//! NDC/MDC as 2.19 does (2.21 and later drop them), because the conformance oracle's public
//! scenarios pin 2.19 there (docs/compatibility.md lists such choices).
//!
//! The [`structured`] module holds log4j2's non-pattern layouts ([`JsonLayout`],
//! [`XmlLayout`], [`YamlLayout`], [`SyslogLayout`], [`Rfc5424Layout`], [`GelfLayout`],
//! [`CsvLayout`]), which share
//! this crate's charsets, exception renderer and scratch buffers; [`json_template`] holds
//! log4j-layout-template-json's [`JsonTemplateLayout`].
//!
//! Converter families live in private modules, one per family: `date`,
//! `level`, `names` (logger/class precision), `location`, `message`, `thread`, `context`
//! (MDC, NDC, markers), `runtime` (pid, sequence numbers, UUIDs), `exception`, `ansi`,
//! `encode`, `replace` (Java regexes, translated by `l4rs-java-syntax`), `conditional`
//! (`%equals`, `%notEmpty`, `%maxLen`).

mod charset;
mod converters;
pub mod json_template;
mod modifiers;
mod parser;
mod pattern;
mod scratch;
mod selector;
mod short;
pub mod structured;
#[cfg(test)]
mod test_support;

use std::sync::Arc;

use l4rs_config::model::PatternLayoutSpec;
use l4rs_core::{status, Interpolator, Layout, Level, LogEvent};

pub use charset::Charset;
pub use converters::date::DateFormatter;
pub use converters::runtime::reset_sequence_number;
pub use json_template::JsonTemplateLayout;
pub use pattern::{Pattern, PatternOptions};
pub use structured::{
    CsvLayout, GelfLayout, HtmlLayout, JsonLayout, Rfc5424Layout, SyslogLayout, XmlLayout,
    YamlLayout,
};

use l4rs_java_syntax::regex::Replacement;
use selector::Selector;

/// What a layout needs from its surroundings.
#[derive(Clone, Default)]
pub struct LayoutContext {
    /// Resolves `${…}` left in literal pattern text, per event.
    pub interpolator: Option<Arc<dyn Interpolator>>,
    /// The process has a console (Java's `System.console() != null`: stdin and stdout both
    /// terminals), whatever the appender writes to; `noConsoleNoAnsi` turns ANSI off without.
    pub console: bool,
}

/// log4j2's `PatternLayout`.
pub struct PatternLayout {
    pattern: Pattern,
    selector: Option<Selector>,
    header: Option<Pattern>,
    footer: Option<Pattern>,
    /// The level of the empty event the header and footer are rendered with (see
    /// [`PatternLayoutSpec::header_level`]).
    header_level: Level,
    footer_level: Level,
    replace: Option<Replacement>,
    charset: Charset,
    /// Whether an event pattern in use needs the caller's location (set by
    /// [`PatternLayout::with_cached_flags`], read for every event).
    requires_location: bool,
    /// Whether the text depends on the event alone (see [`Pattern::formats_only_when_written`]),
    /// so a queue may have it formatted on the calling thread (set with `requires_location`).
    renders_ahead: bool,
}

impl PatternLayout {
    /// Builds the layout described by `spec`. Problems are reported through
    /// [`l4rs_core::status`] with log4j2's wording; a pattern log4j2 would reject outright
    /// (a trailing backslash) makes the layout fall back to the appender default `%m%n`.
    pub fn new(spec: &PatternLayoutSpec, context: LayoutContext) -> PatternLayout {
        let options = PatternOptions {
            interpolator: context.interpolator.clone(),
            always_write_exceptions: spec.always_write_exceptions,
            disable_ansi: spec.disable_ansi,
            no_console_no_ansi: spec.no_console_no_ansi,
            console: context.console,
        };
        let compiled = (|| -> Result<_, String> {
            let pattern = Pattern::compile(&spec.pattern, &options)?;
            let header = spec
                .header
                .as_deref()
                .map(|h| Pattern::compile(h, &options))
                .transpose()?;
            let footer = spec
                .footer
                .as_deref()
                .map(|f| Pattern::compile(f, &options))
                .transpose()?;
            Ok((pattern, header, footer))
        })();
        let (pattern, header, footer) = match compiled {
            Ok(parts) => parts,
            Err(message) => {
                status::error(format_args!(
                    "Could not create plugin of type class org.apache.logging.log4j.core.layout.PatternLayout for element PatternLayout: java.lang.IllegalArgumentException: {message}"
                ));
                return PatternLayout::with_options(
                    "%m%n",
                    &PatternOptions {
                        always_write_exceptions: true,
                        ..options
                    },
                );
            }
        };
        let selector = spec.selector.as_ref().map(|s| Selector::new(s, &options));
        let replace = spec.replace.as_ref().and_then(|r| match Replacement::new(&r.regex, &r.replacement) {
            Ok(replacement) => Some(replacement),
            Err(reason) if reason.is_unsupported() => {
                status::error(format_args!(
                    "Replace with regex \"{}\" cannot be created: {reason}; rewrite the expression without it (events are written without the replacement)",
                    r.regex
                ));
                None
            }
            Err(reason) => {
                status::error(format_args!(
                    "Could not create plugin of type class org.apache.logging.log4j.core.pattern.RegexReplacement for element Replace: java.util.regex.PatternSyntaxException: {reason}"
                ));
                None
            }
        });
        PatternLayout {
            pattern,
            selector,
            header,
            footer,
            header_level: spec.header_level,
            footer_level: spec.footer_level,
            replace,
            charset: Charset::from_attribute(spec.charset.as_deref()),
            requires_location: false,
            renders_ahead: false,
        }
        .with_cached_flags()
    }

    /// A layout for `pattern` with log4j2's defaults (`alwaysWriteExceptions` on, ANSI on,
    /// UTF-8) and no interpolator.
    pub fn from_pattern(pattern: &str) -> PatternLayout {
        let spec = PatternLayoutSpec {
            pattern: pattern.to_string(),
            ..PatternLayoutSpec::default()
        };
        PatternLayout::new(&spec, LayoutContext::default())
    }

    fn with_options(pattern: &str, options: &PatternOptions) -> PatternLayout {
        let pattern = compile_or_default(pattern, options);
        PatternLayout {
            pattern,
            selector: None,
            header: None,
            footer: None,
            header_level: Level::ERROR,
            footer_level: Level::ERROR,
            replace: None,
            charset: Charset::Utf8,
            requires_location: false,
            renders_ahead: false,
        }
        .with_cached_flags()
    }

    /// Sets the flags read for every event from the patterns.
    fn with_cached_flags(mut self) -> PatternLayout {
        let requires_location = self.event_patterns().any(Pattern::requires_location);
        self.requires_location = requires_location;
        let renders_ahead = !self
            .event_patterns()
            .any(Pattern::formats_only_when_written);
        self.renders_ahead = renders_ahead;
        self
    }

    /// The event patterns in use: with a selector log4j2 never parses the `pattern` attribute,
    /// so they are the selector's patterns; otherwise the pattern.
    fn event_patterns(&self) -> impl Iterator<Item = &Pattern> {
        let (selected, plain) = match &self.selector {
            Some(selector) => (Some(selector.patterns()), None),
            None => (None, Some(&self.pattern)),
        };
        selected.into_iter().flatten().chain(plain)
    }

    /// The pattern used for `event` (the selector's choice, if there is a selector).
    pub fn pattern_for(&self, event: &LogEvent<'_>) -> &Pattern {
        match &self.selector {
            Some(selector) => selector.select(event),
            None => &self.pattern,
        }
    }

    /// True when one of the layout's patterns in use (event pattern or selector patterns,
    /// header, footer) has a `%N`/`%nano` converter, nested ones included. log4j2 then gives
    /// the whole configuration a real nano clock; without one every event's nano time is 0.
    pub fn uses_nano_time(&self) -> bool {
        self.event_patterns()
            .chain(self.header.as_ref())
            .chain(self.footer.as_ref())
            .any(Pattern::uses_nano_time)
    }

    /// The charset bytes are encoded in.
    pub fn charset(&self) -> Charset {
        self.charset
    }

    /// Formats the header or footer: `pattern`, if any, with an empty event at `level`.
    fn format_empty_event(&self, pattern: Option<&Pattern>, level: Level, out: &mut String) {
        if let Some(pattern) = pattern {
            let event = LogEvent {
                level,
                ..LogEvent::empty()
            };
            self.format_with(pattern, &event, out);
        }
    }

    fn format_with(&self, pattern: &Pattern, event: &LogEvent<'_>, out: &mut String) {
        let start = out.len();
        pattern.format(event, out);
        if let Some(replace) = &self.replace {
            scratch::with_scratch(|formatted| {
                formatted.push_str(&out[start..]);
                out.truncate(start);
                replace.apply(formatted, out);
            });
        }
    }
}

/// Compiles `pattern`, falling back to `%m%n` when log4j2 would reject it.
pub(crate) fn compile_or_default(pattern: &str, options: &PatternOptions) -> Pattern {
    Pattern::compile(pattern, options).unwrap_or_else(|message| {
        status::error(format_args!(
            "java.lang.IllegalArgumentException: {message}"
        ));
        Pattern::compile("%m%n", options).unwrap_or(Pattern {
            formatters: Vec::new(),
        })
    })
}

impl Layout for PatternLayout {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        self.format_with(self.pattern_for(event), event, out);
    }

    fn header(&self, out: &mut String) {
        self.format_empty_event(self.header.as_ref(), self.header_level, out);
    }

    fn footer(&self, out: &mut String) {
        self.format_empty_event(self.footer.as_ref(), self.footer_level, out);
    }

    fn encode<'b>(&self, text: &'b str, scratch: &'b mut Vec<u8>) -> &'b [u8] {
        self.charset.encode(text, scratch)
    }

    fn requires_location(&self) -> bool {
        self.requires_location
    }

    fn renders_ahead(&self) -> bool {
        self.renders_ahead
    }
}

impl std::fmt::Debug for PatternLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PatternLayout")
            .field("pattern", &self.pattern)
            .field("charset", &self.charset)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::event;
    use l4rs_core::{ContextMap, StackFrame, Throwable, ThrowableRef};

    struct CtxLookup;

    impl Interpolator for CtxLookup {
        fn interpolate(&self, text: &str, event: Option<&LogEvent<'_>>) -> String {
            let user = event
                .and_then(|e| e.context_map.get("user"))
                .unwrap_or("${ctx:user}");
            text.replace("${ctx:user}", user)
        }
    }

    #[test]
    fn literal_lookups_are_resolved_per_event_and_messages_never() {
        let spec = PatternLayoutSpec {
            pattern: "user=${ctx:user} | %m%n".into(),
            ..PatternLayoutSpec::default()
        };
        let layout = PatternLayout::new(
            &spec,
            LayoutContext {
                interpolator: Some(Arc::new(CtxLookup)),
                console: false,
            },
        );
        let mut map = ContextMap::new();
        map.insert("user", "alice");
        let mut e = event();
        e.message = l4rs_core::Message::Text("${ctx:user}");
        let mut out = String::new();
        layout.format(&e, &mut out);
        e.context_map = &map;
        layout.format(&e, &mut out);
        assert_eq!(
            out,
            "user=${ctx:user} | ${ctx:user}\nuser=alice | ${ctx:user}\n"
        );
    }

    #[test]
    fn implicit_extended_trace_and_rust_frames() {
        let throwable = Throwable::new("app::Error").with_frames(vec![StackFrame::rust(
            "app::db",
            "query",
            Some("db.rs"),
            42,
        )]);
        let mut e = event();
        e.throwable = Some(ThrowableRef::Throwable(&throwable));
        let mut out = String::new();
        PatternLayout::from_pattern("%m").format(&e, &mut out);
        assert_eq!(
            out,
            "Hello, world app::Error: null\n\tat app::db::query(db.rs:42) ~[?:?]\n"
        );
        out.clear();
        PatternLayout::from_pattern("%m%n%ex").format(&e, &mut out);
        assert_eq!(
            out,
            "Hello, world\napp::Error\n\tat app::db::query(db.rs:42)\n"
        );
        let error = std::io::Error::other("disk full");
        e.throwable = Some(ThrowableRef::Error {
            error: &error,
            type_name: "std::io::Error",
        });
        out.clear();
        PatternLayout::from_pattern("%m %ex{short}").format(&e, &mut out);
        assert_eq!(out, "Hello, world std::io::Error: disk full");
    }

    #[test]
    fn header_footer_location_and_charset() {
        let spec = PatternLayoutSpec {
            pattern: "%highlight{%C}%n".into(),
            header: Some("head %p%n".into()),
            footer: Some("foot%n".into()),
            charset: Some("ISO-8859-1".into()),
            ..PatternLayoutSpec::default()
        };
        let layout = PatternLayout::new(&spec, LayoutContext::default());
        assert!(layout.requires_location());
        assert!(!PatternLayout::from_pattern("%m%n").requires_location());
        let mut out = String::new();
        layout.header(&mut out);
        layout.footer(&mut out);
        assert_eq!(out, "head ERROR\nfoot\n");
        let mut scratch = Vec::new();
        assert_eq!(layout.encode("é€", &mut scratch), b"\xe9?");
    }

    #[test]
    fn a_pattern_renders_ahead_unless_it_must_be_formatted_when_written() {
        for (pattern, ahead) in [
            ("%d %-5p [%t] %C.%M:%L %X{user} - %m %ex{full}%n", true),
            ("%u{RANDOM} %r %N %m%n", true),
            ("%sn %m%n", false),
            ("%m%n %maxLen{%sequenceNumber}{3}", false),
            ("%m %endOfBatch%n", false),
            ("%u %m%n", false),
        ] {
            assert_eq!(
                PatternLayout::from_pattern(pattern).renders_ahead(),
                ahead,
                "{pattern}"
            );
        }
        let spec = PatternLayoutSpec {
            pattern: "user=${ctx:user} | %m%n".into(),
            ..PatternLayoutSpec::default()
        };
        let context = LayoutContext {
            interpolator: Some(Arc::new(CtxLookup)),
            console: false,
        };
        assert!(
            !PatternLayout::new(&spec, context).renders_ahead(),
            "a lookup in literal text allocates per event"
        );
    }

    #[test]
    fn header_and_footer_print_the_levels_the_configuration_gives_them() {
        let spec = PatternLayoutSpec {
            header: Some("head %p [%c]".into()),
            footer: Some("foot %p".into()),
            header_level: Level::DEBUG,
            footer_level: Level::ALL,
            ..PatternLayoutSpec::default()
        };
        let layout = PatternLayout::new(&spec, LayoutContext::default());
        let mut out = String::new();
        layout.header(&mut out);
        out.push('|');
        layout.footer(&mut out);
        assert_eq!(out, "head DEBUG []|foot ALL");
    }

    fn local_year_now() -> i16 {
        jiff::tz::TimeZone::system()
            .to_datetime(jiff::Timestamp::now())
            .year()
    }

    #[test]
    fn dates_in_header_and_footer_are_the_time_they_are_written() {
        let spec = PatternLayoutSpec {
            header: Some("%d{yyyy} start%n".into()),
            footer: Some("%d{yyyy} end%n".into()),
            ..PatternLayoutSpec::default()
        };
        let layout = PatternLayout::new(&spec, LayoutContext::default());
        // Two reads around the call, so a year boundary in between cannot fail the test.
        let before = local_year_now();
        let mut header = String::new();
        layout.header(&mut header);
        let mut footer = String::new();
        layout.footer(&mut footer);
        let after = local_year_now();
        let allowed = |suffix: &str| {
            [before, after]
                .iter()
                .map(|year| format!("{year:04} {suffix}\n"))
                .collect::<Vec<_>>()
        };
        assert!(allowed("start").contains(&header), "{header:?}");
        assert!(allowed("end").contains(&footer), "{footer:?}");
    }

    fn highlighted_with_console(console: bool) -> String {
        let spec = PatternLayoutSpec {
            pattern: "%highlight{%p}".into(),
            no_console_no_ansi: true,
            ..PatternLayoutSpec::default()
        };
        let layout = PatternLayout::new(
            &spec,
            LayoutContext {
                console,
                ..LayoutContext::default()
            },
        );
        let mut out = String::new();
        layout.format(&event(), &mut out);
        out
    }

    #[test]
    fn no_console_no_ansi_keeps_ansi_only_when_the_process_has_a_console() {
        assert_eq!(highlighted_with_console(true), "\u{1b}[32mINFO\u{1b}[m");
        assert_eq!(highlighted_with_console(false), "INFO");
    }

    fn layout_uses_nano(spec: PatternLayoutSpec) -> bool {
        PatternLayout::new(&spec, LayoutContext::default()).uses_nano_time()
    }

    fn with_pattern(pattern: &str) -> PatternLayoutSpec {
        PatternLayoutSpec {
            pattern: pattern.into(),
            ..PatternLayoutSpec::default()
        }
    }

    #[test]
    fn a_nano_converter_anywhere_in_use_asks_for_the_nano_clock() {
        assert!(layout_uses_nano(with_pattern("%N %m%n")));
        assert!(layout_uses_nano(with_pattern("%nano")));
        assert!(layout_uses_nano(with_pattern("%highlight{%maxLen{%N}{3}}")));
        assert!(layout_uses_nano(with_pattern("%equals{%m}{x}{%nano}")));
        assert!(layout_uses_nano(with_pattern("%ex{suffix(%N)}")));
        assert!(layout_uses_nano(PatternLayoutSpec {
            footer: Some("%N".into()),
            ..with_pattern("%m")
        }));
        assert!(!layout_uses_nano(with_pattern("%d %p %c %m %n %ex")));
        // `%n`, `%NDC` and `%notEmpty` are other converters (longest name first); `{%N}` as an
        // equals test is plain text.
        assert!(!layout_uses_nano(with_pattern(
            "%n%NDC%notEmpty{%m}%equals{%m}{%N}{x}"
        )));
    }

    #[test]
    fn with_a_selector_only_the_selector_patterns_count() {
        let selector = |matched: &str, default: &str| l4rs_config::model::PatternSelectorSpec {
            matches: vec![("AUDIT".into(), matched.into())],
            default_pattern: default.into(),
            kind: l4rs_config::model::PatternSelectorKind::Marker,
            always_write_exceptions: true,
            disable_ansi: false,
            no_console_no_ansi: false,
        };
        let uses = |pattern: &str, matched: &str, default: &str| {
            layout_uses_nano(PatternLayoutSpec {
                selector: Some(selector(matched, default)),
                ..with_pattern(pattern)
            })
        };
        assert!(uses("%m", "%N %m", "%m"));
        assert!(uses("%m", "%m", "%nano %m"));
        assert!(!uses("%N", "%m", "%m"));
    }

    #[test]
    fn a_replace_regex_l4rs_cannot_evaluate_is_named_and_left_out() {
        let spec = PatternLayoutSpec {
            pattern: "%m".into(),
            replace: Some(l4rs_config::model::ReplaceSpec {
                regex: r"(a)\1".into(),
                replacement: "b".into(),
            }),
            ..PatternLayoutSpec::default()
        };
        let (layout, records) =
            status::capture(|| PatternLayout::new(&spec, LayoutContext::default()));
        assert!(
            records.iter().any(|r| r.message.starts_with(
                r#"Replace with regex "(a)\1" cannot be created: a backreference (near index 3) is not supported by l4rs"#
            )),
            "{records:?}"
        );
        let mut out = String::new();
        layout.format(&event(), &mut out);
        assert_eq!(out, "Hello, world");
    }

    #[test]
    fn a_trailing_backslash_rejects_the_pattern_like_log4j2() {
        let (layout, records) = status::capture(|| PatternLayout::from_pattern("%m\\"));
        assert!(
            records[0].message.contains("Cannot parse pattern '%m\\'"),
            "{records:?}"
        );
        let mut out = String::new();
        layout.format(&event(), &mut out);
        assert_eq!(out, "Hello, world\n");
    }
}
