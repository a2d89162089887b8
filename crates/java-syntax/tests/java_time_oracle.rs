//! Differential test of the `java.time` readers against the JDK: `local_time` against
//! `LocalTime.parse(text, DateTimeFormatter.ofPattern("HH:mm:ss"))` and `zone_id` against
//! `ZoneId.of`, as log4j2's `TimeFilter` calls them (tests/java/JavaTimeOracle.java). Both
//! must accept the same texts with the same value, and refuse the others with Java's message.
//!
//! Without the JDK the test is skipped with a notice, except under CI.

mod java_support;

use java_support::{hex, run_java};
use l4rs_java_syntax::{local_time, zone_id};

const TIMES: &[&str] = &[
    "00:00:00",
    "09:30:15",
    "23:59:59",
    "24:00:00",
    "24:00:01",
    "24:01:00",
    "25:00:00",
    "23:60:00",
    "23:00:60",
    "25:61:61",
    "99:99:99",
    "9:00:00",
    "09:0:00",
    "09:00:0",
    "10:00",
    "10",
    "",
    " 10:00:00",
    "10:00:00 ",
    "10:00:00.5",
    "10-00-00",
    "+1:00:00",
    "-1:00:00",
    "１０:00:00",
    "10:00:00:00",
    "10:00:00Z",
    "1000:00",
    "100:00:00",
    "1234567890123456789012345678901234567890123456789012345678901234567890",
];

const ZONES: &[&str] = &[
    "UTC",
    "GMT",
    "UT",
    "Z",
    "z",
    "",
    "A",
    "+5",
    "-5",
    "+05",
    "+5:30",
    "+05:30",
    "+0530",
    "-01:02:03",
    "-010203",
    "+18:00",
    "+18:01",
    "-18:00",
    "+19",
    "+05:60",
    "+05:30:60",
    "+0x",
    "+x",
    "-a",
    "x5",
    "+05-30",
    "+05:3",
    "+053",
    "GMT+02:00",
    "GMT+2",
    "GMT-02:30",
    "UTC-3",
    "UTC+25",
    "UT+1",
    "UT-01:00",
    "GMT0",
    "UTC0",
    "UCT",
    "UTCX",
    "GMT+",
    "Etc/GMT+5",
    "Europe/Paris",
    "europe/paris",
    "utc",
    "gmt",
    "EST",
    "PST",
    "Mars/Olympus",
    "Europe/Paris ",
    " UTC",
    "1Europe",
    "Europe//Paris",
    "Asia/Kathmandu",
    "America/New_York",
    "Australia/Lord_Howe",
    "America/Argentina/Buenos_Aires",
    "é",
    "😀",
    "~x",
    "a",
    "MST",
    "HST",
    "EST5EDT",
    "Factory",
    "posixrules",
    "localtime",
    "posix/Europe/Paris",
    "right/UTC",
    "ROC",
    "Zulu",
    "US/Eastern",
    "Etc/UTC",
    "Etc/Unknown",
    "zoneinfo/UTC",
];

/// Instants at which a zone's offset is compared: summer and winter, before and after zones
/// changed their rules.
const INSTANTS: &[i64] = &[0, 1_351_866_842_781, 1_688_000_000_123, 1_900_000_000_000];

#[test]
fn l4rs_reads_times_and_zones_as_java_does() {
    if !l4rs_test_support::log4j2::require("the java.time readers against the JDK") {
        return;
    }
    let instants: Vec<String> = INSTANTS.iter().map(i64::to_string).collect();
    let instants = instants.join(" ");
    let input: String = TIMES
        .iter()
        .map(|text| format!("time {}\n", hex(text)))
        .chain(
            ZONES
                .iter()
                .map(|id| format!("zone {} {instants}\n", hex(id))),
        )
        .collect();
    let java = run_java("JavaTimeOracle", &input);
    assert_eq!(
        java.len(),
        TIMES.len() + ZONES.len(),
        "one answer per case: {java:?}"
    );
    let ours = TIMES
        .iter()
        .map(|text| match local_time::parse_hh_mm_ss(text) {
            Ok(second) => second.to_string(),
            Err(error) => format!("E {error}"),
        })
        .chain(ZONES.iter().map(|id| {
            match zone_id::parse(id) {
                Ok(zone) => INSTANTS
                    .iter()
                    .map(|millis| {
                        let instant = jiff::Timestamp::from_millisecond(*millis).expect("in range");
                        zone.to_offset(instant).seconds().to_string()
                    })
                    .collect::<Vec<_>>()
                    .join(" "),
                Err(error) => format!("E {error}"),
            }
        }));
    let cases = TIMES.iter().chain(ZONES);
    let disagreements: Vec<String> = cases
        .zip(ours)
        .zip(&java)
        .filter(|((_, ours), java)| ours != *java)
        .map(|((case, ours), java)| format!("{case:?}: Java {java:?}, l4rs {ours:?}"))
        .collect();
    assert!(
        disagreements.is_empty(),
        "{} of {} answers differ:\n{}",
        disagreements.len(),
        java.len(),
        disagreements.join("\n")
    );
}
