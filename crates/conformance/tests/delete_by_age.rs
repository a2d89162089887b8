//! Delete conditions that read modification times (`IfLastModified`, the accumulating ones in
//! their sort order, `SortByModificationTime`), against log4j2. A scenario's seed files are
//! copied when the replay starts, so they all carry its time; this test writes the files into
//! both output folders itself, days old, then runs the scenario `tests/delete-by-age` through
//! the oracle and `l4rs-replay` and compares which files are left, and what they hold.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, SystemTime};

use common::{
    files_under, oracle_dir, replay_binary, replay_into, replay_output_dir, require_oracle,
    stage_files,
};
use l4rs_test_support::workspace_root;

/// The files each side starts with: path under the output folder, and age in hours. Each
/// holds 10 bytes, so that `IfAccumulatedFileSize exceeds="25 B"` keeps two.
const FILES: &[(&str, u64)] = &[
    ("age/a-40d.gz", 40 * 24),
    ("age/b-20d.gz", 20 * 24),
    ("age/c-10d.gz", 10 * 24),
    ("age/d-20d.txt", 20 * 24),
    ("count/a.gz", 4 * 24),
    ("count/b.gz", 3 * 24),
    ("count/c.gz", 2 * 24),
    ("count/d.gz", 24),
    ("size/a.gz", 4 * 24),
    ("size/b.gz", 3 * 24),
    ("size/c.gz", 2 * 24),
    ("size/d.gz", 24),
    ("oldest-first/a.log", 4 * 24),
    ("oldest-first/b.log", 3 * 24),
    ("oldest-first/c.log", 2 * 24),
    ("oldest-first/d.log", 24),
    ("either/old.log", 6 * 24),
    ("either/new.log", 24),
    ("either/new.tmp", 2),
    ("either/sub/new.tmp", 2),
    ("either/sub/deeper/new.tmp", 2),
    ("neither/old.log", 48),
    ("neither/new.log", 2),
];

/// Writes [`FILES`] under `out`, each `hours` old.
fn stage(out: &Path) {
    let now = SystemTime::now();
    let files: Vec<(&str, &str, SystemTime)> = FILES
        .iter()
        .map(|(path, hours)| (*path, "0123456789", now - Duration::from_secs(hours * 3600)))
        .collect();
    stage_files(out, &files);
}

/// Stages the files, runs `command` on the scenario into a fresh folder and returns the files
/// left there.
fn replay(command: &Path, oracle: bool) -> BTreeMap<String, String> {
    let scenario = workspace_root().join("crates/conformance/tests/delete-by-age");
    let out = replay_output_dir("delete-by-age", &scenario, oracle);
    stage(&out);
    replay_into(command, &scenario, &out, oracle);
    let left = files_under(&out);
    let _ = std::fs::remove_dir_all(&out);
    left
}

#[test]
fn delete_by_modification_time_leaves_what_log4j2_leaves() {
    if !require_oracle("Delete by modification time") {
        return;
    }
    let theirs = replay(&oracle_dir().join("log4j2-java/run.sh"), true);
    let ours = replay(&replay_binary(), false);
    assert_eq!(ours, theirs, "the files left differ from log4j2's");
    // The conditions did something on both sides: the staged files are not all there.
    let staged = FILES
        .iter()
        .filter(|(path, _)| theirs.contains_key(*path))
        .count();
    assert!(
        staged < FILES.len(),
        "log4j2 deleted nothing; the scenario no longer tests anything"
    );
}
