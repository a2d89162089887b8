//! An event's row: the text each parameter's layout formatted, and the values bound from it
//! with log4j2's conversions.

use std::cell::Cell;
use std::sync::Arc;

use l4rs_config::model::JdbcTextBinding;
use l4rs_core::{status, Layout};

/// Where a bound parameter's value comes from.
pub(crate) enum Source {
    /// The text a layout formats, converted by the binding.
    Layout(Arc<dyn Layout>, JdbcTextBinding),
    /// The event's time.
    Timestamp,
    /// Nothing l4rs has: a `MapMessage` value.
    Null,
}

/// One event's parameters before binding: a text per parameter (empty for those that are not
/// formatted) and the event's time. Rows are reused, so formatting allocates nothing once their
/// strings have grown.
#[derive(Clone, Default)]
pub(crate) struct Row {
    /// The formatted text of each parameter, in parameter order.
    pub(crate) texts: Vec<String>,
    /// The event's time, in milliseconds since the epoch.
    pub(crate) epoch_millis: i64,
    /// Set once the row was bound: text its number parameters could not read was reported
    /// then, and is not again when the row is bound once more (alone, after the database
    /// refused its batch, or on a new connection).
    pub(crate) bound: Cell<bool>,
}

impl Row {
    /// Overwrites `self` with `other`, reusing `self`'s strings.
    pub(crate) fn copy_from(&mut self, other: &Row) {
        self.texts.resize_with(other.texts.len(), String::new);
        for (into, from) in self.texts.iter_mut().zip(&other.texts) {
            into.clone_from(from);
        }
        self.epoch_millis = other.epoch_millis;
        self.bound.set(other.bound.get());
    }
}

/// A value as it is bound.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Value<'a> {
    /// SQL NULL.
    Null,
    /// Text.
    Text(&'a str),
    /// A whole number.
    Integer(i64),
    /// A floating-point number.
    Real(f64),
    /// A boolean.
    Boolean(bool),
    /// The event's time, in milliseconds since the epoch.
    Timestamp(i64),
}

/// The value of parameter `index` of `row`, cut to `limit` characters when it is text and the
/// column declares a length (log4j2's `truncateStrings`); with `warn`, text a number parameter
/// cannot read is reported.
pub(crate) fn value<'a>(
    source: &Source,
    row: &'a Row,
    index: usize,
    limit: Option<usize>,
    warn: bool,
) -> Value<'a> {
    let text = row.texts.get(index).map_or("", String::as_str);
    match source {
        Source::Null => Value::Null,
        Source::Timestamp => Value::Timestamp(row.epoch_millis),
        Source::Layout(_, JdbcTextBinding::Text) => Value::Text(truncated(text, limit)),
        // log4j2 hands a CLOB to its driver as a reader, uncut.
        Source::Layout(_, JdbcTextBinding::Clob) => Value::Text(text),
        // log4j2 converts the text with its TypeConverters, which give null for text they
        // cannot parse.
        Source::Layout(_, JdbcTextBinding::Integer) => java_integer(text)
            .map_or_else(|| unconverted(text, "whole number", warn), Value::Integer),
        Source::Layout(_, JdbcTextBinding::Real) => {
            java_double(text).map_or_else(|| unconverted(text, "number", warn), Value::Real)
        }
        // `Boolean.valueOf`: true for "true" in any case, false for anything else.
        Source::Layout(_, JdbcTextBinding::Boolean) => {
            Value::Boolean(text.eq_ignore_ascii_case("true"))
        }
    }
}

/// NULL, after log4j2's warning (with `warn`) for text its converter could not read.
fn unconverted(text: &str, kind: &str, warn: bool) -> Value<'static> {
    if warn {
        status::warn(format_args!(
            "Error while converting string [{text}] to a {kind}. Using default value [null]."
        ));
    }
    Value::Null
}

/// `text` cut to at most `limit` characters (log4j2 cuts Java chars, UTF-16 units; a
/// character is never split here, and databases count characters).
fn truncated(text: &str, limit: Option<usize>) -> &str {
    match limit {
        Some(limit) => match text.char_indices().nth(limit) {
            Some((end, _)) => &text[..end],
            None => text,
        },
        None => text,
    }
}

/// `Long.valueOf`: an optional sign and decimal digits, nothing else.
fn java_integer(text: &str) -> Option<i64> {
    let digits = text.strip_prefix(['+', '-']).unwrap_or(text);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// `Double.valueOf`: surrounding whitespace ignored, an optional `d`/`f` suffix, and Java's
/// `NaN` and `Infinity`.
fn java_double(text: &str) -> Option<f64> {
    let text = text.trim();
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    if unsigned == "NaN" {
        return Some(f64::NAN);
    }
    if unsigned == "Infinity" {
        return Some(if text.starts_with('-') {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        });
    }
    let number = text.strip_suffix(['d', 'D', 'f', 'F']).unwrap_or(text);
    // Rust accepts `inf` and `nan` spellings Java refuses.
    if number
        .bytes()
        .any(|b| b.is_ascii_alphabetic() && !matches!(b, b'e' | b'E'))
    {
        return None;
    }
    number.parse().ok()
}

/// The length a column's declared type allows, from SQL text such as `VARCHAR(20)` or
/// `character varying(20)`: the first number in parentheses, for character types only.
pub(crate) fn declared_text_length(declared: &str) -> Option<usize> {
    let upper = declared.to_ascii_uppercase();
    if !(upper.contains("CHAR") || upper.contains("TEXT")) {
        return None;
    }
    let (_, after) = upper.split_once('(')?;
    let number = after.split([',', ')']).next()?.trim();
    number.parse().ok().filter(|&length| length > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Text;
    impl Layout for Text {
        fn format(&self, _event: &l4rs_core::LogEvent<'_>, _out: &mut String) {}
    }

    fn layout(binding: JdbcTextBinding) -> Source {
        Source::Layout(Arc::new(Text), binding)
    }

    fn row(text: &str) -> Row {
        Row {
            texts: vec![text.to_string()],
            epoch_millis: 42,
            bound: Cell::new(false),
        }
    }

    #[test]
    fn conversions_as_javas() {
        let integer = layout(JdbcTextBinding::Integer);
        assert_eq!(
            value(&integer, &row("-12"), 0, None, true),
            Value::Integer(-12)
        );
        assert_eq!(value(&integer, &row(" 12"), 0, None, true), Value::Null);
        assert_eq!(
            value(&integer, &row("99999999999999999999"), 0, None, true),
            Value::Null
        );
        let real = layout(JdbcTextBinding::Real);
        assert_eq!(
            value(&real, &row(" 1.5d "), 0, None, true),
            Value::Real(1.5)
        );
        assert_eq!(
            value(&real, &row("-Infinity"), 0, None, true),
            Value::Real(f64::NEG_INFINITY)
        );
        assert_eq!(value(&real, &row("inf"), 0, None, true), Value::Null);
        assert_eq!(
            value(&real, &row("1e3"), 0, None, true),
            Value::Real(1000.0)
        );
        let boolean = layout(JdbcTextBinding::Boolean);
        assert_eq!(
            value(&boolean, &row("TRUE"), 0, None, true),
            Value::Boolean(true)
        );
        assert_eq!(
            value(&boolean, &row("yes"), 0, None, true),
            Value::Boolean(false)
        );
        assert_eq!(
            value(&Source::Timestamp, &row(""), 0, None, true),
            Value::Timestamp(42)
        );
        assert_eq!(value(&Source::Null, &row("x"), 0, None, true), Value::Null);
    }

    #[test]
    fn text_is_cut_to_the_declared_length_by_characters() {
        let text = layout(JdbcTextBinding::Text);
        assert_eq!(
            value(&text, &row("héllo wörld"), 0, Some(5), true),
            Value::Text("héllo")
        );
        assert_eq!(
            value(&text, &row("short"), 0, Some(50), true),
            Value::Text("short")
        );
        assert_eq!(
            value(&text, &row("short"), 0, None, true),
            Value::Text("short")
        );
    }

    #[test]
    fn declared_lengths() {
        assert_eq!(declared_text_length("VARCHAR(20)"), Some(20));
        assert_eq!(declared_text_length("nvarchar ( 7 )"), Some(7));
        assert_eq!(declared_text_length("character varying(30)"), Some(30));
        assert_eq!(declared_text_length("TEXT"), None);
        assert_eq!(declared_text_length("DECIMAL(10,2)"), None);
        assert_eq!(declared_text_length("CHAR(0)"), None);
    }

    #[test]
    fn copying_a_row_reuses_its_strings() {
        let mut into = Row::default();
        into.copy_from(&row("first"));
        let capacity = into.texts[0].capacity();
        into.copy_from(&row("2nd"));
        assert_eq!(into.texts, vec!["2nd".to_string()]);
        assert_eq!(into.texts[0].capacity(), capacity);
        assert_eq!(into.epoch_millis, 42);
    }
}
