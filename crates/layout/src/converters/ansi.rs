//! `%highlight`, `%style` and the colour shorthands (`%red{…}` …): ANSI escape sequences.

use std::fmt::Write as _;

use l4rs_core::status::ReportLimit;
use l4rs_core::{status, Level, LogEvent};

use super::level::split_comma;
use super::CreateError;
use crate::parser::{self, ParseOptions};
use crate::pattern::Pattern;

/// The reset sequence log4j2 writes after styled text.
pub(crate) const RESET: &str = "\u{1b}[m";

/// log4j2's `AnsiEscape` names and codes.
const CODES: &[(&str, &str)] = &[
    ("NORMAL", "0"),
    ("BRIGHT", "1"),
    ("BOLD", "1"),
    ("DIM", "2"),
    ("UNDERLINE", "3"),
    ("BLINK", "5"),
    ("REVERSE", "7"),
    ("HIDDEN", "8"),
    ("BLACK", "30"),
    ("FG_BLACK", "30"),
    ("RED", "31"),
    ("FG_RED", "31"),
    ("GREEN", "32"),
    ("FG_GREEN", "32"),
    ("YELLOW", "33"),
    ("FG_YELLOW", "33"),
    ("BLUE", "34"),
    ("FG_BLUE", "34"),
    ("MAGENTA", "35"),
    ("FG_MAGENTA", "35"),
    ("CYAN", "36"),
    ("FG_CYAN", "36"),
    ("WHITE", "37"),
    ("FG_WHITE", "37"),
    ("DEFAULT", "39"),
    ("FG_DEFAULT", "39"),
    ("BG_BLACK", "40"),
    ("BG_RED", "41"),
    ("BG_GREEN", "42"),
    ("BG_YELLOW", "43"),
    ("BG_BLUE", "44"),
    ("BG_MAGENTA", "45"),
    ("BG_CYAN", "46"),
    ("BG_WHITE", "47"),
    ("BRIGHT_BLACK", "90"),
    ("FG_BRIGHT_BLACK", "90"),
    ("BRIGHT_RED", "91"),
    ("FG_BRIGHT_RED", "91"),
    ("BRIGHT_GREEN", "92"),
    ("FG_BRIGHT_GREEN", "92"),
    ("BRIGHT_YELLOW", "93"),
    ("FG_BRIGHT_YELLOW", "93"),
    ("BRIGHT_BLUE", "94"),
    ("FG_BRIGHT_BLUE", "94"),
    ("BRIGHT_MAGENTA", "95"),
    ("FG_BRIGHT_MAGENTA", "95"),
    ("BRIGHT_CYAN", "96"),
    ("FG_BRIGHT_CYAN", "96"),
    ("BRIGHT_WHITE", "97"),
    ("FG_BRIGHT_WHITE", "97"),
    ("BG_BRIGHT_BLACK", "100"),
    ("BG_BRIGHT_RED", "101"),
    ("BG_BRIGHT_GREEN", "102"),
    ("BG_BRIGHT_YELLOW", "103"),
    ("BG_BRIGHT_BLUE", "104"),
    ("BG_BRIGHT_MAGENTA", "105"),
    ("BG_BRIGHT_CYAN", "106"),
    ("BG_BRIGHT_WHITE", "107"),
];

/// Appends the code of one style word; `#rrggbb` (optionally `FG_`/`BG_` prefixed) gives a
/// 24-bit colour. Returns false for an unknown word.
fn push_code(word: &str, out: &mut String) -> bool {
    let word = word.trim();
    let strip = |prefix: &str| {
        word.get(..prefix.len())
            .filter(|head| head.eq_ignore_ascii_case(prefix))
            .map(|_| &word[prefix.len()..])
    };
    let (base, hex) = if let Some(hex) = strip("BG_#") {
        ("48", Some(hex))
    } else if let Some(hex) = strip("FG_#").or_else(|| strip("#")) {
        ("38", Some(hex))
    } else {
        ("", None)
    };
    if let Some(hex) = hex {
        if hex.len() == 6 && hex.bytes().all(|b| b.is_ascii_hexdigit()) {
            let channel = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
            let _ = write!(out, "{base};2;{};{};{}", channel(0), channel(2), channel(4));
            return true;
        }
        return false;
    }
    match CODES
        .iter()
        .find(|(name, _)| name.eq_ignore_ascii_case(word))
    {
        Some((_, code)) => {
            out.push_str(code);
            true
        }
        None => false,
    }
}

/// `AnsiEscape.createSequence`: `ESC[` codes joined by `;` then `m`. An unknown word is
/// reported and leaves an empty code (log4j2 still writes its separator). Words from an
/// event's message come with `limit`, which they are reported under; those from the
/// configuration are reported once anyway, when the pattern is built.
pub(crate) fn push_sequence<'a>(
    names: impl IntoIterator<Item = &'a str>,
    out: &mut String,
    limit: Option<&ReportLimit>,
) {
    out.push_str("\u{1b}[");
    for (index, name) in names.into_iter().enumerate() {
        if index > 0 {
            out.push(';');
        }
        if !push_code(name, out) {
            let report = format_args!(
                "The style attribute {name} is incorrect. java.lang.IllegalArgumentException: No enum constant org.apache.logging.log4j.core.pattern.AnsiEscape.{}",
                EnumConstant(name)
            );
            match limit {
                Some(limit) => limit.report(Level::WARN, report),
                None => status::warn(report),
            }
        }
    }
    out.push('m');
}

/// The `AnsiEscape` constant Java looks a style word up as (trimmed, upper-cased), written
/// only when a report is printed.
struct EnumConstant<'a>(&'a str);

impl std::fmt::Display for EnumConstant<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0
            .trim()
            .chars()
            .try_for_each(|c| f.write_char(c.to_ascii_uppercase()))
    }
}

fn sequence(names: &[&str]) -> String {
    let mut out = String::new();
    push_sequence(names.iter().copied(), &mut out, None);
    out
}

/// Java's `split` on a regex: leading empty pieces stay, trailing ones go.
fn java_split(text: &str, is_separator: impl Fn(char) -> bool) -> Vec<&str> {
    let mut pieces = Vec::new();
    let mut start = 0;
    let mut in_separator = false;
    for (index, c) in text.char_indices() {
        if is_separator(c) {
            if !in_separator {
                pieces.push(&text[start..index]);
            }
            in_separator = true;
            start = index + c.len_utf8();
        } else {
            in_separator = false;
        }
    }
    pieces.push(&text[start..]);
    while pieces.len() > 1 && pieces.last().is_some_and(|p| p.is_empty()) {
        pieces.pop();
    }
    pieces
}

/// `%highlight{pattern}{styles}`: the sub-pattern wrapped in the event level's style.
pub(crate) struct HighlightConverter {
    pub pattern: Pattern,
    styles: Vec<(Box<str>, Box<str>)>,
    hide: bool,
}

impl HighlightConverter {
    /// Parses the sub-pattern and the level styles (`STYLE=default|logback`, `LEVEL=words`).
    pub(crate) fn new(
        options: &[String],
        parse: &ParseOptions,
    ) -> Result<HighlightConverter, CreateError> {
        let Some(pattern) = options.first() else {
            status::error("Incorrect number of options on style. Expected at least 1, received 0");
            return Err(CreateError::Failed);
        };
        let pattern = parser::parse_nested(pattern, parse)?;
        let mut styles = default_styles(false);
        if let Some(spec) = options.get(1) {
            for entry in split_comma(spec) {
                let Some((key, value)) = entry.split_once('=') else {
                    continue;
                };
                let key = key.trim();
                let value = value.trim();
                if key.eq_ignore_ascii_case("STYLE") {
                    if value.eq_ignore_ascii_case("logback") {
                        styles = merge(styles, default_styles(true));
                    } else if value.eq_ignore_ascii_case("default") {
                        styles = merge(styles, default_styles(false));
                    } else {
                        status::error(format_args!(
                            "Unknown level style: {value}. Use one of [DEFAULT, LOGBACK]"
                        ));
                    }
                    continue;
                }
                let words: Vec<&str> = value.split(char::is_whitespace).collect();
                // A level declared later still matches by name when events arrive.
                if Level::from_name(key).is_err() {
                    status::warn(format_args!(
                        "Setting style for yet unknown level name {}",
                        key.to_ascii_uppercase()
                    ));
                }
                styles.retain(|(name, _)| !name.eq_ignore_ascii_case(key));
                styles.push((
                    key.to_ascii_uppercase().into_boxed_str(),
                    sequence(&words).into_boxed_str(),
                ));
            }
        }
        Ok(HighlightConverter {
            pattern,
            styles,
            hide: parse.hide_ansi(),
        })
    }

    /// Writes `style + content + reset`, nothing when the content is empty, and the content
    /// alone for a level without a style.
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String, base: usize) {
        let style = self
            .styles
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(event.level.name()))
            .map(|(_, style)| &**style);
        match style {
            Some(style) if !self.hide => wrap(style, &self.pattern, event, out, base),
            _ => self.pattern.format_from(event, out, base),
        }
    }
}

type Styles = Vec<(Box<str>, Box<str>)>;

fn merge(mut base: Styles, overrides: Styles) -> Styles {
    for (name, style) in overrides {
        base.retain(|(n, _)| *n != name);
        base.push((name, style));
    }
    base
}

fn default_styles(logback: bool) -> Styles {
    let table: [(&'static str, &[&str]); 6] = if logback {
        [
            ("FATAL", &["BLINK", "BRIGHT", "RED"]),
            ("ERROR", &["BRIGHT", "RED"]),
            ("WARN", &["RED"]),
            ("INFO", &["BLUE"]),
            ("DEBUG", &[]),
            ("TRACE", &[]),
        ]
    } else {
        [
            ("FATAL", &["BRIGHT", "RED"]),
            ("ERROR", &["BRIGHT", "RED"]),
            ("WARN", &["YELLOW"]),
            ("INFO", &["GREEN"]),
            ("DEBUG", &["CYAN"]),
            ("TRACE", &["BLACK"]),
        ]
    };
    table
        .iter()
        .map(|(name, words)| (Box::from(*name), sequence(words).into_boxed_str()))
        .collect()
}

/// Writes `style`, the sub-pattern and the reset; removes the style again when the
/// sub-pattern wrote nothing.
fn wrap(style: &str, pattern: &Pattern, event: &LogEvent<'_>, out: &mut String, base: usize) {
    let start = out.len();
    out.push_str(style);
    let content = out.len();
    pattern.format_from(event, out, base);
    if out.len() == content {
        out.truncate(crate::modifiers::field_start(out, start));
    } else {
        out.push_str(RESET);
    }
}

/// `%style{pattern}{words}` and the colour shorthands.
pub(crate) struct StyleConverter {
    pub pattern: Pattern,
    style: Box<str>,
    hide: bool,
    shorthand: bool,
}

impl StyleConverter {
    /// `%style{pattern}{style words}`. Without a style option log4j2 ends up styling with its
    /// own `disableAnsi=…` flag, an unknown word; that quirk is kept.
    pub(crate) fn new(
        options: &[String],
        parse: &ParseOptions,
    ) -> Result<StyleConverter, CreateError> {
        let Some(pattern) = options.first() else {
            status::error("Incorrect number of options on style. Expected at least 1, received 0");
            return Err(CreateError::Failed);
        };
        let pattern = parser::parse_nested(pattern, parse)?;
        let disable_flag = format!("disableAnsi={}", parse.disable_ansi);
        let spec = options.get(1).map_or(disable_flag.as_str(), String::as_str);
        let words = java_split(spec, |c| c.is_whitespace() || c == ',');
        Ok(StyleConverter {
            pattern,
            style: sequence(&words).into_boxed_str(),
            hide: parse.hide_ansi(),
            shorthand: false,
        })
    }

    /// `%red{pattern}` and friends; 2.19 ignores `disableAnsi` for these.
    pub(crate) fn shorthand(
        color: &str,
        options: &[String],
        parse: &ParseOptions,
    ) -> Result<StyleConverter, CreateError> {
        let Some(pattern) = options.first() else {
            status::error(format_args!(
                "Incorrect number of options on {color}. Expected 1, received 0"
            ));
            return Err(CreateError::Failed);
        };
        Ok(StyleConverter {
            pattern: parser::parse_nested(pattern, parse)?,
            style: sequence(&[color]).into_boxed_str(),
            hide: false,
            shorthand: true,
        })
    }

    /// `%style` counts as printing the throwable when its sub-pattern does; the shorthands
    /// never do (2.19).
    pub(crate) fn handles_throwable(&self) -> bool {
        !self.shorthand && self.pattern.handles_throwable()
    }

    /// Writes `style + content + reset`, nothing when the content is empty.
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String, base: usize) {
        if self.hide {
            self.pattern.format_from(event, out, base);
        } else {
            wrap(&self.style, &self.pattern, event, out, base);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::{event, render};

    #[test]
    fn sequences() {
        assert_eq!(sequence(&["red", "bright"]), "\u{1b}[31;1m");
        assert_eq!(sequence(&["#1cd42b"]), "\u{1b}[38;2;28;212;43m");
        assert_eq!(
            sequence(&["FG_#1cd42b", "BG_#000000"]),
            "\u{1b}[38;2;28;212;43;48;2;0;0;0m"
        );
        let (seq, records) = status::capture(|| sequence(&["foo", "red"]));
        assert_eq!(seq, "\u{1b}[;31m");
        assert_eq!(records.len(), 1);
        assert_eq!(sequence(&[]), "\u{1b}[m");
    }

    #[test]
    fn highlight_and_style() {
        let mut e = event();
        e.level = Level::WARN;
        assert_eq!(
            render(
                "%highlight{%p}|%highlight{}|%style{%p}{bold,cyan}|%red{%p}|%red{}",
                &e
            ),
            "\u{1b}[33mWARN\u{1b}[m||\u{1b}[1;36mWARN\u{1b}[m|\u{1b}[31mWARN\u{1b}[m|"
        );
        assert_eq!(
            render(
                "%highlight{%p}{STYLE=logback}|%highlight{%p}{WARN=blue bright}",
                &e
            ),
            "\u{1b}[31mWARN\u{1b}[m|\u{1b}[34;1mWARN\u{1b}[m"
        );
        e.level = Level::DEBUG;
        assert_eq!(
            render("%highlight{%p}{STYLE=logback}", &e),
            "\u{1b}[mDEBUG\u{1b}[m"
        );
    }

    #[test]
    fn java_split_keeps_leading_empties() {
        assert_eq!(
            java_split("red bright", |c| c == ' '),
            vec!["red", "bright"]
        );
        assert_eq!(java_split("", |c| c == ' '), vec![""]);
        assert_eq!(java_split(" red", |c| c == ' '), vec!["", "red"]);
    }
}
