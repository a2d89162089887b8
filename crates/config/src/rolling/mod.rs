//! The value syntaxes of log4j2's rolling appenders, parsed and checked at configuration time so
//! that a mistake is reported with its position: `filePattern` ([`FilePattern`]), sizes
//! ([`parse_size`]), ages ([`parse_age`]), Quartz cron schedules ([`CronExpression`]) and the
//! JDK glob syntax of `IfFileName` ([`glob_to_regex`]).

mod cron;
mod file_pattern;
#[cfg(test)]
mod values_against_log4j2;

pub use cron::CronExpression;
pub use file_pattern::{FilePattern, FilePatternSegment, IndexFormat, RolloverFrequency};

/// Parses a size as log4j2's `FileSize.parse` reads it: digits, optionally `.` or `,` and
/// more digits, optional spaces, then an optional unit `K`, `M`, `G` or `T` with an optional `B`
/// (or just `B`, or nothing: bytes), case-insensitive, 1024-based, at most `i64::MAX`. As in
/// log4j2, `,` separates thousands (`1,000 KB` is 1000 KB, and so `1,5 KB` is 15 KB: log4j2
/// reads the number with the root locale). Unlike log4j2, spaces around the value are
/// allowed; log4j2 refuses them and takes its default. The error says what is wrong.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let number_end = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == ','))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(number_end);
    let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
    let well_formed = match number.split_once(['.', ',']) {
        Some((whole, fraction)) => digits(whole) && digits(fraction),
        None => digits(number),
    };
    let value: f64 = number
        .replace(',', "")
        .parse()
        .ok()
        .filter(|_| well_formed)
        .ok_or_else(|| format!("Unable to parse numeric part of size \"{text}\""))?;
    let multiplier: f64 = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 1.0,
        "K" | "KB" => 1024.0,
        "M" | "MB" => 1024.0 * 1024.0,
        "G" | "GB" => 1024.0 * 1024.0 * 1024.0,
        "T" | "TB" => 1024.0 * 1024.0 * 1024.0 * 1024.0,
        other => return Err(format!("Unknown size unit \"{other}\" in \"{text}\"")),
    };
    // Java's conversion of the product to a long stops at its largest value.
    let bytes = value * multiplier;
    Ok(if bytes >= i64::MAX as f64 {
        i64::MAX as u64
    } else {
        bytes as u64
    })
}

/// Parses an `IfLastModified age` as log4j2's `Duration.parse` reads it: `[P][nD][T][nH][nM][nS]`,
/// case-insensitive, days the largest unit (`30d`, `P7D`, `PT12H`, `1d12h`). Returns milliseconds.
/// Unlike log4j2, spaces around the value are allowed; log4j2 refuses them.
pub fn parse_age(text: &str) -> Result<u64, String> {
    let invalid = || format!("Text cannot be parsed to a Duration: {text}");
    let upper = text.trim().to_ascii_uppercase();
    let mut rest = upper.strip_prefix('P').unwrap_or(&upper);
    let mut total: u64 = 0;
    let mut seen_any = false;
    // Units must come in this order, each at most once; `T` may stand before the time part.
    let units = [
        ('D', 86_400_000u64),
        ('H', 3_600_000),
        ('M', 60_000),
        ('S', 1_000),
    ];
    let mut next_unit = 0;
    while !rest.is_empty() {
        if let Some(after_t) = rest.strip_prefix('T') {
            rest = after_t;
            continue;
        }
        let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return Err(invalid());
        }
        let value: u64 = rest[..digits].parse().map_err(|_| invalid())?;
        let unit = rest[digits..].chars().next().ok_or_else(invalid)?;
        let index = units[next_unit..]
            .iter()
            .position(|(letter, _)| *letter == unit)
            .ok_or_else(invalid)?
            + next_unit;
        total = value
            .checked_mul(units[index].1)
            .and_then(|ms| total.checked_add(ms))
            .ok_or_else(invalid)?;
        next_unit = index + 1;
        seen_any = true;
        rest = &rest[digits + 1..];
    }
    if seen_any {
        Ok(total)
    } else {
        Err(invalid())
    }
}

/// Translates a JDK `PathMatcher` glob into an anchored regular expression: `*` matches within
/// one path element, `**` across elements, `?` one character, `[…]` a class (`!` negates;
/// ascending ranges; never the separator), `{a,b}` alternatives, `\` escapes.
pub fn glob_to_regex(glob: &str) -> Result<String, String> {
    let mut regex = String::from("^");
    let chars: Vec<char> = glob.chars().collect();
    let mut index = 0;
    let mut in_group = false;
    while index < chars.len() {
        let c = chars[index];
        index += 1;
        match c {
            '\\' => {
                let escaped = chars
                    .get(index)
                    .ok_or_else(|| format!("No character to escape in glob \"{glob}\""))?;
                index += 1;
                regex.push_str(&regex_escape(*escaped));
            }
            '*' if chars.get(index) == Some(&'*') => {
                index += 1;
                regex.push_str(".*");
            }
            '*' => regex.push_str("[^/]*"),
            '?' => regex.push_str("[^/]"),
            '[' => {
                // As the JDK translates a class: one that never matches the separator, `!`
                // negating, a leading `^` literal, `-` literal first, ranges that ascend.
                regex.push_str("[[^/]&&[");
                if chars.get(index) == Some(&'^') {
                    regex.push_str("\\^");
                    index += 1;
                } else {
                    if chars.get(index) == Some(&'!') {
                        regex.push('^');
                        index += 1;
                    }
                    if chars.get(index) == Some(&'-') {
                        regex.push_str("\\-");
                        index += 1;
                    }
                }
                let mut closed = false;
                let mut range_start: Option<char> = None;
                while index < chars.len() {
                    let member = chars[index];
                    index += 1;
                    match member {
                        ']' => {
                            closed = true;
                            break;
                        }
                        '/' => {
                            return Err(format!(
                                "Explicit 'name separator' in class in glob \"{glob}\""
                            ))
                        }
                        '-' => {
                            let Some(start) = range_start.take() else {
                                return Err(format!("Invalid range in glob \"{glob}\""));
                            };
                            match chars.get(index) {
                                // A `-` that ends the class is itself a member.
                                None | Some(']') => regex.push_str("\\-"),
                                Some(&end) if end < start => {
                                    return Err(format!("Invalid range in glob \"{glob}\""))
                                }
                                Some(&end) => {
                                    regex.push('-');
                                    regex.push_str(&regex_escape(end));
                                    index += 1;
                                }
                            }
                        }
                        other => {
                            regex.push_str(&regex_escape(other));
                            range_start = Some(other);
                        }
                    }
                }
                if !closed {
                    return Err(format!("Missing ']' in glob \"{glob}\""));
                }
                regex.push_str("]]");
            }
            '{' if !in_group => {
                in_group = true;
                regex.push_str("(?:");
            }
            '{' => return Err(format!("Cannot nest groups in glob \"{glob}\"")),
            '}' if in_group => {
                in_group = false;
                regex.push(')');
            }
            ',' if in_group => regex.push('|'),
            other => regex.push_str(&regex_escape(other)),
        }
    }
    if in_group {
        return Err(format!("Missing '}}' in glob \"{glob}\""));
    }
    regex.push('$');
    // An empty class (`[]`, `[!]`) is refused here, as the JDK's compile of its own
    // translation refuses it.
    regex::Regex::new(&regex).map_err(|error| format!("Invalid glob \"{glob}\": {error}"))?;
    Ok(regex)
}

fn regex_escape(c: char) -> String {
    regex::escape(c.encode_utf8(&mut [0; 4]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs_with_empty_or_reversed_classes_are_refused() {
        for glob in ["[]", "[!]"] {
            let refused = glob_to_regex(glob).expect_err(glob);
            assert!(refused.starts_with("Invalid glob"), "{glob}: {refused}");
        }
        assert_eq!(
            glob_to_regex("[ab]*.log"),
            Ok("^[[^/]&&[ab]][^/]*\\.log$".to_string())
        );
        // As the JDK: a `-` that starts no range, or a range that descends, is refused.
        for glob in ["[a-c-e]", "[c-a]", "a[z-a]"] {
            let refused = glob_to_regex(glob).expect_err(glob);
            assert!(refused.starts_with("Invalid range"), "{glob}: {refused}");
        }
        // A class never matches the separator, negated or not.
        let class = regex::Regex::new(&glob_to_regex("x[!a]y").unwrap()).unwrap();
        assert!(class.is_match("xby") && !class.is_match("x/y"));
    }

    #[test]
    fn sizes_are_1024_based_with_optional_units() {
        assert_eq!(parse_size("10 MB"), Ok(10 * 1024 * 1024));
        assert_eq!(parse_size("250kb"), Ok(250 * 1024));
        assert_eq!(parse_size("1.5 K"), Ok(1536));
        // log4j2 reads `,` as a thousands separator (the root locale's).
        assert_eq!(parse_size("1,5 K"), Ok(15 * 1024));
        assert_eq!(parse_size("1,000 K"), Ok(1000 * 1024));
        assert!(parse_size(".5 K").is_err());
        assert!(parse_size("5. K").is_err());
        assert_eq!(parse_size("9999999999 TB"), Ok(i64::MAX as u64));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("100"), Ok(100));
        assert_eq!(parse_size("7 B"), Ok(7));
        assert!(parse_size("ten MB").is_err());
        assert!(parse_size("10 XB").is_err());
        assert!(parse_size("").is_err());
    }

    #[test]
    fn ages_read_days_to_seconds() {
        assert_eq!(parse_age("30d"), Ok(30 * 86_400_000));
        assert_eq!(parse_age("P7D"), Ok(7 * 86_400_000));
        assert_eq!(parse_age("PT12H"), Ok(12 * 3_600_000));
        assert_eq!(
            parse_age("1d12h30m5s"),
            Ok(86_400_000 + 12 * 3_600_000 + 30 * 60_000 + 5_000)
        );
        assert!(parse_age("5h1d").is_err());
        assert!(parse_age("10 days").is_err());
        assert!(parse_age("").is_err());
    }

    #[test]
    fn globs_follow_the_jdk_syntax() {
        let matches = |glob: &str, path: &str| {
            regex::Regex::new(&glob_to_regex(glob).unwrap())
                .unwrap()
                .is_match(path)
        };
        assert!(matches("*.log.gz", "app-1.log.gz"));
        assert!(!matches("*.log.gz", "dir/app-1.log.gz"));
        assert!(matches("**/*.log.gz", "dir/app-1.log.gz"));
        assert!(matches("app-?.{log,txt}", "app-1.txt"));
        assert!(matches("app-[!0-4].log", "app-7.log"));
        assert!(!matches("app-[!0-4].log", "app-3.log"));
        assert!(matches("a+b(c).log", "a+b(c).log"));
        assert!(glob_to_regex("app-[0-9.log").is_err());
        assert!(glob_to_regex("{a,{b}}").is_err());
    }
}
