//! Java's `Matcher.replaceAll`: a Java regular expression and a replacement that may refer to
//! its groups (`$1`, `${name}`, `\$` for a dollar sign), as `%replace` and `<Replace>` use it.

use super::{compile, JavaRegexError};
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
}

impl Replacement {
    /// Compiles the Java regular expression and the replacement.
    pub fn new(regex: &str, replacement: &str) -> Result<Replacement, ReplacementError> {
        let regex = compile(regex)?;
        let pieces = parse_replacement(replacement, regex.captures_len() - 1)
            .map_err(ReplacementError::Replacement)?;
        let uses_groups = pieces.iter().any(|p| !matches!(p, Piece::Text(_)));
        Ok(Replacement {
            regex,
            pieces,
            uses_groups,
        })
    }

    /// Appends `input` to `out` with every match replaced.
    pub fn apply(&self, input: &str, out: &mut String) {
        let mut last = 0;
        if !self.uses_groups {
            for found in self.regex.find_iter(input) {
                out.push_str(&input[last..found.start()]);
                for piece in &self.pieces {
                    if let Piece::Text(text) = piece {
                        out.push_str(text);
                    }
                }
                last = found.end();
            }
        } else {
            for captures in self.regex.captures_iter(input) {
                let whole = captures.get(0).expect("group 0 always matches");
                out.push_str(&input[last..whole.start()]);
                for piece in &self.pieces {
                    match piece {
                        Piece::Text(text) => out.push_str(text),
                        Piece::Group(n) => {
                            out.push_str(captures.get(*n).map_or("", |m| m.as_str()))
                        }
                        Piece::Named(name) => {
                            out.push_str(captures.name(name).map_or("", |m| m.as_str()))
                        }
                    }
                }
                last = whole.end();
            }
        }
        out.push_str(&input[last..]);
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
        assert!(Replacement::new("(?=x)", "").is_err());
        assert!(Replacement::new(r"(a)\1", "").is_err());
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
        assert!(Replacement::new("x", "$2").is_err());
    }
}
