//! The conformance suite: every oracle scenario (`shared/oracle/scenarios/`, the project's
//! own `crates/conformance/tests/scenarios/` and the layout crate's probe scenarios in
//! `crates/layout/tests/oracle/`) replayed by real log4j2 and by `l4rs-replay`, compared byte
//! for byte by the oracle's `compare.py`.
//!
//! Scenarios listed in `crates/conformance/tests/known-differences.txt` are expected to fail (each with
//! its reason, mirrored in docs/compatibility.md); the test fails when any other scenario fails,
//! and also when a listed one passes, so the list stays true. The list may only name the
//! project's own scenarios: every public scenario must pass.
//!
//! The replay binary is the one Cargo built for this test unless `L4RS_REPLAY` names another:
//! `.ci/run` builds a release `l4rs-replay` first and points this test at it, which is what CI
//! compares and keeps the ~100 replays fast.
//!
//! Without Java or Debian's log4j2 jars the test is skipped with a notice, except under CI
//! (`CI` set, as CI runs set it), where a missing oracle fails it.

mod common;

use std::collections::BTreeSet;
use std::path::PathBuf;

use common::{
    compare, listed_scenarios, oracle_dir, passed_count, replay_binary, require_oracle,
    scenario_name, scenarios_under, workspace_root,
};

/// The folders holding the project's own scenarios (the public ones are the oracle's).
fn own_scenario_roots() -> [PathBuf; 2] {
    [
        workspace_root().join("crates/conformance/tests/scenarios"),
        workspace_root().join("crates/layout/tests/oracle"),
    ]
}

fn public_scenarios() -> Vec<PathBuf> {
    scenarios_under(&[oracle_dir().join("scenarios")])
}

fn scenario_dirs() -> Vec<PathBuf> {
    let mut dirs = public_scenarios();
    dirs.extend(scenarios_under(&own_scenario_roots()));
    dirs
}

/// Entries of known-differences.txt that name a public scenario (which must pass, so may not be
/// excused) or no scenario at all.
fn invalid_known_differences(
    known: &BTreeSet<String>,
    public: &BTreeSet<String>,
    own: &BTreeSet<String>,
) -> Vec<String> {
    known
        .iter()
        .filter_map(|name| {
            if public.contains(name) {
                Some(format!(
                    "{name} is a public scenario; every public scenario must pass"
                ))
            } else if !own.contains(name) {
                Some(format!("{name} is not one of the project's scenarios"))
            } else {
                None
            }
        })
        .collect()
}

/// Runs without the oracle: the list of known differences is checked against the folders.
#[test]
fn known_differences_name_only_own_scenarios() {
    let public: BTreeSet<String> = public_scenarios()
        .iter()
        .map(|d| scenario_name(d))
        .collect();
    let own: BTreeSet<String> = scenarios_under(&own_scenario_roots())
        .iter()
        .map(|d| scenario_name(d))
        .collect();
    assert!(!own.is_empty(), "the project's own scenarios are missing");
    let problems =
        invalid_known_differences(&listed_scenarios("known-differences.txt"), &public, &own);
    assert!(problems.is_empty(), "known-differences.txt: {problems:?}");
}

#[test]
fn a_public_scenario_cannot_be_a_known_difference() {
    let set = |names: &[&str]| names.iter().map(|n| n.to_string()).collect::<BTreeSet<_>>();
    let problems = invalid_known_differences(
        &set(&["010-seed-appenders", "300-mine", "999-gone"]),
        &set(&["010-seed-appenders"]),
        &set(&["300-mine"]),
    );
    assert_eq!(
        problems,
        [
            "010-seed-appenders is a public scenario; every public scenario must pass",
            "999-gone is not one of the project's scenarios",
        ]
    );
}

#[test]
fn every_scenario_matches_log4j2() {
    if !require_oracle("the conformance suite") {
        return;
    }
    let scenarios = scenario_dirs();
    assert!(!scenarios.is_empty(), "no scenarios found");
    let replay = replay_binary();
    eprintln!("comparing {} against log4j2", replay.display());
    let report = compare(
        &oracle_dir().join("log4j2-java/run.sh"),
        &replay,
        &["-j", "2"],
        &[],
        &scenarios,
    );

    let failed: BTreeSet<String> = report
        .lines()
        .filter_map(|line| line.strip_prefix("FAIL "))
        .map(|rest| rest.split_whitespace().next().unwrap_or(rest).to_string())
        .collect();
    let passed: BTreeSet<String> = report
        .lines()
        .filter_map(|line| line.strip_prefix("PASS "))
        .map(|rest| rest.split_whitespace().next().unwrap_or(rest).to_string())
        .collect();
    assert_eq!(
        passed.len() + failed.len(),
        scenarios.len(),
        "compare.py did not report every scenario"
    );
    let known = listed_scenarios("known-differences.txt");
    let unexpected: Vec<_> = failed.difference(&known).collect();
    let fixed: Vec<_> = known.intersection(&passed).collect();
    assert!(
        unexpected.is_empty(),
        "scenarios that differ from log4j2: {unexpected:?}"
    );
    assert!(
        fixed.is_empty(),
        "listed as known differences but now pass (remove them from known-differences.txt and docs/compatibility.md): {fixed:?}"
    );
}

/// The scenarios whose log4j2 behaviour depends on the calling thread's ThreadContext before the
/// event exists (a context-wide `DynamicThresholdFilter`): the oracle's default replay builds
/// events with their context data but calls `isEnabled` with an empty ThreadContext, so these are
/// replayed with `ORACLE_REAL_CALLS=1` (real logger calls with the ThreadContext set).
#[test]
fn real_call_scenarios_match_log4j2() {
    if !require_oracle("the real-call conformance scenarios") {
        return;
    }
    let scenarios =
        scenarios_under(&[workspace_root().join("crates/conformance/tests/real-calls")]);
    assert!(!scenarios.is_empty(), "no real-call scenarios found");
    let report = compare(
        &oracle_dir().join("log4j2-java/run.sh"),
        &replay_binary(),
        &[],
        &[("ORACLE_REAL_CALLS", "1")],
        &scenarios,
    );
    assert_eq!(
        passed_count(&report),
        scenarios.len(),
        "real-call scenarios differ from log4j2"
    );
}
