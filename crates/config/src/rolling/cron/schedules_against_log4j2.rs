//! [`CronExpression`] against log4j2 2.19's own `CronExpression`
//! (`crates/conformance/java/Log4j2Answers.java`), which `CronTriggeringPolicy` schedules with:
//! which expressions are accepted, and when each fires next, at instants around clock changes
//! and spread over four decades, in zones with whole-hour, half-hour and 45-minute changes and
//! a zone that changed at midnight.

use super::*;

use jiff::tz::TimeZone;
use l4rs_test_support::instants::{self, show};
use l4rs_test_support::log4j2;

/// Zones, and the year whose clock changes are asked about: São Paulo changed at midnight
/// until 2019.
const ZONES: &[(&str, i16)] = &[
    ("UTC", 2027),
    ("America/New_York", 2027),
    ("Australia/Sydney", 2027),
    ("Australia/Lord_Howe", 2027),
    ("Pacific/Chatham", 2027),
    ("America/Sao_Paulo", 2018),
];

/// Schedules that both accept, between them using every feature l4rs implements, and some at
/// the times clocks change (02:30 is skipped in New York in March, 01:30 passed twice in
/// November).
const SCHEDULES: &[&str] = &[
    "* * * * * ?",
    "* * * ? * *",
    "0/2 * * * * ?",
    "0 0/1 * * * ?",
    "0 0 0 * * ?",
    "0 30 2 * * ?",
    "0 30 1 * * ?",
    "0 0 2 * * ?",
    "0 45 2 * * ?",
    "0 15,45 * * * ?",
    "0 0 */3 * * ?",
    "5/20 10-40/7 0-23/5 * * ?",
    "0 0 12 1 * ?",
    "0 0 12 L * ?",
    "0 0 0 29 2 ?",
    "0 0 0 31 * ?",
    "0 0 12 ? * 6L",
    "0 0 0 ? * L",
    "0 0 12 ? * 2#1",
    "0 0 0 ? * 1#5",
    "0 0 12 ? * MON-FRI",
    "0 0 0 ? * SUN",
    "0 0 9-17/2 ? * mon-fri",
    "0 0 0 1 JAN ? 2028",
    "0 0 0 1 1 ? 2027-2031/2",
    "0 0 0 15W * ?",
    "0 0 0 LW * ?",
    "0 0 0 L-3 * ?",
    "0 0 22-2 * * ?",
    "0 0 0 ? * FRI-MON",
    "0 0 0 ? NOV-FEB 1",
    "0 0 0 ? * 1-7/2",
];

/// Expressions log4j2 refuses, or takes in ways easily got wrong: a step of 0, a year before
/// 1970, a field after the year (ignored), `*/n` beyond the field.
const ODD: &[&str] = &[
    "* * * * * *",
    "0 0 0 ? * ?",
    "60 * * * * ?",
    "0 0 24 * * ?",
    "0 0 0 32 * ?",
    "0 0 0 ? * 8",
    "0 0 0 ? 13 *",
    "0 0 0 ? * 2#6",
    "0 0",
    "*/61 * * * * ?",
    "0/0 * * * * ?",
    "*/0 * * * * ?",
    "0 0 0 * * ? 1969",
    "0 0 0 * * ? 2020 5",
    "0 0 0 * * ? 2028 5",
    "0 0 0 1W * ?",
    "0 0 0 L-2W * ?",
    "0 0 0 ? * SUN-SAT/2",
    "0 0 0 ? * 7L",
];

/// Expressions with a step after a name, which log4j2 ignores and l4rs takes (with a note);
/// the expression log4j2 reads instead; and the one in numbers that l4rs reads alike, which
/// [`SCHEDULES`] lists, so that log4j2 is asked about it too.
const STEPS_AFTER_NAMES: &[(&str, &str, &str)] = &[(
    "0 0 0 ? * SUN-SAT/2",
    "0 0 0 ? * SUN-SAT",
    "0 0 0 ? * 1-7/2",
)];

/// log4j2's answers, in order: `Some(Some(next))`, `Some(None)` for never, `None` for refused.
fn log4j2_answers(questions: &[(&str, &str, i64)]) -> Vec<Option<Option<i64>>> {
    let lines: Vec<String> = questions
        .iter()
        .map(|(zone, expression, at)| format!("{zone}\t{expression}\t{at}"))
        .collect();
    log4j2::answers("cron", &lines)
        .iter()
        .map(|line| match line.as_str() {
            "invalid" => None,
            "never" => Some(None),
            next => Some(Some(next.parse().unwrap())),
        })
        .collect()
}

/// Whether `fire` is an instant the clocks skipped to: within a change that moved them forward,
/// after its start by less than the change.
fn moved_forward_by_a_skip(fire: i64, zone: &TimeZone) -> bool {
    let at = jiff::Timestamp::from_millisecond(fire).unwrap();
    let Some(change) = zone
        .preceding(at.checked_add(1.millisecond()).unwrap())
        .next()
    else {
        return false;
    };
    let before = zone.to_offset(change.timestamp().checked_sub(1.second()).unwrap());
    let skipped = i64::from(change.offset().seconds() - before.seconds()) * 1000;
    fire - change.timestamp().as_millisecond() < skipped
}

/// log4j2's acceptance and next fire times, except
/// * where the schedule's wall time is skipped by a change of the clocks: log4j2 then skips
///   the day (or the hour), and l4rs fires when the clocks have moved forward
///   (docs/appenders.md);
/// * for `W` schedules due within the second: log4j2 compares the nearest weekday, carrying the
///   current time's milliseconds, with the instant asked about, and may move on a month;
/// * a step after a name, which log4j2 ignores ([`STEPS_AFTER_NAMES`]).
#[test]
fn schedules_fire_when_log4j2s_do() {
    if !log4j2::require("the cron schedules against log4j2") {
        return;
    }
    let mut questions = Vec::new();
    for &(zone, year) in ZONES {
        for at in instants::around_clock_changes(&TimeZone::get(zone).unwrap(), year, &[], 60) {
            for expression in SCHEDULES.iter().chain(ODD) {
                questions.push((zone, *expression, at));
            }
        }
    }
    let answers = log4j2_answers(&questions);
    let mut differences = Vec::new();
    let (mut skips, mut steps_ignored) = (0, 0);
    for (&(zone, expression, at), &theirs) in questions.iter().zip(&answers) {
        let zone_rules = TimeZone::get(zone).unwrap();
        let next = |expression: &str| {
            CronExpression::parse(expression)
                .ok()
                .map(|parsed| parsed.next_after(at, &zone_rules))
        };
        let ours = next(expression);
        // Where log4j2 ignores a step after a name, it answers for the expression without it.
        let comparable = match STEPS_AFTER_NAMES
            .iter()
            .find(|(with, _, _)| *with == expression)
        {
            Some((_, without, in_numbers)) => {
                let read_by_log4j2 = next(without);
                steps_ignored += usize::from(read_by_log4j2 != ours);
                if ours != next(in_numbers) {
                    differences.push(format!("{expression:?} is not read as {in_numbers:?}"));
                }
                read_by_log4j2
            }
            None => ours,
        };
        let agrees = match (comparable, theirs) {
            (Some(Some(ours)), Some(Some(theirs))) if ours < theirs => {
                if expression.contains('W') && ours - at <= 1000 {
                    // log4j2 moved on to the schedule's next firing.
                    CronExpression::parse(expression)
                        .unwrap()
                        .next_after(ours, &zone_rules)
                        == Some(theirs)
                } else {
                    skips += 1;
                    moved_forward_by_a_skip(ours, &zone_rules)
                }
            }
            _ => comparable == theirs,
        };
        if !agrees {
            differences.push(format!(
                "{expression:?} in {zone} after {} ({at}): log4j2 {:?}, l4rs {:?}",
                show(at),
                theirs.map(|next| next.map(show)),
                ours.map(|next| next.map(show)),
            ));
        }
    }
    assert!(
        differences.is_empty(),
        "{} of {} answers differ from log4j2's, the first:\n{}",
        differences.len(),
        questions.len(),
        differences[..differences.len().min(20)].join("\n")
    );
    assert!(
        skips > 0 && steps_ignored > 0,
        "the comparison no longer covers each difference: {skips} skipped wall times, \
         {steps_ignored} steps after names"
    );
}
