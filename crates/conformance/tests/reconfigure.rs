//! Conformance across a reconfiguration: the scenarios of `tests/conformance/reconfigure/`
//! (events, then a step from their `steps.json`: reconfigure from another file, set a level,
//! set the root level, then more events) replayed by real log4j2 through the project's own
//! `crates/conformance/java/run-reconfigure.sh` and by `l4rs-replay`, compared byte for byte
//! by the oracle's `compare.py`: shared files, appenders added and removed (footers written),
//! additivity and levels changed.
//!
//! Skipped with a notice without Java or Debian's log4j2 jars, except under CI.

mod common;

use std::process::Command;

use common::{
    oracle_dir, oracle_java_opts, replay_binary, require_oracle, scenarios_under, workspace_root,
};

#[test]
fn reconfiguration_scenarios_match_log4j2() {
    let scenarios = scenarios_under(&[workspace_root().join("tests/conformance/reconfigure")]);
    assert!(
        scenarios.len() >= 3,
        "the reconfiguration scenarios are missing"
    );
    if !require_oracle("the reconfiguration scenarios") {
        return;
    }
    let output = Command::new("python3")
        .env("ORACLE_JAVA_OPTS", oracle_java_opts())
        .arg(oracle_dir().join("compare.py"))
        .arg("--oracle")
        .arg(workspace_root().join("crates/conformance/java/run-reconfigure.sh"))
        .arg("--candidate")
        .arg(replay_binary())
        .arg("-j")
        .arg("2")
        .args(&scenarios)
        .output()
        .expect("run compare.py");
    let report = String::from_utf8_lossy(&output.stdout);
    println!("{report}");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));
    let passed = report
        .lines()
        .filter(|line| line.starts_with("PASS "))
        .count();
    assert_eq!(
        passed,
        scenarios.len(),
        "scenarios differ from log4j2:\n{report}"
    );
}
