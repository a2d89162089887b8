//! Java regular expressions, translated into the `regex` crate's syntax.
//!
//! log4j2 configurations hold `java.util.regex` patterns. Most of the syntax is shared with the
//! `regex` crate, but several constructs mean something else or do not exist there. The
//! translation keeps Java's meaning where the `regex` crate can express it:
//!
//! | Java | Translated to |
//! |---|---|
//! | `.` (stops at `\n`, `\r`, `\u0085`, `\u2028`, `\u2029`) | a class excluding exactly those; `[^\n]` under `(?d)`; any char under `(?s)` |
//! | `\d \w \s` and negations (ASCII unless `(?U)`) | ASCII classes |
//! | `\h \v \R \e \cX \0ooo`, `\Z` | their explicit equivalents |
//! | `\p{Alpha}`-style POSIX classes, `\p{javaLowerCase}`, `\p{IsLatin}` | ASCII classes or Unicode properties |
//! | `\Q…\E` | escaped literal text |
//! | `(?d)`, `(?U)`, `(?u)` flags | tracked here (they have no `regex` counterpart), the rest passed on |
//! | possessive quantifiers `*+ ++ ?+ {n}+` | the greedy quantifier (same result for every pattern that does not rely on refusing to backtrack) |
//! | `--` and `~` in a class (literal in Java, set operators in `regex`) | escaped |
//!
//! Constructs that need backtracking (backreferences, lookaround, atomic groups, `\G`) cannot be
//! expressed and are reported as [`JavaRegexError::Unsupported`]. The whole pattern is anchored at
//! both ends, which is what Java's `Matcher.matches()` tests.

use std::fmt::Write as _;

/// Why a Java regular expression could not be turned into a working `regex`.
#[derive(Debug, thiserror::Error)]
pub enum JavaRegexError {
    /// Valid Java syntax that the `regex` crate cannot evaluate.
    #[error("{construct} (near index {index}) is not supported by l4rs")]
    Unsupported {
        /// What the construct is, e.g. `a lookahead group`.
        construct: &'static str,
        /// Its position in the pattern, in characters.
        index: usize,
    },
    /// Syntax that Java rejects too.
    #[error("{description} near index {index}")]
    Invalid {
        /// What is wrong, worded as Java's `PatternSyntaxException` words it.
        description: &'static str,
        /// Its position in the pattern, in characters.
        index: usize,
    },
    /// The translated pattern did not compile.
    #[error("{description}")]
    Syntax {
        /// The compiler's complaint, on one line.
        description: String,
        /// The compiler's error.
        #[source]
        source: regex::Error,
    },
}

impl JavaRegexError {
    /// Wraps a compile error of a translated pattern. The `regex` crate's message quotes the
    /// translated pattern over several lines; only its last line, the actual complaint, is kept,
    /// since the translated text would confuse someone reading their own Java pattern.
    pub fn from_compile_error(source: regex::Error) -> JavaRegexError {
        let description = match &source {
            regex::Error::Syntax(text) => text
                .lines()
                .rev()
                .find_map(|line| line.strip_prefix("error: "))
                .unwrap_or(text)
                .to_string(),
            other => other.to_string(),
        };
        JavaRegexError::Syntax {
            description,
            source,
        }
    }
}

/// Translates a Java regular expression into an equivalent `regex` crate pattern that matches
/// only when the **whole** text matches (Java's `Matcher.matches()`).
///
/// The result still has to be compiled; a syntax error Java would report may only show up then,
/// as a [`regex::Error`].
pub fn translate_java_regex(java: &str) -> Result<String, JavaRegexError> {
    let mut translator = Translator {
        chars: java.chars().collect(),
        pos: 0,
        out: String::with_capacity(java.len() + 16),
        flags: Flags::default(),
        groups: Vec::new(),
        class_depth: 0,
    };
    translator.out.push_str(r"\A(?:");
    translator.run()?;
    if translator.flags.comments {
        // A trailing `# comment` would otherwise swallow the closing anchor.
        translator.out.push('\n');
    }
    translator.out.push_str(r")\z");
    Ok(translator.out)
}

/// The Java flags that change how this translator must rewrite the pattern.
#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    /// `(?s)` DOTALL.
    dotall: bool,
    /// `(?d)` UNIX_LINES: only `\n` ends a line.
    unix_lines: bool,
    /// `(?x)` COMMENTS: whitespace ignored, `#` starts a comment.
    comments: bool,
    /// `(?U)` UNICODE_CHARACTER_CLASS: `\d \w \s` and POSIX classes become Unicode.
    unicode_classes: bool,
}

struct Translator {
    chars: Vec<char>,
    pos: usize,
    out: String,
    flags: Flags,
    /// The flags in force outside each open group, to restore when it closes.
    groups: Vec<Flags>,
    /// How many character classes are open (Java and `regex` both nest them).
    class_depth: usize,
}

const DOT: &str = r"[^\n\r\x{85}\x{2028}\x{2029}]";
const LINE_BREAK: &str = r"(?:\r\n|[\n\x0B\x0C\r\x{85}\x{2028}\x{2029}])";
const HORIZONTAL_SPACE: &str =
    r"\x20\t\xA0\x{1680}\x{180E}\x{2000}-\x{200A}\x{202F}\x{205F}\x{3000}";
const VERTICAL_SPACE: &str = r"\n\x0B\x0C\r\x{85}\x{2028}\x{2029}";

impl Translator {
    fn peek(&self) -> Option<char> {
        self.chars.get(self.pos).copied()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.chars.get(self.pos + offset).copied()
    }

    fn next(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += 1;
        Some(c)
    }

    fn unsupported(&self, construct: &'static str, index: usize) -> JavaRegexError {
        JavaRegexError::Unsupported { construct, index }
    }

    fn invalid(&self, description: &'static str) -> JavaRegexError {
        JavaRegexError::Invalid {
            description,
            index: self.pos.saturating_sub(1),
        }
    }

    fn run(&mut self) -> Result<(), JavaRegexError> {
        while let Some(c) = self.next() {
            if self.flags.comments && c == '#' {
                self.copy_comment();
            } else if self.class_depth > 0 {
                self.class_char(c)?;
            } else {
                self.plain_char(c)?;
            }
        }
        Ok(())
    }

    /// Copies a `#` comment through the end of its line: both engines ignore it, and its text
    /// must not be mistaken for groups or classes.
    fn copy_comment(&mut self) {
        self.out.push('#');
        while let Some(c) = self.next() {
            self.out.push(c);
            if c == '\n' {
                break;
            }
        }
    }

    fn plain_char(&mut self, c: char) -> Result<(), JavaRegexError> {
        match c {
            '\\' => self.escape(false)?,
            '[' => self.open_class(),
            '.' => {
                if self.flags.dotall {
                    self.out.push_str("(?s:.)");
                } else if self.flags.unix_lines {
                    self.out.push_str(r"[^\n]");
                } else {
                    self.out.push_str(DOT);
                }
            }
            '(' => self.open_group()?,
            ')' => {
                if let Some(outer) = self.groups.pop() {
                    self.flags = outer;
                }
                self.out.push(')');
            }
            '*' | '+' | '?' => {
                self.out.push(c);
                self.skip_possessive();
            }
            '{' => {
                self.out.push('{');
                while let Some(inner) = self.next() {
                    self.out.push(inner);
                    if inner == '}' {
                        break;
                    }
                }
                self.skip_possessive();
            }
            _ => self.out.push(c),
        }
        Ok(())
    }

    /// Drops the `+` of a possessive quantifier, which the `regex` crate does not have.
    fn skip_possessive(&mut self) {
        if self.peek() == Some('+') {
            self.pos += 1;
        }
    }

    fn open_class(&mut self) {
        self.class_depth += 1;
        self.out.push('[');
        if self.peek() == Some('^') {
            self.pos += 1;
            self.out.push('^');
        }
        match self.peek() {
            // `[]…]`: a leading `]` is a literal in both engines; escaping it keeps the depth
            // count simple.
            Some(']') => {
                self.pos += 1;
                self.out.push_str(r"\]");
            }
            // `[[:alpha:]]` is an ASCII class in `regex` but a nested class of `:alph` in Java.
            Some(':') => {
                self.pos += 1;
                self.out.push_str(r"\:");
            }
            _ => {}
        }
    }

    fn class_char(&mut self, c: char) -> Result<(), JavaRegexError> {
        match c {
            '\\' => self.escape(true)?,
            '[' => self.open_class(),
            ']' => {
                self.class_depth -= 1;
                self.out.push(']');
            }
            // `--` is set difference in `regex`, a range ending in `-` (or a literal) in Java.
            '-' if self.peek() == Some('-') => {
                self.pos += 1;
                self.out.push_str(r"-\-");
            }
            // `~~` is symmetric difference in `regex`; `~` is always a literal in Java.
            '~' => self.out.push_str(r"\~"),
            '&' if self.peek() == Some('&') => {
                self.pos += 1;
                self.out.push_str("&&");
            }
            _ => self.out.push(c),
        }
        Ok(())
    }

    fn open_group(&mut self) -> Result<(), JavaRegexError> {
        let start = self.pos - 1;
        if self.peek() != Some('?') {
            self.groups.push(self.flags);
            self.out.push('(');
            return Ok(());
        }
        self.pos += 1;
        match self.peek() {
            Some(':') => {
                self.pos += 1;
                self.groups.push(self.flags);
                self.out.push_str("(?:");
                Ok(())
            }
            Some('=') | Some('!') => Err(self.unsupported("a lookahead group", start)),
            Some('>') => Err(self.unsupported("an atomic group", start)),
            Some('<') if matches!(self.peek_at(1), Some('=') | Some('!')) => {
                Err(self.unsupported("a lookbehind group", start))
            }
            Some('<') => {
                self.pos += 1;
                self.out.push_str("(?<");
                loop {
                    match self.next() {
                        Some('>') => break,
                        Some(c) if c.is_ascii_alphanumeric() => self.out.push(c),
                        _ => {
                            return Err(
                                self.invalid("named capturing group is missing trailing '>'")
                            )
                        }
                    }
                }
                self.out.push('>');
                self.groups.push(self.flags);
                Ok(())
            }
            _ => self.flag_group(),
        }
    }

    /// `(?idmsuxU-idmsuxU)` or `(?idmsuxU-idmsuxU:…)`.
    fn flag_group(&mut self) -> Result<(), JavaRegexError> {
        let mut on = true;
        let mut flags = self.flags;
        let mut rust_on = String::new();
        let mut rust_off = String::new();
        loop {
            let Some(c) = self.next() else {
                return Err(self.invalid("Unknown inline modifier"));
            };
            match c {
                '-' => on = false,
                'i' | 'm' | 's' | 'x' => {
                    if on {
                        rust_on.push(c);
                    } else {
                        rust_off.push(c);
                    }
                    match c {
                        's' => flags.dotall = on,
                        'x' => flags.comments = on,
                        _ => {}
                    }
                }
                'd' => flags.unix_lines = on,
                'U' => flags.unicode_classes = on,
                // UNICODE_CASE: case-insensitive matching in `regex` is always Unicode-aware.
                'u' => {}
                ')' | ':' => {
                    let scoped = c == ':';
                    if scoped {
                        self.groups.push(self.flags);
                    }
                    self.flags = flags;
                    if rust_on.is_empty() && rust_off.is_empty() {
                        if scoped {
                            self.out.push_str("(?:");
                        }
                    } else {
                        self.out.push_str("(?");
                        self.out.push_str(&rust_on);
                        if !rust_off.is_empty() {
                            self.out.push('-');
                            self.out.push_str(&rust_off);
                        }
                        self.out.push(c);
                    }
                    return Ok(());
                }
                _ => return Err(self.invalid("Unknown inline modifier")),
            }
        }
    }

    /// Writes a set of characters as a bracketed class. Inside an open class a bracketed class
    /// is a nested union, so the same text serves both places.
    fn push_set(&mut self, negated: bool, members: &str) {
        self.out.push('[');
        if negated {
            self.out.push('^');
        }
        self.out.push_str(members);
        self.out.push(']');
    }

    /// Writes one literal character in a form that means the same inside and outside classes and
    /// in comments mode.
    fn push_literal(&mut self, c: char) {
        if c.is_alphanumeric() {
            self.out.push(c);
        } else {
            let _ = write!(self.out, "\\x{{{:X}}}", c as u32);
        }
    }

    fn escape(&mut self, in_class: bool) -> Result<(), JavaRegexError> {
        let start = self.pos - 1;
        let Some(c) = self.next() else {
            return Err(self.invalid("Unexpected internal error"));
        };
        let unicode = self.flags.unicode_classes;
        match c {
            'Q' => {
                while let Some(quoted) = self.next() {
                    if quoted == '\\' && self.peek() == Some('E') {
                        self.pos += 1;
                        break;
                    }
                    self.push_literal(quoted);
                }
            }
            'E' => {} // a stray `\E` is ignored by Java
            '1'..='9' => return Err(self.unsupported("a backreference", start)),
            'k' => return Err(self.unsupported("a named backreference", start)),
            'G' => return Err(self.unsupported("the \\G anchor", start)),
            'X' => return Err(self.unsupported("\\X (a grapheme cluster)", start)),
            'N' => return Err(self.unsupported("\\N{name}", start)),
            'b' if self.peek() == Some('{') => {
                return Err(self.unsupported("a \\b{g} grapheme boundary", start))
            }
            '0' => {
                let value = self.octal()?;
                let _ = write!(self.out, "\\x{{{value:X}}}");
            }
            't' | 'n' | 'r' | 'f' | 'a' | 'x' | 'u' => {
                self.out.push('\\');
                self.out.push(c);
            }
            'e' => self.out.push_str(r"\x{1B}"),
            'c' => {
                let Some(control) = self.next() else {
                    return Err(self.invalid("Illegal control escape sequence"));
                };
                let _ = write!(self.out, "\\x{{{:X}}}", (control as u32) ^ 64);
            }
            'd' | 'D' | 'w' | 'W' | 's' | 'S' if unicode => {
                self.out.push('\\');
                self.out.push(c);
            }
            'd' => self.push_set(false, "0-9"),
            'D' => self.push_set(true, "0-9"),
            'w' => self.push_set(false, "a-zA-Z_0-9"),
            'W' => self.push_set(true, "a-zA-Z_0-9"),
            's' => self.push_set(false, r"\t\n\x0B\x0C\r\x20"),
            'S' => self.push_set(true, r"\t\n\x0B\x0C\r\x20"),
            'h' => self.push_set(false, HORIZONTAL_SPACE),
            'H' => self.push_set(true, HORIZONTAL_SPACE),
            'v' => self.push_set(false, VERTICAL_SPACE),
            'V' => self.push_set(true, VERTICAL_SPACE),
            'R' if in_class => return Err(self.invalid("Illegal/unsupported escape sequence")),
            'R' => self.out.push_str(LINE_BREAK),
            'b' | 'B' | 'A' | 'z' => {
                self.out.push('\\');
                self.out.push(c);
            }
            // `\Z` allows a final line terminator before the end; a whole-text match must end
            // at the end anyway, so only `\z` can succeed there.
            'Z' => self.out.push_str(r"\z"),
            'p' | 'P' => self.property(c == 'P', start)?,
            c if c.is_ascii_alphabetic() => {
                return Err(self.invalid("Illegal/unsupported escape sequence"))
            }
            c => self.push_literal(c),
        }
        Ok(())
    }

    /// Java's `\0n`, `\0nn` or `\0mnn` (m ≤ 3); the `\0` is already consumed.
    fn octal(&mut self) -> Result<u32, JavaRegexError> {
        let digit = |c: Option<char>| c.and_then(|c| c.to_digit(8));
        let Some(first) = digit(self.peek()) else {
            return Err(self.invalid("Illegal octal escape sequence"));
        };
        self.pos += 1;
        let mut value = first;
        let max_digits = if first <= 3 { 3 } else { 2 };
        for _ in 1..max_digits {
            match digit(self.peek()) {
                Some(next) => {
                    self.pos += 1;
                    value = value * 8 + next;
                }
                None => break,
            }
        }
        Ok(value)
    }

    /// `\p{Name}`, `\P{Name}` or `\pL`; the `\p` is already consumed.
    fn property(&mut self, negated: bool, start: usize) -> Result<(), JavaRegexError> {
        let name: String = if self.peek() == Some('{') {
            self.pos += 1;
            let mut name = String::new();
            loop {
                match self.next() {
                    Some('}') => break,
                    Some(c) => name.push(c),
                    None => return Err(self.invalid("Unclosed character family")),
                }
            }
            name
        } else {
            match self.next() {
                Some(c) => c.to_string(),
                None => return Err(self.invalid("Illegal character family")),
            }
        };
        let unicode = self.flags.unicode_classes;
        let posix = match name.as_str() {
            "Lower" if unicode => Some(Err("Lowercase")),
            "Upper" if unicode => Some(Err("Uppercase")),
            "Alpha" if unicode => Some(Err("Alphabetic")),
            "Digit" if unicode => Some(Err("Nd")),
            "Space" if unicode => Some(Err("White_Space")),
            "Lower" => Some(Ok("lower")),
            "Upper" => Some(Ok("upper")),
            "ASCII" => Some(Ok("ascii")),
            "Alpha" => Some(Ok("alpha")),
            "Digit" => Some(Ok("digit")),
            "Alnum" => Some(Ok("alnum")),
            "Punct" => Some(Ok("punct")),
            "Graph" => Some(Ok("graph")),
            "Print" => Some(Ok("print")),
            "Blank" => Some(Ok("blank")),
            "Cntrl" => Some(Ok("cntrl")),
            "XDigit" => Some(Ok("xdigit")),
            "Space" => Some(Ok("space")),
            "javaLowerCase" => Some(Err("Lowercase")),
            "javaUpperCase" => Some(Err("Uppercase")),
            "javaAlphabetic" => Some(Err("Alphabetic")),
            "javaLetter" => Some(Err("L")),
            "javaDigit" => Some(Err("Nd")),
            "javaTitleCase" => Some(Err("Lt")),
            "javaIdeographic" => Some(Err("Ideographic")),
            "javaSpaceChar" => Some(Err("Z")),
            "javaLetterOrDigit" => {
                self.push_set(negated, r"\p{L}\p{Nd}");
                return Ok(());
            }
            _ => None,
        };
        match posix {
            // An ASCII class, written `[[:alpha:]]` / `[^[:alpha:]]`.
            Some(Ok(ascii)) => {
                let members = format!("[:{ascii}:]");
                self.push_set(negated, &members);
            }
            Some(Err(unicode_name)) => self.push_property(negated, unicode_name),
            None if name.starts_with("java") => {
                return Err(self.unsupported("this \\p{java…} character class", start))
            }
            None if name.starts_with("In")
                || name.starts_with("block=")
                || name.starts_with("blk=") =>
            {
                return Err(self.unsupported("a Unicode block class", start))
            }
            None => {
                // `IsLatin`, `IsL`, `IsAlphabetic`: Java's "Is" prefix names a script, category
                // or binary property, which `regex` knows by the bare name.
                let bare = name.strip_prefix("Is").unwrap_or(&name).to_string();
                self.push_property(negated, &bare);
            }
        }
        Ok(())
    }

    fn push_property(&mut self, negated: bool, name: &str) {
        self.out.push_str(if negated { r"\P{" } else { r"\p{" });
        self.out.push_str(name);
        self.out.push('}');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn whole(java: &str) -> regex::Regex {
        let translated = translate_java_regex(java).unwrap();
        regex::Regex::new(&translated)
            .unwrap_or_else(|e| panic!("{java} → {translated} does not compile: {e}"))
    }

    fn unsupported(java: &str) -> bool {
        matches!(
            translate_java_regex(java),
            Err(JavaRegexError::Unsupported { .. })
        )
    }

    #[test]
    fn anchors_the_whole_text() {
        let re = whole("ab|cd");
        assert!(re.is_match("ab") && re.is_match("cd"));
        assert!(!re.is_match("abcd") && !re.is_match("xab"));
    }

    #[test]
    fn dot_stops_at_every_java_line_terminator() {
        let re = whole(".*");
        for text in ["a\nb", "a\rb", "a\u{85}b", "a\u{2028}b", "a\u{2029}b"] {
            assert!(!re.is_match(text), "{text:?}");
        }
        assert!(re.is_match("a\tb"));
        assert!(whole("(?s).*").is_match("a\r\nb"));
        assert!(whole("(?s:.*)x").is_match("a\nx"));
        let unix = whole("(?d).*");
        assert!(unix.is_match("a\rb"));
        assert!(!unix.is_match("a\nb"));
        // Flags end with their group.
        let scoped = whole("(a(?s).)b.");
        assert!(scoped.is_match("a\nbc"));
        assert!(!scoped.is_match("a\nb\n"));
    }

    #[test]
    fn shorthand_classes_are_ascii_unless_unicode_classes() {
        assert!(!whole(r"\d+").is_match("١٢"));
        assert!(whole(r"(?U)\d+").is_match("١٢"));
        assert!(!whole(r"\w+").is_match("é"));
        assert!(whole(r"\W").is_match("é"));
        assert!(whole(r"[\w-]+").is_match("a-b_9"));
        assert!(!whole(r"[^\d]").is_match("5"));
        assert!(whole(r"\s\S").is_match("\u{0B}x"));
        assert!(!whole(r"\s").is_match("\u{A0}"));
        assert!(whole(r"\h").is_match("\u{A0}"));
        assert!(whole(r"a\Rb").is_match("a\r\nb"));
        assert!(whole(r"\v").is_match("\u{2028}"));
    }

    #[test]
    fn posix_and_java_property_classes() {
        assert!(whole(r"\p{Alpha}+\p{Digit}").is_match("abc1"));
        assert!(!whole(r"\p{Alpha}").is_match("é"));
        assert!(whole(r"\P{Alpha}").is_match("é"));
        assert!(whole(r"[\p{Punct}x]+").is_match("x!?"));
        assert!(whole(r"\p{javaLowerCase}").is_match("é"));
        assert!(whole(r"\p{IsLatin}\p{L}\pL").is_match("aéb"));
        assert!(whole(r"\p{Lu}").is_match("É"));
        assert!(unsupported(r"\p{InGreek}"));
        assert!(unsupported(r"\p{javaMirrored}"));
    }

    #[test]
    fn quoting_and_literal_escapes() {
        // As in Java, the quantifier after `\E` applies to the last quoted character only.
        let re = whole(r"\Q(a.b)*\E+");
        assert!(re.is_match("(a.b)***"));
        assert!(!re.is_match("(a.b)*(a.b)*"));
        assert!(!re.is_match("(axb)*"));
        assert!(whole(r"\Qno end").is_match("no end"));
        assert!(whole(r"\{\}\<\>\#").is_match("{}<>#"));
        assert!(whole(r"\e\cA\0101\x41\u0041\t").is_match("\u{1B}\u{1}AAA\t"));
        assert!(whole(r"a\Z").is_match("a"));
        assert!(matches!(
            translate_java_regex(r"\y"),
            Err(JavaRegexError::Invalid { .. })
        ));
        assert!(matches!(
            translate_java_regex(r"\08"),
            Err(JavaRegexError::Invalid { .. })
        ));
    }

    #[test]
    fn class_syntax_java_reads_differently() {
        // `+--` is a range from '+' to '-' in Java.
        let range = whole(r"[+--]");
        assert!(range.is_match(","));
        assert!(!range.is_match("a"));
        assert!(whole("[~a]").is_match("~"));
        assert!(whole("[a-z&&[^aeiou]]+").is_match("bcd"));
        assert!(!whole("[a-z&&[^aeiou]]").is_match("a"));
        assert!(whole("[a-d[m-p]]").is_match("n"));
        assert!(whole("[]a]").is_match("]"));
        assert!(whole("[[:x]]").is_match(":"));
    }

    #[test]
    fn possessive_quantifiers_become_greedy() {
        assert!(whole("a++b?+c{2}+d*+").is_match("aaccd"));
    }

    #[test]
    fn flags_and_groups() {
        assert!(whole("(?i)abc").is_match("ABC"));
        assert!(whole("(?i:a)b").is_match("Ab"));
        assert!(!whole("(?i:a)b").is_match("AB"));
        assert!(whole("(?iu)é").is_match("É"));
        assert!(whole("(?<year>[0-9]{4})-x").is_match("2024-x"));
        assert!(whole("(?x) a b # comment . (").is_match("ab"));
        assert!(whole("(?x) a [ b ] # comment").is_match("ab"));
        assert!(matches!(
            translate_java_regex("(?q)a"),
            Err(JavaRegexError::Invalid { .. })
        ));
    }

    #[test]
    fn backtracking_constructs_are_unsupported() {
        for java in [
            r"(a)\1",
            r"(?<n>a)\k<n>",
            "(?=a)a",
            "(?!a)b",
            "(?<=a)b",
            "(?<!a)b",
            "(?>a)",
            r"\Ga",
            r"\X",
        ] {
            assert!(unsupported(java), "{java}");
        }
    }

    #[test]
    fn invalid_patterns_fail_to_compile_after_translation() {
        for java in ["(a", "a)", "[a", "*a"] {
            let compiled = translate_java_regex(java)
                .map_err(|e| e.to_string())
                .and_then(|t| regex::Regex::new(&t).map_err(|e| e.to_string()));
            assert!(compiled.is_err(), "{java}");
        }
    }
}
