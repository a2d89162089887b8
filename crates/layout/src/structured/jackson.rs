//! What log4j2's `AbstractJacksonLayout` subclasses (JsonLayout, XmlLayout, YamlLayout) share:
//! their options and line ends, the `<KeyValuePair>` fields with per-event lookups, the
//! `complete` document's state, and, for the two whose output is a tree of named values (JSON
//! and YAML), the walk from an event to Jackson's fields over a [`Tree`] generator.
//!
//! XmlLayout has its own walk (`xml.rs`): log4j2's XML mix-in writes every scalar as an
//! attribute before the child elements and wraps lists in elements of their own, so its order
//! and shape differ from the other two beyond what a generator can hide.

use std::fmt;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use l4rs_config::model::JsonLayoutSpec;
use l4rs_core::{Interpolator, LogEvent, Marker, Message, StackFrame, Throwable};

use super::fields::AdditionalField;
use crate::charset::Charset;
use crate::converters::exception::render::{self, ProxyStyle, Sink};
use crate::scratch::with_scratch;
use crate::LayoutContext;

/// The logger FQCN log4j2 records for a call through its API; Rust callers have no class, so
/// l4rs prints what a log4j2 application's events carry.
pub(crate) const LOGGER_FQCN: &str = "org.apache.logging.log4j.spi.AbstractLogger";

/// log4j2's default end of line for Jackson events (`AbstractJacksonLayout.DEFAULT_EOL`).
const DEFAULT_EOL: &str = "\r\n";

/// The options every Jackson layout reads, built once from the configuration.
pub(crate) struct JacksonOptions {
    /// Not `compact`.
    pub pretty: bool,
    /// Written after each event.
    pub eol: String,
    pub complete: bool,
    pub location_info: bool,
    pub properties: bool,
    pub properties_as_list: bool,
    pub include_stacktrace: bool,
    pub stacktrace_as_string: bool,
    pub include_null_delimiter: bool,
    pub include_time_millis: bool,
    pub charset: Charset,
    additional_fields: Vec<AdditionalField>,
    interpolator: Option<Arc<dyn Interpolator>>,
    /// Set by the first event (JsonLayout's `complete` array separates later ones with `, `).
    wrote_event: AtomicBool,
}

impl JacksonOptions {
    /// The options in `spec`; `context` resolves `${…}` in `<KeyValuePair>` values per event.
    pub(super) fn new(spec: &JsonLayoutSpec, context: LayoutContext) -> JacksonOptions {
        let eol = match &spec.end_of_line {
            Some(eol) => eol.clone(),
            None if spec.compact && !spec.event_eol => String::new(),
            None => DEFAULT_EOL.to_string(),
        };
        JacksonOptions {
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
            additional_fields: AdditionalField::all(&spec.additional_fields),
            interpolator: context.interpolator,
            wrote_event: AtomicBool::new(false),
        }
    }

    /// True for every event but the first.
    pub(super) fn mark_event(&self) -> bool {
        self.wrote_event.swap(true, Ordering::Relaxed)
    }

    /// Calls `write(key, value)` for each `<KeyValuePair>`, its value resolved for `event`.
    /// Like every other string, a field whose value is (or resolves to) empty is left out.
    pub(super) fn for_each_additional_field(
        &self,
        event: &LogEvent<'_>,
        mut write: impl FnMut(&str, &str),
    ) {
        for field in &self.additional_fields {
            field.with_value(self.interpolator.as_ref(), event, |value| {
                if !value.is_empty() {
                    write(&field.key, value);
                }
            });
        }
    }

    /// Ends an event: the end of line and the NUL delimiter.
    pub(super) fn end_event(&self, out: &mut String) {
        out.push_str(&self.eol);
        if self.include_null_delimiter {
            out.push('\0');
        }
    }
}

/// The text `stacktraceAsString` writes for one `ThrowableProxy`: its extended trace as `%xEx`
/// prints it, `root` being the outermost trace for a cause.
pub(crate) fn with_trace_text<R>(
    throwable: &Throwable,
    root: Option<&[StackFrame]>,
    f: impl FnOnce(&str) -> R,
) -> R {
    with_scratch(|text| {
        let style = ProxyStyle {
            separator: "\n",
            suffix: "",
            filters: &[],
        };
        render::extended_proxy(throwable, root, &style, &mut Sink::direct(text));
        f(text)
    })
}

/// A generator of nested objects, arrays and scalars, as Jackson's `JsonGenerator` is for its
/// JSON and YAML back ends. Values follow the [`Tree::field`] or [`Tree::element`] that names
/// their slot.
pub(crate) trait Tree {
    /// The state of one open object or array.
    type Open;
    /// Opens an object.
    fn begin_object(&mut self) -> Self::Open;
    /// Closes an object.
    fn end_object(&mut self, open: Self::Open);
    /// Names the next value of an object.
    fn field(&mut self, open: &mut Self::Open, name: &str);
    /// Opens an array.
    fn begin_array(&mut self) -> Self::Open;
    /// Starts the next value of an array.
    fn element(&mut self, open: &mut Self::Open);
    /// Closes an array.
    fn end_array(&mut self, open: Self::Open);
    /// A string value.
    fn string(&mut self, value: &str);
    /// An integer value.
    fn integer(&mut self, value: i64);
    /// A boolean value.
    fn boolean(&mut self, value: bool);
    /// The message text as a string value. The default formats a message that is not plain
    /// text into a scratch buffer first.
    fn message(&mut self, message: &Message<'_>) {
        match message.as_str() {
            Some(text) => self.string(text),
            None => with_scratch(|text| {
                let _ = fmt::Write::write_fmt(text, format_args!("{message}"));
                self.string(text);
            }),
        }
    }

    /// A string field.
    fn string_field(&mut self, open: &mut Self::Open, name: &str, value: &str) {
        self.field(open, name);
        self.string(value);
    }
    /// An integer field.
    fn integer_field(&mut self, open: &mut Self::Open, name: &str, value: i64) {
        self.field(open, name);
        self.integer(value);
    }
    /// A boolean field.
    fn boolean_field(&mut self, open: &mut Self::Open, name: &str, value: bool) {
        self.field(open, name);
        self.boolean(value);
    }
}

/// Writes `event` as the object Jackson writes for log4j2's `LogEvent` mix-in (2.19's field
/// order), with JsonLayout's and YamlLayout's omissions.
pub(crate) fn write_event<T: Tree>(options: &JacksonOptions, event: &LogEvent<'_>, tree: &mut T) {
    let mut root = tree.begin_object();
    // The mix-in log4j2 uses for `propertiesAsList` does not name `instant` in its property
    // order, so Jackson moves it behind `loggerFqcn`.
    let instant_late = options.properties && options.properties_as_list;
    if options.include_time_millis {
        tree.integer_field(&mut root, "timeMillis", event.timestamp.epoch_millis);
    } else if !instant_late {
        write_instant(event, &mut root, tree);
    }
    // Jackson's NON_EMPTY inclusion leaves out empty strings and lists, but log4j2 always
    // writes the message, the context map and the primitives.
    if !event.thread.name.is_empty() {
        tree.string_field(&mut root, "thread", event.thread.name);
    }
    tree.string_field(&mut root, "level", event.level.name());
    if !event.logger_name.is_empty() {
        tree.string_field(&mut root, "loggerName", event.logger_name);
    }
    if let Some(marker) = event.marker {
        tree.field(&mut root, "marker");
        write_marker(marker, tree);
    }
    tree.field(&mut root, "message");
    tree.message(&event.message);
    if let Some(throwable) = &event.throwable {
        tree.field(&mut root, "thrown");
        write_thrown(options, &throwable.resolve(), None, tree);
    }
    if !event.context_stack.is_empty() {
        tree.field(&mut root, "contextStack");
        let mut stack = tree.begin_array();
        for entry in event.context_stack.iter() {
            tree.element(&mut stack);
            tree.string(entry);
        }
        tree.end_array(stack);
    }
    tree.boolean_field(&mut root, "endOfBatch", event.end_of_batch);
    tree.string_field(&mut root, "loggerFqcn", LOGGER_FQCN);
    if instant_late && !options.include_time_millis {
        write_instant(event, &mut root, tree);
    }
    if options.properties {
        tree.field(&mut root, "contextMap");
        write_context_map(options, event, tree);
    }
    tree.integer_field(&mut root, "threadId", event.thread.id as i64);
    tree.integer_field(
        &mut root,
        "threadPriority",
        i64::from(event.thread.priority),
    );
    if options.location_info {
        if let Some(location) = &event.location {
            tree.field(&mut root, "source");
            let mut source = tree.begin_object();
            tree.string_field(&mut source, "class", location.class);
            tree.string_field(&mut source, "method", location.method);
            if !location.file.is_empty() {
                tree.string_field(&mut source, "file", location.file);
            }
            tree.integer_field(&mut source, "line", i64::from(location.line));
            tree.end_object(source);
        }
    }
    options.for_each_additional_field(event, |key, value| {
        tree.string_field(&mut root, key, value);
    });
    tree.end_object(root);
}

fn write_context_map<T: Tree>(options: &JacksonOptions, event: &LogEvent<'_>, tree: &mut T) {
    if options.properties_as_list {
        let mut list = tree.begin_array();
        for (key, value) in event.context_map.iter() {
            tree.element(&mut list);
            let mut entry = tree.begin_object();
            tree.string_field(&mut entry, "key", key);
            // The list form's entries are beans, so NON_EMPTY drops an empty value.
            if !value.is_empty() {
                tree.string_field(&mut entry, "value", value);
            }
            tree.end_object(entry);
        }
        tree.end_array(list);
    } else {
        let mut map = tree.begin_object();
        for (key, value) in event.context_map.iter() {
            tree.string_field(&mut map, key, value);
        }
        tree.end_object(map);
    }
}

/// One node of log4j2's `ThrowableProxy` tree. `root` is the outermost trace for a cause (its
/// shared frames are counted in `commonElementCount` and left out), `None` for the outermost
/// throwable and suppressed ones.
fn write_thrown<T: Tree>(
    options: &JacksonOptions,
    throwable: &Throwable,
    root: Option<&[StackFrame]>,
    tree: &mut T,
) {
    let trace = throwable.frames();
    let common = root.map_or(0, |root| render::frames_in_common(trace, root));
    let mut thrown = tree.begin_object();
    tree.integer_field(&mut thrown, "commonElementCount", common as i64);
    if let Some(message) = throwable.message().filter(|m| !m.is_empty()) {
        tree.string_field(&mut thrown, "localizedMessage", message);
        tree.string_field(&mut thrown, "message", message);
    }
    tree.string_field(&mut thrown, "name", throwable.class_name());
    if let Some(cause) = throwable.cause() {
        tree.field(&mut thrown, "cause");
        write_thrown(options, cause, Some(root.unwrap_or(trace)), tree);
    }
    let shown = &trace[..trace.len() - common];
    if options.include_stacktrace && !options.stacktrace_as_string && !shown.is_empty() {
        tree.field(&mut thrown, "extendedStackTrace");
        let mut frames = tree.begin_array();
        for frame in shown {
            tree.element(&mut frames);
            write_frame(frame, tree);
        }
        tree.end_array(frames);
    }
    if !throwable.suppressed().is_empty() {
        tree.field(&mut thrown, "suppressed");
        let mut list = tree.begin_array();
        for suppressed in throwable.suppressed() {
            tree.element(&mut list);
            write_thrown(options, suppressed, None, tree);
        }
        tree.end_array(list);
    }
    if options.include_stacktrace && options.stacktrace_as_string {
        tree.field(&mut thrown, "extendedStackTrace");
        with_trace_text(throwable, root, |text| tree.string(text));
    }
    tree.end_object(thrown);
}

/// `instant`: the event time as seconds and nanoseconds.
fn write_instant<T: Tree>(event: &LogEvent<'_>, root: &mut T::Open, tree: &mut T) {
    tree.field(root, "instant");
    let mut instant = tree.begin_object();
    tree.integer_field(&mut instant, "epochSecond", event.timestamp.epoch_seconds());
    tree.integer_field(
        &mut instant,
        "nanoOfSecond",
        i64::from(event.timestamp.nano_of_second()),
    );
    tree.end_object(instant);
}

/// A marker and, recursively, its parents.
fn write_marker<T: Tree>(marker: &Marker, tree: &mut T) {
    let mut object = tree.begin_object();
    tree.string_field(&mut object, "name", marker.name());
    marker.with_parents(|parents| {
        if !parents.is_empty() {
            tree.field(&mut object, "parents");
            let mut list = tree.begin_array();
            for parent in parents {
                tree.element(&mut list);
                write_marker(parent, tree);
            }
            tree.end_array(list);
        }
    });
    tree.end_object(object);
}

/// An `ExtendedStackTraceElement`: the frame, and the packaging data log4j2 finds for a class
/// it cannot load (`exact` false, `location` and `version` `?`), which is every Rust frame.
fn write_frame<T: Tree>(frame: &StackFrame, tree: &mut T) {
    let mut object = tree.begin_object();
    tree.string_field(&mut object, "class", &frame.class);
    tree.string_field(&mut object, "method", &frame.method);
    if let Some(file) = frame.file.as_deref().filter(|f| !f.is_empty()) {
        tree.string_field(&mut object, "file", file);
    }
    tree.integer_field(&mut object, "line", i64::from(frame.line));
    tree.boolean_field(&mut object, "exact", false);
    tree.string_field(&mut object, "location", "?");
    tree.string_field(&mut object, "version", "?");
    tree.end_object(object);
}
