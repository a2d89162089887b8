//! Shared by the integration tests: events described as the oracle's `events.jsonl` lines,
//! owned here and lent out as `LogEvent`s, and the checks run on them.

#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::sync::Arc;

use l4rs_core::{
    ContextMap, ContextStack, Layout, Level, Location, LogEvent, Marker, Message, StackFrame,
    ThreadInfo, Throwable, ThrowableRef, Timestamp,
};
use serde_json::Value;

/// An event that owns its data.
pub(crate) struct OwnedEvent {
    pub logger: String,
    pub level: Level,
    pub message: String,
    pub timestamp: Timestamp,
    pub thread: String,
    pub thread_id: u64,
    pub priority: i32,
    pub location: Option<(String, String, String, i32)>,
    pub mdc: ContextMap,
    pub ndc: ContextStack,
    pub marker: Option<Arc<Marker>>,
    pub throwable: Option<Throwable>,
}

impl OwnedEvent {
    /// The reference event of `pattern-cases.tsv`.
    pub(crate) fn reference() -> OwnedEvent {
        OwnedEvent {
            logger: "org.apache.commons.test.Foo".into(),
            level: Level::INFO,
            message: "Hello, world".into(),
            timestamp: Timestamp::from_millis(1_351_866_842_781),
            thread: "main".into(),
            thread_id: 1,
            priority: 5,
            location: None,
            mdc: ContextMap::new(),
            ndc: ContextStack::new(),
            marker: None,
            throwable: None,
        }
    }

    /// Parses one `events.jsonl` line (SCENARIO.md section 3).
    pub(crate) fn from_json(line: &str) -> OwnedEvent {
        let v: Value = serde_json::from_str(line).expect("valid event JSON");
        let mut event = OwnedEvent::reference();
        event.logger = v["logger"].as_str().unwrap().to_string();
        event.level = Level::from_name(v["level"].as_str().unwrap()).unwrap();
        event.message = v["message"].as_str().unwrap().to_string();
        event.timestamp = Timestamp::from_millis(v["time_ms"].as_i64().unwrap());
        if let Some(t) = v["thread"].as_str() {
            event.thread = t.to_string();
        }
        if let Some(id) = v["thread_id"].as_u64() {
            event.thread_id = id;
        }
        if let Some(p) = v["thread_priority"].as_i64() {
            event.priority = p as i32;
        }
        if let Some(loc) = v.get("location").filter(|l| !l.is_null()) {
            event.location = Some((
                loc["class"].as_str().unwrap().into(),
                loc["method"].as_str().unwrap().into(),
                loc["file"].as_str().unwrap().into(),
                loc["line"].as_i64().unwrap() as i32,
            ));
        }
        if let Some(map) = v["mdc"].as_object() {
            for (k, val) in map {
                event.mdc.insert(k.clone(), val.as_str().unwrap());
            }
        }
        if let Some(list) = v["ndc"].as_array() {
            for entry in list {
                event.ndc.push(entry.as_str().unwrap());
            }
        }
        if let Some(name) = v["marker"].as_str() {
            let marker = Marker::get(name);
            if let Some(parents) = v["marker_parents"].as_array() {
                marker.set_parents(
                    parents
                        .iter()
                        .map(|p| Marker::get(p.as_str().unwrap()))
                        .collect(),
                );
            }
            event.marker = Some(marker);
        }
        if let Some(exception) = v.get("exception").filter(|e| !e.is_null()) {
            event.throwable = Some(throwable_from_json(exception));
        }
        event
    }

    /// Lends the event out.
    pub(crate) fn as_event(&self) -> LogEvent<'_> {
        let mut event = LogEvent::new(&self.logger, self.level, Message::Text(&self.message));
        event.timestamp = self.timestamp;
        event.thread = ThreadInfo {
            name: &self.thread,
            id: self.thread_id,
            priority: self.priority,
        };
        event.location = self
            .location
            .as_ref()
            .map(|(class, method, file, line)| Location {
                class,
                method,
                file,
                line: *line,
            });
        event.context_map = &self.mdc;
        event.context_stack = &self.ndc;
        event.marker = self.marker.as_deref();
        event.throwable = self.throwable.as_ref().map(ThrowableRef::Throwable);
        event
    }
}

/// SCENARIO.md section 4.
pub(crate) fn throwable_from_json(v: &Value) -> Throwable {
    let mut t = Throwable::new(v["class"].as_str().unwrap());
    if let Some(message) = v["message"].as_str() {
        t = t.with_message(message);
    }
    if let Some(frames) = v["frames"].as_array() {
        t = t.with_frames(
            frames
                .iter()
                .map(|f| {
                    StackFrame::java(
                        f["class"].as_str().unwrap(),
                        f["method"].as_str().unwrap(),
                        f["file"].as_str(),
                        f["line"].as_i64().unwrap() as i32,
                    )
                })
                .collect(),
        );
    }
    if let Some(cause) = v.get("cause").filter(|c| !c.is_null()) {
        t = t.with_cause(throwable_from_json(cause));
    }
    if let Some(list) = v["suppressed"].as_array() {
        for s in list {
            t = t.with_suppressed(throwable_from_json(s));
        }
    }
    t
}

/// The synthetic exception E of `pattern-cases.tsv` (reference section c.9).
pub(crate) fn exception_e() -> Throwable {
    let main = StackFrame::java("com.example.Main", "main", Some("Main.java"), 5);
    let load = StackFrame::java("com.example.Service", "load", Some("Service.java"), 17);
    Throwable::new("java.lang.IllegalStateException")
        .with_message("boom")
        .with_frames(vec![
            StackFrame::java("com.example.Service", "handle", Some("Service.java"), 30),
            load.clone(),
            main.clone(),
        ])
        .with_suppressed(
            Throwable::new("java.lang.Exception")
                .with_message("suppressed one")
                .with_frames(vec![
                    StackFrame::java("com.example.Closer", "close", Some("Closer.java"), 9),
                    main.clone(),
                ]),
        )
        .with_cause(
            Throwable::new("java.lang.RuntimeException")
                .with_message("root cause")
                .with_frames(vec![
                    StackFrame::java("com.example.Dao", "query", Some("Dao.java"), 42),
                    load,
                    main,
                ]),
        )
}

/// A conformance scenario's folder (`crates/conformance/tests/scenarios/NAME`).
pub(crate) fn scenario_dir(name: &str) -> PathBuf {
    l4rs_test_support::workspace_root()
        .join("crates/conformance/tests/scenarios")
        .join(name)
}

/// A conformance scenario's events, in order.
pub(crate) fn scenario_events(name: &str) -> Vec<OwnedEvent> {
    events_in(&scenario_dir(name))
}

/// The events of the `events.jsonl` in folder `dir` (a scenario's or an oracle probe's), in
/// order.
pub(crate) fn events_in(dir: &Path) -> Vec<OwnedEvent> {
    std::fs::read_to_string(dir.join("events.jsonl"))
        .expect("the scenario's events")
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(OwnedEvent::from_json)
        .collect()
}

/// A scenario's File appender: the name of the file it writes, its layout, and whether the
/// root logger feeds it (every scenario routes all events to the root's appenders and none
/// elsewhere, so the others get no event).
pub(crate) struct ScenarioFile {
    pub file: String,
    pub layout: Option<l4rs_config::model::LayoutSpec>,
    pub gets_events: bool,
}

/// The File appenders of scenario folder `scenario`.
pub(crate) fn scenario_files(scenario: &Path) -> Vec<ScenarioFile> {
    let text = std::fs::read_to_string(scenario.join("log4j2.xml")).unwrap();
    let config = l4rs_config::load_str(&text, None).expect("the scenario's configuration loads");
    file_appenders(&config)
}

/// The File appenders of a scenario's loaded configuration.
pub(crate) fn file_appenders(config: &l4rs_config::model::Configuration) -> Vec<ScenarioFile> {
    use l4rs_config::model::AppenderKind;
    config
        .appenders
        .iter()
        .filter_map(|appender| {
            let AppenderKind::File(file) = &appender.kind else {
                return None;
            };
            Some(ScenarioFile {
                file: file.file_name.rsplit('/').next().unwrap().to_string(),
                layout: appender.layout.clone(),
                gets_events: config
                    .loggers
                    .root
                    .appender_refs
                    .iter()
                    .any(|r| r.appender == appender.name),
            })
        })
        .collect()
}

/// What an appender writes: the header, each event and the footer, each encoded on its own
/// (GELF compresses per event; log4j2's UTF-16 encoder starts each piece with a byte order
/// mark); an empty header or footer writes nothing.
pub(crate) fn written(layout: &dyn Layout, events: &[OwnedEvent]) -> Vec<u8> {
    let mut bytes = Vec::new();
    let mut encode = |text: &str| {
        if !text.is_empty() {
            let mut scratch = Vec::new();
            bytes.extend_from_slice(layout.encode(text, &mut scratch));
        }
    };
    let mut text = String::new();
    layout.header(&mut text);
    encode(&text);
    for event in events {
        text.clear();
        layout.format(&event.as_event(), &mut text);
        encode(&text);
    }
    text.clear();
    layout.footer(&mut text);
    encode(&text);
    bytes
}

/// Formats each of `events` with `layout` once, so that the layout fills its caches, then
/// again while counting this thread's allocations, and fails on the first event that
/// allocates, naming `what` and the event. Only a test binary whose global allocator is a
/// `CountingAllocator` with `count_on_this_thread` counts anything.
pub(crate) fn assert_warm_formatting_allocates_nothing(
    layout: &dyn Layout,
    events: &[OwnedEvent],
    what: &str,
) {
    let mut out = String::with_capacity(64 * 1024);
    for event in events {
        layout.format(&event.as_event(), &mut out);
    }
    for event in events {
        let event = event.as_event();
        out.clear();
        let allocations = l4rs_test_support::allocations::allocations_during(|| {
            layout.format(&event, &mut out);
        });
        assert_eq!(
            allocations, 0,
            "{what} allocated formatting {:?}: {out}",
            event.message
        );
    }
}
