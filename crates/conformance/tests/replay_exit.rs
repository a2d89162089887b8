//! `l4rs-replay`'s exit status, as SCENARIO.md §2 gives the oracle's: 0 after a replay, 2 for a
//! malformed scenario, 3 for a failure of the replay itself.

use std::path::{Path, PathBuf};
use std::process::Command;

mod common;

/// A scenario folder in the temporary directory, removed on drop.
struct Folder(PathBuf);

impl Folder {
    fn new(label: &str) -> Folder {
        let path =
            std::env::temp_dir().join(format!("l4rs-replay-exit-{}-{label}", std::process::id()));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        Folder(path)
    }

    fn scenario(label: &str, events: &str) -> Folder {
        let folder = Folder::new(label);
        std::fs::write(
            folder.0.join("log4j2.xml"),
            r#"<Configuration><CustomLevels><CustomLevel name="NOTICE" intLevel="350"/></CustomLevels>
<Appenders><File name="F" fileName="${sys:out}/app.log"><PatternLayout pattern="%p %m%n"/></File></Appenders>
<Loggers><Root level="all"><AppenderRef ref="F"/></Root></Loggers></Configuration>"#,
        )
        .unwrap();
        std::fs::write(folder.0.join("events.jsonl"), events).unwrap();
        folder
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn replay(scenario: &Path, out: &Path) -> Option<i32> {
    Command::new(common::replay_binary())
        .arg(scenario)
        .arg(out)
        .output()
        .expect("run l4rs-replay")
        .status
        .code()
}

const EVENT: &str = r#"{"logger": "a", "level": "NOTICE", "message": "m", "time_ms": 1}"#;

#[test]
fn a_valid_scenario_exits_0_with_a_custom_level() {
    let scenario = Folder::scenario("valid", EVENT);
    let out = Folder::new("valid-out");
    assert_eq!(replay(&scenario.0, &out.0), Some(0));
    assert_eq!(
        std::fs::read_to_string(out.0.join("app.log")).unwrap(),
        "NOTICE m\n"
    );
}

#[test]
fn a_malformed_event_exits_2() {
    let scenario = Folder::scenario("malformed", &format!("{EVENT}\n{{\"logger\": \"a\"}}\n"));
    let out = Folder::new("malformed-out");
    assert_eq!(replay(&scenario.0, &out.0), Some(2));
}

#[test]
fn an_unknown_level_exits_2_after_logging_the_events_before_it() {
    let bad = r#"{"logger": "a", "level": "NOPE", "message": "n", "time_ms": 2}"#;
    let scenario = Folder::scenario("unknown-level", &format!("{EVENT}\n{bad}\n"));
    let out = Folder::new("unknown-level-out");
    assert_eq!(replay(&scenario.0, &out.0), Some(2));
    assert_eq!(
        std::fs::read_to_string(out.0.join("app.log")).unwrap(),
        "NOTICE m\n"
    );
    assert!(!out.0.join("replay-meta.json").exists());
}

#[test]
fn bad_settings_or_missing_files_exit_2() {
    let scenario = Folder::scenario("settings", EVENT);
    std::fs::write(scenario.0.join("scenario.json"), r#"{"zone": "UTC"}"#).unwrap();
    let out = Folder::new("settings-out");
    assert_eq!(replay(&scenario.0, &out.0), Some(2));
    let empty = Folder::new("empty");
    assert_eq!(replay(&empty.0, &out.0), Some(2));
}

#[test]
fn wrong_arguments_exit_2() {
    let status = Command::new(common::replay_binary())
        .arg("only-one")
        .status()
        .expect("run l4rs-replay");
    assert_eq!(status.code(), Some(2));
}

#[test]
fn an_output_folder_that_cannot_be_created_exits_3() {
    let scenario = Folder::scenario("no-out", EVENT);
    let blocker = Folder::new("blocker");
    let file = blocker.0.join("a-file");
    std::fs::write(&file, "").unwrap();
    assert_eq!(replay(&scenario.0, &file.join("out")), Some(3));
}
