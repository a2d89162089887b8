//! `DynamicThresholdFilter`: a threshold chosen per event by a context-map value.

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, FilterResult, Level, LogEvent};

/// log4j2's `DynamicThresholdFilter`: when the event's context map holds `key`, the event
/// matches if it is at least as severe as the level paired with that value (or the default
/// threshold when the value has no pair). Without the key the answer is NEUTRAL, whatever
/// `onMismatch` says: the filter has no opinion about events outside its context.
#[derive(Clone, Debug)]
pub struct DynamicThresholdFilter {
    key: String,
    levels: Vec<(String, Level)>,
    default_threshold: Level,
    verdicts: FilterVerdicts,
}

impl DynamicThresholdFilter {
    /// A filter on the context-map entry `key`, with `levels` mapping its values to thresholds.
    pub fn new(
        key: impl Into<String>,
        levels: Vec<(String, Level)>,
        default_threshold: Level,
        verdicts: FilterVerdicts,
    ) -> DynamicThresholdFilter {
        DynamicThresholdFilter {
            key: key.into(),
            levels,
            default_threshold,
            verdicts,
        }
    }

    /// The threshold for the context value `value`.
    fn threshold(&self, value: &str) -> Level {
        // A linear scan: configurations pair a handful of values, where comparing a few short
        // strings beats hashing one.
        self.levels
            .iter()
            .find(|(candidate, _)| candidate == value)
            .map_or(self.default_threshold, |(_, level)| *level)
    }
}

impl Filter for DynamicThresholdFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        match event.context_map.get(&self.key) {
            Some(value) => crate::verdict(
                &self.verdicts,
                event.level.is_at_least_as_severe_as(self.threshold(value)),
            ),
            None => FilterResult::Neutral,
        }
    }
}

#[cfg(test)]
mod tests {
    use l4rs_core::ContextMap;

    use super::*;
    use crate::test_support::*;

    fn filter() -> DynamicThresholdFilter {
        DynamicThresholdFilter::new(
            "user",
            vec![
                ("alice".to_string(), Level::TRACE),
                ("bob".to_string(), Level::WARN),
            ],
            Level::ERROR,
            verdicts(FilterResult::Accept, FilterResult::Deny),
        )
    }

    fn judge(filter: &DynamicThresholdFilter, user: Option<&str>, level: Level) -> FilterResult {
        let mut map = ContextMap::default();
        if let Some(user) = user {
            map.insert("user", user);
        }
        let mut event = event(level, "m");
        event.context_map = &map;
        filter.filter(&event)
    }

    #[test]
    fn the_context_value_picks_the_threshold() {
        let filter = filter();
        assert_eq!(
            judge(&filter, Some("alice"), Level::TRACE),
            FilterResult::Accept
        );
        assert_eq!(
            judge(&filter, Some("bob"), Level::WARN),
            FilterResult::Accept
        );
        assert_eq!(judge(&filter, Some("bob"), Level::INFO), FilterResult::Deny);
    }

    #[test]
    fn an_unpaired_value_uses_the_default_threshold() {
        let filter = filter();
        assert_eq!(
            judge(&filter, Some("carol"), Level::ERROR),
            FilterResult::Accept
        );
        assert_eq!(
            judge(&filter, Some("carol"), Level::WARN),
            FilterResult::Deny
        );
    }

    #[test]
    fn without_the_key_the_filter_is_neutral() {
        let filter = filter();
        for level in [Level::FATAL, Level::TRACE] {
            assert_eq!(judge(&filter, None, level), FilterResult::Neutral);
        }
    }
}
