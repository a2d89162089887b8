//! `NoMarkerFilter`: matches events without a marker.

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, FilterResult, LogEvent};

/// log4j2's `NoMarkerFilter`: matches when the event carries no marker.
#[derive(Clone, Debug)]
pub struct NoMarkerFilter {
    verdicts: FilterVerdicts,
}

impl NoMarkerFilter {
    /// A filter with the given verdicts.
    pub fn new(verdicts: FilterVerdicts) -> NoMarkerFilter {
        NoMarkerFilter { verdicts }
    }
}

impl Filter for NoMarkerFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        crate::verdict(&self.verdicts, event.marker.is_none())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;
    use l4rs_core::{Level, Marker};

    #[test]
    fn matches_only_events_without_a_marker() {
        let marker = Marker::get("NO_MARKER_TEST");
        for (on_match, on_mismatch) in VERDICT_PAIRS {
            let filter = NoMarkerFilter::new(verdicts(on_match, on_mismatch));
            let plain = event(Level::INFO, "m");
            assert_eq!(filter.filter(&plain), on_match);
            let mut marked = plain;
            marked.marker = Some(&marker);
            assert_eq!(filter.filter(&marked), on_mismatch);
        }
    }
}
