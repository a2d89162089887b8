//! `ThreadContextMapFilter` (alias `ContextMapFilter`): the event's context map against listed
//! values.

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{ContextMap, Filter, FilterResult, LogEvent};

/// log4j2's `ThreadContextMapFilter`: each listed key names a context-map entry and the values
/// that match it. With `any` (`operator="or"`) the event matches when one key holds a listed
/// value, otherwise (`and`) when every key does. A key the context map lacks holds no value.
#[derive(Clone, Debug)]
pub struct ThreadContextMapFilter {
    pairs: Vec<(String, Vec<String>)>,
    any: bool,
    verdicts: FilterVerdicts,
}

impl ThreadContextMapFilter {
    /// A filter matching `pairs` (key → the values that match it), one key enough with `any`.
    pub fn new(
        pairs: Vec<(String, Vec<String>)>,
        any: bool,
        verdicts: FilterVerdicts,
    ) -> ThreadContextMapFilter {
        ThreadContextMapFilter {
            pairs,
            any,
            verdicts,
        }
    }

    /// The keys and the values that match each.
    pub fn pairs(&self) -> &[(String, Vec<String>)] {
        &self.pairs
    }

    fn matches(&self, context: &ContextMap) -> bool {
        // Linear scans: configurations list a handful of short values.
        let holds_a_listed_value = |(key, values): &(String, Vec<String>)| {
            context
                .get(key)
                .is_some_and(|value| values.iter().any(|listed| listed == value))
        };
        if self.any {
            self.pairs.iter().any(holds_a_listed_value)
        } else {
            self.pairs.iter().all(holds_a_listed_value)
        }
    }
}

impl Filter for ThreadContextMapFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        crate::verdict(&self.verdicts, self.matches(event.context_map))
    }
}

#[cfg(test)]
mod tests {
    use l4rs_core::Level;

    use super::*;
    use crate::test_support::*;

    fn pairs() -> Vec<(String, Vec<String>)> {
        vec![
            (
                "tenant".to_string(),
                vec!["gold".to_string(), "silver".to_string()],
            ),
            ("region".to_string(), vec!["eu".to_string()]),
        ]
    }

    fn judge(filter: &ThreadContextMapFilter, entries: &[(&str, &str)]) -> FilterResult {
        let mut map = ContextMap::default();
        for (key, value) in entries {
            map.insert(*key, *value);
        }
        let mut event = event(Level::INFO, "m");
        event.context_map = &map;
        filter.filter(&event)
    }

    #[test]
    fn and_needs_every_key_with_a_listed_value() {
        for (on_match, on_mismatch) in VERDICT_PAIRS {
            let filter =
                ThreadContextMapFilter::new(pairs(), false, verdicts(on_match, on_mismatch));
            assert_eq!(
                judge(&filter, &[("tenant", "gold"), ("region", "eu")]),
                on_match
            );
            assert_eq!(
                judge(&filter, &[("tenant", "silver"), ("region", "eu")]),
                on_match
            );
            assert_eq!(
                judge(&filter, &[("tenant", "gold"), ("region", "us")]),
                on_mismatch
            );
            assert_eq!(judge(&filter, &[("tenant", "gold")]), on_mismatch);
            assert_eq!(judge(&filter, &[]), on_mismatch);
        }
    }

    #[test]
    fn or_needs_one_key_with_a_listed_value() {
        for (on_match, on_mismatch) in VERDICT_PAIRS {
            let filter =
                ThreadContextMapFilter::new(pairs(), true, verdicts(on_match, on_mismatch));
            assert_eq!(judge(&filter, &[("region", "eu")]), on_match);
            assert_eq!(
                judge(&filter, &[("tenant", "silver"), ("region", "us")]),
                on_match
            );
            assert_eq!(
                judge(&filter, &[("tenant", "bronze"), ("region", "us")]),
                on_mismatch
            );
            assert_eq!(judge(&filter, &[("user", "gold")]), on_mismatch);
        }
    }

    #[test]
    fn values_match_exactly() {
        let filter = ThreadContextMapFilter::new(
            vec![("user".to_string(), vec![String::new()])],
            false,
            verdicts(FilterResult::Accept, FilterResult::Deny),
        );
        assert_eq!(judge(&filter, &[("user", "")]), FilterResult::Accept);
        assert_eq!(judge(&filter, &[("user", " ")]), FilterResult::Deny);
        assert_eq!(judge(&filter, &[]), FilterResult::Deny);
    }
}
