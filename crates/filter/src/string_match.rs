//! `StringMatchFilter`: matches events whose message contains a text.

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, FilterResult, LogEvent};

/// log4j2's `StringMatchFilter`: matches when the formatted message contains `text`
/// (case-sensitive, anywhere in the message).
#[derive(Clone, Debug)]
pub struct StringMatchFilter {
    text: String,
    verdicts: FilterVerdicts,
}

impl StringMatchFilter {
    /// A filter looking for `text` with the given verdicts.
    pub fn new(text: impl Into<String>, verdicts: FilterVerdicts) -> StringMatchFilter {
        StringMatchFilter {
            text: text.into(),
            verdicts,
        }
    }
}

impl Filter for StringMatchFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        let found = crate::with_message_text(event, |message| message.contains(&self.text));
        crate::verdict(&self.verdicts, found)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;
    use l4rs_core::{Level, Message};

    #[test]
    fn matches_a_substring_case_sensitively() {
        for (on_match, on_mismatch) in VERDICT_PAIRS {
            let filter = StringMatchFilter::new("secret", verdicts(on_match, on_mismatch));
            assert_eq!(
                filter.filter(&event(Level::INFO, "the secret word")),
                on_match
            );
            assert_eq!(filter.filter(&event(Level::INFO, "secret")), on_match);
            assert_eq!(filter.filter(&event(Level::INFO, "SECRET")), on_mismatch);
            assert_eq!(filter.filter(&event(Level::INFO, "")), on_mismatch);
        }
    }

    #[test]
    fn formats_arguments_before_searching() {
        let filter =
            StringMatchFilter::new("id=42", verdicts(FilterResult::Accept, FilterResult::Deny));
        let id = 42;
        let check = |args| filter.filter(&LogEvent::new("t", Level::INFO, Message::Args(args)));
        assert_eq!(check(format_args!("user id={id}")), FilterResult::Accept);
    }
}
