//! log4j-core's `XmlLayout`: each event as the `<Event>` element Jackson's XML generator writes
//! for log4j2's `LogEvent` mix-in (2.19's XML order): every scalar an attribute, written before
//! the child elements; lists wrapped in an element of their own; the context map as `<item>`s.

use l4rs_config::model::JsonLayoutSpec;
use l4rs_core::{Layout, LogEvent, Marker, StackFrame, Throwable};

use super::jackson::{with_trace_text, JacksonOptions, LOGGER_FQCN};
use super::xml_writer::XmlWriter;
use crate::charset::Charset;
use crate::converters::exception::render;
use crate::LayoutContext;

/// log4j2's event namespace (`XmlConstants.XML_NAMESPACE`).
const NAMESPACE: &str = "http://logging.apache.org/log4j/2.0/events";

/// log4j-core's `XmlLayout`.
pub struct XmlLayout {
    options: JacksonOptions,
}

impl XmlLayout {
    /// Builds the layout from its configuration; `context` resolves `${…}` in
    /// `<KeyValuePair>` values per event.
    pub fn new(spec: &JsonLayoutSpec, context: LayoutContext) -> XmlLayout {
        XmlLayout {
            options: JacksonOptions::new(spec, context),
        }
    }

    /// The charset bytes are encoded in.
    pub fn charset(&self) -> Charset {
        self.options.charset
    }

    fn write_event(&self, event: &LogEvent<'_>, xml: &mut XmlWriter<'_>) {
        let options = &self.options;
        xml.start("Event");
        xml.attribute("xmlns", NAMESPACE);
        // The filter that should drop `timeMillis` names it `TimeMillis`, so log4j2 (2.19 and
        // 2.24 alike) always writes it; `includeTimeMillis` only drops `Instant`.
        xml.integer_attribute("timeMillis", event.timestamp.epoch_millis);
        if !event.thread.name.is_empty() {
            xml.attribute("thread", event.thread.name);
        }
        xml.attribute("level", event.level.name());
        if !event.logger_name.is_empty() {
            xml.attribute("loggerName", event.logger_name);
        }
        xml.boolean_attribute("endOfBatch", event.end_of_batch);
        xml.attribute("loggerFqcn", LOGGER_FQCN);
        xml.integer_attribute("threadId", event.thread.id as i64);
        xml.integer_attribute("threadPriority", i64::from(event.thread.priority));
        if !options.include_time_millis {
            xml.start("Instant");
            xml.integer_attribute("epochSecond", event.timestamp.epoch_seconds());
            xml.integer_attribute("nanoOfSecond", i64::from(event.timestamp.nano_of_second()));
            xml.end("Instant");
        }
        if let Some(marker) = event.marker {
            write_marker(marker, xml);
        }
        match event.message.as_str() {
            Some(text) => xml.text_element("Message", text),
            None => xml.formatted_element("Message", format_args!("{}", event.message)),
        }
        if options.properties {
            xml.start("ContextMap");
            for (key, value) in event.context_map.iter() {
                xml.start("item");
                xml.attribute("key", key);
                if !value.is_empty() {
                    xml.attribute("value", value);
                }
                xml.end("item");
            }
            xml.end("ContextMap");
        }
        if !event.context_stack.is_empty() {
            xml.start("ContextStack");
            for entry in event.context_stack.iter() {
                xml.text_element("ContextStackItem", entry);
            }
            xml.end("ContextStack");
        }
        if options.location_info {
            if let Some(location) = &event.location {
                xml.start("Source");
                xml.attribute("class", location.class);
                xml.attribute("method", location.method);
                if !location.file.is_empty() {
                    xml.attribute("file", location.file);
                }
                xml.integer_attribute("line", i64::from(location.line));
                xml.end("Source");
            }
        }
        if let Some(throwable) = &event.throwable {
            self.write_thrown("Thrown", &throwable.resolve(), None, xml);
        }
        options.for_each_additional_field(event, |key, value| xml.text_element(key, value));
        xml.end("Event");
    }

    /// One node of log4j2's `ThrowableProxy` tree (see the JSON walk in `jackson.rs`).
    fn write_thrown(
        &self,
        element: &str,
        throwable: &Throwable,
        root: Option<&[StackFrame]>,
        xml: &mut XmlWriter<'_>,
    ) {
        let options = &self.options;
        let trace = throwable.frames();
        let common = root.map_or(0, |root| render::frames_in_common(trace, root));
        xml.start(element);
        xml.integer_attribute("commonElementCount", common as i64);
        if let Some(message) = throwable.message().filter(|m| !m.is_empty()) {
            xml.attribute("localizedMessage", message);
            xml.attribute("message", message);
        }
        xml.attribute("name", throwable.class_name());
        if let Some(cause) = throwable.cause() {
            self.write_thrown("Cause", cause, Some(root.unwrap_or(trace)), xml);
        }
        let shown = &trace[..trace.len() - common];
        if options.include_stacktrace && !options.stacktrace_as_string && !shown.is_empty() {
            xml.start("ExtendedStackTrace");
            for frame in shown {
                write_frame(frame, xml);
            }
            xml.end("ExtendedStackTrace");
        }
        if !throwable.suppressed().is_empty() {
            xml.start("Suppressed");
            for suppressed in throwable.suppressed() {
                self.write_thrown("SuppressedItem", suppressed, None, xml);
            }
            xml.end("Suppressed");
        }
        if options.include_stacktrace && options.stacktrace_as_string {
            with_trace_text(throwable, root, |text| {
                xml.text_element("ExtendedStackTrace", text)
            });
        }
        xml.end(element);
    }
}

/// A marker and, recursively, its parents (wrapped in `<Parents>`).
fn write_marker(marker: &Marker, xml: &mut XmlWriter<'_>) {
    xml.start("Marker");
    xml.attribute("name", marker.name());
    marker.with_parents(|parents| {
        if !parents.is_empty() {
            xml.start("Parents");
            for parent in parents {
                write_marker(parent, xml);
            }
            xml.end("Parents");
        }
    });
    xml.end("Marker");
}

/// An `ExtendedStackTraceElement` (see `jackson.rs`).
fn write_frame(frame: &StackFrame, xml: &mut XmlWriter<'_>) {
    xml.start("ExtendedStackTraceItem");
    xml.attribute("class", &frame.class);
    xml.attribute("method", &frame.method);
    if let Some(file) = frame.file.as_deref().filter(|f| !f.is_empty()) {
        xml.attribute("file", file);
    }
    xml.integer_attribute("line", i64::from(frame.line));
    xml.boolean_attribute("exact", false);
    xml.attribute("location", "?");
    xml.attribute("version", "?");
    xml.end("ExtendedStackTraceItem");
}

impl Layout for XmlLayout {
    fn content_type(&self) -> String {
        format!("text/xml; charset={}", self.options.charset.name())
    }

    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        self.write_event(event, &mut XmlWriter::new(out, self.options.pretty));
        self.options.end_event(out);
    }

    fn header(&self, out: &mut String) {
        if self.options.complete {
            out.push_str("<?xml version=\"1.0\" encoding=\"");
            out.push_str(self.options.charset.name());
            out.push_str("\"?>");
            out.push_str(&self.options.eol);
            out.push_str("<Events xmlns=\"");
            out.push_str(NAMESPACE);
            out.push_str("\">");
            out.push_str(&self.options.eol);
        }
    }

    fn footer(&self, out: &mut String) {
        if self.options.complete {
            out.push_str("</Events>");
            out.push_str(&self.options.eol);
        }
    }

    fn encode<'b>(&self, text: &'b str, scratch: &'b mut Vec<u8>) -> &'b [u8] {
        self.options.charset.encode(text, scratch)
    }

    fn requires_location(&self) -> bool {
        self.options.location_info
    }
}

impl std::fmt::Debug for XmlLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("XmlLayout")
            .field("pretty", &self.options.pretty)
            .field("complete", &self.options.complete)
            .field("charset", &self.options.charset)
            .finish_non_exhaustive()
    }
}
