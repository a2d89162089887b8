//! The appenders that write nothing themselves (`<Null>`, `<Failover>`, `<Rewrite>`) and the
//! filters they are used with, bound with log4j2's attributes, defaults and messages.

mod common;

use common::{assert_no_messages, assert_some_message_contains, load_with, messages};
use l4rs_config::model::AppenderKind;
use l4rs_config::Configuration;

/// Loads a configuration of `appenders`, with no properties.
fn load(appenders: &str) -> Configuration {
    load_with(&[], appenders)
}

/// Asserts that each of `expected` is the whole message of one of `config`'s diagnostics,
/// listing the messages otherwise.
#[track_caller]
fn assert_messages_include(config: &Configuration, expected: &[&str]) {
    let messages = messages(config);
    for expected in expected {
        assert!(
            messages.iter().any(|m| m == expected),
            "{expected}: {messages:#?}"
        );
    }
}

#[test]
fn null_takes_only_a_name_which_defaults_to_null() {
    let config = load(r#"<Null name="Quiet"/><Null/>"#);
    assert_no_messages(&config);
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
    assert_some_message_contains(
        &config,
        "has no parameter that matches element ThresholdFilter",
    );
    assert_some_message_contains(&config, "ignoreExceptions");
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
    assert_no_messages(&config);
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
    assert_some_message_contains(&config, "DynamicThresholdFilter for element DynamicThresholdFilter: java.lang.NullPointerException: key cannot be null");
    assert!(config.appender("C").expect("C").filter.is_none());
}

fn failover_spec(config: &Configuration, name: &str) -> l4rs_config::model::FailoverSpec {
    match &config.appender(name).expect("appender bound").kind {
        AppenderKind::Failover(spec) => spec.clone(),
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn failover_binds_primary_failovers_and_log4j2_defaults() {
    let config = load(
        r#"<Failover name="F" primary="P"><Failovers><AppenderRef ref="A"/><AppenderRef ref="B"/></Failovers></Failover>
<Failover name="G" primary="P" retryInterval="5" ignoreExceptions="false">
  <ThresholdFilter level="warn"/><Failovers><AppenderRef ref="A"/></Failovers>
</Failover>
<Failover name="H" primary="P" retryIntervalSeconds="-3" ignoreExceptions="maybe"><Failovers><AppenderRef ref="A"/></Failovers></Failover>"#,
    );
    let f = failover_spec(&config, "F");
    assert_eq!(f.primary, "P");
    assert_eq!(f.failovers, ["A", "B"]);
    assert_eq!(f.retry_interval_seconds, 60);
    let f_spec = config.appender("F").unwrap();
    assert!(f_spec.ignore_exceptions && f_spec.filter.is_none());
    let g = config.appender("G").unwrap();
    assert_eq!(failover_spec(&config, "G").retry_interval_seconds, 5);
    assert!(!g.ignore_exceptions && g.filter.is_some());
    // A negative interval warns and uses the default; Booleans.parseBoolean keeps true.
    assert_eq!(failover_spec(&config, "H").retry_interval_seconds, 60);
    assert!(config.appender("H").unwrap().ignore_exceptions);
    assert_eq!(
        messages(&config),
        ["Interval -3 is less than zero. Using default"]
    );
}

#[test]
fn failover_without_primary_or_failovers_is_not_created() {
    let config = load(
        r#"<Failover name="NoPrimary"><Failovers><AppenderRef ref="A"/></Failovers></Failover>
<Failover name="NoFailovers" primary="P"/>
<Failover name="EmptyFailovers" primary="P"><Failovers/></Failover>
<Failover name="BadInterval" primary="P" retryIntervalSeconds="soon"><Failovers><AppenderRef ref="A"/></Failovers></Failover>"#,
    );
    assert_messages_include(
        &config,
        &[
            "A primary Appender must be specified",
            "At least one failover Appender must be specified",
            "failovers must contain an appender reference",
            "Could not parse \"soon\" as an integer,  using default value 60: java.lang.NumberFormatException: For input string: \"soon\"",
        ],
    );
    assert!(config.appender("NoPrimary").is_none());
    assert!(config.appender("NoFailovers").is_none());
    assert!(config.appender("EmptyFailovers").is_none());
    assert_eq!(
        failover_spec(&config, "BadInterval").retry_interval_seconds,
        60
    );
}

fn rewrite_spec(config: &Configuration, name: &str) -> l4rs_config::model::RewriteSpec {
    match &config.appender(name).expect("appender bound").kind {
        AppenderKind::Rewrite(spec) => spec.clone(),
        other => panic!("{name}: {other:?}"),
    }
}

#[test]
fn rewrite_binds_refs_and_each_policy() {
    use l4rs_config::model::{MapRewriteMode, RewritePolicySpec};
    use l4rs_core::Level;
    let config = load(
        r#"<Rewrite name="P"><AppenderRef ref="A" level="warn"/>
  <PropertiesRewritePolicy><Property name="k" value="v"/><Property name="late">$${ctx:user}</Property><Property name="k" value="w"/></PropertiesRewritePolicy>
</Rewrite>
<Rewrite name="L"><LoggerNameLevelRewritePolicy logger="com.noisy"><KeyValuePair key="error" value="INFO"/><KeyValuePair key="nope" value="WARN"/></LoggerNameLevelRewritePolicy></Rewrite>
<Rewrite name="M"><MapRewritePolicy mode="Update"><KeyValuePair key="a" value="b"/></MapRewritePolicy><AppenderRef ref="A"/></Rewrite>
<Rewrite name="N"/>"#,
    );
    let p = rewrite_spec(&config, "P");
    assert_eq!(p.appender_refs.len(), 1);
    assert_eq!(p.appender_refs[0].level, Some(Level::WARN));
    assert_eq!(
        p.policy,
        Some(RewritePolicySpec::Properties(vec![
            ("late".to_string(), "${ctx:user}".to_string()),
            ("k".to_string(), "w".to_string()),
        ]))
    );
    assert_eq!(
        rewrite_spec(&config, "L").policy,
        Some(RewritePolicySpec::LoggerNameLevel {
            logger: "com.noisy".to_string(),
            levels: vec![(Level::ERROR, Level::INFO)],
        })
    );
    assert_eq!(
        rewrite_spec(&config, "M").policy,
        Some(RewritePolicySpec::Map {
            mode: MapRewriteMode::Update,
            pairs: vec![("a".to_string(), "b".to_string())],
        })
    );
    let n = rewrite_spec(&config, "N");
    assert!(n.appender_refs.is_empty() && n.policy.is_none());
    assert!(config.appender("N").unwrap().ignore_exceptions);
    // The only report: l4rs says the map policy has nothing to rewrite.
    let messages = messages(&config);
    assert_eq!(messages.len(), 1, "{messages:?}");
    assert!(messages[0].starts_with("MapRewritePolicy rewrites only MapMessages"));
}

#[test]
fn rewrite_problems_are_reported_as_log4j2_reports_them() {
    let config = load(
        r#"<Rewrite><AppenderRef ref="A"/></Rewrite>
<Rewrite name="BadMode"><MapRewritePolicy mode="add"><KeyValuePair key="a" value="b"/></MapRewritePolicy></Rewrite>
<Rewrite name="NoPairs"><MapRewritePolicy/></Rewrite>
<Rewrite name="NoProps"><PropertiesRewritePolicy/></Rewrite>
<Rewrite name="NoLogger"><LoggerNameLevelRewritePolicy/></Rewrite>"#,
    );
    assert_messages_include(
        &config,
        &[
            "No name provided for RewriteAppender",
            "keys and values must be specified for the MapRewritePolicy",
            "Properties must be specified for the PropertiesRewritePolicy",
            "LoggerNameLevelRewritePolicy has no logger attribute",
        ],
    );
    assert_some_message_contains(
        &config,
        "No enum constant org.apache.logging.log4j.core.appender.rewrite.MapRewritePolicy.Mode.add",
    );
    // The appenders stay, without a policy.
    for name in ["BadMode", "NoPairs", "NoProps", "NoLogger"] {
        assert!(rewrite_spec(&config, name).policy.is_none(), "{name}");
    }
}
