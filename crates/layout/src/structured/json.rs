//! log4j-core's `JsonLayout`: each event as the JSON object Jackson writes for log4j2's
//! `LogEvent` mix-in, with log4j2's field order, omissions and line ends.

use l4rs_config::model::JsonLayoutSpec;
use l4rs_core::{Layout, LogEvent};

use super::jackson::{self, JacksonOptions};
use super::json_writer::JsonWriter;
use crate::charset::Charset;
use crate::LayoutContext;

/// log4j-core's `JsonLayout` (not `JsonTemplateLayout`).
pub struct JsonLayout {
    options: JacksonOptions,
}

impl JsonLayout {
    /// Builds the layout from its configuration; `context` resolves `${…}` in
    /// `<KeyValuePair>` values per event.
    pub fn new(spec: &JsonLayoutSpec, context: LayoutContext) -> JsonLayout {
        JsonLayout {
            options: JacksonOptions::new(spec, context),
        }
    }

    /// The charset bytes are encoded in.
    pub fn charset(&self) -> Charset {
        self.options.charset
    }
}

impl Layout for JsonLayout {
    fn content_type(&self) -> String {
        format!("application/json; charset={}", self.options.charset.name())
    }

    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        let options = &self.options;
        if options.complete && options.mark_event() {
            out.push_str(", ");
        }
        jackson::write_event(options, event, &mut JsonWriter::new(out, options.pretty));
        options.end_event(out);
    }

    fn header(&self, out: &mut String) {
        if self.options.complete {
            out.push('[');
            out.push_str(&self.options.eol);
        }
    }

    fn footer(&self, out: &mut String) {
        if self.options.complete {
            out.push_str(&self.options.eol);
            out.push(']');
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

impl std::fmt::Debug for JsonLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonLayout")
            .field("pretty", &self.options.pretty)
            .field("complete", &self.options.complete)
            .field("charset", &self.options.charset)
            .finish_non_exhaustive()
    }
}
