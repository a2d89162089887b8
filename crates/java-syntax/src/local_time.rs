//! Times of day in the form `HH:mm:ss`, read as `LocalTime.parse(text,
//! DateTimeFormatter.ofPattern("HH:mm:ss"))` reads them (log4j2's `TimeFilter start` and
//! `end`).
//!
//! Java's reading is strict about the form and lenient about one value: each field is exactly
//! two ASCII digits, the colons are required and nothing may follow, and `24:00:00` is
//! midnight (the formatter's default `SMART` resolver takes it as the end of the day, and a
//! `LocalTime` keeps only the time). A refusal carries Java's own message, with the index
//! Java names, so a status line can say what log4j2 says.

use std::fmt;

/// Seconds in a day: a [`parse_hh_mm_ss`] result is below it.
pub const SECONDS_PER_DAY: u32 = 86_400;

/// Why a time of day was refused: Java's `DateTimeParseException`, whose message
/// [`fmt::Display`] prints after the exception's class name, as Java's `toString` does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalTimeError {
    /// The text as Java quotes it: cut to 64 characters, with `...` after a cut.
    text: String,
    kind: LocalTimeErrorKind,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum LocalTimeErrorKind {
    /// The form broke at this index (in UTF-16 units, which are bytes here: everything before
    /// the break is ASCII).
    At(usize),
    /// The form was complete at this index, with more text after it.
    Unparsed(usize),
    /// A field's value is out of its range.
    OutOfRange {
        field: &'static str,
        max: u32,
        value: u32,
    },
}

impl LocalTimeError {
    fn new(text: &str, kind: LocalTimeErrorKind) -> LocalTimeError {
        // Java cuts at 64 UTF-16 units; a character that would straddle the cut is left out.
        let mut units = 0;
        let mut quoted = String::new();
        let mut cut = false;
        for c in text.chars() {
            units += c.len_utf16();
            if units > 64 {
                cut = true;
                break;
            }
            quoted.push(c);
        }
        if cut {
            quoted.push_str("...");
        }
        LocalTimeError { text: quoted, kind }
    }
}

impl fmt::Display for LocalTimeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = &self.text;
        write!(
            f,
            "java.time.format.DateTimeParseException: Text '{text}' could not be parsed"
        )?;
        match &self.kind {
            LocalTimeErrorKind::At(index) => write!(f, " at index {index}"),
            LocalTimeErrorKind::Unparsed(index) => {
                write!(f, ", unparsed text found at index {index}")
            }
            LocalTimeErrorKind::OutOfRange { field, max, value } => write!(
                f,
                ": Invalid value for {field} (valid values 0 - {max}): {value}"
            ),
        }
    }
}

impl std::error::Error for LocalTimeError {}

/// Reads `text` as `HH:mm:ss` and returns the seconds since midnight.
pub fn parse_hh_mm_ss(text: &str) -> Result<u32, LocalTimeError> {
    let bytes = text.as_bytes();
    let mut fields = [0u32; 3];
    let mut position = 0;
    for (index, field) in fields.iter_mut().enumerate() {
        if index > 0 {
            if bytes.get(position) != Some(&b':') {
                return Err(LocalTimeError::new(text, LocalTimeErrorKind::At(position)));
            }
            position += 1;
        }
        match (bytes.get(position), bytes.get(position + 1)) {
            (Some(tens @ b'0'..=b'9'), Some(ones @ b'0'..=b'9')) => {
                *field = u32::from(tens - b'0') * 10 + u32::from(ones - b'0');
                position += 2;
            }
            _ => return Err(LocalTimeError::new(text, LocalTimeErrorKind::At(position))),
        }
    }
    if position != bytes.len() {
        return Err(LocalTimeError::new(
            text,
            LocalTimeErrorKind::Unparsed(position),
        ));
    }
    let [hour, minute, second] = fields;
    // Java's resolver checks the minute first, then takes 24:00:00 as midnight, then checks
    // the hour and the second.
    let out_of_range = |field, max, value| {
        Err(LocalTimeError::new(
            text,
            LocalTimeErrorKind::OutOfRange { field, max, value },
        ))
    };
    if minute > 59 {
        return out_of_range("MinuteOfHour", 59, minute);
    }
    if hour == 24 && minute == 0 && second == 0 {
        return Ok(0);
    }
    if hour > 23 {
        return out_of_range("HourOfDay", 23, hour);
    }
    if second > 59 {
        return out_of_range("SecondOfMinute", 59, second);
    }
    Ok((hour * 60 + minute) * 60 + second)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn refused(text: &str) -> String {
        parse_hh_mm_ss(text).expect_err(text).to_string()
    }

    #[test]
    fn reads_two_digit_fields() {
        assert_eq!(parse_hh_mm_ss("00:00:00"), Ok(0));
        assert_eq!(parse_hh_mm_ss("09:30:15"), Ok(9 * 3600 + 30 * 60 + 15));
        assert_eq!(parse_hh_mm_ss("23:59:59"), Ok(SECONDS_PER_DAY - 1));
    }

    #[test]
    fn twenty_four_hundred_is_midnight() {
        assert_eq!(parse_hh_mm_ss("24:00:00"), Ok(0));
        assert!(
            refused("24:00:01").ends_with("Invalid value for HourOfDay (valid values 0 - 23): 24")
        );
    }

    #[test]
    fn names_the_index_where_the_form_breaks() {
        let prefix = "java.time.format.DateTimeParseException: Text";
        assert_eq!(
            refused("9:00:00"),
            format!("{prefix} '9:00:00' could not be parsed at index 0")
        );
        assert_eq!(
            refused("10:00"),
            format!("{prefix} '10:00' could not be parsed at index 5")
        );
        assert_eq!(
            refused("10-00:00"),
            format!("{prefix} '10-00:00' could not be parsed at index 2")
        );
        assert_eq!(
            refused("+1:00:00"),
            format!("{prefix} '+1:00:00' could not be parsed at index 0")
        );
        assert_eq!(
            refused("10:00:00.5"),
            format!("{prefix} '10:00:00.5' could not be parsed, unparsed text found at index 8")
        );
        assert_eq!(
            refused(""),
            format!("{prefix} '' could not be parsed at index 0")
        );
    }

    #[test]
    fn checks_the_minute_before_the_hour() {
        assert!(refused("25:61:00")
            .ends_with("Invalid value for MinuteOfHour (valid values 0 - 59): 61"));
        assert!(
            refused("25:00:61").ends_with("Invalid value for HourOfDay (valid values 0 - 23): 25")
        );
        assert!(refused("23:00:60")
            .ends_with("Invalid value for SecondOfMinute (valid values 0 - 59): 60"));
    }

    #[test]
    fn quotes_long_text_cut_to_64_units() {
        let long = "1".repeat(70);
        let message = refused(&long);
        assert!(
            message.contains(&format!("'{}...'", "1".repeat(64))),
            "{message}"
        );
        let wide = "é".repeat(70);
        assert!(refused(&wide).contains(&format!("'{}...'", "é".repeat(64))));
    }
}
