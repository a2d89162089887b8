//! Quartz cron expressions, as `CronTriggeringPolicy schedule` takes them.

use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;
use jiff::ToSpan as _;

/// A Quartz cron expression: `seconds minutes hours day-of-month month day-of-week [year]`.
///
/// Each field takes `*`, numbers, ranges `a-b`, steps `a/n`, `*/n` and `a-b/n`, and lists; months
/// and week days also take their English names (`JAN`, `MON`; week days run from 1 = Sunday to
/// 7 = Saturday). One of day-of-month and day-of-week must be `?`. Day-of-month also takes `L`
/// (the last day of the month) and day-of-week `nL` (the last such day of the month) and `n#k`
/// (the k-th such day). `W` (nearest weekday) is not supported and is reported as an error.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CronExpression {
    text: String,
    seconds: u64,
    minutes: u64,
    hours: u64,
    months: u64,
    days: DayRule,
    years: Option<Vec<bool>>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum DayRule {
    /// A set of days of the month (bit 1..=31).
    OfMonth(u64),
    /// The last day of the month.
    LastOfMonth,
    /// A set of week days (bit 1 = Sunday … 7 = Saturday).
    OfWeek(u64),
    /// The last given week day of the month.
    LastWeekDay(u8),
    /// The `n`-th given week day of the month.
    NthWeekDay(u8, u8),
}

const MONTHS: [&str; 12] = [
    "JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC",
];
const DAYS: [&str; 7] = ["SUN", "MON", "TUE", "WED", "THU", "FRI", "SAT"];
const FIRST_YEAR: i16 = 1970;
const LAST_YEAR: i16 = 2199;

impl CronExpression {
    /// Parses `text`; the error says which field is wrong.
    pub fn parse(text: &str) -> Result<CronExpression, String> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        if !(6..=7).contains(&fields.len()) {
            return Err(format!(
                "Cron expression \"{text}\" has {} fields; Quartz expects 6 or 7 (seconds minutes hours day-of-month month day-of-week [year])",
                fields.len()
            ));
        }
        let field_error = |name: &str, reason: String| {
            format!("Invalid {name} field in cron expression \"{text}\": {reason}")
        };
        let seconds = parse_set(fields[0], 0, 59, &[]).map_err(|e| field_error("seconds", e))?;
        let minutes = parse_set(fields[1], 0, 59, &[]).map_err(|e| field_error("minutes", e))?;
        let hours = parse_set(fields[2], 0, 23, &[]).map_err(|e| field_error("hours", e))?;
        let months = parse_set(fields[4], 1, 12, &MONTHS).map_err(|e| field_error("month", e))?;
        let (day_of_month, day_of_week) = (fields[3], fields[5]);
        let days = match (day_of_month == "?", day_of_week == "?") {
            (true, true) | (false, false) => {
                return Err(format!(
                    "Cron expression \"{text}\": exactly one of day-of-month and day-of-week must be '?'"
                ))
            }
            (false, true) if day_of_month.eq_ignore_ascii_case("L") => DayRule::LastOfMonth,
            (false, true) => DayRule::OfMonth(
                parse_set(day_of_month, 1, 31, &[]).map_err(|e| field_error("day-of-month", e))?,
            ),
            (true, false) => parse_week_days(day_of_week).map_err(|e| field_error("day-of-week", e))?,
        };
        let years = match fields.get(6) {
            None => None,
            Some(field) => {
                let set = parse_years(field).map_err(|e| field_error("year", e))?;
                Some(set)
            }
        };
        Ok(CronExpression {
            text: text.to_string(),
            seconds,
            minutes,
            hours,
            months,
            days,
            years,
        })
    }

    /// `0 0 0 * * ?`: daily at midnight, `CronTriggeringPolicy`'s default.
    pub fn daily_at_midnight() -> CronExpression {
        CronExpression {
            text: "0 0 0 * * ?".to_string(),
            seconds: 1,
            minutes: 1,
            hours: 1,
            months: 0b1_1111_1111_1110,
            days: DayRule::OfMonth(!0b1 & ((1 << 32) - 1)),
            years: None,
        }
    }

    /// The expression as written.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The first instant strictly after `after_millis` (epoch milliseconds) that the schedule
    /// fires at, in `zone`, as epoch milliseconds; `None` when it never fires again.
    pub fn next_after(&self, after_millis: i64, zone: &TimeZone) -> Option<i64> {
        let start =
            jiff::Timestamp::from_millisecond(after_millis.div_euclid(1000) * 1000 + 1000).ok()?;
        let mut at = zone.to_datetime(start);
        // Each step moves at least to the next second and usually skips a whole unit, so this
        // bound covers every expression that fires within the supported years.
        for _ in 0..2_000_000 {
            let year = at.year();
            if year > LAST_YEAR {
                return None;
            }
            if let Some(years) = &self.years {
                if !years[(year - FIRST_YEAR).max(0) as usize] {
                    at = DateTime::from(Date::new(year + 1, 1, 1).ok()?);
                    continue;
                }
            }
            if !bit(self.months, at.month() as u32) {
                at = DateTime::from(at.date().first_of_month().checked_add(1.month()).ok()?);
                continue;
            }
            if !self.day_matches(at.date()) {
                at = DateTime::from(at.date().tomorrow().ok()?);
                continue;
            }
            if !bit(self.hours, at.hour() as u32) {
                at = at
                    .date()
                    .at(at.hour(), 0, 0, 0)
                    .checked_add(1.hour())
                    .ok()?;
                continue;
            }
            if !bit(self.minutes, at.minute() as u32) {
                at = at
                    .date()
                    .at(at.hour(), at.minute(), 0, 0)
                    .checked_add(1.minute())
                    .ok()?;
                continue;
            }
            if !bit(self.seconds, at.second() as u32) {
                at = at.checked_add(1.second()).ok()?;
                continue;
            }
            let fired = zone.to_ambiguous_timestamp(at).compatible().ok()?;
            if fired >= start {
                return Some(fired.as_millisecond());
            }
            // A time repeated by a DST change maps before the start; look further.
            at = at.checked_add(1.second()).ok()?;
        }
        None
    }

    fn day_matches(&self, date: Date) -> bool {
        // jiff numbers Monday 1 … Sunday 7; Quartz Sunday 1 … Saturday 7.
        let week_day = date.weekday().to_sunday_one_offset() as u32;
        match &self.days {
            DayRule::OfMonth(set) => bit(*set, date.day() as u32),
            DayRule::LastOfMonth => date.day() == date.days_in_month(),
            DayRule::OfWeek(set) => bit(*set, week_day),
            DayRule::LastWeekDay(day) => {
                week_day == u32::from(*day) && date.day() + 7 > date.days_in_month()
            }
            DayRule::NthWeekDay(day, nth) => {
                week_day == u32::from(*day) && (date.day() - 1) / 7 + 1 == *nth as i8
            }
        }
    }
}

fn bit(set: u64, value: u32) -> bool {
    value < 64 && set & (1 << value) != 0
}

fn parse_value(text: &str, names: &[&str]) -> Result<u32, String> {
    if let Some(index) = names
        .iter()
        .position(|name| name.eq_ignore_ascii_case(text))
    {
        return Ok(index as u32 + 1);
    }
    text.parse()
        .map_err(|_| format!("'{text}' is not a number"))
}

/// A list of `*`, values, ranges and steps within `[low, high]`, as a bit set.
fn parse_set(field: &str, low: u32, high: u32, names: &[&str]) -> Result<u64, String> {
    let mut set = 0u64;
    for part in field.split(',') {
        let (range, step) = match part.split_once('/') {
            Some((range, step)) => {
                let step: u32 = step.parse().map_err(|_| format!("bad step '{step}'"))?;
                if step == 0 {
                    return Err("a step must be positive".to_string());
                }
                (range, step)
            }
            None => (part, 1),
        };
        let (from, to) = if range == "*" {
            (low, high)
        } else if let Some((a, b)) = range.split_once('-') {
            (parse_value(a, names)?, parse_value(b, names)?)
        } else {
            let value = parse_value(range, names)?;
            // `a/n` runs from a to the end of the range.
            (value, if part.contains('/') { high } else { value })
        };
        if from < low || to > high || from > to {
            return Err(format!("'{part}' is outside {low}-{high}"));
        }
        let mut value = from;
        while value <= to {
            set |= 1 << value;
            value += step;
        }
    }
    Ok(set)
}

fn parse_week_days(field: &str) -> Result<DayRule, String> {
    if let Some((day, nth)) = field.split_once('#') {
        let day = parse_value(day, &DAYS)?;
        let nth: u8 = nth.parse().map_err(|_| format!("bad '#' count '{nth}'"))?;
        if !(1..=7).contains(&day) || !(1..=5).contains(&nth) {
            return Err(format!("'{field}' is out of range"));
        }
        return Ok(DayRule::NthWeekDay(day as u8, nth));
    }
    if let Some(day) = field.strip_suffix(['L', 'l']) {
        let day = if day.is_empty() {
            7
        } else {
            parse_value(day, &DAYS)?
        };
        if !(1..=7).contains(&day) {
            return Err(format!("'{field}' is out of range"));
        }
        return Ok(DayRule::LastWeekDay(day as u8));
    }
    if field.contains(['W', 'w']) && !field.to_ascii_uppercase().contains("WED") {
        return Err("'W' (nearest weekday) is not supported by l4rs".to_string());
    }
    Ok(DayRule::OfWeek(parse_set(field, 1, 7, &DAYS)?))
}

fn parse_years(field: &str) -> Result<Vec<bool>, String> {
    let mut years = vec![false; (LAST_YEAR - FIRST_YEAR + 1) as usize];
    for part in field.split(',') {
        let (range, step) = match part.split_once('/') {
            Some((range, step)) => (
                range,
                step.parse::<i16>()
                    .map_err(|_| format!("bad step '{step}'"))?
                    .max(1),
            ),
            None => (part, 1),
        };
        let parse = |t: &str| t.parse::<i16>().map_err(|_| format!("'{t}' is not a year"));
        let (from, to) = if range == "*" {
            (FIRST_YEAR, LAST_YEAR)
        } else if let Some((a, b)) = range.split_once('-') {
            (parse(a)?, parse(b)?)
        } else {
            let year = parse(range)?;
            (year, if part.contains('/') { LAST_YEAR } else { year })
        };
        if from < FIRST_YEAR || to > LAST_YEAR || from > to {
            return Err(format!("'{part}' is outside {FIRST_YEAR}-{LAST_YEAR}"));
        }
        // A step past the last year ends the walk (a large step must not overflow `i16`).
        let mut year = Some(from);
        while let Some(current) = year.filter(|&y| y <= to) {
            years[(current - FIRST_YEAR) as usize] = true;
            year = current.checked_add(step);
        }
    }
    Ok(years)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_year_step_beyond_i16_ends_the_walk() {
        // Found by the cron fuzz target: `2000/32357` overflowed the year counter.
        let cron = CronExpression::parse("0 0 0 ? * 2#1 2000/32357").expect("one year");
        assert!(cron
            .next_after(at("1999-06-01T00:00:00Z"), &TimeZone::UTC)
            .is_some());
    }

    fn at(text: &str) -> i64 {
        text.parse::<jiff::Timestamp>().unwrap().as_millisecond()
    }

    fn next(expression: &str, after: &str) -> String {
        let cron = CronExpression::parse(expression).unwrap();
        let millis = cron.next_after(at(after), &TimeZone::UTC).unwrap();
        jiff::Timestamp::from_millisecond(millis)
            .unwrap()
            .to_string()
    }

    #[test]
    fn fires_at_the_next_matching_second() {
        assert_eq!(
            next("0 0 0 * * ?", "2024-03-05T10:00:00Z"),
            "2024-03-06T00:00:00Z"
        );
        assert_eq!(
            next("* * * * * ?", "2024-03-05T10:00:00.500Z"),
            "2024-03-05T10:00:01Z"
        );
        assert_eq!(
            next("0/2 * * * * ?", "2024-03-05T10:00:01Z"),
            "2024-03-05T10:00:02Z"
        );
        assert_eq!(
            next("0/2 * * * * ?", "2024-03-05T10:00:02Z"),
            "2024-03-05T10:00:04Z"
        );
        assert_eq!(
            next("0 0/1 * * * ?", "2024-03-05T10:00:30Z"),
            "2024-03-05T10:01:00Z"
        );
        assert_eq!(
            next("0 30 9 ? * MON-FRI", "2024-03-08T10:00:00Z"),
            "2024-03-11T09:30:00Z"
        );
        assert_eq!(
            next("0 0 12 L * ?", "2024-02-01T00:00:00Z"),
            "2024-02-29T12:00:00Z"
        );
        assert_eq!(
            next("0 0 0 ? * 6L", "2024-03-01T00:00:00Z"),
            "2024-03-29T00:00:00Z"
        );
        assert_eq!(
            next("0 0 0 ? * 2#1", "2024-03-05T00:00:00Z"),
            "2024-04-01T00:00:00Z"
        );
        assert_eq!(
            next("0 0 0 1 JAN ? 2030", "2024-03-05T00:00:00Z"),
            "2030-01-01T00:00:00Z"
        );
    }

    #[test]
    fn the_default_is_what_it_says() {
        assert_eq!(
            CronExpression::daily_at_midnight(),
            CronExpression::parse("0 0 0 * * ?").unwrap()
        );
    }

    #[test]
    fn mistakes_are_errors() {
        for bad in [
            "0 0 0 * *",
            "0 0 0 * * *",
            "0 0 0 ? * ?",
            "61 0 0 * * ?",
            "0 0 0 15W * ?",
            "0 0 x * * ?",
            "@CRON_EXPR@",
        ] {
            assert!(CronExpression::parse(bad).is_err(), "{bad}");
        }
        assert!(CronExpression::parse("0 0 0 1 1 ? 2020")
            .unwrap()
            .next_after(at("2024-01-01T00:00:00Z"), &TimeZone::UTC)
            .is_none());
    }
}
