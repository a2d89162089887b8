//! log4j-core's `YamlLayout`: each event as the YAML document Jackson's YAML generator writes
//! for log4j2's `LogEvent` mix-in: JsonLayout's fields and order, SnakeYAML's block style.

use l4rs_config::model::JsonLayoutSpec;
use l4rs_core::{status, Layout, Level, LogEvent};

use super::jackson::{self, JacksonOptions};
use super::yaml_writer::YamlWriter;
use crate::charset::Charset;
use crate::pattern::{Pattern, PatternOptions};
use crate::LayoutContext;

/// log4j-core's `YamlLayout`.
pub struct YamlLayout {
    options: JacksonOptions,
    /// `header` and `footer`: PatternLayout patterns (log4j2 builds a PatternLayout serializer
    /// for each), written around a `complete` stream.
    header: Option<Pattern>,
    footer: Option<Pattern>,
    /// The levels of the empty events they are rendered with.
    header_level: Level,
    footer_level: Level,
}

/// Compiles a `header` or `footer` pattern; one log4j2 would refuse is reported and left out.
fn compile(pattern: Option<&str>, context: &LayoutContext) -> Option<Pattern> {
    let options = PatternOptions {
        interpolator: context.interpolator.clone(),
        always_write_exceptions: false,
        disable_ansi: false,
        no_console_no_ansi: false,
        console: context.console,
    };
    match Pattern::compile(pattern?, &options) {
        Ok(pattern) => Some(pattern),
        Err(message) => {
            status::error(format_args!(
                "Could not create plugin of type class org.apache.logging.log4j.core.layout.YamlLayout for element YamlLayout: java.lang.IllegalArgumentException: {message}"
            ));
            None
        }
    }
}

/// Renders a header or footer pattern with an empty event of `level`, as PatternLayout
/// renders its own.
fn render(pattern: Option<&Pattern>, level: Level, out: &mut String) {
    if let Some(pattern) = pattern {
        let event = LogEvent {
            level,
            ..LogEvent::empty()
        };
        pattern.format(&event, out);
    }
}

impl YamlLayout {
    /// Builds the layout from its configuration; `context` resolves `${…}` in
    /// `<KeyValuePair>` values per event.
    pub fn new(spec: &JsonLayoutSpec, context: LayoutContext) -> YamlLayout {
        let header = compile(spec.header.as_deref(), &context);
        let footer = compile(spec.footer.as_deref(), &context);
        YamlLayout {
            options: JacksonOptions::new(spec, context),
            header,
            footer,
            header_level: spec.header_level,
            footer_level: spec.footer_level,
        }
    }

    /// The charset bytes are encoded in.
    pub fn charset(&self) -> Charset {
        self.options.charset
    }
}

impl Layout for YamlLayout {
    fn content_type(&self) -> String {
        format!("application/yaml; charset={}", self.options.charset.name())
    }

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
            render(self.header.as_ref(), self.header_level, out);
            out.push_str(&self.options.eol);
        }
    }

    fn footer(&self, out: &mut String) {
        if self.options.complete {
            out.push_str(&self.options.eol);
            render(self.footer.as_ref(), self.footer_level, out);
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
