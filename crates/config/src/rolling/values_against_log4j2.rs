//! [`parse_size`], [`parse_age`] and [`glob_to_regex`] against log4j2 2.19's own readers
//! (`crates/conformance/java/Log4j2Answers.java`): `FileSize.parse`, log4j2's `Duration.parse`
//! and the JDK's glob `PathMatcher` that `IfFileName` uses, on well-formed values and on the
//! slips people make.

use super::*;

use l4rs_test_support::log4j2;

/// Asks log4j2 about each of `values` and lists where `ours` answers otherwise. l4rs allows
/// spaces around a value, which log4j2 refuses: for such a value log4j2 must refuse it, and
/// l4rs must answer as log4j2 does without the spaces.
fn value_differences(mode: &str, values: &[&str], ours: impl Fn(&str) -> String) -> Vec<String> {
    let questions: Vec<String> = values
        .iter()
        .flat_map(|value| [value.to_string(), value.trim().to_string()])
        .collect();
    let answers = log4j2::answers(mode, &questions);
    answers
        .chunks(2)
        .zip(values)
        .filter_map(|(answer, value)| {
            let (theirs, trimmed) = (&answer[0], &answer[1]);
            let ours = ours(value);
            let agrees = if *value == value.trim() {
                ours == *theirs
            } else {
                theirs == "invalid" && ours == *trimmed
            };
            (!agrees)
                .then(|| format!("{value:?}: log4j2 {theirs} ({trimmed} trimmed), l4rs {ours}"))
        })
        .collect()
}

const SIZES: &[&str] = &[
    "10 MB",
    "10MB",
    "10mb",
    "10 mB",
    "1.5 GB",
    "1,5 KB",
    "1,000 KB",
    "1,234,567",
    "100",
    "100B",
    "100 b",
    "0",
    " 10MB",
    "10MB ",
    "10 M",
    "10 K",
    "2 T",
    "10 KB B",
    "1.5.3 KB",
    ".5 KB",
    "5. KB",
    "1e3",
    "-1 KB",
    "10 PB",
    "",
    "  ",
    "10\u{b}MB",
    "10  MB",
    "10 MBB",
    "9999999999 TB",
    "1.23456789 KB",
    "١٠ MB",
];

#[test]
fn sizes_are_log4j2s() {
    if !log4j2::require("sizes against log4j2") {
        return;
    }
    let found = value_differences("size", SIZES, |size| match parse_size(size) {
        Ok(bytes) => bytes.to_string(),
        Err(_) => "invalid".to_string(),
    });
    assert!(
        found.is_empty(),
        "sizes log4j2 reads otherwise:\n{}",
        found.join("\n")
    );
}

const AGES: &[&str] = &[
    "30d",
    "30D",
    "P30D",
    "p30d",
    "PT12H",
    "1d12h",
    "12h",
    "PT1H30M",
    "1H30M",
    "30m",
    "45s",
    "P1DT2H3M4S",
    "T1H",
    "P",
    "PT",
    "",
    "d",
    "1x",
    "1d1d",
    "1h1d",
    "30 d",
    " 30d",
    "30d ",
    "1M",
    "+1d",
    "-1d",
    "99999999999999999999d",
    "106751991167d",
    "0d",
    "PT0S",
    "P0D",
];

#[test]
fn ages_are_log4j2s() {
    if !log4j2::require("ages against log4j2") {
        return;
    }
    let found = value_differences("age", AGES, |age| match parse_age(age) {
        Ok(millis) => millis.to_string(),
        Err(_) => "invalid".to_string(),
    });
    assert!(
        found.is_empty(),
        "ages log4j2 reads otherwise:\n{}",
        found.join("\n")
    );
}

const GLOBS: &[&str] = &[
    "*.log",
    "*.log.gz",
    "app-*.log.gz",
    "**/*.gz",
    "**.gz",
    "*/*.gz",
    "app-?.log",
    "app-[0-9].log",
    "app-[!0-9].log",
    "app-[^0-9].log",
    "{app,web}-*.log",
    "app-{1,2}.log",
    "\\*.log",
    "[a-c]*",
    "*.{log,gz}",
    "x/*.log",
    "[]a].log",
    "[a-]",
    "{a,{b,c}}",
    "[",
    "{",
    "\\",
    "*[",
    "a\\",
    ".*",
    "a.b",
    "[!]",
    "{}",
    "{,a}",
    "[a-c-e]",
    "[*]",
    "[?]",
    "[/]",
    "a/**",
    "**",
    "?",
    "[[]",
    "[\\]]",
    "$x",
    "^a",
    "(a|b)",
    "a+",
    "[!a]",
    "[-a]",
    "[!-a]",
    "[a-]",
    "[c-a]",
    "[&&a]",
    "[a&&b]",
    "[a--]",
    "[~~a]",
    "{[a],b}",
    "[{]",
    "*/[!x]*",
];

const PATHS: &[&str] = &[
    "app-1.log",
    "app-x.log",
    "web-2.log",
    "x/app-1.log",
    "x/y/app.log.gz",
    "app.log.gz",
    "*.log",
    "^.log",
    "a",
    "b",
    "c",
    "b.log",
    "]",
    "].log",
    ".log",
    "a.b",
    "axb",
    "-",
    "d",
    "x/a.log",
    "[",
    "\\",
    "?",
    "/",
    "$x",
    "(a|b)",
    "a+",
    "aa",
    "*",
];

#[test]
fn globs_match_what_log4j2s_match() {
    if !log4j2::require("globs against log4j2") {
        return;
    }
    let questions: Vec<String> = GLOBS
        .iter()
        .flat_map(|glob| PATHS.iter().map(move |path| format!("{glob}\t{path}")))
        .collect();
    let answers = log4j2::answers("glob", &questions);
    let found: Vec<String> = questions
        .iter()
        .zip(&answers)
        .filter_map(|(question, theirs)| {
            let (glob, path) = question.split_once('\t').unwrap();
            let ours = match glob_to_regex(glob).map(|regex| regex::Regex::new(&regex)) {
                Ok(Ok(regex)) if regex.is_match(path) => "match".to_string(),
                Ok(Ok(_)) => "no".to_string(),
                Ok(Err(error)) => format!("an invalid regex ({error})"),
                Err(_) => "invalid".to_string(),
            };
            (ours != *theirs).then(|| format!("{question:?}: log4j2 {theirs}, l4rs {ours}"))
        })
        .collect();
    assert!(
        found.is_empty(),
        "globs log4j2 matches otherwise:\n{}",
        found.join("\n")
    );
}
