//! `LevelRangeFilter`: matches events whose level lies within a range.

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, FilterResult, Level, LogEvent};

/// log4j2's `LevelRangeFilter`: matches when `minLevel.intLevel <= event.intLevel <=
/// maxLevel.intLevel`. "Min" is the *most severe* bound, so `minLevel="ERROR" maxLevel="INFO"`
/// covers ERROR, WARN and INFO. An inverted range (min less severe than max) matches nothing.
#[derive(Clone, Debug)]
pub struct LevelRangeFilter {
    min_level: Level,
    max_level: Level,
    verdicts: FilterVerdicts,
}

impl LevelRangeFilter {
    /// A filter over `[min_level, max_level]` with the given verdicts.
    pub fn new(min_level: Level, max_level: Level, verdicts: FilterVerdicts) -> LevelRangeFilter {
        LevelRangeFilter {
            min_level,
            max_level,
            verdicts,
        }
    }
}

impl Filter for LevelRangeFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        let level = event.level.int_level();
        crate::verdict(
            &self.verdicts,
            self.min_level.int_level() <= level && level <= self.max_level.int_level(),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;

    #[test]
    fn range_is_inclusive_with_min_the_most_severe() {
        assert_level_verdicts(
            |verdicts| LevelRangeFilter::new(Level::ERROR, Level::INFO, verdicts),
            &[Level::ERROR, Level::WARN, Level::INFO],
            &[Level::FATAL, Level::DEBUG, Level::TRACE],
        );
    }

    #[test]
    fn single_level_and_inverted_ranges() {
        let v = verdicts(FilterResult::Accept, FilterResult::Deny);
        let warn_only = LevelRangeFilter::new(Level::WARN, Level::WARN, v);
        assert_eq!(
            warn_only.filter(&event(Level::WARN, "m")),
            FilterResult::Accept
        );
        assert_eq!(
            warn_only.filter(&event(Level::ERROR, "m")),
            FilterResult::Deny
        );
        let inverted = LevelRangeFilter::new(Level::INFO, Level::ERROR, v);
        for level in Level::STANDARD {
            assert_eq!(inverted.filter(&event(level, "m")), FilterResult::Deny);
        }
    }

    #[test]
    fn the_2_19_default_min_level_leaves_fatal_out() {
        // The configuration fills a missing minLevel with ERROR, as 2.19 does (scenario 051).
        let filter = LevelRangeFilter::new(Level::ERROR, Level::DEBUG, FilterVerdicts::default());
        assert_eq!(filter.filter(&event(Level::FATAL, "m")), FilterResult::Deny);
        assert_eq!(
            filter.filter(&event(Level::DEBUG, "m")),
            FilterResult::Neutral
        );
        assert_eq!(filter.filter(&event(Level::TRACE, "m")), FilterResult::Deny);
    }
}
