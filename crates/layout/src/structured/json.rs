//! log4j-core's `JsonLayout`: each event as the JSON object Jackson writes for log4j2's
//! `LogEvent` mix-in, with log4j2's field order, omissions and line ends.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use l4rs_config::model::JsonLayoutSpec;
use l4rs_core::{Interpolator, Layout, LogEvent, Marker, Message, StackFrame, Throwable};

use super::json_writer::{escape_into, Escaper, JsonWriter, Open};
use crate::charset::Charset;
use crate::converters::exception::render::{self, ProxyStyle, Sink};
use crate::scratch::with_scratch;
use crate::LayoutContext;

/// The logger FQCN log4j2 records for a call through its API; Rust callers have no class, so
/// l4rs prints what a log4j2 application's events carry.
pub(crate) const LOGGER_FQCN: &str = "org.apache.logging.log4j.spi.AbstractLogger";

/// log4j2's default end of line for JSON events (`AbstractJacksonLayout.DEFAULT_EOL`).
const DEFAULT_EOL: &str = "\r\n";

/// One `<KeyValuePair>`.
struct AdditionalField {
    key: String,
    value: String,
    /// The value still holds `${…}` after configuration-time substitution: resolved per event.
    needs_lookup: bool,
}

/// log4j-core's `JsonLayout` (not `JsonTemplateLayout`).
pub struct JsonLayout {
    pretty: bool,
    eol: String,
    complete: bool,
    location_info: bool,
    properties: bool,
    properties_as_list: bool,
    include_stacktrace: bool,
    stacktrace_as_string: bool,
    include_null_delimiter: bool,
    include_time_millis: bool,
    charset: Charset,
    additional_fields: Vec<AdditionalField>,
    interpolator: Option<Arc<dyn Interpolator>>,
    /// Set by the first event: in `complete` mode every later event starts with `, `.
    wrote_event: AtomicBool,
}

impl JsonLayout {
    /// Builds the layout from its configuration; `context` resolves `${…}` in
    /// `<KeyValuePair>` values per event.
    pub fn new(spec: &JsonLayoutSpec, context: LayoutContext) -> JsonLayout {
        let eol = match &spec.end_of_line {
            Some(eol) => eol.clone(),
            None if spec.compact && !spec.event_eol => String::new(),
            None => DEFAULT_EOL.to_string(),
        };
        JsonLayout {
            pretty: !spec.compact,
            eol,
            complete: spec.complete,
            location_info: spec.location_info,
            properties: spec.properties,
            properties_as_list: spec.properties_as_list,
            include_stacktrace: spec.include_stacktrace,
            stacktrace_as_string: spec.stacktrace_as_string,
            include_null_delimiter: spec.include_null_delimiter,
            include_time_millis: spec.include_time_millis,
            charset: Charset::from_attribute(spec.charset.as_deref()),
            additional_fields: spec
                .additional_fields
                .iter()
                .map(|(key, value)| AdditionalField {
                    key: key.clone(),
                    value: value.clone(),
                    needs_lookup: value.contains("${"),
                })
                .collect(),
            interpolator: context.interpolator,
            wrote_event: AtomicBool::new(false),
        }
    }

    /// The charset bytes are encoded in.
    pub fn charset(&self) -> Charset {
        self.charset
    }

    fn write_event(&self, event: &LogEvent<'_>, json: &mut JsonWriter<'_>) {
        let mut root = json.begin_object();
        // The mix-in log4j2 uses for `propertiesAsList` does not name `instant` in its property
        // order, so Jackson moves it behind `loggerFqcn`.
        let instant_late = self.properties && self.properties_as_list;
        if self.include_time_millis {
            json.integer_field(&mut root, "timeMillis", event.timestamp.epoch_millis);
        } else if !instant_late {
            write_instant(event, &mut root, json);
        }
        // Jackson's NON_EMPTY inclusion leaves out empty strings and lists, but log4j2 always
        // writes the message, the context map and the primitives.
        if !event.thread.name.is_empty() {
            json.string_field(&mut root, "thread", event.thread.name);
        }
        json.string_field(&mut root, "level", event.level.name());
        if !event.logger_name.is_empty() {
            json.string_field(&mut root, "loggerName", event.logger_name);
        }
        if let Some(marker) = event.marker {
            json.field(&mut root, "marker");
            write_marker(marker, json);
        }
        json.field(&mut root, "message");
        write_message(&event.message, json);
        if let Some(throwable) = &event.throwable {
            json.field(&mut root, "thrown");
            self.write_thrown(&throwable.resolve(), None, json);
        }
        if !event.context_stack.is_empty() {
            json.field(&mut root, "contextStack");
            let mut stack = json.begin_array();
            for entry in event.context_stack.iter() {
                json.element(&mut stack);
                json.string(entry);
            }
            json.end_array(stack);
        }
        json.boolean_field(&mut root, "endOfBatch", event.end_of_batch);
        json.string_field(&mut root, "loggerFqcn", LOGGER_FQCN);
        if instant_late && !self.include_time_millis {
            write_instant(event, &mut root, json);
        }
        if self.properties {
            json.field(&mut root, "contextMap");
            self.write_context_map(event, json);
        }
        json.integer_field(&mut root, "threadId", event.thread.id as i64);
        json.integer_field(
            &mut root,
            "threadPriority",
            i64::from(event.thread.priority),
        );
        if self.location_info {
            if let Some(location) = &event.location {
                json.field(&mut root, "source");
                let mut source = json.begin_object();
                json.string_field(&mut source, "class", location.class);
                json.string_field(&mut source, "method", location.method);
                if !location.file.is_empty() {
                    json.string_field(&mut source, "file", location.file);
                }
                json.integer_field(&mut source, "line", i64::from(location.line));
                json.end_object(source);
            }
        }
        // Like every other string, a field whose value is (or resolves to) empty is left out.
        for field in &self.additional_fields {
            match &self.interpolator {
                Some(interpolator) if field.needs_lookup => {
                    let value = interpolator.interpolate(&field.value, Some(event));
                    if !value.is_empty() {
                        json.string_field(&mut root, &field.key, &value);
                    }
                }
                _ if field.value.is_empty() => {}
                _ => json.string_field(&mut root, &field.key, &field.value),
            }
        }
        json.end_object(root);
    }

    fn write_context_map(&self, event: &LogEvent<'_>, json: &mut JsonWriter<'_>) {
        if self.properties_as_list {
            let mut list = json.begin_array();
            for (key, value) in event.context_map.iter() {
                json.element(&mut list);
                let mut entry = json.begin_object();
                json.string_field(&mut entry, "key", key);
                // The list form's entries are beans, so NON_EMPTY drops an empty value.
                if !value.is_empty() {
                    json.string_field(&mut entry, "value", value);
                }
                json.end_object(entry);
            }
            json.end_array(list);
        } else {
            let mut map = json.begin_object();
            for (key, value) in event.context_map.iter() {
                json.string_field(&mut map, key, value);
            }
            json.end_object(map);
        }
    }

    /// One node of log4j2's `ThrowableProxy` tree. `root` is the outermost trace for a cause
    /// (its shared frames are counted in `commonElementCount` and left out), `None` for the
    /// outermost throwable and suppressed ones.
    fn write_thrown(
        &self,
        throwable: &Throwable,
        root: Option<&[StackFrame]>,
        json: &mut JsonWriter<'_>,
    ) {
        let trace = throwable.frames();
        let common = root.map_or(0, |root| render::frames_in_common(trace, root));
        let mut thrown = json.begin_object();
        json.integer_field(&mut thrown, "commonElementCount", common as i64);
        if let Some(message) = throwable.message().filter(|m| !m.is_empty()) {
            json.string_field(&mut thrown, "localizedMessage", message);
            json.string_field(&mut thrown, "message", message);
        }
        json.string_field(&mut thrown, "name", throwable.class_name());
        if let Some(cause) = throwable.cause() {
            json.field(&mut thrown, "cause");
            self.write_thrown(cause, Some(root.unwrap_or(trace)), json);
        }
        let shown = &trace[..trace.len() - common];
        if self.include_stacktrace && !self.stacktrace_as_string && !shown.is_empty() {
            json.field(&mut thrown, "extendedStackTrace");
            let mut frames = json.begin_array();
            for frame in shown {
                json.element(&mut frames);
                write_frame(frame, json);
            }
            json.end_array(frames);
        }
        if !throwable.suppressed().is_empty() {
            json.field(&mut thrown, "suppressed");
            let mut list = json.begin_array();
            for suppressed in throwable.suppressed() {
                json.element(&mut list);
                self.write_thrown(suppressed, None, json);
            }
            json.end_array(list);
        }
        if self.include_stacktrace && self.stacktrace_as_string {
            json.field(&mut thrown, "extendedStackTrace");
            with_scratch(|text| {
                let style = ProxyStyle {
                    separator: "\n",
                    suffix: "",
                    filters: &[],
                };
                render::extended_proxy(throwable, root, &style, &mut Sink::direct(text));
                json.string(text);
            });
        }
        json.end_object(thrown);
    }
}

/// `instant`: the event time as seconds and nanoseconds.
fn write_instant(event: &LogEvent<'_>, root: &mut Open, json: &mut JsonWriter<'_>) {
    json.field(root, "instant");
    let mut instant = json.begin_object();
    json.integer_field(&mut instant, "epochSecond", event.timestamp.epoch_seconds());
    json.integer_field(
        &mut instant,
        "nanoOfSecond",
        i64::from(event.timestamp.nano_of_second()),
    );
    json.end_object(instant);
}

/// A marker and, recursively, its parents.
fn write_marker(marker: &Marker, json: &mut JsonWriter<'_>) {
    let mut object = json.begin_object();
    json.string_field(&mut object, "name", marker.name());
    marker.with_parents(|parents| {
        if !parents.is_empty() {
            json.field(&mut object, "parents");
            let mut list = json.begin_array();
            for parent in parents {
                json.element(&mut list);
                write_marker(parent, json);
            }
            json.end_array(list);
        }
    });
    json.end_object(object);
}

/// The message text, formatted straight into the escaped output.
fn write_message(message: &Message<'_>, json: &mut JsonWriter<'_>) {
    json.out.push('"');
    match message.as_str() {
        Some(text) => escape_into(json.out, text),
        None => {
            let _ = std::fmt::Write::write_fmt(&mut Escaper(json.out), format_args!("{message}"));
        }
    }
    json.out.push('"');
}

/// An `ExtendedStackTraceElement`: the frame, and the packaging data log4j2 finds for a class
/// it cannot load (`exact` false, `location` and `version` `?`), which is every Rust frame.
fn write_frame(frame: &StackFrame, json: &mut JsonWriter<'_>) {
    let mut object: Open = json.begin_object();
    json.string_field(&mut object, "class", &frame.class);
    json.string_field(&mut object, "method", &frame.method);
    if let Some(file) = frame.file.as_deref().filter(|f| !f.is_empty()) {
        json.string_field(&mut object, "file", file);
    }
    json.integer_field(&mut object, "line", i64::from(frame.line));
    json.boolean_field(&mut object, "exact", false);
    json.string_field(&mut object, "location", "?");
    json.string_field(&mut object, "version", "?");
    json.end_object(object);
}

impl Layout for JsonLayout {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        if self.complete && self.wrote_event.swap(true, Ordering::Relaxed) {
            out.push_str(", ");
        }
        self.write_event(event, &mut JsonWriter::new(out, self.pretty));
        out.push_str(&self.eol);
        if self.include_null_delimiter {
            out.push('\0');
        }
    }

    fn header(&self, out: &mut String) {
        if self.complete {
            out.push('[');
            out.push_str(&self.eol);
        }
    }

    fn footer(&self, out: &mut String) {
        if self.complete {
            out.push_str(&self.eol);
            out.push(']');
            out.push_str(&self.eol);
        }
    }

    fn encode<'b>(&self, text: &'b str, scratch: &'b mut Vec<u8>) -> &'b [u8] {
        self.charset.encode(text, scratch)
    }

    fn requires_location(&self) -> bool {
        self.location_info
    }
}

impl std::fmt::Debug for JsonLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonLayout")
            .field("pretty", &self.pretty)
            .field("complete", &self.complete)
            .field("charset", &self.charset)
            .finish_non_exhaustive()
    }
}
