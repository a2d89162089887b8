//! Converters about the process rather than the event: `%n`, `%pid`, `%r`, `%sn`, `%u`,
//! `%fqcn`.

use std::sync::atomic::{AtomicI64, AtomicU64, Ordering};
use std::sync::OnceLock;
use std::time::{SystemTime, UNIX_EPOCH};

use l4rs_core::LogEvent;

use super::thread::push_integer;

/// `%n`: the platform line separator (`System.lineSeparator()`).
#[cfg(windows)]
pub(crate) const LINE_SEPARATOR: &str = "\r\n";
/// `%n`: the platform line separator (`System.lineSeparator()`).
#[cfg(not(windows))]
pub(crate) const LINE_SEPARATOR: &str = "\n";

/// `%fqcn`: events carry no logger class name in l4rs; the logging front end is the crate.
pub(crate) const FQCN: &str = "l4rs";

/// `%pid{default}`: the process id is always known in Rust, so the default is never used.
pub(crate) fn process_id(_default: Option<&str>) -> Box<str> {
    std::process::id().to_string().into_boxed_str()
}

fn start_millis() -> &'static i64 {
    static START: OnceLock<i64> = OnceLock::new();
    START.get_or_init(|| {
        SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_millis() as i64)
    })
}

/// Records the process start for `%r` if nothing has yet (the first layout that uses `%r`
/// is built at start-up, which stands in for the JVM start time).
pub(crate) fn mark_start() {
    start_millis();
}

/// `%r`: milliseconds from the start of the process to the event.
pub(crate) fn format_relative(event: &LogEvent<'_>, out: &mut String) {
    push_integer(
        out,
        event.timestamp.epoch_millis.saturating_sub(*start_millis()),
    );
}

static SEQUENCE: AtomicI64 = AtomicI64::new(0);

/// `%sn`: a process-wide counter starting at 1, shared by every `%sn` as in log4j2.
pub(crate) fn format_sequence_number(out: &mut String) {
    push_integer(out, SEQUENCE.fetch_add(1, Ordering::Relaxed) + 1);
}

/// Restarts the process-wide `%sn` counter at 1 (log4j2 only does so with a new JVM; tests
/// and embedders that replay scenarios need it).
pub fn reset_sequence_number() {
    SEQUENCE.store(0, Ordering::Relaxed);
}

/// Which UUID `%u` prints.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum UuidKind {
    /// A version-1 (time-based) UUID, log4j2's default.
    Time,
    /// A version-4 (random) UUID.
    Random,
}

impl UuidKind {
    /// `RANDOM` (case-insensitive) selects random UUIDs; anything else time-based ones.
    pub(crate) fn from_option(option: Option<&str>) -> UuidKind {
        match option {
            Some(o) if o.trim().eq_ignore_ascii_case("RANDOM") => UuidKind::Random,
            _ => UuidKind::Time,
        }
    }
}

/// A splitmix64 step: good enough randomness for UUIDs without a dependency.
fn next_random() -> u64 {
    static STATE: AtomicU64 = AtomicU64::new(0);
    let mut seed = STATE.load(Ordering::Relaxed);
    if seed == 0 {
        let nanos = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(1, |d| d.as_nanos() as u64);
        seed = nanos ^ ((std::process::id() as u64) << 32) | 1;
        let _ = STATE.compare_exchange(0, seed, Ordering::Relaxed, Ordering::Relaxed);
    }
    let mut z = STATE
        .fetch_add(0x9E37_79B9_7F4A_7C15, Ordering::Relaxed)
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// `%u`: a new UUID per event.
pub(crate) fn format_uuid(kind: UuidKind, out: &mut String) {
    let (high, low) = match kind {
        UuidKind::Random => {
            let high = (next_random() & !0xF000) | 0x4000;
            let low = (next_random() & !(0b11 << 62)) | (0b10 << 62);
            (high, low)
        }
        UuidKind::Time => {
            static NODE: OnceLock<u64> = OnceLock::new();
            static LAST: AtomicU64 = AtomicU64::new(0);
            // 100 ns intervals since 1582-10-15, made strictly increasing per process.
            const GREGORIAN_OFFSET: u64 = 0x01B2_1DD2_1381_4000;
            let now = SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| (d.as_nanos() / 100) as u64)
                + GREGORIAN_OFFSET;
            let mut previous = LAST.load(Ordering::Relaxed);
            let time = loop {
                let candidate = now.max(previous + 1);
                match LAST.compare_exchange(
                    previous,
                    candidate,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                ) {
                    Ok(_) => break candidate,
                    Err(actual) => previous = actual,
                }
            };
            let node = *NODE.get_or_init(|| (next_random() & 0xFFFF_FFFF_FFFF) | 0x0100_0000_0000);
            let high = ((time & 0xFFFF_FFFF) << 32)
                | (((time >> 32) & 0xFFFF) << 16)
                | 0x1000
                | ((time >> 48) & 0x0FFF);
            let clock_sequence = next_random() & 0x3FFF;
            let low = (0b10 << 62) | (clock_sequence << 48) | node;
            (high, low)
        }
    };
    push_hex(out, high >> 32, 8);
    out.push('-');
    push_hex(out, (high >> 16) & 0xFFFF, 4);
    out.push('-');
    push_hex(out, high & 0xFFFF, 4);
    out.push('-');
    push_hex(out, low >> 48, 4);
    out.push('-');
    push_hex(out, low & 0xFFFF_FFFF_FFFF, 12);
}

fn push_hex(out: &mut String, value: u64, digits: u32) {
    for shift in (0..digits).rev() {
        let nibble = ((value >> (shift * 4)) & 0xF) as u8;
        out.push(char::from(b"0123456789abcdef"[nibble as usize]));
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{event, render};

    #[test]
    fn uuids_have_the_right_shape_and_version() {
        let e = event();
        let time = render("%u", &e);
        let random = render("%uuid{RANDOM}", &e);
        for (text, version) in [(&time, '1'), (&random, '4')] {
            assert_eq!(text.len(), 36, "{text}");
            assert_eq!(text.as_bytes()[14] as char, version, "{text}");
            assert!(
                matches!(text.as_bytes()[19], b'8' | b'9' | b'a' | b'b'),
                "{text}"
            );
        }
        assert_ne!(render("%u", &e), time);
    }

    #[test]
    fn sequence_numbers_increase_and_take_format_modifiers() {
        let e = event();
        // The counter is process-wide, so other tests may advance it in between: only the
        // order and the shape are fixed.
        let first: i64 = render("%sn", &e).parse().unwrap();
        let padded = render("%07sequenceNumber", &e);
        assert_eq!(padded.len(), 7, "{padded}");
        assert!(padded.starts_with('0'), "{padded}");
        let second: i64 = padded.parse().unwrap();
        assert!(first >= 1 && second > first, "{first} then {second}");
    }

    #[test]
    fn relative_time_counts_from_the_first_layout_start() {
        super::mark_start();
        let mut e = event();
        e.timestamp = l4rs_core::Timestamp {
            epoch_millis: *super::start_millis() + 1234,
            nano_of_milli: 0,
        };
        assert_eq!(render("%r|%relative|%-6r|", &e), "1234|1234|1234  |");
    }

    #[test]
    fn process_and_batch_converters() {
        let mut e = event();
        e.timestamp = l4rs_core::Timestamp::now();
        e.end_of_batch = true;
        e.nano_time = 1234;
        assert_eq!(
            render("%pid|%processId|%endOfBatch|%N|%nano|%fqcn", &e),
            format!("{0}|{0}|true|1234|1234|l4rs", std::process::id())
        );
        let relative: i64 = render("%r", &e).parse().unwrap();
        assert!(relative > -60_000 && relative < 600_000, "{relative}");
    }
}
