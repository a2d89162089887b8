//! `java.text.SimpleDateFormat` patterns for the `date` lookup, in the local time zone and the
//! `en_US` locale the oracle runs with.

use jiff::tz::TimeZone;
use jiff::ZonedDateTime as Zoned;

use l4rs_core::calendar::{self, DAY_NAMES, MONTH_NAMES};
use l4rs_core::Timestamp;
use l4rs_java_syntax::date_pattern::{self, Token};

/// Why a pattern was rejected (SimpleDateFormat's `IllegalArgumentException`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DatePatternError {
    /// A letter that is not a SimpleDateFormat field.
    #[error("Illegal pattern character '{0}'")]
    IllegalCharacter(char),
    /// A quote that is never closed.
    #[error("Unterminated quote")]
    UnterminatedQuote,
}

/// Formats `at` with a SimpleDateFormat pattern in the system time zone.
pub(super) fn format(pattern: &str, at: Timestamp) -> Result<String, DatePatternError> {
    let instant = jiff::Timestamp::from_millisecond(at.epoch_millis).unwrap_or_default();
    let zone = TimeZone::system();
    let zoned = instant.to_zoned_datetime(zone);
    format_zoned(pattern, &zoned)
}

/// log4j2's fallback when the pattern is invalid: `DateFormat.getInstance()` in `en_US`
/// (`M/d/yy, h:mm a`).
pub(super) fn format_default(at: Timestamp) -> String {
    format("M/d/yy, h:mm a", at).unwrap_or_default()
}

fn format_zoned(pattern: &str, zoned: &Zoned) -> Result<String, DatePatternError> {
    let tokens = date_pattern::parse(pattern).map_err(|error| match error {
        date_pattern::DatePatternError::UnterminatedQuote { .. } => {
            DatePatternError::UnterminatedQuote
        }
    })?;
    let mut out = String::new();
    for token in tokens {
        match token {
            Token::Literal(text) => out.push_str(&text),
            Token::Field { letter, count } => field(&mut out, letter, count, zoned)?,
        }
    }
    Ok(out)
}

fn number(out: &mut String, value: i64, width: usize) {
    let text = value.abs().to_string();
    if value < 0 {
        out.push('-');
    }
    for _ in text.len()..width {
        out.push('0');
    }
    out.push_str(&text);
}

fn field(
    out: &mut String,
    letter: char,
    count: usize,
    zoned: &Zoned,
) -> Result<(), DatePatternError> {
    let hour = i64::from(zoned.hour());
    match letter {
        'G' => out.push_str(if zoned.year() > 0 { "AD" } else { "BC" }),
        'y' | 'Y' => {
            let year = i64::from(zoned.year());
            if count == 2 {
                number(out, year.rem_euclid(100), 2);
            } else {
                number(out, year, count);
            }
        }
        'u' => number(
            out,
            i64::from(zoned.weekday().to_monday_one_offset()),
            count,
        ),
        'M' | 'L' => {
            let month = usize::try_from(zoned.month()).unwrap_or(1).clamp(1, 12);
            if count >= 3 {
                out.push_str(calendar::text(MONTH_NAMES[month - 1], count >= 4));
            } else {
                number(out, month as i64, count);
            }
        }
        'd' => number(out, i64::from(zoned.day()), count),
        'D' => number(out, i64::from(zoned.day_of_year()), count),
        'F' => number(out, (i64::from(zoned.day()) - 1) / 7 + 1, count),
        'E' => {
            let day = zoned.weekday().to_sunday_zero_offset() as usize;
            out.push_str(calendar::text(DAY_NAMES[day.min(6)], count >= 4));
        }
        'a' => out.push_str(if hour < 12 { "AM" } else { "PM" }),
        'H' => number(out, hour, count),
        'k' => number(out, if hour == 0 { 24 } else { hour }, count),
        'K' => number(out, hour % 12, count),
        'h' => number(out, if hour % 12 == 0 { 12 } else { hour % 12 }, count),
        'm' => number(out, i64::from(zoned.minute()), count),
        's' => number(out, i64::from(zoned.second()), count),
        'S' => number(out, i64::from(zoned.millisecond()), count),
        'w' => number(out, i64::from(week_of_year(zoned)), count),
        'W' => {
            let first = zoned
                .date()
                .first_of_month()
                .weekday()
                .to_sunday_zero_offset();
            number(
                out,
                (i64::from(zoned.day()) + i64::from(first) - 1) / 7 + 1,
                count,
            )
        }
        'z' => {
            let info = zoned.time_zone().to_offset_info(zoned.timestamp());
            out.push_str(info.abbreviation());
        }
        'Z' => offset(out, zoned.offset().seconds(), false, false),
        'X' => {
            let seconds = zoned.offset().seconds();
            if seconds == 0 {
                out.push('Z');
            } else {
                offset(out, seconds, count >= 3, count == 1);
            }
        }
        other => return Err(DatePatternError::IllegalCharacter(other)),
    }
    Ok(())
}

/// US week numbering (weeks start on Sunday; week 1 holds January 1st), as en_US does.
fn week_of_year(zoned: &Zoned) -> i32 {
    let jan1 = zoned
        .date()
        .first_of_year()
        .weekday()
        .to_sunday_zero_offset();
    (i32::from(zoned.day_of_year()) - 1 + i32::from(jan1)) / 7 + 1
}

fn offset(out: &mut String, seconds: i32, colon: bool, hours_only: bool) {
    out.push(if seconds < 0 { '-' } else { '+' });
    let minutes = seconds.abs() / 60;
    number(out, i64::from(minutes / 60), 2);
    if hours_only {
        return;
    }
    if colon {
        out.push(':');
    }
    number(out, i64::from(minutes % 60), 2);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(pattern: &str, millis: i64) -> String {
        let zoned = jiff::Timestamp::from_millisecond(millis)
            .unwrap()
            .to_zoned_datetime(TimeZone::UTC);
        format_zoned(pattern, &zoned).unwrap()
    }

    #[test]
    fn formats_simple_date_format_fields() {
        // 2023-11-14T22:13:20.001Z, a Tuesday.
        let at = 1_700_000_000_001;
        assert_eq!(
            utc("yyyy-MM-dd HH:mm:ss.SSS", at),
            "2023-11-14 22:13:20.001"
        );
        assert_eq!(
            utc("yy MMM MMMM EEE EEEE a h K k", at),
            "23 Nov November Tue Tuesday PM 10 10 22"
        );
        assert_eq!(utc("'at' HH 'o''clock' ''", at), "at 22 o'clock '");
        assert_eq!(utc("Z X XXX", at), "+0000 Z Z");
        assert_eq!(utc("D w", at), "318 46");
    }

    #[test]
    fn rejects_unknown_letters_and_open_quotes() {
        let zoned = jiff::Timestamp::UNIX_EPOCH.to_zoned_datetime(TimeZone::UTC);
        assert_eq!(
            format_zoned("yyyy-q", &zoned),
            Err(DatePatternError::IllegalCharacter('q'))
        );
        assert_eq!(
            format_zoned("'open", &zoned),
            Err(DatePatternError::UnterminatedQuote)
        );
    }
}
