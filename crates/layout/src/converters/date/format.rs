//! Date patterns compiled into fields: SimpleDateFormat letters with the semantics of
//! log4j2 2.24's `FastDateFormat`, plus the `n` fraction digits of its `FixedDateFormat`.

use l4rs_core::calendar::{self, DAY_NAMES, MONTH_NAMES};
use l4rs_java_syntax::date_pattern::{self, Token};

use crate::converters::thread::{push_integer, push_padded};

/// How an offset prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum OffsetStyle {
    /// `Z`: `+0100`.
    Rfc822,
    /// `ZZZ`: `+01:00`.
    Colon,
    /// `X`: `+01`, `Z` at zero.
    IsoHours,
    /// `XX`: `+0100`, `Z` at zero.
    IsoHoursMinutes,
    /// `XXX` and `ZZ`: `+01:00`, `Z` at zero.
    IsoColon,
    /// `X` in a fixed format: `+01`, never `Z`.
    FixedHours,
    /// `XX` in a fixed format: `+0100`.
    FixedHoursMinutes,
    /// `XXX` in a fixed format: `+01:00`.
    FixedColon,
}

/// One compiled piece of a date pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Item {
    Literal(Box<str>),
    Era,
    Year(usize),
    WeekYear(usize),
    Month(usize),
    Day(usize),
    DayOfYear(usize),
    DayOfWeekInMonth(usize),
    WeekOfYear(usize),
    WeekOfMonth(usize),
    DayName {
        long: bool,
    },
    DayNumber(usize),
    AmPm,
    Hour0To23(usize),
    Hour1To24(usize),
    Hour0To11(usize),
    Hour1To12(usize),
    Minute(usize),
    Second(usize),
    /// `S…`: milliseconds zero-padded to the count (SimpleDateFormat semantics).
    Millis(usize),
    /// `n…` in a fixed format: the leading digits of the nanosecond of the second.
    Fraction(usize),
    ZoneName {
        long: bool,
    },
    Offset(OffsetStyle),
}

impl Item {
    /// True for items that change within a second (they are written per event, the rest is
    /// cached per second).
    pub(super) fn is_sub_second(&self) -> bool {
        matches!(self, Item::Millis(_) | Item::Fraction(_))
    }
}

/// Compiles a SimpleDateFormat pattern. `fixed` selects FixedDateFormat's offset style and
/// allows `n`. The error text is what FastDateFormat's exception says.
pub(crate) fn compile(pattern: &str, fixed: bool) -> Result<Vec<Item>, String> {
    let tokens = date_pattern::parse(pattern).map_err(|error| error.to_string())?;
    let mut items = Vec::with_capacity(tokens.len());
    for token in tokens {
        let (c, count) = match token {
            Token::Literal(text) => {
                items.push(Item::Literal(text.into_boxed_str()));
                continue;
            }
            Token::Field { letter, count } => (letter, count),
        };
        items.push(match c {
            'G' => Item::Era,
            'y' => Item::Year(count),
            'Y' => Item::WeekYear(count),
            'M' => Item::Month(count),
            'd' => Item::Day(count),
            'D' => Item::DayOfYear(count),
            'F' => Item::DayOfWeekInMonth(count),
            'w' => Item::WeekOfYear(count),
            'W' => Item::WeekOfMonth(count),
            'E' => Item::DayName { long: count >= 4 },
            'u' => Item::DayNumber(count),
            'a' => Item::AmPm,
            'H' => Item::Hour0To23(count),
            'k' => Item::Hour1To24(count),
            'K' => Item::Hour0To11(count),
            'h' => Item::Hour1To12(count),
            'm' => Item::Minute(count),
            's' => Item::Second(count),
            'S' => Item::Millis(count),
            'n' if fixed => Item::Fraction(count),
            'z' => Item::ZoneName { long: count >= 4 },
            'Z' => Item::Offset(match count {
                1 => OffsetStyle::Rfc822,
                2 => OffsetStyle::IsoColon,
                _ => OffsetStyle::Colon,
            }),
            'X' => Item::Offset(match (count, fixed) {
                (1, false) => OffsetStyle::IsoHours,
                (2, false) => OffsetStyle::IsoHoursMinutes,
                (3, false) => OffsetStyle::IsoColon,
                (1, true) => OffsetStyle::FixedHours,
                (2, true) => OffsetStyle::FixedHoursMinutes,
                (3, true) => OffsetStyle::FixedColon,
                _ => return Err("invalid number of X".to_string()),
            }),
            _ => {
                let token: String = std::iter::repeat_n(c, count).collect();
                return Err(format!("Illegal pattern component: {token}"));
            }
        });
    }
    Ok(items)
}

/// The calendar fields of one local second.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Fields {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub minute: u32,
    pub second: u32,
    /// 0 = Sunday.
    pub weekday: u32,
    pub day_of_year: u32,
    pub days_in_year: u32,
    pub offset_seconds: i32,
}

impl Fields {
    /// Splits local time (epoch seconds plus offset) into fields.
    pub(super) fn from_local(local_seconds: i64, offset_seconds: i32) -> Fields {
        let days = local_seconds.div_euclid(86_400);
        let of_day = local_seconds.rem_euclid(86_400) as u32;
        let (year, month, day) = civil_from_days(days);
        let jan1 = days_from_civil(year, 1, 1);
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0;
        Fields {
            year,
            month,
            day,
            hour: of_day / 3600,
            minute: of_day / 60 % 60,
            second: of_day % 60,
            weekday: (days + 4).rem_euclid(7) as u32,
            day_of_year: (days - jan1 + 1) as u32,
            days_in_year: if leap { 366 } else { 365 },
            offset_seconds,
        }
    }

    /// Week of year for en_US (weeks start on Sunday, week 1 holds January 1st).
    fn week_of_year(&self) -> u32 {
        let jan1_weekday = (self.weekday + 7 * 60 - (self.day_of_year - 1) % 7) % 7;
        let next_jan1_weekday = (self.weekday + (self.days_in_year - self.day_of_year + 1)) % 7;
        if next_jan1_weekday != 0 && self.days_in_year - self.day_of_year < next_jan1_weekday {
            return 1;
        }
        (self.day_of_year - 1 + jan1_weekday) / 7 + 1
    }

    fn week_year(&self) -> i64 {
        if self.month == 12 && self.week_of_year() == 1 {
            self.year + 1
        } else {
            self.year
        }
    }
}

/// Howard Hinnant's `civil_from_days`.
fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = yoe + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let y = if month <= 2 { year - 1 } else { year };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let m = i64::from(month);
    let doy = (153 * (if m > 2 { m - 3 } else { m + 9 }) + 2) / 5 + i64::from(day) - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// Writes a second-stable item. `zone_name` writes `z`/`zzzz`.
/// `YY` as log4j2's FastDatePrinter (through 2.24) writes it: its week-year rule hands the
/// whole year, not the year modulo 100, to the two-digit writer, whose tens "digit" becomes
/// the character `'0' + year / 10` (2012 prints `ù2`). Byte-identical output means the same.
fn push_two_digit_week_year(out: &mut String, week_year: i64) {
    let tens = u32::try_from(week_year / 10 + i64::from(b'0')).unwrap_or(u32::from(b'?'));
    out.push(char::from_u32(tens).unwrap_or('?'));
    out.push(char::from(b'0' + week_year.rem_euclid(10) as u8));
}

pub(crate) fn write_item(
    item: &Item,
    f: &Fields,
    out: &mut String,
    zone_name: &dyn Fn(bool, &mut String),
) {
    match *item {
        Item::Literal(ref text) => out.push_str(text),
        Item::Era => out.push_str(if f.year > 0 { "AD" } else { "BC" }),
        Item::Year(2) => push_padded(out, f.year.rem_euclid(100), 2),
        Item::Year(n) => push_padded(out, f.year, n.max(4)),
        Item::WeekYear(2) => push_two_digit_week_year(out, f.week_year()),
        Item::WeekYear(n) => push_padded(out, f.week_year(), n.max(4)),
        Item::Month(n) if n >= 3 => {
            out.push_str(calendar::text(MONTH_NAMES[f.month as usize - 1], n >= 4))
        }
        Item::Month(n) => push_padded(out, i64::from(f.month), n),
        Item::Day(n) => push_padded(out, i64::from(f.day), n),
        Item::DayOfYear(n) => push_padded(out, i64::from(f.day_of_year), n),
        Item::DayOfWeekInMonth(n) => push_padded(out, i64::from((f.day - 1) / 7 + 1), n),
        Item::WeekOfYear(n) => push_padded(out, i64::from(f.week_of_year()), n),
        Item::WeekOfMonth(n) => {
            let first_weekday = (f.weekday + 35 - (f.day - 1) % 7) % 7;
            push_padded(out, i64::from((f.day - 1 + first_weekday) / 7 + 1), n)
        }
        Item::DayName { long } => out.push_str(calendar::text(DAY_NAMES[f.weekday as usize], long)),
        Item::DayNumber(n) => push_padded(
            out,
            i64::from(if f.weekday == 0 { 7 } else { f.weekday }),
            n,
        ),
        Item::AmPm => out.push_str(if f.hour < 12 { "AM" } else { "PM" }),
        Item::Hour0To23(n) => push_padded(out, i64::from(f.hour), n),
        Item::Hour1To24(n) => push_padded(out, i64::from(if f.hour == 0 { 24 } else { f.hour }), n),
        Item::Hour0To11(n) => push_padded(out, i64::from(f.hour % 12), n),
        Item::Hour1To12(n) => {
            let hour = f.hour % 12;
            push_padded(out, i64::from(if hour == 0 { 12 } else { hour }), n)
        }
        Item::Minute(n) => push_padded(out, i64::from(f.minute), n),
        Item::Second(n) => push_padded(out, i64::from(f.second), n),
        Item::Millis(_) | Item::Fraction(_) => {}
        Item::ZoneName { long } => zone_name(long, out),
        Item::Offset(style) => write_offset(style, f.offset_seconds, out),
    }
}

/// Writes a sub-second item for the nanosecond of the second.
#[inline]
pub(crate) fn write_sub_second(item: &Item, nano_of_second: u32, out: &mut String) {
    match *item {
        Item::Millis(n) => push_padded(out, i64::from(nano_of_second / 1_000_000), n),
        Item::Fraction(digits) => {
            let mut value = nano_of_second;
            let mut buffer = [b'0'; 9];
            for slot in buffer.iter_mut().rev() {
                *slot = b'0' + (value % 10) as u8;
                value /= 10;
            }
            for &digit in &buffer[..digits.min(9)] {
                out.push(digit as char);
            }
            for _ in 9..digits {
                out.push('0');
            }
        }
        _ => {}
    }
}

fn write_offset(style: OffsetStyle, seconds: i32, out: &mut String) {
    let iso = matches!(
        style,
        OffsetStyle::IsoHours | OffsetStyle::IsoHoursMinutes | OffsetStyle::IsoColon
    );
    if iso && seconds == 0 {
        out.push('Z');
        return;
    }
    out.push(if seconds < 0 { '-' } else { '+' });
    let minutes = seconds.unsigned_abs() / 60;
    push_padded(out, i64::from(minutes / 60), 2);
    match style {
        OffsetStyle::IsoHours | OffsetStyle::FixedHours => {}
        OffsetStyle::Rfc822 | OffsetStyle::IsoHoursMinutes | OffsetStyle::FixedHoursMinutes => {
            push_padded(out, i64::from(minutes % 60), 2)
        }
        OffsetStyle::Colon | OffsetStyle::IsoColon | OffsetStyle::FixedColon => {
            out.push(':');
            push_padded(out, i64::from(minutes % 60), 2)
        }
    }
}

/// `UNIX` / `UNIX_MILLIS`.
pub(crate) fn write_epoch(millis: i64, in_seconds: bool, out: &mut String) {
    push_integer(
        out,
        if in_seconds {
            millis.div_euclid(1000)
        } else {
            millis
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calendar_arithmetic_round_trips() {
        for days in [-719_468i64, -1, 0, 1, 15_645, 20_000, 2_932_896] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
        let f = Fields::from_local(1_351_866_842, 0);
        assert_eq!(
            (f.year, f.month, f.day, f.hour, f.minute, f.second),
            (2012, 11, 2, 14, 34, 2)
        );
        assert_eq!((f.weekday, f.day_of_year, f.week_of_year()), (5, 307, 44));
    }

    #[test]
    fn two_digit_week_year_keeps_fast_date_printers_bug() {
        let mut out = String::new();
        push_two_digit_week_year(&mut out, 2012);
        push_two_digit_week_year(&mut out, 2100);
        assert_eq!(out, "ù2Ă0");
    }

    #[test]
    fn week_of_year_rolls_into_next_year() {
        // 2012-12-31 is a Monday in the week of 2013-01-01.
        let f = Fields::from_local(1_356_912_000, 0);
        assert_eq!(
            (f.month, f.day, f.week_of_year(), f.week_year()),
            (12, 31, 1, 2013)
        );
        let f = Fields::from_local(1_356_739_200, 0); // 2012-12-29, Saturday
        assert_eq!(f.week_of_year(), 52);
    }

    #[test]
    fn bad_patterns_say_why() {
        assert_eq!(
            compile("HH:mm Q", false).unwrap_err(),
            "Illegal pattern component: Q"
        );
        assert_eq!(
            compile("LLL", false).unwrap_err(),
            "Illegal pattern component: LLL"
        );
        assert_eq!(compile("'open", false).unwrap_err(), "Unterminated quote");
        assert_eq!(compile("XXXX", false).unwrap_err(), "invalid number of X");
        assert!(compile("nnn", false).is_err());
        assert_eq!(
            compile("'at' h 'o''clock'", false).unwrap(),
            vec![
                Item::Literal("at ".into()),
                Item::Hour1To12(1),
                Item::Literal(" o'clock".into())
            ]
        );
    }
}
