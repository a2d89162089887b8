//! `ThreadContextMapFilter` (and its alias `ContextMapFilter`), `MapFilter`,
//! `StructuredDataFilter` and `TimeFilter`, bound with
//! log4j2's attributes, defaults and messages.

mod common;

use common::{assert_no_messages, assert_some_message_contains, load_with};
use l4rs_config::model::{FilterSpec, FilterVerdicts};
use l4rs_config::Configuration;
use l4rs_core::FilterResult;

/// The filter of the appender `name` in `config`.
fn filter_of(config: &Configuration, name: &str) -> Option<FilterSpec> {
    config
        .appender(name)
        .expect("the appender is built")
        .filter
        .clone()
}

fn strings(values: &[&str]) -> Vec<String> {
    values.iter().map(|value| value.to_string()).collect()
}

#[test]
fn context_map_pairs_are_grouped_by_key_in_document_order() {
    let config = load_with(
        &[],
        r#"<Console name="C"><ContextMapFilter operator="Or" onMatch="ACCEPT">
  <KeyValuePair key="tenant" value="gold"/>
  <KeyValuePair key="region" value="eu"/>
  <KeyValuePair key="tenant" value="silver"/>
</ContextMapFilter></Console>
<Console name="D"><ThreadContextMapFilter operator="xor"><KeyValuePair key="user" value=""/></ThreadContextMapFilter></Console>"#,
    );
    assert_no_messages(&config);
    assert_eq!(
        filter_of(&config, "C"),
        Some(FilterSpec::ThreadContextMap {
            pairs: vec![
                ("tenant".to_string(), strings(&["gold", "silver"])),
                ("region".to_string(), strings(&["eu"])),
            ],
            any: true,
            verdicts: FilterVerdicts {
                on_match: FilterResult::Accept,
                on_mismatch: FilterResult::Deny,
            },
        })
    );
    // Any word but "or" means "and"; an empty value is a value.
    assert_eq!(
        filter_of(&config, "D"),
        Some(FilterSpec::ThreadContextMap {
            pairs: vec![("user".to_string(), strings(&[""]))],
            any: false,
            verdicts: FilterVerdicts::default(),
        })
    );
}

#[test]
fn context_map_pairs_without_key_or_value_are_left_out_as_log4j2_leaves_them() {
    let config = load_with(
        &[],
        r#"<Console name="C"><ThreadContextMapFilter>
  <KeyValuePair value="gold"/>
  <KeyValuePair key="tenant"/>
  <KeyValuePair key="region" value="eu"/>
</ThreadContextMapFilter></Console>
<Console name="D"><ThreadContextMapFilter><KeyValuePair key="tenant"/></ThreadContextMapFilter></Console>
<Console name="E"><ThreadContextMapFilter/></Console>"#,
    );
    assert_some_message_contains(&config, "A null key is not valid in MapFilter");
    assert_some_message_contains(
        &config,
        "A null value for key tenant is not allowed in MapFilter",
    );
    assert_some_message_contains(
        &config,
        "ThreadContextMapFilter is not configured with any valid key value pairs",
    );
    assert_some_message_contains(
        &config,
        "key and value pairs must be specified for the ThreadContextMapFilter",
    );
    assert!(matches!(
        filter_of(&config, "C"),
        Some(FilterSpec::ThreadContextMap { pairs, .. }) if pairs == vec![("region".to_string(), strings(&["eu"]))]
    ));
    assert_eq!(filter_of(&config, "D"), None);
    assert_eq!(filter_of(&config, "E"), None);
}

#[test]
fn time_filter_reads_times_and_zones_as_java_does() {
    let config = load_with(
        &[],
        r#"<Console name="C"><TimeFilter start="09:30:15" end="24:00:00" timezone="GMT+05:30"/></Console>
<Console name="D"><TimeFilter/></Console>"#,
    );
    assert_no_messages(&config);
    let Some(FilterSpec::Time {
        start_second,
        end_second,
        zone: Some(zone),
        verdicts,
    }) = filter_of(&config, "C")
    else {
        panic!("C has no TimeFilter with a zone");
    };
    assert_eq!(
        (start_second, end_second),
        (9 * 3600 + 30 * 60 + 15, Some(0))
    );
    assert_eq!(
        zone.to_offset(jiff::Timestamp::UNIX_EPOCH).seconds(),
        19_800
    );
    assert_eq!(verdicts, FilterVerdicts::default());
    assert_eq!(
        filter_of(&config, "D"),
        Some(FilterSpec::Time {
            start_second: 0,
            end_second: None,
            zone: None,
            verdicts: FilterVerdicts::default(),
        })
    );
}

#[test]
fn time_filter_defaults_a_time_it_cannot_read_and_drops_a_zone_it_cannot_read() {
    let config = load_with(
        &[],
        r#"<Console name="C"><TimeFilter start="9:00:00" end="10:00"/></Console>
<Console name="D"><TimeFilter timezone="europe/paris"/></Console>"#,
    );
    assert_some_message_contains(
        &config,
        "Error parsing TimeFilter timestamp value 9:00:00 java.time.format.DateTimeParseException: Text '9:00:00' could not be parsed at index 0",
    );
    assert_some_message_contains(&config, "Text '10:00' could not be parsed at index 5");
    assert!(matches!(
        filter_of(&config, "C"),
        Some(FilterSpec::Time {
            start_second: 0,
            end_second: None,
            ..
        })
    ));
    assert_some_message_contains(
        &config,
        "Unable to invoke factory method in class org.apache.logging.log4j.core.filter.TimeFilter for element TimeFilter: java.time.zone.ZoneRulesException: Unknown time-zone ID: europe/paris",
    );
    assert_eq!(filter_of(&config, "D"), None);
}

#[test]
fn map_filters_bind_their_pairs_and_report_a_failed_one_in_filters() {
    let config = load_with(
        &[],
        r#"<Console name="C"><StructuredDataFilter operator="OR"><KeyValuePair key="id.name" value="Audit"/></StructuredDataFilter></Console>
<Console name="D"><Filters><MapFilter/><ThresholdFilter level="warn"/></Filters></Console>"#,
    );
    assert_eq!(
        filter_of(&config, "C"),
        Some(FilterSpec::MessageMap {
            structured_data: true,
            pairs: vec![("id.name".to_string(), strings(&["Audit"]))],
            any: true,
            verdicts: FilterVerdicts::default(),
        })
    );
    assert_some_message_contains(
        &config,
        "keys and values must be specified for the MapFilter",
    );
    // log4j2 reports the filter its factory did not return, as an element of <Filters>.
    assert_some_message_contains(&config, "Null object returned for MapFilter in Filters.");
    assert!(matches!(
        filter_of(&config, "D"),
        Some(FilterSpec::Composite(children)) if children.len() == 1
    ));
}

/// `MutableThreadContextMapFilter` (and its alias): the file read when the configuration is
/// loaded, with log4j2 2.19's messages as its oracle printed them for the same files (the
/// decisions are compared with log4j2's by crates/filter/src/mutable_thread_context_map.rs;
/// the scenario format cannot run it: log4j2 fails to stop a filter that does not poll).
#[test]
fn mutable_context_map_files_are_read_with_log4j2s_messages() {
    let dir = l4rs_test_support::TempDir::new("mutable-context-map-config");
    let write = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("write");
        path.display().to_string()
    };
    let users = write("users.json", r#"{"configs": {"user": ["alice", null]}}"#);
    let null = write("null.json", "null");
    let empty = write("empty.json", r#"{"configs": {}}"#);
    let config = load_with(
        &[],
        &format!(
            r#"<Console name="U"><MutableThreadContextMapFilter configLocation="file:{users}" pollInterval="5" onMatch="ACCEPT"/></Console>
<Console name="N"><MutableContextMapFilter configLocation="{null}"/></Console>
<Console name="E"><MutableThreadContextMapFilter configLocation="{empty}"/></Console>
<Console name="M"><MutableThreadContextMapFilter configLocation="{missing}/none.json"/></Console>
<Console name="X"><MutableThreadContextMapFilter foo="1"/></Console>
<Console name="H"><MutableThreadContextMapFilter configLocation="https://config.example/pairs.json"/></Console>"#,
            missing = dir.path().display()
        ),
    );
    let class = "org.apache.logging.log4j.core.filter.MutableThreadContextMapFilter";
    assert_eq!(
        common::messages(&config),
        [
            "Ignoring null value for user".to_string(),
            "No configs element in MutableThreadContextMapFilter configuration".to_string(),
            "Unexpected response returned on initial call: ERROR".to_string(),
            "MutableThreadContextMapFilter contains an invalid element or attribute \"foo\"".to_string(),
            format!("Could not create plugin of type class {class} for element MutableThreadContextMapFilter: java.lang.NullPointerException java.lang.NullPointerException"),
            format!("Unable to invoke factory method in class {class} for element MutableThreadContextMapFilter: java.lang.IllegalStateException: No factory method found for class {class} java.lang.IllegalStateException: No factory method found for class {class}"),
            "MutableThreadContextMapFilter configLocation=\"https://config.example/pairs.json\" is not a file: l4rs reads the pairs from a file only; the filter is not created".to_string(),
        ]
    );
    let Some(FilterSpec::MutableThreadContextMap(spec)) = filter_of(&config, "U") else {
        panic!("{:?}", filter_of(&config, "U"))
    };
    assert_eq!(spec.poll_seconds, 5);
    assert_eq!(
        spec.initial,
        Some(vec![("user".to_string(), strings(&["alice"]))])
    );
    assert_eq!(spec.verdicts.on_match, FilterResult::Accept);
    for name in ["N", "E", "M"] {
        assert!(
            matches!(
                filter_of(&config, name),
                Some(FilterSpec::MutableThreadContextMap(spec)) if spec.initial.is_none()
            ),
            "{name}: {:?}",
            filter_of(&config, name)
        );
    }
    assert_eq!(filter_of(&config, "X"), None);
    assert_eq!(filter_of(&config, "H"), None);
}
