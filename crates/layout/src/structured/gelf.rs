//! log4j-core's `GelfLayout`: each event as a GELF 1.1 JSON object for Graylog, with log4j2's
//! field order and, above a size threshold, its GZIP or ZLIB compression.

use std::sync::Arc;

use l4rs_config::model::{GelfCompression, GelfLayoutSpec};
use l4rs_core::{Interpolator, Layout, LogEvent};

use super::compress::{self, Format};
use super::fields::{AdditionalField, KeyFilter};
use super::json_writer::{escape_into, Escaper};
use super::syslog::{local_host_name, severity};
use crate::converters::exception::render::{self, Sink};
use crate::scratch::with_scratch;
use crate::{LayoutContext, PatternLayout};

/// log4j-core's `GelfLayout`.
pub struct GelfLayout {
    /// The host, already escaped for JSON.
    host: String,
    compression: Option<Format>,
    compression_threshold: usize,
    include_stacktrace: bool,
    include_thread_context: bool,
    thread_context: KeyFilter,
    thread_context_prefix: String,
    include_null_delimiter: bool,
    include_new_line_delimiter: bool,
    omit_empty_fields: bool,
    message_layout: Option<PatternLayout>,
    additional_fields: Vec<AdditionalField>,
    interpolator: Option<Arc<dyn Interpolator>>,
}

impl GelfLayout {
    /// Builds the layout from its configuration; `context` resolves `${…}` in
    /// `<KeyValuePair>` values per event and compiles `messagePattern`.
    pub fn new(spec: &GelfLayoutSpec, context: LayoutContext) -> GelfLayout {
        let mut host = String::new();
        escape_into(
            &mut host,
            spec.host.as_deref().unwrap_or(&local_host_name()),
        );
        // Includes win over excludes when both are given, as in log4j2's builder.
        let thread_context = match (&spec.thread_context_includes, &spec.thread_context_excludes) {
            (Some(keys), _) => KeyFilter::Only(keys.clone()),
            (None, Some(keys)) => KeyFilter::Except(keys.clone()),
            (None, None) => KeyFilter::All,
        };
        GelfLayout {
            host,
            compression: match spec.compression {
                GelfCompression::Gzip => Some(Format::Gzip),
                GelfCompression::Zlib => Some(Format::Zlib),
                GelfCompression::Off => None,
            },
            // A negative threshold compresses every event, as Java's `length > threshold` does.
            compression_threshold: usize::try_from(spec.compression_threshold).unwrap_or(0),
            include_stacktrace: spec.include_stacktrace,
            include_thread_context: spec.include_thread_context,
            thread_context,
            thread_context_prefix: spec.thread_context_prefix.clone(),
            include_null_delimiter: spec.include_null_delimiter,
            include_new_line_delimiter: spec.include_new_line_delimiter,
            omit_empty_fields: spec.omit_empty_fields,
            message_layout: spec
                .message_layout
                .as_ref()
                .map(|pattern| PatternLayout::new(pattern, context.clone())),
            additional_fields: AdditionalField::all(&spec.additional_fields),
            interpolator: context.interpolator,
        }
    }

    /// The host written in every event (JSON-escaped).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// One `"_key":"value",` field, unless `omitEmptyFields` drops an empty value.
    fn field(&self, prefix: &str, key: &str, value: &str, out: &mut String) {
        if value.is_empty() && self.omit_empty_fields {
            return;
        }
        out.push_str("\"_");
        escape_into(out, prefix);
        escape_into(out, key);
        out.push_str("\":\"");
        escape_into(out, value);
        out.push_str("\",");
    }

    fn write_additional_fields(&self, event: &LogEvent<'_>, out: &mut String) {
        for field in &self.additional_fields {
            field.with_value(self.interpolator.as_ref(), event, |value| {
                self.field("", &field.key, value, out);
            });
        }
    }

    /// `full_message`: the message pattern's output, else the trace as `printStackTrace()`
    /// prints it (or only its first line without `includeStacktrace`).
    fn write_full_message(&self, event: &LogEvent<'_>, out: &mut String) {
        if let Some(layout) = &self.message_layout {
            out.push_str("\"full_message\":\"");
            with_scratch(|text| {
                layout.format(event, text);
                escape_into(out, text);
            });
            out.push_str("\",");
        } else if let Some(throwable) = &event.throwable {
            out.push_str("\"full_message\":\"");
            let throwable = throwable.resolve();
            with_scratch(|text| {
                if self.include_stacktrace {
                    render::standard(&throwable, &mut Sink::direct(text));
                } else {
                    throwable.write_header(text);
                }
                escape_into(out, text);
            });
            out.push_str("\",");
        }
    }
}

/// GELF's `timestamp`: seconds with the milliseconds as decimals (`1700000000.123`), or `0`
/// for a time within the first second of the epoch, as log4j2 writes it.
fn write_timestamp(millis: i64, out: &mut String) {
    if millis < 1000 {
        out.push('0');
        return;
    }
    let mut digits = itoa::Buffer::new();
    let text = digits.format(millis);
    let (seconds, fraction) = text.split_at(text.len() - 3);
    out.push_str(seconds);
    out.push('.');
    out.push_str(fraction);
}

impl Layout for GelfLayout {
    fn content_type(&self) -> String {
        "application/json; charset=UTF-8".to_string()
    }

    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        out.push_str("{\"version\":\"1.1\",\"host\":\"");
        out.push_str(&self.host);
        out.push_str("\",\"timestamp\":");
        write_timestamp(event.timestamp.epoch_millis, out);
        out.push_str(",\"level\":");
        out.push_str(itoa::Buffer::new().format(severity(event.level)));
        out.push_str(",\"_thread\":\"");
        escape_into(out, event.thread.name);
        out.push_str("\",\"_logger\":\"");
        escape_into(out, event.logger_name);
        out.push_str("\",");
        self.write_additional_fields(event, out);
        if self.include_thread_context {
            for (key, value) in event.context_map.iter() {
                if self.thread_context.keeps(key) {
                    self.field(&self.thread_context_prefix, key, value, out);
                }
            }
        }
        self.write_full_message(event, out);
        out.push_str("\"short_message\":\"");
        match event.message.as_str() {
            Some(text) => escape_into(out, text),
            None => {
                let _ = std::fmt::Write::write_fmt(
                    &mut Escaper(out),
                    format_args!("{}", event.message),
                );
            }
        }
        out.push_str("\"}");
        if self.include_null_delimiter {
            out.push('\0');
        }
        if self.include_new_line_delimiter {
            out.push('\n');
        }
    }

    /// log4j2's `toByteArray`, which its `encode` also uses when compression is on: the UTF-8
    /// bytes, compressed when there are more than `compressionThreshold` of them. GelfLayout
    /// always writes UTF-8 (its `charset` attribute is ignored, as in log4j2).
    fn encode<'b>(&self, text: &'b str, scratch: &'b mut Vec<u8>) -> &'b [u8] {
        match self.compression {
            Some(format) if text.len() > self.compression_threshold => {
                compress::compress(format, text.as_bytes(), scratch);
                scratch
            }
            _ => text.as_bytes(),
        }
    }

    fn requires_location(&self) -> bool {
        self.message_layout
            .as_ref()
            .is_some_and(PatternLayout::requires_location)
    }
}

impl std::fmt::Debug for GelfLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GelfLayout")
            .field("host", &self.host)
            .field("compression", &self.compression)
            .field("compression_threshold", &self.compression_threshold)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_core::{ContextMap, Level, Message, StackFrame, Throwable, ThrowableRef, Timestamp};

    fn base() -> GelfLayoutSpec {
        GelfLayoutSpec {
            host: Some("h\"1".into()),
            compression: GelfCompression::Off,
            ..GelfLayoutSpec::default()
        }
    }

    fn format(layout: &GelfLayout, event: &LogEvent<'_>) -> String {
        let mut out = String::new();
        layout.format(event, &mut out);
        out
    }

    #[test]
    fn fields_follow_log4j2s_order_and_escapes() {
        let mut mdc = ContextMap::new();
        mdc.insert("user", "al\u{1}ice");
        mdc.insert("empty", "");
        let spec = GelfLayoutSpec {
            additional_fields: vec![("env".into(), "prod".into())],
            thread_context_prefix: "mdc.".into(),
            include_new_line_delimiter: true,
            ..base()
        };
        let layout = GelfLayout::new(&spec, LayoutContext::default());
        let mut event = LogEvent::new("com.A", Level::WARN, Message::Text("a \"b\"\né"));
        event.timestamp = Timestamp::from_millis(1_700_000_000_123);
        event.context_map = &mdc;
        assert_eq!(
            format(&layout, &event),
            "{\"version\":\"1.1\",\"host\":\"h\\\"1\",\"timestamp\":1700000000.123,\"level\":4,\
             \"_thread\":\"main\",\"_logger\":\"com.A\",\"_env\":\"prod\",\"_mdc.empty\":\"\",\
             \"_mdc.user\":\"al\\u0001ice\",\"short_message\":\"a \\\"b\\\"\\né\"}\n"
        );
        let omitting = GelfLayout::new(
            &GelfLayoutSpec {
                omit_empty_fields: true,
                thread_context_excludes: Some(vec!["user".into()]),
                ..base()
            },
            LayoutContext::default(),
        );
        let line = format(&omitting, &event);
        assert!(
            !line.contains("_empty") && !line.contains("_user"),
            "{line}"
        );
    }

    #[test]
    fn timestamps_below_one_second_are_zero() {
        let mut out = String::new();
        write_timestamp(999, &mut out);
        out.push(' ');
        write_timestamp(1000, &mut out);
        assert_eq!(out, "0 1.000");
    }

    #[test]
    fn full_message_is_the_trace_or_its_first_line() {
        let throwable = Throwable::new("app::Error")
            .with_message("bad")
            .with_frames(vec![StackFrame::java("a.B", "c", Some("B.java"), 3)]);
        let mut event = LogEvent::new("x", Level::ERROR, Message::Text(""));
        event.throwable = Some(ThrowableRef::Throwable(&throwable));
        let full = format(&GelfLayout::new(&base(), LayoutContext::default()), &event);
        assert!(
            full.contains(
                "\"full_message\":\"app::Error: bad\\n\\tat a.B.c(B.java:3)\\n\",\"short_message\":\"\"}"
            ),
            "{full}"
        );
        let short = GelfLayout::new(
            &GelfLayoutSpec {
                include_stacktrace: false,
                ..base()
            },
            LayoutContext::default(),
        );
        assert!(format(&short, &event).contains("\"full_message\":\"app::Error: bad\","));
    }

    #[test]
    fn only_events_above_the_threshold_are_compressed() {
        let layout = GelfLayout::new(
            &GelfLayoutSpec {
                compression: GelfCompression::Gzip,
                compression_threshold: 10,
                ..base()
            },
            LayoutContext::default(),
        );
        let mut scratch = Vec::new();
        assert_eq!(layout.encode("0123456789", &mut scratch), b"0123456789");
        let compressed = layout.encode("0123456789a", &mut scratch).to_vec();
        assert_eq!(&compressed[..2], &[0x1f, 0x8b]);
        assert_eq!(compress::tests::gunzip(&compressed), b"0123456789a");
    }
}
