//! Date patterns in the letters of `java.text.SimpleDateFormat` (and of log4j2's
//! `FastDateFormat`, which reads them the same way): `yyyy-MM-dd'T'HH:mm:ss,SSS`.
//!
//! [`parse`] splits a pattern into [`Token`]s as every Java date formatter does: a run of one
//! ASCII letter is a field (`yyyy` is the letter `y` four times), text between single quotes
//! is literal (`''` is a quote, inside quotes or out), and every other character is literal.
//! Which letters a formatter knows, and what each count means, is the formatter's business:
//! the layout's `%d`, the `filePattern`'s `%d` and the `${date:…}` lookup each read the
//! tokens for their own purpose.

/// One piece of a date pattern.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Token {
    /// Text printed as it is, quotes resolved (`'T'` is `T`, `''` is `'`). Adjacent literal
    /// text is merged into one token.
    Literal(String),
    /// A run of one ASCII letter, as `Field { letter: 'y', count: 4 }` for `yyyy`.
    Field {
        /// The letter (`y`, `M`, `d`, `H`…), not necessarily one a formatter knows.
        letter: char,
        /// How many times it is repeated (at least 1).
        count: usize,
    },
}

/// Why a date pattern cannot be split.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum DatePatternError {
    /// A quote that is never closed.
    #[error("Unterminated quote")]
    UnterminatedQuote {
        /// The position of the opening quote, in characters.
        index: usize,
    },
}

/// Splits `pattern` into literal text and letter fields.
pub fn parse(pattern: &str) -> Result<Vec<Token>, DatePatternError> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut tokens = Vec::new();
    let mut literal = String::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        if c.is_ascii_alphabetic() {
            let count = chars[i..].iter().take_while(|&&next| next == c).count();
            if !literal.is_empty() {
                tokens.push(Token::Literal(std::mem::take(&mut literal)));
            }
            tokens.push(Token::Field { letter: c, count });
            i += count;
        } else if c == '\'' {
            i = read_quoted(&chars, i, &mut literal)
                .ok_or(DatePatternError::UnterminatedQuote { index: i })?;
        } else {
            literal.push(c);
            i += 1;
        }
    }
    if !literal.is_empty() {
        tokens.push(Token::Literal(literal));
    }
    Ok(tokens)
}

/// Reads the quoted text that starts with the quote at `chars[quote]` into `out`: `''` is a
/// literal quote, anywhere; otherwise the text up to the closing quote is literal. Returns the
/// index after the closing quote, or `None` when the quote is never closed.
fn read_quoted(chars: &[char], quote: usize, out: &mut String) -> Option<usize> {
    let mut i = quote + 1;
    if chars.get(i) == Some(&'\'') {
        out.push('\'');
        return Some(i + 1);
    }
    loop {
        match chars.get(i) {
            None => return None,
            Some('\'') if chars.get(i + 1) == Some(&'\'') => {
                out.push('\'');
                i += 2;
            }
            Some('\'') => return Some(i + 1),
            Some(&other) => {
                out.push(other);
                i += 1;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(letter: char, count: usize) -> Token {
        Token::Field { letter, count }
    }

    fn literal(text: &str) -> Token {
        Token::Literal(text.to_string())
    }

    #[test]
    fn letters_runs_and_literals() {
        assert_eq!(
            parse("yyyy-MM-dd HH:mm:ss,SSS").unwrap(),
            vec![
                field('y', 4),
                literal("-"),
                field('M', 2),
                literal("-"),
                field('d', 2),
                literal(" "),
                field('H', 2),
                literal(":"),
                field('m', 2),
                literal(":"),
                field('s', 2),
                literal(","),
                field('S', 3),
            ]
        );
        assert_eq!(parse("").unwrap(), vec![]);
        // Non-ASCII letters are literal text, as in Java.
        assert_eq!(parse("éé").unwrap(), vec![literal("éé")]);
    }

    #[test]
    fn quotes() {
        assert_eq!(
            parse("'at' h 'o''clock' ''").unwrap(),
            vec![literal("at "), field('h', 1), literal(" o'clock '"),]
        );
        assert_eq!(
            parse("yyyy'T'HH").unwrap(),
            vec![field('y', 4), literal("T"), field('H', 2)]
        );
        assert_eq!(
            parse("HH 'open"),
            Err(DatePatternError::UnterminatedQuote { index: 3 })
        );
        assert_eq!(
            parse("'").unwrap_err(),
            DatePatternError::UnterminatedQuote { index: 0 }
        );
    }

    /// Any text splits or fails without panicking, and what splits is all of the text.
    #[test]
    fn arbitrary_patterns_never_panic() {
        const PIECES: &[&str] = &["y", "yy", "M", "'", "''", "é", " ", "x", "'T'", ":", "S"];
        let mut state: u64 = 0x2545_F491_4F6C_DD1D;
        for _ in 0..2000 {
            let mut pattern = String::new();
            for _ in 0..(state % 9) {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                pattern.push_str(PIECES[(state % PIECES.len() as u64) as usize]);
            }
            if let Ok(tokens) = parse(&pattern) {
                let letters: usize = tokens
                    .iter()
                    .map(|token| match token {
                        Token::Field { count, .. } => *count,
                        Token::Literal(_) => 0,
                    })
                    .sum();
                let outside_quotes = pattern.split('\'').step_by(2).collect::<String>();
                let expected = outside_quotes
                    .chars()
                    .filter(char::is_ascii_alphabetic)
                    .count();
                assert_eq!(letters, expected, "{pattern}");
            }
        }
    }
}
