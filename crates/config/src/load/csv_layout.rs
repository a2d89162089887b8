//! `<CsvLogEventLayout>` and `<CsvParameterLayout>`.

use super::binder::Binder;
use super::node::PNode;
use crate::model::{CsvLayoutKind, CsvLayoutSpec, CsvQuoteMode, PatternLayoutSpec};

/// commons-csv's `CSVFormat.Predefined` names, as `CSVFormat.valueOf` accepts them.
pub(super) const CSV_FORMATS: [&str; 12] = [
    "Default",
    "Excel",
    "InformixUnload",
    "InformixUnloadCsv",
    "MongoDBCsv",
    "MongoDBTsv",
    "MySQL",
    "Oracle",
    "PostgreSQLCsv",
    "PostgreSQLText",
    "RFC4180",
    "TDF",
];

/// commons-csv's `QuoteMode` constants, in the order of [`CsvQuoteMode`]'s variants.
const QUOTE_MODES: [&str; 5] = ["ALL", "ALL_NON_NULL", "MINIMAL", "NON_NUMERIC", "NONE"];

/// A CSV layout: log4j2's factory attributes and defaults. `None` (after log4j2's error) for a
/// `format` commons-csv does not predefine, as the factory then throws.
pub(crate) fn build_csv_layout(
    binder: &mut Binder,
    mut node: PNode,
    kind: CsvLayoutKind,
) -> Option<CsvLayoutSpec> {
    let inserted = node.attrs.len();
    binder.refuse_children(&mut node);
    let defaults = CsvLayoutSpec::new(kind);
    let spec = CsvLayoutSpec {
        kind,
        format: binder
            .string(&mut node, &["format"])
            .unwrap_or(defaults.format),
        delimiter: binder.character(&mut node, &["delimiter"]),
        escape: binder.character(&mut node, &["escape"]),
        quote: binder.character(&mut node, &["quote"]),
        quote_mode: binder
            .enumeration(
                &mut node,
                &["quoteMode"],
                "class org.apache.commons.csv.QuoteMode",
                &QUOTE_MODES,
            )
            .map(|index| {
                [
                    CsvQuoteMode::All,
                    CsvQuoteMode::AllNonNull,
                    CsvQuoteMode::Minimal,
                    CsvQuoteMode::NonNumeric,
                    CsvQuoteMode::None,
                ][index]
            }),
        null_string: binder.string(&mut node, &["nullString"]),
        record_separator: binder.string(&mut node, &["recordSeparator"]),
        text: PatternLayoutSpec {
            charset: binder.charset_defaulting(&mut node, &["charset"], "UTF-8"),
            header: binder.string(&mut node, &["header"]),
            footer: binder.string(&mut node, &["footer"]),
            ..defaults.text
        },
    };
    binder.finish(&node, inserted);
    let class = match kind {
        CsvLayoutKind::LogEvent => "CsvLogEventLayout",
        CsvLayoutKind::Parameter => "CsvParameterLayout",
    };
    let java_class = format!("org.apache.logging.log4j.core.layout.{class}");
    // `CSVFormat.valueOf` is `Predefined.valueOf`: exact, case-sensitive names.
    if !CSV_FORMATS.contains(&spec.format.as_str()) {
        binder.factory_failure(
            &node,
            &java_class,
            &format!(
                "java.lang.IllegalArgumentException: No enum constant org.apache.commons.csv.CSVFormat.Predefined.{}",
                spec.format
            ),
            Some(format!(
                "format must be one of {} (case-sensitive); the appender uses its default layout",
                CSV_FORMATS.join(", ")
            )),
        );
        return None;
    }
    if let Some((cause, help)) = refusal(&spec) {
        binder.factory_failure(
            &node,
            &java_class,
            &format!("java.lang.IllegalArgumentException: {cause}"),
            Some(format!("{help}; the appender uses its default layout")),
        );
        return None;
    }
    Some(spec)
}

/// A format's delimiter, quote character, escape character and quote mode.
type Characters = (char, Option<char>, Option<char>, Option<CsvQuoteMode>);

/// The characters of a commons-csv 1.9 predefined format that `CSVFormat.validate` judges:
/// delimiter, quote, escape and quote mode. None of them has a comment marker or a header,
/// and log4j2 sets neither, so the rules about those never apply.
///
/// The same values as `l4rs_layout`'s `CsvFormat::predefined`, which prints with them.
fn predefined_characters(format: &str) -> Option<Characters> {
    use CsvQuoteMode::{AllNonNull, Minimal};
    let q = Some('"');
    Some(match format {
        "Default" | "Excel" | "RFC4180" | "InformixUnloadCsv" => (',', q, None, None),
        "InformixUnload" => ('|', q, Some('\\'), None),
        "MongoDBCsv" => (',', q, q, Some(Minimal)),
        "MongoDBTsv" => ('\t', q, q, Some(Minimal)),
        "MySQL" => ('\t', None, Some('\\'), Some(AllNonNull)),
        "Oracle" => (',', q, Some('\\'), Some(Minimal)),
        "PostgreSQLCsv" => (',', q, q, Some(AllNonNull)),
        "PostgreSQLText" => ('\t', q, Some('\\'), Some(AllNonNull)),
        "TDF" => ('\t', q, None, None),
        _ => return None,
    })
}

/// What commons-csv 1.9 throws while log4j2's `AbstractCsvLayout.createFormat` applies the
/// attributes one at a time (`withDelimiter`, `withEscape`, `withQuote`, `withQuoteMode`, each
/// building a format that `CSVFormat.validate` judges): the first message, and the fix naming
/// the attribute. A NUL character counts as not given, as log4j2's `isNotNul`.
fn refusal(spec: &CsvLayoutSpec) -> Option<(String, String)> {
    let (mut delimiter, mut quote, mut escape, mut mode) = predefined_characters(&spec.format)?;
    let given = |c: Option<char>| c.filter(|&c| c != '\0');
    let line_break = |c: char| c == '\n' || c == '\r';
    let shown = |c: char| c.escape_default().to_string();
    // `validate`'s rules, for the format as it stands after one step; `changed` is the
    // attribute that step set.
    let validate = |delimiter: char,
                    quote: Option<char>,
                    escape: Option<char>,
                    mode: Option<CsvQuoteMode>,
                    changed: &str| {
        if line_break(delimiter) {
            return Some((
                "The delimiter cannot be a line break".to_string(),
                "delimiter must not be a line break".to_string(),
            ));
        }
        if quote == Some(delimiter) {
            return Some((
                format!("The quoteChar character and the delimiter cannot be the same ('{delimiter}')"),
                format!(
                    "{changed}=\"{}\" makes the delimiter and the quote character the same: set delimiter or quote to another character",
                    shown(delimiter)
                ),
            ));
        }
        if escape == Some(delimiter) {
            return Some((
                format!("The escape character and the delimiter cannot be the same ('{delimiter}')"),
                format!(
                    "{changed}=\"{}\" makes the delimiter and the escape character the same: set delimiter or escape to another character",
                    shown(delimiter)
                ),
            ));
        }
        if escape.is_none() && mode == Some(CsvQuoteMode::None) {
            return Some((
                "No quotes mode set but no escape character is set".to_string(),
                "quoteMode=\"NONE\" needs an escape character (add escape=\"\\\\\")".to_string(),
            ));
        }
        None
    };
    if let Some(c) = given(spec.delimiter) {
        if line_break(c) {
            return Some((
                "The delimiter cannot be a line break".to_string(),
                format!(
                    "delimiter=\"{}\" is a line break: choose another delimiter",
                    shown(c)
                ),
            ));
        }
        delimiter = c;
        if let Some(refused) = validate(delimiter, quote, escape, mode, "delimiter") {
            return Some(refused);
        }
    }
    if let Some(c) = given(spec.escape) {
        if line_break(c) {
            return Some((
                "The escape character cannot be a line break".to_string(),
                format!(
                    "escape=\"{}\" is a line break: choose another escape character",
                    shown(c)
                ),
            ));
        }
        escape = Some(c);
        if let Some(refused) = validate(delimiter, quote, escape, mode, "escape") {
            return Some(refused);
        }
    }
    if let Some(c) = given(spec.quote) {
        if line_break(c) {
            return Some((
                "The quoteChar cannot be a line break".to_string(),
                format!(
                    "quote=\"{}\" is a line break: choose another quote character",
                    shown(c)
                ),
            ));
        }
        quote = Some(c);
        if let Some(refused) = validate(delimiter, quote, escape, mode, "quote") {
            return Some(refused);
        }
    }
    if let Some(m) = spec.quote_mode {
        mode = Some(m);
        return validate(delimiter, quote, escape, mode, "quoteMode");
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(format: &str, delimiter: &str, escape: &str, quote: &str) -> CsvLayoutSpec {
        let c = |text: &str| text.chars().next();
        CsvLayoutSpec {
            format: format.to_string(),
            delimiter: c(delimiter),
            escape: c(escape),
            quote: c(quote),
            ..CsvLayoutSpec::new(CsvLayoutKind::LogEvent)
        }
    }

    fn cause(spec: &CsvLayoutSpec) -> Option<String> {
        refusal(spec).map(|(cause, _)| cause)
    }

    /// commons-csv 1.9's `CSVFormat.validate` and builder setters, as their messages say
    /// (CSVFormatTest: testDelimiterSameAsEscapeThrowsException, testQuoteCharSameAsDelimiter,
    /// testDelimiterSameAsCommentStartThrowsException's siblings, testWithDelimiterLFThrowsException,
    /// testEscapeSameAsCommentStartThrowsException).
    #[test]
    fn formats_commons_csv_refuses_are_refused_with_its_message() {
        assert_eq!(cause(&spec("Default", "", "", "")), None);
        assert_eq!(cause(&spec("Default", ";", "\\", "'")), None);
        assert_eq!(
            cause(&spec("Default", "\"", "", "")).as_deref(),
            Some("The quoteChar character and the delimiter cannot be the same ('\"')")
        );
        assert_eq!(
            cause(&spec("Default", "", "", ",")).as_deref(),
            Some("The quoteChar character and the delimiter cannot be the same (',')")
        );
        assert_eq!(
            cause(&spec("Default", "!", "!", "")).as_deref(),
            Some("The escape character and the delimiter cannot be the same ('!')")
        );
        // MySQL escapes with a backslash.
        assert_eq!(
            cause(&spec("MySQL", "\\", "", "")).as_deref(),
            Some("The escape character and the delimiter cannot be the same ('\\')")
        );
        assert_eq!(
            cause(&spec("Default", "\n", "", "")).as_deref(),
            Some("The delimiter cannot be a line break")
        );
        assert_eq!(
            cause(&spec("Default", "", "\r", "")).as_deref(),
            Some("The escape character cannot be a line break")
        );
        assert_eq!(
            cause(&spec("Default", "", "", "\n")).as_deref(),
            Some("The quoteChar cannot be a line break")
        );
        // A NUL character is not given (log4j2's isNotNul).
        assert_eq!(cause(&spec("Default", "\0", "\0", "\0")), None);
        // Order: the delimiter step fails before the quote would have repaired it.
        let help = refusal(&spec("Default", "\"", "", "'")).unwrap().1;
        assert!(help.starts_with("delimiter=\"\\\"\" makes"), "{help}");
        let none = CsvLayoutSpec {
            quote_mode: Some(CsvQuoteMode::None),
            ..spec("Default", "", "", "")
        };
        assert_eq!(
            cause(&none).as_deref(),
            Some("No quotes mode set but no escape character is set")
        );
        let escaped = CsvLayoutSpec {
            quote_mode: Some(CsvQuoteMode::None),
            ..spec("MySQL", "", "", "")
        };
        assert_eq!(cause(&escaped), None);
    }
}
