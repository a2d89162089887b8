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
    for child in std::mem::take(&mut node.children) {
        binder.unusable_child(&node, &child);
    }
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
    // commons-csv validates the format: without quotes, values can only be escaped.
    let format_escapes = FORMATS_WITH_ESCAPE.contains(&spec.format.as_str());
    if spec.quote_mode == Some(CsvQuoteMode::None) && spec.escape.is_none() && !format_escapes {
        binder.factory_failure(
            &node,
            &java_class,
            "java.lang.IllegalArgumentException: No quotes mode set but no escape character is set",
            Some("quoteMode=\"NONE\" needs an escape character (add escape=\"\\\\\"); the appender uses its default layout".to_string()),
        );
        return None;
    }
    Some(spec)
}

/// The predefined formats that have an escape character.
const FORMATS_WITH_ESCAPE: [&str; 7] = [
    "InformixUnload",
    "MongoDBCsv",
    "MongoDBTsv",
    "MySQL",
    "Oracle",
    "PostgreSQLCsv",
    "PostgreSQLText",
];
