//! Scenario 096: with no zone option, `%d` uses the process's local zone, taken from `TZ`.
//! Its own test binary, so that `TZ` is set before anything reads the local zone.

mod common;

use common::OwnedEvent;
use l4rs_core::Layout;
use l4rs_layout::PatternLayout;
use l4rs_test_support::shared::shared_path;

#[test]
fn s096_date_default_timezone() {
    let Some(dir) = shared_path("oracle/scenarios/096-date-default-timezone", "scenario 096")
    else {
        return;
    };
    let events = std::fs::read_to_string(dir.join("events.jsonl")).unwrap();
    std::env::set_var("TZ", "America/New_York");
    let layout = PatternLayout::from_pattern(
        "%d|%d{ISO8601_OFFSET_DATE_TIME_HHCMM}|%d{HH:mm:ss.SSS Z}|%d{HH:mm}{UTC}|%p %m%n",
    );
    let mut out = String::new();
    for line in events.lines().filter(|l| !l.trim().is_empty()) {
        layout.format(&OwnedEvent::from_json(line).as_event(), &mut out);
    }
    let expected = std::fs::read_to_string(dir.join("expected/stdout.txt")).unwrap();
    assert_eq!(out, expected);
}
