//! The appenders that write nothing themselves (`<Null>`, `<Failover>`, `<Rewrite>`) and the
//! filters they are used with, bound with log4j2's attributes, defaults and messages.

use l4rs_config::model::AppenderKind;
use l4rs_config::{load_str, Configuration};

fn load(appenders: &str) -> Configuration {
    let xml = format!(
        r#"<Configuration><Appenders>{appenders}</Appenders>
<Loggers><Root level="info"/></Loggers></Configuration>"#
    );
    load_str(&xml, None).expect("well-formed")
}

fn messages(config: &Configuration) -> Vec<String> {
    config
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn null_takes_only_a_name_which_defaults_to_null() {
    let config = load(r#"<Null name="Quiet"/><Null/>"#);
    assert!(messages(&config).is_empty(), "{:?}", messages(&config));
    let quiet = config.appender("Quiet").expect("Quiet");
    assert!(matches!(quiet.kind, AppenderKind::Null));
    assert!(quiet.ignore_exceptions && quiet.filter.is_none() && quiet.layout.is_none());
    assert!(matches!(
        config.appender("null").expect("default name").kind,
        AppenderKind::Null
    ));
}

#[test]
fn null_reports_what_log4j2_has_no_parameter_for() {
    let config =
        load(r#"<Null name="N" ignoreExceptions="false"><ThresholdFilter level="warn"/></Null>"#);
    let messages = messages(&config);
    assert!(
        messages
            .iter()
            .any(|m| m.contains("has no parameter that matches element ThresholdFilter")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m.contains("ignoreExceptions")),
        "{messages:?}"
    );
    // The appender is still built, as log4j2 builds it.
    assert!(config.appender("N").is_some());
}
