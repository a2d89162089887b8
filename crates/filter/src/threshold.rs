//! `ThresholdFilter`: matches events at least as severe as a level.

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, FilterResult, Level, LogEvent};

/// log4j2's `ThresholdFilter`: matches when the event's level is at least as severe as `level`
/// (its `intLevel` is smaller or equal).
#[derive(Clone, Debug)]
pub struct ThresholdFilter {
    level: Level,
    verdicts: FilterVerdicts,
}

impl ThresholdFilter {
    /// A filter with the given threshold and verdicts.
    pub fn new(level: Level, verdicts: FilterVerdicts) -> ThresholdFilter {
        ThresholdFilter { level, verdicts }
    }

    /// The threshold.
    pub fn level(&self) -> Level {
        self.level
    }
}

impl Filter for ThresholdFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        crate::verdict(
            &self.verdicts,
            event.level.is_at_least_as_severe_as(self.level),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;

    #[test]
    fn matches_the_level_and_everything_more_severe() {
        assert_level_verdicts(
            |verdicts| ThresholdFilter::new(Level::WARN, verdicts),
            &[Level::FATAL, Level::ERROR, Level::WARN],
            &[Level::INFO, Level::DEBUG, Level::TRACE],
        );
    }

    #[test]
    fn custom_levels_compare_by_their_integer() {
        let notice = Level::register("NOTICE_THRESHOLD_TEST", 350);
        let filter = ThresholdFilter::new(
            Level::INFO,
            verdicts(FilterResult::Accept, FilterResult::Deny),
        );
        assert_eq!(filter.filter(&event(notice, "m")), FilterResult::Accept);
        let strict = ThresholdFilter::new(
            Level::WARN,
            verdicts(FilterResult::Accept, FilterResult::Deny),
        );
        assert_eq!(strict.filter(&event(notice, "m")), FilterResult::Deny);
    }

    #[test]
    fn off_and_all_thresholds() {
        let v = verdicts(FilterResult::Accept, FilterResult::Deny);
        // Nothing is as severe as OFF (intLevel 0) except OFF itself.
        let off = ThresholdFilter::new(Level::OFF, v);
        assert_eq!(off.filter(&event(Level::FATAL, "m")), FilterResult::Deny);
        let all = ThresholdFilter::new(Level::ALL, v);
        assert_eq!(all.filter(&event(Level::TRACE, "m")), FilterResult::Accept);
    }
}
