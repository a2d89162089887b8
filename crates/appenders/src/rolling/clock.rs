//! The clock the rolling appenders wait on and read the time from (the cron schedule, the
//! retry delay after a failed rollover, a startup rollover, `maxRandomDelay`): the system's,
//! or one a test moves by hand.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use crate::lock;

/// What the rolling appenders need from a clock.
pub trait RolloverClock: Send + Sync {
    /// Now, in epoch milliseconds.
    fn now_millis(&self) -> i64;

    /// Waits until `deadline` (epoch ms), or until [`RolloverClock::wake`] once `stop` is
    /// set; returns at once when `stop` is already set. It may return early (callers check
    /// the time and their stop flag again). A `stop` set before `wake` is called is never
    /// missed: implementations check it under the lock `wake` takes.
    fn wait_until(&self, deadline: i64, stop: &AtomicBool);

    /// Returns once `deadline` (epoch ms) has passed or `stop` is set: [`wait_until`] again
    /// after each early return.
    ///
    /// [`wait_until`]: RolloverClock::wait_until
    fn sleep_until(&self, deadline: i64, stop: &AtomicBool) {
        while !stop.load(Ordering::Acquire) && self.now_millis() < deadline {
            self.wait_until(deadline, stop);
        }
    }

    /// Wakes every waiter (used when a timer or worker stops).
    fn wake(&self);

    /// A delay drawn from `0..=max_millis`, for `maxRandomDelay`: it only has to spread the
    /// rollovers of many processes, so any source of noise will do.
    fn random_delay_millis(&self, max_millis: u64) -> u64 {
        if max_millis == 0 {
            return 0;
        }
        noise() % (max_millis + 1)
    }

    /// `from` plus a [`random_delay_millis`](RolloverClock::random_delay_millis) of at most
    /// `max_millis`, saturating.
    fn after_random_delay(&self, from: i64, max_millis: u64) -> i64 {
        let delay = self.random_delay_millis(max_millis);
        from.saturating_add(i64::try_from(delay).unwrap_or(i64::MAX))
    }
}

/// splitmix64 over a counter seeded with the time and the process id.
fn noise() -> u64 {
    static STATE: AtomicU64 = AtomicU64::new(0);
    let seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
        ^ u64::from(std::process::id()).rotate_left(32);
    let mut z = STATE
        .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
        .wrapping_add(seed);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The wall clock.
#[derive(Debug, Default)]
pub struct SystemClock {
    lock: Mutex<()>,
    wake: Condvar,
}

/// `time` in milliseconds since the epoch (negative before it).
pub(crate) fn epoch_millis(time: SystemTime) -> i64 {
    match time.duration_since(UNIX_EPOCH) {
        Ok(after) => after.as_millis() as i64,
        Err(before) => -(before.duration().as_millis() as i64),
    }
}

impl RolloverClock for SystemClock {
    fn now_millis(&self) -> i64 {
        epoch_millis(SystemTime::now())
    }

    fn wait_until(&self, deadline: i64, stop: &AtomicBool) {
        let guard = lock(&self.lock);
        if stop.load(Ordering::Acquire) {
            return;
        }
        let wait = deadline.saturating_sub(self.now_millis()).max(0) as u64;
        // Capped so a clock set back or forward is noticed within a minute.
        let _ = self
            .wake
            .wait_timeout(guard, Duration::from_millis(wait.min(60_000)));
    }

    fn wake(&self) {
        let _guard = lock(&self.lock);
        self.wake.notify_all();
    }
}

/// A clock that only moves when told: for testing scheduled and delayed rollover work
/// without waiting. Its random delays are chosen by the test ([`ManualClock::set_random_delay`]);
/// until then it draws the largest one allowed.
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<i64>,
    changed: Condvar,
    /// How many times a waiter went back to sleep after checking the time: lets a test wait
    /// until the timer has seen a time it set.
    waits: Mutex<u64>,
    waited: Condvar,
    /// The delay [`RolloverClock::random_delay_millis`] returns (capped at its maximum);
    /// `None`: the maximum.
    random_delay: Mutex<Option<u64>>,
}

impl ManualClock {
    /// A clock standing at `now` (epoch ms).
    pub fn new(now: i64) -> ManualClock {
        ManualClock {
            now: Mutex::new(now),
            changed: Condvar::new(),
            waits: Mutex::new(0),
            waited: Condvar::new(),
            random_delay: Mutex::new(None),
        }
    }

    /// Moves the clock to `now` and wakes the waiters.
    pub fn set(&self, now: i64) {
        *lock(&self.now) = now;
        self.changed.notify_all();
    }

    /// Makes every random delay `millis` (or its maximum, when smaller).
    pub fn set_random_delay(&self, millis: u64) {
        *lock(&self.random_delay) = Some(millis);
    }

    /// How many times a waiter has gone to sleep on this clock so far (see
    /// [`ManualClock::wait_for_waiters`]).
    pub fn waits(&self) -> u64 {
        *lock(&self.waits)
    }

    /// Waits (up to 10 s) until a waiter has gone to sleep on this clock more than `seen`
    /// times in all: that a timer or worker is waiting for a time still to come.
    pub fn wait_for_waiters(&self, seen: u64) {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let mut waits = lock(&self.waits);
        while *waits <= seen && std::time::Instant::now() < deadline {
            waits = self
                .waited
                .wait_timeout(waits, Duration::from_millis(50))
                .map_or_else(|e| e.into_inner().0, |r| r.0);
        }
    }

    /// Moves the clock to `now`, then waits (up to 10 s) until a waiter has looked at it and
    /// gone back to sleep, so that whatever was due by `now` has happened.
    pub fn advance_and_settle(&self, now: i64) {
        let before = self.waits();
        self.set(now);
        self.wait_for_waiters(before);
    }
}

impl RolloverClock for ManualClock {
    fn now_millis(&self) -> i64 {
        *lock(&self.now)
    }

    fn wait_until(&self, deadline: i64, stop: &AtomicBool) {
        let now = lock(&self.now);
        if *now >= deadline || stop.load(Ordering::Acquire) {
            return;
        }
        *lock(&self.waits) += 1;
        self.waited.notify_all();
        let _ = self.changed.wait_timeout(now, Duration::from_millis(200));
    }

    fn wake(&self) {
        let _now = lock(&self.now);
        self.changed.notify_all();
    }

    fn random_delay_millis(&self, max_millis: u64) -> u64 {
        lock(&self.random_delay).map_or(max_millis, |delay| delay.min(max_millis))
    }
}
