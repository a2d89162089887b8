//! The conformance suite: every oracle scenario (`shared/oracle/scenarios/` and the project's
//! own `tests/conformance/scenarios/`) replayed by real log4j2 and by `l4rs-replay`, compared
//! byte for byte by the oracle's `compare.py`.
//!
//! Scenarios listed in `tests/conformance/known-differences.txt` are expected to fail (each with
//! its reason, mirrored in docs/compatibility.md); the test fails when any other scenario fails,
//! and also when a listed one passes, so the list stays true.
//!
//! The replay binary is the one Cargo built for this test unless `L4RS_REPLAY` names another:
//! `.ci/run` builds a release `l4rs-replay` first and points this test at it, which is what CI
//! compares and keeps the ~100 replays fast.
//!
//! Without Java or Debian's log4j2 jars the test is skipped with a notice, except under CI
//! (`CI` set, as CI runs set it), where a missing oracle fails it.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn oracle_dir() -> PathBuf {
    workspace_root().join("../shared/oracle")
}

fn oracle_available() -> Result<(), String> {
    let jars = ["log4j-api.jar", "log4j-core.jar", "disruptor.jar"];
    let jar_dir = std::env::var("LOG4J_JAR_DIR").unwrap_or_else(|_| "/usr/share/java".into());
    for jar in jars {
        if !Path::new(&jar_dir).join(jar).exists() {
            return Err(format!(
                "{jar_dir}/{jar} is missing (apt-get install -y liblog4j2-java libdisruptor-java)"
            ));
        }
    }
    if Command::new("javac").arg("-version").output().is_err() {
        return Err("javac is missing (apt-get install -y default-jdk-headless)".into());
    }
    if !oracle_dir().join("compare.py").exists() {
        return Err(format!(
            "{} is missing",
            oracle_dir().join("compare.py").display()
        ));
    }
    Ok(())
}

/// The `l4rs-replay` to compare: `L4RS_REPLAY` if set, else the one built with this test.
fn replay_binary() -> PathBuf {
    match std::env::var_os("L4RS_REPLAY") {
        Some(path) if !path.is_empty() => {
            let path = PathBuf::from(path);
            assert!(
                path.is_file(),
                "L4RS_REPLAY={} is not a file",
                path.display()
            );
            path
        }
        _ => PathBuf::from(env!("CARGO_BIN_EXE_l4rs-replay")),
    }
}

/// JVM options for every oracle run, after any the caller set in `ORACLE_JAVA_OPTS`.
///
/// The JVM's own warnings go to stdout by default, where they would count as Console output:
/// one run printed `Cannot use file /tmp/hsperfdata_root/<pid> because it is locked by another
/// process` when a JVM in another PID namespace had left a file of the same pid. No perf-data
/// file at all, and JVM warnings on stderr, keep stdout to what the scenario's appenders print.
fn oracle_java_opts() -> String {
    let ours = "-XX:-UsePerfData -Xlog:disable -Xlog:all=warning:stderr";
    match std::env::var("ORACLE_JAVA_OPTS") {
        Ok(theirs) if !theirs.trim().is_empty() => format!("{theirs} {ours}"),
        _ => ours.to_string(),
    }
}

fn known_differences() -> BTreeSet<String> {
    let path = workspace_root().join("tests/conformance/known-differences.txt");
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter_map(|line| line.split('#').next())
        .map(str::trim)
        .filter(|name| !name.is_empty())
        .map(str::to_string)
        .collect()
}

fn scenario_dirs() -> Vec<PathBuf> {
    let mut dirs = Vec::new();
    for root in [
        oracle_dir().join("scenarios"),
        workspace_root().join("tests/conformance/scenarios"),
    ] {
        if let Ok(entries) = std::fs::read_dir(&root) {
            for entry in entries.flatten() {
                if entry.path().join("log4j2.xml").exists() {
                    dirs.push(entry.path());
                }
            }
        }
    }
    dirs.sort();
    dirs
}

#[test]
fn every_scenario_matches_log4j2() {
    if let Err(missing) = oracle_available() {
        assert!(
            std::env::var("CI").unwrap_or_default().is_empty(),
            "the oracle is required under CI but {missing}"
        );
        eprintln!("skipping the conformance suite: {missing}");
        return;
    }
    let scenarios = scenario_dirs();
    assert!(!scenarios.is_empty(), "no scenarios found");
    let replay = replay_binary();
    eprintln!("comparing {} against log4j2", replay.display());
    let output = Command::new("python3")
        .env("ORACLE_JAVA_OPTS", oracle_java_opts())
        .arg(oracle_dir().join("compare.py"))
        .arg("--oracle")
        .arg(oracle_dir().join("log4j2-java/run.sh"))
        .arg("--candidate")
        .arg(&replay)
        .arg("-j")
        .arg("2")
        .args(&scenarios)
        .output()
        .expect("run compare.py");
    let report = String::from_utf8_lossy(&output.stdout);
    println!("{report}");
    eprintln!("{}", String::from_utf8_lossy(&output.stderr));

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
    let known = known_differences();
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
