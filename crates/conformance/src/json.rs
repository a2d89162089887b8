//! JSON as SCENARIO.md reads it: `serde_json`'s parser, plus the rejection of duplicate keys
//! (which `serde_json` resolves silently, the last one winning).

use std::collections::HashSet;

use serde_json::Value;

/// Parses one JSON document and rejects any object that names a key twice (keys compared after
/// unescaping, so `"a"` and `"\u0061"` are the same key).
pub fn parse_strict(text: &str) -> Result<Value, String> {
    let value: Value = serde_json::from_str(text).map_err(|e| e.to_string())?;
    check_duplicate_keys(text)?;
    Ok(value)
}

/// What the scanner is inside of.
enum Container {
    /// An object, with the keys seen so far and whether the next string is a key.
    Object {
        keys: HashSet<String>,
        expect_key: bool,
    },
    Array,
}

/// Walks text that is already known to be valid JSON and reports the first duplicate key.
fn check_duplicate_keys(text: &str) -> Result<(), String> {
    let mut stack: Vec<Container> = Vec::new();
    let bytes = text.as_bytes();
    let mut index = 0;
    while index < bytes.len() {
        match bytes[index] {
            b'{' => stack.push(Container::Object {
                keys: HashSet::new(),
                expect_key: true,
            }),
            b'[' => stack.push(Container::Array),
            b'}' | b']' => {
                stack.pop();
            }
            b',' => {
                if let Some(Container::Object { expect_key, .. }) = stack.last_mut() {
                    *expect_key = true;
                }
            }
            b'"' => {
                let end = string_end(bytes, index);
                if let Some(Container::Object { keys, expect_key }) = stack.last_mut() {
                    if *expect_key {
                        // Valid JSON, so the quoted text decodes.
                        let key: String = serde_json::from_str(&text[index..end])
                            .map_err(|e| format!("bad key: {e}"))?;
                        if !keys.insert(key.clone()) {
                            return Err(format!("duplicate key \"{key}\""));
                        }
                        *expect_key = false;
                    }
                }
                index = end;
                continue;
            }
            _ => {}
        }
        index += 1;
    }
    Ok(())
}

/// The index just past the closing quote of the string that starts at `start`.
fn string_end(bytes: &[u8], start: usize) -> usize {
    let mut index = start + 1;
    while index < bytes.len() {
        match bytes[index] {
            b'\\' => index += 2,
            b'"' => return index + 1,
            _ => index += 1,
        }
    }
    bytes.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_distinct_keys_at_every_depth() {
        let value = parse_strict(r#"{"a": {"a": 1, "b": [{"a": "x,\"a\":"}]}, "b": "a"}"#).unwrap();
        assert_eq!(value["a"]["b"][0]["a"], "x,\"a\":");
    }

    #[test]
    fn rejects_a_duplicate_key() {
        assert_eq!(
            parse_strict(r#"{"logger": "a", "logger": "b"}"#).unwrap_err(),
            "duplicate key \"logger\""
        );
    }

    #[test]
    fn rejects_a_nested_duplicate_spelled_with_an_escape() {
        assert_eq!(
            parse_strict(r#"{"mdc": {"k": "1", "\u006b": "2"}}"#).unwrap_err(),
            "duplicate key \"k\""
        );
    }

    #[test]
    fn the_same_key_in_sibling_objects_is_fine() {
        assert!(parse_strict(r#"[{"k": 1}, {"k": 2}]"#).is_ok());
    }

    #[test]
    fn rejects_invalid_json() {
        assert!(parse_strict(r#"{"k": 1} x"#).is_err());
    }
}
