//! Top-level elements besides appenders and loggers: `<Properties>`, `<CustomLevels>`,
//! `<AsyncWaitStrategyFactory>`, and what to say about anything else found there.

use l4rs_core::Level;

use super::binder::{Binder, MissingField};
use super::node::PNode;
use super::LastByName;
use crate::diagnostic::Severity;
use crate::plugins::Plugin;
use crate::wait_strategy::{self, WaitStrategy};

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
        let value = binder.plugin_value(&mut child, "value").unwrap_or_default();
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

/// What an `<AsyncWaitStrategyFactory class="…"/>` sets the configuration's factory to.
pub(crate) enum WaitStrategyFactoryChoice {
    /// The factory registered under the class name, and the strategy it created.
    Registered(WaitStrategy),
    /// No factory is registered under the name: log4j2 could not load the class, reports it
    /// and drops any factory an earlier element set, so the wait strategy properties apply.
    Unknown,
}

/// Builds `<AsyncWaitStrategyFactory class="…"/>` where log4j2 configures it (in document
/// order among the top-level elements). `None` when the element cannot be built (no `class`):
/// log4j2 then keeps whatever an earlier element set.
pub(crate) fn build_async_wait_strategy_factory(
    binder: &mut Binder,
    mut node: PNode,
) -> Option<WaitStrategyFactoryChoice> {
    const CLASS: &str = "org.apache.logging.log4j.core.async.AsyncWaitStrategyFactoryConfig";
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let class = binder.string(&mut node, &["class"]);
    // `@Required` takes an empty text for a missing one.
    let Some(class) = class.clone().filter(|class| !class.is_empty()) else {
        let missing = MissingField::attribute(
            "factoryClassName",
            "AsyncWaitStrategyFactory cannot be configured without a factory class name",
        )
        .added_as("class=\"…\"")
        .given_as(&class);
        binder.invalid_arguments(&node, CLASS, &[missing]);
        return None;
    };
    binder.finish(&node, inserted);
    match wait_strategy::registered_factory(&class) {
        Some(factory) => Some(WaitStrategyFactoryChoice::Registered(factory())),
        None => {
            binder.report(
                Severity::Info,
                format!(
                    "Invalid implementation class name value: error creating AsyncWaitStrategyFactory {class}: java.lang.ClassNotFoundException: {class}"
                ),
                Some(&node),
                None,
                Some(format!(
                    "a Rust program registers the factory a configuration names with l4rs::register_async_wait_strategy_factory(\"{class}\", …) before the configuration is loaded; until then the wait strategy properties (log4j2.asyncLoggerConfigWaitStrategy) apply"
                )),
            );
            Some(WaitStrategyFactoryChoice::Unknown)
        }
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

#[cfg(test)]
mod tests {
    use crate::wait_strategy::{register_factory, WaitStrategy};

    fn yielding() -> WaitStrategy {
        WaitStrategy::Yield
    }

    fn spinning() -> WaitStrategy {
        WaitStrategy::BusySpin
    }

    /// The configuration's wait strategy and the load's messages, for `elements` at the top of
    /// a configuration.
    fn load(elements: &str) -> (Option<WaitStrategy>, Vec<String>) {
        let xml = format!(
            r#"<Configuration>{elements}<Loggers><Root level="error"/></Loggers></Configuration>"#
        );
        let configuration = crate::load_str(&xml, None).expect("parses");
        let messages = configuration
            .diagnostics
            .iter()
            .map(|d| format!("{} {}", d.severity.level(), d.message))
            .collect();
        (configuration.async_wait_strategy, messages)
    }

    #[test]
    fn a_registered_factory_sets_the_strategy_and_the_last_element_wins() {
        register_factory("com.example.toplevel_test.Yielding", yielding);
        register_factory("com.example.toplevel_test.Spinning", spinning);
        let (strategy, messages) = load(
            r#"<AsyncWaitStrategyFactory class="com.example.toplevel_test.Yielding"/>
               <AsyncWaitStrategyFactory class="com.example.toplevel_test.Spinning"/>"#,
        );
        assert_eq!(strategy, Some(WaitStrategy::BusySpin));
        assert!(messages.is_empty(), "{messages:?}");
    }

    #[test]
    fn an_unknown_class_is_reported_and_drops_an_earlier_factory() {
        register_factory("com.example.toplevel_test.Earlier", yielding);
        let (strategy, messages) = load(
            r#"<AsyncWaitStrategyFactory class="com.example.toplevel_test.Earlier"/>
               <AsyncWaitStrategyFactory class="com.example.Missing"/>"#,
        );
        assert_eq!(strategy, None);
        assert_eq!(
            messages,
            ["INFO Invalid implementation class name value: error creating AsyncWaitStrategyFactory com.example.Missing: java.lang.ClassNotFoundException: com.example.Missing"]
        );
    }

    #[test]
    fn an_element_without_a_class_is_not_built_and_keeps_an_earlier_factory() {
        register_factory("com.example.toplevel_test.Kept", spinning);
        let (strategy, messages) = load(
            r#"<AsyncWaitStrategyFactory class="com.example.toplevel_test.Kept"/>
               <AsyncWaitStrategyFactory/><AsyncWaitStrategyFactory class="" other="x"/>"#,
        );
        assert_eq!(strategy, Some(WaitStrategy::BusySpin));
        assert_eq!(
            messages,
            [
                "ERROR AsyncWaitStrategyFactory cannot be configured without a factory class name",
                "ERROR Could not create plugin of type class org.apache.logging.log4j.core.async.AsyncWaitStrategyFactoryConfig for element AsyncWaitStrategyFactory org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element AsyncWaitStrategyFactory are invalid: field 'factoryClassName' has invalid value 'null'",
                "ERROR AsyncWaitStrategyFactory cannot be configured without a factory class name",
                "ERROR Could not create plugin of type class org.apache.logging.log4j.core.async.AsyncWaitStrategyFactoryConfig for element AsyncWaitStrategyFactory org.apache.logging.log4j.core.config.ConfigurationException: Arguments given for element AsyncWaitStrategyFactory are invalid: field 'factoryClassName' has invalid value ''",
            ]
        );
    }
}
