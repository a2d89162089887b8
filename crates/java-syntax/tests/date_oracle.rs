//! Differential test of date patterns against log4j2's own `%d` converter.
//!
//! `date_pattern::parse` splits every date pattern l4rs reads; the layout's `%d`
//! (`l4rs_layout::DateFormatter`) gives the letters log4j2's meaning. A small Java program,
//! tests/java/DateOracle.java, formats fixed instants with log4j2 2.19's
//! `DatePatternConverter` (Debian's jars) in several zones; l4rs must print the same text for
//! every pattern: named formats, every letter, quotes, fixed formats with `n`, and invalid
//! patterns (both fall back to `DEFAULT`).
//!
//! Without the JDK or the jars the test is skipped with a notice, except under CI.

mod java_support;

use java_support::{hex, run_java, unhex};
use l4rs_core::Timestamp;
use l4rs_layout::DateFormatter;

const PATTERNS: &[&str] = &[
    "DEFAULT",
    "DEFAULT_PERIOD",
    "ISO8601",
    "ISO8601_BASIC",
    "ISO8601_OFFSET_DATE_TIME_HHCMM",
    "ABSOLUTE",
    "COMPACT",
    "DATE",
    "US_MONTH_DAY_YEAR2_TIME",
    "yyyy-MM-dd HH:mm:ss.SSS",
    "yyyy-MM-dd'T'HH:mm:ss.SSSXXX",
    "yyyyMMdd'T'HHmmss",
    "yy/M/d h:mm a",
    "EEE, d MMM yyyy HH:mm:ss Z",
    "EEEE MMMM dd",
    "G yyyy yyyyy y",
    "D DDD w ww W F u",
    "k kk K KK h hh H",
    "s ss S SS SSSS SSSSSS",
    "'at' HH 'o''clock' ''",
    "'literal text only'",
    "X|XX|XXX|Z|ZZ|ZZZ",
    "z",
    "zzzz",
    "YYYY",
    "dd.MM.yyyy",
    "HH:mm:ss,nnnnnn",
    "yyyy-MM-dd HH:mm:ss,nnnnnnnnn",
    "-_/ :;,.()[]",
    "",
    "HH:mm Q",
    "'open",
];

const ZONES: &[&str] = &["UTC", "Europe/Berlin", "America/New_York", "Asia/Kathmandu"];

/// 2012-11-02T14:34:02.781Z (a Friday), 2001-01-01T00:00Z, 2012-12-31 (week 1 of 2013), a summer
/// instant in 2023. Not the epoch itself: a fresh `DatePatternConverter` holds an empty cached
/// text for instant 0 and prints nothing there (a quirk of the harness, not of real logs).
const INSTANTS: &[i64] = &[
    1_351_866_842_781,
    978_307_200_000,
    1_356_912_000_007,
    1_688_000_000_123,
];

#[test]
fn enough_cases() {
    assert!(PATTERNS.len() * ZONES.len() * INSTANTS.len() >= 100);
}

#[test]
fn l4rs_prints_dates_as_log4j2_does() {
    if !l4rs_test_support::log4j2::require("the date formats against log4j2") {
        return;
    }
    let mut cases = Vec::new();
    for pattern in PATTERNS {
        for zone in ZONES {
            for millis in INSTANTS {
                cases.push((*pattern, *zone, *millis));
            }
        }
    }
    let input: String = cases
        .iter()
        .map(|(pattern, zone, millis)| format!("{} {} {millis}\n", hex(pattern), hex(zone)))
        .collect();
    let java = run_java("DateOracle", &input);
    assert_eq!(java.len(), cases.len(), "one answer per case: {java:?}");
    let mut disagreements = Vec::new();
    for ((pattern, zone, millis), java) in cases.iter().zip(&java) {
        let java = match java.strip_prefix("E ") {
            Some(exception) => format!("exception: {exception}"),
            None => unhex(java),
        };
        let mut ours = String::new();
        DateFormatter::new(Some(pattern), Some(zone)).format(
            Timestamp {
                epoch_millis: *millis,
                nano_of_milli: 0,
            },
            &mut ours,
        );
        if ours != java {
            disagreements.push(format!(
                "{pattern:?} in {zone} at {millis}: log4j2 {java:?}, l4rs {ours:?}"
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} dates differ:\n{}",
        disagreements.len(),
        cases.len(),
        disagreements.join("\n")
    );
}
