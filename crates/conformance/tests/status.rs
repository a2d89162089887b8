//! Status messages: what l4rs reports on stderr while loading a scenario's configuration must
//! be what log4j2 reports (compare.py never looks at stderr, so this is checked here).
//!
//! Each scenario in `crates/conformance/tests/scenarios/` keeps the oracle's status lines in
//! `expected-status.txt` (absent when log4j2 prints none): one `LEVEL message` per line, with the
//! timestamp and thread name dropped, Java stack traces left out, and the scenario folder and
//! output folder written `<SCENARIO>` and `<OUT>`. The files are generated from the live oracle:
//!
//! ```sh
//! L4RS_WRITE_STATUS=1 cargo test -p l4rs-conformance --test status -- stored_status_is_log4j2s
//! ```
//!
//! * [`stored_status_is_log4j2s`] (needs the oracle, like `oracle.rs`) checks the stored files
//!   against the live oracle, or rewrites them with `L4RS_WRITE_STATUS=1`.
//! * [`l4rs_reports_what_log4j2_reports`] runs `l4rs-replay` on every scenario and compares its
//!   status lines with the stored ones. l4rs may end a message with its own ` (help: …)`; only
//!   the part before it is compared. Scenarios listed in
//!   `crates/conformance/tests/known-status-differences.txt` (each with its reason, mirrored in
//!   docs/compatibility.md) must differ; every other one must match.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use common::{
    listed_scenarios, oracle_dir, replay_binary, replay_into, replay_output_dir, require_oracle,
    scenario_name, scenarios_under, status_lines, workspace_root,
};

const STATUS_FILE: &str = "expected-status.txt";

fn scenarios() -> Vec<PathBuf> {
    scenarios_under(&[workspace_root().join("crates/conformance/tests/scenarios")])
}

/// Runs `command scenario out` in a fresh output folder and returns its stderr.
fn run(command: &Path, scenario: &Path, oracle: bool) -> (String, PathBuf) {
    let out = replay_output_dir("status", scenario, oracle);
    let stderr = replay_into(command, scenario, &out, oracle);
    let _ = std::fs::remove_dir_all(&out);
    (stderr, out)
}

fn stored(scenario: &Path) -> Vec<String> {
    std::fs::read_to_string(scenario.join(STATUS_FILE))
        .unwrap_or_default()
        .lines()
        .map(str::to_string)
        .collect()
}

fn canonical(path: &Path) -> PathBuf {
    path.canonicalize().expect("the scenario folder exists")
}

#[test]
fn stored_status_is_log4j2s() {
    if !require_oracle("the status check against the oracle") {
        return;
    }
    let write = std::env::var_os("L4RS_WRITE_STATUS").is_some_and(|v| !v.is_empty());
    let run_sh = oracle_dir().join("log4j2-java/run.sh");
    let mut stale = Vec::new();
    let dirs: Vec<PathBuf> = scenarios().iter().map(|d| canonical(d)).collect();
    // Two JVMs at a time: the machine running the suite has few cores.
    let halves = dirs.split_at(dirs.len() / 2);
    let results: Vec<(PathBuf, Vec<String>)> = std::thread::scope(|scope| {
        let workers: Vec<_> = [halves.0, halves.1]
            .into_iter()
            .map(|part| {
                let run_sh = &run_sh;
                scope.spawn(move || {
                    part.iter()
                        .map(|dir| {
                            let (stderr, out) = run(run_sh, dir, true);
                            (dir.clone(), status_lines(&stderr, dir, &out, false))
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        workers
            .into_iter()
            .flat_map(|worker| worker.join().expect("oracle worker"))
            .collect()
    });
    for (dir, live) in results {
        let path = dir.join(STATUS_FILE);
        if write {
            if live.is_empty() {
                let _ = std::fs::remove_file(&path);
            } else {
                std::fs::write(&path, live.join("\n") + "\n").expect("write the status file");
            }
        } else if stored(&dir) != live {
            stale.push(format!(
                "{}: stored {:?}, log4j2 now prints {:?}",
                scenario_name(&dir),
                stored(&dir),
                live
            ));
        }
    }
    assert!(
        stale.is_empty(),
        "{STATUS_FILE} out of date (regenerate with L4RS_WRITE_STATUS=1):\n{}",
        stale.join("\n")
    );
}

#[test]
fn l4rs_reports_what_log4j2_reports() {
    let replay = replay_binary();
    let known = listed_scenarios("known-status-differences.txt");
    let mut outcomes = BTreeMap::new();
    for dir in scenarios() {
        let dir = canonical(&dir);
        let (stderr, out) = run(&replay, &dir, false);
        let ours = status_lines(&stderr, &dir, &out, true);
        let theirs = stored(&dir);
        outcomes.insert(scenario_name(&dir), (ours == theirs, ours, theirs));
    }
    let unknown: Vec<_> = known
        .iter()
        .filter(|name| !outcomes.contains_key(*name))
        .collect();
    assert!(
        unknown.is_empty(),
        "known-status-differences.txt names no scenario: {unknown:?}"
    );
    let mut problems = Vec::new();
    for (name, (same, ours, theirs)) in &outcomes {
        match (same, known.contains(name)) {
            (false, false) => problems.push(format!(
                "{name}: log4j2 reports\n    {}\n  l4rs reports\n    {}",
                theirs.join("\n    "),
                ours.join("\n    ")
            )),
            (true, true) => problems.push(format!(
                "{name} is listed in known-status-differences.txt but now matches (remove it there and in docs/compatibility.md)"
            )),
            _ => {}
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn status_lines_keep_level_and_text_only() {
    let scenario = Path::new("/s/400-x");
    let out = Path::new("/tmp/out-1");
    let stderr =
        "2026-12-01 07:42:39,790 main ERROR Unable to locate appender \"B\" in /tmp/out-1/f.log\n\
                  \tat java.base/jdk.internal.reflect.Method.invoke(Method.java:569)\n\
                  Caused by: java.lang.IllegalStateException: x\n\
                  [Fatal Error] log4j2.xml:2:58: bad\n\
                  ERROR StatusLogger Error parsing /s/400-x/log4j2.xml\n\
                  2026-12-01 07:42:39,791 main WARN Missing root (help: add <Root>)\n\
                  l4rs-replay: something else\n";
    assert_eq!(
        status_lines(stderr, scenario, out, true),
        [
            "ERROR Unable to locate appender \"B\" in <OUT>/f.log",
            "ERROR Error parsing <SCENARIO>/log4j2.xml",
            "WARN Missing root",
        ]
    );
    assert_eq!(
        status_lines(stderr, scenario, out, false)[2],
        "WARN Missing root (help: add <Root>)"
    );
}
