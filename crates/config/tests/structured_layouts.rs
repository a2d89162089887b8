//! `<JsonLayout>`, `<SyslogLayout>` and `<Rfc5424Layout>` bind log4j2's attributes with their
//! defaults (JsonLayout keeps its `<KeyValuePair>` fields in order) and report what they cannot
//! use the way PatternLayout does.

use l4rs_config::model::{
    EventTemplateAdditionalField, JsonLayoutSpec, JsonTemplateLayoutSpec, LayoutSpec,
    Rfc5424LayoutSpec, SyslogLayoutSpec,
};
use l4rs_config::{load_str, Configuration};

fn load(appenders: &str) -> Configuration {
    let text = format!(
        r#"<Configuration><Properties><Property name="app">orders</Property></Properties>
<Appenders>{appenders}</Appenders><Loggers><Root level="info"/></Loggers></Configuration>"#
    );
    load_str(&text, None).expect("well-formed")
}

fn json_spec(config: &Configuration, appender: &str) -> JsonLayoutSpec {
    match &config
        .appender(appender)
        .expect("the appender is kept")
        .layout
    {
        Some(LayoutSpec::Json(spec)) => spec.clone(),
        other => panic!("not a JsonLayout: {other:?}"),
    }
}

fn messages(config: &Configuration) -> Vec<String> {
    config
        .diagnostics
        .iter()
        .map(|d| d.message.clone())
        .collect()
}

#[test]
fn defaults_are_log4j2s() {
    let config = load(r#"<Console name="C"><JsonLayout/></Console>"#);
    assert_eq!(json_spec(&config, "C"), JsonLayoutSpec::default());
    let defaults = JsonLayoutSpec::default();
    assert!(
        defaults.include_stacktrace,
        "includeStacktrace defaults to true"
    );
    assert!(!defaults.compact && !defaults.complete && !defaults.properties);
    assert!(messages(&config).is_empty(), "{:?}", messages(&config));
}

#[test]
fn every_attribute_binds_case_insensitively() {
    let config = load(
        r#"<Console name="C"><jsonlayout LOCATIONINFO="true" properties="TRUE" propertiesAsList="true"
        complete="true" compact="true" eventEol="true" endOfLine="|" includeStacktrace="false"
        stacktraceAsString="true" includeNullDelimiter="true" includeTimeMillis="true"
        objectMessageAsJsonObject="true" charset="US-ASCII" header="ignored" footer="ignored">
          <KeyValuePair key="app" value="${app}"/>
          <keyvaluepair key="user" value="$${ctx:user}"/>
        </jsonlayout></Console>"#,
    );
    let spec = json_spec(&config, "C");
    assert_eq!(
        spec,
        JsonLayoutSpec {
            location_info: true,
            properties: true,
            properties_as_list: true,
            complete: true,
            compact: true,
            event_eol: true,
            end_of_line: Some("|".to_string()),
            include_stacktrace: false,
            stacktrace_as_string: true,
            include_null_delimiter: true,
            include_time_millis: true,
            object_message_as_json_object: true,
            charset: Some("US-ASCII".to_string()),
            additional_fields: vec![
                ("app".to_string(), "orders".to_string()),
                ("user".to_string(), "${ctx:user}".to_string()),
            ],
        }
    );
    assert!(messages(&config).is_empty(), "{:?}", messages(&config));
}

#[test]
fn unknown_attributes_children_and_half_pairs_are_reported() {
    let config = load(
        r#"<Console name="C"><JsonLayout bogus="1" pattern="%m"><KeyValuePair key="k"/>
        <KeyValuePair value="v"/><Replace regex="a" replacement="b"/>
        <KeyValuePair key="kept" value="yes" extra="x"/></JsonLayout></Console>
        <Console name="D"><JsonLayout charset="no-such-charset"/></Console>"#,
    );
    let messages = messages(&config);
    let has = |text: &str| messages.iter().any(|m| m.contains(text));
    assert!(
        has(r#"JsonLayout contains invalid attributes "bogus", "pattern""#),
        "{messages:?}"
    );
    assert!(has("'value' is missing"), "{messages:?}");
    assert!(has("'key' is missing"), "{messages:?}");
    assert!(
        has(r#"KeyValuePair contains an invalid element or attribute "extra""#),
        "{messages:?}"
    );
    assert!(has("Replace"), "the unusable child is named: {messages:?}");
    assert!(has("no-such-charset"), "{messages:?}");
    assert_eq!(
        json_spec(&config, "C").additional_fields,
        [("kept".to_string(), "yes".to_string())]
    );
    assert_eq!(json_spec(&config, "D").charset, None);
}

fn syslog_spec(config: &Configuration, appender: &str) -> SyslogLayoutSpec {
    match &config
        .appender(appender)
        .expect("the appender is kept")
        .layout
    {
        Some(LayoutSpec::Syslog(spec)) => spec.clone(),
        other => panic!("not a SyslogLayout: {other:?}"),
    }
}

#[test]
fn syslog_defaults_and_attributes_are_log4j2s() {
    let config = load(
        r#"<Console name="D"><SyslogLayout/></Console>
        <Console name="C"><syslogLayout FACILITY="local3" newLine="true" newLineEscape="\n"
          charset="US-ASCII" header="ignored"/></Console>"#,
    );
    let defaults = syslog_spec(&config, "D");
    assert_eq!(defaults, SyslogLayoutSpec::default());
    assert_eq!(defaults.facility, 16, "LOCAL0");
    assert_eq!(
        syslog_spec(&config, "C"),
        SyslogLayoutSpec {
            facility: 19,
            new_line: true,
            new_line_escape: Some("\\n".to_string()),
            charset: Some("US-ASCII".to_string()),
        }
    );
    assert!(messages(&config).is_empty(), "{:?}", messages(&config));
}

#[test]
fn syslog_unknown_facility_warns_and_keeps_local0() {
    let config = load(r#"<Console name="C"><SyslogLayout facility="nope" bogus="1"/></Console>"#);
    assert_eq!(syslog_spec(&config, "C").facility, 16);
    let messages = messages(&config);
    assert!(
        messages.iter().any(|m| m.starts_with(
            "Error while converting string [nope] to type [class org.apache.logging.log4j.core.net.Facility]. Using default value [null]. java.lang.IllegalArgumentException: No enum constant org.apache.logging.log4j.core.net.Facility.NOPE"
        )),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m
                .starts_with(r#"SyslogLayout contains an invalid element or attribute "bogus""#)),
        "{messages:?}"
    );
}

fn rfc5424_spec(config: &Configuration, appender: &str) -> Rfc5424LayoutSpec {
    match &config
        .appender(appender)
        .expect("the appender is kept")
        .layout
    {
        Some(LayoutSpec::Rfc5424(spec)) => spec.clone(),
        other => panic!("not an Rfc5424Layout: {other:?}"),
    }
}

#[test]
fn rfc5424_defaults_and_attributes_are_log4j2s() {
    let config = load(
        r#"<Console name="D"><Rfc5424Layout/></Console>
        <Console name="C"><Rfc5424Layout facility="AUTH" id="App" enterpriseNumber="18060"
          includeMDC="false" mdcId="ctx" mdcPrefix="p_" eventPrefix="e_" newLine="true"
          newLineEscape="|" appName="${app}" messageId="Audit" mdcExcludes=" a, b ,,"
          mdcRequired="r" exceptionPattern="%ex{short}" useTlsMessageFormat="true"/></Console>"#,
    );
    let defaults = rfc5424_spec(&config, "D");
    assert_eq!(defaults, Rfc5424LayoutSpec::default());
    assert!(
        defaults.include_mdc && defaults.mdc_id == "mdc" && defaults.enterprise_number == 32473
    );
    assert_eq!(
        rfc5424_spec(&config, "C"),
        Rfc5424LayoutSpec {
            facility: 4,
            id: Some("App".into()),
            enterprise_number: 18060,
            include_mdc: false,
            mdc_id: "ctx".into(),
            mdc_prefix: Some("p_".into()),
            event_prefix: Some("e_".into()),
            new_line: true,
            new_line_escape: Some("|".into()),
            app_name: Some("orders".into()),
            message_id: Some("Audit".into()),
            mdc_excludes: vec!["a".into(), "b".into()],
            mdc_includes: Vec::new(),
            mdc_required: vec!["r".into()],
            exception_pattern: Some("%ex{short}".into()),
            use_tls_message_format: true,
        }
    );
    assert!(messages(&config).is_empty(), "{:?}", messages(&config));
}

#[test]
fn rfc5424_reports_what_log4j2_reports() {
    let config = load(
        r#"<Console name="C"><Rfc5424Layout charset="UTF-8" header="h" enterpriseNumber="1.2"
          mdcIncludes="a" mdcExcludes="b"/></Console>"#,
    );
    let messages = messages(&config);
    let has = |text: &str| messages.iter().any(|m| m.starts_with(text));
    assert!(
        has(r#"Rfc5424Layout contains invalid attributes "charset", "header""#),
        "{messages:?}"
    );
    assert!(
        has(
            r#"Error while converting string [1.2] to type [int]. Using default value [32473]. java.lang.NumberFormatException: For input string: "1.2""#
        ),
        "{messages:?}"
    );
    assert!(
        has("mdcIncludes and mdcExcludes are mutually exclusive. Includes wil be ignored"),
        "{messages:?}"
    );
    let spec = rfc5424_spec(&config, "C");
    assert_eq!(spec.enterprise_number, 32473);
    assert!(spec.mdc_includes.is_empty());
    assert_eq!(spec.mdc_excludes, ["b"]);
}

fn template_spec(config: &Configuration, appender: &str) -> JsonTemplateLayoutSpec {
    match &config
        .appender(appender)
        .expect("the appender is kept")
        .layout
    {
        Some(LayoutSpec::JsonTemplate(spec)) => spec.clone(),
        other => panic!("not a JsonTemplateLayout: {other:?}"),
    }
}

#[test]
fn json_template_layout_binds_every_attribute_and_additional_field() {
    let config = load(r#"<Console name="D"><JsonTemplateLayout/></Console>"#);
    let defaults = JsonTemplateLayoutSpec::default();
    let bound = template_spec(&config, "D");
    assert_eq!(bound.event_template_uri, "classpath:EcsLayout.json");
    assert_eq!(
        JsonTemplateLayoutSpec {
            origin: defaults.origin.clone(),
            ..bound.clone()
        },
        defaults
    );
    assert_eq!(bound.origin, "line 2:30");
    let config = load(
        r#"<Console name="C"><JsonTemplateLayout charset="ISO-8859-1" locationInfoEnabled="true"
  stackTraceEnabled="false" eventTemplate='{"a":"${app}"}' eventTemplateUri="file:/t.json"
  eventTemplateRootObjectKey="event" stackTraceElementTemplate="{}"
  stackTraceElementTemplateUri="file:/s.json" eventDelimiter="|" nullEventDelimiterEnabled="true"
  maxStringLength="64" truncatedStringSuffix="..." recyclerFactory="threadLocal">
  <EventTemplateAdditionalField key="service" value="${app}"/>
  <EventTemplateAdditionalField key="n" value="1" format="JSON"/>
</JsonTemplateLayout></Console>"#,
    );
    assert_eq!(messages(&config), Vec::<String>::new());
    let spec = template_spec(&config, "C");
    assert_eq!(
        spec,
        JsonTemplateLayoutSpec {
            charset: Some("ISO-8859-1".into()),
            location_info_enabled: true,
            stack_trace_enabled: false,
            event_template: Some(r#"{"a":"orders"}"#.into()),
            event_template_uri: "file:/t.json".into(),
            event_template_root_object_key: Some("event".into()),
            additional_fields: vec![
                EventTemplateAdditionalField {
                    key: "service".into(),
                    value: "orders".into(),
                    json: false,
                },
                EventTemplateAdditionalField {
                    key: "n".into(),
                    value: "1".into(),
                    json: true,
                },
            ],
            stack_trace_element_template: Some("{}".into()),
            stack_trace_element_template_uri: "file:/s.json".into(),
            event_delimiter: "|".into(),
            null_event_delimiter_enabled: true,
            max_string_length: 64,
            truncated_string_suffix: "...".into(),
            recycler_factory: Some("threadLocal".into()),
            timestamp_format_pattern: None,
            time_zone: None,
            origin: spec.origin.clone(),
        }
    );
}

#[test]
fn json_template_layout_reports_blank_fields_and_bad_recyclers() {
    let config = load(
        r#"<Console name="C"><JsonTemplateLayout recyclerFactory="pool" colour="x">
  <EventTemplateAdditionalField key="k"/>
</JsonTemplateLayout></Console>"#,
    );
    let messages = messages(&config);
    assert!(
        messages.iter().any(|m| m.ends_with("JsonTemplateLayout$EventTemplateAdditionalField for element EventTemplateAdditionalField: java.lang.IllegalArgumentException: blank value")),
        "{messages:?}"
    );
    assert!(
        messages.iter().any(|m| m
            .contains(r#"JsonTemplateLayout contains an invalid element or attribute "colour""#)),
        "{messages:?}"
    );
    assert!(
        messages
            .iter()
            .any(|m| m == "invalid recycler factory: pool; the default is used"),
        "{messages:?}"
    );
    let spec = template_spec(&config, "C");
    assert!(spec.additional_fields.is_empty() && spec.recycler_factory.is_none());
}
