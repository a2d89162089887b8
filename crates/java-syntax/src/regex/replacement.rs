//! Java's `Matcher.replaceAll`: a Java regular expression and a replacement that may refer to
//! its groups (`$1`, `${name}`, `\$` for a dollar sign), as `%replace` and `<Replace>` use it.

use super::{compile, JavaRegexError, END_OF_LINE_GROUP};
use ::regex::Regex;

/// Why a `replaceAll` could not be prepared.
#[derive(Debug, thiserror::Error)]
pub enum ReplacementError {
    /// The regular expression (Java's `PatternSyntaxException`, or a construct l4rs refuses).
    #[error(transparent)]
    Regex(#[from] JavaRegexError),
    /// The replacement text, worded as Java's `IllegalArgumentException` or
    /// `IndexOutOfBoundsException` words it (`No group 2`).
    #[error("{0}")]
    Replacement(String),
}

impl ReplacementError {
    /// True when the regular expression is valid Java that l4rs cannot evaluate (Java would
    /// have accepted it), as opposed to an error Java reports too.
    pub fn is_unsupported(&self) -> bool {
        matches!(
            self,
            ReplacementError::Regex(JavaRegexError::Unsupported { .. })
        )
    }
}

/// One piece of a compiled `replaceAll` replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Piece {
    /// Literal text.
    Text(String),
    /// `$n`.
    Group(usize),
    /// `${name}`.
    Named(String),
}

/// Parses a Java replacement (`$1`, `${name}`, `\$`) against a regex with `groups` groups.
fn parse_replacement(replacement: &str, groups: usize) -> Result<Vec<Piece>, String> {
    let chars: Vec<char> = replacement.chars().collect();
    let mut pieces = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < chars.len() {
        match chars[i] {
            '\\' => {
                let escaped = chars
                    .get(i + 1)
                    .ok_or("character to be escaped is missing")?;
                text.push(*escaped);
                i += 2;
            }
            '$' => {
                i += 1;
                let Some(&next) = chars.get(i) else {
                    return Err("Illegal group reference: group index is missing".to_string());
                };
                if !text.is_empty() {
                    pieces.push(Piece::Text(std::mem::take(&mut text)));
                }
                if next == '{' {
                    let end = chars[i..]
                        .iter()
                        .position(|&c| c == '}')
                        .ok_or("named capturing group is missing trailing '}'")?;
                    let name: String = chars[i + 1..i + end].iter().collect();
                    if name.is_empty() {
                        return Err("named capturing group has 0 length name".to_string());
                    }
                    pieces.push(Piece::Named(name));
                    i += end + 1;
                } else if let Some(first) = next.to_digit(10) {
                    let mut number = first as usize;
                    if number > groups {
                        return Err(format!("No group {number}"));
                    }
                    i += 1;
                    while let Some(digit) = chars.get(i).and_then(|c| c.to_digit(10)) {
                        let candidate = number * 10 + digit as usize;
                        if candidate > groups {
                            break;
                        }
                        number = candidate;
                        i += 1;
                    }
                    pieces.push(Piece::Group(number));
                } else {
                    return Err("Illegal group reference".to_string());
                }
            }
            c => {
                text.push(c);
                i += 1;
            }
        }
    }
    if !text.is_empty() {
        pieces.push(Piece::Text(text));
    }
    Ok(pieces)
}

/// A compiled Java `replaceAll`: `Replacement::new(regex, replacement)` once, then
/// [`Replacement::apply`] per text.
#[derive(Clone, Debug)]
pub struct Replacement {
    regex: Regex,
    pieces: Vec<Piece>,
    uses_groups: bool,
    /// The groups into which a final `$` or `\Z` matched a line terminator (named
    /// `END_OF_LINE_GROUP…`), which is not part of the replaced span.
    line_end_groups: Vec<usize>,
    /// The pattern has `(?m)` and a `^` anchor, which the `regex` crate also matches at the
    /// very end of a text that ends with a line terminator, where Java's does not. An empty
    /// match there is dropped (wrongly only if another part of such a pattern, a `$` say,
    /// matched there).
    has_caret: bool,
}

impl Replacement {
    /// Compiles the Java regular expression and the replacement.
    pub fn new(regex: &str, replacement: &str) -> Result<Replacement, ReplacementError> {
        let regex = compile(regex)?;
        let line_end_groups = regex
            .capture_names()
            .enumerate()
            .filter(|(_, name)| name.is_some_and(|name| name.starts_with(END_OF_LINE_GROUP)))
            .map(|(index, _)| index)
            .collect::<Vec<_>>();
        // Those groups come after every group of the pattern's own, which keep their numbers.
        let groups = regex.captures_len() - 1 - line_end_groups.len();
        let pieces =
            parse_replacement(replacement, groups).map_err(ReplacementError::Replacement)?;
        let uses_groups = pieces.iter().any(|p| !matches!(p, Piece::Text(_)));
        // The translation writes every literal `^` escaped, so a bare one is an anchor or a
        // class's negation, and turns `(?m)` on only as `(?m…`.
        let translated = regex.as_str();
        let has_caret = translated.contains("(?m")
            && translated
                .char_indices()
                .any(|(at, c)| c == '^' && !translated[..at].ends_with('['));
        Ok(Replacement {
            regex,
            pieces,
            uses_groups,
            line_end_groups,
            has_caret,
        })
    }

    /// Appends the replacement for one match.
    fn push_pieces(&self, captures: Option<&::regex::Captures<'_>>, out: &mut String) {
        for piece in &self.pieces {
            let group = match (piece, captures) {
                (Piece::Text(text), _) => {
                    out.push_str(text);
                    continue;
                }
                (_, None) => None,
                (Piece::Group(n), Some(captures)) => captures.get(*n),
                (Piece::Named(name), Some(captures)) => captures.name(name),
            };
            out.push_str(group.map_or("", |m| m.as_str()));
        }
    }

    /// Appends `input` to `out` with every match replaced.
    ///
    /// The matches are found as Java's `Matcher.find()` finds them one after the other: the
    /// next search starts where the previous match ended, one character further when it was
    /// empty, so an empty match right after a non-empty one counts (`a*` in `baa` matches at
    /// 0, 1..3 and 3, giving `-b--`), where the `regex` crate's iterators skip it.
    pub fn apply(&self, input: &str, out: &mut String) {
        let needs_captures = self.uses_groups || !self.line_end_groups.is_empty();
        let mut copied = 0;
        let mut from = 0;
        while from <= input.len() {
            let (start, end, captures) = if needs_captures {
                let Some(captures) = self.regex.captures_at(input, from) else {
                    break;
                };
                let Some(whole) = captures.get(0) else { break };
                // A line terminator matched by a final `$` is not part of Java's match.
                let end = self
                    .line_end_groups
                    .iter()
                    .find_map(|&group| captures.get(group))
                    .map_or(whole.end(), |line_end| line_end.start());
                (whole.start(), end, Some(captures))
            } else {
                let Some(found) = self.regex.find_at(input, from) else {
                    break;
                };
                (found.start(), found.end(), None)
            };
            if start == end
                && start == input.len()
                && self.has_caret
                && (input.ends_with('\n') || input.ends_with('\r'))
            {
                // Taken to be `(?m)^` after the final line terminator: not a match in Java.
                break;
            }
            out.push_str(&input[copied..start]);
            self.push_pieces(captures.as_ref(), out);
            copied = end;
            from = if end == start {
                end + input[end..].chars().next().map_or(1, char::len_utf8)
            } else {
                end
            };
        }
        out.push_str(&input[copied..]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replace_all(regex: &str, replacement: &str, input: &str) -> String {
        let mut out = String::new();
        Replacement::new(regex, replacement)
            .unwrap()
            .apply(input, &mut out);
        out
    }

    #[test]
    fn java_dialect_differences() {
        assert_eq!(replace_all(r"\d+", "#", "a1٣2b"), "a#٣#b");
        assert_eq!(replace_all(r"\w+", "w", "héllo"), "wéw");
        assert_eq!(replace_all(r"a.c", "X", "a\rc abc"), "a\rc X");
        assert_eq!(replace_all(r"\Q.*\E", "!", "a.*b"), "a!b");
        assert_eq!(replace_all(r"a++b", "X", "aaab"), "X");
        assert_eq!(replace_all(r"\u0041", "a", "ABA"), "aBa");
        assert!(Replacement::new("(?=x)", "").is_err_and(|e| e.is_unsupported()));
        assert!(Replacement::new("(x", "").is_err_and(|e| !e.is_unsupported()));
        assert!(Replacement::new(r"(a)\1", "").is_err());
    }

    /// What Java's `replaceAll` gives (checked with JDK 17).
    #[test]
    fn dollar_matches_before_a_final_line_terminator_and_leaves_it() {
        assert_eq!(replace_all(r"\.$", "!", "end.\n"), "end!\n");
        assert_eq!(replace_all(r"\.$", "!", "end.\r\n"), "end!\r\n");
        assert_eq!(replace_all(r"\.$", "!", "end.\n\n"), "end.\n\n");
        assert_eq!(replace_all(r"(\w+)$", "<$1>", "a bc\n"), "a <bc>\n");
        assert_eq!(replace_all(r"x\Z", "y", "x\u{2028}"), "y\u{2028}");
        assert_eq!(replace_all("$", "X", "ab\n"), "abX\nX");
        assert_eq!(replace_all(r"\s+$", "", "abc  \n"), "abc");
        assert_eq!(replace_all("(?d)x$", "y", "x\r"), "x\r");
        assert_eq!(replace_all("x$|y", "Z", "yx\n"), "ZZ\n");
        assert_eq!(replace_all("a*$", "-", "baa\n"), "b--\n-");
        assert_eq!(replace_all("x$|y$", "Z", "yx\n"), "yZ\n");
        assert_eq!(replace_all(r"(x)|(\d)$", "<$1$2>", "x1\n"), "<x><1>\n");
    }

    /// Java's `replaceAll` counts an empty match right after a non-empty one.
    #[test]
    fn matches_follow_one_another_as_in_java() {
        assert_eq!(replace_all("a*", "-", "baa"), "-b--");
        assert_eq!(replace_all("x*", "-", "ab"), "-a-b-");
        assert_eq!(replace_all("a|", "-", "ab"), "--b-");
        assert_eq!(replace_all("", "-", "éb"), "-é-b-");
    }

    #[test]
    fn replacements() {
        assert_eq!(
            replace_all(r"(\w+)@(\w+)", "$2 at $1", "bob@example x"),
            "example at bob x"
        );
        assert_eq!(replace_all(r"(?<user>\w+)@", "${user}:", "bob@x"), "bob:x");
        assert_eq!(replace_all(r"(a)", "$1a", "a"), "aa");
        assert_eq!(replace_all(r"\n", "\\\\n", "a\nb"), "a\\nb");
        assert_eq!(replace_all(r"x", "\\$", "x"), "$");
        assert!(Replacement::new("x", "$").is_err());
        assert!(Replacement::new("(x)$", "$2").is_err());
        assert!(Replacement::new("x", "$2").is_err());
    }
}
