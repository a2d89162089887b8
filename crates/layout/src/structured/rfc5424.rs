//! log4j2's `Rfc5424Layout`: syslog lines in RFC 5424's format,
//! `<PRI>1 TIMESTAMP HOST APP PROCID MSGID STRUCTURED-DATA MSG`.

use l4rs_config::model::Rfc5424LayoutSpec;
use l4rs_core::status::ReportLimit;
use l4rs_core::{Layout, Level, LogEvent};

use super::fields::KeyFilter;
use super::structured_data::{MdcElement, StructuredData};
use super::syslog::{escape_new_lines, local_host_name, severity};
use crate::converters::date::DateFormatter;
use crate::pattern::{Pattern, PatternOptions};
use crate::scratch::with_scratch;
use crate::LayoutContext;

/// RFC 5424's "no value".
const NIL: &str = "-";

/// log4j2's `Rfc5424Layout`.
pub struct Rfc5424Layout {
    facility: u8,
    host_name: String,
    app_name: String,
    proc_id: String,
    message_id: String,
    /// The MDC and `<LoggerFields>` elements.
    structured_data: StructuredData,
    /// `mdcId`, named when a required key is missing.
    mdc_id: String,
    mdc_required: Vec<String>,
    /// Missing required keys, reported as log4j2's appender error handler reports the
    /// exception it gets for them: four, then one per five minutes.
    missing_key_reports: ReportLimit,
    new_line: bool,
    new_line_escape: Option<String>,
    exception: Option<Pattern>,
    use_tls_message_format: bool,
    /// `yyyy-MM-dd'T'HH:mm:ss.SSS` and the offset (`Z` for UTC) in the default time zone.
    timestamp: DateFormatter,
}

impl Rfc5424Layout {
    /// Builds the layout; `configuration_name` is the APP-NAME when `appName` is not given (as
    /// log4j2 uses the configuration's name, which defaults to its file's location).
    pub fn new(
        spec: &Rfc5424LayoutSpec,
        configuration_name: &str,
        context: LayoutContext,
    ) -> Rfc5424Layout {
        let app_name = match &spec.app_name {
            Some(name) => name.clone(),
            None if !configuration_name.is_empty() => configuration_name.to_string(),
            None => NIL.to_string(),
        };
        let options = PatternOptions {
            interpolator: context.interpolator,
            always_write_exceptions: false,
            disable_ansi: false,
            no_console_no_ansi: false,
            console: context.console,
        };
        let exception = spec
            .exception_pattern
            .as_deref()
            .map(|pattern| crate::compile_or_default(pattern, &options));
        // Excludes win when both are given (the loader already dropped the includes then).
        let filter = if !spec.mdc_excludes.is_empty() {
            KeyFilter::Except(spec.mdc_excludes.clone())
        } else if !spec.mdc_includes.is_empty() {
            KeyFilter::Only(spec.mdc_includes.clone())
        } else {
            KeyFilter::All
        };
        let mdc = MdcElement {
            include: spec.include_mdc,
            id: format!("{}@{}", spec.mdc_id, spec.enterprise_number),
            prefix: spec.mdc_prefix.clone(),
            filter,
        };
        let structured_data = StructuredData::new(
            mdc,
            spec.event_prefix.clone(),
            &spec.logger_fields,
            &options,
        );
        Rfc5424Layout {
            facility: spec.facility,
            host_name: local_host_name(),
            app_name,
            proc_id: std::process::id().to_string(),
            message_id: spec.message_id.clone().unwrap_or_else(|| NIL.to_string()),
            structured_data,
            mdc_id: spec.mdc_id.clone(),
            mdc_required: spec.mdc_required.clone(),
            missing_key_reports: ReportLimit::error_handler(),
            new_line: spec.new_line,
            new_line_escape: spec.new_line_escape.clone(),
            exception,
            use_tls_message_format: spec.use_tls_message_format,
            timestamp: DateFormatter::new(Some("yyyy-MM-dd'T'HH:mm:ss.SSSXXX"), None),
        }
    }

    /// The host name written in every line.
    pub fn host_name(&self) -> &str {
        &self.host_name
    }

    fn write_escaped(&self, text: &str, out: &mut String) {
        match &self.new_line_escape {
            Some(escape) => escape_new_lines(text, escape, out),
            None => out.push_str(text),
        }
    }

    fn write_message(&self, event: &LogEvent<'_>, out: &mut String) {
        match event.message.as_str() {
            Some("") => {}
            Some(text) => {
                out.push(' ');
                self.write_escaped(text, out);
            }
            None => with_scratch(|text| {
                event.message.write_to(text);
                if !text.is_empty() {
                    out.push(' ');
                    self.write_escaped(text, out);
                }
            }),
        }
        if let (Some(pattern), Some(_)) = (&self.exception, &event.throwable) {
            with_scratch(|text| {
                text.push('\n');
                pattern.format(event, text);
                self.write_escaped(text, out);
            });
        }
    }
}

impl Layout for Rfc5424Layout {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        // log4j2 throws for a missing required key and the appender reports it: no line.
        if let Some(missing) = self
            .mdc_required
            .iter()
            .find(|key| event.context_map.get(key).is_none())
        {
            self.missing_key_reports.report(
                Level::ERROR,
                format_args!(
                    "An exception occurred processing the event in Rfc5424Layout: org.apache.logging.log4j.LoggingException: Required key {missing} is missing from the {}; the event is not written",
                    self.mdc_id
                ),
            );
            return;
        }
        let start = out.len();
        out.push('<');
        let priority = u32::from(self.facility) * 8 + u32::from(severity(event.level));
        out.push_str(itoa::Buffer::new().format(priority));
        out.push_str(">1 ");
        self.timestamp.format(event.timestamp, out);
        out.push(' ');
        out.push_str(&self.host_name);
        out.push(' ');
        out.push_str(&self.app_name);
        out.push(' ');
        out.push_str(&self.proc_id);
        out.push(' ');
        out.push_str(&self.message_id);
        out.push(' ');
        self.structured_data
            .write(event, self.new_line_escape.as_deref(), out);
        self.write_message(event, out);
        if self.new_line {
            out.push('\n');
        }
        if self.use_tls_message_format {
            // RFC 5425 octet counting: the frame's length in UTF-8 bytes, then a space.
            let length = out.len() - start;
            let mut digits = itoa::Buffer::new();
            let prefix = digits.format(length);
            out.insert(start, ' ');
            out.insert_str(start, prefix);
        }
    }

    /// log4j2 computes the caller's location lazily when a pattern asks for it; l4rs must
    /// capture it up front for the `<LoggerFields>` and exception patterns that print it.
    fn requires_location(&self) -> bool {
        self.structured_data.requires_location()
            || self
                .exception
                .as_ref()
                .is_some_and(Pattern::requires_location)
    }
}

impl std::fmt::Debug for Rfc5424Layout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rfc5424Layout")
            .field("facility", &self.facility)
            .field("app_name", &self.app_name)
            .field("mdc_id", &self.mdc_id)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_core::{status, ContextMap, Level, Message, Timestamp};

    fn format(spec: &Rfc5424LayoutSpec, mdc: &ContextMap, message: &str) -> String {
        let layout = Rfc5424Layout::new(spec, "cfg", LayoutContext::default());
        let mut event = LogEvent::new("a", Level::WARN, Message::Text(message));
        event.timestamp = Timestamp::from_millis(1_700_000_000_123);
        event.context_map = mdc;
        let mut out = String::from("before|");
        layout.format(&event, &mut out);
        out.replace(layout.host_name(), "HOST")
            .replace(&std::process::id().to_string(), "PID")
    }

    fn mdc() -> ContextMap {
        let mut mdc = ContextMap::new();
        mdc.insert("k", "v]\"\\");
        mdc.insert("a", "x");
        mdc
    }

    #[test]
    fn structured_data_escapes_and_filters_the_mdc() {
        let line = format(&Rfc5424LayoutSpec::default(), &mdc(), "m");
        assert!(line.starts_with("before|<132>1 "), "{line}");
        assert!(
            line.ends_with(r#" HOST cfg PID - [mdc@32473 a="x" k="v\]\"\\"] m"#),
            "{line}"
        );
        let spec = Rfc5424LayoutSpec {
            mdc_includes: vec!["zz".into()],
            mdc_prefix: Some("p_".into()),
            ..Rfc5424LayoutSpec::default()
        };
        assert!(format(&spec, &mdc(), "m").ends_with(" - [mdc@32473] m"));
        let spec = Rfc5424LayoutSpec {
            mdc_excludes: vec!["k".into()],
            mdc_prefix: Some("p_".into()),
            ..Rfc5424LayoutSpec::default()
        };
        assert!(format(&spec, &mdc(), "m").ends_with(r#" - [mdc@32473 p_a="x"] m"#));
        let empty = ContextMap::new();
        assert!(format(&Rfc5424LayoutSpec::default(), &empty, "").ends_with(" - -"));
    }

    #[test]
    fn tls_frames_count_utf8_bytes() {
        let spec = Rfc5424LayoutSpec {
            use_tls_message_format: true,
            new_line: true,
            ..Rfc5424LayoutSpec::default()
        };
        let layout = Rfc5424Layout::new(&spec, "cfg", LayoutContext::default());
        let event = LogEvent::new("a", Level::INFO, Message::Text("é"));
        let mut out = String::from("x");
        layout.format(&event, &mut out);
        let (length, frame) = out[1..].split_once(' ').expect("a length");
        assert_eq!(length.parse::<usize>().unwrap(), frame.len(), "{out:?}");
        assert!(frame.ends_with(" é\n"), "{out:?}");
    }

    #[test]
    fn a_missing_required_key_is_reported_four_times_then_rate_limited() {
        let layout = Rfc5424Layout::new(
            &Rfc5424LayoutSpec {
                mdc_id: "mdc".to_string(),
                mdc_required: vec!["id".to_string()],
                ..Rfc5424LayoutSpec::default()
            },
            "config",
            LayoutContext::default(),
        );
        let mut out = String::new();
        let ((), records) = status::capture(|| {
            for _ in 0..6 {
                layout.format(
                    &LogEvent::new("a", Level::INFO, Message::Text("m")),
                    &mut out,
                );
            }
        });
        assert_eq!(out, "", "no event is written");
        assert_eq!(records.len(), 4, "{records:?}");
        assert!(records[0]
            .message
            .contains("Required key id is missing from the mdc"));
    }
}
