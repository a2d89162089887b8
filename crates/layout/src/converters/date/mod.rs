//! `%d` / `%date`: dates as log4j2 2.24 prints them.
//!
//! The pattern is compiled once. Formatting goes through a per-thread cache that renders the
//! parts that only change with the second (everything but `S…` and `n…`) once per second;
//! each event then copies that text and writes its sub-second digits, allocating nothing.

mod format;
mod java_time;
mod zone;

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use l4rs_core::{status, Timestamp};

use format::{Fields, Item};
use zone::Zone;

/// log4j2 2.19's `FixedDateFormat.FixedFormat` names and patterns. A pattern equal to one of
/// these (or to one with its `SSS` replaced by a run of `n`) is formatted in "fixed" mode.
const FIXED_FORMATS: &[(&str, &str)] = &[
    ("ABSOLUTE", "HH:mm:ss,SSS"),
    ("ABSOLUTE_MICROS", "HH:mm:ss,nnnnnn"),
    ("ABSOLUTE_NANOS", "HH:mm:ss,nnnnnnnnn"),
    ("ABSOLUTE_PERIOD", "HH:mm:ss.SSS"),
    ("COMPACT", "yyyyMMddHHmmssSSS"),
    ("DATE", "dd MMM yyyy HH:mm:ss,SSS"),
    ("DATE_PERIOD", "dd MMM yyyy HH:mm:ss.SSS"),
    ("DEFAULT", "yyyy-MM-dd HH:mm:ss,SSS"),
    ("DEFAULT_MICROS", "yyyy-MM-dd HH:mm:ss,nnnnnn"),
    ("DEFAULT_NANOS", "yyyy-MM-dd HH:mm:ss,nnnnnnnnn"),
    ("DEFAULT_PERIOD", "yyyy-MM-dd HH:mm:ss.SSS"),
    ("ISO8601_BASIC", "yyyyMMdd'T'HHmmss,SSS"),
    ("ISO8601_BASIC_PERIOD", "yyyyMMdd'T'HHmmss.SSS"),
    ("ISO8601", "yyyy-MM-dd'T'HH:mm:ss,SSS"),
    ("ISO8601_OFFSET_DATE_TIME_HH", "yyyy-MM-dd'T'HH:mm:ss,SSSX"),
    (
        "ISO8601_OFFSET_DATE_TIME_HHMM",
        "yyyy-MM-dd'T'HH:mm:ss,SSSXX",
    ),
    (
        "ISO8601_OFFSET_DATE_TIME_HHCMM",
        "yyyy-MM-dd'T'HH:mm:ss,SSSXXX",
    ),
    ("ISO8601_PERIOD", "yyyy-MM-dd'T'HH:mm:ss.SSS"),
    ("ISO8601_PERIOD_MICROS", "yyyy-MM-dd'T'HH:mm:ss.nnnnnn"),
    ("US_MONTH_DAY_YEAR2_TIME", "dd/MM/yy HH:mm:ss.SSS"),
    ("US_MONTH_DAY_YEAR4_TIME", "dd/MM/yyyy HH:mm:ss.SSS"),
];

/// The `%d` converter.
pub(crate) enum DateConverter {
    /// `UNIX`: epoch seconds.
    Unix,
    /// `UNIX_MILLIS`: epoch milliseconds.
    UnixMillis,
    /// Any other pattern.
    Pattern(DateFormatter),
}

impl DateConverter {
    /// `%d{pattern}{timezone}{locale}`; the locale is always en_US here.
    pub(crate) fn new(options: &[String]) -> DateConverter {
        match options.first().map(String::as_str) {
            Some("UNIX") => DateConverter::Unix,
            Some("UNIX_MILLIS") => DateConverter::UnixMillis,
            pattern => DateConverter::Pattern(DateFormatter::new(
                pattern,
                options.get(1).map(String::as_str),
            )),
        }
    }

    /// Appends the formatted timestamp.
    #[inline]
    pub(crate) fn format(&self, timestamp: Timestamp, out: &mut String) {
        match self {
            DateConverter::Unix => format::write_epoch(timestamp.epoch_millis, true, out),
            DateConverter::UnixMillis => format::write_epoch(timestamp.epoch_millis, false, out),
            DateConverter::Pattern(formatter) => formatter.format(timestamp, out),
        }
    }
}

/// A compiled date pattern and time zone: `%d{pattern}{zone}` without the `UNIX` forms.
///
/// Named formats (`DEFAULT`, `ISO8601`, …) and SimpleDateFormat letters are supported, with
/// en_US month, day and zone names. An invalid pattern is reported as a WARN and replaced by
/// `DEFAULT`, as log4j2 does.
pub struct DateFormatter {
    id: u64,
    items: Vec<Item>,
    has_sub_second: bool,
    /// The only sub-second item is `SSS`: the cached second holds `000` in its place, which
    /// each event overwrites, so the text is one copy and three stores.
    patch_millis: bool,
    zone: Zone,
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

impl DateFormatter {
    /// Compiles `pattern` (a named format or SimpleDateFormat letters; `None` means
    /// `DEFAULT`) for `zone` (a Java time zone id; `None` means the process's local zone,
    /// which honours `TZ`; an unknown id means GMT).
    pub fn new(pattern: Option<&str>, zone: Option<&str>) -> DateFormatter {
        let items = match pattern {
            None => fixed_items("DEFAULT").unwrap_or_default(),
            Some(pattern) => match fixed_items(pattern) {
                Some(items) => items,
                None => match format::compile(pattern, false) {
                    Ok(items) => items,
                    Err(reason) => {
                        status::warn(format_args!(
                            "Could not instantiate FastDateFormat with pattern {pattern} java.lang.IllegalArgumentException: {reason}"
                        ));
                        fixed_items("DEFAULT").unwrap_or_default()
                    }
                },
            },
        };
        let zone = match zone {
            None => Zone::local(),
            Some(id) => Zone::from_id(id),
        };
        let mut sub_second = items.iter().filter(|item| item.is_sub_second());
        let patch_millis = matches!(
            (sub_second.next(), sub_second.next()),
            (Some(Item::Millis(3)), None)
        );
        DateFormatter {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            patch_millis,
            has_sub_second: items.iter().any(Item::is_sub_second),
            items,
            zone,
        }
    }

    /// Compiles a `java.time.format.DateTimeFormatter` pattern (what JsonTemplateLayout's
    /// `timestamp` resolver takes) for `zone` (as in [`DateFormatter::new`]); an error names
    /// the letters l4rs does not format.
    pub(crate) fn java_time(pattern: &str, zone: Option<&str>) -> Result<DateFormatter, String> {
        let items = java_time::compile(pattern)?;
        let zone = match zone {
            None => Zone::local(),
            Some(id) => Zone::from_id(id),
        };
        Ok(DateFormatter {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            // The cached-second patch is measured and tested for `%d` only; java.time patterns
            // keep formatting their fraction in full.
            patch_millis: false,
            has_sub_second: items.iter().any(Item::is_sub_second),
            items,
            zone,
        })
    }

    /// The time zone dates are printed in (rolling appenders compute their periods in it).
    pub fn time_zone(&self) -> &jiff::tz::TimeZone {
        &self.zone.tz
    }

    /// Appends `timestamp` formatted. Allocation-free once this thread has rendered a second
    /// with this formatter.
    pub fn format(&self, timestamp: Timestamp, out: &mut String) {
        let second = timestamp.epoch_seconds();
        let nanos = timestamp.nano_of_second();
        let cached = CACHE.try_with(|cache| {
            let Ok(mut cache) = cache.try_borrow_mut() else {
                return false;
            };
            let entry = cache.entry(self.id);
            if entry.second != second {
                entry.second = second;
                entry.text.clear();
                entry.cuts.clear();
                self.render_second(second, &mut entry.text, &mut entry.cuts);
            }
            self.write_cached(&entry.text, &entry.cuts, nanos, out);
            true
        });
        if cached != Ok(true) {
            let mut text = String::new();
            let mut cuts = Vec::new();
            self.render_second(second, &mut text, &mut cuts);
            self.write_cached(&text, &cuts, nanos, out);
        }
    }

    /// Renders everything that is fixed within `second`; `cuts` records where each
    /// sub-second item goes (byte offset in `text`, item index).
    fn render_second(&self, second: i64, text: &mut String, cuts: &mut Vec<(usize, usize)>) {
        let (offset_seconds, daylight, abbreviation) = self.offset_at(second);
        let fields = Fields::from_local(
            second.saturating_add(i64::from(offset_seconds)),
            offset_seconds,
        );
        let zone_name = |long: bool, out: &mut String| {
            self.zone
                .push_name(long, daylight, abbreviation.as_str(), offset_seconds, out)
        };
        for (index, item) in self.items.iter().enumerate() {
            if item.is_sub_second() {
                cuts.push((text.len(), index));
                if self.patch_millis {
                    text.push_str("000");
                }
            } else {
                format::write_item(item, &fields, text, &zone_name);
            }
        }
    }

    fn offset_at(&self, second: i64) -> (i32, bool, Abbreviation) {
        let Ok(instant) = jiff::Timestamp::from_second(second) else {
            return (0, false, Abbreviation::default());
        };
        let info = self.zone.tz.to_offset_info(instant);
        (
            info.offset().seconds(),
            info.dst().is_dst(),
            Abbreviation::new(info.abbreviation()),
        )
    }

    #[inline]
    fn write_cached(&self, text: &str, cuts: &[(usize, usize)], nanos: u32, out: &mut String) {
        if !self.has_sub_second {
            crate::short::push(out, text);
            return;
        }
        if let (true, Some(&(at, _))) = (self.patch_millis, cuts.first()) {
            let start = out.len();
            crate::short::push(out, text);
            let millis = nanos / 1_000_000 % 1000;
            let digits = [
                b'0' + (millis / 100) as u8,
                b'0' + (millis / 10 % 10) as u8,
                b'0' + (millis % 10) as u8,
            ];
            // SAFETY: the three bytes are the ASCII `000` render_second put at `at`, and
            // digits are ASCII, so the string stays UTF-8.
            unsafe { out.as_mut_vec()[start + at..start + at + 3].copy_from_slice(&digits) };
            return;
        }
        let mut from = 0;
        for &(at, index) in cuts {
            out.push_str(&text[from..at]);
            format::write_sub_second(&self.items[index], nanos, out);
            from = at;
        }
        out.push_str(&text[from..]);
    }
}

/// A zone abbreviation copied onto the stack (jiff lends it only briefly).
#[derive(Default)]
struct Abbreviation {
    bytes: [u8; 16],
    len: usize,
}

impl Abbreviation {
    fn new(text: &str) -> Abbreviation {
        let mut abbreviation = Abbreviation::default();
        let len = text.len().min(16);
        if text.is_char_boundary(len) {
            abbreviation.bytes[..len].copy_from_slice(&text.as_bytes()[..len]);
            abbreviation.len = len;
        }
        abbreviation
    }

    fn as_str(&self) -> &str {
        std::str::from_utf8(&self.bytes[..self.len]).unwrap_or("")
    }
}

/// FixedDateFormat's lookup: a name, a fixed pattern, or a fixed pattern whose `SSS` is
/// written as a run of `n` (ending at `Z`, `X` or the end).
fn fixed_items(pattern: &str) -> Option<Vec<Item>> {
    if let Some((_, fixed)) = FIXED_FORMATS
        .iter()
        .find(|(name, p)| *name == pattern || *p == pattern)
    {
        return format::compile(fixed, true).ok();
    }
    let start = pattern.find('n')?;
    let end = pattern[start..]
        .find('Z')
        .or_else(|| pattern[start..].find('X'))
        .map_or(pattern.len(), |offset| start + offset);
    if !pattern[start..end].bytes().all(|b| b == b'n') {
        return None;
    }
    let candidate = format!("{}SSS{}", &pattern[..start], &pattern[end..]);
    FIXED_FORMATS.iter().find(|(_, p)| *p == candidate)?;
    format::compile(pattern, true).ok()
}

/// One cached second of one formatter on one thread.
struct Entry {
    id: u64,
    second: i64,
    text: String,
    cuts: Vec<(usize, usize)>,
}

/// A few entries per thread, looked up by formatter id; a thread that uses more formatters
/// than slots just re-renders more often.
struct Cache {
    entries: Vec<Entry>,
    next_victim: usize,
}

const CACHE_SLOTS: usize = 16;

impl Cache {
    /// The entry for `id`; a new or evicted one has `second: i64::MIN`, so it is rendered.
    fn entry(&mut self, id: u64) -> &mut Entry {
        if let Some(index) = self.entries.iter().position(|e| e.id == id) {
            return &mut self.entries[index];
        }
        if self.entries.len() < CACHE_SLOTS {
            self.entries.push(Entry {
                id,
                second: i64::MIN,
                text: String::with_capacity(32),
                cuts: Vec::with_capacity(2),
            });
            return self.entries.last_mut().expect("just pushed");
        }
        let victim = self.next_victim % CACHE_SLOTS;
        self.next_victim = self.next_victim.wrapping_add(1);
        let entry = &mut self.entries[victim];
        entry.id = id;
        entry.second = i64::MIN;
        entry
    }
}

thread_local! {
    static CACHE: RefCell<Cache> = const { RefCell::new(Cache { entries: Vec::new(), next_victim: 0 }) };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(millis: i64, nano_of_milli: u32) -> Timestamp {
        Timestamp {
            epoch_millis: millis,
            nano_of_milli,
        }
    }

    fn fmt(pattern: &str, zone: &str, t: Timestamp) -> String {
        let mut out = String::new();
        DateFormatter::new(Some(pattern), Some(zone)).format(t, &mut out);
        out
    }

    const T: i64 = 1_351_866_842_781;

    #[test]
    fn cached_seconds_patch_each_events_millis() {
        // One formatter, one thread: the second is rendered once, the millis written per
        // event, including where text follows them and where another sub-second item
        // disables the patch.
        for (pattern, expected) in [
            (
                "HH:mm:ss.SSS",
                [
                    "14:34:02.000",
                    "14:34:02.007",
                    "14:34:02.999",
                    "14:34:03.010",
                ],
            ),
            (
                "SSS 'ms' ss",
                ["000 ms 02", "007 ms 02", "999 ms 02", "010 ms 03"],
            ),
            (
                "ss.SSS.SS",
                ["02.000.00", "02.007.07", "02.999.999", "03.010.10"],
            ),
            ("ss.S", ["02.0", "02.7", "02.999", "03.10"]),
        ] {
            let formatter = DateFormatter::new(Some(pattern), Some("GMT"));
            let second = T - 781;
            let mut out = String::from("|");
            for (millis, expected) in [0, 7, 999, 1010].into_iter().zip(expected) {
                out.truncate(1);
                formatter.format(at(second + millis, 123_456), &mut out);
                assert_eq!(&out[1..], expected, "{pattern} at +{millis} ms");
            }
        }
    }

    #[test]
    fn named_formats() {
        let t = at(T, 0);
        for (name, expected) in [
            ("DEFAULT", "2012-11-02 14:34:02,781"),
            ("DEFAULT_PERIOD", "2012-11-02 14:34:02.781"),
            ("DEFAULT_MICROS", "2012-11-02 14:34:02,781000"),
            ("DEFAULT_NANOS", "2012-11-02 14:34:02,781000000"),
            ("ISO8601", "2012-11-02T14:34:02,781"),
            ("ISO8601_BASIC", "20121102T143402,781"),
            ("ISO8601_OFFSET_DATE_TIME_HH", "2012-11-02T14:34:02,781+00"),
            (
                "ISO8601_OFFSET_DATE_TIME_HHMM",
                "2012-11-02T14:34:02,781+0000",
            ),
            (
                "ISO8601_OFFSET_DATE_TIME_HHCMM",
                "2012-11-02T14:34:02,781+00:00",
            ),
            ("ABSOLUTE", "14:34:02,781"),
            ("DATE", "02 Nov 2012 14:34:02,781"),
            ("COMPACT", "20121102143402781"),
            ("US_MONTH_DAY_YEAR2_TIME", "02/11/12 14:34:02.781"),
        ] {
            assert_eq!(fmt(name, "UTC", t), expected, "{name}");
        }
        assert_eq!(
            fmt("ISO8601_PERIOD_MICROS", "Z", at(1_577_225_134_559, 1000)),
            "2019-12-24T22:05:34.559001"
        );
    }

    #[test]
    fn simple_date_format_letters() {
        let t = at(T, 0);
        assert_eq!(fmt("HH:mm:ss.SSSSSS|S|SSSS|yy|yyyyy|G|u|F|W|w|D|k|K|h|a|E|EEEE|M|MMM|MMMM", "Europe/Berlin", t),
            "15:34:02.000781|781|0781|12|02012|AD|5|1|1|44|307|15|3|3|PM|Fri|Friday|11|Nov|November");
        assert_eq!(
            fmt("X|XX|XXX|Z|ZZ|ZZZ|z|zzzz", "Europe/Berlin", t),
            "+01|+0100|+01:00|+0100|+01:00|+01:00|CET|Central European Standard Time"
        );
        assert_eq!(
            fmt("X|XX|XXX|Z|ZZ|ZZZ|z", "UTC", t),
            "Z|Z|Z|+0000|Z|+00:00|UTC"
        );
        assert_eq!(fmt("HH:mm:ss.nnnnnn", "UTC", at(T, 5)), "14:34:02.781000");
        assert_eq!(
            fmt("HH:mm:ss.nnnnnnnnn", "UTC", at(T, 5)),
            "14:34:02.781000005"
        );
        assert_eq!(fmt("HH:mm:ss,nnn", "UTC", at(T, 5)), "14:34:02,781");
        assert_eq!(
            fmt("yyyy-MM-dd'T'HH:mm:ss,SSSX", "UTC", at(T, 5)),
            "2012-11-02T14:34:02,781+00"
        );
        assert_eq!(fmt("'at' h 'o''clock' a", "UTC", t), "at 2 o'clock PM");
    }

    #[test]
    fn zones() {
        let t = at(T, 0);
        assert_eq!(fmt("HH:mm", "GMT+2", t), "16:34");
        assert_eq!(fmt("HH:mm z", "GMT-03:30", t), "11:04 GMT-03:30");
        assert_eq!(
            fmt("ISO8601", "America/New_York", t),
            "2012-11-02T10:34:02,781"
        );
        assert_eq!(fmt("HH:mm z", "America/New_York", t), "10:34 EDT");
        assert_eq!(fmt("HH:mm", "Bogus/Zone", t), "14:34");
        assert_eq!(fmt("HH:mm", "PST", t), "07:34");
        assert_eq!(fmt("HH:mm Z", "Asia/Kathmandu", t), "20:19 +0545");
    }

    #[test]
    fn invalid_patterns_fall_back_to_default() {
        let ((), records) = status::capture(|| {
            assert_eq!(fmt("HH:mm Q", "UTC", at(T, 0)), "2012-11-02 14:34:02,781");
        });
        assert!(records[0]
            .message
            .starts_with("Could not instantiate FastDateFormat with pattern HH:mm Q"));
        assert_eq!(fmt("", "UTC", at(T, 0)), "");
    }

    #[test]
    fn cache_rolls_over_with_the_second_and_keeps_sub_second_digits_fresh() {
        let formatter = DateFormatter::new(Some("HH:mm:ss.SSS"), Some("UTC"));
        let mut out = String::new();
        for (millis, expected) in [
            (T, "14:34:02.781"),
            (T + 1, "14:34:02.782"),
            (T + 219, "14:34:03.000"),
            (T - 1000, "14:34:01.781"),
            (T, "14:34:02.781"),
        ] {
            out.clear();
            formatter.format(at(millis, 0), &mut out);
            assert_eq!(out, expected);
        }
        // Many formatters on one thread evict each other without mixing their text up.
        let many: Vec<DateFormatter> = (0..40)
            .map(|i| DateFormatter::new(Some(if i % 2 == 0 { "ss" } else { "mm" }), Some("UTC")))
            .collect();
        for (i, f) in many.iter().enumerate() {
            out.clear();
            f.format(at(T, 0), &mut out);
            assert_eq!(out, if i % 2 == 0 { "02" } else { "34" });
        }
    }
}
