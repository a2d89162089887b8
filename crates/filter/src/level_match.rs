//! `LevelMatchFilter`: matches events at exactly one level.

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, FilterResult, Level, LogEvent};

/// log4j2's `LevelMatchFilter`: matches when the event's level is exactly `level`.
///
/// log4j2 compares level objects by identity, and a custom level is a different object from a
/// standard level with the same integer; so both the integer and the name must agree here.
#[derive(Clone, Debug)]
pub struct LevelMatchFilter {
    level: Level,
    verdicts: FilterVerdicts,
}

impl LevelMatchFilter {
    /// A filter matching `level` with the given verdicts.
    pub fn new(level: Level, verdicts: FilterVerdicts) -> LevelMatchFilter {
        LevelMatchFilter { level, verdicts }
    }
}

impl Filter for LevelMatchFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        let same = event.level.int_level() == self.level.int_level()
            && event.level.name().eq_ignore_ascii_case(self.level.name());
        crate::verdict(&self.verdicts, same)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;

    #[test]
    fn matches_only_the_exact_level() {
        assert_level_verdicts(
            |verdicts| LevelMatchFilter::new(Level::WARN, verdicts),
            &[Level::WARN],
            &[Level::FATAL, Level::ERROR, Level::INFO, Level::TRACE],
        );
    }

    #[test]
    fn a_custom_level_sharing_an_integer_is_not_the_standard_level() {
        let twin = Level::register("WARN_TWIN_LEVEL_MATCH_TEST", 300);
        let v = verdicts(FilterResult::Accept, FilterResult::Deny);
        assert_eq!(
            LevelMatchFilter::new(Level::WARN, v).filter(&event(twin, "m")),
            FilterResult::Deny
        );
        assert_eq!(
            LevelMatchFilter::new(twin, v).filter(&event(twin, "m")),
            FilterResult::Accept
        );
    }
}
