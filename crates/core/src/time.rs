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

/// When this process started, in epoch milliseconds, as the kernel recorded it (Java's
/// `RuntimeMXBean.getStartTime`: what `OnStartupTriggeringPolicy` compares file times with,
/// and what HtmlLayout's default time column counts from). It can read up to a second early
/// (the boot time is kept in whole seconds), never late; without `/proc` it is the first call's
/// time.
pub fn process_start_millis() -> i64 {
    static START: std::sync::OnceLock<i64> = std::sync::OnceLock::new();
    *START.get_or_init(|| read_process_start().unwrap_or_else(|| Timestamp::now().epoch_millis))
}

fn read_process_start() -> Option<i64> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // The command name may hold spaces; the fields after its closing parenthesis are fixed.
    let after = stat.get(stat.rfind(')')? + 2..)?;
    let start_ticks: i64 = after.split(' ').nth(19)?.parse().ok()?;
    let boot_seconds: i64 = std::fs::read_to_string("/proc/stat")
        .ok()?
        .lines()
        .find_map(|line| line.strip_prefix("btime "))?
        .trim()
        .parse()
        .ok()?;
    // SAFETY: sysconf only reads a system constant.
    let ticks_per_second = i64::from(unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as i32).max(1);
    Some(boot_seconds * 1000 + start_ticks * 1000 / ticks_per_second)
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
