//! `MarkerFilter`: matches events whose marker is, or descends from, a named marker.

use l4rs_config::model::FilterVerdicts;
use l4rs_core::{Filter, FilterResult, LogEvent};

/// log4j2's `MarkerFilter`: matches when the event has a marker that is the named marker or has
/// it among its ancestors ([`l4rs_core::Marker::is_instance_of`]). Names are case-sensitive; an
/// event without a marker does not match.
#[derive(Clone, Debug)]
pub struct MarkerFilter {
    name: String,
    verdicts: FilterVerdicts,
}

impl MarkerFilter {
    /// A filter for the marker called `name`, with the given verdicts.
    pub fn new(name: impl Into<String>, verdicts: FilterVerdicts) -> MarkerFilter {
        MarkerFilter {
            name: name.into(),
            verdicts,
        }
    }

    /// The marker name looked for.
    pub fn marker_name(&self) -> &str {
        &self.name
    }
}

impl Filter for MarkerFilter {
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult {
        let matched = event
            .marker
            .is_some_and(|marker| marker.is_instance_of(&self.name));
        crate::verdict(&self.verdicts, matched)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::*;
    use l4rs_core::{Level, Marker};

    #[test]
    fn matches_the_marker_and_its_descendants() {
        let parent = Marker::get("MARKER_FILTER_AUDIT");
        let child = Marker::get("MARKER_FILTER_AUDIT_LOGIN");
        child.add_parent(parent.clone());
        let other = Marker::get("MARKER_FILTER_OTHER");
        for (on_match, on_mismatch) in VERDICT_PAIRS {
            let filter = MarkerFilter::new("MARKER_FILTER_AUDIT", verdicts(on_match, on_mismatch));
            let mut e = event(Level::INFO, "m");
            assert_eq!(filter.filter(&e), on_mismatch, "no marker");
            e.marker = Some(&parent);
            assert_eq!(filter.filter(&e), on_match);
            e.marker = Some(&child);
            assert_eq!(filter.filter(&e), on_match);
            e.marker = Some(&other);
            assert_eq!(filter.filter(&e), on_mismatch);
        }
    }

    #[test]
    fn names_are_case_sensitive_and_ancestors_do_not_match_descendants() {
        let parent = Marker::get("MARKER_FILTER_CASE_PARENT");
        let child = Marker::get("MARKER_FILTER_CASE_CHILD");
        child.add_parent(parent.clone());
        let v = verdicts(FilterResult::Accept, FilterResult::Deny);
        let lower = MarkerFilter::new("marker_filter_case_parent", v);
        let mut e = event(Level::INFO, "m");
        e.marker = Some(&parent);
        assert_eq!(lower.filter(&e), FilterResult::Deny);
        let child_filter = MarkerFilter::new("MARKER_FILTER_CASE_CHILD", v);
        assert_eq!(child_filter.filter(&e), FilterResult::Deny);
    }
}
