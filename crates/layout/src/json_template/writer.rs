//! The output side of a template: JSON text appended to the event's buffer, with log4j2's
//! `maxStringLength` truncation of every string value (and object key) written at run time.

use crate::structured::escape_into;

/// The string limits of one layout.
#[derive(Debug)]
pub(crate) struct Limits {
    /// `maxStringLength`: the most UTF-16 code units (Java `char`s) of a string kept.
    pub max_string_length: usize,
    /// `truncatedStringSuffix`, already escaped, appended inside the quotes of a cut string.
    pub escaped_suffix: String,
}

impl Limits {
    /// Limits for `max_string_length` and `suffix`.
    pub(super) fn new(max_string_length: usize, suffix: &str) -> Limits {
        let mut escaped_suffix = String::new();
        escape_into(&mut escaped_suffix, suffix);
        Limits {
            max_string_length,
            escaped_suffix,
        }
    }
}

/// Appends JSON to an event's text.
pub(crate) struct Writer<'a> {
    /// The event's text.
    pub out: &'a mut String,
    limits: &'a Limits,
}

impl<'a> Writer<'a> {
    /// A writer appending to `out`.
    pub(super) fn new(out: &'a mut String, limits: &'a Limits) -> Writer<'a> {
        Writer { out, limits }
    }

    /// Text that is already JSON.
    #[inline]
    pub(super) fn raw(&mut self, json: &str) {
        self.out.push_str(json);
    }

    /// `null`.
    pub(super) fn null(&mut self) {
        self.out.push_str("null");
    }

    /// A quoted string, cut after `maxStringLength` Java chars (never inside a surrogate pair)
    /// and then followed by the truncation suffix, as log4j2's `JsonWriter` does.
    pub(super) fn string(&mut self, text: &str) {
        self.out.push('"');
        match cut_point(text, self.limits.max_string_length) {
            None => escape_into(self.out, text),
            Some(end) => {
                escape_into(self.out, &text[..end]);
                self.out.push_str(&self.limits.escaped_suffix);
            }
        }
        self.out.push('"');
    }

    /// An optional string: `null` when absent.
    pub(super) fn optional_string(&mut self, text: Option<&str>) {
        match text {
            Some(text) => self.string(text),
            None => self.null(),
        }
    }

    /// An object key and its `:`.
    pub(super) fn key(&mut self, key: &str) {
        self.string(key);
        self.out.push(':');
    }

    /// An integer.
    pub(super) fn integer(&mut self, value: i64) {
        self.out.push_str(itoa::Buffer::new().format(value));
    }

    /// `true` or `false`.
    pub(super) fn boolean(&mut self, value: bool) {
        self.out.push_str(if value { "true" } else { "false" });
    }

    /// The current length of the output, to tell whether a resolver wrote anything.
    pub(super) fn len(&self) -> usize {
        self.out.len()
    }
}

/// Where `text` must be cut to keep `max` UTF-16 code units, or `None` when it fits. A
/// character that would straddle the limit (a surrogate pair in Java) is dropped whole, as
/// log4j2 drops a trailing high surrogate.
fn cut_point(text: &str, max: usize) -> Option<usize> {
    // Every UTF-16 unit is at least one UTF-8 byte, so short texts fit without counting.
    if text.len() <= max {
        return None;
    }
    let mut units = 0;
    for (index, c) in text.char_indices() {
        let next = units + c.len_utf16();
        if next > max {
            return Some(index);
        }
        units = next;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn written(max: usize, text: &str) -> String {
        let limits = Limits::new(max, "…");
        let mut out = String::new();
        Writer::new(&mut out, &limits).string(text);
        out
    }

    #[test]
    fn strings_are_cut_after_the_limit_in_java_chars() {
        assert_eq!(written(3, "abc"), "\"abc\"");
        assert_eq!(written(3, "abcd"), "\"abc…\"");
        // é is one Java char though two UTF-8 bytes.
        assert_eq!(written(3, "ééé"), "\"ééé\"");
        // 😀 is two Java chars: it does not fit after "ab".
        assert_eq!(written(3, "ab😀"), "\"ab…\"");
        assert_eq!(written(2, "a\n\"b"), "\"a\\n…\"");
    }
}
