//! `<Kafka>`: log4j2's KafkaAppender (2.24), which sends each event's layout bytes to a topic.
//! The model only: the producer is built by the facade behind the `l4rs` crate's `kafka`
//! feature.

use super::binder::{Binder, MissingField};
use super::filters::{is_filter, FilterSlot};
use super::layout::{build_layout, is_layout};
use super::node::PNode;
use super::rewrite::property;
use crate::model::{AppenderKind, AppenderSpec, KafkaSpec};
use crate::plugins::Plugin;

/// The Java class log4j2 names when the appender's required fields are missing.
const APPENDER_CLASS: &str = "org.apache.logging.log4j.core.appender.mom.kafka.KafkaAppender";

/// Builds one `<Kafka>` element; `None` (after log4j2's message) when it cannot be built.
pub(crate) fn build_kafka_appender(binder: &mut Binder, mut node: PNode) -> Option<AppenderSpec> {
    let inserted = node.attrs.len();
    let mut filter = FilterSlot::new();
    let mut layout = None;
    let mut layout_seen = false;
    let mut properties: Vec<(String, String)> = Vec::new();
    for child in std::mem::take(&mut node.children) {
        if is_layout(&child) && !layout_seen {
            layout_seen = true;
            layout = build_layout(binder, child);
        } else if is_filter(&child) {
            filter.offer(binder, &node, child);
        } else if child.canonical == Some(Plugin::Property) {
            // `java.util.Properties.setProperty` in order: a later value of a name wins.
            if let Some((name, value)) = property(binder, child) {
                properties.retain(|(existing, _)| *existing != name);
                properties.push((name, value));
            }
        } else {
            binder.refuse_child(&mut node, child);
        }
    }
    let name = binder.string(&mut node, &["name"]);
    let topic = binder.string(&mut node, &["topic"]);
    let key = binder.string(&mut node, &["key"]);
    let sync_send = binder.boolean(&mut node, &["syncSend"], true);
    let send_event_timestamp = binder.boolean(&mut node, &["sendEventTimestamp"], false);
    // An `int` attribute: a value Java cannot parse is reported by the binder and is 0.
    let retry_count = binder.int(&mut node, &["retryCount"]).unwrap_or(0);
    let ignore_exceptions = binder.boolean(&mut node, &["ignoreExceptions"], true);
    let Some(name) = name else {
        binder.invalid_arguments(
            &node,
            APPENDER_CLASS,
            &[MissingField::attribute("name", "No appender name provided")],
        );
        return None;
    };
    binder.finish(&node, inserted);
    if !layout_seen {
        // log4j2's builder takes the configured layout only, without a default.
        binder.error_help(
            &node,
            "No layout provided for KafkaAppender",
            format!("add a layout (e.g. <PatternLayout pattern=\"%m\"/>) to <{}>; the appender {name} is not created", node.name),
        );
        return None;
    }
    let Some(topic) = topic else {
        // `Objects.requireNonNull(topic, "topic")` in the manager's constructor.
        binder.error_help(
            &node,
            format!(
                "Could not create plugin of type class {APPENDER_CLASS} for element {}: java.lang.NullPointerException: topic",
                node.name
            ),
            format!("add topic=\"…\"; the appender {name} is not created"),
        );
        return None;
    };
    // A layout that failed to build was reported; the appender then uses the default one, as
    // other appenders here do.
    let layout = layout.or(Some(crate::model::LayoutSpec::Pattern(Default::default())));
    Some(AppenderSpec {
        name,
        ignore_exceptions,
        layout,
        filter: filter.filter,
        kind: AppenderKind::Kafka(KafkaSpec {
            topic,
            key,
            sync_send,
            send_event_timestamp,
            // log4j2 loops `while (attempt < retryCount)`: a negative count retries never.
            retry_count: u32::try_from(retry_count).unwrap_or(0),
            properties,
        }),
        position: Some(node.position),
    })
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    use crate::model::{AppenderKind, KafkaSpec};
    use crate::Severity;

    fn load(xml: &str) -> crate::Configuration {
        super::super::load_str(xml, Some(Path::new("/test/log4j2.xml"))).expect("well-formed")
    }

    fn errors(config: &crate::Configuration) -> Vec<String> {
        let errors = config.diagnostics_at_least(Severity::Error);
        errors.map(|d| d.message.clone()).collect()
    }

    #[test]
    fn attributes_and_properties_with_log4j2_defaults() {
        let config = load(
            r#"<Configuration><Appenders>
  <Kafka name="k" topic="logs" key="$${event:ThreadName}">
    <PatternLayout pattern="%m"/>
    <Property name="bootstrap.servers">127.0.0.1:9092</Property>
    <Property name="acks" value="1"/>
    <Property name="acks" value="all"/>
  </Kafka>
  <Kafka name="a" topic="t" syncSend="false" sendEventTimestamp="true" retryCount="3" ignoreExceptions="false">
    <JsonLayout/>
  </Kafka>
</Appenders><Loggers><Root level="info"><AppenderRef ref="k"/></Root></Loggers></Configuration>"#,
        );
        assert!(errors(&config).is_empty(), "{:?}", errors(&config));
        let k = config.appender("k").unwrap();
        let AppenderKind::Kafka(spec) = &k.kind else {
            panic!("{:?}", k.kind)
        };
        assert_eq!(
            spec,
            &KafkaSpec {
                topic: "logs".to_string(),
                key: Some("${event:ThreadName}".to_string()),
                sync_send: true,
                send_event_timestamp: false,
                retry_count: 0,
                properties: vec![
                    (
                        "bootstrap.servers".to_string(),
                        "127.0.0.1:9092".to_string()
                    ),
                    ("acks".to_string(), "all".to_string()),
                ],
            }
        );
        assert!(k.ignore_exceptions);
        let a = config.appender("a").unwrap();
        let AppenderKind::Kafka(spec) = &a.kind else {
            panic!("{:?}", a.kind)
        };
        assert!(!spec.sync_send && spec.send_event_timestamp);
        assert_eq!(spec.retry_count, 3);
        assert!(!a.ignore_exceptions);
    }

    #[test]
    fn a_missing_layout_or_topic_is_log4j2s_error() {
        let config = load(
            r#"<Configuration><Appenders>
  <Kafka name="nolayout" topic="t"/>
  <Kafka name="notopic"><PatternLayout/></Kafka>
</Appenders><Loggers><Root level="info"/></Loggers></Configuration>"#,
        );
        let errors = errors(&config);
        assert!(config.appender("nolayout").is_none() && config.appender("notopic").is_none());
        assert!(
            errors
                .iter()
                .any(|e| e == "No layout provided for KafkaAppender"),
            "{errors:?}"
        );
        assert!(
            errors
                .iter()
                .any(|e| e.ends_with("for element Kafka: java.lang.NullPointerException: topic")),
            "{errors:?}"
        );
    }
}
