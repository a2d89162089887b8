//! `%c` / `%C` precision: log4j2's `NameAbbreviator` in all its forms.
//!
//! * an integer `n` keeps the rightmost `n` dot-separated parts (`{0}` acts as `{1}`);
//! * `-n` drops the leftmost `n` parts;
//! * `1.N*` keeps the rightmost `N` words whole and shortens the others to one letter
//!   (log4j2 2.20+'s `DynamicWordAbbreviator`, the 2.24 target);
//! * anything else is a list of fragments (`1.`, `1.1.~`, `*.`, …), the last one repeating.

/// A compiled precision option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum NameAbbreviator {
    /// No option: the name as it is.
    Full,
    /// Keep the rightmost `n` parts.
    Retain(usize),
    /// Drop the leftmost `n` parts.
    Drop(usize),
    /// `1.N*`: keep `N` right words whole.
    DynamicWords(usize),
    /// Fragment list: characters to keep (`usize::MAX` for `*`) and an optional ellipsis.
    Fragments(Vec<(usize, Option<char>)>),
}

impl NameAbbreviator {
    /// Compiles the precision option.
    pub(crate) fn new(option: Option<&str>) -> NameAbbreviator {
        let Some(option) = option else {
            return NameAbbreviator::Full;
        };
        let trimmed = option.trim();
        if trimmed.is_empty() {
            return NameAbbreviator::Full;
        }
        if let Some(words) = dynamic_word_count(trimmed) {
            return NameAbbreviator::DynamicWords(words);
        }
        let (negative, number) = match trimmed.strip_prefix('-') {
            Some(rest) if trimmed.len() > 1 => (true, rest),
            _ => (false, trimmed),
        };
        if number.bytes().all(|b| b.is_ascii_digit()) {
            let count = number.parse::<usize>().unwrap_or(usize::MAX);
            return if negative {
                NameAbbreviator::Drop(count)
            } else {
                NameAbbreviator::Retain(count.max(1))
            };
        }
        let chars: Vec<char> = trimmed.chars().collect();
        let mut fragments = Vec::new();
        let mut position = 0;
        while position < chars.len() {
            let mut ellipsis_position = position;
            let keep = match chars[position] {
                '*' => {
                    ellipsis_position += 1;
                    usize::MAX
                }
                c if c.is_ascii_digit() => {
                    ellipsis_position += 1;
                    c as usize - '0' as usize
                }
                _ => 0,
            };
            let ellipsis = chars.get(ellipsis_position).copied().filter(|&c| c != '.');
            fragments.push((keep, ellipsis));
            match chars[position..].iter().position(|&c| c == '.') {
                Some(offset) => position += offset + 1,
                None => break,
            }
        }
        NameAbbreviator::Fragments(fragments)
    }

    /// Appends the abbreviated `name`.
    pub(crate) fn abbreviate(&self, name: &str, out: &mut String) {
        match self {
            NameAbbreviator::Full => crate::short::push(out, name),
            NameAbbreviator::Retain(count) => {
                let bytes = name.as_bytes();
                // Start one before the end so that a trailing dot is not a separator.
                let mut end = name.len().saturating_sub(1);
                for _ in 0..*count {
                    match bytes[..end.min(bytes.len())]
                        .iter()
                        .rposition(|&b| b == b'.')
                    {
                        Some(dot) => end = dot,
                        None => {
                            out.push_str(name);
                            return;
                        }
                    }
                }
                out.push_str(&name[end + 1..]);
            }
            NameAbbreviator::Drop(count) => {
                let mut start = 0;
                for _ in 0..*count {
                    match name[start..].find('.') {
                        Some(offset) => start += offset + 1,
                        None => {
                            out.push_str(name);
                            return;
                        }
                    }
                }
                out.push_str(&name[start..]);
            }
            NameAbbreviator::DynamicWords(right) => {
                // Java's String.split('.') semantics: trailing empty words are dropped.
                let trimmed = name.trim_end_matches('.');
                let count = if trimmed.is_empty() {
                    0
                } else {
                    trimmed.split('.').count()
                };
                if *right >= count {
                    out.push_str(name);
                    return;
                }
                let last_abbreviated = count - right;
                for (index, word) in trimmed.split('.').enumerate() {
                    if index >= last_abbreviated {
                        out.push_str(word);
                        if index < count - 1 {
                            out.push('.');
                        }
                    } else if !word.is_empty() {
                        // `charAt(0)`: half of a surrogate pair for a supplementary letter.
                        push_utf16_prefix(out, word, 1);
                        out.push('.');
                    }
                }
            }
            NameAbbreviator::Fragments(fragments) => {
                let mut index = 0;
                let mut iteration = 0;
                while index < name.len() {
                    let (keep, ellipsis) = fragments[iteration.min(fragments.len() - 1)];
                    iteration += 1;
                    let Some(offset) = name[index..].find('.') else {
                        out.push_str(&name[index..]);
                        return;
                    };
                    let part = &name[index..index + offset];
                    // Java measures and cuts the part in UTF-16 units.
                    if crate::modifiers::utf16_len(part) > keep {
                        push_utf16_prefix(out, part, keep);
                        if let Some(ellipsis) = ellipsis {
                            out.push(ellipsis);
                        }
                        out.push('.');
                    } else {
                        out.push_str(&name[index..=index + offset]);
                    }
                    index += offset + 1;
                }
            }
        }
    }
}

/// Appends the first `units` UTF-16 units of `text`, as Java's `substring` cuts it. A cut
/// through a surrogate pair leaves a lone surrogate, which the UTF-8 encoder writes as `?`.
fn push_utf16_prefix(out: &mut String, text: &str, units: usize) {
    let mut taken = 0;
    for c in text.chars() {
        let width = c.len_utf16();
        if taken + width > units {
            if taken < units {
                out.push('?');
            }
            return;
        }
        out.push(c);
        taken += width;
    }
}

/// `1.N*` with `N` ≥ 1 (regex `1\.([1-9][0-9]*)\*`).
fn dynamic_word_count(pattern: &str) -> Option<usize> {
    let digits = pattern.strip_prefix("1.")?.strip_suffix('*')?;
    if digits.is_empty() || digits.starts_with('0') || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok().or(Some(usize::MAX))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn abbreviate(option: &str, name: &str) -> String {
        let mut out = String::new();
        NameAbbreviator::new(Some(option)).abbreviate(name, &mut out);
        out
    }

    const NAME: &str = "org.apache.commons.test.Foo";

    #[test]
    fn integer_precisions() {
        assert_eq!(abbreviate("1", NAME), "Foo");
        assert_eq!(abbreviate("0", NAME), "Foo");
        assert_eq!(abbreviate("2", NAME), "test.Foo");
        assert_eq!(abbreviate("10", NAME), NAME);
        assert_eq!(abbreviate("-1", NAME), "apache.commons.test.Foo");
        assert_eq!(abbreviate("-10", NAME), NAME);
        assert_eq!(abbreviate(" ", NAME), NAME);
        assert_eq!(abbreviate("1", "Foo"), "Foo");
    }

    #[test]
    fn fragments_count_utf16_units_like_java() {
        // Checked against log4j2 2.19 in scenario 358-utf16-edge-cases.
        assert_eq!(abbreviate("1.", "\u{1F600}pkg.élan.Cls"), "?.é.Cls");
        assert_eq!(
            abbreviate("2.", "\u{1F600}pkg.élan.Cls"),
            "\u{1F600}.él.Cls"
        );
        assert_eq!(abbreviate("1.", "ab.\u{1F600}.c"), "a.?.c");
        assert_eq!(abbreviate("2.", "ab.\u{1F600}.c"), "ab.\u{1F600}.c");
        assert_eq!(abbreviate("1.1*", "\u{1F600}x.y.Z"), "?.y.Z");
    }

    #[test]
    fn fragment_patterns() {
        assert_eq!(abbreviate("1.", NAME), "o.a.c.t.Foo");
        assert_eq!(abbreviate("1.1.~.~", NAME), "o.a.~.~.Foo");
        assert_eq!(abbreviate(".", NAME), "....Foo");
        assert_eq!(abbreviate("1.1.1.*", NAME), "o.a.c.test.Foo");
        assert_eq!(abbreviate("3.", NAME), "org.apa.com.tes.Foo");
        assert_eq!(abbreviate("1.", ""), "");
    }

    #[test]
    fn dynamic_words() {
        let name = "org.apache.logging.log4j.core.pattern.NameAbbreviatorTest";
        assert_eq!(
            abbreviate("1.2*", name),
            "o.a.l.l.c.pattern.NameAbbreviatorTest"
        );
        assert_eq!(abbreviate("1.8*", name), name);
        assert_eq!(abbreviate("1.1*", "."), ".");
        assert_eq!(abbreviate("1.1*", "org......novice"), "o.novice");
        assert_eq!(abbreviate("1.1*", "org.novice."), "o.novice");
        assert_eq!(abbreviate("1.1*", "org. . .novice"), "o. . .novice");
    }
}
