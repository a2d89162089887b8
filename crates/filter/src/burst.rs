//! `BurstFilter`: rate-limits the less severe events.

use std::collections::VecDeque;
use std::fmt;
use std::sync::Mutex;
use std::time::Instant;

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, FilterResult, Level, LogEvent};

/// log4j2's default `rate` (events per second).
const DEFAULT_RATE: f64 = 10.0;
/// log4j2's default `maxBurst` is this many times the rate.
const DEFAULT_RATE_MULTIPLE: f64 = 10.0;
/// Never reserve more than this many slots up front, whatever `maxBurst` says: the queue grows
/// only as far as events actually arrive.
const INITIAL_SLOTS_LIMIT: usize = 1024;

/// log4j2's `BurstFilter`.
///
/// Events more severe than `level` always match. Events at `level` or less severe each need one
/// of `maxBurst` tokens: a token that is used becomes free again `maxBurst / rate` seconds later.
/// An event that finds a free token matches, otherwise it mismatches. So at most `maxBurst`
/// such events match in any window of `maxBurst / rate` seconds, which averages `rate` per
/// second. Time is the process's monotonic clock, not the event's timestamp.
///
/// These are log4j2's semantics exactly (its tokens are delayed objects that return to the pool
/// when their delay expires), which differ from a classic token bucket: with `rate="10"
/// maxBurst="100"`, a burst of 100 events empties the pool and nothing more passes until ten
/// seconds after the first of them.
///
/// The pool is kept as the expiry times of the tokens in use, oldest first; a decision is a few
/// comparisons under a mutex that is never held for anything else.
pub struct BurstFilter {
    level: Level,
    verdicts: FilterVerdicts,
    max_burst: u64,
    /// How long a used token stays in use, in nanoseconds.
    interval_nanos: u64,
    /// The clock's origin: times below are nanoseconds since it.
    origin: Instant,
    /// Expiry times of the tokens in use, in the order they were taken (so also in expiry order).
    in_use: Mutex<VecDeque<u64>>,
}

impl BurstFilter {
    /// A filter limiting events at or below `level` to `max_burst` per `max_burst / rate`
    /// seconds.
    ///
    /// As log4j2 does, a `rate` that is not positive becomes 10, and a `max_burst` of 0 becomes
    /// ten times the rate.
    pub fn new(level: Level, rate: f64, max_burst: u64, verdicts: FilterVerdicts) -> BurstFilter {
        // NaN fails the comparison too.
        let rate = if rate > 0.0 { rate } else { DEFAULT_RATE };
        let max_burst = if max_burst == 0 {
            // A float-to-int `as` saturates, so an absurd rate cannot overflow here.
            (rate * DEFAULT_RATE_MULTIPLE) as u64
        } else {
            max_burst
        };
        let interval_seconds = max_burst as f64 / rate;
        // Saturate instead of overflowing: a tiny rate means a token is never returned, which is
        // what log4j2's (also saturating) conversion gives too.
        let interval_nanos = (interval_seconds * 1e9).min(u64::MAX as f64 / 2.0) as u64;
        let initial = usize::try_from(max_burst)
            .unwrap_or(usize::MAX)
            .min(INITIAL_SLOTS_LIMIT);
        BurstFilter {
            level,
            verdicts,
            max_burst,
            interval_nanos,
            origin: Instant::now(),
            in_use: Mutex::new(VecDeque::with_capacity(initial)),
        }
    }

    /// The level at and below which events are rate-limited.
    pub fn level(&self) -> Level {
        self.level
    }

    /// The number of tokens.
    pub fn max_burst(&self) -> u64 {
        self.max_burst
    }

    /// How long a used token stays unavailable.
    pub fn token_interval(&self) -> std::time::Duration {
        std::time::Duration::from_nanos(self.interval_nanos)
    }

    /// Takes a token at `now` (nanoseconds since `origin`) if one is free.
    fn take_token(&self, now: u64) -> bool {
        let mut in_use = self.in_use.lock().unwrap_or_else(|e| e.into_inner());
        while in_use.front().is_some_and(|&expiry| expiry <= now) {
            in_use.pop_front();
        }
        if (in_use.len() as u64) < self.max_burst {
            in_use.push_back(now.saturating_add(self.interval_nanos));
            true
        } else {
            false
        }
    }

    fn now(&self) -> u64 {
        u64::try_from(self.origin.elapsed().as_nanos()).unwrap_or(u64::MAX / 2)
    }
}

impl fmt::Debug for BurstFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("BurstFilter")
            .field("level", &self.level)
            .field("max_burst", &self.max_burst)
            .field("interval_nanos", &self.interval_nanos)
            .field("verdicts", &self.verdicts)
            .finish()
    }
}

impl Filter for BurstFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        // "At or below `level`" means at least as verbose: the event's intLevel is >= level's.
        let limited = event.level.int_level() >= self.level.int_level();
        let matched = !limited || self.take_token(self.now());
        crate::verdict(&self.verdicts, matched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;

    /// Scenario 054: level INFO, maxBurst 3, a rate so low that no token returns.
    #[test]
    fn like_scenario_054_console() {
        let filter = BurstFilter::new(Level::INFO, 0.01, 3, FilterVerdicts::default());
        let levels = [
            Level::INFO,
            Level::DEBUG,
            Level::WARN,
            Level::INFO,
            Level::ERROR,
            Level::TRACE,
            Level::INFO,
            Level::WARN,
            Level::FATAL,
            Level::DEBUG,
            Level::WARN,
            Level::INFO,
            Level::ERROR,
        ];
        let passed: Vec<usize> = levels
            .iter()
            .enumerate()
            .filter(|(_, level)| filter.filter(&event(**level, "m")) != FilterResult::Deny)
            .map(|(index, _)| index)
            .collect();
        assert_eq!(passed, vec![0, 1, 2, 3, 4, 7, 8, 10, 12]);
    }

    #[test]
    fn verdicts_apply_to_tokens_and_severe_events() {
        for (on_match, on_mismatch) in VERDICT_PAIRS {
            let filter = BurstFilter::new(Level::WARN, 0.01, 2, verdicts(on_match, on_mismatch));
            assert_eq!(filter.filter(&event(Level::ERROR, "m")), on_match);
            assert_eq!(filter.filter(&event(Level::INFO, "m")), on_match);
            assert_eq!(filter.filter(&event(Level::WARN, "m")), on_match);
            assert_eq!(filter.filter(&event(Level::WARN, "m")), on_mismatch);
            assert_eq!(filter.filter(&event(Level::FATAL, "m")), on_match);
        }
    }

    #[test]
    fn tokens_come_back_after_max_burst_over_rate_seconds() {
        let filter = BurstFilter::new(Level::INFO, 10.0, 2, FilterVerdicts::default());
        assert_eq!(
            filter.token_interval(),
            std::time::Duration::from_millis(200)
        );
        let second = 1_000_000_000u64;
        assert!(filter.take_token(0));
        assert!(filter.take_token(second / 10));
        assert!(!filter.take_token(second / 10 + 1));
        // The first token was taken at 0 and returns at 200 ms; the second at 300 ms.
        assert!(!filter.take_token(second / 5 - 1));
        assert!(filter.take_token(second / 5));
        assert!(!filter.take_token(second / 5 + 1));
        assert!(filter.take_token(3 * second / 10));
    }

    #[test]
    fn log4j2_defaults_replace_nonsense_rate_and_burst() {
        let filter = BurstFilter::new(Level::WARN, -1.0, 0, FilterVerdicts::default());
        assert_eq!(filter.max_burst(), 100);
        assert_eq!(filter.token_interval(), std::time::Duration::from_secs(10));
        let nan = BurstFilter::new(Level::WARN, f64::NAN, 5, FilterVerdicts::default());
        assert_eq!(nan.token_interval(), std::time::Duration::from_millis(500));
        let slow = BurstFilter::new(Level::WARN, 1e-300, u64::MAX, FilterVerdicts::default());
        assert!(slow.take_token(0));
    }

    #[test]
    fn concurrent_callers_never_exceed_max_burst() {
        let filter = std::sync::Arc::new(BurstFilter::new(
            Level::INFO,
            0.001,
            1000,
            FilterVerdicts::default(),
        ));
        let passed = std::sync::atomic::AtomicU64::new(0);
        std::thread::scope(|scope| {
            for _ in 0..4 {
                scope.spawn(|| {
                    for _ in 0..1000 {
                        if filter.filter(&event(Level::INFO, "m")) == FilterResult::Neutral {
                            passed.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        }
                    }
                });
            }
        });
        assert_eq!(passed.into_inner(), 1000);
    }
}
