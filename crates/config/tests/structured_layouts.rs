//! `<JsonLayout>`, `<XmlLayout>`, `<YamlLayout>`, `<SyslogLayout>` and `<Rfc5424Layout>` bind log4j2's attributes with their
//! defaults (JsonLayout keeps its `<KeyValuePair>` fields in order) and report what they cannot
//! use the way PatternLayout does.

use l4rs_config::model::{
    EventTemplateAdditionalField, JsonLayoutSpec, JsonTemplateLayoutSpec, LayoutSpec,
    Rfc5424LayoutSpec, SyslogLayoutSpec,
};
use l4rs_config::Configuration;
use l4rs_core::Level;

mod common;

use common::{assert_no_messages, assert_some_message_contains, load_with, messages};

/// Loads a configuration of `appenders`, with the property `app` set to `orders`.
fn load(appenders: &str) -> Configuration {
    load_with(&[("app", "orders")], appenders)
}

/// The layout of `appender`, which must be kept.
fn layout_spec(config: &Configuration, appender: &str) -> Option<LayoutSpec> {
    config
        .appender(appender)
        .expect("the appender is kept")
        .layout
        .clone()
}

/// Defines `$name(config, appender)`: the spec of `appender`'s layout, which must be a
/// `LayoutSpec::$variant` (the panic says it is not `$what`).
macro_rules! layout_spec_fn {
    ($name:ident, $variant:ident, $spec:ty, $what:literal) => {
        fn $name(config: &Configuration, appender: &str) -> $spec {
            match layout_spec(config, appender) {
                Some(LayoutSpec::$variant(spec)) => spec,
                other => panic!(concat!("not ", $what, ": {:?}"), other),
            }
        }
    };
}

layout_spec_fn!(json_spec, Json, JsonLayoutSpec, "a JsonLayout");
layout_spec_fn!(syslog_spec, Syslog, SyslogLayoutSpec, "a SyslogLayout");
layout_spec_fn!(rfc5424_spec, Rfc5424, Rfc5424LayoutSpec, "an Rfc5424Layout");
layout_spec_fn!(
    template_spec,
    JsonTemplate,
    JsonTemplateLayoutSpec,
    "a JsonTemplateLayout"
);

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
    assert_no_messages(&config);
}

/// The spec of the attributes JsonLayout shares with XmlLayout and YamlLayout as the tests set
/// them (every flag on, `endOfLine="|"`, `includeStacktrace="false"`), the rest default.
fn shared_attributes_spec() -> JsonLayoutSpec {
    JsonLayoutSpec {
        location_info: true,
        properties: true,
        complete: true,
        compact: true,
        event_eol: true,
        end_of_line: Some("|".to_string()),
        include_stacktrace: false,
        stacktrace_as_string: true,
        include_null_delimiter: true,
        include_time_millis: true,
        ..JsonLayoutSpec::default()
    }
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
            properties_as_list: true,
            object_message_as_json_object: true,
            charset: Some("US-ASCII".to_string()),
            additional_fields: vec![
                ("app".to_string(), "orders".to_string()),
                ("user".to_string(), "${ctx:user}".to_string()),
            ],
            header: Some("ignored".to_string()),
            footer: Some("ignored".to_string()),
            ..shared_attributes_spec()
        }
    );
    assert_no_messages(&config);
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

/// The spec of an XmlLayout or YamlLayout appender, with which of the two it is.
fn jackson_spec(config: &Configuration, appender: &str) -> (&'static str, JsonLayoutSpec) {
    match layout_spec(config, appender) {
        Some(LayoutSpec::Xml(spec)) => ("xml", spec),
        Some(LayoutSpec::Yaml(spec)) => ("yaml", spec),
        other => panic!("not an XmlLayout or YamlLayout: {other:?}"),
    }
}

#[test]
fn xml_and_yaml_layouts_bind_the_shared_jackson_attributes() {
    let attributes = r#"locationInfo="true" properties="true" complete="true" compact="true"
        eventEol="true" endOfLine="|" includeStacktrace="false" stacktraceAsString="true"
        includeNullDelimiter="true" includeTimeMillis="true" charset="UTF-16" header="h" footer="f""#;
    let config = load(&format!(
        r#"<Console name="X"><XmlLayout {attributes}><KeyValuePair key="app" value="${{app}}"/></XmlLayout></Console>
        <Console name="Y"><yamllayout {attributes}><KeyValuePair key="app" value="${{app}}"/></yamllayout></Console>
        <Console name="XD"><XmlLayout/></Console><Console name="YD"><YamlLayout/></Console>"#
    ));
    assert_no_messages(&config);
    let expected = JsonLayoutSpec {
        charset: Some("UTF-16".to_string()),
        additional_fields: vec![("app".to_string(), "orders".to_string())],
        header: Some("h".to_string()),
        footer: Some("f".to_string()),
        ..shared_attributes_spec()
    };
    // XmlLayout's constructor drops eventEol.
    let xml = JsonLayoutSpec {
        event_eol: false,
        ..expected.clone()
    };
    assert_eq!(jackson_spec(&config, "X"), ("xml", xml));
    // YamlLayout's footer pattern is rendered at the root logger's level, as PatternLayout's.
    let yaml = JsonLayoutSpec {
        footer_level: Level::INFO,
        ..expected
    };
    assert_eq!(jackson_spec(&config, "Y"), ("yaml", yaml));
    assert_eq!(
        jackson_spec(&config, "XD"),
        ("xml", JsonLayoutSpec::default())
    );
    let yaml_defaults = JsonLayoutSpec {
        footer_level: Level::INFO,
        ..JsonLayoutSpec::default()
    };
    assert_eq!(jackson_spec(&config, "YD"), ("yaml", yaml_defaults));
}

#[test]
fn json_only_attributes_are_invalid_on_xml_and_yaml_layouts() {
    let config = load(
        r#"<Console name="X"><XmlLayout propertiesAsList="true"/></Console>
        <Console name="Y"><YamlLayout objectMessageAsJsonObject="true" properties="true"/></Console>"#,
    );
    assert_eq!(
        messages(&config),
        [
            r#"XmlLayout contains an invalid element or attribute "propertiesAsList""#,
            r#"YamlLayout contains an invalid element or attribute "objectMessageAsJsonObject""#,
        ]
    );
    // The help says what to do, not to check the spelling.
    for diagnostic in &config.diagnostics {
        let help = diagnostic.help.as_deref().unwrap_or_default();
        assert!(
            help.contains("is an attribute of JsonLayout only") && help.ends_with("remove it"),
            "{help}"
        );
    }
    // The layouts are kept, without the attribute.
    assert!(!jackson_spec(&config, "X").1.properties_as_list);
    assert!(jackson_spec(&config, "Y").1.properties);
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
    assert_no_messages(&config);
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
            logger_fields: Vec::new(),
        }
    );
    assert_no_messages(&config);
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

#[test]
fn gelf_defaults_attributes_and_children_are_log4j2s() {
    use l4rs_config::model::{GelfCompression, GelfLayoutSpec};
    let config = load(
        r#"<Console name="D"><GelfLayout/></Console>
<Console name="G"><GelfLayout HOST="${app}" compressionType="zlib" compressionThreshold="10"
    includeStacktrace="false" includeThreadContext="false" threadContextIncludes=" a , b"
    threadContextPrefix="p_" includeNewLineDelimiter="true" omitEmptyFields="true"
    messagePattern="%m%n" includeMapMessage="false" charset="US-ASCII">
  <KeyValuePair key="k" value="$${ctx:user}"/>
</GelfLayout></Console>"#,
    );
    assert_no_messages(&config);
    let Some(LayoutSpec::Gelf(default)) = layout_spec(&config, "D") else {
        panic!("a GelfLayout");
    };
    assert_eq!(default, GelfLayoutSpec::default());
    assert_eq!(default.compression, GelfCompression::Gzip);
    assert_eq!(default.compression_threshold, 1024);
    let Some(LayoutSpec::Gelf(spec)) = layout_spec(&config, "G") else {
        panic!("a GelfLayout");
    };
    assert_eq!(spec.host.as_deref(), Some("orders"));
    assert_eq!(spec.compression, GelfCompression::Zlib);
    assert_eq!(spec.compression_threshold, 10);
    assert!(!spec.include_stacktrace && !spec.include_thread_context);
    assert_eq!(
        spec.thread_context_includes,
        Some(vec!["a".to_string(), "b".to_string()])
    );
    assert_eq!(spec.thread_context_prefix, "p_");
    assert!(spec.include_new_line_delimiter && spec.omit_empty_fields);
    let message = spec.message_layout.expect("messagePattern");
    assert_eq!(message.pattern, "%m%n");
    // log4j2's message PatternLayout writes exceptions only with includeStacktrace.
    assert!(!message.always_write_exceptions);
    assert_eq!(
        spec.additional_fields,
        vec![("k".to_string(), "${ctx:user}".to_string())]
    );
}

#[test]
fn gelf_refuses_a_nul_delimiter_with_compression() {
    let config = load(r#"<Console name="C"><GelfLayout includeNullDelimiter="true"/></Console>"#);
    assert!(layout_spec(&config, "C").is_none(), "the default layout");
    let messages = messages(&config);
    assert!(
        messages[0].ends_with("null delimiter cannot be used with compression java.lang.IllegalArgumentException: null delimiter cannot be used with compression"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("No factory method found"),
        "{messages:?}"
    );
    let plain = load(
        r#"<Console name="C"><GelfLayout includeNullDelimiter="true" compressionType="OFF"/></Console>"#,
    );
    assert!(
        matches!(layout_spec(&plain, "C"), Some(LayoutSpec::Gelf(spec)) if spec.include_null_delimiter)
    );
}

#[test]
fn csv_layouts_bind_commons_csv_attributes() {
    use l4rs_config::model::{CsvLayoutKind, CsvLayoutSpec, CsvQuoteMode};
    let config = load(
        r#"<Console name="E"><CsvLogEventLayout/></Console>
<Console name="P"><CsvParameterLayout format="MySQL" delimiter=";" escape="^" quote="'"
    quoteMode="non_numeric" nullString="NULL" recordSeparator="|" charset="ISO-8859-1"
    header="h%n" footer="f%n"/></Console>
<Console name="Bad"><CsvLogEventLayout format="mysql"/></Console>
<Console name="Chars"><CsvLogEventLayout delimiter="ab"/></Console>"#,
    );
    let Some(LayoutSpec::Csv(default)) = layout_spec(&config, "E") else {
        panic!("a CSV layout");
    };
    let mut expected = CsvLayoutSpec::new(CsvLayoutKind::LogEvent);
    // The header and footer levels come from the loggers, as for PatternLayout.
    expected.text.header_level = default.text.header_level;
    expected.text.footer_level = default.text.footer_level;
    assert_eq!(default, expected);
    assert_eq!(default.text.footer_level, l4rs_core::Level::INFO);
    let Some(LayoutSpec::Csv(spec)) = layout_spec(&config, "P") else {
        panic!("a CSV layout");
    };
    assert_eq!(spec.kind, CsvLayoutKind::Parameter);
    assert_eq!(spec.format, "MySQL");
    assert_eq!(
        (spec.delimiter, spec.escape, spec.quote),
        (Some(';'), Some('^'), Some('\''))
    );
    assert_eq!(spec.quote_mode, Some(CsvQuoteMode::NonNumeric));
    assert_eq!(spec.null_string.as_deref(), Some("NULL"));
    assert_eq!(spec.record_separator.as_deref(), Some("|"));
    assert_eq!(spec.text.charset.as_deref(), Some("ISO-8859-1"));
    assert_eq!(spec.text.header.as_deref(), Some("h%n"));
    assert_eq!(spec.text.footer.as_deref(), Some("f%n"));
    // Format names are case-sensitive in commons-csv: the layout is not created.
    assert!(layout_spec(&config, "Bad").is_none());
    assert_some_message_contains(
        &config,
        "No enum constant org.apache.commons.csv.CSVFormat.Predefined.mysql",
    );
    assert_some_message_contains(&config, "Character string must be of length 1: ab");
    assert!(
        matches!(layout_spec(&config, "Chars"), Some(LayoutSpec::Csv(spec)) if spec.delimiter.is_none())
    );
}

#[test]
fn rfc5424_logger_fields_and_mdc_required_bind() {
    let config = load(
        r#"<Console name="C"><Rfc5424Layout mdcRequired="user, trace">
  <LoggerFields sdId="origin" enterpriseId="1" discardIfAllFieldsAreEmpty="true">
    <KeyValuePair key="logger" value="%c"/><KeyValuePair key="level" value="%p"/>
  </LoggerFields>
  <LoggerFields><KeyValuePair key="m" value="%m"/></LoggerFields>
</Rfc5424Layout></Console>"#,
    );
    assert_no_messages(&config);
    let spec = rfc5424_spec(&config, "C");
    assert_eq!(spec.mdc_required, ["user", "trace"]);
    assert_eq!(spec.logger_fields.len(), 2);
    let origin = &spec.logger_fields[0];
    assert_eq!(origin.sd_id.as_deref(), Some("origin"));
    assert_eq!(origin.enterprise_id.as_deref(), Some("1"));
    assert!(origin.discard_if_all_fields_are_empty);
    assert_eq!(
        origin.fields,
        [
            ("logger".to_string(), "%c".to_string()),
            ("level".to_string(), "%p".to_string())
        ]
    );
    assert_eq!(spec.logger_fields[1].sd_id, None);
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
    assert_some_message_contains(
        &config,
        r#"JsonTemplateLayout contains an invalid element or attribute "colour""#,
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
