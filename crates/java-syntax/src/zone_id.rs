//! Time-zone ids read as `java.time.ZoneId.of` reads them (log4j2's `TimeFilter timezone`).
//!
//! `ZoneId.of` is stricter than `TimeZone.getTimeZone` (which the layout's `%d{…}{zone}`
//! follows, turning anything unknown into GMT): an id it cannot read is an error, with its
//! own message. It takes:
//!
//! * `Z`, and offsets `+h`, `+hh`, `+hh:mm`, `+hhmm`, `+hh:mm:ss`, `+hhmmss` (or `-`), up to
//!   18 hours;
//! * `UTC`, `GMT` and `UT`, alone or followed by such an offset (`GMT+02:00`, `UTC-3`);
//! * region ids of the tz database, case-sensitively (`Europe/Paris`, not `europe/paris`).
//!
//! The tz database is the system's, as everywhere in l4rs; the JDK carries its own. Entries
//! the JDK leaves out of its copy are refused here too (`EST`, `MST`, `HST`, `ROC`, and the
//! files `Factory`, `posixrules`, `localtime`, `posix/…`, `right/…`). The JDK's `SystemV/…`
//! ids, which newer tz databases no longer have, are unknown here.

use std::fmt;

use jiff::tz::{Offset, TimeZone};

/// Why an id was refused: Java's exception, printed as its `toString` prints it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ZoneIdError {
    /// `DateTimeException` or, for a well-formed region id that is not known,
    /// `ZoneRulesException`.
    unknown_region: bool,
    message: String,
}

impl ZoneIdError {
    fn invalid(message: String) -> ZoneIdError {
        ZoneIdError {
            unknown_region: false,
            message,
        }
    }
}

impl fmt::Display for ZoneIdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let class = if self.unknown_region {
            "java.time.zone.ZoneRulesException"
        } else {
            "java.time.DateTimeException"
        };
        write!(f, "{class}: {}", self.message)
    }
}

impl std::error::Error for ZoneIdError {}

/// Reads `id` as `ZoneId.of(id)` does.
pub fn parse(id: &str) -> Result<TimeZone, ZoneIdError> {
    // Java counts UTF-16 units.
    if id.encode_utf16().count() <= 1 || id.starts_with('+') || id.starts_with('-') {
        return offset(id).map(TimeZone::fixed);
    }
    for prefix in ["UTC", "GMT", "UT"] {
        if let Some(rest) = id.strip_prefix(prefix) {
            if rest.is_empty() {
                return Ok(TimeZone::UTC);
            }
            if !rest.starts_with(['+', '-']) {
                // `UTC0`, `GMT0`, `UCT`…: region ids.
                break;
            }
            return offset(rest).map(TimeZone::fixed).map_err(|_| {
                ZoneIdError::invalid(format!("Invalid ID for offset-based ZoneId: {id}"))
            });
        }
    }
    region(id)
}

/// `ZoneOffset.of`.
fn offset(id: &str) -> Result<Offset, ZoneIdError> {
    if id == "Z" {
        return Ok(Offset::UTC);
    }
    let units: Vec<u16> = id.encode_utf16().collect();
    // The two-unit form `+h` is read as `+0h`, which Java's messages then name.
    let (units, id) = if units.len() == 2 {
        let units = vec![units[0], u16::from(b'0'), units[1]];
        let id = String::from_utf16_lossy(&units);
        (units, id)
    } else {
        (units, id.to_string())
    };
    let invalid =
        || ZoneIdError::invalid(format!("Invalid ID for ZoneOffset, invalid format: {id}"));
    // Each field: where its two digits start, and whether a colon must precede them.
    let fields: &[(usize, bool)] = match units.len() {
        3 => &[(1, false)],
        5 => &[(1, false), (3, false)],
        6 => &[(1, false), (4, true)],
        7 => &[(1, false), (3, false), (5, false)],
        9 => &[(1, false), (4, true), (7, true)],
        _ => return Err(invalid()),
    };
    let mut values = [0i32; 3];
    for (value, &(start, after_colon)) in values.iter_mut().zip(fields) {
        if after_colon && units[start - 1] != u16::from(b':') {
            return Err(ZoneIdError::invalid(format!(
                "Invalid ID for ZoneOffset, colon not found when expected: {id}"
            )));
        }
        let digit = |unit: u16| {
            u8::try_from(unit)
                .ok()
                .filter(u8::is_ascii_digit)
                .map(|digit| i32::from(digit - b'0'))
        };
        match (digit(units[start]), digit(units[start + 1])) {
            (Some(tens), Some(ones)) => *value = tens * 10 + ones,
            _ => {
                return Err(ZoneIdError::invalid(format!(
                    "Invalid ID for ZoneOffset, non numeric characters found: {id}"
                )))
            }
        }
    }
    let sign = match units[0] {
        0x2B => 1,  // '+'
        0x2D => -1, // '-'
        _ => return Err(invalid()),
    };
    let [hours, minutes, seconds] = values.map(|value| value * sign);
    checked_offset(hours, minutes, seconds)
}

/// `ZoneOffset.ofHoursMinutesSeconds`'s checks, in its order.
fn checked_offset(hours: i32, minutes: i32, seconds: i32) -> Result<Offset, ZoneIdError> {
    let fail = |message: String| Err(ZoneIdError::invalid(message));
    if !(-18..=18).contains(&hours) {
        return fail(format!(
            "Zone offset hours not in valid range: value {hours} is not in the range -18 to 18"
        ));
    }
    if !(-59..=59).contains(&minutes) {
        return fail(format!(
            "Zone offset minutes not in valid range: value {minutes} is not in the range -59 to 59"
        ));
    }
    if !(-59..=59).contains(&seconds) {
        return fail(format!(
            "Zone offset seconds not in valid range: value {seconds} is not in the range -59 to 59"
        ));
    }
    if hours.abs() == 18 && (minutes | seconds) != 0 {
        return fail("Zone offset not in valid range: -18:00 to +18:00".to_string());
    }
    let total = hours * 3600 + minutes * 60 + seconds;
    Ok(Offset::from_seconds(total).unwrap_or(Offset::UTC))
}

/// `ZoneRegion.ofId`: the form first, then the tz database, case-sensitively.
fn region(id: &str) -> Result<TimeZone, ZoneIdError> {
    let well_formed = id.len() >= 2
        && id.chars().enumerate().all(|(index, c)| {
            c.is_ascii_alphabetic() || (index > 0 && (c.is_ascii_digit() || "/~._+-".contains(c)))
        });
    if !well_formed {
        return Err(ZoneIdError::invalid(format!(
            "Invalid ID for region-based ZoneId, invalid format: {id}"
        )));
    }
    if NOT_IN_THE_JDK.contains(&id) || id.starts_with("posix/") || id.starts_with("right/") {
        return Err(unknown_region(id));
    }
    match TimeZone::get(id) {
        // jiff finds names in any case; Java only in the database's own.
        Ok(zone) if zone.iana_name() == Some(id) => Ok(zone),
        _ => Err(unknown_region(id)),
    }
}

/// Names of the system's tz database that the JDK's copy does not have.
const NOT_IN_THE_JDK: &[&str] = &[
    "EST",
    "MST",
    "HST",
    "ROC",
    "Factory",
    "posixrules",
    "localtime",
];

fn unknown_region(id: &str) -> ZoneIdError {
    ZoneIdError {
        unknown_region: true,
        message: format!("Unknown time-zone ID: {id}"),
    }
}

#[cfg(test)]
mod tests {
    use jiff::Timestamp;

    use super::*;

    fn seconds_east(id: &str) -> i32 {
        let zone = parse(id).unwrap_or_else(|error| panic!("{id}: {error}"));
        zone.to_offset(Timestamp::UNIX_EPOCH).seconds()
    }

    fn refused(id: &str) -> String {
        parse(id).expect_err(id).to_string()
    }

    #[test]
    fn reads_offsets_in_every_form() {
        assert_eq!(seconds_east("Z"), 0);
        assert_eq!(seconds_east("+5"), 5 * 3600);
        assert_eq!(seconds_east("-05"), -5 * 3600);
        assert_eq!(seconds_east("+05:30"), 19_800);
        assert_eq!(seconds_east("+0530"), 19_800);
        assert_eq!(seconds_east("-01:02:03"), -3723);
        assert_eq!(seconds_east("-010203"), -3723);
        assert_eq!(seconds_east("+18:00"), 18 * 3600);
    }

    #[test]
    fn reads_prefixed_offsets() {
        assert_eq!(seconds_east("UTC"), 0);
        assert_eq!(seconds_east("GMT+02:00"), 7200);
        assert_eq!(seconds_east("UTC-3"), -3 * 3600);
        assert_eq!(seconds_east("UT+1"), 3600);
    }

    #[test]
    fn reads_regions_case_sensitively() {
        assert!(parse("Europe/Paris").is_ok());
        assert_eq!(
            refused("europe/paris"),
            "java.time.zone.ZoneRulesException: Unknown time-zone ID: europe/paris"
        );
        assert_eq!(
            refused("utc"),
            "java.time.zone.ZoneRulesException: Unknown time-zone ID: utc"
        );
        assert_eq!(
            refused("Mars/Olympus"),
            "java.time.zone.ZoneRulesException: Unknown time-zone ID: Mars/Olympus"
        );
    }

    #[test]
    fn refuses_with_javas_messages() {
        let invalid = "java.time.DateTimeException:";
        assert_eq!(
            refused(""),
            format!("{invalid} Invalid ID for ZoneOffset, invalid format: ")
        );
        assert_eq!(
            refused("A"),
            format!("{invalid} Invalid ID for ZoneOffset, invalid format: A")
        );
        assert_eq!(
            refused("+5:30"),
            format!("{invalid} Invalid ID for ZoneOffset, non numeric characters found: +5:30")
        );
        assert_eq!(
            refused("+0x"),
            format!("{invalid} Invalid ID for ZoneOffset, non numeric characters found: +0x")
        );
        assert_eq!(
            refused("+19"),
            format!(
                "{invalid} Zone offset hours not in valid range: value 19 is not in the range -18 to 18"
            )
        );
        assert_eq!(
            refused("-18:30"),
            format!("{invalid} Zone offset not in valid range: -18:00 to +18:00")
        );
        assert_eq!(
            refused("GMT+25"),
            format!("{invalid} Invalid ID for offset-based ZoneId: GMT+25")
        );
        assert_eq!(
            refused("Europe/Paris "),
            format!("{invalid} Invalid ID for region-based ZoneId, invalid format: Europe/Paris ")
        );
        assert_eq!(
            refused("1Europe"),
            format!("{invalid} Invalid ID for region-based ZoneId, invalid format: 1Europe")
        );
    }
}
