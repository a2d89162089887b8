//! A JSON writer that prints what Jackson's generator prints: its string escapes, and in pretty
//! mode its `DefaultPrettyPrinter` layout (`"key" : value`, objects indented by two spaces per
//! level on new lines, arrays inline as `[ a, b ]`, empty ones as `{ }` and `[ ]`).

use std::fmt;

use l4rs_core::Message;

use super::jackson::Tree;

/// Jackson's hex digits are upper case (`\u001F`).
const HEX: &[u8; 16] = b"0123456789ABCDEF";

/// Appends `text` as a JSON string body (no quotes), escaped as Jackson escapes by default:
/// `"` and `\`, the control characters below U+0020 (`\b \t \n \f \r` in short form, the
/// others as `\u00XX`). Everything else, `/`, DEL and non-ASCII included, is kept as is.
pub(crate) fn escape_into(out: &mut String, text: &str) {
    let bytes = text.as_bytes();
    let mut start = 0;
    for (index, &byte) in bytes.iter().enumerate() {
        let short = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            0x08 => "\\b",
            b'\t' => "\\t",
            b'\n' => "\\n",
            0x0C => "\\f",
            b'\r' => "\\r",
            0x00..=0x1F => "",
            _ => continue,
        };
        // Only ASCII bytes stop the scan, so `start..index` is always on char boundaries.
        out.push_str(&text[start..index]);
        if short.is_empty() {
            out.push_str("\\u00");
            out.push(HEX[usize::from(byte >> 4)] as char);
            out.push(HEX[usize::from(byte & 0xF)] as char);
        } else {
            out.push_str(short);
        }
        start = index + 1;
    }
    out.push_str(&text[start..]);
}

/// Escapes whatever is written to it into a JSON string body: formats `format_args!`
/// messages straight into the output without an intermediate string.
pub(crate) struct Escaper<'a>(pub &'a mut String);

impl fmt::Write for Escaper<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        escape_into(self.0, text);
        Ok(())
    }
}

/// Writes JSON into a `String`, compact or pretty.
pub(crate) struct JsonWriter<'a> {
    /// The output.
    pub out: &'a mut String,
    pretty: bool,
    /// Open objects (arrays do not indent in Jackson's pretty printer).
    depth: usize,
}

/// The state of one open object or array: whether anything was written in it yet.
#[must_use]
pub(crate) struct Open {
    empty: bool,
}

impl<'a> JsonWriter<'a> {
    /// A writer appending to `out`.
    pub(super) fn new(out: &'a mut String, pretty: bool) -> JsonWriter<'a> {
        JsonWriter {
            out,
            pretty,
            depth: 0,
        }
    }

    fn new_line(&mut self) {
        self.out.push('\n');
        for _ in 0..self.depth {
            self.out.push_str("  ");
        }
    }
}

impl Tree for JsonWriter<'_> {
    type Open = Open;

    /// `{`.
    fn begin_object(&mut self) -> Open {
        self.out.push('{');
        self.depth += 1;
        Open { empty: true }
    }

    /// `}`.
    fn end_object(&mut self, open: Open) {
        self.depth -= 1;
        if self.pretty {
            if open.empty {
                self.out.push(' ');
            } else {
                self.new_line();
            }
        }
        self.out.push('}');
    }

    /// Separator, indentation, the quoted name and `:`.
    fn field(&mut self, open: &mut Open, name: &str) {
        if !open.empty {
            self.out.push(',');
        }
        open.empty = false;
        if self.pretty {
            self.new_line();
        }
        self.out.push('"');
        escape_into(self.out, name);
        self.out.push('"');
        self.out.push_str(if self.pretty { " : " } else { ":" });
    }

    /// `[`.
    fn begin_array(&mut self) -> Open {
        self.out.push('[');
        Open { empty: true }
    }

    fn element(&mut self, open: &mut Open) {
        if !open.empty {
            self.out.push(',');
        }
        open.empty = false;
        if self.pretty {
            self.out.push(' ');
        }
    }

    /// `]`.
    fn end_array(&mut self, _open: Open) {
        if self.pretty {
            self.out.push(' ');
        }
        self.out.push(']');
    }

    /// A quoted, escaped string.
    fn string(&mut self, value: &str) {
        self.out.push('"');
        escape_into(self.out, value);
        self.out.push('"');
    }

    fn integer(&mut self, value: i64) {
        self.out.push_str(itoa::Buffer::new().format(value));
    }

    fn boolean(&mut self, value: bool) {
        self.out.push_str(if value { "true" } else { "false" });
    }

    /// Formats the message straight into the escaped output.
    fn message(&mut self, message: &Message<'_>) {
        self.out.push('"');
        match message.as_str() {
            Some(text) => escape_into(self.out, text),
            None => {
                let _ = fmt::Write::write_fmt(&mut Escaper(self.out), format_args!("{message}"));
            }
        }
        self.out.push('"');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn escaped(text: &str) -> String {
        let mut out = String::new();
        escape_into(&mut out, text);
        out
    }

    #[test]
    fn escapes_as_jackson_does() {
        assert_eq!(escaped("a\"b\\c/d"), "a\\\"b\\\\c/d");
        assert_eq!(
            escaped("\u{8}\t\n\u{c}\r\u{0}\u{1}\u{1f}\u{7f}"),
            "\\b\\t\\n\\f\\r\\u0000\\u0001\\u001F\u{7f}"
        );
        assert_eq!(escaped("héllo € 😀"), "héllo € 😀");
        assert_eq!(escaped(""), "");
    }

    #[test]
    fn pretty_layout_matches_the_default_pretty_printer() {
        let mut out = String::new();
        let mut json = JsonWriter::new(&mut out, true);
        let mut root = json.begin_object();
        json.string_field(&mut root, "a", "x");
        json.field(&mut root, "list");
        let mut list = json.begin_array();
        json.element(&mut list);
        let mut item = json.begin_object();
        json.integer_field(&mut item, "n", -1);
        json.end_object(item);
        json.element(&mut list);
        let item = json.begin_object();
        json.end_object(item);
        json.end_array(list);
        json.field(&mut root, "empty");
        let empty = json.begin_array();
        json.end_array(empty);
        json.end_object(root);
        assert_eq!(
            out,
            "{\n  \"a\" : \"x\",\n  \"list\" : [ {\n    \"n\" : -1\n  }, { } ],\n  \"empty\" : [ ]\n}"
        );
    }

    #[test]
    fn compact_layout_has_no_spaces() {
        let mut out = String::new();
        let mut json = JsonWriter::new(&mut out, false);
        let mut root = json.begin_object();
        json.boolean_field(&mut root, "b", false);
        json.field(&mut root, "l");
        let mut list = json.begin_array();
        json.element(&mut list);
        json.string("s");
        json.element(&mut list);
        json.string("t");
        json.end_array(list);
        json.field(&mut root, "o");
        let empty = json.begin_object();
        json.end_object(empty);
        json.end_object(root);
        assert_eq!(out, r#"{"b":false,"l":["s","t"],"o":{}}"#);
    }
}
