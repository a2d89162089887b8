//! Event timestamps.

use std::time::{SystemTime, UNIX_EPOCH};

/// The instant of an event: epoch milliseconds plus the nanoseconds within that millisecond,
/// the same split log4j2's `MutableInstant` keeps.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Timestamp {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    pub epoch_millis: i64,
    /// Nanoseconds within the millisecond, `0..1_000_000`.
    pub nano_of_milli: u32,
}

impl Timestamp {
    /// The current wall-clock time.
    pub fn now() -> Timestamp {
        let since_epoch = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .unwrap_or_default();
        Timestamp {
            epoch_millis: since_epoch.as_millis() as i64,
            nano_of_milli: since_epoch.subsec_nanos() % 1_000_000,
        }
    }

    /// A timestamp at a whole millisecond.
    pub const fn from_millis(epoch_millis: i64) -> Timestamp {
        Timestamp {
            epoch_millis,
            nano_of_milli: 0,
        }
    }

    /// Whole seconds since the epoch (rounded down, also for instants before 1970).
    pub fn epoch_seconds(&self) -> i64 {
        self.epoch_millis.div_euclid(1000)
    }

    /// Nanoseconds within the second.
    pub fn nano_of_second(&self) -> u32 {
        (self.epoch_millis.rem_euclid(1000) as u32) * 1_000_000 + self.nano_of_milli
    }
}

/// A reading of the monotonic clock in nanoseconds (`CLOCK_MONOTONIC`), what log4j2's
/// `SystemNanoClock` returns from `System.nanoTime()`: only differences between readings mean
/// anything. One system call (usually served by the vDSO), no allocation.
pub fn monotonic_nanos() -> i64 {
    let mut now = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `now` is a valid, writable timespec; CLOCK_MONOTONIC is always supported on the
    // platforms libc targets, and on the impossible failure `now` stays zero.
    unsafe {
        libc::clock_gettime(libc::CLOCK_MONOTONIC, &mut now);
    }
    // `time_t` and `c_long` are 32 bits on some targets, so the casts are not always no-ops.
    #[allow(clippy::unnecessary_cast)]
    let (seconds, nanos) = (now.tv_sec as i64, now.tv_nsec as i64);
    seconds.wrapping_mul(1_000_000_000).wrapping_add(nanos)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_seconds_and_nanos_also_before_the_epoch() {
        let t = Timestamp {
            epoch_millis: -1,
            nano_of_milli: 5,
        };
        assert_eq!(t.epoch_seconds(), -1);
        assert_eq!(t.nano_of_second(), 999_000_005);
        let now = Timestamp::now();
        assert!(now.epoch_millis > 1_600_000_000_000);
    }

    #[test]
    fn the_monotonic_clock_never_goes_back() {
        let first = monotonic_nanos();
        let second = monotonic_nanos();
        assert!(first > 0, "{first}");
        assert!(second >= first, "{first} then {second}");
    }
}
