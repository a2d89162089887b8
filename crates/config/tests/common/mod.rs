//! Helpers the config crate's integration tests share: loading a configuration around some
//! appenders, and reading its diagnostics.

use l4rs_config::{load_str, Configuration};

/// Loads a configuration of `appenders`, the `properties` (name, value) before them and a
/// root logger at INFO; panics if it is not well-formed.
pub(crate) fn load_with(properties: &[(&str, &str)], appenders: &str) -> Configuration {
    let properties: String = properties
        .iter()
        .map(|(name, value)| format!(r#"<Property name="{name}">{value}</Property>"#))
        .collect();
    let properties = if properties.is_empty() {
        properties
    } else {
        format!("<Properties>{properties}</Properties>")
    };
    let xml = format!(
        r#"<Configuration>{properties}
<Appenders>{appenders}</Appenders><Loggers><Root level="info"/></Loggers></Configuration>"#
    );
    load_str(&xml, None).expect("well-formed")
}

/// The messages of `config`'s diagnostics, in order.
pub(crate) fn messages(config: &Configuration) -> Vec<String> {
    config
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect()
}

/// Asserts that `config` has no diagnostics, listing their messages otherwise.
#[track_caller]
pub(crate) fn assert_no_messages(config: &Configuration) {
    assert!(messages(config).is_empty(), "{:?}", messages(config));
}

/// Asserts that the message of one of `config`'s diagnostics contains `text`, listing the
/// messages otherwise.
#[track_caller]
#[allow(dead_code)] // routing_binding compares whole messages only
pub(crate) fn assert_some_message_contains(config: &Configuration, text: &str) {
    let messages = messages(config);
    assert!(
        messages.iter().any(|m| m.contains(text)),
        "no message contains {text:?}: {messages:#?}"
    );
}
