//! Top-level elements besides appenders and loggers: `<Properties>`, `<CustomLevels>`, and
//! what to say about anything else found there.

use l4rs_core::Level;

use super::binder::Binder;
use super::node::PNode;
use super::LastByName;
use crate::plugins::Plugin;

/// Builds `<Properties>`: each `<Property name>` with its text (or `value` attribute; the text
/// wins when both are given). Values are substituted with lookups only, as log4j2 builds them
/// before the properties exist; references between properties resolve when they are used.
pub(crate) fn build_properties(binder: &mut Binder, mut node: PNode) -> Vec<(String, String)> {
    let inserted = node.attrs.len();
    let mut properties = LastByName::new();
    let mut failed = Vec::new();
    for mut child in std::mem::take(&mut node.children) {
        if child.canonical != Some(Plugin::Property) {
            binder.unusable_child(&node, &child);
            continue;
        }
        let child_inserted = child.attrs.len();
        for grandchild in std::mem::take(&mut child.children) {
            binder.unusable_child(&child, &grandchild);
        }
        let name = binder.string(&mut child, &["name"]);
        let text = child.value.clone().filter(|text| !text.is_empty());
        let value = match text {
            Some(text) => {
                if let Some(attribute) = child
                    .attrs
                    .iter()
                    .find(|attr| attr.name.eq_ignore_ascii_case("value"))
                    .filter(|attr| !attr.value.is_empty())
                {
                    let message = format!(
                        "Configuration contains {} with both attribute value ({}) AND element value ({}). Please specify only one value. Using the element value.",
                        child.name, attribute.value, text
                    );
                    binder.error(&child, message);
                }
                let position = child.position;
                binder.substitute(&text, &child, position)
            }
            None => binder.string(&mut child, &["value"]).unwrap_or_default(),
        };
        binder.finish(&child, child_inserted);
        match name {
            Some(name) => {
                properties.push(&name.clone(), (name, value));
            }
            None => {
                binder.factory_failure(
                    &child,
                    "org.apache.logging.log4j.core.config.Property",
                    "java.lang.IllegalArgumentException: Property name cannot be null",
                    Some("add name=\"…\"; the property is not defined".to_string()),
                );
                failed.push(child);
            }
        }
    }
    binder.null_children(&node, &failed);
    binder.finish(&node, inserted);
    properties.into_vec()
}

/// Builds `<MonitorResources>`: the file of each `<MonitorResource uri="…">` (a `file:` URI or
/// a plain path), watched for changes along with the configuration file.
pub(crate) fn build_monitor_resources(
    binder: &mut Binder,
    mut node: PNode,
    into: &mut Vec<std::path::PathBuf>,
) {
    let inserted = node.attrs.len();
    for mut child in std::mem::take(&mut node.children) {
        if !child.name.eq_ignore_ascii_case("MonitorResource") {
            binder.unexpected_child(&node, &child);
            continue;
        }
        let child_inserted = child.attrs.len();
        match binder.string(&mut child, &["uri"]) {
            Some(uri) => into.push(file_of_uri(&uri)),
            None => binder.factory_failure(
                &child,
                "org.apache.logging.log4j.core.config.MonitorResource",
                "java.lang.NullPointerException: uri",
                Some("add uri=\"file:…\" naming the file to watch".to_string()),
            ),
        }
        binder.finish(&child, child_inserted);
    }
    binder.finish(&node, inserted);
}

/// The path a `file:` URI (`file:/a`, `file:///a`, or a plain path) names.
pub(crate) fn file_of_uri(uri: &str) -> std::path::PathBuf {
    let path = match uri.strip_prefix("file:") {
        Some(rest) if rest.starts_with("///") => &rest[2..],
        Some(rest) if rest.starts_with("//") => &rest[1..],
        Some(rest) => rest,
        None => uri,
    };
    std::path::PathBuf::from(path)
}

/// Builds `<CustomLevels>`, registering each level at once so later elements can use it.
pub(crate) fn build_custom_levels(binder: &mut Binder, mut node: PNode, into: &mut Vec<Level>) {
    let inserted = node.attrs.len();
    let mut failed = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if child.canonical == Some(Plugin::CustomLevel) {
            if let Some(level) = binder.build_child(child, &mut failed, build_custom_level) {
                into.push(level);
            }
        } else {
            binder.unusable_child(&node, &child);
        }
    }
    binder.null_children(&node, &failed);
    binder.finish(&node, inserted);
}

/// Builds and registers one `<CustomLevel name intLevel>` (intLevel defaults to 0).
pub(crate) fn build_custom_level(binder: &mut Binder, mut node: PNode) -> Option<Level> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let name = binder.string(&mut node, &["name"]);
    let int_level = binder.int(&mut node, &["intLevel"]).unwrap_or(0);
    binder.finish(&node, inserted);
    let failure = |binder: &mut Binder, reason: &str| {
        binder.factory_failure(
            &node,
            "org.apache.logging.log4j.core.config.CustomLevelConfig",
            &format!("java.lang.IllegalArgumentException: {reason}"),
            Some("the level is not declared".to_string()),
        );
    };
    match name.filter(|name| !name.trim().is_empty()) {
        None => {
            failure(binder, "Illegal null or empty Level name.");
            None
        }
        Some(_) if int_level < 0 => {
            failure(binder, "Illegal Level int less than zero.");
            None
        }
        Some(name) => Some(Level::register(&name, int_level)),
    }
}

/// The Java class log4j2 names in its "Unknown object" message, for the plugins l4rs knows.
fn java_class(canonical: Plugin) -> String {
    let class = match canonical {
        Plugin::Console => "org.apache.logging.log4j.core.appender.ConsoleAppender",
        Plugin::File => "org.apache.logging.log4j.core.appender.FileAppender",
        Plugin::RandomAccessFile => "org.apache.logging.log4j.core.appender.RandomAccessFileAppender",
        Plugin::MemoryMappedFile => "org.apache.logging.log4j.core.appender.MemoryMappedFileAppender",
        Plugin::PatternLayout => "org.apache.logging.log4j.core.layout.PatternLayout",
        Plugin::JsonLayout => "org.apache.logging.log4j.core.layout.JsonLayout",
        Plugin::XmlLayout => "org.apache.logging.log4j.core.layout.XmlLayout",
        Plugin::YamlLayout => "org.apache.logging.log4j.core.layout.YamlLayout",
        Plugin::SyslogLayout => "org.apache.logging.log4j.core.layout.SyslogLayout",
        Plugin::Rfc5424Layout => "org.apache.logging.log4j.core.layout.Rfc5424Layout",
        Plugin::LoggerFields => "org.apache.logging.log4j.core.layout.LoggerFields",
        Plugin::GelfLayout => "org.apache.logging.log4j.core.layout.GelfLayout",
        Plugin::CsvLogEventLayout => "org.apache.logging.log4j.core.layout.CsvLogEventLayout",
        Plugin::CsvParameterLayout => "org.apache.logging.log4j.core.layout.CsvParameterLayout",
        Plugin::HtmlLayout => "org.apache.logging.log4j.core.layout.HtmlLayout",
        Plugin::JsonTemplateLayout => "org.apache.logging.log4j.layout.template.json.JsonTemplateLayout",
        Plugin::EventTemplateAdditionalField => {
            "org.apache.logging.log4j.layout.template.json.JsonTemplateLayout$EventTemplateAdditionalField"
        }
        Plugin::KeyValuePair => "org.apache.logging.log4j.core.util.KeyValuePair",
        Plugin::Logger => "org.apache.logging.log4j.core.config.LoggerConfig",
        Plugin::Root => "org.apache.logging.log4j.core.config.LoggerConfig$RootLogger",
        Plugin::AsyncLogger => "org.apache.logging.log4j.core.async.AsyncLoggerConfig",
        Plugin::AsyncRoot => "org.apache.logging.log4j.core.async.AsyncLoggerConfig$RootLogger",
        Plugin::AppenderRef => "org.apache.logging.log4j.core.config.AppenderRef",
        Plugin::Property => "org.apache.logging.log4j.core.config.Property",
        Plugin::Replace => "org.apache.logging.log4j.core.pattern.RegexReplacement",
        Plugin::PatternMatch => "org.apache.logging.log4j.core.layout.PatternMatch",
        other => return other.to_string(),
    };
    class.to_string()
}

/// Reports a top-level element that is not a top-level one.
pub(crate) fn misplaced(binder: &mut Binder, node: &PNode) {
    match node.canonical {
        None => binder.unsupported(node),
        Some(canonical) => binder.error(
            node,
            format!(
                "Unknown object \"{}\" of type {} is ignored: try nesting it inside one of: [\"Appenders\", \"Loggers\", \"Properties\", \"Scripts\", \"CustomLevels\", \"MonitorResources\"].",
                node.name,
                java_class(canonical)
            ),
        ),
    }
}
