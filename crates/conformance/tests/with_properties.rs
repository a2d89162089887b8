//! Scenarios that need a log4j2 property set, against log4j2: both libraries read log4j2's
//! properties from `LOG4J_…` environment variables, which a scenario folder cannot carry, so
//! each scenario in `tests/with-properties/` lists its variables in `properties.env`
//! (`NAME=value` lines). This test sets them for both replays and compares their status lines
//! (l4rs's ` (help: …)` endings cut off) and every file they wrote; it also replays the
//! scenario through log4j2 without them, which must give other status lines or files, so each
//! scenario shows what its property does.
//!
//! - `languages-without-engines`: `log4j2.Script.enableLanguages` with no script engine on the
//!   oracle's class path, which is what l4rs is: every script is refused in the script
//!   manager's words (without the property, scenario 503 covers the script plugins).
//! - `all-asynchronous-loggers`: `log4j2.contextSelector` naming `AsyncLoggerContextSelector`,
//!   which makes every logger asynchronous and their `includeLocation` default false.

mod common;

use std::path::Path;

use common::{
    files_under, oracle_dir, replay_both, replay_into_with_env, replay_output_dir, require_oracle,
    status_lines,
};

/// The scenario's `properties.env`, as `(name, value)` pairs.
fn properties(scenario: &Path) -> Vec<(String, String)> {
    let text = std::fs::read_to_string(scenario.join("properties.env"))
        .unwrap_or_else(|error| panic!("{}/properties.env: {error}", scenario.display()));
    text.lines()
        .map(str::trim)
        .filter(|line| !line.is_empty() && !line.starts_with('#'))
        .map(|line| {
            let (name, value) = line.split_once('=').expect("NAME=value");
            (name.to_string(), value.to_string())
        })
        .collect()
}

/// One replay's status lines and files, with `env` set.
type Outcome = (Vec<String>, std::collections::BTreeMap<String, String>);

fn replay(
    command: &Path,
    scenario: &Path,
    out: &Path,
    oracle: bool,
    env: &[(&str, &str)],
) -> Outcome {
    let _ = std::fs::remove_dir_all(out);
    let stderr = replay_into_with_env(command, scenario, out, oracle, env);
    (
        status_lines(&stderr, scenario, out, !oracle),
        files_under(out),
    )
}

#[test]
fn scenarios_with_properties_match_log4j2() {
    if !require_oracle("the scenarios with properties") {
        return;
    }
    let replays = replay_both(
        "with-properties",
        "with-properties",
        |command, scenario, out, oracle| {
            let properties = properties(scenario);
            let env: Vec<(&str, &str)> = properties
                .iter()
                .map(|(name, value)| (name.as_str(), value.as_str()))
                .collect();
            Some(replay(command, scenario, out, oracle, &env))
        },
    )
    .expect("no server");
    let root = l4rs_test_support::workspace_root().join("crates/conformance/tests/with-properties");
    let folders = std::fs::read_dir(&root).expect("the scenarios").count();
    assert!(folders > 0, "the scenarios are missing");
    assert_eq!(replays.len(), folders, "every folder is a scenario");
    for both in replays {
        let scenario = root.join(&both.name);
        let out = replay_output_dir("without-properties", &scenario, true);
        let without = replay(
            &oracle_dir().join("log4j2-java/run.sh"),
            &scenario,
            &out,
            true,
            &[],
        );
        let _ = std::fs::remove_dir_all(&out);
        assert_ne!(
            without, both.theirs,
            "{}: the properties change nothing",
            both.name
        );
        assert_eq!(both.ours.0, both.theirs.0, "{}: status lines", both.name);
        assert_eq!(both.ours.1, both.theirs.1, "{}: files", both.name);
    }
}
