//! What the fuzz targets share: splitting one input into fields, and the guards that keep
//! libFuzzer away from crashes that are already known and being fixed, so that a run finds
//! new ones instead of the same one again (docs/robustness.md lists them).
//!
//! Set `L4RS_FUZZ_KNOWN_CRASHES=1` to turn the guards off, e.g. to check that a fix landed.
//! Remove a guard once its crash is fixed on main.

use std::sync::OnceLock;

/// True when the guards are off (`L4RS_FUZZ_KNOWN_CRASHES=1`).
fn guards_off() -> bool {
    static OFF: OnceLock<bool> = OnceLock::new();
    *OFF.get_or_init(|| std::env::var_os("L4RS_FUZZ_KNOWN_CRASHES").is_some_and(|v| v == "1"))
}

/// Splits `text` at the first NUL into up to `N` fields; missing fields are empty.
pub fn fields<const N: usize>(text: &str) -> [&str; N] {
    let mut out = [""; N];
    let mut rest = text;
    for (index, slot) in out.iter_mut().enumerate() {
        if index + 1 == N {
            *slot = rest;
            break;
        }
        match rest.split_once('\0') {
            Some((head, tail)) => {
                *slot = head;
                rest = tail;
            }
            None => {
                *slot = rest;
                rest = "";
            }
        }
    }
    out
}

/// The longest run of ASCII digits in `text`.
fn longest_digit_run(text: &str) -> usize {
    text.split(|c: char| !c.is_ascii_digit())
        .map(str::len)
        .max()
        .unwrap_or(0)
}

/// A rough nesting depth of XML text: opening tags minus closing ones, at their deepest.
fn rough_xml_depth(text: &str) -> usize {
    let bytes = text.as_bytes();
    let (mut depth, mut deepest) = (0usize, 0usize);
    for (index, &byte) in bytes.iter().enumerate() {
        match (byte, bytes.get(index + 1)) {
            (b'<', Some(b'/')) => depth = depth.saturating_sub(1),
            (b'<', Some(b'?' | b'!')) => {}
            (b'<', _) => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            (b'/', Some(b'>')) => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// Known: a padding or truncation width with many digits (`%-99999999999999999999c`) makes
/// the layout allocate that much or overflow. Widths below 10 000 are let through.
pub fn known_crash_in_pattern(pattern: &str) -> bool {
    !guards_off() && longest_digit_run(pattern) >= 5
}

/// Known: deep element nesting overflows the stack; a huge `bufferSize` and width; XInclude
/// and `${…}` expansion that grow exponentially. Inputs that could reach them are skipped.
pub fn known_crash_in_config(xml: &str) -> bool {
    !guards_off()
        && (rough_xml_depth(xml) >= 100
            || longest_digit_run(xml) >= 5
            || xml.matches("${").count() > 32
            || xml.matches("include").count() > 4)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_split_at_nul() {
        assert_eq!(fields::<3>("a\0b\0c\0d"), ["a", "b", "c\0d"]);
        assert_eq!(fields::<3>("a"), ["a", "", ""]);
    }

    #[test]
    fn guards_see_the_known_crashes() {
        assert!(known_crash_in_pattern("%-99999999999999999999c"));
        assert!(!known_crash_in_pattern("%-9999c %d{yyyy}"));
        assert!(known_crash_in_config(&"<a>".repeat(100)));
        assert!(!known_crash_in_config("<a><b/><c></c></a>"));
    }
}
