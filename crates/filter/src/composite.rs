//! `<Filters>`: several filters evaluated in order.

use std::fmt;
use std::sync::Arc;

use l4rs_core::{Filter, FilterResult, LogEvent};

/// log4j2's `CompositeFilter` (`<Filters>`): evaluates its children in order and answers the
/// first verdict that is not NEUTRAL, or NEUTRAL when every child is neutral (or there are none).
///
/// With the default verdicts (NEUTRAL/DENY) the children form an AND; with `onMatch="ACCEPT"`
/// and `onMismatch="NEUTRAL"` on each they form an OR.
#[derive(Clone, Default)]
pub struct CompositeFilter {
    filters: Vec<Arc<dyn Filter>>,
}

impl CompositeFilter {
    /// A composite of `filters`, evaluated in the given order.
    pub fn new(filters: Vec<Arc<dyn Filter>>) -> CompositeFilter {
        CompositeFilter { filters }
    }

    /// The children, in evaluation order.
    pub fn filters(&self) -> &[Arc<dyn Filter>] {
        &self.filters
    }

    /// True when there are no children (the filter then always answers NEUTRAL).
    pub fn is_empty(&self) -> bool {
        self.filters.is_empty()
    }
}

impl fmt::Debug for CompositeFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.filters.iter()).finish()
    }
}

impl Filter for CompositeFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        for filter in &self.filters {
            let result = filter.filter(event);
            if result != FilterResult::Neutral {
                return result;
            }
        }
        FilterResult::Neutral
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;
    use crate::{MarkerFilter, RegexFilter, ThresholdFilter};
    use l4rs_core::{Level, Marker};

    #[derive(Debug)]
    struct Fixed(FilterResult, std::sync::atomic::AtomicUsize);

    impl Filter for Fixed {
        fn filter(&self, _event: &LogEvent<'_>) -> FilterResult {
            self.1.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            self.0
        }
    }

    fn fixed(result: FilterResult) -> Arc<Fixed> {
        Arc::new(Fixed(result, Default::default()))
    }

    #[test]
    fn first_non_neutral_wins_and_later_children_are_not_asked() {
        let neutral = fixed(FilterResult::Neutral);
        let accept = fixed(FilterResult::Accept);
        let deny = fixed(FilterResult::Deny);
        let composite = CompositeFilter::new(vec![neutral.clone(), accept.clone(), deny.clone()]);
        assert_eq!(
            composite.filter(&event(Level::INFO, "m")),
            FilterResult::Accept
        );
        assert_eq!(neutral.1.load(std::sync::atomic::Ordering::Relaxed), 1);
        assert_eq!(deny.1.load(std::sync::atomic::Ordering::Relaxed), 0);
    }

    #[test]
    fn all_neutral_or_empty_is_neutral() {
        let composite = CompositeFilter::new(vec![
            fixed(FilterResult::Neutral),
            fixed(FilterResult::Neutral),
        ]);
        assert_eq!(
            composite.filter(&event(Level::INFO, "m")),
            FilterResult::Neutral
        );
        assert_eq!(
            CompositeFilter::new(Vec::new()).filter(&event(Level::INFO, "m")),
            FilterResult::Neutral
        );
    }

    /// Scenario 055's AND chain: a force-accept marker, a threshold, a regex deny.
    #[test]
    fn and_chain_like_scenario_055() {
        let force = Marker::get("COMPOSITE_FORCE");
        let and = CompositeFilter::new(vec![
            Arc::new(MarkerFilter::new(
                "COMPOSITE_FORCE",
                verdicts(FilterResult::Accept, FilterResult::Neutral),
            )),
            Arc::new(ThresholdFilter::new(
                Level::INFO,
                verdicts(FilterResult::Neutral, FilterResult::Deny),
            )),
            Arc::new(
                RegexFilter::new(
                    ".*skip.*",
                    false,
                    verdicts(FilterResult::Deny, FilterResult::Neutral),
                )
                .unwrap(),
            ),
        ]);
        assert_eq!(
            and.filter(&event(Level::INFO, "keep")),
            FilterResult::Neutral
        );
        assert_eq!(
            and.filter(&event(Level::INFO, "do skip")),
            FilterResult::Deny
        );
        assert_eq!(and.filter(&event(Level::DEBUG, "keep")), FilterResult::Deny);
        let mut forced = event(Level::TRACE, "skip me");
        forced.marker = Some(&force);
        assert_eq!(and.filter(&forced), FilterResult::Accept);
    }

    /// Scenario 055's OR chain: each child accepts on match, the last one decides the rest.
    #[test]
    fn or_chain_like_scenario_055() {
        let or = CompositeFilter::new(vec![
            Arc::new(MarkerFilter::new(
                "COMPOSITE_FORCE_OR",
                verdicts(FilterResult::Accept, FilterResult::Neutral),
            )),
            Arc::new(ThresholdFilter::new(
                Level::ERROR,
                verdicts(FilterResult::Accept, FilterResult::Neutral),
            )),
            Arc::new(
                RegexFilter::new(
                    "special.*",
                    false,
                    verdicts(FilterResult::Accept, FilterResult::Deny),
                )
                .unwrap(),
            ),
        ]);
        assert_eq!(or.filter(&event(Level::FATAL, "x")), FilterResult::Accept);
        assert_eq!(
            or.filter(&event(Level::DEBUG, "special one")),
            FilterResult::Accept
        );
        assert_eq!(or.filter(&event(Level::INFO, "plain")), FilterResult::Deny);
    }
}
