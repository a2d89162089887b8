//! The pattern parser: log4j2's `PatternParser`, state for state.
//!
//! The quirks are deliberate, since configurations in the wild depend on them: converter
//! names are matched by longest prefix with the unmatched tail printed as text, an unclosed
//! `{` swallows everything up to the last `}` of the pattern, unknown converters print their
//! own text, and literal text gets Java-style backslash escapes.

use std::sync::Arc;

use l4rs_core::{status, Interpolator};

use crate::converters::{self, Kind};
use crate::modifiers::{FormattingInfo, JAVA_INT_MAX, MAX_PADDING_WIDTH};
use crate::pattern::{Converter, Formatter, Literal, Pattern};

/// What the parser needs beyond the pattern text.
#[derive(Clone, Default)]
pub(crate) struct ParseOptions {
    pub interpolator: Option<Arc<dyn Interpolator>>,
    pub disable_ansi: bool,
    pub no_console_no_ansi: bool,
    pub console: bool,
}

impl ParseOptions {
    /// The options a composite converter parses its sub-pattern with: log4j2 2.19 passes
    /// neither `disableAnsi` nor `noConsoleNoAnsi` down.
    pub(crate) fn nested(&self) -> ParseOptions {
        ParseOptions {
            interpolator: self.interpolator.clone(),
            disable_ansi: false,
            no_console_no_ansi: false,
            console: self.console,
        }
    }

    /// True when ANSI escapes must be left out.
    pub(crate) fn hide_ansi(&self) -> bool {
        self.disable_ansi || (self.no_console_no_ansi && !self.console)
    }
}

/// The pattern cannot be used at all (log4j2 throws `IllegalArgumentException`).
#[derive(Debug)]
pub(crate) struct ParseError(pub String);

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    Literal,
    Converter,
    Min,
    Dot,
    Max,
}

/// Parses a top-level pattern; with `always_write_exceptions`, appends `%xEx` when nothing
/// else prints the throwable.
pub(crate) fn parse(
    pattern: &str,
    options: &ParseOptions,
    always_write_exceptions: bool,
) -> Result<Pattern, ParseError> {
    let mut formatters = parse_formatters(pattern, options)?;
    let handles_throwable = formatters.iter().any(|f| f.converter.handles_throwable());
    if always_write_exceptions && !handles_throwable {
        formatters.push(Formatter {
            converter: converters::implicit_throwable(),
            info: None,
        });
    }
    Ok(Pattern { formatters })
}

/// Parses the sub-pattern of a composite converter (`%highlight{…}`, `%replace{…}` …).
pub(crate) fn parse_nested(pattern: &str, options: &ParseOptions) -> Result<Pattern, ParseError> {
    parse(pattern, &options.nested(), false)
}

fn parse_formatters(pattern: &str, options: &ParseOptions) -> Result<Vec<Formatter>, ParseError> {
    let chars: Vec<char> = pattern.chars().collect();
    let len = chars.len();
    let mut formatters: Vec<Formatter> = Vec::new();
    let mut literal = String::new();
    let mut info = FormattingInfo::default();
    let mut state = State::Literal;
    let mut i = 0;
    let fail = |_: ()| ParseError(format!("Cannot parse pattern '{pattern}'"));
    // Ends a conversion specifier at `c`; returns the index after the converter's options.
    let finish = |c, i, literal: &mut String, info, formatters: &mut Vec<Formatter>| {
        finalize(c, pattern, &chars, i, literal, info, formatters, options).map_err(fail)
    };

    while i < len {
        let c = chars[i];
        i += 1;
        match state {
            State::Literal => {
                if i == len {
                    literal.push(c);
                    continue;
                }
                if c == '%' {
                    if chars[i] == '%' {
                        literal.push(c);
                        i += 1;
                    } else {
                        if !literal.is_empty() {
                            formatters.push(literal_formatter(&literal, options).map_err(fail)?);
                        }
                        literal.clear();
                        literal.push(c);
                        state = State::Converter;
                        info = FormattingInfo::default();
                    }
                } else {
                    literal.push(c);
                }
            }
            State::Converter => {
                literal.push(c);
                match c {
                    '0' => info.zero_pad = true,
                    '-' => info.left_align = true,
                    '.' => state = State::Dot,
                    _ if c.is_ascii_digit() => {
                        info.min = append_digit(0, c);
                        state = State::Min;
                    }
                    _ => {
                        i = finish(c, i, &mut literal, info, &mut formatters)?;
                        state = State::Literal;
                    }
                }
            }
            State::Min => {
                literal.push(c);
                if c.is_ascii_digit() {
                    info.min = append_digit(info.min, c);
                } else if c == '.' {
                    state = State::Dot;
                } else {
                    i = finish(c, i, &mut literal, info, &mut formatters)?;
                    state = State::Literal;
                }
            }
            State::Dot => {
                literal.push(c);
                if c == '-' {
                    info.left_truncate = false;
                } else if c.is_ascii_digit() {
                    info.max = append_digit(0, c);
                    state = State::Max;
                } else {
                    status::error(format_args!(
                        "Error occurred in position {i}.\n Was expecting digit, instead got char \"{c}\"."
                    ));
                    state = State::Literal;
                }
            }
            State::Max => {
                literal.push(c);
                if c.is_ascii_digit() {
                    info.max = append_digit(info.max, c);
                } else {
                    i = finish(c, i, &mut literal, info, &mut formatters)?;
                    state = State::Literal;
                }
            }
        }
    }
    if !literal.is_empty() {
        formatters.push(literal_formatter(&literal, options).map_err(fail)?);
    }
    Ok(formatters)
}

/// `value` with the decimal digit `digit` appended. Anything past a Java `int` stays at
/// `Integer.MAX_VALUE + 1`, which [`checked_widths`] refuses, so however many digits a width
/// has it never reaches `usize::MAX`, the "no maximum" of [`FormattingInfo`].
fn append_digit(value: usize, digit: char) -> usize {
    value
        .saturating_mul(10)
        .saturating_add(digit as usize - '0' as usize)
        .min(JAVA_INT_MAX + 1)
}

/// Reads the converter name starting with `c` and its options, creates the converter and
/// pushes it (or, when that fails, its text as a literal). Returns the index after the options.
#[allow(clippy::too_many_arguments)]
fn finalize(
    c: char,
    pattern: &str,
    chars: &[char],
    start: usize,
    literal: &mut String,
    info: FormattingInfo,
    formatters: &mut Vec<Formatter>,
    options: &ParseOptions,
) -> Result<usize, ()> {
    let mut i = start;
    let mut id = String::new();
    if is_identifier_start(c) {
        id.push(c);
        while i < chars.len() && is_identifier_part(chars[i]) {
            id.push(chars[i]);
            literal.push(chars[i]);
            i += 1;
        }
    }
    let mut converter_options = Vec::new();
    i = extract_options(chars, i, &mut converter_options);

    let matched = (1..=id.chars().count())
        .rev()
        .map(|n| {
            let end = id
                .char_indices()
                .nth(n)
                .map_or(id.len(), |(index, _)| index);
            &id[..end]
        })
        .find_map(|name| converters::lookup(name).map(|kind| (name.len(), kind)));
    let created = match matched {
        None => {
            status::error(format_args!("Unrecognized format specifier [{id}]"));
            None
        }
        Some((matched_len, kind)) => {
            let tail = id[matched_len..].to_string();
            create(kind, &id, &converter_options, options).map(|c| (c, tail))
        }
    };
    match created {
        Some((converter, tail)) => {
            let specifier = &literal[..literal.len() - tail.len()];
            let info = checked_widths(info, specifier, pattern);
            formatters.push(Formatter {
                converter,
                info: if info.is_default() { None } else { Some(info) },
            });
            if !tail.is_empty() {
                formatters.push(literal_formatter(&tail, options)?);
            }
        }
        None => {
            let position: usize = chars[..i].iter().map(|c| c.len_utf16()).sum();
            if id.is_empty() {
                status::error(format_args!(
                    "Empty conversion specifier starting at position {position} in conversion pattern."
                ));
            } else {
                status::error(format_args!(
                    "Unrecognized conversion specifier [{id}] starting at position {position} in conversion pattern."
                ));
            }
            formatters.push(literal_formatter(literal, options)?);
        }
    }
    literal.clear();
    Ok(i)
}

/// `info` without the widths l4rs refuses, each reported with an ERROR naming the converter
/// and the pattern.
///
/// log4j2 reads widths into a Java `int` with no overflow check: a longer width silently wraps
/// around (`%4294967301c` pads to 5, `%.2147483648c` becomes negative and makes every event
/// fail with `StringIndexOutOfBoundsException`), and a width that fits but is huge exhausts
/// memory or pads for hours. l4rs drops a minimum width above [`MAX_PADDING_WIDTH`] (the
/// converter prints unpadded) and a maximum width above `Integer.MAX_VALUE` (it prints
/// untruncated): the event keeps its text and the host keeps running.
fn checked_widths(mut info: FormattingInfo, specifier: &str, pattern: &str) -> FormattingInfo {
    if info.min > MAX_PADDING_WIDTH {
        status::error(format_args!(
            "The minimum width of {specifier} in pattern '{pattern}' is larger than {MAX_PADDING_WIDTH}; the converter is printed without padding. Use a width of at most {MAX_PADDING_WIDTH}."
        ));
        info.min = 0;
    }
    if info.max > JAVA_INT_MAX && info.max != usize::MAX {
        status::error(format_args!(
            "The maximum width of {specifier} in pattern '{pattern}' is larger than {JAVA_INT_MAX} (log4j2 would wrap it around); the converter is printed without truncation. Use a width of at most {JAVA_INT_MAX}."
        ));
        info.max = usize::MAX;
    }
    info
}

fn create(
    kind: Kind,
    id: &str,
    converter_options: &[String],
    options: &ParseOptions,
) -> Option<Converter> {
    match converters::create(kind, converter_options, options) {
        Ok(converter) => Some(converter),
        Err(converters::CreateError::Failed) => None,
        Err(converters::CreateError::Pattern(message)) => {
            status::error(format_args!(
                "Error creating converter for {id} java.lang.IllegalArgumentException: {message}"
            ));
            None
        }
    }
}

/// Reads `{…}` options after a converter name. Braces nest; an option left open takes
/// everything up to the last `}` of the pattern and yields no option at all.
fn extract_options(chars: &[char], start: usize, options: &mut Vec<String>) -> usize {
    let mut i = start;
    while i < chars.len() && chars[i] == '{' {
        i += 1;
        let begin = i;
        let mut depth = 1;
        while depth > 0 && i < chars.len() {
            match chars[i] {
                '{' => depth += 1,
                '}' => depth -= 1,
                _ => {}
            }
            i += 1;
        }
        if depth > 0 {
            return match chars.iter().rposition(|&c| c == '}') {
                Some(last) if last >= start => last + 1,
                _ => begin,
            };
        }
        options.push(chars[begin..i - 1].iter().collect());
    }
    i
}

fn literal_formatter(text: &str, options: &ParseOptions) -> Result<Formatter, ()> {
    let text = convert_special_chars(text)?;
    let interpolator = if text.contains("${") {
        options.interpolator.clone()
    } else {
        None
    };
    Ok(Formatter {
        converter: Converter::Literal(Literal {
            text: text.into_boxed_str(),
            interpolator,
        }),
        info: None,
    })
}

/// log4j2's `OptionConverter.convertSpecialChars`: `\n \r \t \f \b \" \' \\`, any other
/// escaped character stands for itself. A trailing backslash is an error, as in Java.
pub(crate) fn convert_special_chars(text: &str) -> Result<String, ()> {
    if !text.contains('\\') {
        return Ok(text.to_string());
    }
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            let escaped = chars.next().ok_or(())?;
            out.push(match escaped {
                'n' => '\n',
                'r' => '\r',
                't' => '\t',
                'f' => '\u{c}',
                'b' => '\u{8}',
                other => other,
            });
        } else {
            out.push(c);
        }
    }
    Ok(out)
}

/// Java's `Character.isUnicodeIdentifierStart`, close enough for converter names.
fn is_identifier_start(c: char) -> bool {
    c.is_alphabetic()
}

/// Java's `Character.isUnicodeIdentifierPart`: letters, digits, `_`, combining marks and the
/// "ignorable" control characters.
fn is_identifier_part(c: char) -> bool {
    c.is_alphanumeric()
        || c == '_'
        || matches!(c, '\u{0}'..='\u{8}' | '\u{e}'..='\u{1b}' | '\u{7f}'..='\u{9f}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn options_of(pattern: &str) -> (usize, Vec<String>) {
        let chars: Vec<char> = pattern.chars().collect();
        let mut options = Vec::new();
        let end = extract_options(&chars, 0, &mut options);
        (end, options)
    }

    #[test]
    fn options_nest_and_an_unclosed_brace_runs_to_the_last_closing_one() {
        assert_eq!(
            options_of("{a}{b{c}}x"),
            (9, vec!["a".into(), "b{c}".into()])
        );
        assert_eq!(options_of("{a] {b}] x"), (7, vec![]));
        assert_eq!(options_of("{abc"), (1, vec![]));
    }

    #[test]
    fn unknown_converters_print_their_text_and_report_log4j2_errors() {
        let e = crate::test_support::event();
        let (out, records) = l4rs_core::status::capture(|| {
            crate::test_support::render("C %q %m %foo{x} %t1 %-%m %.x|%", &e)
        });
        assert_eq!(out, "C %q Hello, world %foo main1 %-%m %.x|%");
        let messages: Vec<&str> = records.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(messages[..4], [
            "Unrecognized format specifier [q]",
            "Unrecognized conversion specifier [q] starting at position 4 in conversion pattern.",
            "Unrecognized format specifier [foo]",
            "Unrecognized conversion specifier [foo] starting at position 15 in conversion pattern.",
        ]);
        assert!(messages.contains(
            &"Empty conversion specifier starting at position 23 in conversion pattern."
        ));
        assert!(messages
            .iter()
            .any(|m| m.starts_with("Error occurred in position 28.")));
    }

    #[test]
    fn backslash_escapes_follow_java() {
        assert_eq!(
            convert_special_chars(r"a\tb\nc\\d\qe\'").unwrap(),
            "a\tb\nc\\dqe'"
        );
        assert!(convert_special_chars("x\\").is_err());
    }
}
