//! Replays the probe scenarios under `tests/oracle/` (log4j2 2.19 output saved by the
//! oracle's `compare.py --save-expected`): one File appender per pattern, listed in
//! `patterns.txt`, every event to every appender.

mod common;

use std::path::Path;

use common::events_in;
use l4rs_core::{Layout, Level};
use l4rs_layout::PatternLayout;

fn replay(name: &str) {
    let dir = format!("{}/tests/oracle/{name}", env!("CARGO_MANIFEST_DIR"));
    let patterns = std::fs::read_to_string(format!("{dir}/patterns.txt")).unwrap();
    let events = events_in(Path::new(&dir));
    let mut failures = Vec::new();
    for line in patterns.lines() {
        let (file, pattern) = line.split_once(": ").unwrap();
        let layout = PatternLayout::from_pattern(pattern);
        let mut out = String::new();
        for event in &events {
            layout.format(&event.as_event(), &mut out);
        }
        let expected = std::fs::read_to_string(format!("{dir}/expected/files/{file}.log")).unwrap();
        if out != expected {
            failures.push(format!(
                "{file} {pattern}\n  expected {expected:?}\n  actual   {out:?}"
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn nesting_and_exceptions() {
    replay("nesting-and-exceptions");
}

#[test]
fn dates_and_parser() {
    // The scenario runs with TZ=Europe/Berlin and declares NOTICE; this test binary is
    // separate so the local zone can be set first. Both tests agree on the zone.
    std::env::set_var("TZ", "Europe/Berlin");
    Level::register("NOTICE", 350);
    replay("dates-and-parser");
}
