//! `filePattern`: the names rolled files get, with `%d{…}` dates and `%i` indexes.

use l4rs_java_syntax::date_pattern::{self, Token};

/// How often a time-based rollover happens: the smallest calendar unit printed by the
/// pattern's `%d` conversions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RolloverFrequency {
    /// `S`.
    EveryMillisecond,
    /// `s`.
    EverySecond,
    /// `m`.
    EveryMinute,
    /// `H`, `K`, `h`, `k`.
    Hourly,
    /// `D`, `d`, `F`, `E`.
    Daily,
    /// `w`, `W`.
    Weekly,
    /// `M`.
    Monthly,
    /// `y`.
    Annually,
}

/// `%i`'s format modifiers (`%3i`, `%-3i`, `%03i`, `%.2i`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IndexFormat {
    /// Pad to at least this many characters.
    pub min_width: usize,
    /// Keep at most this many characters (the rightmost ones, as log4j2 truncates).
    pub max_width: Option<usize>,
    /// Pad on the right instead of the left.
    pub left_align: bool,
    /// Pad with zeros instead of spaces.
    pub zero_pad: bool,
}

impl IndexFormat {
    /// Appends `index` formatted.
    pub fn format(&self, index: i64, out: &mut String) {
        let mut digits = index.to_string();
        if let Some(max) = self.max_width {
            if digits.len() > max {
                digits = digits[digits.len() - max..].to_string();
            }
        }
        let padding = self.min_width.saturating_sub(digits.len());
        let pad = if self.zero_pad { '0' } else { ' ' };
        if self.left_align {
            out.push_str(&digits);
            out.extend((0..padding).map(|_| ' '));
        } else {
            out.extend((0..padding).map(|_| pad));
            out.push_str(&digits);
        }
    }
}

/// One piece of a `filePattern`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FilePatternSegment {
    /// Text copied as it is. It may hold `${…}` lookups left for rollover time (written `$${…}`
    /// in the file), which are resolved at each rollover.
    Literal(String),
    /// `%d{pattern}{zone}`: the period's time.
    Date {
        /// The date pattern (SimpleDateFormat letters or a named format); `None` means the
        /// `%d` default, `yyyy-MM-dd`.
        pattern: Option<String>,
        /// The time zone id, when given.
        zone: Option<String>,
        /// The smallest unit the pattern prints, if any.
        frequency: Option<RolloverFrequency>,
    },
    /// `%i`: the rollover index.
    Index(IndexFormat),
}

/// A parsed `filePattern`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilePattern {
    /// The pattern as written (after configuration-time substitution).
    pub text: String,
    /// Its pieces, in order.
    pub segments: Vec<FilePatternSegment>,
}

/// The names log4j2 gives to fixed date formats; they all print milliseconds, except the
/// epoch forms.
const NAMED_DATE_FORMATS: &[&str] = &[
    "ABSOLUTE",
    "ABSOLUTE_MICROS",
    "ABSOLUTE_NANOS",
    "ABSOLUTE_PERIOD",
    "COMPACT",
    "DATE",
    "DATE_PERIOD",
    "DEFAULT",
    "DEFAULT_MICROS",
    "DEFAULT_NANOS",
    "DEFAULT_PERIOD",
    "ISO8601_BASIC",
    "ISO8601_BASIC_PERIOD",
    "ISO8601",
    "ISO8601_OFFSET_DATE_TIME_HH",
    "ISO8601_OFFSET_DATE_TIME_HHMM",
    "ISO8601_OFFSET_DATE_TIME_HHCMM",
    "ISO8601_PERIOD",
    "ISO8601_PERIOD_MICROS",
    "US_MONTH_DAY_YEAR2_TIME",
    "US_MONTH_DAY_YEAR4_TIME",
];

/// The file name suffixes that select a compression, as log4j2 recognises them.
pub(super) const COMPRESSION_SUFFIXES: &[&str] =
    &[".gz", ".zip", ".bz2", ".deflate", ".pack200", ".xz", ".zst"];

impl FilePattern {
    /// Parses `text`. Only `%d`/`%date` and `%i`/`%index` (with format modifiers) are
    /// conversions here; `%%` is a percent sign. The error names what is wrong.
    pub fn parse(text: &str) -> Result<FilePattern, String> {
        let mut segments = Vec::new();
        let mut literal = String::new();
        let mut rest = text;
        while let Some(at) = rest.find('%') {
            literal.push_str(&rest[..at]);
            rest = &rest[at + 1..];
            if let Some(after) = rest.strip_prefix('%') {
                literal.push('%');
                rest = after;
                continue;
            }
            let (format, after_modifiers) = parse_modifiers(rest);
            let name_length = after_modifiers
                .find(|c: char| !c.is_ascii_alphabetic())
                .unwrap_or(after_modifiers.len());
            let name = &after_modifiers[..name_length];
            rest = &after_modifiers[name_length..];
            let mut options = Vec::new();
            while let Some(body) = rest.strip_prefix('{') {
                let close = body.find('}').ok_or_else(|| {
                    format!("Missing '}}' after %{name}{{ in filePattern \"{text}\"")
                })?;
                options.push(body[..close].to_string());
                rest = &body[close + 1..];
            }
            let segment = match name {
                "d" | "date" => date_segment(text, &options)?,
                "i" | "index" => index_segment(text, format)?,
                "" => {
                    return Err(format!(
                        "Empty conversion specifier at the end of filePattern \"{text}\" (write %% for a percent sign)"
                    ))
                }
                other => {
                    return Err(format!(
                        "Unrecognized conversion specifier [{other}] in filePattern \"{text}\": only %d{{…}} and %i are allowed"
                    ))
                }
            };
            if !literal.is_empty() {
                segments.push(FilePatternSegment::Literal(std::mem::take(&mut literal)));
            }
            segments.push(segment);
        }
        literal.push_str(rest);
        if !literal.is_empty() {
            segments.push(FilePatternSegment::Literal(literal));
        }
        Ok(FilePattern {
            text: text.to_string(),
            segments,
        })
    }

    /// True when the pattern has an `%i`.
    pub fn has_index(&self) -> bool {
        self.segments
            .iter()
            .any(|segment| matches!(segment, FilePatternSegment::Index(_)))
    }

    /// True when the pattern has a `%d`.
    pub fn has_date(&self) -> bool {
        self.segments
            .iter()
            .any(|segment| matches!(segment, FilePatternSegment::Date { .. }))
    }

    /// The rollover frequency: the smallest unit any `%d` prints.
    pub fn frequency(&self) -> Option<RolloverFrequency> {
        self.segments
            .iter()
            .filter_map(|segment| match segment {
                FilePatternSegment::Date { frequency, .. } => *frequency,
                _ => None,
            })
            .min()
    }

    /// The compression suffix the pattern ends with (`.gz`, `.zip`, …), if any.
    pub fn compression_suffix(&self) -> Option<&'static str> {
        let lower = self.text.to_ascii_lowercase();
        COMPRESSION_SUFFIXES
            .iter()
            .copied()
            .find(|suffix| lower.ends_with(suffix) && lower.len() > suffix.len())
    }
}

/// The widest `%i` a file pattern may ask for. A file name component is at most 255 bytes on
/// Linux, so a wider index could never name a file; refusing it at parse time also keeps a
/// typo such as `%0255555i` from padding every rollover's name to gigabytes.
const MAX_INDEX_WIDTH: usize = 255;

fn index_segment(text: &str, format: IndexFormat) -> Result<FilePatternSegment, String> {
    if format.min_width > MAX_INDEX_WIDTH {
        return Err(format!(
            "The width of %i in filePattern \"{text}\" is larger than {MAX_INDEX_WIDTH}, the longest file name; use a width of at most {MAX_INDEX_WIDTH} (e.g. %03i)"
        ));
    }
    Ok(FilePatternSegment::Index(format))
}

/// Reads `-`, `0`, a minimum width and `.max` after a `%`.
fn parse_modifiers(text: &str) -> (IndexFormat, &str) {
    let mut format = IndexFormat::default();
    let mut rest = text;
    if let Some(after) = rest.strip_prefix('-') {
        format.left_align = true;
        rest = after;
    }
    if let Some(after) = rest.strip_prefix('0') {
        format.zero_pad = true;
        rest = after;
    }
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    // A width too large for usize saturates, so the caller refuses it rather than read zero.
    format.min_width = match digits {
        0 => 0,
        _ => rest[..digits].parse().unwrap_or(usize::MAX),
    };
    rest = &rest[digits..];
    if let Some(after) = rest.strip_prefix('.') {
        let digits = after.bytes().take_while(u8::is_ascii_digit).count();
        format.max_width = after[..digits].parse().ok();
        rest = &after[digits..];
    }
    (format, rest)
}

fn date_segment(text: &str, options: &[String]) -> Result<FilePatternSegment, String> {
    let pattern = options.first().filter(|p| !p.is_empty()).cloned();
    let zone = options.get(1).filter(|z| !z.is_empty()).cloned();
    let frequency = match pattern.as_deref() {
        // log4j2's `%d` in a file pattern defaults to `yyyy-MM-dd`.
        None => Some(RolloverFrequency::Daily),
        Some(name @ ("UNIX" | "UNIX_MILLIS")) => {
            // log4j2's PatternProcessor looks for date letters in the pattern, finds no
            // pattern at all, and fails with a NullPointerException: no rolling appender of
            // this filePattern can be built.
            return Err(format!(
                "%d{{{name}}} cannot name files in filePattern \"{text}\": log4j2 cannot build a rolling appender with it (a NullPointerException); use date letters such as %d{{yyyy-MM-dd-HH-mm-ss}}"
            ));
        }
        Some(name) if NAMED_DATE_FORMATS.contains(&name) => {
            Some(RolloverFrequency::EveryMillisecond)
        }
        Some(letters) => date_frequency(letters).map_err(|reason| {
            format!("Invalid date pattern %d{{{letters}}} in filePattern \"{text}\": {reason}")
        })?,
    };
    Ok(FilePatternSegment::Date {
        pattern,
        zone,
        frequency,
    })
}

/// Checks a SimpleDateFormat pattern and returns the smallest unit it prints.
fn date_frequency(pattern: &str) -> Result<Option<RolloverFrequency>, String> {
    let mut smallest = None;
    for token in date_pattern::parse(pattern).map_err(|error| error.to_string())? {
        let Token::Field { letter, count } = token else {
            continue;
        };
        let unit = match letter {
            'S' => Some(RolloverFrequency::EveryMillisecond),
            's' => Some(RolloverFrequency::EverySecond),
            'm' => Some(RolloverFrequency::EveryMinute),
            'H' | 'K' | 'h' | 'k' => Some(RolloverFrequency::Hourly),
            'D' | 'd' | 'F' | 'E' => Some(RolloverFrequency::Daily),
            'w' | 'W' => Some(RolloverFrequency::Weekly),
            'M' | 'L' => Some(RolloverFrequency::Monthly),
            'y' => Some(RolloverFrequency::Annually),
            'G' | 'Y' | 'u' | 'a' | 'z' | 'Z' | 'X' => None,
            other => {
                let component: String = std::iter::repeat_n(other, count).collect();
                return Err(format!("Illegal pattern component: {component}"));
            }
        };
        if let Some(unit) = unit {
            smallest = Some(smallest.map_or(unit, |s: RolloverFrequency| s.min(unit)));
        }
    }
    Ok(smallest)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_indexes_and_literals() {
        let pattern = FilePattern::parse("logs/app-%d{yyyy-MM-dd-HH}{UTC}-%03i.log.gz").unwrap();
        assert_eq!(
            pattern.segments,
            vec![
                FilePatternSegment::Literal("logs/app-".into()),
                FilePatternSegment::Date {
                    pattern: Some("yyyy-MM-dd-HH".into()),
                    zone: Some("UTC".into()),
                    frequency: Some(RolloverFrequency::Hourly),
                },
                FilePatternSegment::Literal("-".into()),
                FilePatternSegment::Index(IndexFormat {
                    min_width: 3,
                    zero_pad: true,
                    ..IndexFormat::default()
                }),
                FilePatternSegment::Literal(".log.gz".into()),
            ]
        );
        assert_eq!(pattern.compression_suffix(), Some(".gz"));
        assert_eq!(pattern.frequency(), Some(RolloverFrequency::Hourly));
        assert!(pattern.has_index() && pattern.has_date());
        let mut out = String::new();
        IndexFormat {
            min_width: 3,
            zero_pad: true,
            ..IndexFormat::default()
        }
        .format(7, &mut out);
        assert_eq!(out, "007");
    }

    #[test]
    fn quoted_letters_do_not_count_and_the_smallest_unit_wins() {
        let pattern = FilePattern::parse("a-%d{yyyyMMdd}_%d{HHmmss}-%i.log").unwrap();
        assert_eq!(pattern.frequency(), Some(RolloverFrequency::EverySecond));
        let pattern = FilePattern::parse("a-%d{yyyy-MM-dd'T'HH}.log").unwrap();
        assert_eq!(pattern.frequency(), Some(RolloverFrequency::Hourly));
        let pattern = FilePattern::parse("a-%d.log").unwrap();
        assert_eq!(pattern.frequency(), Some(RolloverFrequency::Daily));
        let pattern = FilePattern::parse("100%%-${date:yyyy}.log").unwrap();
        assert_eq!(
            pattern.segments,
            vec![FilePatternSegment::Literal("100%-${date:yyyy}.log".into())]
        );
        assert_eq!(pattern.compression_suffix(), None);
    }

    #[test]
    fn mistakes_are_errors() {
        assert!(FilePattern::parse("app-%x.log")
            .unwrap_err()
            .contains("[x]"));
        assert!(FilePattern::parse("app-%d{yyyy-bb}.log")
            .unwrap_err()
            .contains("Illegal pattern component: bb"));
        assert!(FilePattern::parse("app-%d{yyyy.log").is_err());
        assert!(FilePattern::parse("app-%").is_err());
        assert!(FilePattern::parse("app-%d{'yyyy}.log").is_err());
        assert!(FilePattern::parse("app-%0256i.log")
            .unwrap_err()
            .contains("at most 255"));
        // An overflowing width is refused too, not read as zero or as a huge pad.
        assert!(FilePattern::parse("app-%02555555555555555555i.log").is_err());
        assert!(FilePattern::parse("app-%99999999999999999999999i.log").is_err());
        assert!(FilePattern::parse("app-%0255i.log").is_ok());
        // log4j2 cannot build a rolling appender with these (a NullPointerException).
        for unix in ["app-%d{UNIX}.log", "app-%d{UNIX_MILLIS}-%i.log"] {
            assert!(FilePattern::parse(unix)
                .unwrap_err()
                .contains("cannot name files"));
        }
    }
}
