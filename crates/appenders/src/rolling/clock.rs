//! The clock a `CronTriggeringPolicy` waits on: the system's, or one a test moves by hand.

use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// What the cron timer needs from a clock.
pub trait RolloverClock: Send + Sync {
    /// Now, in epoch milliseconds.
    fn now_millis(&self) -> i64;

    /// Waits until `deadline` (epoch ms) or until [`RolloverClock::wake`]; returns early either
    /// way (callers check the time and their stop flag again).
    fn wait_until(&self, deadline: i64);

    /// Wakes every waiter (used when the appender stops).
    fn wake(&self);
}

/// The wall clock.
#[derive(Debug, Default)]
pub struct SystemClock {
    lock: Mutex<()>,
    wake: Condvar,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl RolloverClock for SystemClock {
    fn now_millis(&self) -> i64 {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    }

    fn wait_until(&self, deadline: i64) {
        let wait = deadline.saturating_sub(self.now_millis()).max(0) as u64;
        let guard = lock(&self.lock);
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

/// A clock that only moves when told: for testing scheduled rollovers without waiting.
#[derive(Debug)]
pub struct ManualClock {
    now: Mutex<i64>,
    changed: Condvar,
    /// How many times a waiter went back to sleep after checking the time: lets a test wait
    /// until the timer has seen a time it set.
    waits: Mutex<u64>,
    waited: Condvar,
}

impl ManualClock {
    /// A clock standing at `now` (epoch ms).
    pub fn new(now: i64) -> ManualClock {
        ManualClock {
            now: Mutex::new(now),
            changed: Condvar::new(),
            waits: Mutex::new(0),
            waited: Condvar::new(),
        }
    }

    /// Moves the clock to `now` and wakes the waiters.
    pub fn set(&self, now: i64) {
        *lock(&self.now) = now;
        self.changed.notify_all();
    }

    /// Moves the clock to `now`, then waits (up to 10 s) until a waiter has looked at it and
    /// gone back to sleep, so that whatever was due by `now` has happened.
    pub fn advance_and_settle(&self, now: i64) {
        let before = *lock(&self.waits);
        self.set(now);
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        let mut waits = lock(&self.waits);
        while *waits <= before && std::time::Instant::now() < deadline {
            waits = self
                .waited
                .wait_timeout(waits, Duration::from_millis(50))
                .map_or_else(|e| e.into_inner().0, |r| r.0);
        }
    }
}

impl RolloverClock for ManualClock {
    fn now_millis(&self) -> i64 {
        *lock(&self.now)
    }

    fn wait_until(&self, deadline: i64) {
        let now = lock(&self.now);
        if *now >= deadline {
            return;
        }
        *lock(&self.waits) += 1;
        self.waited.notify_all();
        let _ = self.changed.wait_timeout(now, Duration::from_millis(200));
    }

    fn wake(&self) {
        self.changed.notify_all();
    }
}
