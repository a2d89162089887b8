//! Converters that decide what to keep of a sub-pattern's output: `%equals`,
//! `%equalsIgnoreCase`, `%notEmpty` (and aliases), `%maxLen` and `%repeat`.

use l4rs_core::{status, LogEvent};

use super::CreateError;
use crate::modifiers::{field_start, truncate_back, utf16_len};
use crate::parser::{self, ParseOptions};
use crate::pattern::Pattern;

/// `%equals{pattern}{test}{substitution}`.
pub(crate) struct EqualsConverter {
    pattern: Pattern,
    test: Box<str>,
    substitution: Substitution,
    ignore_case: bool,
}

/// log4j2 parses the substitution as a pattern only when it contains `%`; otherwise it is
/// copied verbatim (no backslash escapes).
enum Substitution {
    Text(Box<str>),
    Pattern(Pattern),
}

impl EqualsConverter {
    /// Requires exactly three options.
    pub(crate) fn new(
        options: &[String],
        ignore_case: bool,
        parse: &ParseOptions,
    ) -> Result<EqualsConverter, CreateError> {
        let name = if ignore_case {
            "equalsIgnoreCase"
        } else {
            "equals"
        };
        if options.len() != 3 {
            status::error(format_args!(
                "Incorrect number of options on {name}. Expected 3 received {}",
                options.len()
            ));
            return Err(CreateError::Failed);
        }
        let substitution = if options[2].contains('%') {
            Substitution::Pattern(parser::parse_nested(&options[2], parse)?)
        } else {
            Substitution::Text(options[2].as_str().into())
        };
        Ok(EqualsConverter {
            pattern: parser::parse_nested(&options[0], parse)?,
            test: options[1].as_str().into(),
            substitution,
            ignore_case,
        })
    }

    /// The sub-pattern and, when it is one, the substitution pattern.
    pub(crate) fn patterns(&self) -> [Option<&Pattern>; 2] {
        let substitution = match &self.substitution {
            Substitution::Pattern(pattern) => Some(pattern),
            Substitution::Text(_) => None,
        };
        [Some(&self.pattern), substitution]
    }

    /// Formats the sub-pattern in place and swaps it for the substitution when it equals
    /// the test string.
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String, base: usize) {
        let start = out.len();
        self.pattern.format_from(event, out, base);
        let start = field_start(out, start);
        let produced = &out[start..];
        let equal = if self.ignore_case {
            java_equals_ignore_case(produced, &self.test)
        } else {
            produced == &*self.test
        };
        if equal {
            out.truncate(start);
            match &self.substitution {
                Substitution::Text(text) => out.push_str(text),
                Substitution::Pattern(pattern) => pattern.format_from(event, out, base),
            }
        }
    }
}

/// `String.equalsIgnoreCase`: char by char, upper- or lower-case equal.
fn java_equals_ignore_case(a: &str, b: &str) -> bool {
    let mut left = a.chars();
    let mut right = b.chars();
    loop {
        match (left.next(), right.next()) {
            (None, None) => return true,
            (Some(x), Some(y)) => {
                if x != y
                    && !x.to_uppercase().eq(y.to_uppercase())
                    && !x.to_lowercase().eq(y.to_lowercase())
                {
                    return false;
                }
            }
            _ => return false,
        }
    }
}

/// `%notEmpty{pattern}`: requires exactly one option.
pub(crate) fn not_empty(options: &[String], parse: &ParseOptions) -> Result<Pattern, CreateError> {
    if options.len() != 1 {
        status::error(format_args!(
            "Incorrect number of options on varsNotEmpty. Expected 1 received {}",
            options.len()
        ));
        return Err(CreateError::Failed);
    }
    Ok(parser::parse_nested(&options[0], parse)?)
}

/// Formats `pattern` in place and removes it all again unless some converter that depends
/// on the event wrote something (2.19: `[]` from `%x` and `{}` from `%X` count as written).
pub(crate) fn format_not_empty(
    pattern: &Pattern,
    event: &LogEvent<'_>,
    out: &mut String,
    base: usize,
) {
    let start = out.len();
    let mut any_variable_written = false;
    for formatter in &pattern.formatters {
        let before = out.len();
        formatter.format(event, out, base);
        if formatter.converter.is_variable() && out.len() > before {
            any_variable_written = true;
        }
    }
    if !any_variable_written {
        out.truncate(field_start(out, start));
    }
}

/// `%maxLen{pattern}{n}` / `%maxLength`.
pub(crate) struct MaxLengthConverter {
    pub pattern: Pattern,
    /// A Java `int`, as in log4j2; a negative length cuts into the text before the converter.
    max: i32,
}

impl MaxLengthConverter {
    /// Requires two options. The length is read as log4j2's `Integers.parseInt` reads it:
    /// an empty option means 100; otherwise the option, trimmed, must be a Java `int`, or an
    /// ERROR is reported and 100 used. A negative length is reported too (log4j2 says nothing).
    pub(crate) fn new(
        options: &[String],
        parse: &ParseOptions,
    ) -> Result<MaxLengthConverter, CreateError> {
        if options.len() != 2 {
            status::error(format_args!(
                "Incorrect number of options on maxLength: expected 2 received {}: {:?}",
                options.len(),
                options
            ));
            return Err(CreateError::Failed);
        }
        let max = parse_java_int(&options[1]).unwrap_or_else(|trimmed| {
            status::error(format_args!(
                "Could not parse \"{}\" as an integer,  using default value 100: java.lang.NumberFormatException: For input string: \"{trimmed}\"",
                options[1]
            ));
            100
        });
        if max < 0 {
            let cut = max.unsigned_abs();
            status::error(format_args!(
                "The length {max} of maxLength{{{}}}{{{}}} is negative: as in log4j2, the converter prints nothing and removes the {cut} characters before it (log4j2 fails the whole event when fewer precede it; l4rs then removes those there are). Use a length of 0 or more.",
                options[0], options[1]
            ));
        }
        Ok(MaxLengthConverter {
            pattern: parser::parse_nested(&options[0], parse)?,
            max,
        })
    }

    /// Truncates the sub-pattern's output to `n` UTF-16 units, adding `...` when `n > 20`.
    /// As in log4j2, the converters after the one that crosses the limit are not run (a `%sn`
    /// there does not count), and a negative `n` sets the text back to `n` units before the
    /// converter's start, counted from `base` (where log4j2's buffer starts).
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String, base: usize) {
        let start = out.len();
        let Ok(max) = usize::try_from(self.max) else {
            if let Some(first) = self.pattern.formatters.first() {
                first.format(event, out, base);
            }
            let start = field_start(out, start);
            out.truncate(start);
            let base = base.min(start);
            let before = utf16_len(&out[base..]);
            let cut = self.max.unsigned_abs() as usize;
            truncate_back(out, base, before.saturating_sub(cut));
            return;
        };
        // Counts the UTF-16 units written so far incrementally: each converter only changes
        // the text from where it started. Should a nested negative `%maxLen` have cut further
        // back, the count starts over.
        let mut counted = start;
        let mut units = 0;
        for formatter in &self.pattern.formatters {
            formatter.format(event, out, base);
            match out.get(counted..) {
                Some(new_text) => units += utf16_len(new_text),
                None => units = out.get(start..).map_or(0, utf16_len),
            }
            counted = out.len();
            if units > max {
                break;
            }
        }
        let start = field_start(out, start);
        if out.len() - start > max && utf16_len(&out[start..]) > max {
            truncate_back(out, start, max);
            if max > 20 {
                out.push_str("...");
            }
        }
    }
}

/// log4j2's `Integers.parseInt(s, 100)`: an empty option means 100, anything else is trimmed
/// as Java's `String.trim` does (every character up to U+0020) and must be an optionally
/// signed decimal `int`. `Err` carries the trimmed text for the `NumberFormatException`.
fn parse_java_int(option: &str) -> Result<i32, &str> {
    if option.is_empty() {
        return Ok(100);
    }
    let trimmed = option.trim_matches(|c| c <= ' ');
    trimmed.parse::<i32>().map_err(|_| trimmed)
}

/// `%repeat{text}{count}`: the text repeated, computed once.
pub(crate) fn repeat(options: &[String]) -> Result<Box<str>, CreateError> {
    if options.len() != 2 {
        status::error(format_args!(
            "Incorrect number of options on repeat. Expected 2 received {}",
            options.len()
        ));
        return Err(CreateError::Failed);
    }
    match options[1].trim().parse::<i64>() {
        Ok(count) => Ok(options[0]
            .repeat(count.clamp(0, 1 << 16) as usize)
            .into_boxed_str()),
        Err(_) => {
            status::error(format_args!(
                "The repeat count is not an integer: {}",
                options[1].trim()
            ));
            Ok(options[0].as_str().into())
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{event, render};
    use l4rs_core::{ContextMap, ContextStack, Message};

    #[test]
    fn equals_and_not_empty() {
        let mut e = event();
        assert_eq!(render("%equals{[%marker]}{[]}{}%m|%equals{%m}{Hello, world}{a\\tb}|%equalsIgnoreCase{%p}{info}{I}", &e), "Hello, world|a\\tb|I");
        assert_eq!(render("%notEmpty{[%marker]}|%notEmpty{%n}|%notEmpty{[%x]}|%notEmpty{[%X]}|%notEmpty{%5X{a}}", &e), "||[[]]|[{}]|     ");
        let mut map = ContextMap::new();
        map.insert("var", "1234");
        e.context_map = &map;
        assert_eq!(render("%notEmpty{ %maxLen{%X{var}}{3} }", &e), " 123 ");
        let mut stack = ContextStack::new();
        stack.push("n1");
        e.context_stack = &stack;
        assert_eq!(render("%notEmpty{%x}", &e), "[n1]");
    }

    #[test]
    fn max_length_and_repeat() {
        let mut e = event();
        e.message = Message::Text("012345678901234567890123456789");
        assert_eq!(
            render("%maxLen{%m}{10}|%maxLen{%m}{21}|%maxLength{%m}{40}", &e),
            "0123456789|012345678901234567890...|012345678901234567890123456789"
        );
        assert_eq!(render("%repeat{*}{10}|%repeat{ab}{x}", &e), "**********|ab");
        e.message = Message::Text("😀😀");
        assert_eq!(render("%maxLen{%m}{3}", &e), "😀?");
    }
}
