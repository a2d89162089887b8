//! The scenario format: `scenario.json` and `events.jsonl`.

use std::path::Path;

use l4rs::core::{ContextMap, ContextStack};
use l4rs::{StackFrame, Throwable};
use serde_json::{Map, Value};

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
    /// A line is not valid JSON or not a valid event.
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
    /// Line number.
    pub line: i32,
}

/// One line of `events.jsonl`.
#[derive(Debug)]
pub struct RecordedEvent {
    /// Logger name (`""` for root).
    pub logger: String,
    /// Level name as written.
    pub level: String,
    /// The message text.
    pub message: String,
    /// Epoch milliseconds.
    pub time_ms: i64,
    /// Thread name.
    pub thread: String,
    /// Thread id.
    pub thread_id: u64,
    /// Thread priority.
    pub thread_priority: i32,
    /// Caller location.
    pub location: Option<RecordedLocation>,
    /// MDC.
    pub mdc: ContextMap,
    /// NDC, bottom first.
    pub ndc: ContextStack,
    /// Marker name.
    pub marker: Option<String>,
    /// The marker's parents, when given.
    pub marker_parents: Option<Vec<String>>,
    /// The throwable.
    pub exception: Option<Throwable>,
}

fn read(path: &Path) -> Result<String, ScenarioError> {
    std::fs::read_to_string(path).map_err(|source| ScenarioError::Io {
        path: path.display().to_string(),
        source,
    })
}

/// Reads `scenario.json` if present.
pub fn read_settings(scenario: &Path) -> Result<ScenarioSettings, ScenarioError> {
    let path = scenario.join("scenario.json");
    let mut settings = ScenarioSettings {
        timezone: "UTC".to_string(),
    };
    if !path.exists() {
        return Ok(settings);
    }
    let text = read(&path)?;
    let value: Value = serde_json::from_str(&text).map_err(|e| ScenarioError::Invalid {
        file: path.display().to_string(),
        line: e.line(),
        message: e.to_string(),
    })?;
    if let Some(zone) = value.get("timezone").and_then(Value::as_str) {
        settings.timezone = zone.to_string();
    }
    Ok(settings)
}

/// Reads every non-blank line of `events.jsonl`.
pub fn read_events(scenario: &Path) -> Result<Vec<RecordedEvent>, ScenarioError> {
    let path = scenario.join("events.jsonl");
    let text = read(&path)?;
    let file = path.display().to_string();
    let mut events = Vec::new();
    for (index, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let invalid = |message: String| ScenarioError::Invalid {
            file: file.clone(),
            line: index + 1,
            message,
        };
        let value: Value = serde_json::from_str(line).map_err(|e| invalid(e.to_string()))?;
        let object = value
            .as_object()
            .ok_or_else(|| invalid("an event must be a JSON object".into()))?;
        events.push(parse_event(object).map_err(invalid)?);
    }
    Ok(events)
}

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

fn parse_event(object: &Map<String, Value>) -> Result<RecordedEvent, String> {
    let location = match field(object, "location") {
        None => None,
        Some(Value::Object(location)) => Some(RecordedLocation {
            class: required_string(location, "class")?,
            method: required_string(location, "method")?,
            file: required_string(location, "file")?,
            line: integer(location, "line")?.ok_or("location \"line\" is required")? as i32,
        }),
        Some(_) => return Err("\"location\" must be an object".into()),
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
        for entry in stack.as_array().ok_or("\"ndc\" must be an array")? {
            ndc.push(entry.as_str().ok_or("\"ndc\" entries must be strings")?);
        }
    }
    let marker_parents = match field(object, "marker_parents") {
        None => None,
        Some(parents) => Some(
            parents
                .as_array()
                .ok_or("\"marker_parents\" must be an array")?
                .iter()
                .map(|p| {
                    p.as_str()
                        .map(str::to_string)
                        .ok_or("marker parents must be strings")
                })
                .collect::<Result<Vec<_>, _>>()?,
        ),
    };
    let exception = match field(object, "exception") {
        None => None,
        Some(Value::Object(exception)) => Some(parse_throwable(exception)?),
        Some(_) => return Err("\"exception\" must be an object".into()),
    };
    Ok(RecordedEvent {
        logger: required_string(object, "logger")?,
        level: required_string(object, "level")?,
        message: required_string(object, "message")?,
        time_ms: integer(object, "time_ms")?.ok_or("\"time_ms\" is required")?,
        thread: string(object, "thread")?.unwrap_or_else(|| "main".to_string()),
        thread_id: integer(object, "thread_id")?.unwrap_or(1) as u64,
        thread_priority: integer(object, "thread_priority")?.unwrap_or(5) as i32,
        location,
        mdc,
        ndc,
        marker: string(object, "marker")?,
        marker_parents,
        exception,
    })
}

fn parse_throwable(object: &Map<String, Value>) -> Result<Throwable, String> {
    let mut throwable = Throwable::new(required_string(object, "class")?);
    if let Some(message) = string(object, "message")? {
        throwable = throwable.with_message(message);
    }
    let mut frames = Vec::new();
    if let Some(list) = field(object, "frames") {
        for frame in list.as_array().ok_or("\"frames\" must be an array")? {
            let frame = frame.as_object().ok_or("a frame must be an object")?;
            frames.push(StackFrame::java(
                required_string(frame, "class")?,
                required_string(frame, "method")?,
                string(frame, "file")?.as_deref(),
                integer(frame, "line")?.ok_or("frame \"line\" is required")? as i32,
            ));
        }
    }
    throwable = throwable.with_frames(frames);
    if let Some(cause) = field(object, "cause") {
        let cause = cause.as_object().ok_or("\"cause\" must be an object")?;
        throwable = throwable.with_cause(parse_throwable(cause)?);
    }
    if let Some(list) = field(object, "suppressed") {
        for suppressed in list.as_array().ok_or("\"suppressed\" must be an array")? {
            let suppressed = suppressed
                .as_object()
                .ok_or("a suppressed throwable must be an object")?;
            throwable = throwable.with_suppressed(parse_throwable(suppressed)?);
        }
    }
    Ok(throwable)
}
