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

#[test]
fn dynamic_threshold_filter_binds_its_pairs_with_log4j2_defaults() {
    use l4rs_config::model::{FilterSpec, FilterVerdicts};
    use l4rs_core::{FilterResult, Level};
    let config = load(
        r#"<Null name="N"/>
<Console name="C"><DynamicThresholdFilter key="user" defaultThreshold="warn" onMatch="ACCEPT">
  <KeyValuePair key="alice" value="trace"/>
  <KeyValuePair key="bob" value="nonsense"/>
  <KeyValuePair key="alice" value="info"/>
</DynamicThresholdFilter></Console>
<Console name="D"><DynamicThresholdFilter key="k"/></Console>"#,
    );
    assert!(messages(&config).is_empty(), "{:?}", messages(&config));
    let filter = config.appender("C").and_then(|a| a.filter.clone());
    assert_eq!(
        filter,
        Some(FilterSpec::DynamicThreshold {
            key: "user".to_string(),
            // The later pair wins; an unknown level is DEBUG (log4j2's Level.toLevel).
            levels: vec![
                ("alice".to_string(), Level::INFO),
                ("bob".to_string(), Level::DEBUG)
            ],
            default_threshold: Level::WARN,
            verdicts: FilterVerdicts {
                on_match: FilterResult::Accept,
                on_mismatch: FilterResult::Deny
            },
        })
    );
    let Some(FilterSpec::DynamicThreshold {
        default_threshold,
        verdicts,
        levels,
        ..
    }) = config.appender("D").and_then(|a| a.filter.clone())
    else {
        panic!("D has no DynamicThresholdFilter");
    };
    assert_eq!(default_threshold, Level::ERROR);
    assert_eq!(verdicts, FilterVerdicts::default());
    assert!(levels.is_empty());
}

#[test]
fn dynamic_threshold_filter_without_key_is_not_created() {
    let config =
        load(r#"<Console name="C"><DynamicThresholdFilter defaultThreshold="info"/></Console>"#);
    let messages = messages(&config);
    assert!(
        messages.iter().any(|m| m.contains(
            "DynamicThresholdFilter for element DynamicThresholdFilter: java.lang.NullPointerException: key cannot be null"
        )),
        "{messages:?}"
    );
    assert!(config.appender("C").expect("C").filter.is_none());
}
