//! `%enc{pattern}{HTML|XML|JSON|CRLF}` / `%encode`: escaping the sub-pattern's output.

use l4rs_core::{status, LogEvent};

use super::CreateError;
use crate::modifiers::field_start;
use crate::parser::{self, ParseOptions};
use crate::pattern::Pattern;
use crate::scratch::with_scratch;

/// The escaping schemes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Escape {
    Html,
    Xml,
    Json,
    Crlf,
}

/// The `%enc` converter.
pub(crate) struct EncodeConverter {
    pub pattern: Pattern,
    escape: Escape,
}

impl EncodeConverter {
    /// `{pattern}{format}`; the format defaults to HTML.
    pub(crate) fn new(
        options: &[String],
        parse: &ParseOptions,
    ) -> Result<EncodeConverter, CreateError> {
        if options.is_empty() || options.len() > 2 {
            status::error(format_args!(
                "Incorrect number of options on escape. Expected 1 or 2, but received {}",
                options.len()
            ));
            return Err(CreateError::Failed);
        }
        // log4j2 looks the name up with `Enum.valueOf` after upper-casing it: anything else
        // (also an empty name or surrounding spaces) fails the converter, which is then printed
        // as the literal `%enc`.
        let escape = match options.get(1).map(|s| s.to_uppercase()).as_deref() {
            None | Some("HTML") => Escape::Html,
            Some("XML") => Escape::Xml,
            Some("JSON") => Escape::Json,
            Some("CRLF") => Escape::Crlf,
            Some(other) => {
                // log4j2's line, then what its stack trace says went wrong, as l4rs help.
                status::error(format_args!(
                    "Error creating converter for enc java.lang.reflect.InvocationTargetException (help: caused by java.lang.IllegalArgumentException: No enum constant org.apache.logging.log4j.core.pattern.EncodingPatternConverter.EscapeFormat.{other}; the modes are HTML, XML, JSON and CRLF)"
                ));
                return Err(CreateError::Failed);
            }
        };
        Ok(EncodeConverter {
            pattern: parser::parse_nested(&options[0], parse)?,
            escape,
        })
    }

    /// Formats the sub-pattern in place, then escapes what it wrote.
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String, base: usize) {
        let start = out.len();
        self.pattern.format_from(event, out, base);
        let start = field_start(out, start);
        if !out[start..].bytes().any(|b| needs_escape(self.escape, b)) {
            return;
        }
        with_scratch(|raw| {
            raw.push_str(&out[start..]);
            out.truncate(start);
            escape(self.escape, raw, out);
        });
    }
}

fn needs_escape(escape: Escape, byte: u8) -> bool {
    match escape {
        Escape::Html => matches!(
            byte,
            b'\r' | b'\n' | b'&' | b'<' | b'>' | b'"' | b'\'' | b'/'
        ),
        Escape::Xml => matches!(byte, b'&' | b'<' | b'>' | b'"' | b'\''),
        // 0xC2 starts the UTF-8 of U+0080..U+00BF, which holds the C1 controls.
        Escape::Json => {
            byte < 0x20 || byte == b'"' || byte == b'\\' || byte == 0x7f || byte == 0xc2
        }
        Escape::Crlf => matches!(byte, b'\r' | b'\n'),
    }
}

/// Appends `text` escaped.
pub(crate) fn escape(escape: Escape, text: &str, out: &mut String) {
    for c in text.chars() {
        match (escape, c) {
            (Escape::Html | Escape::Crlf | Escape::Json, '\r') => out.push_str("\\r"),
            (Escape::Html | Escape::Crlf | Escape::Json, '\n') => out.push_str("\\n"),
            (Escape::Html | Escape::Xml, '&') => out.push_str("&amp;"),
            (Escape::Html | Escape::Xml, '<') => out.push_str("&lt;"),
            (Escape::Html | Escape::Xml, '>') => out.push_str("&gt;"),
            (Escape::Html | Escape::Xml, '"') => out.push_str("&quot;"),
            (Escape::Html | Escape::Xml, '\'') => out.push_str("&apos;"),
            (Escape::Html, '/') => out.push_str("&#x2F;"),
            (Escape::Json, '"') => out.push_str("\\\""),
            (Escape::Json, '\\') => out.push_str("\\\\"),
            (Escape::Json, '\t') => out.push_str("\\t"),
            (Escape::Json, '\u{8}') => out.push_str("\\b"),
            (Escape::Json, '\u{c}') => out.push_str("\\f"),
            (Escape::Json, c) if c.is_control() && (c as u32) < 0xa0 => {
                const HEX: &[u8; 16] = b"0123456789ABCDEF";
                let code = c as u32;
                out.push_str("\\u00");
                out.push(char::from(HEX[(code >> 4 & 0xf) as usize]));
                out.push(char::from(HEX[(code & 0xf) as usize]));
            }
            (_, c) => out.push(c),
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{event, render};
    use l4rs_core::Message;

    #[test]
    fn escapes() {
        let mut e = event();
        e.message = Message::Text("<b>\"bold\" & 'q'</b> a/b\r\n");
        assert_eq!(
            render("%enc{%m}", &e),
            "&lt;b&gt;&quot;bold&quot; &amp; &apos;q&apos;&lt;&#x2F;b&gt; a&#x2F;b\\r\\n"
        );
        assert_eq!(
            render("%enc{%m}{XML}", &e),
            "&lt;b&gt;&quot;bold&quot; &amp; &apos;q&apos;&lt;/b&gt; a/b\r\n"
        );
        assert_eq!(
            render("%enc{%m}{CRLF}", &e),
            "<b>\"bold\" & 'q'</b> a/b\\r\\n"
        );
        e.message = Message::Text(
            "back\\slash \u{1}\u{1f}\u{7f} bell\u{7} ff\u{c} bs\u{8} \"q\" \t \u{85}é",
        );
        assert_eq!(
            render("%encode{%m}{json}", &e),
            "back\\\\slash \\u0001\\u001F\\u007F bell\\u0007 ff\\f bs\\b \\\"q\\\" \\t \\u0085é"
        );
    }

    #[test]
    fn an_unknown_format_fails_the_converter_like_log4j2() {
        let e = event();
        assert_eq!(render("[%enc{%m}{Bogus}]", &e), "[%enc]");
        assert_eq!(render("[%enc{%m}{ xml}]", &e), "[%enc]");
        assert_eq!(
            render("[%enc{%m}{xml}]", &e),
            format!("[{}]", render("%m", &e))
        );
    }
}
