//! A YAML writer that prints what Jackson's YAML generator prints through SnakeYAML's emitter
//! (the pair log4j2's YamlLayout uses): block mappings and indentless block sequences indented
//! by two, empty ones in flow style (`{}`, `[]`), field names plain when SnakeYAML's analysis
//! allows it (else single- or double-quoted), every string value double-quoted with SnakeYAML's
//! escapes, and long strings folded at spaces past column 80 with its `\` continuations.

use super::jackson::Tree;

/// SnakeYAML's default `bestWidth`: a double-quoted scalar is folded once a line passes it.
const BEST_WIDTH: usize = 80;

/// SnakeYAML's default `bestIndent`.
const INDENT: usize = 2;

/// Keys at least this long (in UTF-16 units) cannot be simple keys (`? key`).
const MAX_SIMPLE_KEY_LENGTH: usize = 128;

/// What the next value follows.
#[derive(Clone, Copy)]
enum Slot {
    /// The document start.
    Root,
    /// `key:` of a mapping whose keys are at this column.
    Value(usize),
    /// `-` of a sequence whose dashes are at this column.
    Item(usize),
}

/// Writes one YAML document body into a `String`.
pub(crate) struct YamlWriter<'a> {
    out: &'a mut String,
    /// Where the current line starts in `out` (for SnakeYAML's column counting).
    line_start: usize,
    slot: Slot,
}

/// One open mapping or sequence.
#[must_use]
pub(crate) struct YamlOpen {
    /// The column of its keys or dashes.
    indent: usize,
    empty: bool,
    /// It is the value of a sequence item: its first entry goes on the `-` line.
    inline_first: bool,
}

/// How SnakeYAML writes a mapping key.
#[derive(Debug, PartialEq, Eq)]
enum KeyStyle {
    Plain,
    SingleQuoted,
    DoubleQuoted,
    /// Not a simple key (empty, multi-line or long): `? key` and `:` on the next line.
    Complex,
}

impl<'a> YamlWriter<'a> {
    /// A writer appending to `out`, which ends with the document's `---`.
    pub(super) fn new(out: &'a mut String) -> YamlWriter<'a> {
        let line_start = out.rfind('\n').map_or(0, |i| i + 1);
        YamlWriter {
            out,
            line_start,
            slot: Slot::Root,
        }
    }

    fn new_line(&mut self, indent: usize) {
        self.out.push('\n');
        self.line_start = self.out.len();
        for _ in 0..indent {
            self.out.push(' ');
        }
    }

    /// Starts an entry of `open`: on the `-` line for the first entry of an item's mapping,
    /// else on a new line.
    fn entry(&mut self, open: &mut YamlOpen) {
        if open.empty && open.inline_first {
            self.out.push(' ');
        } else {
            self.new_line(open.indent);
        }
        open.empty = false;
    }

    fn open(&mut self, sequence: bool) -> YamlOpen {
        let (indent, inline_first) = match self.slot {
            Slot::Root => (0, false),
            // Sequences in a mapping are indentless.
            Slot::Value(keys) if sequence => (keys, false),
            Slot::Value(keys) => (keys + INDENT, false),
            Slot::Item(dashes) => (dashes + INDENT, true),
        };
        YamlOpen {
            indent,
            empty: true,
            inline_first,
        }
    }

    /// The column continuation lines of the next scalar are indented to.
    fn scalar_indent(&self) -> usize {
        match self.slot {
            Slot::Root => INDENT,
            Slot::Value(indent) | Slot::Item(indent) => indent + INDENT,
        }
    }

    fn column(&self) -> usize {
        utf16_len(&self.out[self.line_start..])
    }

    /// SnakeYAML's `writeDoubleQuoted`: positions and columns count UTF-16 units as Java does.
    fn double_quoted(&mut self, text: &str, split: bool, indent: usize) {
        self.out.push('"');
        // Most values are short plain ASCII that fits the line: nothing to escape or fold (a
        // line's UTF-16 length is at most its byte length).
        let line = self.out.len() - self.line_start;
        if (!split || line + text.len() <= BEST_WIDTH) && text.bytes().all(is_plain_byte) {
            self.out.push_str(text);
            self.out.push('"');
            return;
        }
        let mut column = self.column();
        let length = utf16_len(text) as isize;
        // The pending run of plain ASCII: `start` in bytes and in UTF-16 units.
        let (mut start_byte, mut start) = (0usize, 0isize);
        let mut end = 0isize;
        let mut chars = text.char_indices();
        loop {
            let (end_byte, ch) = match chars.next() {
                Some((byte, ch)) => (byte, Some(ch)),
                None => (text.len(), None),
            };
            // Java's `end` after a two-unit character points at its low surrogate.
            let mut java_end = end;
            let special = match ch {
                None => true,
                Some(c) => {
                    matches!(
                        c,
                        '"' | '\\' | '\u{85}' | '\u{2028}' | '\u{2029}' | '\u{FEFF}'
                    ) || !(' '..='~').contains(&c)
                }
            };
            if special {
                if start < end {
                    self.out.push_str(&text[start_byte..end_byte]);
                    column += (end - start) as usize;
                    start = end;
                    start_byte = end_byte;
                }
                if let Some(c) = ch {
                    column += write_escaped(self.out, c);
                    java_end = end + c.len_utf16() as isize - 1;
                    start = java_end + 1;
                    start_byte = end_byte + c.len_utf8();
                }
            }
            if split
                && 0 < java_end
                && java_end < length - 1
                && (ch == Some(' ') || start >= java_end)
                && column as isize + (java_end - start) > BEST_WIDTH as isize
            {
                if start < java_end {
                    self.out.push_str(&text[start_byte..end_byte]);
                    start = java_end;
                    start_byte = end_byte;
                }
                self.out.push('\\');
                self.new_line(indent);
                column = indent;
                if text[start_byte..].starts_with(' ') {
                    self.out.push('\\');
                    column += 1;
                }
            }
            match ch {
                Some(_) => end = java_end + 1,
                None => break,
            }
        }
        self.out.push('"');
    }

    fn key(&mut self, open: &YamlOpen, name: &str) {
        match key_style(name) {
            KeyStyle::Plain => self.out.push_str(name),
            KeyStyle::SingleQuoted => {
                self.out.push('\'');
                for (index, part) in name.split('\'').enumerate() {
                    if index > 0 {
                        self.out.push_str("''");
                    }
                    self.out.push_str(part);
                }
                self.out.push('\'');
            }
            KeyStyle::DoubleQuoted => self.double_quoted(name, false, 0),
            KeyStyle::Complex => {
                self.out.push('?');
                if !name.is_empty() {
                    self.out.push(' ');
                    self.double_quoted(name, false, 0);
                }
                self.new_line(open.indent);
            }
        }
    }
}

/// Appends SnakeYAML's form of a character that stops a plain run and returns its width in
/// UTF-16 units: a named escape, the character itself when printable, else a hex escape.
fn write_escaped(out: &mut String, c: char) -> usize {
    let named = match c {
        '\0' => "\\0",
        '\u{7}' => "\\a",
        '\u{8}' => "\\b",
        '\t' => "\\t",
        '\n' => "\\n",
        '\u{B}' => "\\v",
        '\u{C}' => "\\f",
        '\r' => "\\r",
        '\u{1B}' => "\\e",
        '"' => "\\\"",
        '\\' => "\\\\",
        '\u{85}' => "\\N",
        '\u{A0}' => "\\_",
        '\u{2028}' => "\\L",
        '\u{2029}' => "\\P",
        _ if is_printable(c) => {
            out.push(c);
            return c.len_utf16();
        }
        _ => "",
    };
    if !named.is_empty() {
        out.push_str(named);
        return named.len();
    }
    // Java's `Integer.toString(c, 16)`: lower-case hex digits.
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let code = u32::from(c);
    let (prefix, digits) = if code <= 0xFF {
        ("\\x", 2)
    } else if code > 0xFFFF {
        ("\\U", 8)
    } else {
        ("\\u", 4)
    };
    out.push_str(prefix);
    for shift in (0..digits).rev() {
        out.push(HEX[((code >> (shift * 4)) & 0xF) as usize] as char);
    }
    prefix.len() + digits
}

/// A byte SnakeYAML writes as it is inside double quotes.
fn is_plain_byte(byte: u8) -> bool {
    matches!(byte, b' '..=b'~') && byte != b'"' && byte != b'\\'
}

/// SnakeYAML's `StreamReader.isPrintable`.
fn is_printable(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | ' '..='~' | '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

fn utf16_len(text: &str) -> usize {
    text.chars().map(char::len_utf16).sum()
}

/// The whitespace SnakeYAML's analysis looks for around indicators.
fn is_blank(c: char) -> bool {
    matches!(
        c,
        '\0' | ' ' | '\t' | '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}'
    )
}

/// SnakeYAML's `analyzeScalar` and `chooseScalarStyle` for a plain-styled key in a block
/// mapping.
fn key_style(key: &str) -> KeyStyle {
    if key.is_empty() || utf16_len(key) >= MAX_SIMPLE_KEY_LENGTH {
        return KeyStyle::Complex;
    }
    // Every field name of the event itself: letters and digits need no analysis.
    if key.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return KeyStyle::Plain;
    }
    let mut block_indicators = key.starts_with("---") || key.starts_with("...");
    let (mut line_breaks, mut special) = (false, false);
    let (mut leading_space, mut trailing_space) = (false, false);
    let (mut break_space, mut space_break) = (false, false);
    let (mut previous_space, mut previous_break) = (false, false);
    let mut preceded_by_blank = true;
    let mut chars = key.chars().enumerate().peekable();
    let last = key.chars().count() - 1;
    while let Some((index, c)) = chars.next() {
        let followed_by_blank = chars.peek().is_none_or(|&(_, next)| is_blank(next));
        if index == 0 {
            if "#,[]{}&*!|>'\"%@`".contains(c)
                || (matches!(c, '?' | ':' | '-') && followed_by_blank)
            {
                block_indicators = true;
            }
        } else if (c == ':' && followed_by_blank) || (c == '#' && preceded_by_blank) {
            block_indicators = true;
        }
        let is_break = matches!(c, '\n' | '\u{85}' | '\u{2028}' | '\u{2029}');
        line_breaks |= is_break;
        if !(c == '\n' || (' '..='~').contains(&c)) {
            let unicode = matches!(c, '\u{85}' | '\u{A0}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
                && c != '\u{FEFF}';
            special |= !unicode;
        }
        if c == ' ' {
            leading_space |= index == 0;
            trailing_space |= index == last;
            break_space |= previous_break;
            previous_space = true;
            previous_break = false;
        } else if is_break {
            space_break |= previous_space;
            previous_space = false;
            previous_break = true;
        } else {
            previous_space = false;
            previous_break = false;
        }
        preceded_by_blank = is_blank(c);
    }
    if line_breaks {
        return KeyStyle::Complex;
    }
    let single = !(break_space || space_break || special);
    let plain = single && !(leading_space || trailing_space || block_indicators);
    if plain {
        KeyStyle::Plain
    } else if single {
        KeyStyle::SingleQuoted
    } else {
        KeyStyle::DoubleQuoted
    }
}

impl Tree for YamlWriter<'_> {
    type Open = YamlOpen;

    fn begin_object(&mut self) -> YamlOpen {
        self.open(false)
    }

    fn end_object(&mut self, open: YamlOpen) {
        if open.empty {
            self.out.push_str(" {}");
        }
    }

    fn field(&mut self, open: &mut YamlOpen, name: &str) {
        self.entry(open);
        self.key(open, name);
        self.out.push(':');
        self.slot = Slot::Value(open.indent);
    }

    fn begin_array(&mut self) -> YamlOpen {
        self.open(true)
    }

    fn element(&mut self, open: &mut YamlOpen) {
        self.entry(open);
        self.out.push('-');
        self.slot = Slot::Item(open.indent);
    }

    fn end_array(&mut self, open: YamlOpen) {
        if open.empty {
            self.out.push_str(" []");
        }
    }

    fn string(&mut self, value: &str) {
        let indent = self.scalar_indent();
        self.out.push(' ');
        self.double_quoted(value, true, indent);
    }

    fn integer(&mut self, value: i64) {
        self.out.push(' ');
        self.out.push_str(itoa::Buffer::new().format(value));
    }

    fn boolean(&mut self, value: bool) {
        self.out.push_str(if value { " true" } else { " false" });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quoted(text: &str, prefix: &str) -> String {
        let mut out = prefix.to_string();
        let mut yaml = YamlWriter::new(&mut out);
        yaml.double_quoted(text, true, 2);
        out
    }

    #[test]
    fn escapes_as_snakeyaml_does() {
        // Expected forms from the oracle's YamlLayout output (scenario 493).
        assert_eq!(
            quoted("\0 \u{1} \u{8} \u{b} \t \n \r \u{1b} \u{1f} \u{7f} \u{80} \u{85} \u{a0} \u{2028} \u{2029} \u{feff} \u{fffe} é 😀 \" \\", ""),
            "\"\\0 \\x01 \\b \\v \\t \\n \\r \\e \\x1f \\x7f \\x80 \\N \\_ \\L \\P \u{feff} \\ufffe é 😀 \\\" \\\\\""
        );
    }

    #[test]
    fn long_strings_fold_at_spaces_past_column_80() {
        let text = "A very long message that goes on and on well past the eighty column limit of SnakeYAML";
        assert_eq!(
            quoted(text, "message: "),
            "message: \"A very long message that goes on and on well past the eighty column limit\\\n  \\ of SnakeYAML\""
        );
        // No space to fold at: the line runs on.
        let word = "x".repeat(100);
        assert_eq!(quoted(&word, "k: "), format!("k: \"{word}\""));
    }

    #[test]
    fn keys_are_plain_unless_snakeyaml_needs_quotes() {
        for plain in ["a", "a b", "x:y", "a,b", "q\"", "1", "true", "~", "é"] {
            assert_eq!(key_style(plain), KeyStyle::Plain, "{plain}");
        }
        for single in ["#k", "*x", "- k", "[a]", " a", "a ", ": x"] {
            assert_eq!(key_style(single), KeyStyle::SingleQuoted, "{single}");
        }
        assert_eq!(key_style("k\tv"), KeyStyle::DoubleQuoted);
        assert_eq!(key_style(""), KeyStyle::Complex);
        assert_eq!(key_style("a\nb"), KeyStyle::Complex);
    }

    #[test]
    fn block_layout_matches_snakeyaml() {
        let mut out = String::from("---");
        let mut yaml = YamlWriter::new(&mut out);
        let mut root = yaml.begin_object();
        yaml.field(&mut root, "marker");
        let mut marker = yaml.begin_object();
        yaml.string_field(&mut marker, "name", "A");
        yaml.field(&mut marker, "parents");
        let mut parents = yaml.begin_array();
        yaml.element(&mut parents);
        let mut parent = yaml.begin_object();
        yaml.string_field(&mut parent, "name", "B");
        yaml.field(&mut parent, "parents");
        let mut grand = yaml.begin_array();
        yaml.element(&mut grand);
        let mut g = yaml.begin_object();
        yaml.string_field(&mut g, "name", "C");
        yaml.end_object(g);
        yaml.end_array(grand);
        yaml.end_object(parent);
        yaml.end_array(parents);
        yaml.end_object(marker);
        yaml.field(&mut root, "stack");
        let mut stack = yaml.begin_array();
        yaml.element(&mut stack);
        yaml.string("s");
        yaml.end_array(stack);
        yaml.field(&mut root, "map");
        let map = yaml.begin_object();
        yaml.end_object(map);
        yaml.field(&mut root, "");
        yaml.integer(1);
        yaml.boolean_field(&mut root, "b", false);
        yaml.end_object(root);
        assert_eq!(
            out,
            "---\nmarker:\n  name: \"A\"\n  parents:\n  - name: \"B\"\n    parents:\n    - name: \"C\"\nstack:\n- \"s\"\nmap: {}\n?\n: 1\nb: false"
        );
    }

    /// Reads a double-quoted scalar back as a YAML parser would: escapes, and escaped line
    /// breaks that drop the next line's indentation.
    fn unquote(quoted: &str) -> String {
        let body = &quoted[1..quoted.len() - 1];
        let mut out = String::new();
        let mut chars = body.chars().peekable();
        while let Some(c) = chars.next() {
            if c != '\\' {
                out.push(c);
                continue;
            }
            let escape = chars.next().expect("an escape");
            let hex = |chars: &mut std::iter::Peekable<std::str::Chars<'_>>, digits| {
                let code: String = (0..digits).map(|_| chars.next().unwrap()).collect();
                char::from_u32(u32::from_str_radix(&code, 16).unwrap()).unwrap()
            };
            out.push(match escape {
                '\n' => {
                    while chars.peek() == Some(&' ') {
                        chars.next();
                    }
                    continue;
                }
                '0' => '\0',
                'a' => '\u{7}',
                'b' => '\u{8}',
                't' => '\t',
                'n' => '\n',
                'v' => '\u{b}',
                'f' => '\u{c}',
                'r' => '\r',
                'e' => '\u{1b}',
                'N' => '\u{85}',
                '_' => '\u{a0}',
                'L' => '\u{2028}',
                'P' => '\u{2029}',
                'x' => hex(&mut chars, 2),
                'u' => hex(&mut chars, 4),
                'U' => hex(&mut chars, 8),
                other => other,
            });
        }
        out
    }

    #[test]
    fn any_text_reads_back_at_any_column() {
        // A fixed pseudo-random walk over characters that stress escaping and folding.
        const ALPHABET: [char; 16] = [
            ' ', ' ', 'a', 'b', '"', '\\', '\n', '\t', '\0', '\u{85}', '\u{7f}', 'é', '😀',
            '\u{2028}', '\u{feff}', '\u{fffe}',
        ];
        let mut seed: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut next = move || {
            seed = seed.wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1);
            (seed >> 33) as usize
        };
        for round in 0..2_000 {
            let length = next() % 200;
            let text: String = (0..length)
                .map(|_| ALPHABET[next() % ALPHABET.len()])
                .collect();
            let prefix = " ".repeat(round % 90);
            let written = quoted(&text, &prefix);
            let scalar = &written[prefix.len()..];
            assert_eq!(unquote(scalar), text, "{scalar:?}");
        }
    }
}
