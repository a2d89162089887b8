//! `OnStartupTriggeringPolicy`, and a daily `TimeBasedTriggeringPolicy`, over the files an
//! earlier run left, against log4j2. Whether a file rolls at startup depends on its time and
//! size, and the archive is named by that time, so this test writes the files into both
//! output folders itself, last modified on 2020-01-15 (one a day from now, as if written by
//! this run), then runs the scenario `tests/rollover-on-startup` through the oracle and
//! `l4rs-replay` and compares every file left, with its text.
//!
//! One difference is kept on purpose (docs/compatibility.md, "Deliberate differences", "An
//! existing file's time"): log4j2's RollingFile dates an existing file by its creation time
//! where the file system records one (its RollingRandomAccessFile by the last write), l4rs
//! every file by its last write. A test cannot set a creation time, so the folders
//! `dated-by-creation` and `created-before-start` show it: checked on each side, then left
//! out of the comparison.

mod common;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

use common::{
    files_under, oracle_dir, replay_binary, replay_into, replay_output_dir, require_oracle,
    stage_files,
};
use l4rs_test_support::workspace_root;

/// 2020-01-15T12:00:00Z, the earlier run's last write.
const EARLIER_RUN: u64 = 1_579_089_600;

const EARLIER_LINE: &str = "an earlier run's line\n";

/// The earlier run's files: path under the output folder and text. The `fresh` and
/// `created-before-start` ones are last modified a day from now instead.
const FILES: &[(&str, &str)] = &[
    ("rolls/app.log", "HEADER\nan earlier run's line\n"),
    ("too-small/app.log", "9 bytes.\n"),
    ("empty-kept/app.log", ""),
    ("empty-rolled/app.log", ""),
    ("fresh/app.log", EARLIER_LINE),
    ("daily/app.log", EARLIER_LINE),
    ("startup-daily/app.log", EARLIER_LINE),
    ("no-append/app.log", EARLIER_LINE),
    ("random-access/app.log", EARLIER_LINE),
    ("dated-by-creation/app.log", EARLIER_LINE),
    ("created-before-start/app.log", EARLIER_LINE),
];

/// The folders of the kept difference, which the comparison leaves out.
const DATED_BY_CREATION_IN_LOG4J2: &[&str] = &["dated-by-creation/", "created-before-start/"];

/// Writes the files into a fresh output folder for one side; returns the folder.
fn stage(oracle: bool, now: SystemTime) -> PathBuf {
    let out = replay_output_dir("rollover-on-startup", &scenario(), oracle);
    let earlier = SystemTime::UNIX_EPOCH + Duration::from_secs(EARLIER_RUN);
    let tomorrow = now + Duration::from_secs(24 * 3600);
    let files: Vec<(&str, &str, SystemTime)> = FILES
        .iter()
        .map(|(path, text)| {
            let later = path.starts_with("fresh/") || path.starts_with("created-before-start/");
            (*path, *text, if later { tomorrow } else { earlier })
        })
        .collect();
    stage_files(&out, &files);
    out
}

fn scenario() -> PathBuf {
    workspace_root().join("crates/conformance/tests/rollover-on-startup")
}

/// Runs `command` into `out` and returns the files left there, removing the folder.
fn replay(command: &Path, out: &Path, oracle: bool) -> BTreeMap<String, String> {
    replay_into(command, &scenario(), out, oracle);
    let left = files_under(out);
    let _ = std::fs::remove_dir_all(out);
    left
}

/// Takes the files of the kept difference's folders out of `files`.
fn take_dated_by_creation(files: &mut BTreeMap<String, String>) -> BTreeMap<String, String> {
    let (taken, rest) = std::mem::take(files).into_iter().partition(|(path, _)| {
        DATED_BY_CREATION_IN_LOG4J2
            .iter()
            .any(|folder| path.starts_with(folder))
    });
    *files = rest;
    taken
}

fn entries(pairs: &[(String, &str)]) -> BTreeMap<String, String> {
    pairs
        .iter()
        .map(|(path, text)| (path.clone(), text.to_string()))
        .collect()
}

#[test]
fn startup_rollovers_leave_what_log4j2_leaves() {
    if !require_oracle("OnStartupTriggeringPolicy over an earlier run's files") {
        return;
    }
    // Both sides are staged first, so their files are created on the same day.
    let now = SystemTime::now();
    let (oracle_out, l4rs_out) = (stage(true, now), stage(false, now));
    let mut theirs = replay(&oracle_dir().join("log4j2-java/run.sh"), &oracle_out, true);
    let mut ours = replay(&replay_binary(), &l4rs_out, false);
    let (their_kept, our_kept) = (
        take_dated_by_creation(&mut theirs),
        take_dated_by_creation(&mut ours),
    );
    assert_eq!(ours, theirs, "the files left differ from log4j2's");
    // Rollovers happened on both sides: the earlier run's file has its archive.
    assert_eq!(
        theirs.get("rolls/app-1.log").map(String::as_str),
        Some("HEADER\nan earlier run's line\n"),
        "log4j2 did not roll the earlier run's file; the scenario no longer tests anything"
    );

    // The kept difference. log4j2 names the archive by the day the file was created (today,
    // when this test wrote it) and rolls a file created before it started, whatever its last
    // write; l4rs goes by the last write.
    let created = jiff::Timestamp::try_from(now)
        .expect("now is in range")
        .in_tz("UTC")
        .expect("UTC is a zone")
        .strftime("%Y-%m-%d")
        .to_string();
    let new_lines = "first event of this run\nsecond event of this run\n";
    assert_eq!(
        their_kept,
        entries(&[
            (
                format!("dated-by-creation/app-{created}-1.log"),
                EARLIER_LINE
            ),
            ("dated-by-creation/app.log".to_string(), new_lines),
            ("created-before-start/app-1.log".to_string(), EARLIER_LINE),
            ("created-before-start/app.log".to_string(), new_lines),
        ]),
        "log4j2 no longer dates RollingFile's files by their creation"
    );
    assert_eq!(
        our_kept,
        entries(&[
            (
                "dated-by-creation/app-2020-01-15-1.log".to_string(),
                EARLIER_LINE
            ),
            ("dated-by-creation/app.log".to_string(), new_lines),
            (
                "created-before-start/app.log".to_string(),
                &format!("{EARLIER_LINE}{new_lines}")
            ),
        ])
    );
}
