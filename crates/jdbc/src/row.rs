//! An event's row: the text each parameter's layout formatted, and the values bound from it
//! with log4j2's conversions.

use std::borrow::Cow;
use std::cell::Cell;
use std::sync::Arc;

use l4rs_config::model::{JavaNumber, JdbcTextBinding};
use l4rs_core::{status, Layout};

use crate::number::{
    java_big_decimal, java_big_integer, java_double, java_float, java_whole, JavaDecimal,
};

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

/// A value as it is bound: for a number, the Java object log4j2 hands its driver, which each
/// driver stores its own way (`database/sqlite.rs`, `database/postgres.rs`).
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Value<'a> {
    /// SQL NULL.
    Null,
    /// Text.
    Text(&'a str),
    /// A `java.lang.Integer`, `Long` or `Short`: an integer to both drivers.
    Integer(i64),
    /// A `java.lang.Byte`: xerial's driver binds its decimal text, pgjdbc a `smallint`.
    Byte(i8),
    /// A `java.math.BigInteger`, as its decimal text (`BigInteger.toString()`): xerial binds
    /// the text, pgjdbc a `numeric`.
    BigInteger(Cow<'a, str>),
    /// A `java.lang.Double`.
    Double(f64),
    /// A `java.lang.Float`: xerial binds it widened to a double, pgjdbc as a `real`.
    Float(f32),
    /// A `java.math.BigDecimal`: xerial binds `BigDecimal.toString()`, pgjdbc a `numeric`.
    BigDecimal(JavaDecimal),
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
        Source::Layout(_, JdbcTextBinding::Number(class)) => {
            number(text, *class).unwrap_or_else(|| unconverted(text, *class, warn))
        }
        // `Boolean.valueOf`: true for "true" in any case, false for anything else.
        Source::Layout(_, JdbcTextBinding::Boolean) => {
            Value::Boolean(text.eq_ignore_ascii_case("true"))
        }
    }
}

/// `text` converted as Java's `class` converts it, or `None` where it throws.
fn number(text: &str, class: JavaNumber) -> Option<Value<'_>> {
    Some(match class {
        JavaNumber::Integer => Value::Integer(java_whole(text, i32::MIN.into(), i32::MAX.into())?),
        JavaNumber::Long => Value::Integer(java_whole(text, i64::MIN, i64::MAX)?),
        JavaNumber::Short => Value::Integer(java_whole(text, i16::MIN.into(), i16::MAX.into())?),
        JavaNumber::Byte => Value::Byte(java_whole(text, i8::MIN.into(), i8::MAX.into())? as i8),
        JavaNumber::BigInteger => Value::BigInteger(java_big_integer(text)?),
        JavaNumber::Double => Value::Double(java_double(text)?),
        JavaNumber::Float => Value::Float(java_float(text)?),
        JavaNumber::BigDecimal => Value::BigDecimal(java_big_decimal(text)?),
    })
}

/// NULL, after log4j2's warning (with `warn`) for text the converter of `class` could not
/// read (without the Java exception log4j2 appends, whose text differs per class).
fn unconverted(text: &str, class: JavaNumber, warn: bool) -> Value<'static> {
    if warn {
        status::warn(format_args!(
            "Error while converting string [{text}] to type [class {}]. Using default value [null].",
            class.class_name()
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
        // The debug form, which holds no borrow of the row.
        let convert = |class: JavaNumber, text: &str| {
            let source = layout(JdbcTextBinding::Number(class));
            format!("{:?}", value(&source, &row(text), 0, None, true))
        };
        let debug = |value: Value<'_>| format!("{value:?}");
        assert_eq!(
            convert(JavaNumber::Integer, "-12"),
            debug(Value::Integer(-12))
        );
        assert_eq!(convert(JavaNumber::Integer, " 12"), debug(Value::Null));
        assert_eq!(
            convert(JavaNumber::Integer, "3000000000"),
            debug(Value::Null)
        );
        assert_eq!(
            convert(JavaNumber::Long, "3000000000"),
            debug(Value::Integer(3000000000))
        );
        assert_eq!(convert(JavaNumber::Short, "32768"), debug(Value::Null));
        assert_eq!(
            convert(JavaNumber::Short, "-32768"),
            debug(Value::Integer(-32768))
        );
        assert_eq!(convert(JavaNumber::Byte, "-128"), debug(Value::Byte(-128)));
        assert_eq!(convert(JavaNumber::Byte, "128"), debug(Value::Null));
        assert_eq!(
            convert(JavaNumber::BigInteger, "99999999999999999999"),
            debug(Value::BigInteger(Cow::Borrowed("99999999999999999999")))
        );
        assert_eq!(
            convert(JavaNumber::Double, " 1.5d "),
            debug(Value::Double(1.5))
        );
        assert_eq!(
            convert(JavaNumber::Double, "-Infinity"),
            debug(Value::Double(f64::NEG_INFINITY))
        );
        assert_eq!(convert(JavaNumber::Double, "inf"), debug(Value::Null));
        assert_eq!(convert(JavaNumber::Float, "0.1"), debug(Value::Float(0.1)));
        assert_eq!(convert(JavaNumber::BigDecimal, "1.5d"), debug(Value::Null));
        assert_eq!(convert(JavaNumber::BigDecimal, "NaN"), debug(Value::Null));
        assert_eq!(
            convert(JavaNumber::BigDecimal, "1e3"),
            debug(Value::BigDecimal(JavaDecimal {
                negative: false,
                digits: "1".to_string(),
                scale: -3
            }))
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
    fn text_a_number_mapping_cannot_read_is_reported_once() {
        let integer = layout(JdbcTextBinding::Number(JavaNumber::Integer));
        let (_, records) = status::capture(|| {
            assert_eq!(value(&integer, &row("x"), 0, None, true), Value::Null);
            assert_eq!(value(&integer, &row("y"), 0, None, false), Value::Null);
        });
        let messages: Vec<&str> = records.iter().map(|r| r.message.as_str()).collect();
        assert_eq!(
            messages,
            ["Error while converting string [x] to type [class java.lang.Integer]. Using default value [null]."]
        );
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
