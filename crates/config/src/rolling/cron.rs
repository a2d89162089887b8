//! Quartz cron expressions, as `CronTriggeringPolicy schedule` takes them.

use jiff::civil::{Date, DateTime};
use jiff::tz::TimeZone;
use jiff::ToSpan as _;

/// A Quartz cron expression: `seconds minutes hours day-of-month month day-of-week [year]`.
///
/// Each field takes `*`, numbers, ranges `a-b` (a range that ends below its start wraps
/// around: hours `22-2` are 22, 23, 0, 1 and 2), steps `a/n`, `*/n` and `a-b/n`, and lists;
/// months and week days also take their English names (`JAN`, `MON`; week days run from
/// 1 = Sunday to 7 = Saturday). One of day-of-month and day-of-week must be `?`. Day-of-month
/// also takes `L` (the last day of the month), `L-n` (n days before it), `nW` (the weekday
/// nearest the n-th, within the month), `LW` and `L-nW`; day-of-week takes `L` alone
/// (Saturday), `nL` (the last such day of the month) and `n#k` (the k-th such day).
/// [`CronExpression::notes`] names the parts log4j2 reads differently (a step after a name)
/// or ignores (fields after the year). A `nW` past the end of a short month (`31W` in April)
/// does not fire that month; log4j2's lenient calendar moves it into the next month's first
/// days.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CronExpression {
    text: String,
    seconds: u64,
    minutes: u64,
    hours: u64,
    months: u64,
    days: DayRule,
    years: Option<Vec<bool>>,
    /// Where log4j2 reads the expression differently.
    notes: Vec<String>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum DayRule {
    /// A set of days of the month (bit 1..=31).
    OfMonth(u64),
    /// The day `offset` days before the last of the month (`L`, `L-n`); with `weekday`, the
    /// weekday nearest it (`LW`, `L-nW`).
    FromLastOfMonth { offset: u8, weekday: bool },
    /// The weekday nearest the given day of the month (`nW`).
    NearestWeekday(u8),
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
        if fields.len() < 6 {
            return Err(format!(
                "Cron expression \"{text}\" has {} fields; Quartz expects 6 or 7 (seconds minutes hours day-of-month month day-of-week [year])",
                fields.len()
            ));
        }
        let field_error = |name: &str, reason: String| {
            format!("Invalid {name} field in cron expression \"{text}\": {reason}")
        };
        let mut notes = Vec::new();
        let seconds = parse_set(fields[0], 0, 59, &[]).map_err(|e| field_error("seconds", e))?;
        let minutes = parse_set(fields[1], 0, 59, &[]).map_err(|e| field_error("minutes", e))?;
        let hours = parse_set(fields[2], 0, 23, &[]).map_err(|e| field_error("hours", e))?;
        let months = parse_set(fields[4], 1, 12, &MONTHS).map_err(|e| field_error("month", e))?;
        for (field, names) in [(fields[4], &MONTHS[..]), (fields[5], &DAYS[..])] {
            if let Some(part) = stepped_name(field, names) {
                notes.push(format!(
                    "log4j2 ignores the step of '{part}' (after a name) and takes the name or range alone; l4rs takes the step; write the range in numbers for the same schedule in both"
                ));
            }
        }
        if fields.len() > 7 {
            notes.push(format!(
                "the fields after the year ('{}') are ignored, as log4j2 ignores them",
                fields[7..].join(" ")
            ));
        }
        let (day_of_month, day_of_week) = (fields[3], fields[5]);
        let days = match (day_of_month == "?", day_of_week == "?") {
            (true, true) | (false, false) => {
                return Err(format!(
                    "Cron expression \"{text}\": exactly one of day-of-month and day-of-week must be '?'"
                ))
            }
            (false, true) => {
                parse_month_days(day_of_month).map_err(|e| field_error("day-of-month", e))?
            }
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
            notes,
        })
    }

    /// Where log4j2 reads the expression differently or ignores part of it, one sentence
    /// each (the configuration loader reports them as warnings): a step after a month or day
    /// name, which log4j2 ignores and l4rs takes; fields after the year, which both ignore.
    pub fn notes(&self) -> &[String] {
        &self.notes
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
            notes: Vec::new(),
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
                if year < FIRST_YEAR {
                    // No year before the first can be listed; wait for it, as log4j2 does.
                    at = DateTime::from(Date::new(FIRST_YEAR, 1, 1).ok()?);
                    continue;
                }
                if !years[(year - FIRST_YEAR) as usize] {
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
            // As log4j2's Java calendar reads wall times: one the clocks pass twice as its
            // later, standard-time pass (so nothing fires in the first pass of the repeated
            // hour, and a daily time in it fires once), one they skip as moved forward by the
            // skip (where log4j2 skips the day instead; docs/appenders.md).
            let fired = zone.to_ambiguous_timestamp(at).later().ok()?;
            if fired >= start {
                return Some(fired.as_millisecond());
            }
            at = at.checked_add(1.second()).ok()?;
        }
        None
    }

    fn day_matches(&self, date: Date) -> bool {
        // jiff numbers Monday 1 … Sunday 7; Quartz Sunday 1 … Saturday 7.
        let week_day = date.weekday().to_sunday_one_offset() as u32;
        let last = date.days_in_month();
        match &self.days {
            DayRule::OfMonth(set) => bit(*set, date.day() as u32),
            DayRule::FromLastOfMonth { offset, weekday } => {
                let day = last - *offset as i8;
                if *weekday {
                    nearest_weekday(date, day) == Some(date.day())
                } else {
                    date.day() == day
                }
            }
            DayRule::NearestWeekday(day) => nearest_weekday(date, *day as i8) == Some(date.day()),
            DayRule::OfWeek(set) => bit(*set, week_day),
            DayRule::LastWeekDay(day) => week_day == u32::from(*day) && date.day() + 7 > last,
            DayRule::NthWeekDay(day, nth) => {
                week_day == u32::from(*day) && (date.day() - 1) / 7 + 1 == *nth as i8
            }
        }
    }
}

/// The weekday (Monday to Friday) nearest `day` in the month of `date`, as Quartz's `W` picks
/// it: a Saturday moves back to Friday and a Sunday on to Monday, but never out of the month
/// (Saturday the 1st moves on to Monday the 3rd, a Sunday that ends the month back to Friday).
/// `None` when the month has no such day.
fn nearest_weekday(date: Date, day: i8) -> Option<i8> {
    let last = date.days_in_month();
    if !(1..=last).contains(&day) {
        return None;
    }
    let weekday = Date::new(date.year(), date.month(), day).ok()?.weekday();
    Some(match weekday {
        jiff::civil::Weekday::Saturday if day == 1 => 3,
        jiff::civil::Weekday::Saturday => day - 1,
        jiff::civil::Weekday::Sunday if day == last => day - 2,
        jiff::civil::Weekday::Sunday => day + 1,
        _ => day,
    })
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
    parse_number(text)
}

/// A number as Java's `Integer.parseInt` takes it in a cron field: ASCII digits only (no sign),
/// at most `i32::MAX`.
fn parse_number(text: &str) -> Result<u32, String> {
    text.parse::<u32>()
        .ok()
        .filter(|&value| {
            !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) && value <= i32::MAX as u32
        })
        .ok_or_else(|| format!("'{text}' is not a number"))
}

/// The first part of `field` that puts a step after a name (`MON-FRI/2`, `JAN/3`): log4j2's
/// parser stops reading a part at its name or range of names, so it ignores such a step.
fn stepped_name<'f>(field: &'f str, names: &[&str]) -> Option<&'f str> {
    field.split(',').find(|part| {
        part.split_once('/').is_some_and(|(range, _)| {
            range
                .split('-')
                .any(|value| names.iter().any(|name| name.eq_ignore_ascii_case(value)))
        })
    })
}

/// A list of `*`, values, ranges and steps within `[low, high]`, as a bit set.
///
/// As in log4j2's (Quartz's) parser: a range that ends below its start wraps past `high`; a
/// step of 0 takes the start alone (all values after `*`); `*/n` refuses a step above `high`.
fn parse_set(field: &str, low: u32, high: u32, names: &[&str]) -> Result<u64, String> {
    let mut set = 0u64;
    for part in field.split(',') {
        let (range, step) = match part.split_once('/') {
            Some((range, step)) => {
                let step = parse_number(step).map_err(|_| format!("bad step '{step}'"))?;
                if (range == "*" || range.is_empty()) && step > high {
                    return Err(format!("the step of '{part}' is above {high}"));
                }
                (range, Some(step))
            }
            None => (part, None),
        };
        let (from, to) = if range == "*" || range.is_empty() && step.is_some() {
            (low, high)
        } else if let Some((a, b)) = range.split_once('-') {
            let named = |value: &str| value.starts_with(|c: char| c.is_ascii_alphabetic());
            if named(a) != named(b) {
                // log4j2 refuses a range of a name and a number.
                return Err(format!("'{part}' mixes a name and a number"));
            }
            (parse_value(a, names)?, parse_value(b, names)?)
        } else {
            let value = parse_value(range, names)?;
            // `a/n` runs from a to the end of the range.
            (value, if step.is_some() { high } else { value })
        };
        if from < low || from > high || to < low || to > high {
            return Err(format!("'{part}' is outside {low}-{high}"));
        }
        let step = match step {
            Some(0) if range == "*" || range.is_empty() => 1,
            Some(0) => {
                set |= 1 << from;
                continue;
            }
            Some(step) => step,
            None => 1,
        };
        // A range that ends below its start wraps around: `22-2` in hours, `FRI-MON`.
        let span = high - low + 1;
        let end = if to < from { to + span } else { to };
        let mut value = Some(from);
        while let Some(current) = value.filter(|&current| current <= end) {
            let wrapped = if current > high {
                current - span
            } else {
                current
            };
            set |= 1 << wrapped;
            value = current.checked_add(step);
        }
    }
    Ok(set)
}

/// Day-of-month: `L`, `L-n`, `LW`, `L-nW`, `nW`, or a set of days.
fn parse_month_days(field: &str) -> Result<DayRule, String> {
    let upper = field.to_ascii_uppercase();
    if let Some(rest) = upper.strip_prefix('L') {
        let (rest, weekday) = match rest.strip_suffix('W') {
            Some(rest) => (rest, true),
            None => (rest, false),
        };
        let offset = match rest.strip_prefix('-') {
            None if rest.is_empty() => 0,
            Some(offset) => parse_number(offset)
                .ok()
                .filter(|offset| *offset <= 30)
                .map(|offset| offset as u8)
                .ok_or_else(|| format!("the offset of '{field}' from the last day is not 0-30"))?,
            None => return Err(format!("'{field}' is not L, L-n, LW or L-nW")),
        };
        return Ok(DayRule::FromLastOfMonth { offset, weekday });
    }
    if let Some(day) = upper.strip_suffix('W') {
        let day = parse_number(day)
            .ok()
            .filter(|day| (1..=31).contains(day))
            .map(|day| day as u8)
            .ok_or_else(|| format!("'{field}' is not a day 1-31 followed by W"))?;
        return Ok(DayRule::NearestWeekday(day));
    }
    Ok(DayRule::OfMonth(parse_set(field, 1, 31, &[])?))
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
    if field.eq_ignore_ascii_case("L") {
        // `L` alone is the last day of the week, Saturday, every week.
        return Ok(DayRule::OfWeek(1 << 7));
    }
    if let Some(day) = field.strip_suffix(['L', 'l']) {
        let day = parse_value(day, &DAYS)?;
        if !(1..=7).contains(&day) {
            return Err(format!("'{field}' is out of range"));
        }
        return Ok(DayRule::LastWeekDay(day as u8));
    }
    Ok(DayRule::OfWeek(parse_set(field, 1, 7, &DAYS)?))
}

/// The years of the optional seventh field. Any year is accepted, as log4j2 accepts it; only
/// those from 1970 to 2199 can fire.
fn parse_years(field: &str) -> Result<Vec<bool>, String> {
    let mut years = vec![false; (LAST_YEAR - FIRST_YEAR + 1) as usize];
    let mut mark = |year: u32| {
        if let Some(slot) = years.get_mut(year.wrapping_sub(FIRST_YEAR as u32) as usize) {
            *slot = true;
        }
    };
    for part in field.split(',') {
        let (range, step) = match part.split_once('/') {
            Some((range, step)) => (
                range,
                Some(parse_number(step).map_err(|_| format!("bad step '{step}'"))?),
            ),
            None => (part, None),
        };
        let parse = |t: &str| parse_number(t).map_err(|_| format!("'{t}' is not a year"));
        let every = range == "*" || range.is_empty() && step.is_some();
        let (from, to) = if every {
            (FIRST_YEAR as u32, LAST_YEAR as u32)
        } else if let Some((a, b)) = range.split_once('-') {
            (parse(a)?, parse(b)?)
        } else {
            let year = parse(range)?;
            (
                year,
                if step.is_some() {
                    LAST_YEAR as u32
                } else {
                    year
                },
            )
        };
        if from > to {
            return Err(format!("'{part}' ends before it starts"));
        }
        // As in the other fields: a step of 0 takes the start alone, or every year after `*`.
        let step = match step {
            Some(0) if every => 1,
            Some(0) => {
                mark(from);
                continue;
            }
            Some(step) => step,
            None => 1,
        };
        // A step past the last year ends the walk (a large step must not overflow).
        let mut year = Some(from);
        while let Some(current) = year.filter(|&y| y <= to.min(LAST_YEAR as u32)) {
            mark(current);
            year = current.checked_add(step);
        }
    }
    Ok(years)
}

#[cfg(test)]
mod schedules_against_log4j2;

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
    fn quartz_day_rules_and_wrapping_ranges() {
        // June 2024: the 1st and 15th are Saturdays, the 30th a Sunday.
        let after = "2024-05-31T12:00:00Z";
        assert_eq!(next("0 0 0 15W * ?", after), "2024-06-14T00:00:00Z");
        assert_eq!(next("0 0 0 1W * ?", after), "2024-06-03T00:00:00Z");
        assert_eq!(next("0 0 0 LW * ?", after), "2024-06-28T00:00:00Z");
        assert_eq!(next("0 0 0 L-3 * ?", after), "2024-06-27T00:00:00Z");
        assert_eq!(next("0 0 0 L-2W * ?", after), "2024-06-28T00:00:00Z");
        // `L` alone in day-of-week: every Saturday.
        assert_eq!(next("0 0 0 ? * L", after), "2024-06-01T00:00:00Z");
        assert_eq!(
            next("0 0 22-2 * * ?", "2024-03-05T02:30:00Z"),
            "2024-03-05T22:00:00Z"
        );
        assert_eq!(
            next("0 0 0 ? * FRI-MON", "2024-06-04T12:00:00Z"),
            "2024-06-07T00:00:00Z"
        );
        // A step of 0 takes the start alone, or every value after `*`.
        assert_eq!(
            next("30/0 * * * * ?", "2024-03-05T10:00:31Z"),
            "2024-03-05T10:01:30Z"
        );
        assert_eq!(
            next("*/0 * * * * ?", "2024-03-05T10:00:31Z"),
            "2024-03-05T10:00:32Z"
        );
        assert_eq!(
            next("0 0 0 * * ? */0", "2024-03-05T10:00:00Z"),
            "2024-03-06T00:00:00Z"
        );
        assert_eq!(
            next("0 0 0 1 1 ? /2", "2024-03-05T10:00:00Z"),
            "2026-01-01T00:00:00Z"
        );
        // A year before the first that can be listed waits for it.
        assert_eq!(
            next("0 0 0 * * ? 1970", "1960-03-05T10:00:00Z"),
            "1970-01-01T00:00:00Z"
        );
        // Years outside those that can fire are accepted, as log4j2 accepts them.
        assert!(CronExpression::parse("0 0 0 * * ? 1969")
            .unwrap()
            .next_after(at("1960-01-01T00:00:00Z"), &TimeZone::UTC)
            .is_none());
    }

    #[test]
    fn repeated_wall_times_fire_on_their_later_pass() {
        // New York, 2027-11-07: 01:00-02:00 passes twice, first as EDT (05:00Z-06:00Z).
        let zone = TimeZone::get("America/New_York").unwrap();
        let next = |expression: &str, after: &str| {
            let millis = CronExpression::parse(expression)
                .unwrap()
                .next_after(at(after), &zone)
                .unwrap();
            jiff::Timestamp::from_millisecond(millis)
                .unwrap()
                .to_string()
        };
        assert_eq!(
            next("* * * * * ?", "2027-11-07T05:07:20Z"),
            "2027-11-07T06:07:21Z"
        );
        assert_eq!(
            next("* * * * * ?", "2027-11-07T06:00:00Z"),
            "2027-11-07T06:00:01Z"
        );
        assert_eq!(
            next("0 30 1 * * ?", "2027-11-07T04:00:00Z"),
            "2027-11-07T06:30:00Z"
        );
        // A skipped wall time fires when the clocks have moved on (log4j2 skips the day).
        assert_eq!(
            next("0 30 2 * * ?", "2027-03-14T06:00:00Z"),
            "2027-03-14T07:30:00Z"
        );
    }

    #[test]
    fn parts_log4j2_reads_differently_have_notes() {
        let notes = |text: &str| CronExpression::parse(text).unwrap().notes().to_vec();
        assert!(notes("0 0 0 ? * 2-6/2").is_empty());
        assert_eq!(notes("0 0 0 ? JAN/3 *").len(), 1);
        assert_eq!(notes("0 0 0 ? * MON-FRI/2 2030 5").len(), 2);
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
            "0 0 x * * ?",
            "@CRON_EXPR@",
            "*/61 * * * * ?",
            "0 0 0 L-31 * ?",
            "0 0 0 32W * ?",
            "0 0 0 LX * ?",
            "0 0 0 * * ? 2030-2020",
            "1/4294967295 * * * * ?",
            "+5 * * * * ?",
            "0 0 0 +15W * ?",
            "0 0 0 L-+5 * ?",
            "0 0 0 ? * MON-5/2",
            "0 0 0 ? * 1-FRI",
            "0 0 0 * * ? 4294967296",
        ] {
            assert!(CronExpression::parse(bad).is_err(), "{bad}");
        }
        assert!(CronExpression::parse("0 0 0 1 1 ? 2020")
            .unwrap()
            .next_after(at("2024-01-01T00:00:00Z"), &TimeZone::UTC)
            .is_none());
    }
}
