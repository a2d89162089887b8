//! HtmlLayout against log4j2, byte for byte but for two clock readings: the header's session
//! start time (`new Date()` when the file is opened) and the default time column
//! (milliseconds since the process started). Both sides run the scenario
//! `tests/html-layout`; their digits are masked there, and every other byte must agree.

mod common;

use std::collections::BTreeMap;
use std::path::Path;

use common::{
    files_under, mask_html_clock_readings, oracle_dir, replay_binary, replay_into,
    replay_output_dir, require_oracle, status_lines,
};
use l4rs_test_support::workspace_root;

/// The files a replay of the scenario leaves, with the clock readings' digits masked, and its
/// status lines.
fn replay(command: &Path, oracle: bool) -> (BTreeMap<String, String>, Vec<String>) {
    let scenario = workspace_root().join("crates/conformance/tests/html-layout");
    let out = replay_output_dir("html-layout", &scenario, oracle);
    let stderr = replay_into(command, &scenario, &out, oracle);
    let status = status_lines(&stderr, &scenario, &out, !oracle);
    let files = files_under(&out);
    let _ = std::fs::remove_dir_all(&out);
    let files = files
        .into_iter()
        .map(|(name, text)| {
            let elapsed = ELAPSED_TIME_PAGES.contains(&name.as_str());
            let text = mask_html_clock_readings(&text, elapsed);
            (name, text)
        })
        .collect();
    (files, status)
}

/// The pages whose time column is the default, milliseconds since the process started.
const ELAPSED_TIME_PAGES: &[&str] = &["plain.html", "odd.html"];

#[test]
fn html_pages_are_log4j2s() {
    if !require_oracle("HtmlLayout against log4j2") {
        return;
    }
    let (theirs, their_status) = replay(&oracle_dir().join("log4j2-java/run.sh"), true);
    let (ours, our_status) = replay(&replay_binary(), false);
    assert_eq!(our_status, their_status, "the status lines differ");
    assert_eq!(
        their_status.len(),
        2,
        "the unknown font size and charset: {their_status:?}"
    );
    assert_eq!(
        ours.keys().collect::<Vec<_>>(),
        theirs.keys().collect::<Vec<_>>(),
        "the files written differ"
    );
    for (name, text) in &theirs {
        let our_text = &ours[name];
        if our_text != text {
            let line = text
                .lines()
                .zip(our_text.lines())
                .position(|(a, b)| a != b)
                .unwrap_or(0);
            panic!(
                "{name} differs from line {}:\nlog4j2: {:?}\nl4rs:   {:?}",
                line + 1,
                text.lines().nth(line),
                our_text.lines().nth(line)
            );
        }
    }
    // The masks hid the clock readings only: the pages hold the events.
    assert!(theirs["plain.html"].contains("<td title=\"Message\">warn</td>"));
    assert!(theirs["plain.html"].contains("Log session start time "));
}

#[test]
fn only_clock_readings_are_masked() {
    let page = "Log session start time Mon Dec 07 03:28:28 UTC 2026<br>\n<tr>\n<td>-96614108186</td>\n<td title=\"main thread\">main</td>\n<tr>\n<td>2023-11-14T22:13:20,001</td>";
    assert_eq!(
        mask_html_clock_readings(page, false),
        "Log session start time Mon Dec ## ##:##:## UTC ####<br>\n<tr>\n<td>-96614108186</td>\n<td title=\"main thread\">main</td>\n<tr>\n<td>2023-11-14T22:13:20,001</td>"
    );
    assert_eq!(
        mask_html_clock_readings(page, true),
        "Log session start time Mon Dec ## ##:##:## UTC ####<br>\n<tr>\n<td>-###########</td>\n<td title=\"main thread\">main</td>\n<tr>\n<td>2023-11-14T22:13:20,001</td>"
    );
}
