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

/// The largest file read: pairs for a filter are a few lines; anything this large is a
/// mistake (or a device such as `/dev/zero`) and is refused rather than read.
const MAX_FILE_BYTES: u64 = 16 * 1024 * 1024;

/// What identifies one version of the file: its modification time, size and inode. A poll
/// reads the file again when it changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FileStamp {
    /// The modification time.
    pub modified: SystemTime,
    /// The size in bytes.
    pub len: u64,
    /// The inode (a file replaced by a rename has another).
    pub inode: u64,
}

/// The stamp of the file at `path` now, if it is there.
pub fn stamp(path: &Path) -> Option<FileStamp> {
    use std::os::unix::fs::MetadataExt;
    let metadata = std::fs::metadata(path).ok()?;
    Some(FileStamp {
        modified: metadata.modified().ok()?,
        len: metadata.len(),
        inode: metadata.ino(),
    })
}

/// Reads the file at `path`, passing each warning log4j2 gives (a `null` value) to `warn`;
/// also returns the stamp of what was read (`None` when nothing was: no file, or one that
/// could not be read, which the next poll tries again).
pub fn read(path: &Path, warn: &mut dyn FnMut(String)) -> (ContextMapFile, Option<FileStamp>) {
    let Some(stamp) = stamp(path) else {
        return (ContextMapFile::NotFound, None);
    };
    let metadata = std::fs::metadata(path);
    if !metadata.as_ref().is_ok_and(|m| m.is_file()) {
        // A FIFO or a device would block or never end: neither is a file of pairs.
        return (invalid("not a regular file"), None);
    }
    if stamp.len > MAX_FILE_BYTES {
        return (
            invalid(&format!("larger than {MAX_FILE_BYTES} bytes")),
            None,
        );
    }
    let text = match std::fs::read(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => {
            return (ContextMapFile::NotFound, None)
        }
        Err(error) => return (invalid(&error.to_string()), None),
    };
    (parse(&text, warn), Some(stamp))
}

/// Reads the JSON text of the file.
pub fn parse(text: &[u8], warn: &mut dyn FnMut(String)) -> ContextMapFile {
    use serde_json::value::RawValue;
    // Jackson skips a UTF-8 byte order mark (an editor's).
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let root: &RawValue = match serde_json::from_slice(text) {
        Ok(root) => root,
        Err(error) => return invalid(&error.to_string()),
    };
    let root = root.get();
    if root == "null" {
        return ContextMapFile::Invalid(
            "No configs element in MutableThreadContextMapFilter configuration".to_string(),
        );
    }
    if !root.starts_with('{') {
        return invalid(&format!("the file holds {}, not an object", kind(root)));
    }
    let members: std::collections::BTreeMap<String, &RawValue> = match serde_json::from_str(root) {
        Ok(members) => members,
        Err(error) => return invalid(&error.to_string()),
    };
    let configs = match members.get("configs").map(|raw| raw.get()) {
        None | Some("null") => return ContextMapFile::Empty,
        Some(configs) if configs.starts_with('{') => configs,
        Some(other) => return invalid(&format!("configs is {}, not an object", kind(other))),
    };
    let configs: std::collections::BTreeMap<String, &RawValue> = match serde_json::from_str(configs)
    {
        Ok(configs) => configs,
        Err(error) => return invalid(&error.to_string()),
    };
    let mut pairs = Vec::new();
    for (key, values) in configs {
        let values = values.get();
        if !values.starts_with('[') {
            return invalid(&format!(
                "the values of {key} are {}, not an array",
                kind(values)
            ));
        }
        let values: Vec<&RawValue> = match serde_json::from_str(values) {
            Ok(values) => values,
            Err(error) => return invalid(&error.to_string()),
        };
        let mut listed = Vec::new();
        for value in values {
            let value = value.get();
            match value.as_bytes().first() {
                Some(b'"') => match serde_json::from_str::<String>(value) {
                    Ok(text) => listed.push(text),
                    Err(error) => return invalid(&error.to_string()),
                },
                Some(b'n') => warn(format!("Ignoring null value for {key}")),
                // Jackson takes a number (as written: `7.50` stays `7.50`) or a boolean as
                // its text.
                Some(b't' | b'f' | b'-' | b'0'..=b'9') => listed.push(value.to_string()),
                _ => {
                    return invalid(&format!(
                        "a value of {key} is {}, not a string",
                        kind(value)
                    ))
                }
            }
        }
        if !listed.is_empty() {
            pairs.push((key, listed));
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

/// What a raw JSON value is, by its first character.
fn kind(raw: &str) -> &'static str {
    match raw.as_bytes().first() {
        Some(b'n') => "null",
        Some(b't' | b'f') => "a boolean",
        Some(b'"') => "a string",
        Some(b'[') => "an array",
        Some(b'{') => "an object",
        _ => "a number",
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
            "\u{feff}{\"configs\": {\"user\": [\"alice\", null, \"bob\"], \"n\": [7.50, 1E2, 1e400, true]}, \"other\": 1}",
        );
        // The order of the keys changes nothing (any key may match); compare them sorted.
        let ContextMapFile::Pairs(mut pairs) = result else {
            panic!("{result:?}")
        };
        pairs.sort();
        assert_eq!(
            ContextMapFile::Pairs(pairs),
            ContextMapFile::Pairs(vec![
                (
                    "n".to_string(),
                    vec![
                        "7.50".to_string(),
                        "1E2".to_string(),
                        "1e400".to_string(),
                        "true".to_string()
                    ]
                ),
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
