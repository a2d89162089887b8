//! `DenyAllFilter`: drops everything.

use l4rs_core::{Filter, FilterResult, LogEvent};

/// log4j2's `DenyAllFilter`: answers DENY for every event. Like log4j2's, it accepts `onMatch`
/// and `onMismatch` in the configuration but ignores them.
#[derive(Clone, Debug, Default)]
pub struct DenyAllFilter;

impl DenyAllFilter {
    /// The filter.
    pub fn new() -> DenyAllFilter {
        DenyAllFilter
    }
}

impl Filter for DenyAllFilter {
    fn filter(&self, _event: &LogEvent<'_>) -> FilterResult {
        FilterResult::Deny
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;
    use l4rs_core::Level;

    #[test]
    fn denies_every_level() {
        for level in Level::STANDARD {
            assert_eq!(
                DenyAllFilter::new().filter(&event(level, "m")),
                FilterResult::Deny
            );
        }
    }
}
