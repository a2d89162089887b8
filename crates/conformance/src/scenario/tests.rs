//! Every rule of SCENARIO.md §3, §4 and §7 that the Java oracle enforces.

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use super::*;

/// A scenario folder in the temporary directory, removed on drop.
struct Folder(PathBuf);

impl Folder {
    fn new() -> Folder {
        static NEXT: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "l4rs-scenario-test-{}-{}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&path).unwrap();
        Folder(path)
    }

    fn with(name: &str, text: &str) -> Folder {
        let folder = Folder::new();
        std::fs::write(folder.0.join(name), text).unwrap();
        folder
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

const MINIMAL: &str = r#""logger": "a", "level": "INFO", "message": "m", "time_ms": 1"#;

/// The events of a scenario folder whose `events.jsonl` is `text`.
fn events_of(text: &str) -> Result<Vec<RecordedEvent>, ScenarioError> {
    read_events(&Folder::with("events.jsonl", text).0)
}

/// The events of a one-line `events.jsonl` made of `MINIMAL` plus `extra` fields (written over
/// several lines here for reading, joined into one).
fn events_with(extra: &str) -> Result<Vec<RecordedEvent>, ScenarioError> {
    let extra = extra.replace('\n', " ");
    let line = if extra.is_empty() {
        format!("{{{MINIMAL}}}")
    } else {
        format!("{{{MINIMAL}, {extra}}}")
    };
    events_of(&line)
}

/// An event's thread name, id and priority.
fn thread_of(event: &RecordedEvent) -> (&str, u64, i32) {
    (
        event.thread.as_str(),
        event.thread_id,
        event.thread_priority,
    )
}

/// The message of the error reading an `events.jsonl` of `text`.
fn event_error(text: &str) -> String {
    match events_of(text) {
        Err(ScenarioError::Invalid { message, .. }) => message,
        other => panic!("expected an invalid event, got {other:?}"),
    }
}

fn extra_error(extra: &str) -> String {
    event_error(&format!("{{{MINIMAL}, {extra}}}"))
}

fn settings_error(text: &str) -> String {
    match read_settings(&Folder::with("scenario.json", text).0) {
        Err(ScenarioError::Settings { message, .. }) => message,
        other => panic!("expected invalid settings, got {other:?}"),
    }
}

#[test]
fn a_complete_event_is_read_with_every_field() {
    let events = events_with(
        r#""thread": "", "thread_id": 7, "thread_priority": 10,
           "location": {"class": "C", "method": "m", "file": "C.java", "line": 0},
           "mdc": {"k": "v"}, "ndc": ["a", "b"], "marker": "M", "marker_parents": ["P"],
           "exception": {"class": "E", "message": null,
                         "frames": [{"class": "C", "method": "m", "file": null, "line": -2}],
                         "cause": {"class": "F"}, "suppressed": [{"class": "G"}]}"#,
    )
    .unwrap();
    let event = &events[0];
    assert_eq!(event.line, 1);
    assert_eq!(thread_of(event), ("", 7, 10));
    assert_eq!(event.location.as_ref().map(|l| l.line), Some(0));
    let location = event.location.as_ref().unwrap();
    assert_eq!(
        (
            location.class.as_str(),
            location.method.as_str(),
            location.file.as_str()
        ),
        ("C", "m", "C.java")
    );
    assert_eq!(event.mdc.iter().collect::<Vec<_>>(), [("k", "v")]);
    assert_eq!(event.ndc.iter().collect::<Vec<_>>(), ["a", "b"]);
    assert_eq!(event.marker.as_deref(), Some("M"));
    assert_eq!(
        event.marker_parents.as_deref(),
        Some(&["P".to_string()][..])
    );
    let exception = event.exception.as_ref().unwrap();
    assert_eq!((exception.class_name(), exception.message()), ("E", None));
    let frame = &exception.frames()[0];
    assert_eq!(
        (
            frame.class.as_str(),
            frame.method.as_str(),
            frame.file.as_deref(),
            frame.line
        ),
        ("C", "m", None, -2)
    );
    assert_eq!(exception.cause().map(|c| c.class_name()), Some("F"));
    let suppressed: Vec<&str> = exception
        .suppressed()
        .iter()
        .map(|s| s.class_name())
        .collect();
    assert_eq!(suppressed, ["G"]);
}

#[test]
fn defaults_and_nulls_mean_absent() {
    let events = events_of(&format!(
        "\n{{{MINIMAL}, \"thread\": null, \"marker\": null, \"mdc\": null}}\n\n"
    ))
    .unwrap();
    let event = &events[0];
    assert_eq!(event.line, 2);
    assert_eq!(thread_of(event), ("main", 1, 5));
    assert!(event.marker.is_none() && event.location.is_none() && event.exception.is_none());
}

#[test]
fn rejects_unknown_fields_at_every_level() {
    assert_eq!(
        extra_error(r#""colour": "red""#),
        "unknown field \"colour\""
    );
    assert_eq!(
        extra_error(
            r#""location": {"class": "C", "method": "m", "file": "F", "line": 1, "col": 2}"#
        ),
        "unknown location field \"col\""
    );
    assert_eq!(
        extra_error(r#""exception": {"class": "E", "cause": {"class": "F", "trace": []}}"#),
        "unknown exception.cause field \"trace\""
    );
    assert_eq!(
        extra_error(
            r#""exception": {"class": "E", "frames": [{"class": "C", "method": "m", "line": 1, "x": 0}]}"#
        ),
        "unknown frame field \"x\""
    );
}

#[test]
fn rejects_duplicate_keys() {
    assert_eq!(extra_error(r#""level": "WARN""#), "duplicate key \"level\"");
    assert_eq!(
        extra_error(r#""mdc": {"k": "1", "k": "2"}"#),
        "duplicate key \"k\""
    );
}

#[test]
fn rejects_wrong_types_and_missing_required_fields() {
    assert_eq!(
        extra_error(r#""thread": 3"#),
        "\"thread\" must be a string, not 3"
    );
    assert_eq!(
        extra_error(r#""ndc": ["a", 1]"#),
        "\"ndc\" must be an array of strings"
    );
    assert_eq!(
        extra_error(r#""mdc": {"k": 1}"#),
        "\"mdc\" values must be strings"
    );
    assert_eq!(
        event_error(r#"{"logger": "a", "level": "INFO", "time_ms": 1}"#),
        "\"message\" is required"
    );
    assert_eq!(event_error("[1]"), "an event must be a JSON object");
}

#[test]
fn rejects_a_time_before_1() {
    for time in ["0", "-5"] {
        let line =
            format!(r#"{{"logger": "a", "level": "INFO", "message": "m", "time_ms": {time}}}"#);
        assert_eq!(event_error(&line), "\"time_ms\" must be >= 1");
    }
    assert_eq!(
        event_error(r#"{"logger": "a", "level": "INFO", "message": "m", "time_ms": 1.5}"#),
        "\"time_ms\" must be an integer"
    );
}

#[test]
fn rejects_a_thread_id_below_1() {
    assert_eq!(
        extra_error(r#""thread_id": 0"#),
        "\"thread_id\" must be >= 1"
    );
}

#[test]
fn rejects_a_priority_outside_1_to_10() {
    for priority in ["0", "11", "-1"] {
        assert_eq!(
            extra_error(&format!(r#""thread_priority": {priority}"#)),
            "\"thread_priority\" must be 1..10"
        );
    }
    assert_eq!(
        events_with(r#""thread_priority": 1"#).unwrap()[0].thread_priority,
        1
    );
}

#[test]
fn rejects_a_location_line_below_0_or_without_file() {
    let expected = "location needs a non-null \"file\" and a \"line\" >= 0";
    assert_eq!(
        extra_error(r#""location": {"class": "C", "method": "m", "file": "F", "line": -1}"#),
        expected
    );
    assert_eq!(
        extra_error(r#""location": {"class": "C", "method": "m", "file": null, "line": 1}"#),
        expected
    );
    assert_eq!(
        extra_error(r#""location": {"class": "C", "method": "m", "file": "F"}"#),
        "location \"line\" is required"
    );
}

#[test]
fn rejects_a_frame_line_below_minus_2() {
    assert_eq!(
        extra_error(
            r#""exception": {"class": "E", "frames": [{"class": "C", "method": "m", "line": -3}]}"#
        ),
        "frame \"line\" must be an int >= -2"
    );
}

#[test]
fn rejects_an_empty_marker() {
    assert_eq!(
        extra_error(r#""marker": """#),
        "\"marker\" must not be empty"
    );
}

#[test]
fn rejects_marker_parents_without_marker_or_disagreeing() {
    assert_eq!(
        extra_error(r#""marker_parents": ["P"]"#),
        "\"marker_parents\" without \"marker\""
    );
    let text = format!(
        "{{{MINIMAL}, \"marker\": \"M\", \"marker_parents\": [\"P\"]}}\n\
         {{{MINIMAL}, \"marker\": \"M\"}}\n\
         {{{MINIMAL}, \"marker\": \"M\", \"marker_parents\": [\"Q\"]}}\n"
    );
    match events_of(&text) {
        Err(ScenarioError::Invalid { line, message, .. }) => {
            assert_eq!(line, 3);
            assert_eq!(
                message,
                "marker \"M\" is given different marker_parents than on an earlier line"
            );
        }
        other => panic!("expected an invalid event, got {other:?}"),
    }
}

#[test]
fn rejects_invalid_json_with_its_line() {
    let text = format!("{{{MINIMAL}}}\n{{\"logger\": }}\n");
    match events_of(&text) {
        Err(ScenarioError::Invalid { line, .. }) => assert_eq!(line, 2),
        other => panic!("expected an invalid event, got {other:?}"),
    }
}

#[test]
fn resolves_standard_and_custom_levels_and_rejects_unknown_ones() {
    let mut events = events_with("").unwrap();
    assert_eq!(
        resolve_level(&events[0], "events.jsonl").unwrap(),
        Level::INFO
    );
    events[0].level = "NOT_A_LEVEL_ANYWHERE".into();
    assert!(matches!(
        resolve_level(&events[0], "events.jsonl"),
        Err(ScenarioError::Invalid { line: 1, .. })
    ));
    Level::register("SCENARIO_TEST_LEVEL", 450);
    events[0].level = "scenario_test_level".into();
    assert_eq!(
        resolve_level(&events[0], "events.jsonl").unwrap().name(),
        "SCENARIO_TEST_LEVEL"
    );
}

/// OFF and ALL are read (the oracle logs the events before them) and rejected when the event is
/// replayed, with the level's canonical name, after the unknown-level check.
#[test]
fn rejects_the_levels_off_and_all() {
    for (level, name) in [("OFF", "OFF"), ("off", "OFF"), (" All ", "ALL")] {
        let mut events = events_with("").unwrap();
        events[0].level = level.into();
        match resolve_level(&events[0], "events.jsonl") {
            Err(ScenarioError::Invalid {
                line: 1, message, ..
            }) => {
                assert_eq!(message, format!("level {name} cannot be used for an event"))
            }
            other => panic!("expected an invalid event, got {other:?}"),
        }
    }
    let text = format!(
        "{{{MINIMAL}}}\n{}",
        r#"{"logger": "a", "level": "OFF", "message": "m", "time_ms": 1}"#
    );
    assert_eq!(events_of(&text).unwrap()[1].level, "OFF");
}

#[test]
fn settings_default_to_utc_and_read_the_time_zone() {
    assert_eq!(read_settings(&Folder::new().0).unwrap().timezone, "UTC");
    let settings = read_settings(
        &Folder::with(
            "scenario.json",
            r#"{"description": "d", "timezone": "Asia/Tokyo", "compare": ["files"]}"#,
        )
        .0,
    )
    .unwrap();
    assert_eq!(settings.timezone, "Asia/Tokyo");
}

#[test]
fn settings_reject_unknown_and_duplicate_keys_and_wrong_types() {
    assert_eq!(
        settings_error(r#"{"timezone": "UTC", "tz": "x"}"#),
        "unknown key \"tz\""
    );
    assert_eq!(
        settings_error(r#"{"timezone": "UTC", "timezone": "Europe/Paris"}"#),
        "duplicate key \"timezone\""
    );
    assert_eq!(
        settings_error(r#"{"timezone": 1}"#),
        "\"timezone\" must be a string, not 1"
    );
    assert_eq!(
        settings_error(r#"{"compare": ["stderr"]}"#),
        "\"compare\" must be an array of \"stdout\" and \"files\""
    );
    assert_eq!(settings_error("[]"), "the top level must be an object");
}
