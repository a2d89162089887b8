//! The scenario format (`shared/oracle/SCENARIO.md` §3, §4 and §7): `scenario.json` and
//! `events.jsonl`, validated by the rules the Java oracle applies, with two differences: a time
//! zone is not checked to exist (the oracle rejects an unknown one), and `description` and
//! `compare` are checked (the oracle ignores them: they are for `compare.py`). Levels are checked
//! when an event is replayed ([`resolve_level`]), as the oracle checks them.

use std::collections::HashMap;
use std::path::Path;

use l4rs::core::{ContextMap, ContextStack};
use l4rs::{Level, StackFrame, Throwable};
use serde_json::{Map, Value};

use crate::json::parse_strict;

/// Why a scenario could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ScenarioError {
    /// A file could not be read.
    #[error("cannot read {path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
    /// `scenario.json` is not valid JSON or not a valid settings object.
    #[error("{file}: {message}")]
    Settings {
        /// The file.
        file: String,
        /// What is wrong.
        message: String,
    },
    /// A line of `events.jsonl` is not valid JSON or not a valid event.
    #[error("{file}:{line}: {message}")]
    Invalid {
        /// The file.
        file: String,
        /// The 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
}

/// `scenario.json`.
#[derive(Debug, Default)]
pub struct ScenarioSettings {
    /// The scenario's time zone (`UTC` when absent).
    pub timezone: String,
}

/// The caller location of a recorded event.
#[derive(Debug, Clone)]
pub struct RecordedLocation {
    /// Class name.
    pub class: String,
    /// Method name.
    pub method: String,
    /// File name.
    pub file: String,
    /// Line number (≥ 0).
    pub line: i32,
}

/// One line of `events.jsonl`.
#[derive(Debug)]
pub struct RecordedEvent {
    /// The 1-based line of `events.jsonl` the event was read from.
    pub line: usize,
    /// Logger name (`""` for root).
    pub logger: String,
    /// Level name as written; checked against the configuration's levels by [`resolve_level`].
    pub level: String,
    /// The message text.
    pub message: String,
    /// Epoch milliseconds (≥ 1).
    pub time_ms: i64,
    /// Thread name.
    pub thread: String,
    /// Thread id (≥ 1).
    pub thread_id: u64,
    /// Thread priority (1..=10).
    pub thread_priority: i32,
    /// Caller location.
    pub location: Option<RecordedLocation>,
    /// MDC.
    pub mdc: ContextMap,
    /// NDC, bottom first.
    pub ndc: ContextStack,
    /// Marker name (never empty).
    pub marker: Option<String>,
    /// The marker's parents, when given.
    pub marker_parents: Option<Vec<String>>,
    /// The throwable.
    pub exception: Option<Throwable>,
}

const SETTINGS_KEYS: &[&str] = &["description", "timezone", "compare"];
const EVENT_KEYS: &[&str] = &[
    "logger",
    "level",
    "message",
    "time_ms",
    "thread",
    "thread_id",
    "thread_priority",
    "location",
    "mdc",
    "ndc",
    "marker",
    "marker_parents",
    "exception",
];
const FRAME_KEYS: &[&str] = &["class", "method", "file", "line"];
const EXCEPTION_KEYS: &[&str] = &["class", "message", "frames", "cause", "suppressed"];

fn read(path: &Path) -> Result<String, ScenarioError> {
    std::fs::read_to_string(path).map_err(|source| ScenarioError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Reads `scenario.json` if present: an object with only the keys `description` (a string),
/// `timezone` (a string) and `compare` (an array of `"stdout"`/`"files"`).
pub fn read_settings(scenario: &Path) -> Result<ScenarioSettings, ScenarioError> {
    let path = scenario.join("scenario.json");
    let mut settings = ScenarioSettings {
        timezone: "UTC".to_string(),
    };
    if !path.exists() {
        return Ok(settings);
    }
    let text = read(&path)?;
    let invalid = |message: String| ScenarioError::Settings {
        file: path.display().to_string(),
        message,
    };
    let value = parse_strict(&text).map_err(invalid)?;
    let object = value
        .as_object()
        .ok_or_else(|| invalid("the top level must be an object".into()))?;
    check_keys(object, SETTINGS_KEYS, "key").map_err(invalid)?;
    string(object, "description").map_err(invalid)?;
    if let Some(zone) = string(object, "timezone").map_err(invalid)? {
        settings.timezone = zone;
    }
    if let Some(compare) = field(object, "compare") {
        let valid = compare.as_array().is_some_and(|list| {
            list.iter()
                .all(|what| matches!(what.as_str(), Some("stdout" | "files")))
        });
        if !valid {
            return Err(invalid(
                "\"compare\" must be an array of \"stdout\" and \"files\"".into(),
            ));
        }
    }
    Ok(settings)
}

/// Reads every non-blank line of `events.jsonl`, and checks that every event naming the same
/// marker gives it the same `marker_parents`.
pub fn read_events(scenario: &Path) -> Result<Vec<RecordedEvent>, ScenarioError> {
    let path = scenario.join("events.jsonl");
    let text = read(&path)?;
    let file = path.display().to_string();
    let mut events = Vec::new();
    let mut parents_by_marker: HashMap<String, Vec<String>> = HashMap::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let invalid = |message: String| ScenarioError::Invalid {
            file: file.clone(),
            line: index + 1,
            message,
        };
        let value = parse_strict(line).map_err(invalid)?;
        let object = value
            .as_object()
            .ok_or_else(|| invalid("an event must be a JSON object".into()))?;
        let event = parse_event(object, index + 1).map_err(invalid)?;
        if let (Some(marker), Some(parents)) = (&event.marker, &event.marker_parents) {
            match parents_by_marker.get(marker) {
                Some(earlier) if earlier != parents => {
                    return Err(invalid(format!(
                        "marker \"{marker}\" is given different marker_parents than on an earlier line"
                    )));
                }
                _ => {
                    parents_by_marker.insert(marker.clone(), parents.clone());
                }
            }
        }
        events.push(event);
    }
    Ok(events)
}

/// The level of `event`: a standard level or a custom level the loaded configuration declared
/// (so this is called after the configuration is loaded), looked up as log4j2's
/// `Level.getLevel` does; `OFF` and `ALL` are not levels an event can have.
pub fn resolve_level(event: &RecordedEvent, file: &str) -> Result<Level, ScenarioError> {
    let invalid = |message: String| ScenarioError::Invalid {
        file: file.to_string(),
        line: event.line,
        message,
    };
    let level = Level::from_name(&event.level).map_err(|_| {
        invalid(format!(
            "unknown level \"{}\" (not a standard level and not a custom level of this configuration)",
            event.level
        ))
    })?;
    // `Level` compares by `intLevel` only, so a custom level sharing OFF's or ALL's value is
    // not one of them: compare the names, as the oracle compares identities.
    if matches!(level.name(), "OFF" | "ALL") {
        return Err(invalid(format!(
            "level {} cannot be used for an event",
            level.name()
        )));
    }
    Ok(level)
}

fn check_keys(object: &Map<String, Value>, allowed: &[&str], what: &str) -> Result<(), String> {
    match object.keys().find(|key| !allowed.contains(&key.as_str())) {
        Some(key) => Err(format!("unknown {what} \"{key}\"")),
        None => Ok(()),
    }
}

/// A field that is present and not `null` (SCENARIO.md: `null` means absent).
fn field<'a>(object: &'a Map<String, Value>, name: &str) -> Option<&'a Value> {
    object.get(name).filter(|v| !v.is_null())
}

fn string(object: &Map<String, Value>, name: &str) -> Result<Option<String>, String> {
    match field(object, name) {
        None => Ok(None),
        Some(Value::String(s)) => Ok(Some(s.clone())),
        Some(other) => Err(format!("\"{name}\" must be a string, not {other}")),
    }
}

fn required_string(object: &Map<String, Value>, name: &str) -> Result<String, String> {
    string(object, name)?.ok_or_else(|| format!("\"{name}\" is required"))
}

fn integer(object: &Map<String, Value>, name: &str) -> Result<Option<i64>, String> {
    match field(object, name) {
        None => Ok(None),
        Some(value) => value
            .as_i64()
            .map(Some)
            .ok_or_else(|| format!("\"{name}\" must be an integer")),
    }
}

/// An optional integer within `range` (inclusive), with `default` when absent.
fn bounded(
    object: &Map<String, Value>,
    name: &str,
    range: std::ops::RangeInclusive<i64>,
    default: i64,
) -> Result<i64, String> {
    let value = integer(object, name)?.unwrap_or(default);
    if range.contains(&value) {
        Ok(value)
    } else if *range.end() == i64::MAX {
        Err(format!("\"{name}\" must be >= {}", range.start()))
    } else {
        Err(format!(
            "\"{name}\" must be {}..{}",
            range.start(),
            range.end()
        ))
    }
}

fn string_list(value: &Value, what: &str) -> Result<Vec<String>, String> {
    value
        .as_array()
        .and_then(|list| {
            list.iter()
                .map(|item| item.as_str().map(str::to_string))
                .collect::<Option<Vec<_>>>()
        })
        .ok_or_else(|| format!("\"{what}\" must be an array of strings"))
}

fn parse_event(object: &Map<String, Value>, line: usize) -> Result<RecordedEvent, String> {
    check_keys(object, EVENT_KEYS, "field")?;
    let level = required_string(object, "level")?;
    let time_ms = integer(object, "time_ms")?.ok_or("\"time_ms\" is required")?;
    if time_ms < 1 {
        // log4j2 reads 0 as "not set" and would use the current time.
        return Err("\"time_ms\" must be >= 1".into());
    }
    let location = match field(object, "location") {
        None => None,
        Some(value) => {
            let (class, method, file, line) = parse_frame(value, "location")?;
            match file {
                Some(file) if line >= 0 => Some(RecordedLocation {
                    class,
                    method,
                    file,
                    line,
                }),
                _ => return Err("location needs a non-null \"file\" and a \"line\" >= 0".into()),
            }
        }
    };
    let mut mdc = ContextMap::new();
    if let Some(map) = field(object, "mdc") {
        let map = map.as_object().ok_or("\"mdc\" must be an object")?;
        for (key, value) in map {
            let value = value.as_str().ok_or("\"mdc\" values must be strings")?;
            mdc.insert(key.clone(), value.to_string());
        }
    }
    let mut ndc = ContextStack::new();
    if let Some(stack) = field(object, "ndc") {
        for entry in string_list(stack, "ndc")? {
            ndc.push(&entry);
        }
    }
    let marker = string(object, "marker")?;
    if marker.as_deref() == Some("") {
        return Err("\"marker\" must not be empty".into());
    }
    let marker_parents = match field(object, "marker_parents") {
        None => None,
        Some(_) if marker.is_none() => return Err("\"marker_parents\" without \"marker\"".into()),
        Some(parents) => Some(string_list(parents, "marker_parents")?),
    };
    let exception = match field(object, "exception") {
        None => None,
        Some(value) => Some(parse_throwable(value, "exception")?),
    };
    Ok(RecordedEvent {
        line,
        logger: required_string(object, "logger")?,
        level,
        message: required_string(object, "message")?,
        time_ms,
        thread: string(object, "thread")?.unwrap_or_else(|| "main".to_string()),
        // 0 means "the current thread" to log4j2, so it cannot be replayed.
        thread_id: bounded(object, "thread_id", 1..=i64::MAX, 1)? as u64,
        thread_priority: bounded(object, "thread_priority", 1..=10, 5)? as i32,
        location,
        mdc,
        ndc,
        marker,
        marker_parents,
        exception,
    })
}

/// A stack frame (or the location, which has the same shape): class, method, optional file and
/// a line ≥ -2 (-2 is a native method).
fn parse_frame(value: &Value, what: &str) -> Result<(String, String, Option<String>, i32), String> {
    let frame = value
        .as_object()
        .ok_or_else(|| format!("{what} must be an object"))?;
    check_keys(frame, FRAME_KEYS, &format!("{what} field"))?;
    let class = required_string(frame, "class")?;
    let method = required_string(frame, "method")?;
    let file = string(frame, "file")?;
    let line = integer(frame, "line")?.ok_or_else(|| format!("{what} \"line\" is required"))?;
    let line = i32::try_from(line)
        .ok()
        .filter(|line| *line >= -2)
        .ok_or_else(|| format!("{what} \"line\" must be an int >= -2"))?;
    Ok((class, method, file, line))
}

fn parse_throwable(value: &Value, what: &str) -> Result<Throwable, String> {
    let object = value
        .as_object()
        .ok_or_else(|| format!("{what} must be an object"))?;
    check_keys(object, EXCEPTION_KEYS, &format!("{what} field"))?;
    let mut throwable = Throwable::new(required_string(object, "class")?);
    if let Some(message) = string(object, "message")? {
        throwable = throwable.with_message(message);
    }
    let mut frames = Vec::new();
    if let Some(list) = field(object, "frames") {
        for frame in list
            .as_array()
            .ok_or_else(|| format!("{what} \"frames\" must be an array"))?
        {
            let (class, method, file, line) = parse_frame(frame, "frame")?;
            frames.push(StackFrame::java(class, method, file.as_deref(), line));
        }
    }
    throwable = throwable.with_frames(frames);
    if let Some(cause) = field(object, "cause") {
        throwable = throwable.with_cause(parse_throwable(cause, &format!("{what}.cause"))?);
    }
    if let Some(list) = field(object, "suppressed") {
        for suppressed in list
            .as_array()
            .ok_or_else(|| format!("{what} \"suppressed\" must be an array"))?
        {
            throwable = throwable
                .with_suppressed(parse_throwable(suppressed, &format!("{what}.suppressed"))?);
        }
    }
    Ok(throwable)
}

#[cfg(test)]
mod tests;
