//! `java.time.format.DateTimeFormatter` patterns, which JsonTemplateLayout's `timestamp`
//! resolver follows: log4j2 2.24 uses its fast formatters only where they print what
//! `DateTimeFormatter.ofPattern` prints, so the output is always `DateTimeFormatter`'s. The
//! letters are mapped onto the items `%d` formats with; where `DateTimeFormatter` reads a
//! letter differently from `SimpleDateFormat` (`Z`, `S`, `u`), its meaning is taken.

use l4rs_java_syntax::date_pattern::{self, Token};

use super::format::{Item, OffsetStyle};

/// Compiles a `DateTimeFormatter` pattern; an error names what l4rs does not format.
pub(crate) fn compile(pattern: &str) -> Result<Vec<Item>, String> {
    let tokens = date_pattern::parse(pattern).map_err(|error| error.to_string())?;
    let mut items = Vec::with_capacity(tokens.len());
    for token in tokens {
        let (letter, count) = match token {
            Token::Literal(text) => {
                if text.contains(['[', ']', '{', '}', '#']) {
                    return Err(format!(
                        "optional sections and reserved characters ([ ] {{ }} #) are not supported by l4rs in {pattern:?}"
                    ));
                }
                items.push(Item::Literal(text.into_boxed_str()));
                continue;
            }
            Token::Field { letter, count } => (letter, count),
        };
        items.push(match (letter, count) {
            ('G', _) => Item::Era,
            ('y' | 'u', _) => Item::Year(count),
            ('M' | 'L', 1..=4) => Item::Month(count),
            ('d', 1..=2) => Item::Day(count),
            ('D', 1..=3) => Item::DayOfYear(count),
            ('E', 1..=4) => Item::DayName { long: count == 4 },
            ('a', 1) => Item::AmPm,
            ('H', 1..=2) => Item::Hour0To23(count),
            ('k', 1..=2) => Item::Hour1To24(count),
            ('K', 1..=2) => Item::Hour0To11(count),
            ('h', 1..=2) => Item::Hour1To12(count),
            ('m', 1..=2) => Item::Minute(count),
            ('s', 1..=2) => Item::Second(count),
            // The fraction of the second, truncated to `count` digits.
            ('S', 1..=9) => Item::Fraction(count),
            ('z', 1..=4) => Item::ZoneName { long: count == 4 },
            // `+0100`, `+0000` at UTC.
            ('Z', 1..=3) => Item::Offset(OffsetStyle::Rfc822),
            // `+01:00`, `Z` at UTC.
            ('Z', 5) | ('X', 3) => Item::Offset(OffsetStyle::IsoColon),
            ('X', 1) => Item::Offset(OffsetStyle::IsoHours),
            ('X', 2) => Item::Offset(OffsetStyle::IsoHoursMinutes),
            _ => {
                let token: String = std::iter::repeat_n(letter, count).collect();
                return Err(format!(
                    "the pattern letters {token} are not supported by l4rs in {pattern:?}"
                ));
            }
        });
    }
    Ok(items)
}
