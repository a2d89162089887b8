//! The statements log4j2's JDBC manager prepares, as text.

use l4rs_config::model::{JdbcColumnValue, JdbcSpec};

/// log4j2's insert: `insert into TABLE (C1,C2,…) values (V1,V2,…)`, each value a column's
/// literal SQL, its `parameter` text, or `?`. Columns come in the spec's order (mappings, then
/// columns), as log4j2 writes them.
pub(crate) fn insert(spec: &JdbcSpec) -> String {
    let names: Vec<&str> = spec
        .columns
        .iter()
        .map(|column| column.name.as_str())
        .collect();
    let values: Vec<&str> = spec
        .columns
        .iter()
        .map(|column| match &column.value {
            JdbcColumnValue::Literal(sql) => sql.as_str(),
            JdbcColumnValue::Text { parameter, .. }
            | JdbcColumnValue::EventTimestamp { parameter }
            | JdbcColumnValue::MapMessageValue { parameter } => parameter.as_deref().unwrap_or("?"),
        })
        .collect();
    format!(
        "insert into {} ({}) values ({})",
        spec.table_name,
        names.join(","),
        values.join(",")
    )
}

/// log4j2's metadata query, which reads the columns' types and sizes without reading a row:
/// `select C1,C2,… from TABLE where 1=0`.
pub(crate) fn metadata_select(spec: &JdbcSpec) -> String {
    let names: Vec<&str> = spec
        .columns
        .iter()
        .map(|column| column.name.as_str())
        .collect();
    format!(
        "select {} from {} where 1=0",
        names.join(","),
        spec.table_name
    )
}

/// `sql` with each JDBC `?` placeholder numbered `$1`, `$2`, … as PostgreSQL expects (pgjdbc
/// does the same): a `?` inside a string literal (also an `E'…'` string, where a backslash
/// escapes the next character), a quoted identifier, a dollar-quoted string or a comment stays,
/// and `??` stands for a literal `?`. A `$` opens a dollar quote only where an identifier
/// cannot go on (`a$b$` is one identifier).
pub(crate) fn numbered_placeholders(sql: &str) -> String {
    let is_identifier = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(sql.len() + 8);
    let mut next = 1;
    let mut previous: Option<char> = None;
    let mut before_previous: Option<char> = None;
    let mut chars = sql.char_indices().peekable();
    while let Some((at, c)) = chars.next() {
        match c {
            '\'' | '"' => {
                // `E'…'`: the E must start a token of its own.
                let escapes = c == '\''
                    && matches!(previous, Some('E' | 'e'))
                    && !before_previous.is_some_and(is_identifier);
                // To the closing quote; a doubled quote is part of the text.
                out.push(c);
                while let Some((_, inner)) = chars.next() {
                    out.push(inner);
                    if escapes && inner == '\\' {
                        if let Some((_, escaped)) = chars.next() {
                            out.push(escaped);
                        }
                    } else if inner == c {
                        if chars.peek().map(|&(_, next)| next) == Some(c) {
                            out.push(c);
                            chars.next();
                        } else {
                            break;
                        }
                    }
                }
            }
            '-' if sql[at..].starts_with("--") => {
                let end = sql[at..].find('\n').map_or(sql.len(), |n| at + n);
                out.push_str(&sql[at..end]);
                while chars.peek().is_some_and(|&(i, _)| i < end) {
                    chars.next();
                }
            }
            '/' if sql[at..].starts_with("/*") => {
                let end = sql[at + 2..]
                    .find("*/")
                    .map_or(sql.len(), |n| at + 2 + n + 2);
                out.push_str(&sql[at..end]);
                while chars.peek().is_some_and(|&(i, _)| i < end) {
                    chars.next();
                }
            }
            '$' if !previous.is_some_and(is_identifier) => {
                // A dollar quote `$tag$…$tag$`; a `$` that does not open one is copied.
                let tag_end = sql[at + 1..]
                    .find(|c: char| !(c.is_alphanumeric() || c == '_'))
                    .map(|n| at + 1 + n);
                match tag_end.filter(|&end| sql[end..].starts_with('$')) {
                    Some(end) => {
                        let tag = &sql[at..=end];
                        let close = sql[end + 1..]
                            .find(tag)
                            .map_or(sql.len(), |n| end + 1 + n + tag.len());
                        out.push_str(&sql[at..close]);
                        while chars.peek().is_some_and(|&(i, _)| i < close) {
                            chars.next();
                        }
                    }
                    None => out.push('$'),
                }
            }
            '?' => {
                if chars.peek().map(|&(_, next)| next) == Some('?') {
                    chars.next();
                    out.push('?');
                } else {
                    out.push('$');
                    out.push_str(&next.to_string());
                    next += 1;
                }
            }
            _ => out.push(c),
        }
        before_previous = previous;
        previous = Some(c);
    }
    out
}

/// [`numbered_placeholders`] for the fuzz target (`fuzz/fuzz_targets/jdbc_statements.rs`).
#[cfg(fuzzing)]
pub fn fuzz_numbered_placeholders(sql: &str) -> String {
    numbered_placeholders(sql)
}

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_config::model::{
        JdbcColumnSpec, JdbcConnectionSpec, JdbcTextBinding, LayoutSpec, PatternLayoutSpec,
    };

    fn column(name: &str, value: JdbcColumnValue) -> JdbcColumnSpec {
        JdbcColumnSpec {
            name: name.to_string(),
            value,
        }
    }

    fn text(parameter: Option<&str>) -> JdbcColumnValue {
        JdbcColumnValue::Text {
            layout: LayoutSpec::Pattern(PatternLayoutSpec::default()),
            binding: JdbcTextBinding::Text,
            parameter: parameter.map(str::to_string),
        }
    }

    fn spec() -> JdbcSpec {
        JdbcSpec {
            table_name: "logs".to_string(),
            connection: JdbcConnectionSpec {
                connection_string: "jdbc:sqlite:x.db".to_string(),
                user_name: None,
                password: None,
                driver_class_name: None,
                properties: Vec::new(),
                element: "DriverManager".to_string(),
            },
            columns: vec![
                column(
                    "id",
                    JdbcColumnValue::Literal("NEXT VALUE FOR seq".to_string()),
                ),
                column("level", text(None)),
                column("payload", text(Some("CAST(? AS json)"))),
                column("at", JdbcColumnValue::EventTimestamp { parameter: None }),
            ],
            buffer_size: 0,
            reconnect_interval_millis: 5000,
            immediate_fail: false,
            truncate_strings: true,
        }
    }

    #[test]
    fn statements_as_log4j2_writes_them() {
        assert_eq!(
            insert(&spec()),
            "insert into logs (id,level,payload,at) values (NEXT VALUE FOR seq,?,CAST(? AS json),?)"
        );
        assert_eq!(
            metadata_select(&spec()),
            "select id,level,payload,at from logs where 1=0"
        );
    }

    #[test]
    fn placeholders_are_numbered_outside_quotes_and_comments() {
        assert_eq!(
            numbered_placeholders(
                "insert into \"t?\" (a,b) values (?, 'it''s ?', ?) -- why?\n/* ? */ $x$ ? $x$ ?? ?"
            ),
            "insert into \"t?\" (a,b) values ($1, 'it''s ?', $2) -- why?\n/* ? */ $x$ ? $x$ ? $3"
        );
        assert_eq!(numbered_placeholders("a $ ? 'open ?"), "a $ $1 'open ?");
        assert_eq!(numbered_placeholders("é?ü?"), "é$1ü$2");
        // `a$b$` is an identifier, not a dollar quote; `E'\''` holds an escaped quote.
        assert_eq!(numbered_placeholders("a$b$ ? $b$"), "a$b$ $1 $b$");
        assert_eq!(
            numbered_placeholders(r"values (E'it\'s ?', ?, 'E', ?)"),
            r"values (E'it\'s ?', $1, 'E', $2)"
        );
        assert_eq!(numbered_placeholders(r"xE'\' ?"), r"xE'\' $1");
    }
}
