use super::*;

fn whole(java: &str) -> ::regex::Regex {
    compile_whole(java).unwrap_or_else(|e| panic!("{java}: {e}"))
}

fn found(java: &str, text: &str) -> bool {
    compile(java)
        .unwrap_or_else(|e| panic!("{java}: {e}"))
        .is_match(text)
}

fn unsupported(java: &str) -> bool {
    matches!(translate(java), Err(JavaRegexError::Unsupported { .. }))
}

fn invalid(java: &str) -> bool {
    matches!(translate(java), Err(JavaRegexError::Invalid { .. }))
}

fn refused(java: &str) -> bool {
    compile(java).is_err()
}

#[test]
fn whole_match_anchors_every_alternative() {
    let re = whole("ab|cd");
    assert!(re.is_match("ab") && re.is_match("cd"));
    assert!(!re.is_match("abcd") && !re.is_match("xab"));
    assert!(found("ab|cd", "xabx"));
    assert_eq!(translate_whole("ab|cd").unwrap(), r"\A(?:ab|cd)\z");
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
fn case_insensitivity_is_ascii_unless_unicode_case() {
    assert!(whole("(?i)abc").is_match("ABC"));
    assert!(!whole("(?i)é").is_match("É"));
    assert!(whole("(?iu)é").is_match("É"));
    assert!(whole("(?U)(?i)é").is_match("É"));
    assert!(whole("(?i)[a-c]+").is_match("AbC"));
    assert!(!whole("(?i)[à-ê]").is_match("É"));
    assert!(whole("(?iu)[à-ê]").is_match("É"));
    assert!(!whole("(?i)[^a]").is_match("A"));
    assert!(!whole("(?i)k").is_match("\u{212A}"));
    assert!(whole("(?iu)k").is_match("\u{212A}"));
    // Java's Unicode rule: the lower case of the upper case decides.
    assert!(whole("(?iu)i").is_match("\u{130}"));
    assert!(whole("(?iu)[a-z]").is_match("\u{131}"));
    assert!(!whole("(?iu)ß").is_match("ẞ"));
    assert!(whole("(?iu)aß").is_match("aẞ"));
    // Java widens the cased classes, and only those.
    assert!(whole(r"(?i)\p{Lu}").is_match("é"));
    assert!(whole(r"(?i)\p{Lower}").is_match("A"));
    assert!(!whole(r"(?i)\p{Upper}").is_match("é"));
    assert!(!whole(r"(?iu)\w").is_match("\u{212A}"));
    assert!(whole("(?i:a)b").is_match("Ab"));
    assert!(!whole("(?i:a)b").is_match("AB"));
    assert!(whole("(?i)a(?-i)b").is_match("Ab"));
    assert!(!whole("(?i)a(?-i)b").is_match("AB"));
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
    assert!(whole(r"\p{sc=Greek}\p{gc=Nd}").is_match("α1"));
    assert!(unsupported(r"\p{InGreek}"));
    assert!(whole(r"\p{javaMirrored}").is_match("("));
    assert!(invalid(r"\p{Latin}"));
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
    assert!(whole(r"\e\cA\0101\x41\u0041\t\x{1F600}").is_match("\u{1B}\u{1}AAA\t😀"));
    assert!(whole(r"\uD83D\uDE00").is_match("😀"));
    assert!(unsupported(r"\uD83D"));
    assert!(whole(r"a\Z").is_match("a"));
    for escape in [r"\y", r"\08", r"\u{41}", r"\xG1", r"\x{110000}"] {
        assert!(invalid(escape), "{escape}");
    }
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
    assert!(whole("[a-]").is_match("-"));
    assert!(invalid(r"[a-\d]"));
    assert!(invalid("[z-a]"));
}

#[test]
fn quantifiers() {
    assert!(whole("a{2}b{1,}c{1,2}?d*?").is_match("aabbcc"));
    assert!(unsupported("x{2}{3}"));
    assert!(unsupported("x*{2}"));
    for dangling in ["a**", "*a", "a|+b", "(?i)*", "x+*", "x*?+"] {
        assert!(invalid(dangling), "{dangling}");
    }
    for illegal in ["a{", "a{,3}", "{", "a{3,2}", "a{x}"] {
        assert!(invalid(illegal), "{illegal}");
    }
}

#[test]
fn possessive_quantifiers_only_where_greedy_gives_the_same_result() {
    assert!(whole(r"\d++").is_match("123"));
    assert!(whole(r"\d++x|a*+").is_match("12x"));
    assert!(whole(r"[a-c]*+d").is_match("abcd"));
    assert!(whole(r"(?i)[a-c]*+d").is_match("abcD"));
    // `a*+a` never matches in Java, `a*a` would.
    assert!(unsupported("a*+a"));
    assert!(unsupported("(?i)a*+A"));
    assert!(unsupported("(a*+)b"));
    assert!(unsupported("(ab)*+"));
    assert!(unsupported("a*+b?"));
}

#[test]
fn flags_and_groups() {
    assert!(whole("(?<year>[0-9]{4})-x").is_match("2024-x"));
    assert!(whole("(?x) a b # comment . (\n c").is_match("abc"));
    assert!(whole("(?x) a [ b ] # comment").is_match("ab"));
    assert!(whole("(?x)a{2, 3}").is_match("aa"));
    assert!(!whole("(?x)[a b]").is_match(" "));
    assert!(whole(r"(?x)a\ b").is_match("a b"));
    assert!(found("(?m)^b$", "a\r\nb\r\nc"));
    assert!(!found("^b$", "a\nb\nc"));
    assert!(invalid("(?q)a"));
    assert!(invalid("(?<1a>x)"));
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
        r"\N{LATIN SMALL LETTER A}",
        r"\b{g}",
    ] {
        assert!(unsupported(java), "{java}");
        let message = translate(java).unwrap_err().to_string();
        assert!(message.contains("is not supported by l4rs"), "{message}");
    }
}

#[test]
fn invalid_patterns_are_refused() {
    for java in ["(a", "a)", "[a", "[]", "a\\", r"\p{", r"(?<n>a)(?<n>b)"] {
        assert!(refused(java), "{java}");
    }
}

#[test]
fn compile_errors_keep_only_the_complaint() {
    let error = compile(r"\p{IsNoSuchScript}").unwrap_err();
    let message = error.to_string();
    assert!(!message.contains('\n'), "{message}");
    assert!(matches!(error, JavaRegexError::Syntax { .. }));
}

/// Every entry point takes any text without panicking: random patterns built from the
/// pieces of Java's syntax (a fixed seed, so a failure repeats).
#[test]
fn arbitrary_patterns_never_panic() {
    const PIECES: &[&str] = &[
        "a", "b", "é", "K", "\u{212A}", "\\", "[", "]", "[^", "(", ")", "{", "}", "{2}", "{1,",
        "?", "*", "+", "|", "^", "$", ".", "-", "&&", "~", "#", " ", "\n", "\\Q", "\\E", "\\p{",
        "Lu", "IsLatin", "(?", "i", "u", "U", "x", "d", "m", "s", ":", "<", "=", "!", ">", "1",
        ",", "\\u", "D83D", "\\x{", "\\0", "\\c", "\\d", "\\w", "\\R", "\\Z", "\\b", "\\k<",
    ];
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
    let mut next = move |bound: usize| {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        (state % bound as u64) as usize
    };
    let inputs = ["", "a", "ab\n", "K\u{212A}é\r\n", "{2}(a)|b"];
    let mut compiled = 0;
    for _ in 0..2000 {
        let length = next(10);
        let pattern: String = (0..length).map(|_| PIECES[next(PIECES.len())]).collect();
        let _ = translate(&pattern);
        let _ = translate_whole(&pattern);
        if let Ok(regex) = compile(&pattern) {
            compiled += 1;
            for input in inputs {
                let _ = regex.is_match(input);
            }
        }
        let _ = compile_whole(&pattern);
        if let Ok(replacement) = Replacement::new(&pattern, "<$0${n}\\$>") {
            for input in inputs {
                let mut out = String::new();
                replacement.apply(input, &mut out);
            }
        }
    }
    // The generator must reach the translator's working paths, not only its errors.
    assert!(compiled > 200, "only {compiled} patterns compiled");
}

#[test]
fn many_end_anchored_alternatives_translate_in_linear_time() {
    // Each `$` used to scan the rest of the pattern for a `(`: 100 000 alternatives took
    // minutes. Now the whole translation is one pass.
    let alternatives = 100_000;
    let java = vec!["a$"; alternatives].join("|");
    let started = std::time::Instant::now();
    let translated = translate(&java).expect("translates");
    let elapsed = started.elapsed();
    assert!(
        elapsed < std::time::Duration::from_secs(5),
        "took {elapsed:?}"
    );
    // Every alternative still ends at the end of input, terminator kept out of the match.
    assert_eq!(translated.matches(END_OF_LINE_GROUP).count(), alternatives);
    // A group opening after the last `$` still keeps the anchors out, as before.
    let grouped = translate("a$|b$|(c)").expect("translates");
    assert!(!grouped.contains(END_OF_LINE_GROUP), "{grouped}");
    let ungrouped = translate("(a)$|b$").expect("translates");
    assert_eq!(
        ungrouped.matches(END_OF_LINE_GROUP).count(),
        2,
        "{ungrouped}"
    );
}
