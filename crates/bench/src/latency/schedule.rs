//! The fixed-rate schedule of a latency run: each worker's calls are due at fixed intervals
//! from a common start, whatever the calls before took. A call's latency is measured from when
//! it was *due*, not from when it began: a call that stalls makes the calls queued behind it
//! late, and their lateness is counted (coordinated omission, as HdrHistogram and wrk2 name
//! it), so a stall shows at the percentiles a user waiting on the service would see.

use std::time::{Duration, Instant};

/// When each call of one worker is due.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Schedule {
    /// The first call's due time.
    pub start: Instant,
    /// Nanoseconds between two calls (1e9 / the rate per thread).
    pub interval_ns: f64,
}

impl Schedule {
    /// A schedule of `rate_per_second` calls per second from `start`.
    pub fn new(start: Instant, rate_per_second: f64) -> Schedule {
        Schedule {
            start,
            interval_ns: 1e9 / rate_per_second.max(1e-3),
        }
    }

    /// Nanoseconds after `start` at which call `index` is due.
    pub fn due_ns(&self, index: u64) -> u64 {
        (index as f64 * self.interval_ns) as u64
    }

    /// The first call index due at or after `offset` from `start`.
    pub fn first_at_or_after(&self, offset: Duration) -> u64 {
        (offset.as_nanos() as f64 / self.interval_ns).ceil() as u64
    }
}

/// The latency of a call due at `due_ns` that returned at `end_ns` (both after the schedule's
/// start): from due time to return, so waiting for a late start is part of it.
pub fn latency_ns(due_ns: u64, end_ns: u64) -> u64 {
    end_ns.saturating_sub(due_ns)
}

/// Waits until `due` nanoseconds after `start`: sleeps while more than [`SLEEP_ABOVE`] is
/// left, then yields (the machine has fewer cores than a row has threads, so a busy spin
/// would take the core from the very worker it waits beside). Returns at once when late.
pub fn wait_until(start: Instant, due_ns: u64) {
    loop {
        let now = start.elapsed().as_nanos() as u64;
        if now >= due_ns {
            return;
        }
        let left = due_ns - now;
        if left > SLEEP_ABOVE.as_nanos() as u64 {
            // Wake a little early: a sleep overshoots by the timer slack (50 µs by default).
            std::thread::sleep(Duration::from_nanos(left) - SLEEP_ABOVE / 2);
        } else {
            std::thread::yield_now();
        }
    }
}

/// How far ahead a worker sleeps instead of yielding.
pub const SLEEP_ABOVE: Duration = Duration::from_micros(200);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_are_due_at_fixed_intervals_whatever_they_took() {
        let schedule = Schedule::new(Instant::now(), 20_000.0);
        assert_eq!(schedule.interval_ns, 50_000.0);
        assert_eq!(schedule.due_ns(0), 0);
        assert_eq!(schedule.due_ns(3), 150_000);
        assert_eq!(schedule.due_ns(20_000), 1_000_000_000);
        assert_eq!(schedule.first_at_or_after(Duration::from_micros(100)), 2);
        assert_eq!(schedule.first_at_or_after(Duration::from_micros(101)), 3);
    }

    #[test]
    fn a_late_call_counts_its_wait_for_the_stall_before_it() {
        // Due at 100 µs, started at 900 µs behind a stalled call, returned at 901 µs: 801 µs.
        assert_eq!(latency_ns(100_000, 901_000), 801_000);
        assert_eq!(latency_ns(5, 3), 0);
    }

    #[test]
    fn waiting_returns_at_the_due_time_not_before() {
        let start = Instant::now();
        wait_until(start, 2_000_000);
        let waited = start.elapsed();
        assert!(waited >= Duration::from_millis(2), "{waited:?}");
        // Already late: returns at once.
        let before = Instant::now();
        wait_until(start, 0);
        assert!(before.elapsed() < Duration::from_millis(50));
    }
}
