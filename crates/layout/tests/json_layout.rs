//! JsonLayout: every event it writes is valid JSON (checked with serde_json, in every mode),
//! the bytes equal what the live log4j2 oracle wrote for the conformance scenarios (their
//! stored `expected/` copies, so this runs without Java), and formatting allocates nothing
//! once warm.

mod common;

use std::path::Path;

use common::{
    assert_warm_formatting_allocates_nothing, scenario_dir, scenario_events, scenario_files,
    OwnedEvent,
};
use l4rs_config::model::{JsonLayoutSpec, LayoutSpec};
use l4rs_core::{Layout, LogEvent, Message};
use l4rs_layout::{JsonLayout, LayoutContext};
use l4rs_test_support::allocations::{self, CountingAllocator};
use serde_json::Value;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

/// All the JSON scenarios' events: markers, MDC, NDC, control characters, exceptions.
fn all_events() -> Vec<OwnedEvent> {
    [
        "470-json-layout-pretty",
        "471-json-layout-compact",
        "473-json-layout-exceptions",
    ]
    .iter()
    .flat_map(|name| scenario_events(name))
    .collect()
}

fn layout(spec: JsonLayoutSpec) -> JsonLayout {
    JsonLayout::new(&spec, LayoutContext::default())
}

fn format(layout: &JsonLayout, event: &LogEvent<'_>) -> String {
    let mut out = String::new();
    layout.format(event, &mut out);
    out
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text:?}"))
}

/// What the parsed event must say about its source event.
fn check_fields(json: &Value, event: &OwnedEvent) {
    assert_eq!(json["message"], event.message.as_str());
    assert_eq!(json["level"], event.level.name());
    if event.logger.is_empty() {
        assert!(json.get("loggerName").is_none());
    } else {
        assert_eq!(json["loggerName"], event.logger.as_str());
    }
    assert_eq!(json["threadId"], event.thread_id);
    let map = &json["contextMap"];
    assert_eq!(map.as_object().map_or(0, |m| m.len()), event.mdc.len());
    for (key, value) in event.mdc.iter() {
        assert_eq!(map[key], value);
    }
    let stack: Vec<&str> = event.ndc.iter().collect();
    match json.get("contextStack") {
        Some(list) => assert_eq!(list, &serde_json::json!(stack)),
        None => assert!(stack.is_empty()),
    }
    if let Some(marker) = &event.marker {
        assert_eq!(json["marker"]["name"], marker.name());
    }
    if let Some(throwable) = &event.throwable {
        assert_eq!(json["thrown"]["name"], throwable.class_name());
    }
}

#[test]
fn every_compact_line_parses_and_says_what_the_event_says() {
    let layout = layout(JsonLayoutSpec {
        compact: true,
        event_eol: true,
        properties: true,
        location_info: true,
        ..JsonLayoutSpec::default()
    });
    let events = all_events();
    let mut text = String::new();
    for event in &events {
        layout.format(&event.as_event(), &mut text);
    }
    let lines: Vec<&str> = text.split_terminator("\r\n").collect();
    assert_eq!(lines.len(), events.len(), "one line per event");
    for (line, event) in lines.iter().zip(&events) {
        assert!(
            !line.contains('\n'),
            "a compact event is one line: {line:?}"
        );
        check_fields(&parse(line), event);
    }
}

#[test]
fn pretty_events_parse_to_the_compact_events() {
    let pretty = layout(JsonLayoutSpec {
        properties: true,
        ..JsonLayoutSpec::default()
    });
    let compact = layout(JsonLayoutSpec {
        compact: true,
        properties: true,
        ..JsonLayoutSpec::default()
    });
    for event in all_events() {
        let text = format(&pretty, &event.as_event());
        let body = text
            .strip_suffix("\r\n")
            .expect("pretty events end in CRLF");
        let json = parse(body);
        check_fields(&json, &event);
        assert_eq!(json, parse(&format(&compact, &event.as_event())));
    }
}

#[test]
fn every_option_combination_writes_valid_json() {
    let events = all_events();
    for bits in 0..64u32 {
        let bit = |n: u32| bits & (1 << n) != 0;
        let spec = JsonLayoutSpec {
            compact: bit(0),
            event_eol: true,
            properties: bit(1),
            properties_as_list: bit(2),
            include_stacktrace: bit(3),
            stacktrace_as_string: bit(4),
            include_time_millis: bit(5),
            location_info: true,
            end_of_line: Some("\u{1e}".to_string()),
            additional_fields: vec![("k".into(), "v \"w\"".into()), ("empty".into(), "".into())],
            ..JsonLayoutSpec::default()
        };
        let layout = layout(spec);
        for event in &events {
            let text = format(&layout, &event.as_event());
            let json = parse(text.strip_suffix('\u{1e}').expect("custom end of line"));
            assert_eq!(json["k"], "v \"w\"");
            assert!(json.get("empty").is_none(), "empty fields are left out");
            assert_eq!(json["message"], event.message.as_str());
        }
    }
}

#[test]
fn complete_output_is_one_json_array() {
    for compact in [false, true] {
        let layout = layout(JsonLayoutSpec {
            complete: true,
            compact,
            ..JsonLayoutSpec::default()
        });
        let events = all_events();
        let mut text = String::new();
        layout.header(&mut text);
        for event in &events {
            layout.format(&event.as_event(), &mut text);
        }
        layout.footer(&mut text);
        let array = parse(&text);
        assert_eq!(array.as_array().map(Vec::len), Some(events.len()));
    }
}

#[test]
fn messages_from_format_args_are_escaped_as_they_are_written() {
    let layout = layout(JsonLayoutSpec {
        compact: true,
        ..JsonLayoutSpec::default()
    });
    let value = "quote \" tab \t";
    let mut out = String::new();
    layout.format(
        &LogEvent::new(
            "a",
            l4rs_core::Level::INFO,
            Message::Args(format_args!("v={value}")),
        ),
        &mut out,
    );
    let json = parse(&out);
    assert_eq!(json["message"], "v=quote \" tab \t");
}

/// The scenario's File appenders with a JsonLayout, each with the file name it writes.
fn json_file_appenders(scenario: &Path) -> Vec<(String, JsonLayoutSpec, bool)> {
    scenario_files(scenario)
        .into_iter()
        .filter_map(|file| match file.layout {
            Some(LayoutSpec::Json(spec)) => Some((file.file, spec, file.gets_events)),
            _ => None,
        })
        .collect()
}

#[test]
fn files_equal_what_log4j2_wrote() {
    let mut checked = 0;
    for scenario in [
        "471-json-layout-compact",
        "472-json-layout-complete",
        "473-json-layout-exceptions",
    ] {
        let dir = scenario_dir(scenario);
        let events = scenario_events(scenario);
        for (file, spec, gets_events) in json_file_appenders(&dir) {
            let layout = layout(spec);
            let mut text = String::new();
            layout.header(&mut text);
            if gets_events {
                for event in &events {
                    layout.format(&event.as_event(), &mut text);
                }
            }
            layout.footer(&mut text);
            let mut scratch = Vec::new();
            let bytes = layout.encode(&text, &mut scratch);
            let expected = std::fs::read(dir.join("expected/files").join(&file)).unwrap();
            assert_eq!(
                String::from_utf8_lossy(bytes),
                String::from_utf8_lossy(&expected),
                "{scenario}/{file}"
            );
            checked += 1;
        }
    }
    assert!(checked >= 12, "only {checked} files checked");
}

#[test]
fn formatting_allocates_nothing_once_warm() {
    let probe = allocations::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16])));
    assert!(probe >= 1, "the counting allocator must see allocations");
    let events = all_events();
    for spec in [
        JsonLayoutSpec {
            properties: true,
            location_info: true,
            ..JsonLayoutSpec::default()
        },
        JsonLayoutSpec {
            compact: true,
            properties: true,
            properties_as_list: true,
            stacktrace_as_string: true,
            complete: true,
            additional_fields: vec![("app".into(), "orders".into())],
            ..JsonLayoutSpec::default()
        },
    ] {
        let what = format!("{spec:?}");
        assert_warm_formatting_allocates_nothing(&layout(spec), &events, &what);
    }
}
