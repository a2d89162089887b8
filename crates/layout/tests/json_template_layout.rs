//! JsonTemplateLayout against the expected outputs of log4j2 2.24.3's own tests
//! (log4j-layout-template-json-test; each case names the upstream test it comes from), the
//! ECS logging specification's required fields for the bundled EcsLayout, JSON validity (every
//! line parses with serde_json and re-serialises to the same value), template errors, and
//! steady-state formatting without allocation.

mod common;

use std::sync::Arc;

use common::{assert_warm_formatting_allocates_nothing, OwnedEvent};
use l4rs_config::model::{EventTemplateAdditionalField, JsonTemplateLayoutSpec};
use l4rs_core::{Layout, Level, Marker, StackFrame, Throwable, Timestamp};
use l4rs_layout::{JsonTemplateLayout, LayoutContext};
use l4rs_test_support::allocations::{self, CountingAllocator};
use serde_json::{json, Value};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

fn spec(template: &str) -> JsonTemplateLayoutSpec {
    JsonTemplateLayoutSpec {
        event_template: Some(template.to_string()),
        ..JsonTemplateLayoutSpec::default()
    }
}

fn build(spec: &JsonTemplateLayoutSpec) -> JsonTemplateLayout {
    JsonTemplateLayout::new(spec, LayoutContext::default()).unwrap_or_else(|e| panic!("{e}"))
}

fn text(layout: &JsonTemplateLayout, event: &OwnedEvent) -> String {
    let mut out = String::new();
    layout.format(&event.as_event(), &mut out);
    out
}

/// Formats `event`, checks that the line is one JSON value ending in the default delimiter
/// and that it round-trips through serde_json, and returns the value.
fn json_of(layout: &JsonTemplateLayout, event: &OwnedEvent) -> Value {
    let line = text(layout, event);
    let body = line
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("no delimiter: {line:?}"));
    let value: Value =
        serde_json::from_str(body).unwrap_or_else(|e| panic!("not JSON ({e}): {body:?}"));
    let again: Value = serde_json::from_str(&value.to_string()).unwrap();
    assert_eq!(again, value, "round trip of {body}");
    value
}

fn event_with_error() -> OwnedEvent {
    let mut event = OwnedEvent::reference();
    event.throwable = Some(common::exception_e());
    event
}

#[test]
fn test_inline_template_writes_literals_and_resolvers() {
    // JsonTemplateLayoutTest.test_inline_template: literals as given, the message resolved.
    let layout = build(&spec(
        r#"{"version":"1.0","n":12,"b":true,"list":["a",1,null,{}],"message":{"$resolver":"message"}}"#,
    ));
    assert_eq!(
        text(&layout, &OwnedEvent::reference()),
        "{\"version\":\"1.0\",\"n\":12,\"b\":true,\"list\":[\"a\",1,null,{}],\"message\":\"Hello, world\"}\n"
    );
}

#[test]
fn test_null_event_delimiter() {
    // JsonTemplateLayoutTest.test_null_eventDelimiter: the template back, then the delimiter.
    let layout = build(&JsonTemplateLayoutSpec {
        event_delimiter: "\0".into(),
        ..spec(r#"{"key":"val"}"#)
    });
    assert_eq!(
        text(&layout, &OwnedEvent::reference()),
        "{\"key\":\"val\"}\0"
    );
    // JsonTemplateLayoutNullEventDelimiterTest: nullEventDelimiterEnabled adds NUL after it.
    let layout = build(&JsonTemplateLayoutSpec {
        null_event_delimiter_enabled: true,
        ..spec(r#"{"key":"val"}"#)
    });
    assert_eq!(
        text(&layout, &OwnedEvent::reference()),
        "{\"key\":\"val\"}\n\0"
    );
}

#[test]
fn test_max_string_length_cuts_values_and_keys() {
    // JsonTemplateLayoutTest.test_maxStringLength.
    let key = format!("{}K", "k".repeat(30));
    let value = format!("{}V", "v".repeat(30));
    let template = json!({
        "message": {"$resolver": "message"},
        key.clone(): value,
        "nullValueKey": {"$resolver": "exception", "field": "message"},
    });
    let layout = build(&JsonTemplateLayoutSpec {
        max_string_length: 30,
        ..spec(&template.to_string())
    });
    let mut event = OwnedEvent::reference();
    event.message = format!("{}M", "m".repeat(30));
    event.throwable = Some(Throwable::new("java.lang.RuntimeException"));
    let out = json_of(&layout, &event);
    assert_eq!(out["message"], format!("{}…", "m".repeat(30)));
    assert_eq!(
        out[format!("{}…", "k".repeat(30))],
        format!("{}…", "v".repeat(30))
    );
    assert_eq!(out["nullValueKey"], Value::Null);
    assert!(out.get("nullValueKey").is_some());
}

#[test]
fn test_timestamp_epoch_resolvers() {
    // JsonTemplateLayoutTest.test_timestamp_epoch_resolvers, both cases.
    // Written out (not `json!`, which sorts keys) so that the members keep this order.
    let template = r#"{"epochSecs":{"$resolver":"timestamp","epoch":{"unit":"secs"}},"epochSecsRounded":{"$resolver":"timestamp","epoch":{"unit":"secs","rounded":true}},"epochSecsNanos":{"$resolver":"timestamp","epoch":{"unit":"secs.nanos"}},"epochMillis":{"$resolver":"timestamp","epoch":{"unit":"millis"}},"epochMillisRounded":{"$resolver":"timestamp","epoch":{"unit":"millis","rounded":true}},"epochMillisNanos":{"$resolver":"timestamp","epoch":{"unit":"millis.nanos"}},"epochNanos":{"$resolver":"timestamp","epoch":{"unit":"nanos"}}}"#;
    let layout = build(&spec(template));
    for (secs, nanos, expected) in [
        (
            1_581_082_727_i64,
            982_123_456_u32,
            r#"{"epochSecs":1581082727.982123456,"epochSecsRounded":1581082727,"epochSecsNanos":982123456,"epochMillis":1581082727982.123456,"epochMillisRounded":1581082727982,"epochMillisNanos":123456,"epochNanos":1581082727982123456}"#,
        ),
        (
            1_591_177_590,
            5_000_001,
            r#"{"epochSecs":1591177590.005000001,"epochSecsRounded":1591177590,"epochSecsNanos":5000001,"epochMillis":1591177590005.000001,"epochMillisRounded":1591177590005,"epochMillisNanos":1,"epochNanos":1591177590005000001}"#,
        ),
    ] {
        let mut event = OwnedEvent::reference();
        event.timestamp = Timestamp {
            epoch_millis: secs * 1000 + i64::from(nanos / 1_000_000),
            nano_of_milli: nanos % 1_000_000,
        };
        assert_eq!(text(&layout, &event), format!("{expected}\n"));
    }
}

#[test]
fn test_timestamp_pattern_resolver() {
    // JsonTemplateLayoutTest.test_timestamp_pattern_resolver.
    let layout = build(&spec(
        r#"{"timestamp":{"$resolver":"timestamp","pattern":{"format":"yyyy-MM-dd'T'HH:mm:ss'Z'","timeZone":"UTC"}}}"#,
    ));
    for (millis, expected) in [
        (1_546_421_651_000, "2019-01-02T09:34:11Z"),
        (1_546_421_652_000, "2019-01-02T09:34:12Z"),
        (1_546_421_652_000, "2019-01-02T09:34:12Z"),
        (1_546_421_653_000, "2019-01-02T09:34:13Z"),
    ] {
        let mut event = OwnedEvent::reference();
        event.timestamp = Timestamp::from_millis(millis);
        assert_eq!(json_of(&layout, &event)["timestamp"], expected);
    }
}

#[test]
fn timestamp_patterns_are_java_time_patterns() {
    // log4j2 2.24's InstantFormatter keeps its fast formatters only where they print what
    // java.time's DateTimeFormatter.ofPattern prints, so these are DateTimeFormatter's
    // meanings: `ZZZ` is `+0100`, `S…` the truncated fraction, `ZZZZZ` `Z` at UTC.
    let layout = build(&spec(
        r#"{"default":{"$resolver":"timestamp","pattern":{"format":"yyyy-MM-dd'T'HH:mm:ss.SSSZZZ","timeZone":"Europe/Paris"}},"micros":{"$resolver":"timestamp","pattern":{"format":"HH:mm:ss.SSSSSSZZZZZ","timeZone":"UTC"}},"year":{"$resolver":"timestamp","pattern":{"format":"uuuu EEE MMM","timeZone":"UTC"}}}"#,
    ));
    let mut event = OwnedEvent::reference();
    event.timestamp = Timestamp {
        epoch_millis: 1_351_866_842_781,
        nano_of_milli: 123_456,
    };
    assert_eq!(
        json_of(&layout, &event),
        json!({"default": "2012-11-02T15:34:02.781+0100", "micros": "14:34:02.781123Z", "year": "2012 Fri Nov"})
    );
    let unsupported = JsonTemplateLayout::new(
        &spec(r#"{"t":{"$resolver":"timestamp","pattern":{"format":"yyyy QQQ"}}}"#),
        LayoutContext::default(),
    )
    .unwrap_err();
    assert!(
        unsupported.contains("the pattern letters QQQ are not supported by l4rs"),
        "{unsupported}"
    );
}

#[test]
fn test_level_severity() {
    // JsonTemplateLayoutTest.test_level_severity, with log4j2's Severity.getSeverity table.
    let layout = build(&spec(
        r#"{"severityKeyword":{"$resolver":"level","field":"severity","severity":{"field":"keyword"}},"severityCode":{"$resolver":"level","field":"severity","severity":{"field":"code"}},"name":{"$resolver":"level","field":"name"}}"#,
    ));
    for (level, keyword, code) in [
        (Level::OFF, "EMERG", 0),
        (Level::FATAL, "ALERT", 1),
        (Level::ERROR, "ERROR", 3),
        (Level::WARN, "WARNING", 4),
        (Level::INFO, "INFO", 6),
        (Level::DEBUG, "DEBUG", 7),
        (Level::TRACE, "DEBUG", 7),
        (Level::ALL, "DEBUG", 7),
    ] {
        let mut event = OwnedEvent::reference();
        event.level = level;
        let out = json_of(&layout, &event);
        assert_eq!(out["severityKeyword"], keyword, "{level:?}");
        assert_eq!(out["severityCode"], code, "{level:?}");
        assert_eq!(out["name"], level.name());
    }
}

#[test]
fn test_exception_resolvers_against_no_exceptions() {
    // JsonTemplateLayoutTest.test_exception_resolvers_against_no_exceptions: the members are
    // left out, the required literal kept.
    let layout = build(&spec(
        r#"{"exStackTrace":{"$resolver":"exception","field":"stackTrace"},"exStackTraceString":{"$resolver":"exception","field":"stackTrace","stackTrace":{"stringified":true}},"exRootCauseStackTrace":{"$resolver":"exceptionRootCause","field":"stackTrace"},"exRootCauseStackTraceString":{"$resolver":"exceptionRootCause","field":"stackTrace","stackTrace":{"stringified":true}},"requiredFieldTriggeringError":true}"#,
    ));
    assert_eq!(
        json_of(&layout, &OwnedEvent::reference()),
        json!({"requiredFieldTriggeringError": true})
    );
}

#[test]
fn test_unresolvable_nested_fields_are_skipped() {
    // JsonTemplateLayoutTest.test_unresolvable_nested_fields_are_skipped: with stack traces
    // and location off, and empty/null literals, nothing is left but `{}`.
    let layout = build(&JsonTemplateLayoutSpec {
        stack_trace_enabled: false,
        location_info_enabled: false,
        ..spec(
            r#"{"exception":{"message":{"$resolver":"exception","field":"message"},"className":{"$resolver":"exception","field":"className"}},"exceptionRootCause":{"message":{"$resolver":"exceptionRootCause","field":"message"}},"source":{"lineNumber":{"$resolver":"source","field":"lineNumber"},"fileName":{"$resolver":"source","field":"fileName"}},"emptyMap":{},"emptyList":[],"null":null}"#,
        )
    });
    let mut event = event_with_error();
    event.location = Some(("a.B".into(), "m".into(), "B.java".into(), 3));
    assert_eq!(text(&layout, &event), "{}\n");
}

#[test]
fn test_root_cause_and_stack_trace_forms() {
    // JsonTemplateLayoutTest.test_root_cause and test_StackTraceElement_template: the root
    // cause's class and message, and frames through the element template.
    let layout = build(&spec(
        r#"{"ex_class":{"$resolver":"exception","field":"className"},"ex_message":{"$resolver":"exception","field":"message"},"root_class":{"$resolver":"exceptionRootCause","field":"className"},"root_message":{"$resolver":"exceptionRootCause","field":"message"},"frames":{"$resolver":"exception","field":"stackTrace"},"text":{"$resolver":"exception","field":"stackTrace","stackTrace":{"stringified":true}}}"#,
    ));
    let event = event_with_error();
    let out = json_of(&layout, &event);
    let error = event.throwable.as_ref().unwrap();
    let root = error.root_cause();
    assert_eq!(out["ex_class"], error.class_name());
    assert_eq!(out["ex_message"], error.message().unwrap());
    assert_eq!(out["root_class"], root.class_name());
    assert_eq!(out["root_message"], json!(root.message()));
    let frames = out["frames"].as_array().unwrap();
    assert_eq!(frames.len(), error.frames().len());
    assert_eq!(
        frames[0],
        json!({"class": "com.example.Service", "method": "handle", "file": "Service.java", "line": 30})
    );
    // The stringified form is Java's printStackTrace() text, as %ex prints it.
    let pattern = l4rs_layout::PatternLayout::from_pattern("%ex");
    let mut expected = String::new();
    pattern.format(&event.as_event(), &mut expected);
    assert_eq!(out["text"], expected.as_str());
}

#[test]
fn test_inline_stack_trace_element_template() {
    // JsonTemplateLayoutTest.test_inline_stack_trace_element_template.
    let layout = build(&spec(
        r#"{"stackTrace":{"$resolver":"exception","field":"stackTrace","stackTrace":{"elementTemplate":{"clazz":{"$resolver":"stackTraceElement","field":"className"},"line":{"$resolver":"stackTraceElement","field":"lineNumber"}}}}}"#,
    ));
    let mut event = OwnedEvent::reference();
    event.throwable = Some(Throwable::new("x.E").with_frames(vec![
        StackFrame::java("a.A", "f", None, 7),
        StackFrame::java("b.B", "g", Some("B.java"), -1),
    ]));
    assert_eq!(
        json_of(&layout, &event)["stackTrace"],
        json!([{"clazz": "a.A", "line": 7}, {"clazz": "b.B", "line": -1}])
    );
}

#[test]
fn stack_trace_truncation_cuts_after_the_point_matcher() {
    // StackTraceStringResolverTest.point_matchers_should_work: cut after the first frame's
    // "at class" of the throwable, the cause kept whole.
    let template = json!({"ex": {"$resolver": "exception", "field": "stackTrace", "stackTrace": {
        "stringified": {"truncation": {"suffix": "~", "pointMatcherStrings": ["at com.example.Service"]}}}}});
    let layout = build(&spec(&template.to_string()));
    let out = json_of(&layout, &event_with_error());
    let text = out["ex"].as_str().unwrap();
    assert!(
        text.starts_with("java.lang.IllegalStateException: boom\n\tat com.example.Service\n~"),
        "{text}"
    );
    assert!(text.contains("\nCaused by: "), "{text}");
}

#[test]
fn test_mdc_key_pattern_replacement_and_flatten() {
    // ReadOnlyStringMapResolverTest.test_mdc_key_access, test_mdc_pattern and
    // pattern_replacement_should_work; EcsLayout's and GelfLayout's flatten forms.
    let template = json!({
        "direct": {"$resolver": "mdc", "key": "mdcKey1"},
        "missing": {"$resolver": "mdc", "key": "mdcKey9"},
        "matched": {"$resolver": "mdc", "pattern": "mdcKey1"},
        "replaced": {"$resolver": "mdc", "pattern": "user:(role|rank)", "replacement": "$1"},
        "flat": {"$resolver": "mdc", "flatten": {"prefix": "_"}, "pattern": "mdcKey.", "stringified": true},
    });
    let layout = build(&spec(&template.to_string()));
    let mut event = OwnedEvent::reference();
    event.mdc.insert("mdcKey1", "mdcValue1");
    event.mdc.insert("mdcKey2", "mdcValue2");
    event.mdc.insert("user:role", "engineer");
    event.mdc.insert("user:rank", "senior");
    let out = json_of(&layout, &event);
    assert_eq!(out["direct"], "mdcValue1");
    assert!(out.get("missing").is_none(), "{out}");
    assert_eq!(out["matched"], json!({"mdcKey1": "mdcValue1"}));
    assert_eq!(
        out["replaced"],
        json!({"role": "engineer", "rank": "senior"})
    );
    assert_eq!(out["_mdcKey1"], "mdcValue1");
    assert_eq!(out["_mdcKey2"], "mdcValue2");
    assert!(out.get("flat").is_none());
    // An empty MDC leaves all of them out.
    assert_eq!(json_of(&layout, &OwnedEvent::reference()), json!({}));
}

#[test]
fn test_ndc_marker_thread_logger_and_end_of_batch() {
    // MarkerResolverTest (name, parents), and the ndc pattern form of the resolver docs.
    let template = json!({
        "ndc": {"$resolver": "ndc"},
        "roles": {"$resolver": "ndc", "pattern": "user(Role|Rank):\\w+"},
        "marker": {"$resolver": "marker", "field": "name"},
        "parents": {"$resolver": "marker", "field": "parents"},
        "thread": {"$resolver": "thread", "field": "name"},
        "threadId": {"$resolver": "thread", "field": "id"},
        "priority": {"$resolver": "thread", "field": "priority"},
        "logger": {"$resolver": "logger", "field": "name"},
        "fqcn": {"$resolver": "logger", "field": "fqcn"},
        "eob": {"$resolver": "endOfBatch"},
    });
    let layout = build(&spec(&template.to_string()));
    let mut event = OwnedEvent::reference();
    event.ndc.push("userRole:admin");
    event.ndc.push("other");
    let marker = Marker::get("JTL_CHILD");
    marker.set_parents(vec![Marker::get("JTL_PARENT1"), Marker::get("JTL_PARENT2")]);
    event.marker = Some(marker);
    let out = json_of(&layout, &event);
    assert_eq!(out["ndc"], json!(["userRole:admin", "other"]));
    assert_eq!(out["roles"], json!(["userRole:admin"]));
    assert_eq!(out["marker"], "JTL_CHILD");
    assert_eq!(out["parents"], json!(["JTL_PARENT1", "JTL_PARENT2"]));
    assert_eq!(out["thread"], "main");
    assert_eq!(out["threadId"], 1);
    assert_eq!(out["priority"], 5);
    assert_eq!(out["logger"], "org.apache.commons.test.Foo");
    assert_eq!(out["fqcn"], "org.apache.logging.log4j.spi.AbstractLogger");
    assert_eq!(out["eob"], false);
    // Without NDC and marker those members are left out.
    let out = json_of(&layout, &OwnedEvent::reference());
    assert!(
        out.get("ndc").is_none() && out.get("marker").is_none(),
        "{out}"
    );
}

#[test]
fn test_message_fallback_key_and_pattern_resolver() {
    // MessageResolverTest (fallbackKey) and JsonTemplateLayoutTest.test_PatternResolver.
    let template = json!({
        "message": {"$resolver": "message", "fallbackKey": "formattedMessage"},
        "pattern": {"$resolver": "pattern", "pattern": "%p-%m"},
    });
    let layout = build(&spec(&template.to_string()));
    let out = json_of(&layout, &OwnedEvent::reference());
    assert_eq!(out["message"], json!({"formattedMessage": "Hello, world"}));
    assert_eq!(out["pattern"], "INFO-Hello, world");
}

#[test]
fn test_counter_and_case_converter() {
    // CounterResolverTest (start, stringified) and CaseConverterResolverTest (upper, lower,
    // the replacement of a non-string input).
    let template = json!({
        "n": {"$resolver": "counter", "start": 10},
        "s": {"$resolver": "counter", "stringified": true},
        "upper": {"$resolver": "caseConverter", "case": "upper", "input": {"$resolver": "logger", "field": "name"}},
        "lower": {"$resolver": "caseConverter", "case": "lower", "input": "MiXeD"},
        "replaced": {"$resolver": "caseConverter", "case": "lower", "input": 1, "replacement": "unknown"},
        "passed": {"$resolver": "caseConverter", "case": "lower", "input": 1, "errorHandlingStrategy": "pass"},
    });
    let layout = build(&spec(&template.to_string()));
    let first = json_of(&layout, &OwnedEvent::reference());
    let second = json_of(&layout, &OwnedEvent::reference());
    assert_eq!(
        (first["n"].clone(), second["n"].clone()),
        (json!(10), json!(11))
    );
    assert_eq!(
        (first["s"].clone(), second["s"].clone()),
        (json!("0"), json!("1"))
    );
    assert_eq!(first["upper"], "ORG.APACHE.COMMONS.TEST.FOO");
    assert_eq!(first["lower"], "mixed");
    assert_eq!(first["replaced"], "unknown");
    assert_eq!(first["passed"], 1);
}

#[test]
fn test_event_template_additional_fields_and_root_object_key() {
    // JsonTemplateLayoutTest.test_event_template_additional_fields and
    // test_eventTemplateRootObjectKey.
    let layout = build(&JsonTemplateLayoutSpec {
        additional_fields: vec![
            EventTemplateAdditionalField {
                key: "number".into(),
                value: "1".into(),
                json: true,
            },
            EventTemplateAdditionalField {
                key: "string".into(),
                value: "foo".into(),
                json: false,
            },
            EventTemplateAdditionalField {
                key: "level".into(),
                value: r#"{"$resolver": "level", "field": "name"}"#.into(),
                json: true,
            },
        ],
        event_template_root_object_key: Some("event".into()),
        ..spec(r#"{"message":{"$resolver":"message"}}"#)
    });
    assert_eq!(
        json_of(&layout, &OwnedEvent::reference()),
        json!({"event": {"message": "Hello, world", "number": 1, "string": "foo", "level": "INFO"}})
    );
}

#[test]
fn test_source_with_location_info() {
    // JsonLayout.json's `source` block, with locationInfoEnabled.
    let layout = build(&JsonTemplateLayoutSpec {
        location_info_enabled: true,
        ..spec(
            r#"{"source":{"class":{"$resolver":"source","field":"className"},"method":{"$resolver":"source","field":"methodName"},"file":{"$resolver":"source","field":"fileName"},"line":{"$resolver":"source","field":"lineNumber"}}}"#,
        )
    });
    assert!(layout.requires_location());
    let mut event = OwnedEvent::reference();
    event.location = Some(("app::db".into(), "query".into(), "db.rs".into(), 42));
    assert_eq!(
        json_of(&layout, &event),
        json!({"source": {"class": "app::db", "method": "query", "file": "db.rs", "line": 42}})
    );
    assert_eq!(json_of(&layout, &OwnedEvent::reference()), json!({}));
}

/// The ECS logging specification's required fields (ecs-logging spec/spec.json: @timestamp,
/// log.level, message, ecs.version), and the optional ones EcsLayout writes, with their types.
#[test]
fn ecs_layout_has_the_fields_and_types_the_ecs_logging_spec_requires() {
    let layout = build(&JsonTemplateLayoutSpec::default());
    let mut event = event_with_error();
    event.mdc.insert("user", "alice");
    event.ndc.push("request-1");
    event.message = "naïve \"quoted\"\n\u{1}".into();
    let out = json_of(&layout, &event);
    let timestamp = out["@timestamp"].as_str().unwrap();
    assert_eq!(timestamp, "2012-11-02T14:34:02.781Z");
    assert!(jiff::Timestamp::from_str_checked(timestamp).is_some());
    assert_eq!(out["ecs.version"], "1.2.0");
    assert_eq!(out["log.level"], "INFO");
    assert_eq!(out["message"], "naïve \"quoted\"\n\u{1}");
    assert_eq!(out["process.thread.name"], "main");
    assert_eq!(out["log.logger"], "org.apache.commons.test.Foo");
    // `"flatten": true` merges the MDC into the event object, keys as they are.
    assert_eq!(out["user"], "alice");
    assert_eq!(out["tags"], json!(["request-1"]));
    assert_eq!(out["error.type"], "java.lang.IllegalStateException");
    assert_eq!(out["error.message"], "boom");
    assert!(out["error.stack_trace"]
        .as_str()
        .unwrap()
        .starts_with("java.lang.IllegalStateException: boom\n\tat "));
    // Field order is the template's: @timestamp first, as the spec recommends.
    let line = text(&layout, &event);
    assert!(line.starts_with("{\"@timestamp\":"), "{line}");
    // Without an exception, MDC or NDC the optional members are left out.
    let plain = json_of(&layout, &OwnedEvent::reference());
    let keys: Vec<&str> = plain
        .as_object()
        .unwrap()
        .keys()
        .map(String::as_str)
        .collect();
    let mut expected = vec![
        "@timestamp",
        "ecs.version",
        "log.level",
        "message",
        "process.thread.name",
        "log.logger",
    ];
    expected.sort_unstable();
    assert_eq!(keys, expected);
}

trait ParsedTimestamp {
    fn from_str_checked(text: &str) -> Option<jiff::Timestamp>;
}

impl ParsedTimestamp for jiff::Timestamp {
    fn from_str_checked(text: &str) -> Option<jiff::Timestamp> {
        text.parse().ok()
    }
}

#[test]
fn every_bundled_template_writes_json_for_every_kind_of_event() {
    let mut rich = event_with_error();
    rich.mdc.insert("trace_id", "t-1");
    rich.ndc.push("n");
    rich.location = Some(("a.B".into(), "m".into(), "B.java".into(), 3));
    rich.message = "tab\tquote\" back\\ é 😀".into();
    let events = [OwnedEvent::reference(), rich];
    for name in [
        "EcsLayout.json",
        "GcpLayout.json",
        "GelfLayout.json",
        "JsonLayout.json",
        "LogstashJsonEventLayoutV1.json",
    ] {
        let layout = build(&JsonTemplateLayoutSpec {
            event_template_uri: format!("classpath:{name}"),
            location_info_enabled: true,
            ..JsonTemplateLayoutSpec::default()
        });
        for event in &events {
            let out = json_of(&layout, event);
            assert!(out.is_object(), "{name}: {out}");
        }
    }
    // GelfLayout.json: the syslog code and seconds with nanos (its documented form).
    let gelf = build(&JsonTemplateLayoutSpec {
        event_template_uri: "classpath:GelfLayout.json".into(),
        ..JsonTemplateLayoutSpec::default()
    });
    let out = json_of(&gelf, &OwnedEvent::reference());
    assert_eq!(out["level"], 6);
    assert_eq!(out["version"], "1.1");
    // serde_json reads the number as an f64, so the digits are checked in the text.
    let line = text(&gelf, &OwnedEvent::reference());
    assert!(
        line.contains("\"timestamp\":1351866842.781000000,"),
        "{line}"
    );
}

#[test]
fn templates_from_files_and_charsets() {
    let dir = std::env::temp_dir().join(format!("l4rs-jtl-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("t.json");
    std::fs::write(&path, r#"{"m":{"$resolver":"message"}}"#).unwrap();
    let layout = build(&JsonTemplateLayoutSpec {
        event_template_uri: format!("file:{}", path.display()),
        charset: Some("ISO-8859-1".into()),
        ..JsonTemplateLayoutSpec::default()
    });
    let mut event = OwnedEvent::reference();
    event.message = "é€".into();
    let line = text(&layout, &event);
    assert_eq!(line, "{\"m\":\"é€\"}\n");
    let mut scratch = Vec::new();
    assert_eq!(layout.encode(&line, &mut scratch), b"{\"m\":\"\xe9?\"}\n");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn template_errors_name_the_element_and_the_template_position() {
    let error = |spec: JsonTemplateLayoutSpec| {
        JsonTemplateLayout::new(
            &JsonTemplateLayoutSpec {
                origin: "log4j2.xml:7:9".into(),
                ..spec
            },
            LayoutContext::default(),
        )
        .unwrap_err()
    };
    let bad_json = error(spec("{\n  \"a\": 1,\n  \"b\" 2\n}"));
    assert!(
        bad_json.contains("JsonTemplateLayout at log4j2.xml:7:9"),
        "{bad_json}"
    );
    assert!(
        bad_json.contains("was expecting ':' at line 3 column 7"),
        "{bad_json}"
    );
    let unknown = error(spec(r#"{"x":{"y":{"$resolver":"nope"}}}"#));
    assert!(
        unknown.contains("unknown resolver: nope (at /x/y)"),
        "{unknown}"
    );
    let bad_option = error(spec(r#"{"l":{"$resolver":"level","field":"color"}}"#));
    assert!(
        bad_option.contains("invalid field option of the level resolver: \"color\" (at /l)"),
        "{bad_option}"
    );
    // ReadOnlyStringMapResolverTest: the option conflicts log4j2 rejects.
    for (template, message) in [
        (
            r#"{"m":{"$resolver":"mdc","key":"foo","flatten":true}}"#,
            "key and flatten options cannot be combined",
        ),
        (
            r#"{"m":{"$resolver":"mdc","key":"foo","pattern":"bar"}}"#,
            "pattern and key options cannot be combined",
        ),
        (
            r#"{"m":{"$resolver":"mdc","replacement":"$1"}}"#,
            "replacement cannot be provided without a pattern",
        ),
        (
            r#"{"m":{"$resolver":"message","stringified":true,"fallbackKey":"f"}}"#,
            "fallbackKey is not allowed",
        ),
        (
            r#"{"m":[{"$resolver":"mdc","flatten":true}]}"#,
            "flattening resolvers are not allowed in lists",
        ),
        (
            r#"{"t":{"$resolver":"timestamp","epoch":{"unit":"weeks"}}}"#,
            "invalid epoch option",
        ),
        (
            r#"{"t":{"$resolver":"timestamp","pattern":{"timeZone":"Mars/Olympus"}}}"#,
            "invalid pattern.timeZone option",
        ),
    ] {
        let got = error(spec(template));
        assert!(got.contains(message), "{template}: {got}");
    }
    let missing = error(JsonTemplateLayoutSpec {
        event_template_uri: "classpath:Missing.json".into(),
        ..JsonTemplateLayoutSpec::default()
    });
    assert!(
        missing.contains("could not locate classpath resource"),
        "{missing}"
    );
    let zero = error(JsonTemplateLayoutSpec {
        max_string_length: 0,
        ..JsonTemplateLayoutSpec::default()
    });
    assert!(
        zero.contains("non-zero positive maxStringLength: 0"),
        "{zero}"
    );
}

struct HostLookup;

impl l4rs_core::Interpolator for HostLookup {
    fn interpolate(&self, text: &str, event: Option<&l4rs_core::LogEvent<'_>>) -> String {
        let user = event
            .and_then(|e| e.context_map.get("user"))
            .unwrap_or("${ctx:user}");
        text.replace("${hostName}", "box")
            .replace("${ctx:user}", user)
    }
}

#[test]
fn test_property_injection_is_once_or_per_event() {
    // JsonTemplateLayoutTest.test_property_injection: `${…}` in template strings resolve.
    let layout = JsonTemplateLayout::new(
        &spec(r#"{"host":"${hostName}","user":"${ctx:user}"}"#),
        LayoutContext {
            interpolator: Some(Arc::new(HostLookup)),
            console: false,
        },
    )
    .unwrap();
    let mut event = OwnedEvent::reference();
    event.mdc.insert("user", "alice");
    assert_eq!(
        json_of(&layout, &event),
        json!({"host": "box", "user": "alice"})
    );
}

#[test]
fn formatting_allocates_nothing_once_warm() {
    let probe = allocations::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16])));
    assert!(probe >= 1, "the counting allocator must see allocations");
    let mut rich = event_with_error();
    rich.mdc.insert("user", "alice");
    rich.ndc.push("n");
    rich.location = Some(("a.B".into(), "m".into(), "B.java".into(), 3));
    let events = [OwnedEvent::reference(), rich];
    for uri in [
        "classpath:EcsLayout.json",
        "classpath:JsonLayout.json",
        "classpath:GelfLayout.json",
        "classpath:LogstashJsonEventLayoutV1.json",
    ] {
        let layout = build(&JsonTemplateLayoutSpec {
            event_template_uri: uri.into(),
            location_info_enabled: true,
            ..JsonTemplateLayoutSpec::default()
        });
        assert_warm_formatting_allocates_nothing(&layout, &events, uri);
    }
}

#[test]
fn the_deprecated_root_stringified_flag_warns_and_still_works() {
    // ExceptionResolver.isStackTraceStringified: the root-level flag is honoured, with a WARN.
    let (layout, records) = l4rs_core::status::capture(|| {
        build(&spec(
            r#"{"ex":{"$resolver":"exception","field":"stackTrace","stringified":true}}"#,
        ))
    });
    assert!(
        records.iter().any(|r| r.level == Level::WARN
            && r.message.starts_with("\"stringified\" flag at the root level of an exception [root cause] resolver is deprecated")),
        "{records:?}"
    );
    assert!(json_of(&layout, &event_with_error())["ex"].is_string());
}

#[test]
fn timestamp_defaults_come_from_the_layout_properties() {
    // JsonTemplateLayoutDefaults: log4j.layout.jsonTemplate.timestampFormatPattern and
    // .timeZone are the timestamp resolver's defaults (the loader puts them in the spec).
    let layout = build(&JsonTemplateLayoutSpec {
        timestamp_format_pattern: Some("HH:mm:ss".into()),
        time_zone: Some("UTC".into()),
        ..spec(
            r#"{"t":{"$resolver":"timestamp"},"p":{"$resolver":"timestamp","pattern":{"timeZone":"Asia/Tokyo"}}}"#,
        )
    });
    assert_eq!(
        json_of(&layout, &OwnedEvent::reference()),
        json!({"t": "14:34:02", "p": "23:34:02"})
    );
}

#[test]
fn switched_off_resolvers_in_arrays_write_what_log4j2_writes() {
    // TemplateResolvers.ofList keeps every item; ExceptionResolver's stack trace is its
    // NULL_RESOLVER without stackTraceEnabled, while className still resolves.
    let layout = build(&JsonTemplateLayoutSpec {
        stack_trace_enabled: false,
        ..spec(
            r#"{"a":[{"$resolver":"exception","field":"className"},{"$resolver":"exception","field":"stackTrace"},null,{}]}"#,
        )
    });
    assert_eq!(
        json_of(&layout, &event_with_error()),
        json!({"a": ["java.lang.IllegalStateException", null, null, {}]})
    );
}
