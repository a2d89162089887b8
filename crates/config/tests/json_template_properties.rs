//! JsonTemplateLayout takes its defaults from `log4j.layout.jsonTemplate.*` system properties,
//! as log4j2's `JsonTemplateLayoutDefaults` does; attributes still win. (A file of its own:
//! the properties are process-wide.)

use l4rs_config::model::{JsonTemplateLayoutSpec, LayoutSpec};
use l4rs_config::{clear_system_property, load_str, set_system_property};

const PROPERTIES: [(&str, &str); 6] = [
    ("eventTemplateUri", "classpath:GelfLayout.json"),
    ("stackTraceEnabled", "false"),
    ("maxStringLength", "100"),
    ("eventDelimiter", "|"),
    ("timestampFormatPattern", "HH:mm"),
    ("timeZone", "UTC"),
];

fn layout(xml_layout: &str) -> JsonTemplateLayoutSpec {
    let text = format!(
        r#"<Configuration><Appenders><Console name="C">{xml_layout}</Console></Appenders>
<Loggers><Root level="info"/></Loggers></Configuration>"#
    );
    let config = load_str(&text, None).expect("well-formed");
    match &config.appender("C").unwrap().layout {
        Some(LayoutSpec::JsonTemplate(spec)) => spec.clone(),
        other => panic!("not a JsonTemplateLayout: {other:?}"),
    }
}

#[test]
fn system_properties_set_the_defaults_and_attributes_win() {
    for (name, value) in PROPERTIES {
        set_system_property(format!("log4j.layout.jsonTemplate.{name}"), value);
    }
    let from_properties = layout("<JsonTemplateLayout/>");
    let overridden =
        layout(r#"<JsonTemplateLayout maxStringLength="7" stackTraceEnabled="true"/>"#);
    for (name, _) in PROPERTIES {
        clear_system_property(&format!("log4j.layout.jsonTemplate.{name}"));
    }
    assert_eq!(
        from_properties.event_template_uri,
        "classpath:GelfLayout.json"
    );
    assert!(!from_properties.stack_trace_enabled);
    assert_eq!(from_properties.max_string_length, 100);
    assert_eq!(from_properties.event_delimiter, "|");
    assert_eq!(
        from_properties.timestamp_format_pattern.as_deref(),
        Some("HH:mm")
    );
    assert_eq!(from_properties.time_zone.as_deref(), Some("UTC"));
    assert_eq!(overridden.max_string_length, 7);
    assert!(overridden.stack_trace_enabled);
    let after = layout("<JsonTemplateLayout/>");
    assert_eq!(
        JsonTemplateLayoutSpec {
            origin: String::new(),
            ..after
        },
        JsonTemplateLayoutSpec::default()
    );
}
