//! log4j-core's `CsvLogEventLayout` and `CsvParameterLayout`: one record per event, printed as
//! commons-csv's `CSVFormat.print` prints values (its predefined formats, quoting and escapes).

use l4rs_config::model::{CsvLayoutKind, CsvLayoutSpec, CsvQuoteMode};
use l4rs_core::{Layout, LogEvent};

use super::LOGGER_FQCN;
use crate::charset::Charset;
use crate::converters::location::format_location;
use crate::scratch::with_scratch;
use crate::{LayoutContext, PatternLayout};

/// A resolved `CSVFormat`: the predefined format with the layout's overrides applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct CsvFormat {
    delimiter: char,
    quote: Option<char>,
    escape: Option<char>,
    quote_mode: Option<CsvQuoteMode>,
    null_string: Option<String>,
    record_separator: Option<String>,
    /// Oracle's format trims every value (`String.trim`: code points up to U+0020).
    trim: bool,
}

impl CsvFormat {
    /// commons-csv 1.9's predefined format of that (exact) name.
    pub(crate) fn predefined(name: &str) -> Option<CsvFormat> {
        let default = CsvFormat {
            delimiter: ',',
            quote: Some('"'),
            escape: None,
            quote_mode: None,
            null_string: None,
            record_separator: Some("\r\n".to_string()),
            trim: false,
        };
        let format =
            |delimiter, escape, quote_mode, null_string: Option<&str>, lf: bool| CsvFormat {
                delimiter,
                escape,
                quote_mode,
                null_string: null_string.map(str::to_string),
                record_separator: Some(if lf { "\n" } else { "\r\n" }.to_string()),
                ..default.clone()
            };
        use CsvQuoteMode::{AllNonNull, Minimal};
        Some(match name {
            "Default" | "Excel" | "RFC4180" => default,
            "InformixUnload" => format('|', Some('\\'), None, None, true),
            "InformixUnloadCsv" => format(',', None, None, None, true),
            "MongoDBCsv" => format(',', Some('"'), Some(Minimal), None, false),
            "MongoDBTsv" => format('\t', Some('"'), Some(Minimal), None, false),
            "MySQL" => CsvFormat {
                quote: None,
                ..format('\t', Some('\\'), Some(AllNonNull), Some("\\N"), true)
            },
            // Its record separator is `System.lineSeparator()`, `\n` on the platforms l4rs runs.
            "Oracle" => CsvFormat {
                trim: true,
                ..format(',', Some('\\'), Some(Minimal), Some("\\N"), true)
            },
            "PostgreSQLCsv" => format(',', Some('"'), Some(AllNonNull), Some(""), true),
            "PostgreSQLText" => format('\t', Some('\\'), Some(AllNonNull), Some("\\N"), true),
            "TDF" => format('\t', None, None, None, false),
            _ => return None,
        })
    }

    /// The predefined format with the layout's attributes applied, as log4j2's
    /// `AbstractCsvLayout.createFormat` applies them (a NUL character counts as not given).
    pub(crate) fn from_spec(spec: &CsvLayoutSpec) -> CsvFormat {
        let mut format = CsvFormat::predefined(&spec.format)
            .or_else(|| CsvFormat::predefined("Default"))
            .expect("Default is predefined");
        let given = |c: Option<char>| c.filter(|&c| c != '\0');
        if let Some(delimiter) = given(spec.delimiter) {
            format.delimiter = delimiter;
        }
        if let Some(escape) = given(spec.escape) {
            format.escape = Some(escape);
        }
        if let Some(quote) = given(spec.quote) {
            format.quote = Some(quote);
        }
        if let Some(mode) = spec.quote_mode {
            format.quote_mode = Some(mode);
        }
        if let Some(null_string) = &spec.null_string {
            format.null_string = Some(null_string.clone());
        }
        if let Some(separator) = &spec.record_separator {
            format.record_separator = Some(separator.clone());
        }
        format
    }

    /// `CSVFormat.print(value, out, newRecord)`.
    fn print(&self, value: Value<'_>, new_record: bool, out: &mut String) {
        if !new_record {
            out.push(self.delimiter);
        }
        let (text, number) = match value {
            Value::Null => {
                // Null values are written as the null string, unquoted (quoted only in ALL).
                match &self.null_string {
                    None => {}
                    Some(null) if self.quote_mode == Some(CsvQuoteMode::All) => {
                        // commons-csv concatenates the quote `Character`, so no quote is "null".
                        let quote = |out: &mut String| match self.quote {
                            Some(q) => out.push(q),
                            None => out.push_str("null"),
                        };
                        quote(out);
                        out.push_str(self.trimmed(null));
                        quote(out);
                    }
                    Some(null) => out.push_str(self.trimmed(null)),
                }
                return;
            }
            Value::Text(text) => (text, false),
            Value::Number(text) => (text, true),
        };
        let text = self.trimmed(text);
        if let Some(quote) = self.quote {
            self.print_with_quotes(text, number, new_record, quote, out);
        } else if let Some(escape) = self.escape {
            self.print_with_escapes(text, escape, out);
        } else {
            out.push_str(text);
        }
    }

    fn trimmed<'t>(&self, text: &'t str) -> &'t str {
        if self.trim {
            text.trim_matches(|c: char| c <= ' ')
        } else {
            text
        }
    }

    /// `printWithEscapes`: CR, LF, the escape and the delimiter each get the escape before them
    /// (CR and LF as `r` and `n`).
    fn print_with_escapes(&self, text: &str, escape: char, out: &mut String) {
        for c in text.chars() {
            match c {
                '\n' => {
                    out.push(escape);
                    out.push('n');
                }
                '\r' => {
                    out.push(escape);
                    out.push('r');
                }
                c if c == escape || c == self.delimiter => {
                    out.push(escape);
                    out.push(c);
                }
                c => out.push(c),
            }
        }
    }

    /// `printWithQuotes`: whether to quote follows the quote mode (MINIMAL by default); inside
    /// quotes each quote and escape character is preceded by the escape (the quote itself when
    /// there is no escape).
    fn print_with_quotes(
        &self,
        text: &str,
        number: bool,
        new_record: bool,
        quote: char,
        out: &mut String,
    ) {
        let escape = self.escape.unwrap_or(quote);
        let quoted = match self.quote_mode.unwrap_or(CsvQuoteMode::Minimal) {
            CsvQuoteMode::All | CsvQuoteMode::AllNonNull => true,
            CsvQuoteMode::NonNumeric => !number,
            CsvQuoteMode::None => {
                // The loader refuses NONE without an escape, as commons-csv's validation does.
                self.print_with_escapes(text, self.escape.unwrap_or('\\'), out);
                return;
            }
            CsvQuoteMode::Minimal => match (text.chars().next(), text.chars().next_back()) {
                // An empty first value is quoted so that the record is not an empty line.
                (None, _) | (_, None) => new_record,
                // commons-csv quotes anything starting at or below '#', the comment character.
                (Some(first), Some(last)) => {
                    first <= '#'
                        || text.chars().any(|c| {
                            c == '\n'
                                || c == '\r'
                                || c == quote
                                || c == escape
                                || c == self.delimiter
                        })
                        || last <= ' '
                }
            },
        };
        if !quoted {
            out.push_str(text);
            return;
        }
        out.push(quote);
        for c in text.chars() {
            if c == quote || c == escape {
                out.push(escape);
            }
            out.push(c);
        }
        out.push(quote);
    }

    /// `println`: the record separator (predefined formats have no trailing delimiter).
    fn end_record(&self, out: &mut String) {
        if let Some(separator) = &self.record_separator {
            out.push_str(separator);
        }
    }
}

/// A value as commons-csv sees it: null, a `Number` (not quoted by NON_NUMERIC), or text.
#[derive(Clone, Copy)]
enum Value<'a> {
    Null,
    Number(&'a str),
    Text(&'a str),
}

/// log4j-core's `CsvLogEventLayout` and `CsvParameterLayout`.
pub struct CsvLayout {
    kind: CsvLayoutKind,
    format: CsvFormat,
    /// Renders the `header` and `footer` patterns (log4j2's PatternLayout serializers).
    text: PatternLayout,
    charset: Charset,
}

impl CsvLayout {
    /// Builds the layout from its configuration.
    pub fn new(spec: &CsvLayoutSpec, context: LayoutContext) -> CsvLayout {
        CsvLayout {
            kind: spec.kind,
            format: CsvFormat::from_spec(spec),
            text: PatternLayout::new(&spec.text, context),
            charset: Charset::from_attribute(spec.text.charset.as_deref()),
        }
    }

    /// The charset bytes are encoded in.
    pub fn charset(&self) -> Charset {
        self.charset
    }

    fn number(&self, value: i64, new_record: bool, out: &mut String) {
        let mut digits = itoa::Buffer::new();
        self.format
            .print(Value::Number(digits.format(value)), new_record, out);
    }

    fn text(&self, value: &str, out: &mut String) {
        self.format.print(Value::Text(value), false, out);
    }

    /// A value rendered by `write` (a Java object's `toString()`), or null when `present` is false.
    fn rendered(&self, present: bool, write: impl FnOnce(&mut String), out: &mut String) {
        if !present {
            self.format.print(Value::Null, false, out);
            return;
        }
        with_scratch(|text| {
            write(text);
            self.format.print(Value::Text(text), false, out);
        });
    }

    fn message(&self, event: &LogEvent<'_>, new_record: bool, out: &mut String) {
        match event.message.as_str() {
            Some(text) => self.format.print(Value::Text(text), new_record, out),
            None => with_scratch(|text| {
                event.message.write_to(text);
                self.format.print(Value::Text(text), new_record, out);
            }),
        }
    }

    /// The fields of `CsvLogEventLayout.toSerializable`, in its order.
    fn write_event_record(&self, event: &LogEvent<'_>, out: &mut String) {
        self.number(event.nano_time, true, out);
        self.number(event.timestamp.epoch_millis, false, out);
        // A Level is an object, not a CharSequence or Number: NON_NUMERIC quotes it.
        self.text(event.level.name(), out);
        self.number(event.thread.id as i64, false, out);
        self.text(event.thread.name, out);
        self.number(i64::from(event.thread.priority), false, out);
        self.message(event, false, out);
        self.text(LOGGER_FQCN, out);
        self.text(event.logger_name, out);
        self.rendered(
            event.marker.is_some(),
            |text| {
                if let Some(marker) = event.marker {
                    marker.write_full(text);
                }
            },
            out,
        );
        // `ThrowableProxy.toString()`: the class and message only.
        self.rendered(
            event.throwable.is_some(),
            |text| {
                if let Some(throwable) = &event.throwable {
                    throwable.resolve().write_header(text);
                }
            },
            out,
        );
        self.rendered(
            event.location.is_some(),
            |text| format_location(event, text),
            out,
        );
        // `SortedArrayStringMap.toString()` and the stack's `List.toString()`.
        self.rendered(
            true,
            |text| {
                text.push('{');
                for (index, (key, value)) in event.context_map.iter().enumerate() {
                    if index > 0 {
                        text.push_str(", ");
                    }
                    text.push_str(key);
                    text.push('=');
                    text.push_str(value);
                }
                text.push('}');
            },
            out,
        );
        self.rendered(
            true,
            |text| {
                text.push('[');
                for (index, entry) in event.context_stack.iter().enumerate() {
                    if index > 0 {
                        text.push_str(", ");
                    }
                    text.push_str(entry);
                }
                text.push(']');
            },
            out,
        );
        self.format.end_record(out);
    }
}

impl Layout for CsvLayout {
    fn content_type(&self) -> String {
        format!("text/csv; charset={}", self.charset.name())
    }

    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        match self.kind {
            CsvLayoutKind::LogEvent => self.write_event_record(event, out),
            // l4rs messages are formatted by the macros and keep no parameters, so the record's
            // one value is the formatted message (see docs/layouts.md).
            CsvLayoutKind::Parameter => {
                self.message(event, true, out);
                self.format.end_record(out);
            }
        }
    }

    fn header(&self, out: &mut String) {
        self.text.header(out);
    }

    fn footer(&self, out: &mut String) {
        self.text.footer(out);
    }

    fn encode<'b>(&self, text: &'b str, scratch: &'b mut Vec<u8>) -> &'b [u8] {
        self.charset.encode(text, scratch)
    }

    /// log4j2 computes the caller's location lazily when a layout asks for the event's source,
    /// which CsvLogEventLayout always does; l4rs must capture it up front instead.
    fn requires_location(&self) -> bool {
        self.kind == CsvLayoutKind::LogEvent
    }
}

impl std::fmt::Debug for CsvLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CsvLayout")
            .field("kind", &self.kind)
            .field("format", &self.format)
            .field("charset", &self.charset)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn printed(format: &CsvFormat, values: &[Value<'_>]) -> String {
        let mut out = String::new();
        for (index, value) in values.iter().enumerate() {
            format.print(*value, index == 0, &mut out);
        }
        format.end_record(&mut out);
        out
    }

    fn spec(format: &str) -> CsvLayoutSpec {
        CsvLayoutSpec {
            format: format.into(),
            ..CsvLayoutSpec::new(CsvLayoutKind::LogEvent)
        }
    }

    #[test]
    fn minimal_quoting_follows_commons_csv() {
        let format = CsvFormat::from_spec(&spec("Default"));
        let values = [
            Value::Text(""),
            Value::Text(""),
            Value::Text("a,b"),
            Value::Text("say \"hi\""),
            Value::Text("#x"),
            Value::Text("x "),
            Value::Text("{a=b}"),
            Value::Null,
            Value::Number("-1"),
        ];
        assert_eq!(
            printed(&format, &values),
            "\"\",,\"a,b\",\"say \"\"hi\"\"\",\"#x\",\"x \",{a=b},,-1\r\n"
        );
    }

    #[test]
    fn mysql_escapes_and_prints_null_strings() {
        let format = CsvFormat::from_spec(&spec("MySQL"));
        let values = [
            Value::Text("a\tb\nc\\d\"e"),
            Value::Null,
            Value::Number("5"),
        ];
        assert_eq!(printed(&format, &values), "a\\\tb\\nc\\\\d\"e\t\\N\t5\n");
    }

    #[test]
    fn quote_modes_and_trimming() {
        let non_numeric = CsvFormat::from_spec(&CsvLayoutSpec {
            quote_mode: Some(CsvQuoteMode::NonNumeric),
            delimiter: Some(';'),
            ..spec("Default")
        });
        assert_eq!(
            printed(&non_numeric, &[Value::Number("1"), Value::Text("x")]),
            "1;\"x\"\r\n"
        );
        let all = CsvFormat::from_spec(&CsvLayoutSpec {
            quote_mode: Some(CsvQuoteMode::All),
            null_string: Some("NULL".into()),
            ..spec("Default")
        });
        assert_eq!(
            printed(&all, &[Value::Number("1"), Value::Null]),
            "\"1\",\"NULL\"\r\n"
        );
        let oracle = CsvFormat::from_spec(&spec("Oracle"));
        assert_eq!(
            printed(&oracle, &[Value::Text("  a\"b  "), Value::Null]),
            "\"a\\\"b\",\\N\n"
        );
        assert!(CsvFormat::predefined("default").is_none());
    }
}
