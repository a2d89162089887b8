//! `java.util.regex` patterns, translated into the `regex` crate's syntax with Java's meaning.
//!
//! log4j2 configurations hold Java regular expressions: `RegexFilter` tests the whole message
//! (`Matcher.matches()`), `%replace` and `<Replace>` replace every occurrence
//! (`Matcher.replaceAll`, which searches like `Matcher.find()`), `IfFileName regex` tests the
//! whole relative path. Most of the syntax is shared with the `regex` crate, but several
//! constructs mean something else there, and some do not exist. [`translate`] reads the
//! pattern as Java does and writes a `regex` pattern with the same meaning:
//!
//! | Java | Translated to |
//! |---|---|
//! | `.` (stops at `\n`, `\r`, `\u0085`, `\u2028`, `\u2029`) | a class excluding exactly those; `[^\n]` under `(?d)`; any character under `(?s)` |
//! | `\d \w \s` and their negations, POSIX `\p{Alpha}`… (ASCII unless `(?U)`) | ASCII classes, Unicode ones under `(?U)` |
//! | `(?i)` (ASCII letters only unless `(?u)` or `(?U)`) | every case of each letter spelled out by Java's rules (the lower case of the upper case decides); the `regex` crate's `(?i)` is never used |
//! | `(?i)` with `\p{Lu}`, `\p{Ll}`, `\p{Lt}`, `\p{Upper}`… | any cased letter (Java widens these classes) |
//! | `(?d)`, `(?i)`, `(?u)`, `(?U)`, `(?x)` flags | applied by the translator (no `regex` counterpart or a different one) |
//! | `(?m)` | `(?mR)`: `^`/`$` also at `\r` |
//! | `\h \v \R \e \a \cX \0ooo \uhhhh \x{h…}` | their explicit equivalents |
//! | `\Q…\E` | escaped literal text |
//! | `[a-z&&[^e]]`, `[a[b]]`, a leading `]`, `-` and `&` and `~` as literals | the `regex` crate's spelling of the same set |
//! | `\p{IsLatin}`, `\p{sc=…}`, `\p{gc=…}`, `\p{IsAlphabetic}`, `\p{javaLowerCase}`… | the corresponding Unicode property |
//!
//! What the `regex` crate cannot express is refused with [`JavaRegexError::Unsupported`],
//! naming the construct: backreferences, lookahead and lookbehind, atomic groups, `\G`, `\X`,
//! `\N{…}`, `\b{g}`, Unicode blocks (`\p{InGreek}`), a quantifier on a quantifier (`x{2}{3}`,
//! which Java accepts with a meaning of its own), lone surrogates, a few `\p{java…}` classes,
//! and possessive quantifiers except where they cannot give a different result than greedy ones
//! (a single-character atom at the end of a top-level alternative, or before a literal character
//! it cannot match).
//! Patterns Java rejects are rejected with [`JavaRegexError::Invalid`] (worded as Java words
//! them) or, when only the compiler notices, [`JavaRegexError::Syntax`].
//!
//! Java's `$` (without `(?m)`) and `\Z` also match before a line terminator that ends the
//! text. At the end of a top-level alternative of a `find()` pattern (no group after it) the
//! terminator is matched into a group that [`Replacement`] leaves out of the replaced span;
//! elsewhere they match at the very end only. Other small differences (the `(?m)` line ends,
//! `\R` giving back the `\n` of a `\r\n`) are listed in docs/compatibility.md.

use std::fmt::Write as _;

mod replacement;

pub use replacement::{Replacement, ReplacementError};

/// Why a Java regular expression could not be turned into a working `regex`.
#[derive(Debug, thiserror::Error)]
pub enum JavaRegexError {
    /// Valid Java syntax that the `regex` crate cannot evaluate with Java's meaning.
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
    /// The translated pattern did not compile (Java rejects it too, or it exceeds the
    /// `regex` crate's size limit).
    #[error("{description}")]
    Syntax {
        /// The compiler's complaint, on one line.
        description: String,
        /// The compiler's error.
        #[source]
        source: ::regex::Error,
    },
}

impl JavaRegexError {
    /// Wraps a compile error of a translated pattern. The `regex` crate's message quotes the
    /// translated pattern over several lines; only its last line, the actual complaint, is kept,
    /// since the translated text would confuse someone reading their own Java pattern.
    pub fn from_compile_error(source: ::regex::Error) -> JavaRegexError {
        let description = match &source {
            ::regex::Error::Syntax(text) => text
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

/// Translates a Java regular expression into a `regex` crate pattern with the same meaning,
/// searched for anywhere in the text (Java's `Matcher.find()`).
///
/// The result still has to be compiled; some syntax errors Java would report only show up
/// then. [`compile`] and [`compile_whole`] do both steps; [`translate_whole`] is the
/// `matches()` counterpart.
pub fn translate(java: &str) -> Result<String, JavaRegexError> {
    translate_for(java, true)
}

fn translate_for(java: &str, find: bool) -> Result<String, JavaRegexError> {
    let chars: Vec<char> = java.chars().collect();
    let mut translator = Translator {
        find,
        last_open_paren: chars.iter().rposition(|&c| c == '('),
        end_groups: 0,
        literal_run: false,
        after_literal: false,
        chars,
        pos: 0,
        out: String::with_capacity(java.len() + 16),
        flags: Flags::default(),
        groups: Vec::new(),
        last: Last::Start,
        pending_possessive: None,
    };
    translator.run()?;
    Ok(translator.out)
}

/// Translates a Java regular expression like [`translate`], anchored at both ends so that it
/// matches only when the **whole** text matches (Java's `Matcher.matches()`).
pub fn translate_whole(java: &str) -> Result<String, JavaRegexError> {
    Ok(format!(r"\A(?:{})\z", translate_for(java, false)?))
}

/// Compiles a Java regular expression to be searched for anywhere in the text, as
/// `Matcher.find()` and `replaceAll` do.
pub fn compile(java: &str) -> Result<::regex::Regex, JavaRegexError> {
    let translated = translate(java)?;
    ::regex::Regex::new(&translated).map_err(JavaRegexError::from_compile_error)
}

/// Compiles a Java regular expression that matches only when the **whole** text matches, as
/// `Matcher.matches()` tests.
pub fn compile_whole(java: &str) -> Result<::regex::Regex, JavaRegexError> {
    let translated = translate_whole(java)?;
    ::regex::Regex::new(&translated).map_err(JavaRegexError::from_compile_error)
}

/// The Java flags in force, as far as the translation depends on them.
#[derive(Clone, Copy, Debug, Default)]
struct Flags {
    /// `(?i)` CASE_INSENSITIVE.
    case_insensitive: bool,
    /// `(?u)` UNICODE_CASE: `(?i)` folds every letter, not only ASCII ones.
    unicode_case: bool,
    /// `(?m)` MULTILINE.
    multiline: bool,
    /// `(?s)` DOTALL.
    dotall: bool,
    /// `(?d)` UNIX_LINES: only `\n` ends a line.
    unix_lines: bool,
    /// `(?x)` COMMENTS: whitespace ignored, `#` starts a comment.
    comments: bool,
    /// `(?U)` UNICODE_CHARACTER_CLASS: `\d \w \s` and POSIX classes become Unicode.
    unicode_classes: bool,
}

impl Flags {
    /// Case-insensitive for ASCII letters only: spelled out by the translator.
    fn ascii_case_insensitive(&self) -> bool {
        self.case_insensitive && !self.unicode_case
    }

    /// Case-insensitive for every letter: also spelled out, with Java's case rules (the
    /// `regex` crate's `i` flag folds differently, so it is never used).
    fn unicode_case_insensitive(&self) -> bool {
        self.case_insensitive && self.unicode_case
    }

    /// The `regex` flags that carry these flags' meaning, all spelled out so that the group
    /// that sets them fully defines them (`(?mR)`, `(?-mR)`).
    fn regex_flags(&self) -> String {
        let mut on = String::new();
        let mut off = String::new();
        for (letter, set) in [
            ('m', self.multiline),
            ('R', self.multiline && !self.unix_lines),
        ] {
            if set {
                on.push(letter);
            } else {
                off.push(letter);
            }
        }
        if off.is_empty() {
            on
        } else {
            format!("{on}-{off}")
        }
    }
}

/// What the last element was, for the quantifier that may follow it.
#[derive(Clone, Debug)]
enum Last {
    /// The start of the pattern, a group or an alternative: a quantifier here is dangling.
    Start,
    /// Something a quantifier applies to; `Some` holds the `regex` text of a set of single
    /// characters (what a possessive quantifier may safely be applied to).
    Atom(Option<String>),
    /// A quantifier: another one would be a quantifier on a quantifier.
    Quantifier,
}

/// The result of a backslash escape.
enum Escaped {
    /// One character.
    Char(char),
    /// A set of single characters, as `regex` text valid inside and outside classes.
    Set(String),
    /// Anything else (anchors, `\R`), as `regex` text for outside classes.
    Other(&'static str),
    /// `\Q…\E`: these characters, literally.
    Quoted(Vec<char>),
    /// `\E` alone: nothing.
    Nothing,
}

/// One pass over a Java pattern, writing its `regex` translation to `out` as it reads.
struct Translator {
    /// Translating for `find()` (else for `matches()`, which anchors the end itself).
    find: bool,
    /// How many end-of-input groups were written (see `push_end_of_input`).
    end_groups: usize,
    /// The element just written was a literal character (not quantified).
    literal_run: bool,
    /// The element before the one being read was such a literal character.
    after_literal: bool,
    chars: Vec<char>,
    /// Where the last `(` of the pattern is, found once: asking at every `$` whether a group
    /// opens after it made a pattern of many `$|` alternatives take quadratic time.
    last_open_paren: Option<usize>,
    pos: usize,
    out: String,
    flags: Flags,
    /// The flags in force outside each open group, to restore when it closes.
    groups: Vec<Flags>,
    last: Last,
    /// A possessive quantifier just written, its atom's set and index: it is kept only if
    /// what follows shows it cannot give a different result than a greedy one.
    pending_possessive: Option<(String, usize)>,
}

/// The start of the names of the groups a `find()` translation's final `$` or `\Z` (one per
/// top-level alternative) puts the line terminator it matched in (names no Java group can
/// have), so that a replacement leaves it in place.
pub(crate) const END_OF_LINE_GROUP: &str = "__l4rs_eol";

const DOT: &str = r"[^\n\r\x{85}\x{2028}\x{2029}]";
const LINE_BREAK: &str = r"(?:\r\n|[\n\x0B\x0C\r\x{85}\x{2028}\x{2029}])";
const HORIZONTAL_SPACE: &str =
    r"\x20\t\xA0\x{1680}\x{180E}\x{2000}-\x{200A}\x{202F}\x{205F}\x{3000}";
const VERTICAL_SPACE: &str = r"\n\x0B\x0C\r\x{85}\x{2028}\x{2029}";
/// Any cased letter: what Java's case-insensitive `\p{Lu}`, `\p{Ll}`, `\p{Lt}` match.
const CASED_CATEGORIES: &str = r"\p{Lu}\p{Ll}\p{Lt}";
/// Any cased letter by the binary properties, for `\p{IsUppercase}` and the like.
const CASED_PROPERTIES: &str = r"\p{Lowercase}\p{Uppercase}\p{Lt}";
/// Java's general category names (`\p{Lu}`, `\p{IsL}`, `\p{gc=Nd}`), which it spells exactly.
const CATEGORIES: &[&str] = &[
    "Cn", "Lu", "Ll", "Lt", "Lm", "Lo", "Mn", "Me", "Mc", "Nd", "Nl", "No", "Zs", "Zl", "Zp", "Cc",
    "Cf", "Co", "Cs", "Pd", "Ps", "Pe", "Pc", "Po", "Sm", "Sc", "Sk", "So", "Pi", "Pf", "L", "M",
    "N", "Z", "C", "P", "S", "LC",
];

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

    /// In comments mode, skips whitespace and `#` comments, as Java does between tokens.
    fn skip_comments(&mut self) {
        if !self.flags.comments {
            return;
        }
        while let Some(c) = self.peek() {
            if matches!(c, ' ' | '\t' | '\n' | '\x0B' | '\x0C' | '\r') {
                self.pos += 1;
            } else if c == '#' {
                while let Some(c) = self.next() {
                    if c == '\n'
                        || (!self.flags.unix_lines
                            && matches!(c, '\r' | '\u{85}' | '\u{2028}' | '\u{2029}'))
                    {
                        break;
                    }
                }
            } else {
                break;
            }
        }
    }

    fn run(&mut self) -> Result<(), JavaRegexError> {
        loop {
            self.skip_comments();
            let Some(c) = self.next() else { break };
            self.after_literal = std::mem::take(&mut self.literal_run);
            match c {
                '*' | '+' | '?' | '{' => self.quantifier(c)?,
                _ => {
                    self.settle_possessive(c)?;
                    self.element(c)?;
                }
            }
        }
        if let Some((_, index)) = self.pending_possessive.take() {
            if !self.groups.is_empty() {
                return Err(self.unsupported(POSSESSIVE, index));
            }
        }
        if !self.groups.is_empty() {
            return Err(JavaRegexError::Invalid {
                description: "Unclosed group",
                index: self.chars.len(),
            });
        }
        Ok(())
    }

    /// Keeps a possessive quantifier written just before `next` only when it cannot matter:
    /// at the end of a top-level alternative, or before a literal character (not itself
    /// quantified) that its atom cannot match, since then a greedy quantifier never gives
    /// anything back either.
    fn settle_possessive(&mut self, next: char) -> Result<(), JavaRegexError> {
        let Some((set, index)) = self.pending_possessive.take() else {
            return Ok(());
        };
        if next == '|' && self.groups.is_empty() {
            return Ok(());
        }
        let literal = !"\\[]().^$|*+?{".contains(next)
            && !(self.flags.comments && (next.is_ascii_whitespace() || next == '#'))
            && !matches!(self.peek(), Some('*' | '+' | '?' | '{'));
        if literal {
            let candidates = self.literal_members(next, true);
            if let Ok(atom) = ::regex::Regex::new(&format!(r"\A(?:{set})\z")) {
                if !candidates
                    .iter()
                    .any(|c| atom.is_match(c.encode_utf8(&mut [0; 4])))
                {
                    return Ok(());
                }
            }
        }
        Err(self.unsupported(POSSESSIVE, index))
    }

    /// True at the end of a top-level alternative after which no group opens (a group that
    /// captures would otherwise be numbered after the one `end_of_input` adds).
    fn at_end_of_pattern(&mut self) -> bool {
        self.skip_comments();
        self.groups.is_empty()
            && matches!(self.peek(), None | Some('|'))
            && self.last_open_paren.is_none_or(|paren| paren < self.pos)
    }

    /// Java's `$` (without `(?m)`) and `\Z`: the end of the text, or before a line terminator
    /// that ends it. The `regex` crate has no lookahead, so at the end of a `find()` pattern
    /// the terminator is matched into a group named [`END_OF_LINE_GROUP`] and a number, which
    /// [`Replacement`] leaves out of the replaced span.
    fn push_end_of_input(&mut self) {
        let terminator = if self.flags.unix_lines {
            r"\n"
        } else {
            r"\r\n|[\n\r\x{85}\x{2028}\x{2029}]"
        };
        let _ = write!(
            self.out,
            r"(?:(?P<{END_OF_LINE_GROUP}{}>{terminator})?\z)",
            self.end_groups
        );
        self.end_groups += 1;
    }

    /// One element outside classes: an atom, an anchor, a group bracket or `|`.
    fn element(&mut self, c: char) -> Result<(), JavaRegexError> {
        match c {
            '\\' => {
                let start = self.pos - 1;
                match self.escape(false, start)? {
                    Escaped::Char(c) => self.push_char(c),
                    Escaped::Set(set) => self.push_set(set),
                    Escaped::Other(text) => {
                        self.out.push_str(text);
                        self.last = Last::Atom(None);
                    }
                    Escaped::Quoted(chars) => {
                        let count = chars.len();
                        for (index, c) in chars.into_iter().enumerate() {
                            self.push_char(c);
                            // Quoted characters form one run.
                            self.after_literal = index + 1 < count;
                        }
                    }
                    Escaped::Nothing => {}
                }
            }
            '[' => {
                let class = self.class()?;
                self.push_set(class);
            }
            '.' => {
                let dot = if self.flags.dotall {
                    r"[\x{0}-\x{10FFFF}]"
                } else if self.flags.unix_lines {
                    r"[^\n]"
                } else {
                    DOT
                };
                self.out.push_str(dot);
                self.last = Last::Atom(Some(dot.to_string()));
            }
            '(' => self.open_group()?,
            ')' => {
                let Some(outer) = self.groups.pop() else {
                    return Err(self.invalid("Unmatched closing ')'"));
                };
                self.flags = outer;
                self.out.push(')');
                self.last = Last::Atom(None);
            }
            '|' => {
                self.out.push('|');
                self.last = Last::Start;
            }
            '$' if !self.flags.multiline && self.find && self.at_end_of_pattern() => {
                self.push_end_of_input();
                self.last = Last::Atom(None);
            }
            '^' | '$' => {
                self.out.push(c);
                self.last = Last::Atom(None);
            }
            c => self.push_char(c),
        }
        Ok(())
    }

    /// The characters a literal `c` matches under the flags in force: itself; with `(?i)` also
    /// the other case of an ASCII letter; with `(?iu)` every character whose lower case of
    /// its upper case is the same as `c`'s (Java's rule, which makes `İ`, `ı`, `I` and `i`
    /// one class). A character whose upper case has no other lower case (`ß`) matches only
    /// itself, unless it is part of a run of literal characters (`in_run`), which Java
    /// compares by that key too (`(?iu)ß` does not match `ẞ`, `(?iu)aß` matches `aẞ`).
    fn literal_members(&self, c: char, in_run: bool) -> Vec<char> {
        if self.flags.unicode_case_insensitive() {
            let upper = simple_upper(c);
            let key = simple_lower(upper);
            if upper == key && !in_run {
                return vec![c];
            }
            let mut members = Vec::new();
            if simple_lower(simple_upper(key)) == key {
                members.push(key);
            }
            members.extend(
                case_table()
                    .iter()
                    .filter(|entry| entry.key == key && entry.c != key)
                    .map(|entry| entry.c),
            );
            if members.is_empty() {
                members.push(c);
            }
            members
        } else if self.flags.ascii_case_insensitive() && c.is_ascii_alphabetic() {
            vec![c.to_ascii_lowercase(), c.to_ascii_uppercase()]
        } else {
            vec![c]
        }
    }

    /// Writes one literal character outside classes.
    fn push_char(&mut self, c: char) {
        // Java gathers literal characters into runs ("slices"); a character followed by a
        // quantifier is left out of its run.
        let quantified = matches!(self.peek(), Some('*' | '+' | '?' | '{'));
        let next_literal = self
            .peek()
            .is_some_and(|next| !"\\[]().^$|*+?{".contains(next))
            && !matches!(self.peek_at(1), Some('*' | '+' | '?' | '{'));
        let in_run = !quantified && (self.after_literal || next_literal);
        self.literal_run = !quantified;
        let members = self.literal_members(c, in_run);
        let start = self.out.len();
        if let [single] = members[..] {
            push_literal(&mut self.out, single);
        } else {
            self.out.push('[');
            for member in members {
                push_literal(&mut self.out, member);
            }
            self.out.push(']');
        }
        self.last = Last::Atom(Some(self.out[start..].to_string()));
    }

    /// Writes a set of single characters outside classes.
    fn push_set(&mut self, set: String) {
        self.out.push_str(&set);
        self.last = Last::Atom(Some(set));
    }

    fn quantifier(&mut self, c: char) -> Result<(), JavaRegexError> {
        let start = self.pos - 1;
        match self.last {
            Last::Start if c == '{' => return Err(self.invalid("Illegal repetition")),
            Last::Start => return Err(self.invalid(dangling(c))),
            Last::Quantifier if c == '{' => {
                return Err(self.unsupported("a quantifier on a quantifier", start))
            }
            Last::Quantifier => return Err(self.invalid(dangling(c))),
            Last::Atom(_) => {}
        }
        let Last::Atom(set) = std::mem::replace(&mut self.last, Last::Quantifier) else {
            unreachable!("checked above")
        };
        if c == '{' {
            self.counted_repetition()?;
        } else {
            self.out.push(c);
        }
        match self.peek() {
            Some('?') => {
                self.pos += 1;
                self.out.push('?');
            }
            Some('+') => {
                self.pos += 1;
                match set {
                    Some(set) => self.pending_possessive = Some((set, start)),
                    None => return Err(self.unsupported(POSSESSIVE, start)),
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// `{n}`, `{n,}` or `{n,m}`; the `{` is already consumed.
    fn counted_repetition(&mut self) -> Result<(), JavaRegexError> {
        let number = |this: &mut Translator| -> Option<u32> {
            this.skip_comments();
            let mut value: Option<u32> = None;
            while let Some(digit) = this.peek().and_then(|c| c.to_digit(10)) {
                this.pos += 1;
                value = Some(value.unwrap_or(0).saturating_mul(10).saturating_add(digit));
            }
            this.skip_comments();
            value
        };
        let Some(min) = number(self) else {
            return Err(self.invalid("Illegal repetition"));
        };
        let max = match self.next() {
            Some('}') => Some(min),
            Some(',') => {
                let max = number(self);
                if self.next() != Some('}') {
                    return Err(self.invalid("Unclosed counted closure"));
                }
                max
            }
            _ => return Err(self.invalid("Unclosed counted closure")),
        };
        if max.is_some_and(|max| max < min) {
            return Err(self.invalid("Illegal repetition range"));
        }
        match max {
            Some(max) if max == min => {
                let _ = write!(self.out, "{{{min}}}");
            }
            Some(max) => {
                let _ = write!(self.out, "{{{min},{max}}}");
            }
            None => {
                let _ = write!(self.out, "{{{min},}}");
            }
        }
        Ok(())
    }

    fn open_group(&mut self) -> Result<(), JavaRegexError> {
        let start = self.pos - 1;
        self.last = Last::Start;
        if self.peek() != Some('?') {
            self.groups.push(self.flags);
            self.out.push('(');
            return Ok(());
        }
        self.pos += 1;
        match self.next() {
            Some(':') => {
                self.groups.push(self.flags);
                self.out.push_str("(?:");
                Ok(())
            }
            Some('=') | Some('!') => Err(self.unsupported("a lookahead group", start)),
            Some('>') => Err(self.unsupported("an atomic group", start)),
            Some('<') if matches!(self.peek(), Some('=') | Some('!')) => {
                Err(self.unsupported("a lookbehind group", start))
            }
            Some('<') => {
                let mut name = String::new();
                loop {
                    match self.next() {
                        Some('>') if !name.is_empty() => break,
                        Some(c) if c.is_ascii_alphabetic() => name.push(c),
                        Some(c) if c.is_ascii_digit() && !name.is_empty() => name.push(c),
                        Some(_) if name.is_empty() => {
                            return Err(self.invalid(
                                "capturing group name does not start with a Latin letter",
                            ))
                        }
                        _ => {
                            return Err(
                                self.invalid("named capturing group is missing trailing '>'")
                            )
                        }
                    }
                }
                let _ = write!(self.out, "(?<{name}>");
                self.groups.push(self.flags);
                Ok(())
            }
            Some(_) => {
                self.pos -= 1;
                self.flag_group()
            }
            None => Err(self.invalid("Unknown inline modifier")),
        }
    }

    /// `(?idmsuxU-idmsuxU)` or `(?idmsuxU-idmsuxU:…)`; the `(?` is already consumed.
    fn flag_group(&mut self) -> Result<(), JavaRegexError> {
        let mut on = true;
        let mut flags = self.flags;
        loop {
            let Some(c) = self.next() else {
                return Err(self.invalid("Unknown inline modifier"));
            };
            match c {
                '-' => on = false,
                'i' => flags.case_insensitive = on,
                'm' => flags.multiline = on,
                's' => flags.dotall = on,
                'x' => flags.comments = on,
                'd' => flags.unix_lines = on,
                'u' => flags.unicode_case = on,
                // UNICODE_CHARACTER_CLASS implies UNICODE_CASE, on and off.
                'U' => {
                    flags.unicode_classes = on;
                    flags.unicode_case = on;
                }
                ')' | ':' => {
                    let scoped = c == ':';
                    if scoped {
                        self.groups.push(self.flags);
                        self.last = Last::Start;
                    } else {
                        // A flag group is not an atom: a quantifier after it applies to
                        // nothing, as in Java.
                        self.last = Last::Start;
                    }
                    self.flags = flags;
                    let _ = write!(self.out, "(?{}{c}", flags.regex_flags());
                    return Ok(());
                }
                _ => return Err(self.invalid("Unknown inline modifier")),
            }
        }
    }

    /// A bracketed class; the `[` is already consumed. Returns its `regex` text.
    fn class(&mut self) -> Result<String, JavaRegexError> {
        let mut out = String::from("[");
        if self.peek() == Some('^') {
            self.pos += 1;
            out.push('^');
        }
        let mut first = true;
        loop {
            self.skip_comments();
            let start = self.pos;
            let Some(c) = self.next() else {
                return Err(self.invalid("Unclosed character class"));
            };
            let member = match c {
                '[' => {
                    let nested = self.class()?;
                    out.push_str(&nested);
                    first = false;
                    continue;
                }
                '&' if self.peek() == Some('&') => {
                    self.pos += 1;
                    // Java ignores an intersection with an empty side (`[&&a]`, `[a&&]`).
                    self.skip_comments();
                    let left_empty =
                        out.ends_with('[') || out.ends_with("[^") || out.ends_with("&&");
                    if !left_empty && self.peek() != Some(']') {
                        out.push_str("&&");
                    }
                    first = false;
                    continue;
                }
                ']' if !first => {
                    out.push(']');
                    return Ok(out);
                }
                '\\' => match self.escape(true, start)? {
                    Escaped::Char(c) => c,
                    Escaped::Set(set) => {
                        out.push_str(&set);
                        first = false;
                        continue;
                    }
                    Escaped::Quoted(chars) => {
                        for c in chars {
                            for member in self.literal_members(c, false) {
                                push_literal(&mut out, member);
                            }
                        }
                        first = false;
                        continue;
                    }
                    Escaped::Nothing => continue,
                    Escaped::Other(_) => {
                        return Err(self.invalid("Illegal/unsupported escape sequence"))
                    }
                },
                c => c,
            };
            first = false;
            // `a-z`: a range, unless the `-` ends the class or starts a nested one. In comments
            // mode Java skips whitespace and comments around the `-` too.
            self.skip_comments();
            if self.peek() == Some('-') && !matches!(self.peek_at(1), Some(']' | '[') | None) {
                self.pos += 1;
                self.skip_comments();
                let end_start = self.pos;
                let end = match self.next() {
                    Some('\\') => match self.escape(true, end_start)? {
                        Escaped::Char(end) => end,
                        _ => return Err(self.invalid("Illegal character range")),
                    },
                    Some(end) => end,
                    None => return Err(self.invalid("Unclosed character class")),
                };
                if end < member {
                    return Err(self.invalid("Illegal character range"));
                }
                self.push_class_range(&mut out, member, end);
            } else {
                for member in self.literal_members(member, false) {
                    push_literal(&mut out, member);
                }
            }
        }
    }

    /// Adds `from-to` to a class, and under `(?i)` every character Java's case-insensitive
    /// range also matches: under `(?iu)` one whose upper case or lower case of its upper case
    /// is in the range; under `(?i)` an ASCII letter whose other case is.
    fn push_class_range(&self, out: &mut String, from: char, to: char) {
        push_range(out, from, to);
        if self.flags.unicode_case_insensitive() {
            let inside = |c: char| from <= c && c <= to;
            for entry in case_table() {
                if (inside(entry.upper) || inside(entry.key)) && !inside(entry.c) {
                    push_literal(out, entry.c);
                }
            }
        }
        if self.flags.ascii_case_insensitive() {
            for (letters, other_case) in [('a'..='z', b'A' as i32 - b'a' as i32), ('A'..='Z', 32)] {
                let low = from.max(*letters.start());
                let high = to.min(*letters.end());
                if low <= high {
                    let shift = |c: char| char::from((c as i32 + other_case) as u8);
                    push_range(out, shift(low), shift(high));
                }
            }
        }
    }

    fn escape(&mut self, in_class: bool, start: usize) -> Result<Escaped, JavaRegexError> {
        let Some(c) = self.next() else {
            return Err(self.invalid("Unexpected internal error"));
        };
        let unicode = self.flags.unicode_classes;
        let set = |members: &str, negated: bool| {
            Escaped::Set(format!("[{}{members}]", if negated { "^" } else { "" }))
        };
        Ok(match c {
            'Q' => {
                let mut quoted = Vec::new();
                while let Some(c) = self.next() {
                    if c == '\\' && self.peek() == Some('E') {
                        self.pos += 1;
                        break;
                    }
                    quoted.push(c);
                }
                Escaped::Quoted(quoted)
            }
            'E' => Escaped::Nothing,
            '1'..='9' => return Err(self.unsupported("a backreference", start)),
            'k' => return Err(self.unsupported("a named backreference", start)),
            'G' => return Err(self.unsupported("the \\G anchor", start)),
            'X' => return Err(self.unsupported("\\X (a grapheme cluster)", start)),
            'N' => return Err(self.unsupported("\\N{name}", start)),
            'b' if self.peek() == Some('{') => {
                return Err(self.unsupported("a \\b{g} grapheme boundary", start))
            }
            'b' | 'B' | 'A' | 'z' | 'Z' | 'R' if in_class => {
                return Err(self.invalid("Illegal/unsupported escape sequence"))
            }
            'b' => Escaped::Other(r"\b"),
            'B' => Escaped::Other(r"\B"),
            'A' => Escaped::Other(r"\A"),
            'z' => Escaped::Other(r"\z"),
            'Z' if !in_class && self.find && self.at_end_of_pattern() => {
                self.push_end_of_input();
                Escaped::Nothing
            }
            // `\Z` also matches before a final line terminator in Java; see the module docs.
            'Z' => Escaped::Other(r"\z"),
            'R' => Escaped::Other(LINE_BREAK),
            '0' => Escaped::Char(self.octal()?),
            't' => Escaped::Char('\t'),
            'n' => Escaped::Char('\n'),
            'r' => Escaped::Char('\r'),
            'f' => Escaped::Char('\x0C'),
            'a' => Escaped::Char('\x07'),
            'e' => Escaped::Char('\x1B'),
            'x' => Escaped::Char(self.hex(start)?),
            'u' => Escaped::Char(self.unicode_escape(start)?),
            'c' => {
                let Some(control) = self.next() else {
                    return Err(self.invalid("Illegal control escape sequence"));
                };
                match char::from_u32(control as u32 ^ 64) {
                    Some(c) => Escaped::Char(c),
                    None => return Err(self.unsupported("a surrogate code unit", start)),
                }
            }
            'd' | 'D' | 'w' | 'W' | 's' | 'S' if unicode => Escaped::Set(format!("\\{c}")),
            'd' => set("0-9", false),
            'D' => set("0-9", true),
            'w' => set("a-zA-Z_0-9", false),
            'W' => set("a-zA-Z_0-9", true),
            's' => set(r"\t\n\x0B\x0C\r\x20", false),
            'S' => set(r"\t\n\x0B\x0C\r\x20", true),
            'h' => set(HORIZONTAL_SPACE, false),
            'H' => set(HORIZONTAL_SPACE, true),
            'v' => set(VERTICAL_SPACE, false),
            'V' => set(VERTICAL_SPACE, true),
            'p' | 'P' => Escaped::Set(self.property(c == 'P', start)?),
            c if c.is_ascii_alphabetic() => {
                return Err(self.invalid("Illegal/unsupported escape sequence"))
            }
            c => Escaped::Char(c),
        })
    }

    /// Java's `\0n`, `\0nn` or `\0mnn` (m ≤ 3); the `\0` is already consumed.
    fn octal(&mut self) -> Result<char, JavaRegexError> {
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
        Ok(char::from_u32(value).unwrap_or('\0'))
    }

    /// `\xhh` or `\x{h…}`; the `\x` is already consumed.
    fn hex(&mut self, start: usize) -> Result<char, JavaRegexError> {
        let value = if self.peek() == Some('{') {
            self.pos += 1;
            let mut value: u32 = 0;
            let mut digits = 0;
            loop {
                match self.next() {
                    Some('}') if digits > 0 => break,
                    Some(c) if c.is_ascii_hexdigit() => {
                        digits += 1;
                        value = value
                            .saturating_mul(16)
                            .saturating_add(c.to_digit(16).unwrap_or(0));
                    }
                    _ => return Err(self.invalid("Unclosed hexadecimal escape sequence")),
                }
            }
            if value > 0x10FFFF {
                return Err(self.invalid("Hexadecimal codepoint is too big"));
            }
            value
        } else {
            let mut value = 0;
            for _ in 0..2 {
                match self.next().and_then(|c| c.to_digit(16)) {
                    Some(digit) => value = value * 16 + digit,
                    None => return Err(self.invalid("Illegal hexadecimal escape sequence")),
                }
            }
            value
        };
        char::from_u32(value).ok_or_else(|| self.unsupported("a surrogate code unit", start))
    }

    /// `\uhhhh`, with a high surrogate followed by `\u` and a low one read as one character;
    /// the `\u` is already consumed.
    fn unicode_escape(&mut self, start: usize) -> Result<char, JavaRegexError> {
        let high = self.four_hex_digits()?;
        if (0xD800..0xDC00).contains(&high)
            && self.peek() == Some('\\')
            && self.peek_at(1) == Some('u')
        {
            let resume = self.pos;
            self.pos += 2;
            match self.four_hex_digits() {
                Ok(low) if (0xDC00..0xE000).contains(&low) => {
                    let value = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00);
                    return char::from_u32(value)
                        .ok_or_else(|| self.unsupported("a surrogate code unit", start));
                }
                _ => self.pos = resume,
            }
        }
        char::from_u32(high).ok_or_else(|| self.unsupported("a surrogate code unit", start))
    }

    fn four_hex_digits(&mut self) -> Result<u32, JavaRegexError> {
        let mut value = 0;
        for _ in 0..4 {
            match self.next().and_then(|c| c.to_digit(16)) {
                Some(digit) => value = value * 16 + digit,
                None => return Err(self.invalid("Illegal Unicode escape sequence")),
            }
        }
        Ok(value)
    }

    /// `\p{Name}`, `\P{Name}` or `\pL`; the `\p` is already consumed. Returns a bracketed
    /// set.
    fn property(&mut self, negated: bool, start: usize) -> Result<String, JavaRegexError> {
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
        let members = match property_members(&name, self.flags) {
            Ok(members) => members,
            Err(Refusal::Unsupported(construct)) => return Err(self.unsupported(construct, start)),
            Err(Refusal::Unknown) => return Err(self.invalid("Unknown character property name")),
        };
        Ok(format!("[{}{members}]", if negated { "^" } else { "" }))
    }
}

const POSSESSIVE: &str =
    "a possessive quantifier that could give a different result than a greedy one";

fn dangling(c: char) -> &'static str {
    match c {
        '*' => "Dangling meta character '*'",
        '+' => "Dangling meta character '+'",
        _ => "Dangling meta character '?'",
    }
}

/// Why a `\p{…}` name has no translation.
enum Refusal {
    /// Java knows it; the `regex` crate has no equivalent.
    Unsupported(&'static str),
    /// Java does not know it either.
    Unknown,
}

/// The members (text valid inside a `regex` class) of Java's `\p{name}` under `flags`.
fn property_members(name: &str, flags: Flags) -> Result<String, Refusal> {
    let ci = flags.case_insensitive;
    let unicode = flags.unicode_classes;
    let category = |name: &str| -> Option<String> {
        match name {
            "Lu" | "Ll" | "Lt" | "LC" if ci => Some(CASED_CATEGORIES.to_string()),
            name if CATEGORIES.contains(&name) => Some(format!(r"\p{{{name}}}")),
            "LD" => Some(r"\p{L}\p{Nd}".to_string()),
            "L1" => Some(r"\x00-\xFF".to_string()),
            _ => None,
        }
    };
    if let Some((key, value)) = name.split_once('=') {
        return match key {
            "gc" | "general_category" => category(value).ok_or(Refusal::Unknown),
            "sc" | "script" => Ok(format!(r"\p{{sc={value}}}")),
            "blk" | "block" => Err(Refusal::Unsupported("a Unicode block class")),
            _ => Err(Refusal::Unknown),
        };
    }
    if name.starts_with("In") {
        return Err(Refusal::Unsupported("a Unicode block class"));
    }
    if let Some(rest) = name.strip_prefix("Is") {
        if let Some(members) = category(rest) {
            return Ok(members);
        }
        let binary = match rest.to_ascii_uppercase().as_str() {
            "LOWERCASE" | "UPPERCASE" | "TITLECASE" if ci => CASED_PROPERTIES,
            "ALPHABETIC" => r"\p{Alphabetic}",
            "IDEOGRAPHIC" => r"\p{Ideographic}",
            "LETTER" => r"\p{L}",
            "LOWERCASE" => r"\p{Lowercase}",
            "UPPERCASE" => r"\p{Uppercase}",
            "TITLECASE" => r"\p{Lt}",
            "PUNCTUATION" => r"\p{P}",
            "CONTROL" => r"\p{Cc}",
            "WHITE_SPACE" | "WHITESPACE" => r"\p{White_Space}",
            "DIGIT" => r"\p{Nd}",
            "HEX_DIGIT" | "HEXDIGIT" => r"\p{Hex_Digit}",
            "JOIN_CONTROL" | "JOINCONTROL" => r"\p{Join_Control}",
            "NONCHARACTER_CODE_POINT" | "NONCHARACTERCODEPOINT" => r"\p{Noncharacter_Code_Point}",
            "ASSIGNED" => r"\P{Cn}",
            // Anything else names a script, or nothing (then the compiler refuses it).
            _ => return Ok(format!(r"\p{{sc={rest}}}")),
        };
        return Ok(binary.to_string());
    }
    if let Some(members) = category(name) {
        return Ok(members);
    }
    let members = match name {
        "Lower" | "Upper" if ci && unicode => CASED_PROPERTIES,
        "Lower" | "Upper" if ci => "a-zA-Z",
        "Lower" if unicode => r"\p{Lowercase}",
        "Upper" if unicode => r"\p{Uppercase}",
        "Alpha" if unicode => r"\p{Alphabetic}",
        "Digit" if unicode => r"\p{Nd}",
        "Alnum" if unicode => r"\p{Alphabetic}\p{Nd}",
        "Punct" if unicode => r"\p{P}",
        "Graph" if unicode => r"[^\p{White_Space}\p{Cc}\p{Cs}\p{Cn}]",
        "Print" if unicode => r"[[^\p{White_Space}\p{Cc}\p{Cs}\p{Cn}]\p{Zs}\t&&[^\p{Cc}]]",
        "Blank" if unicode => r"\p{Zs}\t",
        "Cntrl" if unicode => r"\p{Cc}",
        "XDigit" if unicode => r"\p{Nd}\p{Hex_Digit}",
        "Space" if unicode => r"\p{White_Space}",
        "Lower" => "a-z",
        "Upper" => "A-Z",
        "ASCII" => r"\x00-\x7F",
        "Alpha" => "a-zA-Z",
        "Digit" => "0-9",
        "Alnum" => "a-zA-Z0-9",
        "Punct" => r"!-/:-@\[-`\{-~",
        "Graph" => r"!-~",
        "Print" => r"\x20-~",
        "Blank" => r"\x20\t",
        "Cntrl" => r"\x00-\x1F\x7F",
        "XDigit" => "0-9a-fA-F",
        "Space" => r"\t\n\x0B\x0C\r\x20",
        "all" => r"\x00-\x{10FFFF}",
        "javaLowerCase" | "javaUpperCase" | "javaTitleCase" if ci => CASED_PROPERTIES,
        "javaLowerCase" => r"\p{Lowercase}",
        "javaUpperCase" => r"\p{Uppercase}",
        "javaTitleCase" => r"\p{Lt}",
        "javaAlphabetic" => r"\p{Alphabetic}",
        "javaIdeographic" => r"\p{Ideographic}",
        "javaDigit" => r"\p{Nd}",
        "javaLetter" => r"\p{L}",
        "javaLetterOrDigit" => r"\p{L}\p{Nd}",
        "javaDefined" => r"\P{Cn}",
        "javaSpaceChar" => r"\p{Zs}\p{Zl}\p{Zp}",
        "javaWhitespace" => r"\t\n\x0B\x0C\r\x1C-\x1F[\p{Zs}\p{Zl}\p{Zp}--[\xA0\x{2007}\x{202F}]]",
        "javaISOControl" => r"\x00-\x1F\x7F-\x{9F}",
        "javaMirrored" => r"\p{Bidi_Mirrored}",
        "javaIdentifierIgnorable" => r"\x00-\x08\x0E-\x1B\x7F-\x{9F}\p{Cf}",
        "javaJavaIdentifierStart" => r"\p{L}\p{Nl}\p{Sc}\p{Pc}",
        "javaJavaIdentifierPart" => {
            r"\p{L}\p{Sc}\p{Pc}\p{Nd}\p{Nl}\p{Mc}\p{Mn}\x00-\x08\x0E-\x1B\x7F-\x{9F}\p{Cf}"
        }
        "javaUnicodeIdentifierStart" => r"\p{L}\p{Nl}\p{Other_ID_Start}",
        "javaUnicodeIdentifierPart" => {
            r"\p{L}\p{Pc}\p{Nd}\p{Nl}\p{Mc}\p{Mn}\x00-\x08\x0E-\x1B\x7F-\x{9F}\p{Cf}\p{Other_ID_Start}\p{Other_ID_Continue}"
        }
        name if name.starts_with("java") => {
            return Err(Refusal::Unsupported("this \\p{java…} character class"))
        }
        _ => return Err(Refusal::Unknown),
    };
    Ok(members.to_string())
}

/// `Character.toUpperCase(int)`: Unicode's simple mapping. Rust gives the full mapping; where
/// that is several characters, the simple one is the character itself (`ß`), except for the
/// Greek letters with a subscript iota, whose simple upper case is their title-case form.
fn simple_upper(c: char) -> char {
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(single), None) => single,
        _ => match u32::from(c) {
            0x1F80..=0x1F87 | 0x1F90..=0x1F97 | 0x1FA0..=0x1FA7 => {
                char::from_u32(u32::from(c) + 8).unwrap_or(c)
            }
            0x1FB3 => '\u{1FBC}',
            0x1FC3 => '\u{1FCC}',
            0x1FF3 => '\u{1FFC}',
            _ => c,
        },
    }
}

/// `Character.toLowerCase(int)`, likewise: only `İ` has a full lower case of several
/// characters (`i` and a combining dot) and a simple one (`i`).
fn simple_lower(c: char) -> char {
    let mut lower = c.to_lowercase();
    match (lower.next(), lower.next()) {
        (Some(single), None) => single,
        _ if c == '\u{130}' => 'i',
        _ => c,
    }
}

/// A character with its case mappings, as Java's case-insensitive matching uses them.
struct CaseEntry {
    /// The character.
    c: char,
    /// `Character.toUpperCase(c)`.
    upper: char,
    /// `Character.toLowerCase(Character.toUpperCase(c))`: two characters with the same key
    /// are equal to Java's Unicode case-insensitive match.
    key: char,
}

/// Every character whose upper case or key differs from itself, computed once (a few
/// thousand): what a case-insensitive literal or range needs to find the characters it also
/// matches.
fn case_table() -> &'static [CaseEntry] {
    static TABLE: std::sync::OnceLock<Vec<CaseEntry>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..=0x10FFFF)
            .filter_map(char::from_u32)
            .filter_map(|c| {
                let upper = simple_upper(c);
                let key = simple_lower(upper);
                (upper != c || key != c).then_some(CaseEntry { c, upper, key })
            })
            .collect()
    })
}

/// Writes one literal character in a form that means the same inside and outside classes.
fn push_literal(out: &mut String, c: char) {
    if c.is_alphanumeric() {
        out.push(c);
    } else {
        let _ = write!(out, "\\x{{{:X}}}", c as u32);
    }
}

fn push_range(out: &mut String, from: char, to: char) {
    push_literal(out, from);
    if to != from {
        out.push('-');
        push_literal(out, to);
    }
}

#[cfg(test)]
mod tests;
