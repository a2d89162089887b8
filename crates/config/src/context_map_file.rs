//! The JSON file a `MutableThreadContextMapFilter` reads its key/value pairs from, read as
//! log4j2 reads it with Jackson: `{"configs": {"key": ["value", …], …}}`, other members
//! ignored, `null` values skipped with a warning. The loader reads it when the configuration is
//! built; the filter reads it again when it polls.

use std::path::Path;
use std::time::SystemTime;

/// What reading the file gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ContextMapFile {
    /// Key → the values that match it, in the file's order; never empty.
    Pairs(Vec<(String, Vec<String>)>),
    /// A file with no pairs (`configs` missing, empty, or only `null` values).
    Empty,
    /// No such file.
    NotFound,
    /// Not what the filter reads; the text says why, after log4j2's words.
    Invalid(String),
}

/// Reads the file at `path`, passing each warning log4j2 gives (a `null` value) to `warn`.
pub fn read(path: &Path, warn: &mut dyn FnMut(String)) -> (ContextMapFile, Option<SystemTime>) {
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return (ContextMapFile::NotFound, None)
        }
        Err(error) => {
            return (
                ContextMapFile::Invalid(format!(
                    "Invalid key/value pair configuration, input ignored: {error}"
                )),
                modified,
            )
        }
    };
    (parse(&text, warn), modified)
}

/// Reads the JSON text of the file.
pub fn parse(text: &[u8], warn: &mut dyn FnMut(String)) -> ContextMapFile {
    let value: serde_json::Value = match serde_json::from_slice(text) {
        Ok(value) => value,
        Err(error) => {
            return ContextMapFile::Invalid(format!(
                "Invalid key/value pair configuration, input ignored: {error}"
            ))
        }
    };
    let configs = match &value {
        serde_json::Value::Null => {
            return ContextMapFile::Invalid(
                "No configs element in MutableThreadContextMapFilter configuration".to_string(),
            )
        }
        serde_json::Value::Object(members) => match members.get("configs") {
            None | Some(serde_json::Value::Null) => return ContextMapFile::Empty,
            Some(serde_json::Value::Object(configs)) => configs,
            Some(other) => return invalid(&format!("configs is {}, not an object", kind(other))),
        },
        other => return invalid(&format!("the file holds {}, not an object", kind(other))),
    };
    let mut pairs = Vec::new();
    for (key, values) in configs {
        let serde_json::Value::Array(values) = values else {
            return invalid(&format!(
                "the values of {key} are {}, not an array",
                kind(values)
            ));
        };
        let mut listed = Vec::new();
        for value in values {
            match value {
                serde_json::Value::Null => warn(format!("Ignoring null value for {key}")),
                serde_json::Value::String(text) => listed.push(text.clone()),
                // Jackson takes a number or a boolean as its text.
                serde_json::Value::Number(number) => listed.push(number.to_string()),
                serde_json::Value::Bool(flag) => listed.push(flag.to_string()),
                other => {
                    return invalid(&format!(
                        "a value of {key} is {}, not a string",
                        kind(other)
                    ))
                }
            }
        }
        if !listed.is_empty() {
            pairs.push((key.clone(), listed));
        }
    }
    if pairs.is_empty() {
        ContextMapFile::Empty
    } else {
        ContextMapFile::Pairs(pairs)
    }
}

fn invalid(reason: &str) -> ContextMapFile {
    ContextMapFile::Invalid(format!(
        "Invalid key/value pair configuration, input ignored: {reason}"
    ))
}

fn kind(value: &serde_json::Value) -> &'static str {
    match value {
        serde_json::Value::Null => "null",
        serde_json::Value::Bool(_) => "a boolean",
        serde_json::Value::Number(_) => "a number",
        serde_json::Value::String(_) => "a string",
        serde_json::Value::Array(_) => "an array",
        serde_json::Value::Object(_) => "an object",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_text(text: &str) -> (ContextMapFile, Vec<String>) {
        let mut warnings = Vec::new();
        let result = parse(text.as_bytes(), &mut |w| warnings.push(w));
        (result, warnings)
    }

    #[test]
    fn reads_pairs_and_skips_nulls_as_log4j2_does() {
        let (result, warnings) = read_text(
            r#"{"configs": {"user": ["alice", null, "bob"], "n": [7, true]}, "other": 1}"#,
        );
        // The order of the keys changes nothing (any key may match); compare them sorted.
        let ContextMapFile::Pairs(mut pairs) = result else {
            panic!("{result:?}")
        };
        pairs.sort();
        assert_eq!(
            ContextMapFile::Pairs(pairs),
            ContextMapFile::Pairs(vec![
                ("n".to_string(), vec!["7".to_string(), "true".to_string()]),
                (
                    "user".to_string(),
                    vec!["alice".to_string(), "bob".to_string()]
                ),
            ])
        );
        assert_eq!(warnings, ["Ignoring null value for user"]);
    }

    #[test]
    fn what_holds_no_pairs_and_what_is_refused() {
        assert_eq!(read_text(r#"{"configs": {}}"#).0, ContextMapFile::Empty);
        assert_eq!(read_text(r#"{"nothing": 1}"#).0, ContextMapFile::Empty);
        assert_eq!(
            read_text(r#"{"configs": {"a": [null]}}"#).0,
            ContextMapFile::Empty
        );
        assert_eq!(
            read_text("null").0,
            ContextMapFile::Invalid(
                "No configs element in MutableThreadContextMapFilter configuration".to_string()
            )
        );
        for text in [
            "",
            "{",
            r#"{"configs": {"a": "b"}}"#,
            "[1]",
            r#"{"configs": {"a": [{}]}}"#,
        ] {
            let (result, _) = read_text(text);
            assert!(
                matches!(&result, ContextMapFile::Invalid(m) if m.starts_with("Invalid key/value pair configuration, input ignored: ")),
                "{text:?}: {result:?}"
            );
        }
    }
}
