//! log4j2 2.24's `JsonTemplateLayout` (log4j-layout-template-json): each event as the JSON
//! object its event template describes.
//!
//! The template (an `eventTemplate` text, or a `classpath:` bundled template or `file:` path
//! from `eventTemplateUri`) is read (`reader`), given its additional fields and root object
//! key, and compiled once into a resolver tree (`tree`, `event`, `stack_trace`).
//! Formatting an event walks the tree into the caller's buffer, with per-thread scratch
//! buffers for the few values that must be formed before they are escaped (dates, formatted
//! messages, stack trace text), so steady-state formatting allocates nothing.

mod event;
mod options;
mod reader;
mod stack_trace;
mod templates;
mod tree;
mod writer;

use l4rs_config::model::JsonTemplateLayoutSpec;
use l4rs_core::{Layout, LogEvent};

use crate::charset::Charset;
use crate::LayoutContext;
use event::{Context, EventResolver};
use reader::Value;
use tree::{Compiler, MaybeResolvable, Node};
use writer::{Limits, Writer};

/// The `timestamp` resolver's default format (`JsonTemplateLayoutDefaults`).
const DEFAULT_TIMESTAMP_FORMAT: &str = "yyyy-MM-dd'T'HH:mm:ss.SSSZZZ";

/// log4j2's `JsonTemplateLayout`.
pub struct JsonTemplateLayout {
    root: Node<EventResolver>,
    limits: Limits,
    /// `eventDelimiter`, then NUL with `nullEventDelimiterEnabled`.
    delimiter: String,
    location_info_enabled: bool,
    charset: Charset,
}

impl JsonTemplateLayout {
    /// Builds the layout from its configuration. A template that cannot be read or compiled
    /// is an error naming the layout's place in the configuration and the template's; log4j2
    /// then creates no layout, which the caller mirrors by using the appender's default
    /// layout.
    pub fn new(
        spec: &JsonTemplateLayoutSpec,
        context: LayoutContext,
    ) -> Result<JsonTemplateLayout, String> {
        Self::build(spec, context).map_err(|reason| {
            format!(
                "Could not create plugin of type class org.apache.logging.log4j.layout.template.json.JsonTemplateLayout for element JsonTemplateLayout at {}: java.lang.IllegalArgumentException: {reason}",
                spec.origin
            )
        })
    }

    fn build(
        spec: &JsonTemplateLayoutSpec,
        context: LayoutContext,
    ) -> Result<JsonTemplateLayout, String> {
        if spec.max_string_length <= 0 {
            return Err(format!(
                "was expecting a non-zero positive maxStringLength: {}",
                spec.max_string_length
            ));
        }
        let event_template = read_template(
            spec.event_template.as_deref(),
            &spec.event_template_uri,
            "eventTemplate",
        )?;
        let mut root = reader::read(&event_template)
            .map_err(|error| format!("failed parsing template (eventTemplate): {error}"))?;
        add_fields(spec, &mut root)?;
        if let Some(key) = &spec.event_template_root_object_key {
            root = Value::Object(vec![(key.clone(), root)]);
        }
        // log4j2 reads the element template only when stack traces are on.
        let element_template = if spec.stack_trace_enabled {
            let text = read_template(
                spec.stack_trace_element_template.as_deref(),
                &spec.stack_trace_element_template_uri,
                "stackTraceElementTemplate",
            )?;
            reader::read(&text).map_err(|error| {
                format!("failed parsing template (stackTraceElementTemplate): {error}")
            })?
        } else {
            Value::Object(Vec::new())
        };
        let limits = Limits::new(
            usize::try_from(spec.max_string_length).unwrap_or(usize::MAX),
            &spec.truncated_string_suffix,
        );
        let resolver_context = Context {
            stack_trace_enabled: spec.stack_trace_enabled,
            location_info_enabled: spec.location_info_enabled,
            truncated_string_suffix: &spec.truncated_string_suffix,
            element_template: &element_template,
            interpolator: context.interpolator.clone(),
            limits: &limits,
            timestamp_format: spec
                .timestamp_format_pattern
                .as_deref()
                .unwrap_or(DEFAULT_TIMESTAMP_FORMAT),
            time_zone: spec.time_zone.as_deref(),
        };
        let mut build =
            |value: &Value, path: &str| EventResolver::new(value, path, &resolver_context);
        let mut compiler = Compiler {
            resolver: &mut build,
            interpolator: context.interpolator,
            limits: &limits,
        };
        let root = compiler.compile(&root, "")?;
        // log4j2 would write the members without braces; l4rs refuses the template instead.
        if matches!(&root, Node::Resolver(resolver) if resolver.flattens()) {
            return Err(
                "a flattening resolver cannot be the whole event template; put it in an object"
                    .to_string(),
            );
        }
        let mut delimiter = spec.event_delimiter.clone();
        if spec.null_event_delimiter_enabled {
            delimiter.push('\0');
        }
        Ok(JsonTemplateLayout {
            root,
            limits,
            delimiter,
            location_info_enabled: spec.location_info_enabled,
            charset: Charset::from_attribute(spec.charset.as_deref()),
        })
    }

    /// The charset bytes are encoded in.
    pub fn charset(&self) -> Charset {
        self.charset
    }
}

/// The template text: the attribute when it is not blank, else what the URI names.
fn read_template(text: Option<&str>, uri: &str, attribute: &str) -> Result<String, String> {
    match text {
        Some(text) if !text.trim().is_empty() => Ok(text.to_string()),
        _ if uri.trim().is_empty() => Err(format!(
            "both {attribute} and {attribute}Uri are blank; give one of them"
        )),
        _ => templates::read_uri(uri.trim()),
    }
}

/// Merges the `<EventTemplateAdditionalField>`s into the template's root object.
fn add_fields(spec: &JsonTemplateLayoutSpec, root: &mut Value) -> Result<(), String> {
    if spec.additional_fields.is_empty() {
        return Ok(());
    }
    if !matches!(root, Value::Object(_)) {
        return Err(
            "was expecting an object to merge additional fields: the event template is not a JSON object"
                .to_string(),
        );
    }
    for field in &spec.additional_fields {
        let value = if field.json {
            reader::read(&field.value).map_err(|error| {
                format!(
                    "failed reading JSON provided by additional field: {} ({error})",
                    field.key
                )
            })?
        } else {
            Value::String(field.value.clone())
        };
        root.insert(&field.key, value);
    }
    Ok(())
}

impl Layout for JsonTemplateLayout {
    fn content_type(&self) -> String {
        format!("application/json; charset={}", self.charset.name())
    }

    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        self.root.write(event, &mut Writer::new(out, &self.limits));
        out.push_str(&self.delimiter);
    }

    fn encode<'b>(&self, text: &'b str, scratch: &'b mut Vec<u8>) -> &'b [u8] {
        self.charset.encode(text, scratch)
    }

    fn requires_location(&self) -> bool {
        self.location_info_enabled
    }
}

impl std::fmt::Debug for JsonTemplateLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("JsonTemplateLayout")
            .field("delimiter", &self.delimiter)
            .field("charset", &self.charset)
            .finish_non_exhaustive()
    }
}
