//! log4j-core's `YamlLayout`: each event as the YAML document Jackson's YAML generator writes
//! for log4j2's `LogEvent` mix-in: JsonLayout's fields and order, SnakeYAML's block style.

use l4rs_config::model::JsonLayoutSpec;
use l4rs_core::{Layout, LogEvent};

use super::jackson::{self, JacksonOptions};
use super::yaml_writer::YamlWriter;
use crate::charset::Charset;
use crate::LayoutContext;

/// log4j-core's `YamlLayout`.
pub struct YamlLayout {
    options: JacksonOptions,
    /// `header` and `footer`, written around a `complete` stream.
    header: Option<String>,
    footer: Option<String>,
}

impl YamlLayout {
    /// Builds the layout from its configuration; `context` resolves `${…}` in
    /// `<KeyValuePair>` values per event.
    pub fn new(spec: &JsonLayoutSpec, context: LayoutContext) -> YamlLayout {
        YamlLayout {
            options: JacksonOptions::new(spec, context),
            header: spec.header.clone(),
            footer: spec.footer.clone(),
        }
    }

    /// The charset bytes are encoded in.
    pub fn charset(&self) -> Charset {
        self.options.charset
    }
}

impl Layout for YamlLayout {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        // Jackson starts every event as a new document; `compact` changes nothing in YAML
        // (its generator ignores pretty printers) but the default line end.
        out.push_str("---");
        jackson::write_event(&self.options, event, &mut YamlWriter::new(out));
        out.push('\n');
        self.options.end_event(out);
    }

    fn header(&self, out: &mut String) {
        if self.options.complete {
            out.push_str(self.header.as_deref().unwrap_or(""));
            out.push_str(&self.options.eol);
        }
    }

    fn footer(&self, out: &mut String) {
        if self.options.complete {
            out.push_str(&self.options.eol);
            out.push_str(self.footer.as_deref().unwrap_or(""));
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

impl std::fmt::Debug for YamlLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("YamlLayout")
            .field("complete", &self.options.complete)
            .field("charset", &self.options.charset)
            .finish_non_exhaustive()
    }
}
