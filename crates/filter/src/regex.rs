//! `RegexFilter`: matches events whose whole message matches a Java regular expression.

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, FilterResult, LogEvent};

use l4rs_java_syntax::regex::{compile_whole, JavaRegexError};

/// log4j2's `RegexFilter`: matches when the regular expression matches the **whole** message,
/// as Java's `Matcher.matches()` does (`order` matches the message `order` but not
/// `the order`).
///
/// The expression is written in Java's syntax and translated once, at construction, into the
/// `regex` crate's by `l4rs-java-syntax` ([`compile_whole`]): `.` does not cross line
/// terminators, `\d`, `\w` and `\s` are ASCII-only, `(?i)` folds ASCII letters only unless
/// `(?u)`, `\Q…\E` quotes, and so on.
///
/// `useRawMsg` selects log4j2's unformatted message. An l4rs message has no separate format
/// string (`{}` in its text is printed as it is), so both settings test the same text.
#[derive(Clone, Debug)]
pub struct RegexFilter {
    java_regex: String,
    regex: ::regex::Regex,
    use_raw_msg: bool,
    verdicts: FilterVerdicts,
}

impl RegexFilter {
    /// Compiles `java_regex` into a filter with the given verdicts.
    pub fn new(
        java_regex: &str,
        use_raw_msg: bool,
        verdicts: FilterVerdicts,
    ) -> Result<RegexFilter, JavaRegexError> {
        let regex = compile_whole(java_regex)?;
        Ok(RegexFilter {
            java_regex: java_regex.to_string(),
            regex,
            use_raw_msg,
            verdicts,
        })
    }

    /// The expression as configured (Java syntax).
    pub fn java_regex(&self) -> &str {
        &self.java_regex
    }

    /// The `useRawMsg` setting.
    pub fn use_raw_msg(&self) -> bool {
        self.use_raw_msg
    }

    /// True when `text` matches as a whole.
    pub fn matches(&self, text: &str) -> bool {
        self.regex.is_match(text)
    }
}

impl Filter for RegexFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        let matched = crate::with_message_text(event, |message| self.regex.is_match(message));
        crate::verdict(&self.verdicts, matched)
    }
}

/// The status message for a `RegexFilter` that could not be built.
///
/// A syntax error is worded as log4j2's plugin builder reports the `PatternSyntaxException`;
/// a construct Java accepts but l4rs cannot evaluate gets its own message, since log4j2 would
/// have built that filter.
pub(crate) fn creation_failure_message(java_regex: &str, error: &JavaRegexError) -> String {
    match error {
        JavaRegexError::Unsupported { .. } => format!(
            "RegexFilter with regex \"{java_regex}\" cannot be created: {error}; the filter is ignored"
        ),
        _ => format!(
            "Could not create plugin of type class org.apache.logging.log4j.core.filter.RegexFilter \
             for element RegexFilter: java.util.regex.PatternSyntaxException: {error} in \"{java_regex}\""
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;
    use l4rs_core::{Level, Message};

    fn filter(regex: &str) -> RegexFilter {
        RegexFilter::new(
            regex,
            false,
            verdicts(FilterResult::Accept, FilterResult::Deny),
        )
        .unwrap()
    }

    /// The messages and expectations of scenario 052.
    #[test]
    fn like_scenario_052() {
        let messages = [
            "order-17 shipped",
            "order-17",
            "order",
            "the order",
            "my password is hunter2",
            "line one\npassword on line two",
            "Password capitalised",
            "template {} kept literally",
            "order-9 with {} braces",
            "order-x not a number",
            "ORDER-1 upper",
        ];
        let passing = |regex: &str| -> Vec<&str> {
            let f = filter(regex);
            messages
                .iter()
                .copied()
                .filter(|m| f.filter(&event(Level::INFO, m)) == FilterResult::Accept)
                .collect()
        };
        assert_eq!(
            passing(r".*password.*"),
            vec!["my password is hunter2"],
            "'.' must not cross the newline"
        );
        assert_eq!(
            passing(r"order-\d+ .*"),
            vec!["order-17 shipped", "order-9 with {} braces"]
        );
        assert_eq!(passing("order"), vec!["order"]);
        assert_eq!(
            passing(r".*\{\}.*"),
            vec!["template {} kept literally", "order-9 with {} braces"]
        );
    }

    #[test]
    fn every_verdict_pair() {
        for (on_match, on_mismatch) in VERDICT_PAIRS {
            let f = RegexFilter::new("a+b", false, verdicts(on_match, on_mismatch)).unwrap();
            assert_eq!(f.filter(&event(Level::INFO, "aab")), on_match);
            assert_eq!(f.filter(&event(Level::INFO, "aabc")), on_mismatch);
            assert_eq!(f.filter(&event(Level::INFO, "")), on_mismatch);
        }
    }

    #[test]
    fn formats_arguments_and_ignores_raw_flag() {
        let raw = RegexFilter::new(
            r"user \d+",
            true,
            verdicts(FilterResult::Accept, FilterResult::Deny),
        )
        .unwrap();
        let id = 7;
        let check = |args| {
            let e = LogEvent::new("t", Level::INFO, Message::Args(args));
            raw.filter(&e)
        };
        assert_eq!(check(format_args!("user {id}")), FilterResult::Accept);
        assert!(raw.use_raw_msg());
        assert_eq!(raw.java_regex(), r"user \d+");
    }

    #[test]
    fn alternation_is_anchored_as_a_whole() {
        let f = filter("a|b");
        assert!(f.matches("a"));
        assert!(f.matches("b"));
        assert!(!f.matches("ab"));
        assert!(!f.matches("xa"));
    }

    #[test]
    fn case_insensitivity_is_ascii_only_unless_unicode_case() {
        assert!(filter("(?i)error .*").matches("ERROR in é"));
        assert!(!filter("(?i)é").matches("É"));
        assert!(filter("(?iu)é").matches("É"));
    }

    #[test]
    fn errors_are_typed() {
        assert!(matches!(
            RegexFilter::new("(a", false, FilterVerdicts::default()),
            Err(JavaRegexError::Invalid { .. })
        ));
        assert!(matches!(
            RegexFilter::new(r"\p{IsNoSuchScript}", false, FilterVerdicts::default()),
            Err(JavaRegexError::Syntax { .. })
        ));
        assert!(matches!(
            RegexFilter::new(r"(a)\1", false, FilterVerdicts::default()),
            Err(JavaRegexError::Unsupported { .. })
        ));
    }
}
