//! `l4rs-replay SCENARIO_DIR OUT_DIR`: replays an oracle scenario through l4rs, with the
//! contract of `shared/oracle/SCENARIO.md` §2 (the same as the Java oracle's `run.sh`).
//!
//! A scenario may also hold `steps.json`, the reconfiguration steps only the project's own
//! Java counterpart (`crates/conformance/java/ReconfigureReplay.java`) knows: a JSON array of
//! objects, each with `after` (how many events are logged before it) and one of `reconfigure`
//! (a file of the scenario folder, put in force with `l4rs::reconfigure_with_file`),
//! `set_level` (`{"logger", "level"}`, `l4rs::set_level`) or `set_root_level` (a level).
//!
//! Exit status, as the oracle's: 0 after a replay, 2 for a malformed scenario (bad arguments,
//! files or events), 3 for a failure of the replay itself.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

use l4rs::core::{Location, LogEvent, Message, ThreadInfo, ThrowableRef, Timestamp};
use l4rs::{Level, Marker};
use l4rs_conformance::scenario::{
    read_events, read_settings, resolve_level, RecordedEvent, ScenarioError,
};

/// Why a replay did not complete.
#[derive(Debug, thiserror::Error)]
enum ReplayError {
    /// The scenario is malformed (exit status 2).
    #[error(transparent)]
    Scenario(#[from] ScenarioError),
    /// The replay itself failed (exit status 3).
    #[error("{0}")]
    Internal(String),
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    if args.len() != 3 {
        eprintln!("usage: l4rs-replay SCENARIO_DIR OUT_DIR");
        return ExitCode::from(2);
    }
    match replay(Path::new(&args[1]), Path::new(&args[2])) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("l4rs-replay: {error}");
            ExitCode::from(match error {
                ReplayError::Scenario(_) => 2,
                ReplayError::Internal(_) => 3,
            })
        }
    }
}

fn replay(scenario: &Path, out: &Path) -> Result<(), ReplayError> {
    let internal = ReplayError::Internal;
    for required in ["log4j2.xml", "events.jsonl"] {
        if !scenario.join(required).is_file() {
            return Err(ScenarioError::Io {
                path: scenario.join(required).display().to_string(),
                source: std::io::Error::from(std::io::ErrorKind::NotFound),
            }
            .into());
        }
    }
    let settings = read_settings(scenario)?;
    // The layouts' default zone is the process's local zone, which follows TZ.
    std::env::set_var("TZ", &settings.timezone);
    let events = read_events(scenario)?;
    let steps = read_steps(scenario)?;

    std::fs::create_dir_all(out)
        .map_err(|e| internal(format!("cannot create {}: {e}", out.display())))?;
    let out = out
        .canonicalize()
        .map_err(|e| internal(format!("cannot resolve {}: {e}", out.display())))?;
    let seed = scenario.join("seed");
    if seed.is_dir() {
        copy_tree(&seed, &out).map_err(|e| internal(format!("cannot copy seed files: {e}")))?;
    }
    l4rs::config::substitute::set_system_property("out", out.display().to_string());

    // Markers are global: define every marker's parents before the first event.
    for event in &events {
        if let (Some(name), Some(parents)) = (&event.marker, &event.marker_parents) {
            Marker::get(name).set_parents(parents.iter().map(|p| Marker::get(p)).collect());
        }
    }

    // Problems in the configuration are reported on stderr by the status logger, as log4j2
    // reports them; the replay goes on with what could be built.
    let _ = l4rs::init_with_file(scenario.join("log4j2.xml"));
    // Levels resolve only now, against the custom levels the configuration declared. As in the
    // oracle, the events before an unknown level are still logged and the logging system is
    // shut down before the failure is reported.
    let events_file = scenario.join("events.jsonl").display().to_string();
    let mut outcome = Ok(());
    for (index, event) in events.iter().enumerate() {
        apply_steps(&steps, index, scenario);
        match resolve_level(event, &events_file) {
            Ok(level) => replay_event(event, level),
            Err(error) => {
                outcome = Err(error);
                break;
            }
        }
    }
    if outcome.is_ok() {
        apply_steps(&steps, events.len(), scenario);
    }
    l4rs::shutdown();
    outcome?;

    let meta = format!(
        "{{\"pid\": {}, \"events\": {}}}\n",
        std::process::id(),
        events.len()
    );
    std::fs::write(out.join("replay-meta.json"), meta)
        .map_err(|e| internal(format!("cannot write replay-meta.json: {e}")))
}

/// One step of `steps.json`.
enum Step {
    Reconfigure(PathBuf),
    SetLevel(String, String),
}

/// Reads `steps.json` (absent: no steps) as `(after, step)` pairs.
fn read_steps(scenario: &Path) -> Result<Vec<(usize, Step)>, ReplayError> {
    let path = scenario.join("steps.json");
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Ok(Vec::new());
    };
    let malformed = |why: &str| ReplayError::Internal(format!("{}: {why}", path.display()));
    let value: serde_json::Value =
        serde_json::from_str(&text).map_err(|e| malformed(&e.to_string()))?;
    let items = value.as_array().ok_or_else(|| malformed("not an array"))?;
    let mut steps = Vec::new();
    for item in items {
        let after = item["after"]
            .as_u64()
            .ok_or_else(|| malformed("a step without \"after\""))? as usize;
        let step = if let Some(file) = item["reconfigure"].as_str() {
            Step::Reconfigure(scenario.join(file))
        } else if let (Some(logger), Some(level)) = (
            item["set_level"]["logger"].as_str(),
            item["set_level"]["level"].as_str(),
        ) {
            Step::SetLevel(logger.to_string(), level.to_string())
        } else if let Some(level) = item["set_root_level"].as_str() {
            Step::SetLevel(String::new(), level.to_string())
        } else {
            return Err(malformed(
                "a step that is none of reconfigure, set_level, set_root_level",
            ));
        };
        steps.push((after, step));
    }
    Ok(steps)
}

/// Applies the steps due after `logged` events. Their errors were reported by the status
/// logger, as log4j2 reports them; the replay goes on.
fn apply_steps(steps: &[(usize, Step)], logged: usize, scenario: &Path) {
    for (_, step) in steps.iter().filter(|(after, _)| *after == logged) {
        match step {
            Step::Reconfigure(file) => {
                let _ = l4rs::reconfigure_with_file(file);
            }
            Step::SetLevel(logger, level) => match Level::from_name(level) {
                Ok(level) => {
                    let _ = l4rs::set_level(logger, level);
                }
                Err(_) => eprintln!(
                    "l4rs-replay: {}: unknown level {level}",
                    scenario.join("steps.json").display()
                ),
            },
        }
    }
}

fn replay_event(recorded: &RecordedEvent, level: Level) {
    let logger = l4rs::get_logger(&recorded.logger);
    let marker = recorded.marker.as_deref().map(Marker::get);
    let location = recorded.location.as_ref().map(|l| Location {
        class: &l.class,
        method: &l.method,
        file: &l.file,
        line: l.line,
    });
    let event = LogEvent {
        logger_name: &recorded.logger,
        level,
        message: Message::Text(&recorded.message),
        timestamp: Timestamp::from_millis(recorded.time_ms),
        thread: ThreadInfo {
            name: &recorded.thread,
            id: recorded.thread_id,
            priority: recorded.thread_priority,
        },
        location,
        throwable: recorded.exception.as_ref().map(ThrowableRef::Throwable),
        context_map: &recorded.mdc,
        context_stack: &recorded.ndc,
        marker: marker.as_deref(),
        nano_time: 0,
        end_of_batch: false,
        rendered: None,
    };
    // Appender errors were already reported by the status logger.
    let _ = logger.log_event(&event);
}

fn copy_tree(from: &Path, to: &Path) -> std::io::Result<()> {
    for entry in std::fs::read_dir(from)? {
        let entry = entry?;
        let target: PathBuf = to.join(entry.file_name());
        if entry.file_type()?.is_dir() {
            std::fs::create_dir_all(&target)?;
            copy_tree(&entry.path(), &target)?;
        } else {
            std::fs::copy(entry.path(), &target)?;
        }
    }
    Ok(())
}
