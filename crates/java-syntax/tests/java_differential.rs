//! Differential test of the regex translation against `java.util.regex` itself.
//!
//! Every case is a Java pattern, an input and the way log4j2 applies the pattern: `find()`
//! (`%replace`, `<Replace>`: `replaceAll` searches) or `matches()` (`RegexFilter`,
//! `IfFileName regex`: the whole text). A small Java program, tests/java/RegexOracle.java, is
//! compiled into a temporary folder and answers every case; l4rs must give the same answer:
//! the same match or no match, or a refusal where Java throws `PatternSyntaxException`.
//! [`REPLACE_CASES`] run `Matcher.replaceAll` on both sides and compare the text.
//!
//! Where Java accepts a pattern the `regex` crate cannot evaluate with Java's meaning, l4rs
//! refuses it with [`JavaRegexError::Unsupported`]; those cases are listed, with the reason, in
//! [`JAVA_ONLY`], and nowhere else may l4rs refuse what Java accepts.
//!
//! Without a JDK the test is skipped with a notice, except under CI (`CI` set), where a
//! missing JDK fails it.

mod java_support;

use java_support::{hex, require_jdk, run_java, unhex};
use l4rs_java_syntax::regex::{compile, compile_whole, JavaRegexError, Replacement};

/// How log4j2 applies a pattern.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    /// `Matcher.find()`: anywhere in the text.
    Find,
    /// `Matcher.matches()`: the whole text.
    Whole,
}

use Mode::{Find, Whole};

/// (mode, Java pattern, input).
const CASES: &[(Mode, &str, &str)] = &[
    // Plain syntax both read alike.
    (Find, "abc", "xxabcxx"),
    (Whole, "abc", "xxabcxx"),
    (Whole, "a|ab", "ab"),
    (Whole, "(a|b)+c", "abbac"),
    (Find, "^abc", "abc"),
    (Find, "^abc", "xabc"),
    (Whole, r"order-\d+ .*", "order-17 shipped"),
    (Whole, r".*password.*", "line one\npassword on line two"),
    (
        Whole,
        r"app\.\d{4}-\d{2}-\d{2}\.log\.gz",
        "app.2024-01-31.log.gz",
    ),
    (Find, r"\.", "a.b"),
    // The dot and line terminators.
    (Whole, "a.c", "a\rc"),
    (Whole, "a.c", "a\u{85}c"),
    (Whole, "a.c", "a\u{2028}c"),
    (Whole, "a.c", "a\tc"),
    (Whole, "(?s)a.c", "a\nc"),
    (Whole, "(?d)a.c", "a\rc"),
    (Whole, "(?d)a.c", "a\nc"),
    (Whole, "(?s:a.)c.", "a\ncd"),
    // Flags.
    (Whole, "(?i)abc", "ABC"),
    (Whole, "(?i)é", "É"),
    (Whole, "(?iu)é", "É"),
    (Whole, "(?U)(?i)é", "É"),
    (Whole, "(?i)(?U)é", "É"),
    (Whole, "(?i)[é]", "É"),
    (Whole, "(?iu)[é]", "É"),
    (Whole, "(?i)[à-ê]", "É"),
    (Whole, "(?iu)[à-ê]", "É"),
    (Whole, "(?i)[a-z]+", "HeLLo"),
    (Whole, "(?i)[^a]", "A"),
    (Whole, "(?i)k", "\u{212A}"),
    (Whole, "(?iu)k", "\u{212A}"),
    (Whole, "(?iu)s", "\u{17F}"),
    (Whole, "(?iu)[a-z]", "\u{212A}"),
    (Whole, "(?iu)ß", "SS"),
    (Whole, "(?iu)ω", "Ω"),
    (Whole, r"(?i)\p{Lu}", "a"),
    (Whole, r"(?i)\p{Lu}", "é"),
    (Whole, r"(?i)\p{Ll}", "A"),
    (Whole, r"(?i)\p{Upper}", "a"),
    (Whole, r"(?i)\p{Upper}", "é"),
    (Whole, r"(?i)\p{Lower}", "A"),
    (Whole, r"(?i)\p{javaLowerCase}", "A"),
    (Whole, r"(?i)\p{IsUppercase}", "a"),
    (Whole, r"(?iu)\w", "\u{212A}"),
    (Whole, r"(?i)\P{Lu}", "a"),
    (Whole, "(?i:a)b", "AB"),
    (Whole, "(?i:a)b", "Ab"),
    (Whole, "(?i)a(?-i)b", "AB"),
    (Whole, "(?i)a(?-i:b)c", "AbC"),
    (Whole, "a(?i)b|c", "C"),
    (Find, "(?m)^b$", "a\nb\nc"),
    (Find, "^b$", "a\nb\nc"),
    (Find, "(?m)^b$", "a\r\nb\r\nc"),
    (Find, "(?m)^b$", "a\rb\rc"),
    (Whole, "(?x) a b # comment (", "ab"),
    (Whole, "(?x) a [ b ] c", "abc"),
    (Whole, "(?x)[a b]", " "),
    (Whole, r"(?x)a\ b", "a b"),
    (Whole, "(?x)a{2, 3}", "aa"),
    (Whole, "(?x)a #x\nb", "ab"),
    (Whole, "(?q)a", "a"),
    (Whole, "(?i", "a"),
    // Predefined classes: ASCII unless (?U).
    (Whole, r"\d+", "١٢"),
    (Whole, r"(?U)\d+", "١٢"),
    (Whole, r"\w+", "héllo"),
    (Whole, r"(?U)\w+", "héllo"),
    (Whole, r"\W", "é"),
    (Whole, r"\s", "\u{A0}"),
    (Whole, r"(?U)\s", "\u{A0}"),
    (Whole, r"\s", "\u{0B}"),
    (Whole, r"\h", "\u{A0}"),
    (Whole, r"\H", "a"),
    (Whole, r"\v", "\u{2028}"),
    (Whole, r"\V", "\n"),
    (Whole, r"a\Rb", "a\r\nb"),
    (Whole, r"a\Rb", "a\u{85}b"),
    (Whole, r"[\R]", "a"),
    (Whole, r"\p{Alpha}+", "abc"),
    (Whole, r"\p{Alpha}", "é"),
    (Whole, r"(?U)\p{Alpha}", "é"),
    (Whole, r"\p{Punct}+", "!?-~"),
    (Whole, r"\p{Graph}", " "),
    (Whole, r"\p{XDigit}+", "0aF"),
    (Whole, r"\p{Lu}", "É"),
    (Whole, r"\pL\p{IsL}\p{L}", "aéb"),
    (Whole, r"\p{IsLatin}", "é"),
    (Whole, r"\p{IsGreek}", "é"),
    (Whole, r"\p{sc=Greek}", "α"),
    (Whole, r"\p{gc=Nd}", "٣"),
    (Whole, r"\p{IsAlphabetic}", "é"),
    (Whole, r"\p{javaLowerCase}", "é"),
    (Whole, r"\p{javaWhitespace}", "\u{A0}"),
    (Whole, r"\p{javaWhitespace}", "\u{2003}"),
    (Whole, r"\p{Latin}", "a"),
    (Whole, r"\p{NoSuchThing}", "a"),
    (Whole, r"\p{IsNoSuchScript}", "a"),
    (Whole, r"\p{InGreek}", "α"),
    (Whole, r"\p{all}", "\u{10FFFF}"),
    (Whole, r"\p{L1}", "ÿ"),
    // Bracketed classes.
    (Whole, "[a-z&&[^e]]", "e"),
    (Whole, "[a-z&&[^e]]", "f"),
    (Whole, "[a-z&&[def]]", "d"),
    (Whole, "[a-d[m-p]]", "n"),
    (Whole, "[abc&&b]", "b"),
    (Whole, "[abc&&b]", "a"),
    (Whole, "[^a-c&&b]", "a"),
    (Whole, "[]a]", "]"),
    (Whole, "[^]a]", "b"),
    (Whole, "[+--]", ","),
    (Whole, "[a-]", "-"),
    (Whole, "[-a]", "-"),
    (Whole, "[~a]", "~"),
    (Whole, "[a&b]", "&"),
    (Whole, "[[:alpha:]]", ":"),
    (Whole, "[[:alpha:]]", "b"),
    (Whole, r"[a-\d]", "-"),
    (Whole, "[z-a]", "b"),
    (Whole, "[a", "a"),
    (Whole, "[]", "a"),
    (Whole, r"[\w-]+", "a-b_9"),
    (Whole, r"[\Q]-[\E]+", "]-["),
    (Whole, r"[\x41-\x43]+", "ABC"),
    (Whole, r"[\b]", "b"),
    // Quoting and escapes.
    (Whole, r"\Q(a.b)*\E+", "(a.b)***"),
    (Whole, r"\Q(a.b)*\E+", "(a.b)*(a.b)*"),
    (Whole, r"\Qno end", "no end"),
    (Whole, r"\{\}\<\>\#", "{}<>#"),
    (Whole, r"\e\cA\t", "\u{1B}\u{1}\t"),
    (Whole, r"\0101\011\0377", "A\t\u{FF}"),
    (Whole, r"\08", "8"),
    (Whole, r"\x41\x{1F600}", "A😀"),
    (Whole, r"\x{110000}", "a"),
    (Whole, r"\xG1", "a"),
    (Whole, r"\u0041", "A"),
    (Whole, r"\uD83D\uDE00", "😀"),
    (Whole, r"\u{41}", "A"),
    (Whole, r"\y", "y"),
    (Whole, r"a\", "a"),
    (Whole, r"\N{LATIN SMALL LETTER A}", "a"),
    (Whole, r"\X", "e\u{301}"),
    (Whole, r"\Ga", "a"),
    (Find, r"\bfoo\b", "a foo b"),
    (Find, r"\bfoo\b", "afoob"),
    (Find, r"\Bfoo", "afoo"),
    (Find, r"\Aab\z", "ab"),
    (Whole, r"a\Z", "a"),
    // Quantifiers.
    (Whole, "a{2}b{1,}c{1,2}d{0,1}", "aabbbcc"),
    (Whole, "a{2}", "aaa"),
    (Whole, "a*?b+?c??", "aabbc"),
    (Find, "a+?", "aaa"),
    (Whole, "x{2}{3}", "xxxxxx"),
    (Whole, "x*{2}", "xxx"),
    (Whole, "a**", "aa"),
    (Whole, "x+*", "x"),
    (Whole, "x*?+", "x"),
    (Whole, "*a", "a"),
    (Whole, "a|*b", "b"),
    (Whole, "(*a)", "a"),
    (Whole, "a{", "a{"),
    (Whole, "a{,3}", "a"),
    (Whole, "a{3,2}", "aa"),
    (Whole, "{", "{"),
    (Whole, "a{x}", "a{x}"),
    (Whole, r"\d++", "123"),
    (Whole, r"[a-c]*+d", "abcd"),
    (Whole, r"\d*+x|y", "12x"),
    (Whole, "a*+a", "aaa"),
    (Whole, "(a*+)b", "aab"),
    (Whole, "(ab)++", "abab"),
    // Groups.
    (Whole, "(?<year>[0-9]{4})-x", "2024-x"),
    (Whole, "(?<1a>x)", "x"),
    (Whole, "(?<n>a)(?<n>b)", "ab"),
    (Whole, "(?:ab)+", "abab"),
    (Whole, "(a", "a"),
    (Whole, "a)", "a)"),
    (Whole, "()", ""),
    (Whole, r"(a)\1", "aa"),
    (Whole, r"(?<n>a)\k<n>", "aa"),
    (Whole, "(?=a)a", "a"),
    (Whole, "(?!b)a", "a"),
    (Whole, "(?<=a)b", "ab"),
    (Whole, "(?<!a)b", "b"),
    (Whole, "(?>a)", "a"),
    (Whole, "(?<n", "a"),
    // More corners.
    (Whole, r"(?iu)[\w]", "\u{212A}"),
    (Whole, r"(?i)\Qab\E", "AB"),
    (Whole, r"(?i)\u00e9", "\u{C9}"),
    (Whole, r"(?iu)\u00e9", "\u{C9}"),
    (Whole, "a{2}+", "aa"),
    (Whole, "(?)a", "a"),
    (Whole, "(?-)a", "a"),
    (Whole, "(?i)*", "a"),
    (Find, "^*a", "a"),
    (Find, "a$+", "a"),
    (Whole, "[a-z&&]", "a"),
    (Whole, "[&&a]", "a"),
    (Whole, r"(?i)[^\p{Lu}]", "a"),
    (Whole, r"[\p{L}&&[^a-z]]", "b"),
    (Whole, r"[\p{L}&&[^a-z]]", "B"),
    (Whole, r"\p{IsWhite_Space}", " "),
    (Whole, r"\p{IsLu}", "A"),
    (Whole, r"\0", "0"),
    (Whole, r"\c", "c"),
    (Whole, "x{0}y", "y"),
    (Whole, "x{2,}", "xxxxx"),
    (Whole, "a{1000}", "a"),
    (Find, r"(?U)\bé\b", "a é b"),
    (Find, r"\bé", "aé"),
    (Whole, "[a-c[x-z]&&[^by]]+", "acxz"),
    (Whole, "(?i)[k-m]", "\u{212A}"),
    (Whole, r"(?i)\p{Alpha}", "A"),
    (Whole, r"\p{Cntrl}", "\u{7F}"),
    (Whole, r"\p{Print}", "\u{7F}"),
    (Whole, r"(?U)\p{Punct}", "\u{BF}"),
    (Whole, r"\p{javaMirrored}", "("),
    (Find, "a|", "b"),
    (Find, "|", ""),
    (Whole, r"\Q\E*", "a"),
    (Whole, "(?iu)[a-z]", "\u{17F}"),
    (Whole, r"(?iu)[\w.-]+", "Ab.-c"),
    (Whole, "(?iu)[^a-z]", "\u{212A}"),
    (Whole, "(?iu)[k]", "\u{212A}"),
    (Whole, "(?iu)[a-z&&[^k]]", "K"),
    (Whole, "(?iu)[à-ê]*+x", "ÀÉX"),
    (Whole, r"(?iu)k*+\u212a", "kk"),
    (
        Whole,
        r"\p{javaJavaIdentifierStart}\p{javaJavaIdentifierPart}*",
        "$a1",
    ),
    (Whole, r"\p{javaMirrored}", "a"),
    // Still more corners.
    (Whole, "(?x)[#]", "#"),
    (Whole, r"(?x)\Q a \E", " a "),
    (Whole, r"(?i)\x41", "a"),
    (Whole, r"(?i)[\x41-\x43]", "b"),
    (Whole, r"[\x{1F600}-\x{1F64F}]", "😀"),
    (Whole, ".", "😀"),
    (Whole, "(?d)(?s).", "\n"),
    (Whole, r"\p{IsHan}", "中"),
    (Whole, r"\p{IsLATIN}", "a"),
    (Whole, r"\p{isLatin}", "a"),
    (Whole, r"\p{lu}", "A"),
    (Whole, r"\p{IsEmoji}", "😀"),
    (Whole, r"\p{gc=L}", "a"),
    (Whole, r"(?U)\p{Alnum}", "٣"),
    (Whole, r"[^\P{L}]", "a"),
    (Whole, r"\07", "\u{7}"),
    (Whole, r"\0400", " 0"),
    (Whole, "a{2}?", "aa"),
    (Whole, "a{2,}+", "aaa"),
    (Whole, "(?:)", ""),
    (Whole, "a||b", ""),
    (Whole, r"[\s&&[^\n]]", "\n"),
    (Whole, r"\cz", ":"),
    (Whole, "(?u)é", "É"),
    (Whole, r"\Qa\E\Qb\E", "ab"),
    (Whole, "x{1}{", "x"),
    (Whole, "(?iu)ǅ", "ǆ"),
    (Whole, "(?iu)[ſ]", "S"),
    (Whole, "(?iu)ß", "ẞ"),
    (Whole, "(?iu)\u{130}", "i"),
    (Whole, "(?iu)i", "\u{130}"),
    (Whole, "(?iu)\u{3C3}", "\u{3C2}"),
    (Whole, "(?iu)[\u{3C3}]", "\u{3C2}"),
    (Whole, "(?i)[^\\W]", "A"),
    (Whole, r"(?i)\w", "\u{212A}"),
    (Find, r"\b", "é"),
    (Find, r"a\b", "aé"),
    (Whole, "[a-c-e]", "d"),
    (Whole, "[a-c-e]", "-"),
    (Whole, "[\\Q\\E]", "a"),
    (Whole, "a{1,2}{3}", "aaa"),
    (Whole, "(?i)(?-i)A", "a"),
    (Whole, "(?-u)(?iU)é", "É"),
    (Whole, "(?iu)[a-z]+", "\u{130}\u{131}"),
    (Whole, "(?iu)[\u{3C3}-\u{3C9}]", "\u{3A3}"),
    (Whole, "(?iu)\\Qİ\\E", "i"),
    (Whole, "(?iu)[^i]", "\u{131}"),
    (Whole, "(?iu)\u{1F80}", "\u{1F88}"),
    (Whole, "(?iu)\u{1F88}", "\u{1F80}"),
    (Whole, "(?iu)\u{1FB3}", "\u{1FBC}"),
    (Whole, "(?iu)aß", "aẞ"),
    (Whole, "(?iu)ßa", "ẞa"),
    (Whole, "(?iu)aß*", "aẞ"),
    (Whole, "(?iu)\\Qaß\\E", "aẞ"),
    (Whole, "(?iu)(ß)", "ẞ"),
    (Whole, "(?iu)ﬀ", "FF"),
    // Errors and near-errors.
    (Whole, "a{2", "a"),
    (Whole, "a{99999999999}", "a"),
    (Whole, r"[\p{L}-z]", "-"),
    (Whole, r"[a-\p{L}]", "b"),
    (Whole, r"[\d-z]", "-"),
    (Whole, "(?x)[a-#comment\n z]", "m"),
    (Whole, "(?x)[a -z]", "m"),
    (Whole, "(?x)[a - z]", " "),
    (Whole, "(?x)\\Q#\\E", "#"),
    (Whole, "(?x)a # c\n+", "aa"),
    (Whole, "a{2}{", "aa"),
    (Whole, "(?<a>x)(?<b>y)", "xy"),
    (Whole, "(?<ab_c>x)", "x"),
    (Whole, "[[a]&&[b]]", "a"),
    (Whole, "[^[a]]", "a"),
    (Whole, "[^[a]]", "b"),
    (Whole, "[a[^b]]", "c"),
    (Whole, r"\p{Lu}+?", "AB"),
    (Whole, r"\P{Lu}", "a"),
    (Whole, r"\pN", "5"),
    (Whole, r"\p", "p"),
    (Whole, r"\p{}", "a"),
    (Whole, r"[\Q\E]", "a"),
    (Whole, r"[\Qa-c\E]", "b"),
    (Whole, r"\c\\", "\u{1C}"),
    (Whole, "(?i)(?-i:A)", "a"),
    (Whole, "(?s-s:.)", "\n"),
    (Whole, ")", ")"),
    (Whole, "]", "]"),
    (Whole, "}", "}"),
    (Whole, "a{1,2}?+", "a"),
    // `$` and `\Z` also match before a final line terminator.
    (Find, "x$", "ax\n"),
    (Find, "x$", "ax\r\n"),
    (Find, "x$", "ax\n\n"),
    (Find, "x$", "ax\u{85}"),
    (Find, "(?d)x$", "ax\r"),
    (Find, "(?d)x$", "ax\n"),
    (Find, r"x\Z", "ax\u{2028}"),
    (Find, "x$|y$", "y\n"),
    (Whole, "x$", "x\n"),
    (Whole, "x$", "x"),
];

/// `replaceAll` cases: (Java pattern, replacement, input). Java's result must be l4rs's.
const REPLACE_CASES: &[(&str, &str, &str)] = &[
    (r"\.", "/", "org.apache.Foo"),
    (r"(\w+)@(\w+)", "$2 at $1", "bob@example x"),
    (r"(?<user>\w+)@", "${user}:", "bob@x"),
    (r"\d+", "#", "a1\u{663}2b"),
    ("(?i)hello", "x", "HeLLo héllo"),
    ("a*", "-", "baa"),
    ("x*", "-", "ab"),
    ("a|", "-", "ab"),
    ("", "-", "éb"),
    (r"\.$", "!", "end.\n"),
    (r"\.$", "!", "end.\r\n"),
    (r"\.$", "!", "end.\n\n"),
    ("$", "X", "ab\n"),
    ("a*$", "-", "baa\n"),
    (r"\s+$", "", "abc  \n"),
    ("x$|y$", "Z", "yx\n"),
    (r"(x)|(\d)$", "<$1$2>", "x1\n"),
    (r"x\Z", "y", "x\u{2028}"),
    (
        r"password=\S+",
        "password=***",
        "user=a password=hunter2 ok\n",
    ),
    (r"\n", "\\n", "a\nb"),
    ("x", "\\$", "x"),
    (r"[\r\n]+", " ", "a\r\nb\n"),
    ("(?m)^", "> ", "a\nb"),
    ("(?m)^", "> ", "a\nb\n"),
    ("(?m)^", "> ", "a\r\nb\r\n"),
    ("(?m)^\\s*", "> ", "a\n  b\n"),
    ("(?m)$", "<", "a\nb\n"),
    ("(?m)$", "<", "a\r\nb"),
    ("^a|$", "<", "x\n"),
    (r"\b", "|", "ab cd"),
];

/// The cases Java accepts and l4rs refuses, each with why the `regex` crate cannot give it
/// Java's meaning. Every entry must be a case above, accepted by Java and refused by l4rs.
const JAVA_ONLY: &[(&str, &str)] = &[
    (
        r"\p{InGreek}",
        "the regex crate has no Unicode block classes",
    ),
    (
        r"\N{LATIN SMALL LETTER A}",
        "no Unicode character name table",
    ),
    (r"\X", "no grapheme clusters"),
    (r"\Ga", "no \\G (end of the previous match)"),
    (
        "x{2}{3}",
        "Java accepts a quantifier on a counted one with a meaning of its own (it matches xx)",
    ),
    ("x*{2}", "the same for a counted quantifier after `*`"),
    (
        "a{1,2}{3}",
        "the same for a counted quantifier after a counted one",
    ),
    ("a*+a", "a possessive quantifier that must not give back"),
    ("(a*+)b", "a possessive quantifier inside a group"),
    ("(ab)++", "a possessive quantifier on a group"),
    (
        r"(?iu)k*+\u212a",
        "a possessive quantifier before a character it can match (KELVIN SIGN folds to k)",
    ),
    (r"(a)\1", "no backreferences"),
    (r"(?<n>a)\k<n>", "no backreferences"),
    ("(?=a)a", "no lookahead"),
    ("(?!b)a", "no lookahead"),
    ("(?<=a)b", "no lookbehind"),
    ("(?<!a)b", "no lookbehind"),
    ("(?>a)", "no atomic groups"),
];

/// What one side said about one case.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Answer {
    Match,
    NoMatch,
    /// Java threw `PatternSyntaxException`, or l4rs said the pattern is invalid.
    Invalid(String),
    /// l4rs refused valid Java it cannot evaluate.
    Unsupported(String),
}

fn l4rs(mode: Mode, regex: &str, input: &str) -> Answer {
    let compiled = match mode {
        Find => compile(regex),
        Whole => compile_whole(regex),
    };
    match compiled {
        Ok(compiled) if compiled.is_match(input) => Answer::Match,
        Ok(_) => Answer::NoMatch,
        Err(error @ JavaRegexError::Unsupported { .. }) => Answer::Unsupported(error.to_string()),
        Err(error) => Answer::Invalid(error.to_string()),
    }
}

fn java_replacements() -> Vec<String> {
    let input: String = REPLACE_CASES
        .iter()
        .map(|(regex, replacement, text)| {
            format!(
                "replace {} {} {}\n",
                hex(regex),
                hex(text),
                hex(replacement)
            )
        })
        .collect();
    let lines = run_java("RegexOracle", &input);
    assert_eq!(
        lines.len(),
        REPLACE_CASES.len(),
        "one answer per case: {lines:?}"
    );
    lines
        .iter()
        .map(|line| {
            let hex = line
                .strip_prefix("R ")
                .unwrap_or_else(|| panic!("java refused a replacement case: {line}"));
            unhex(hex)
        })
        .collect()
}

fn java_answers() -> Vec<Answer> {
    let input: String = CASES
        .iter()
        .map(|(mode, regex, text)| {
            let mode = if *mode == Find { "find" } else { "matches" };
            format!("{mode} {} {}\n", hex(regex), hex(text))
        })
        .collect();
    let lines = run_java("RegexOracle", &input);
    assert_eq!(lines.len(), CASES.len(), "one answer per case: {lines:?}");
    lines
        .iter()
        .map(|line| match line.as_str() {
            "1" => Answer::Match,
            "0" => Answer::NoMatch,
            other => Answer::Invalid(other.trim_start_matches("E ").to_string()),
        })
        .collect()
}

#[test]
fn replace_all_gives_what_java_gives() {
    if !require_jdk() {
        return;
    }
    let java = java_replacements();
    let mut disagreements = Vec::new();
    for ((regex, replacement, input), java) in REPLACE_CASES.iter().zip(&java) {
        let mut ours = String::new();
        match Replacement::new(regex, replacement) {
            Ok(compiled) => compiled.apply(input, &mut ours),
            Err(error) => ours = format!("refused: {error}"),
        }
        if &ours != java {
            disagreements.push(format!(
                "{regex:?} -> {replacement:?} on {input:?}: java {java:?}, l4rs {ours:?}"
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} replacements differ:\n{}",
        disagreements.len(),
        REPLACE_CASES.len(),
        disagreements.join("\n")
    );
}

#[test]
fn enough_cases_and_every_java_only_case_is_listed_once() {
    assert!(CASES.len() >= 100, "{} cases", CASES.len());
    for (regex, reason) in JAVA_ONLY {
        assert!(!reason.is_empty());
        assert!(
            CASES.iter().any(|(_, r, _)| r == regex),
            "{regex} is listed in JAVA_ONLY but is not a case"
        );
        assert_eq!(
            JAVA_ONLY.iter().filter(|(r, _)| r == regex).count(),
            1,
            "{regex} is listed twice"
        );
    }
}

#[test]
fn l4rs_agrees_with_java_util_regex() {
    if !require_jdk() {
        return;
    }
    let java = java_answers();
    let mut disagreements = Vec::new();
    for ((mode, regex, input), java) in CASES.iter().zip(&java) {
        let ours = l4rs(*mode, regex, input);
        let java_only = JAVA_ONLY.iter().any(|(r, _)| r == regex);
        let agreed = match (&ours, java) {
            (Answer::Invalid(_) | Answer::Unsupported(_), Answer::Invalid(_)) => !java_only,
            (Answer::Unsupported(_), Answer::Match | Answer::NoMatch) => java_only,
            (ours, java) => ours == java && !java_only,
        };
        if !agreed {
            let listed = if java_only {
                " (listed in JAVA_ONLY)"
            } else {
                ""
            };
            disagreements.push(format!(
                "{mode:?} {regex:?} on {input:?}: java {java:?}, l4rs {ours:?}{listed}"
            ));
        }
    }
    assert!(
        disagreements.is_empty(),
        "{} of {} cases disagree:\n{}",
        disagreements.len(),
        CASES.len(),
        disagreements.join("\n")
    );
}
