//! Conformance across a reconfiguration: the scenarios of `crates/conformance/tests/reconfigure/`
//! (events, then a step from their `steps.json`: reconfigure from another file, set a level,
//! set the root level, then more events) replayed by real log4j2 through the project's own
//! `crates/conformance/java/run-reconfigure.sh` and by `l4rs-replay`, compared byte for byte
//! by the oracle's `compare.py`: shared files, appenders added and removed (footers written),
//! additivity and levels changed. The status lines both print across the reconfiguration are
//! compared too (compare.py never looks at stderr).
//!
//! Skipped with a notice without Java or Debian's log4j2 jars, except under CI.

mod common;

use std::path::Path;

use common::{
    compare, passed_count, replay_binary, replay_into, replay_output_dir, require_oracle,
    scenario_name, scenarios_under, status_lines, workspace_root,
};

#[test]
fn reconfiguration_scenarios_match_log4j2() {
    let scenarios =
        scenarios_under(&[workspace_root().join("crates/conformance/tests/reconfigure")]);
    assert!(
        scenarios.len() >= 3,
        "the reconfiguration scenarios are missing"
    );
    if !require_oracle("the reconfiguration scenarios") {
        return;
    }
    let report = compare(
        &workspace_root().join("crates/conformance/java/run-reconfigure.sh"),
        &replay_binary(),
        &["-j", "2"],
        &[],
        &scenarios,
    );
    assert_eq!(
        passed_count(&report),
        scenarios.len(),
        "scenarios differ from log4j2:\n{report}"
    );
}

/// The status lines `command` prints on `scenario` (l4rs's ` (help: …)` endings cut off).
fn status_of(command: &Path, scenario: &Path, oracle: bool) -> Vec<String> {
    let out = replay_output_dir("reconfigure-status", scenario, oracle);
    let stderr = replay_into(command, scenario, &out, oracle);
    let out = out.canonicalize().unwrap_or(out);
    let lines = status_lines(&stderr, scenario, &out, true);
    let _ = std::fs::remove_dir_all(&out);
    lines
}

#[test]
fn status_lines_across_a_reconfiguration_are_log4j2s() {
    if !require_oracle("the reconfiguration status lines") {
        return;
    }
    let oracle = workspace_root().join("crates/conformance/java/run-reconfigure.sh");
    let mut differences = Vec::new();
    let mut reported = 0;
    for scenario in
        scenarios_under(&[workspace_root().join("crates/conformance/tests/reconfigure")])
    {
        let scenario = scenario.canonicalize().expect("scenario folder");
        let theirs = status_of(&oracle, &scenario, true);
        let ours = status_of(&replay_binary(), &scenario, false);
        reported += theirs.len();
        if ours != theirs {
            differences.push(format!(
                "{}: log4j2 reports {theirs:?}, l4rs {ours:?}",
                scenario_name(&scenario)
            ));
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    assert!(
        reported > 0,
        "no scenario reports anything across a reconfiguration"
    );
}
