//! Quartz cron expressions (`CronTriggeringPolicy schedule`): parse, re-parse what it kept,
//! and ask for the next firing time from a few instants and zones.
#![no_main]

use jiff::tz::TimeZone;
use l4rs_config::rolling::CronExpression;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(expression) = CronExpression::parse(text) else {
        return;
    };
    let again = CronExpression::parse(expression.as_str()).expect("as_str parses again");
    assert_eq!(again, expression, "as_str round-trips");
    let zones = [TimeZone::UTC, TimeZone::fixed(jiff::tz::offset(-11))];
    for zone in &zones {
        for after in [0, 1_351_866_842_781, -1, i64::MAX / 2, i64::MIN / 2] {
            if let Some(next) = expression.next_after(after, zone) {
                assert!(next > after, "next firing {next} is after {after}");
            }
        }
    }
});
