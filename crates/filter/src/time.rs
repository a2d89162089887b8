//! `TimeFilter`: the event's time of day against a daily window.

use std::sync::atomic::{AtomicI64, Ordering};

use jiff::civil::{Date, Time};
use jiff::tz::TimeZone;
use jiff::Timestamp;
use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, FilterResult, LogEvent};

const MILLIS_PER_DAY: i64 = 86_400_000;

/// `last_window` before any window was found. No window starts there: the earliest instant
/// jiff knows is later.
const NO_WINDOW: i64 = i64::MIN;

/// log4j2's `TimeFilter`: an event matches when it lies in the window that opens at `start`
/// (a time of day in the filter's zone) on some day and stays open for the wall-clock length
/// from `start` to `end`, both ends included, to the millisecond.
///
/// The windows are placed as log4j2 places them: a `start` the clocks skip opens the window
/// as late as the skip (02:30 on a day that jumps from 02:00 to 03:00 opens it at 03:30), a
/// `start` they repeat opens it at the first pass, and the window keeps its length across a
/// clock change, so its end moves with it. An `end` at or before `start` closes the window on
/// the next day; without `end` it closes at 23:59:59.999.
///
/// log4j2 judges by the window of the last day it saw, moving forward only: an event earlier
/// than that window (an event from before the filter started, or in the early-morning part of
/// a window that crosses midnight when no event came the evening before) is a mismatch there.
/// l4rs judges each event by its own time; and by the event's time at every stage, where
/// log4j2's context-wide stage reads the clock (the same instant in a real call).
#[derive(Debug)]
pub struct TimeFilter {
    start: Time,
    duration_millis: i64,
    zone: TimeZone,
    verdicts: FilterVerdicts,
    /// The start of the last window found to hold an event ([`NO_WINDOW`] before the first):
    /// events in the same window need no time-zone arithmetic.
    last_window: AtomicI64,
}

impl TimeFilter {
    /// A filter whose window opens at `start_second` (seconds after midnight, below 86 400)
    /// and closes at `end_second`, or the day's last instant without one, in `zone`.
    pub fn new(
        start_second: u32,
        end_second: Option<u32>,
        zone: TimeZone,
        verdicts: FilterVerdicts,
    ) -> TimeFilter {
        let start_second = start_second.min(86_399);
        let start_millis = i64::from(start_second) * 1000;
        // log4j2's default end is 23:59:59.999999999, whose distance from the start it counts
        // in whole milliseconds.
        let end_millis =
            end_second.map_or(MILLIS_PER_DAY - 1, |end| i64::from(end.min(86_399)) * 1000);
        let duration_millis = if start_millis < end_millis {
            end_millis - start_millis
        } else {
            end_millis - start_millis + MILLIS_PER_DAY
        };
        let [hour, minute, second] = [
            start_second / 3600,
            start_second / 60 % 60,
            start_second % 60,
        ]
        .map(|part| i8::try_from(part).unwrap_or(0));
        TimeFilter {
            start: Time::new(hour, minute, second, 0).unwrap_or(Time::midnight()),
            duration_millis,
            zone,
            verdicts,
            last_window: AtomicI64::new(NO_WINDOW),
        }
    }

    /// When the window of the local day `day` opens, in epoch milliseconds.
    fn window_start(&self, day: Date) -> Option<i64> {
        let local = day.to_datetime(self.start);
        // `compatible`: after a gap by its length, the first pass of a repeated hour.
        let opens = self.zone.to_ambiguous_timestamp(local).compatible().ok()?;
        Some(opens.as_millisecond())
    }

    fn in_window(&self, millis: i64, start: i64) -> bool {
        start <= millis && millis.saturating_sub(start) <= self.duration_millis
    }

    fn matches(&self, millis: i64) -> bool {
        let remembered = self.last_window.load(Ordering::Relaxed);
        if remembered != NO_WINDOW && self.in_window(millis, remembered) {
            return true;
        }
        let Ok(instant) = Timestamp::from_millisecond(millis) else {
            return false;
        };
        // A window that holds the instant opened at most its length before it. Its local day
        // is that moment's, or one around it: a start the clocks skip opens the window later
        // (by a whole day where a day was skipped), and tomorrow's window can open before
        // midnight where the clocks go back across it.
        let earliest = Timestamp::from_millisecond(millis.saturating_sub(self.duration_millis))
            .unwrap_or(instant);
        let first = self.zone.to_datetime(earliest).date();
        let last = self.zone.to_datetime(instant).date();
        let mut day = first.yesterday().unwrap_or(first);
        let last = last.tomorrow().unwrap_or(last);
        while day <= last {
            if let Some(start) = self
                .window_start(day)
                .filter(|start| self.in_window(millis, *start))
            {
                self.last_window.store(start, Ordering::Relaxed);
                return true;
            }
            let Ok(next) = day.tomorrow() else { break };
            day = next;
        }
        false
    }
}

impl Filter for TimeFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        crate::verdict(&self.verdicts, self.matches(event.timestamp.epoch_millis))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;

    const HOUR: u32 = 3600;

    fn filter(start: u32, end: Option<u32>, zone: &str) -> TimeFilter {
        let zone = TimeZone::get(zone).expect("a known zone");
        TimeFilter::new(
            start,
            end,
            zone,
            verdicts(FilterResult::Accept, FilterResult::Deny),
        )
    }

    fn at(filter: &TimeFilter, instant: &str) -> bool {
        let instant: Timestamp = instant.parse().expect("an RFC 3339 instant");
        filter.matches(instant.as_millisecond())
    }

    #[test]
    fn a_daytime_window_includes_both_ends_to_the_millisecond() {
        let day = filter(9 * HOUR, Some(17 * HOUR), "UTC");
        assert!(!at(&day, "2030-03-10T08:59:59.999Z"));
        assert!(at(&day, "2030-03-10T09:00:00Z"));
        assert!(at(&day, "2030-03-10T17:00:00Z"));
        assert!(!at(&day, "2030-03-10T17:00:00.001Z"));
        // Any day, in any order.
        assert!(at(&day, "2019-01-01T12:00:00Z"));
        assert!(!at(&day, "2019-01-01T20:00:00Z"));
    }

    #[test]
    fn a_window_across_midnight_closes_the_next_day() {
        let night = filter(22 * HOUR, Some(6 * HOUR), "UTC");
        assert!(at(&night, "2030-03-10T23:00:00Z"));
        assert!(
            at(&night, "2030-03-10T03:00:00Z"),
            "the window opened the evening before"
        );
        assert!(at(&night, "2030-03-10T06:00:00Z"));
        assert!(!at(&night, "2030-03-10T06:00:00.001Z"));
        assert!(!at(&night, "2030-03-10T21:59:59.999Z"));
    }

    #[test]
    fn the_defaults_span_the_whole_day() {
        let whole = filter(0, None, "UTC");
        assert!(at(&whole, "2030-03-10T00:00:00Z"));
        assert!(at(&whole, "2030-03-10T23:59:59.999Z"));
        let afternoon = filter(12 * HOUR, None, "UTC");
        assert!(!at(&afternoon, "2030-03-10T11:59:59.999Z"));
        assert!(at(&afternoon, "2030-03-10T23:59:59.999Z"));
        // Equal ends: a full day, every instant.
        let full = filter(12 * HOUR, Some(12 * HOUR), "UTC");
        assert!(at(&full, "2030-03-10T11:00:00Z"));
    }

    #[test]
    fn windows_keep_their_length_across_clock_changes() {
        // New York skips 02:00–03:00 on 2030-03-10 and repeats 01:00–02:00 on 2030-11-03.
        let skipped_start = filter(2 * HOUR + 15 * 60, Some(3 * HOUR), "America/New_York");
        assert!(!at(&skipped_start, "2030-03-10T07:14:59Z"), "03:14:59 EDT");
        assert!(at(&skipped_start, "2030-03-10T07:15:00Z"), "03:15 EDT");
        assert!(
            at(&skipped_start, "2030-03-10T08:00:00Z"),
            "04:00 EDT, 45 minutes on"
        );
        assert!(!at(&skipped_start, "2030-03-10T08:00:01Z"));
        let repeated = filter(HOUR + 30 * 60, Some(2 * HOUR + 30 * 60), "America/New_York");
        assert!(
            at(&repeated, "2030-11-03T05:30:00Z"),
            "01:30 EDT, the first pass"
        );
        assert!(
            at(&repeated, "2030-11-03T06:30:00Z"),
            "01:30 EST, an hour on"
        );
        assert!(!at(&repeated, "2030-11-03T06:30:00.001Z"));
        let night = filter(22 * HOUR, Some(6 * HOUR), "America/New_York");
        assert!(
            at(&night, "2030-03-10T10:59:00Z"),
            "06:59 EDT: eight hours after 22:00 EST"
        );
        assert!(!at(&night, "2030-03-10T11:00:00.001Z"));
    }

    #[test]
    fn a_window_opened_before_a_skipped_day_still_holds_its_night() {
        // Samoa skipped 2011-12-30: 23:59:59 on the 29th (-10:00) was followed by 00:00 on
        // the 31st (+14:00). The window opened at 22:00 on the 29th closes eight hours on.
        let night = filter(22 * HOUR, Some(6 * HOUR), "Pacific/Apia");
        assert!(at(&night, "2011-12-30T11:00:00Z"), "01:00 on the 31st");
        assert!(at(&night, "2011-12-30T16:00:00Z"), "06:00 on the 31st");
        assert!(!at(&night, "2011-12-30T16:00:00.001Z"));
    }

    #[test]
    fn no_instant_matches_before_a_window_is_remembered_unless_it_is_in_one() {
        let whole = filter(0, None, "UTC");
        assert!(!whole.matches(i64::MIN), "outside the range of time zones");
        assert!(!whole.matches(i64::MIN + 1000));
        assert!(!whole.matches(i64::MAX));
    }

    #[test]
    fn a_remembered_window_gives_a_fresh_filters_answers() {
        let windows = [
            (9 * HOUR, Some(17 * HOUR), "Europe/Paris"),
            (22 * HOUR, Some(6 * HOUR), "America/New_York"),
            (2 * HOUR + 30 * 60, Some(2 * HOUR), "America/New_York"),
            (22 * HOUR, Some(6 * HOUR), "Pacific/Apia"),
            (12 * HOUR, Some(12 * HOUR), "Australia/Lord_Howe"),
        ];
        let starts = [
            "2030-03-08T00:00:00Z",
            "2030-11-01T00:00:00Z",
            "2011-12-28T00:00:00Z",
        ];
        for (start, end, zone) in windows {
            let warm = filter(start, end, zone);
            for first in starts {
                let first: Timestamp = first.parse().expect("an instant");
                // Every 7 minutes 13 seconds over four days, which lands on every part of a
                // window and on the clock changes' neighbourhoods.
                for step in 0..800 {
                    let millis = first.as_millisecond() + step * 433_000;
                    let fresh = filter(start, end, zone);
                    assert_eq!(
                        warm.matches(millis),
                        fresh.matches(millis),
                        "{zone} {start}..{end:?} at {millis}"
                    );
                }
            }
        }
    }
}
