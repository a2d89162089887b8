//! An XML writer that prints what Jackson's XML generator prints through Woodstox (the StAX
//! writer jackson-dataformat-xml depends on): Woodstox's escapes, and in pretty mode log4j2's
//! `DefaultXmlPrettyPrinter` layout (each element on its own line, two spaces per level,
//! starting at level 1; text-only elements on one line; childless elements self-closed).

use std::fmt;

/// Java's `Integer.toHexString`: lower case, no padding.
fn push_char_reference(out: &mut String, c: char) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push_str("&#x");
    let code = u32::from(c);
    let digits = ((32 - code.leading_zeros()).max(1)).div_ceil(4);
    for shift in (0..digits).rev() {
        out.push(HEX[((code >> (shift * 4)) & 0xF) as usize] as char);
    }
    out.push(';');
}

/// Characters XML 1.0 cannot hold at all (the C0 controls other than tab, line feed and
/// carriage return). Woodstox refuses them and log4j2 then drops the whole event; l4rs writes
/// U+FFFD in their place and keeps the event.
fn is_unrepresentable(c: char) -> bool {
    c < ' ' && !matches!(c, '\t' | '\n' | '\r')
}

/// Appends `text` as element content, escaped as Woodstox escapes it: `<` and `&`, `>` after
/// `]]`, carriage returns, the C1 controls with DEL and the non-characters U+FFFE/U+FFFF as
/// character references.
pub(crate) fn escape_text_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '&' => out.push_str("&amp;"),
            '>' if out.ends_with("]]") => out.push_str("&gt;"),
            '\r' | '\u{7F}'..='\u{9F}' | '\u{FFFE}' | '\u{FFFF}' => push_char_reference(out, c),
            _ if is_unrepresentable(c) => out.push('\u{FFFD}'),
            _ => out.push(c),
        }
    }
}

/// Appends `text` as an attribute value (inside `"`), escaped as Woodstox escapes it: `<`, `&`,
/// `"` and the whitespace controls.
pub(crate) fn escape_attribute_into(out: &mut String, text: &str) {
    for c in text.chars() {
        match c {
            '<' => out.push_str("&lt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\t' | '\n' | '\r' | '\u{FFFE}' | '\u{FFFF}' => push_char_reference(out, c),
            _ if is_unrepresentable(c) => out.push('\u{FFFD}'),
            _ => out.push(c),
        }
    }
}

/// Escapes whatever is written to it as element content: formats `format_args!` messages
/// straight into the output.
struct TextEscaper<'a>(&'a mut String);

impl fmt::Write for TextEscaper<'_> {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        escape_text_into(self.0, text);
        Ok(())
    }
}

/// Writes XML elements into a `String`, compact or pretty.
pub(crate) struct XmlWriter<'a> {
    out: &'a mut String,
    pretty: bool,
    /// The pretty printer's nesting level of the next element.
    level: usize,
    /// The last start tag is still open (`<name attr="…"`): attributes may follow.
    start_open: bool,
}

impl<'a> XmlWriter<'a> {
    /// A writer appending to `out`.
    pub(super) fn new(out: &'a mut String, pretty: bool) -> XmlWriter<'a> {
        XmlWriter {
            out,
            pretty,
            level: 1,
            start_open: false,
        }
    }

    fn close_start_tag(&mut self) {
        if self.start_open {
            self.out.push('>');
            self.start_open = false;
        }
    }

    fn indent(&mut self) {
        if self.pretty {
            self.out.push('\n');
            for _ in 0..self.level {
                self.out.push_str("  ");
            }
        }
    }

    /// `<name`: attributes may follow, then children, then [`XmlWriter::end`].
    pub(super) fn start(&mut self, name: &str) {
        self.close_start_tag();
        self.indent();
        self.out.push('<');
        self.out.push_str(name);
        self.start_open = true;
        self.level += 1;
    }

    /// ` name="value"` on the open start tag.
    pub(super) fn attribute(&mut self, name: &str, value: &str) {
        self.out.push(' ');
        self.out.push_str(name);
        self.out.push_str("=\"");
        escape_attribute_into(self.out, value);
        self.out.push('"');
    }

    /// An integer attribute.
    pub(super) fn integer_attribute(&mut self, name: &str, value: i64) {
        self.attribute(name, itoa::Buffer::new().format(value));
    }

    /// A boolean attribute.
    pub(super) fn boolean_attribute(&mut self, name: &str, value: bool) {
        self.attribute(name, if value { "true" } else { "false" });
    }

    /// Closes the element [`XmlWriter::start`] opened: `/>` without children.
    pub(super) fn end(&mut self, name: &str) {
        self.level -= 1;
        if self.start_open {
            self.out.push_str("/>");
            self.start_open = false;
        } else {
            self.indent();
            self.out.push_str("</");
            self.out.push_str(name);
            self.out.push('>');
        }
    }

    /// `<name>text</name>` (never self-closed, even when empty).
    pub(super) fn text_element(&mut self, name: &str, text: &str) {
        self.text_element_with(name, |out| escape_text_into(out, text));
    }

    /// `<name>…</name>` with the text formatted straight into the escaped output.
    pub(super) fn formatted_element(&mut self, name: &str, args: fmt::Arguments<'_>) {
        self.text_element_with(name, |out| {
            let _ = fmt::Write::write_fmt(&mut TextEscaper(out), args);
        });
    }

    fn text_element_with(&mut self, name: &str, write: impl FnOnce(&mut String)) {
        self.close_start_tag();
        self.indent();
        self.out.push('<');
        self.out.push_str(name);
        self.out.push('>');
        write(self.out);
        self.out.push_str("</");
        self.out.push_str(name);
        self.out.push('>');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_as_woodstox_does() {
        // Expected forms from the oracle's XmlLayout output with Woodstox (scenario 493).
        let mut text = String::new();
        escape_text_into(
            &mut text,
            "\t \n \r < > & ' \" ]]> ]] > \u{7f} \u{80} \u{85} \u{a0} \u{2028} \u{feff} \u{fffe}",
        );
        assert_eq!(
            text,
            "\t \n &#xd; &lt; > &amp; ' \" ]]&gt; ]] > &#x7f; &#x80; &#x85; \u{a0} \u{2028} \u{feff} &#xfffe;"
        );
        let mut attribute = String::new();
        escape_attribute_into(&mut attribute, "a<b>&'\"\t\n\r]]>\u{85}");
        assert_eq!(attribute, "a&lt;b>&amp;'&quot;&#x9;&#xa;&#xd;]]>\u{85}");
    }

    #[test]
    fn characters_xml_cannot_hold_become_replacement_characters() {
        let mut text = String::new();
        escape_text_into(&mut text, "a\0b\u{1}c\u{1f}");
        assert_eq!(text, "a\u{fffd}b\u{fffd}c\u{fffd}");
    }

    #[test]
    fn pretty_layout_matches_the_default_xml_pretty_printer() {
        let mut out = String::new();
        let mut xml = XmlWriter::new(&mut out, true);
        xml.start("Event");
        xml.attribute("a", "1");
        xml.start("Empty");
        xml.integer_attribute("n", -1);
        xml.end("Empty");
        xml.text_element("Message", "");
        xml.start("List");
        xml.text_element("Item", "x\ny");
        xml.end("List");
        xml.end("Event");
        assert_eq!(
            out,
            "\n  <Event a=\"1\">\n    <Empty n=\"-1\"/>\n    <Message></Message>\n    <List>\n      <Item>x\ny</Item>\n    </List>\n  </Event>"
        );
        let mut compact = String::new();
        let mut xml = XmlWriter::new(&mut compact, false);
        xml.start("E");
        xml.start("C");
        xml.end("C");
        xml.end("E");
        assert_eq!(compact, "<E><C/></E>");
    }

    /// Reads escaped text back as an XML parser would.
    fn unescape(text: &str) -> String {
        let mut out = String::new();
        let mut rest = text;
        while let Some(at) = rest.find('&') {
            out.push_str(&rest[..at]);
            let end = rest[at..].find(';').expect("an entity end") + at;
            let entity = &rest[at + 1..end];
            out.push(match entity {
                "lt" => '<',
                "gt" => '>',
                "amp" => '&',
                "quot" => '"',
                _ => {
                    let hex = entity.strip_prefix("#x").expect("a character reference");
                    char::from_u32(u32::from_str_radix(hex, 16).unwrap()).unwrap()
                }
            });
            rest = &rest[end + 1..];
        }
        out.push_str(rest);
        out
    }

    #[test]
    fn escaped_text_and_attributes_read_back() {
        let samples = [
            "plain",
            "]]]]>>]]>",
            "<&>\"'\t\n\r",
            "\u{7f}\u{80}\u{9f}\u{a0}\u{fffe}\u{ffff}😀",
            "&amp; already",
        ];
        for sample in samples {
            let mut text = String::new();
            escape_text_into(&mut text, sample);
            assert!(!text.contains('<') && !text.contains("]]>"), "{text:?}");
            assert_eq!(unescape(&text), sample);
            let mut attribute = String::new();
            escape_attribute_into(&mut attribute, sample);
            assert!(
                !attribute.contains('"') && !attribute.contains('<'),
                "{attribute:?}"
            );
            assert_eq!(unescape(&attribute), sample);
        }
    }
}
