//! Instants worth asking a calendar about, for the tests that compare l4rs's calendar
//! arithmetic with log4j2's: around a zone's clock changes and other turning points, and spread
//! over four decades; and how to show one in a failure.

use jiff::civil::Date;
use jiff::tz::TimeZone;
use jiff::ToSpan as _;

/// Instants in `zone`: around each clock change of `year`, the start of the next year and each
/// of `more` (epoch milliseconds), a second and a millisecond either side and every 7m31.337s
/// for three hours either side; and `spread` instants over 2000–2039 from a fixed generator, so
/// that a failure repeats.
pub fn around_clock_changes(zone: &TimeZone, year: i16, more: &[i64], spread: usize) -> Vec<i64> {
    let start = Date::new(year, 1, 1)
        .and_then(|date| date.to_zoned_datetime(zone.clone()))
        .expect("the start of the year");
    let next_year = start.checked_add(1.year()).expect("the next year");
    let mut anchors: Vec<i64> = zone
        .following(start.timestamp())
        .take_while(|change| change.timestamp() < next_year.timestamp())
        .map(|change| change.timestamp().as_millisecond())
        .collect();
    anchors.push(next_year.timestamp().as_millisecond());
    anchors.extend_from_slice(more);
    let mut instants = Vec::new();
    for anchor in anchors {
        instants.extend([anchor - 1001, anchor - 1, anchor, anchor + 1]);
        instants.extend((-24..=24).map(|step| anchor + step * 451_337));
    }
    let first = Date::new(2000, 1, 1)
        .and_then(|date| date.to_zoned_datetime(zone.clone()))
        .expect("2000-01-01")
        .timestamp()
        .as_millisecond();
    let span = 40 * 365 * 86_400_000_i64;
    // A linear congruential generator with Knuth's MMIX constants.
    let mut state = 0x9E37_79B9_7F4A_7C15_u64;
    for _ in 0..spread {
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        instants.push(first + (state >> 1) as i64 % span);
    }
    instants
}

/// `millis` (epoch milliseconds) as an RFC 3339 instant in UTC, for failure messages.
pub fn show(millis: i64) -> String {
    jiff::Timestamp::from_millisecond(millis)
        .map(|at| at.to_string())
        .unwrap_or_else(|_| format!("{millis} ms (beyond the calendar)"))
}
