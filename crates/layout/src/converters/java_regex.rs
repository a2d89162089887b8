//! Java regular expressions and `replaceAll` replacements, for the `regex` crate.
//!
//! The two dialects agree on most syntax. The differences that change results are translated:
//! `\d \w \s` are ASCII-only in Java, `.` also stops at `\r` and the Unicode line breaks,
//! `\Q…\E` quotes, possessive quantifiers and atomic groups (treated as greedy ones), `\h`,
//! `\v`, `\R`, `\uXXXX`, octal escapes and POSIX `\p{…}` classes. Look-around and
//! back-references have no equivalent and are reported as errors.

use regex::Regex;

/// Compiles a Java regex; the error says what could not be translated or compiled.
pub(crate) fn compile(java: &str) -> Result<Regex, String> {
    let translated = translate(java)?;
    Regex::new(&translated).map_err(|e| e.to_string())
}

const LINE_BREAKS: &str = r"\n\r\x{85}\x{2028}\x{2029}";

fn class_for(escape: char) -> Option<&'static str> {
    Some(match escape {
        'd' => "[0-9]",
        'D' => "[^0-9]",
        'w' => "[a-zA-Z0-9_]",
        'W' => "[^a-zA-Z0-9_]",
        's' => r"[\t\n\x0B\f\r ]",
        'S' => r"[^\t\n\x0B\f\r ]",
        'h' => r"[ \t\xA0\x{1680}\x{180e}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}]",
        'H' => r"[^ \t\xA0\x{1680}\x{180e}\x{2000}-\x{200a}\x{202f}\x{205f}\x{3000}]",
        'v' => r"[\n\x0B\f\r\x{85}\x{2028}\x{2029}]",
        'V' => r"[^\n\x0B\f\r\x{85}\x{2028}\x{2029}]",
        _ => return None,
    })
}

fn posix_class(name: &str) -> Option<&'static str> {
    Some(match name {
        "Lower" => "[a-z]",
        "Upper" => "[A-Z]",
        "ASCII" => r"[\x00-\x7F]",
        "Alpha" => "[a-zA-Z]",
        "Digit" => "[0-9]",
        "Alnum" => "[a-zA-Z0-9]",
        "Punct" => r##"[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~]"##,
        "Graph" => r##"[a-zA-Z0-9!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~]"##,
        "Print" => r##"[ a-zA-Z0-9!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~]"##,
        "Blank" => r"[ \t]",
        "Cntrl" => r"[\x00-\x1F\x7F]",
        "XDigit" => "[0-9a-fA-F]",
        "Space" => r"[ \t\n\x0B\f\r]",
        "javaLowerCase" => r"\p{Lowercase}",
        "javaUpperCase" => r"\p{Uppercase}",
        "javaWhitespace" => r"[\t\n\x0B\f\r\x1C-\x1F\p{Zs}\p{Zl}\p{Zp}--\xA0\x{2007}\x{202F}]",
        "IsAlphabetic" => r"\p{Alphabetic}",
        "IsLetter" => r"\p{L}",
        "IsDigit" => r"\p{Nd}",
        "IsUppercase" => r"\p{Uppercase}",
        "IsLowercase" => r"\p{Lowercase}",
        "IsWhite_Space" | "IsWhiteSpace" => r"\p{White_Space}",
        _ => return None,
    })
}

/// Translates Java regex syntax to `regex` crate syntax.
pub(crate) fn translate(java: &str) -> Result<String, String> {
    let chars: Vec<char> = java.chars().collect();
    let mut out = String::with_capacity(java.len() + 16);
    let mut class_depth = 0usize;
    let mut after_quantifier = false;
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        i += 1;
        let was_quantifier = after_quantifier;
        after_quantifier = false;
        match c {
            '\\' => {
                let Some(&e) = chars.get(i) else {
                    return Err("Unexpected internal error near index 1".to_string());
                };
                i += 1;
                match e {
                    'Q' => {
                        let mut quoted = String::new();
                        while i < chars.len()
                            && !(chars[i] == '\\' && chars.get(i + 1) == Some(&'E'))
                        {
                            quoted.push(chars[i]);
                            i += 1;
                        }
                        i = (i + 2).min(chars.len());
                        out.push_str(&regex::escape(&quoted));
                    }
                    'E' => {}
                    'u' => {
                        let hex: String = chars.iter().skip(i).take(4).collect();
                        if hex.len() != 4 || !hex.chars().all(|h| h.is_ascii_hexdigit()) {
                            return Err("Illegal Unicode escape sequence".to_string());
                        }
                        i += 4;
                        out.push_str(&format!("\\x{{{hex}}}"));
                    }
                    '0' => {
                        let mut value = 0u32;
                        let mut digits = 0;
                        while digits < 3 && i < chars.len() && ('0'..='7').contains(&chars[i]) {
                            value = value * 8 + (chars[i] as u32 - '0' as u32);
                            i += 1;
                            digits += 1;
                        }
                        out.push_str(&format!("\\x{{{value:x}}}"));
                    }
                    'c' => {
                        let Some(&control) = chars.get(i) else {
                            return Err("Illegal control escape sequence".to_string());
                        };
                        i += 1;
                        out.push_str(&format!("\\x{{{:x}}}", (control as u32) ^ 64));
                    }
                    'e' => out.push_str(r"\x1B"),
                    'a' => out.push_str(r"\x07"),
                    'Z' => out.push_str(r"\z"),
                    'R' if class_depth == 0 => {
                        out.push_str(r"(?:\r\n|[\n\x0B\f\r\x{85}\x{2028}\x{2029}])")
                    }
                    'p' | 'P' => {
                        let name: String = if chars.get(i) == Some(&'{') {
                            let end = chars[i..]
                                .iter()
                                .position(|&x| x == '}')
                                .ok_or("Unclosed character family")?;
                            let name = chars[i + 1..i + end].iter().collect();
                            i += end + 1;
                            name
                        } else {
                            let name = chars.get(i).ok_or("Illegal character family")?.to_string();
                            i += 1;
                            name
                        };
                        match posix_class(&name) {
                            Some(class) if e == 'p' => out.push_str(class),
                            Some(class) => {
                                out.push_str("[^");
                                out.push_str(class);
                                out.push(']');
                            }
                            None => {
                                let name = name.strip_prefix("Is").unwrap_or(&name);
                                out.push('\\');
                                out.push(e);
                                out.push('{');
                                out.push_str(name);
                                out.push('}');
                            }
                        }
                    }
                    'k' | '1'..='9' | 'G' => {
                        return Err(format!("\\{e} is not supported"));
                    }
                    other => match class_for(other) {
                        Some(class) => out.push_str(class),
                        None => {
                            out.push('\\');
                            out.push(other);
                        }
                    },
                }
            }
            '[' => {
                class_depth += 1;
                out.push('[');
                if chars.get(i) == Some(&'^') {
                    out.push('^');
                    i += 1;
                }
                // A `]` right after the opening bracket is a literal in both dialects only
                // in Java; escape it for the regex crate.
                if chars.get(i) == Some(&']') {
                    out.push_str(r"\]");
                    i += 1;
                }
            }
            ']' if class_depth > 0 => {
                class_depth -= 1;
                out.push(']');
            }
            '.' if class_depth == 0 => {
                out.push_str("[^");
                out.push_str(LINE_BREAKS);
                out.push(']');
            }
            '(' if class_depth == 0 && chars.get(i) == Some(&'?') => {
                let rest: String = chars[i + 1..].iter().take(3).collect();
                if rest.starts_with('=')
                    || rest.starts_with('!')
                    || rest.starts_with("<=")
                    || rest.starts_with("<!")
                {
                    return Err("look-around is not supported".to_string());
                }
                if rest.starts_with('>') {
                    out.push_str("(?:");
                    i += 2;
                } else if rest.starts_with('<') || rest.starts_with(':') || rest.starts_with('P') {
                    out.push('(');
                } else {
                    // Inline flags: keep the ones both dialects share.
                    out.push_str("(?");
                    i += 1;
                    while let Some(&flag) = chars.get(i) {
                        if flag == ')' || flag == ':' {
                            break;
                        }
                        if matches!(flag, 'i' | 'm' | 's' | 'x' | '-') {
                            out.push(flag);
                        }
                        i += 1;
                    }
                    if out.ends_with("(?") && chars.get(i) == Some(&')') {
                        out.truncate(out.len() - 2);
                        i += 1;
                    }
                }
            }
            '*' | '+' | '?' if class_depth == 0 => {
                if c == '+' && was_quantifier {
                    // Possessive quantifier: matched as a greedy one.
                } else {
                    out.push(c);
                    after_quantifier = c != '?' || !was_quantifier;
                }
            }
            '}' if class_depth == 0 => {
                out.push('}');
                after_quantifier = true;
            }
            _ => out.push(c),
        }
    }
    Ok(out)
}

/// One piece of a compiled `replaceAll` replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Piece {
    Text(String),
    Group(usize),
    Named(String),
}

/// Parses a Java replacement (`$1`, `${name}`, `\$`) against a regex with `groups` groups.
pub(crate) fn parse_replacement(replacement: &str, groups: usize) -> Result<Vec<Piece>, String> {
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

/// A compiled Java `replaceAll`.
#[derive(Clone, Debug)]
pub(crate) struct Replacement {
    regex: Regex,
    pieces: Vec<Piece>,
    uses_groups: bool,
}

impl Replacement {
    /// Compiles the regex and the replacement.
    pub fn new(regex: &str, replacement: &str) -> Result<Replacement, String> {
        let regex = compile(regex)?;
        let pieces = parse_replacement(replacement, regex.captures_len() - 1)?;
        let uses_groups = pieces.iter().any(|p| !matches!(p, Piece::Text(_)));
        Ok(Replacement {
            regex,
            pieces,
            uses_groups,
        })
    }

    /// Appends `input` with every match replaced.
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
        assert!(compile("(?=x)").is_err());
        assert!(compile(r"(a)\1").is_err());
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
