//! [`RuntimePattern::next_period`] against log4j2 2.19's own `PatternProcessor`
//! (`crates/conformance/java/Log4j2Answers.java`), at instants around clock changes, the
//! turns of the year, month and week, and spread over four decades, in zones with whole-hour,
//! half-hour and 45-minute offsets and changes, and a zone that changed at midnight.
//!
//! log4j2 2.19 computes periods in the JVM's default zone; 2.20 (LOG4J2-1631) and l4rs in the
//! `%d`'s own zone. The comparison runs the JVM in the `%d`'s zone, where the two agree, and
//! [`log4j2_219_counts_periods_in_the_jvms_zone`] pins the difference.

use super::*;

use l4rs_test_support::instants::{self, show};
use l4rs_test_support::log4j2;

/// Zones, and the year whose clock changes are asked about: São Paulo changed at midnight
/// until 2019.
const ZONES: &[(&str, i16)] = &[
    ("UTC", 2027),
    ("America/New_York", 2027),
    ("Europe/London", 2027),
    ("Australia/Sydney", 2027),
    ("Australia/Lord_Howe", 2027),
    ("America/St_Johns", 2027),
    ("Pacific/Chatham", 2027),
    ("Asia/Kolkata", 2027),
    ("America/Sao_Paulo", 2018),
];

/// One `%d` per rollover frequency, from the year down to the millisecond.
const DATE_PATTERNS: &[&str] = &[
    "yyyy",
    "yyyy-MM",
    "yyyy-ww",
    "yyyy-MM-dd",
    "yyyy-MM-dd-HH",
    "yyyy-MM-dd-HH-mm",
    "yyyy-MM-dd-HH-mm-ss",
    "yyyy-MM-dd-HH-mm-ss-SSS",
];

/// `(interval, modulate)` of the TimeBasedTriggeringPolicy.
const POLICIES: &[(u32, bool)] = &[(1, false), (3, false), (3, true), (5, true)];

/// One question to both: the JVM's default zone, the file pattern, the policy and the instant.
struct Question {
    jvm_zone: String,
    /// The `%d`'s zone.
    zone: TimeZone,
    /// The `%d`'s date pattern.
    date: &'static str,
    pattern: String,
    interval: u32,
    modulate: bool,
    at: i64,
}

impl Question {
    fn new(
        jvm_zone: &str,
        zone: &str,
        date: &'static str,
        (interval, modulate): (u32, bool),
        at: i64,
    ) -> Question {
        Question {
            jvm_zone: jvm_zone.to_string(),
            zone: TimeZone::get(zone).unwrap(),
            date,
            pattern: format!("app-%d{{{date}}}{{{zone}}}.log"),
            interval,
            modulate,
            at,
        }
    }

    /// The same question about another instant.
    fn at(&self, at: i64) -> Question {
        Question {
            jvm_zone: self.jvm_zone.clone(),
            zone: self.zone.clone(),
            pattern: self.pattern.clone(),
            at,
            ..*self
        }
    }

    fn whole_days(&self) -> bool {
        !self.date.contains('H')
    }

    /// The length of the `%d`'s unit in milliseconds, for units up to the hour.
    fn unit(&self) -> i64 {
        match self.date.rsplit('-').next() {
            Some("SSS") => 1,
            Some("ss") => 1_000,
            Some("mm") => 60_000,
            _ => 3_600_000,
        }
    }

    /// Whether the zone's clocks skipped a midnight in the week before `at` or since, up to
    /// a day after `until`: a change forward that starts at the end of a day.
    fn skips_a_midnight_before(&self, until: i64) -> bool {
        let from = jiff::Timestamp::from_millisecond(self.at - 8 * 86_400_000).unwrap();
        let until = jiff::Timestamp::from_millisecond(until + 86_400_000).unwrap();
        self.zone
            .following(from)
            .take_while(|change| change.timestamp() <= until)
            .any(|change| {
                let just_before = change.timestamp().as_millisecond() - 1;
                let wall = self.local(just_before);
                (wall.hour(), wall.minute(), wall.second()) == (23, 59, 59)
                    && change.offset() > self.zone.to_offset(change.timestamp() - 1.second())
            })
    }

    /// For a weekly pattern, the start of the week of `at` when log4j2 gets it wrong: in the
    /// days of January before the year's first Sunday, Java's calendar gives the week of the
    /// year before (52 or 53), and log4j2 sets that week in the current year, eleven months
    /// ahead. l4rs counts the week in its own year; log4j2's answer for the week's Sunday,
    /// in the year before, is the one it means.
    fn week_start_log4j2_misplaces(&self) -> Option<i64> {
        if !self.date.contains('w') {
            return None;
        }
        let date = self.local(self.at).date();
        let first_sunday = Date::new(date.year(), 1, 1)
            .unwrap()
            .nth_weekday_of_month(1, jiff::civil::Weekday::Sunday)
            .unwrap();
        if date >= first_sunday {
            return None;
        }
        let back = i64::from(date.weekday().to_sunday_zero_offset());
        let sunday = date.checked_sub(back.days()).unwrap();
        Some(self.start_of_day(sunday))
    }

    fn local(&self, at: i64) -> DateTime {
        self.zone
            .to_datetime(jiff::Timestamp::from_millisecond(at).unwrap())
    }

    /// The start of `date` in the `%d`'s zone: 01:00 where the clocks skip midnight, and the
    /// later midnight where they pass it twice (Newfoundland changed at 00:01 until 2011), as
    /// Java's calendar reads it.
    fn start_of_day(&self, date: Date) -> i64 {
        self.zone
            .to_ambiguous_timestamp(DateTime::from(date))
            .later()
            .unwrap()
            .as_millisecond()
    }

    /// The start of the day of `at`.
    fn day_of(&self, at: i64) -> i64 {
        self.start_of_day(self.local(at).date())
    }

    fn line(&self) -> String {
        format!(
            "{}\t{}\t{}\t{}\t{}",
            self.jvm_zone, self.pattern, self.interval, self.modulate, self.at
        )
    }

    fn ours(&self) -> Option<(i64, i64)> {
        super::compiled(&self.pattern).next_period(self.at, self.interval, self.modulate)
    }
}

/// log4j2's answers to `questions`, in order: the next rollover and the file time.
fn log4j2_answers(questions: &[Question]) -> Vec<(i64, i64)> {
    let lines: Vec<String> = questions.iter().map(Question::line).collect();
    log4j2::answers("periods", &lines)
        .iter()
        .map(|line| {
            let (next, file) = line
                .split_once('\t')
                .unwrap_or_else(|| panic!("Log4j2Answers printed {line:?}"));
            (next.parse().unwrap(), file.parse().unwrap())
        })
        .collect()
}

/// The instants asked about in `zone`: around its clock changes of `year`, the turn of the year
/// and a Sunday's midnight (a week's turn), and 100 spread over four decades.
fn instants(zone: &TimeZone, year: i16) -> Vec<i64> {
    let sunday = Date::new(year, 7, 1)
        .unwrap()
        .nth_weekday(1, jiff::civil::Weekday::Sunday)
        .unwrap()
        .to_zoned_datetime(zone.clone())
        .unwrap()
        .timestamp()
        .as_millisecond();
    instants::around_clock_changes(zone, year, &[sunday], 100)
}

fn questions() -> Vec<Question> {
    let mut questions = Vec::new();
    for &(zone, year) in ZONES {
        for at in instants(&TimeZone::get(zone).unwrap(), year) {
            for &date in DATE_PATTERNS {
                for &policy in POLICIES {
                    questions.push(Question::new(zone, zone, date, policy, at));
                }
            }
        }
    }
    questions
}

/// Every answer is log4j2's, except where log4j2's next rollover is not after the instant
/// (the clocks went back by less than the unit, as Lord Howe's do by half an hour): log4j2
/// then rolls over on every event until its answer is reached, and l4rs takes the wall
/// clock's next unit instead (docs/appenders.md).
#[test]
fn next_periods_are_log4j2s() {
    if !log4j2::require("the rollover periods against log4j2") {
        return;
    }
    let mut questions = questions();
    // Where log4j2 misplaces a week, it is also asked about the week's start.
    let asked = questions.len();
    let mut rephrased = Vec::new();
    for index in 0..asked {
        if let Some(sunday) = questions[index].week_start_log4j2_misplaces() {
            rephrased.push((index, questions.len()));
            let question = questions[index].at(sunday);
            questions.push(question);
        }
    }
    let mut answers = log4j2_answers(&questions);
    for &(index, instead) in &rephrased {
        let misplaced = answers[index].0 - questions[index].at;
        assert!(
            misplaced > 40 * 7 * 86_400_000,
            "log4j2 no longer misplaces the week of {}",
            questions[index].line()
        );
        answers[index] = answers[instead];
    }
    let mut differences = Vec::new();
    let (mut past, mut skipped_midnight) = (0, 0);
    for (question, &(next, file)) in questions[..asked].iter().zip(&answers) {
        let ours = question.ours();
        let agrees = if next <= question.at {
            // The wall clock's next unit: after the instant, at most one period on, and the
            // file's time before it.
            past += 1;
            ours.is_some_and(|(our_next, our_file)| {
                our_next > question.at
                    && our_next <= question.at + i64::from(question.interval) * question.unit()
                    && our_file < our_next
            })
        } else if question.whole_days() {
            // Where the clocks skip midnight, Java's calendar moves the day's start to 01:00
            // and carries that hour into the next days it adds: log4j2 rolls over at 01:00 of
            // the day after. l4rs rolls over at the start of the same day, and names the file
            // by the start of the same day as log4j2.
            let days = (question.day_of(next), question.day_of(file));
            if days != (next, file) {
                skipped_midnight += 1;
                if !question.skips_a_midnight_before(next.max(file)) {
                    differences.push(format!("{}: no midnight was skipped", question.line()));
                }
            }
            ours == Some(days)
        } else {
            ours == Some((next, file))
        };
        if !agrees {
            differences.push(format!(
                "{} at {} ({}, interval {}, modulate {}): log4j2 {} / {}, l4rs {:?}",
                question.pattern,
                show(question.at),
                question.at,
                question.interval,
                question.modulate,
                show(next),
                show(file),
                ours.map(|(next, file)| (show(next), show(file))),
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} answers differ from log4j2's, the first:\n{}",
        differences.len(),
        asked,
        differences[..differences.len().min(20)].join("\n")
    );
    assert!(
        past > 0 && skipped_midnight > 0 && !rephrased.is_empty(),
        "the comparison no longer covers each difference: {past} answers in the past, \
         {skipped_midnight} after a skipped midnight, {} misplaced weeks",
        rephrased.len()
    );
}

/// 2027-03-10T02:00:00Z, the instant the single questions below ask about.
fn march_tenth_2027_at_two_utc() -> i64 {
    Date::new(2027, 3, 10)
        .unwrap()
        .at(2, 0, 0, 0)
        .to_zoned_datetime(TimeZone::UTC)
        .unwrap()
        .timestamp()
        .as_millisecond()
}

/// log4j2 2.19 counts periods in the JVM's default zone, whatever the `%d`'s zone: with the
/// JVM in New York, `%d{yyyy-MM-dd}{UTC}` rolls over at New York's midnight. l4rs rolls over
/// at the `%d`'s midnight, as log4j2 2.20 does (LOG4J2-1631).
#[test]
fn log4j2_219_counts_periods_in_the_jvms_zone() {
    if !log4j2::require("the rollover periods against log4j2") {
        return;
    }
    let at = march_tenth_2027_at_two_utc();
    let ask =
        |jvm_zone: &str, zone: &str| Question::new(jvm_zone, zone, "yyyy-MM-dd", (1, false), at);
    let questions = [
        ask("America/New_York", "UTC"),
        ask("UTC", "UTC"),
        ask("America/New_York", "America/New_York"),
    ];
    let answers = log4j2_answers(&questions);
    assert_eq!(
        answers[0], answers[2],
        "2.19 no longer follows the JVM's zone"
    );
    assert_ne!(answers[0], answers[1]);
    assert_eq!(
        questions[0].ours(),
        Some(answers[1]),
        "l4rs follows the %d's zone"
    );
}

/// log4j2 takes the period from the last `%d` of the pattern, and from any letter of its
/// text, quoted ones too: `%d{yyyy-MM-dd}-%d{yyyy}` rolls yearly, `%d{'week'-yyyy}` hourly
/// (the `k` of `week`). l4rs takes the smallest unit any `%d` prints: daily and yearly
/// (docs/appenders.md).
#[test]
fn log4j2_reads_the_period_from_the_last_date_and_any_letter() {
    if !log4j2::require("the rollover periods against log4j2") {
        return;
    }
    let at = march_tenth_2027_at_two_utc();
    // Only the pattern is asked about: `date`, which the comparison above reads, is unused.
    let ask = |pattern: &str| Question {
        pattern: pattern.to_string(),
        ..Question::new("UTC", "UTC", "yyyy", (1, false), at)
    };
    let questions = [
        ask("app-%d{yyyy-MM-dd}{UTC}-%d{yyyy}{UTC}.log"),
        ask("app-%d{'week'-yyyy}{UTC}.log"),
    ];
    let answers = log4j2_answers(&questions);
    let hour = 3_600_000;
    let next_year = Date::new(2028, 1, 1)
        .unwrap()
        .to_zoned_datetime(TimeZone::UTC)
        .unwrap()
        .timestamp()
        .as_millisecond();
    assert_eq!(answers[0].0, next_year, "log4j2 rolls the first yearly");
    assert_eq!(answers[1].0, at + hour, "log4j2 rolls the second hourly");
    assert_eq!(
        questions[0].ours().unwrap().0,
        at + 22 * hour,
        "l4rs: daily"
    );
    assert_eq!(questions[1].ours().unwrap().0, next_year, "l4rs: yearly");
}
