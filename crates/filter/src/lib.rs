//! log4j2's filters for l4rs.
//!
//! A filter judges one event and answers ACCEPT, NEUTRAL or DENY ([`FilterResult`]). The same
//! filter types serve every stage of the pipeline (context-wide, logger, appender reference and
//! appender); what a verdict *means* is decided by the stage that asks, not here.
//!
//! [`build_filter`] turns a configured [`FilterSpec`] into a ready filter. Each filter also has
//! its own public type, in its own module, for code that builds filters by hand:
//!
//! | Type | Matches when |
//! |---|---|
//! | [`ThresholdFilter`] | the event is at least as severe as `level` |
//! | [`LevelRangeFilter`] | the event's level lies between `minLevel` (most severe) and `maxLevel` |
//! | [`LevelMatchFilter`] | the event's level is exactly `level` |
//! | [`RegexFilter`] | the Java regular expression matches the *whole* message |
//! | [`StringMatchFilter`] | the message contains the text |
//! | [`MarkerFilter`] | the event's marker is, or descends from, the named marker |
//! | [`NoMarkerFilter`] | the event has no marker |
//! | [`BurstFilter`] | the event is more severe than `level`, or a burst token is free |
//! | [`DenyAllFilter`] | never: it always answers DENY |
//! | [`DynamicThresholdFilter`] | the context map holds `key` and the event is at least as severe as the level paired with its value (NEUTRAL without the key) |
//! | [`ThreadContextMapFilter`] | the context map holds a listed value for every listed key (`operator="or"`: for one of them) |
//! | [`MutableThreadContextMapFilter`] | as ThreadContextMapFilter with `or`, its pairs read from a JSON file and again when it changes (NEUTRAL without pairs) |
//! | [`TimeFilter`] | the event's time of day lies in the daily window from `start` to `end` |
//! | [`CompositeFilter`] | (answers the first non-NEUTRAL verdict of its children) |
//!
//! `MapFilter` and `StructuredDataFilter` judge the fields of a `MapMessage` or a
//! `StructuredDataMessage`, and log4j2's answer NEUTRAL for any other message. l4rs messages are
//! text (a `tracing` event's fields go to the context map, where [`ThreadContextMapFilter`]
//! reads them), so [`build_filter`] makes them a filter with no opinion.
//!
//! Every filter except the composite answers `onMatch` when it matches and `onMismatch`
//! otherwise (log4j2's defaults: NEUTRAL and DENY). Filters do not allocate per event: the two
//! that read the message text use it in place when it is ready text, and otherwise format it into
//! the thread's reused buffer ([`l4rs_core::buffer`]).

use std::sync::Arc;

use l4rs_config::model::FilterSpec;
use l4rs_core::{Filter, FilterResult, LogEvent};

pub mod burst;
pub mod composite;
pub mod deny_all;
pub mod dynamic_threshold;
pub mod level_match;
pub mod level_range;
pub mod marker;
pub mod mutable_thread_context_map;
pub mod no_marker;
pub mod regex;
pub mod string_match;
pub mod thread_context_map;
pub mod threshold;
pub mod time;

pub use burst::BurstFilter;
pub use composite::CompositeFilter;
pub use deny_all::DenyAllFilter;
pub use dynamic_threshold::DynamicThresholdFilter;
pub use l4rs_config::model::FilterVerdicts;
/// Why a `RegexFilter`'s expression was refused (from `l4rs-java-syntax`, which translates it).
pub use l4rs_java_syntax::regex::JavaRegexError;
pub use level_match::LevelMatchFilter;
pub use level_range::LevelRangeFilter;
pub use marker::MarkerFilter;
pub use mutable_thread_context_map::MutableThreadContextMapFilter;
pub use no_marker::NoMarkerFilter;
pub use regex::RegexFilter;
pub use string_match::StringMatchFilter;
pub use thread_context_map::ThreadContextMapFilter;
pub use threshold::ThresholdFilter;
pub use time::TimeFilter;

/// Builds the filter a configuration describes.
///
/// This never fails. A filter that log4j2 would refuse to create (a `RegexFilter` whose
/// expression does not compile) is reported as an ERROR through [`l4rs_core::status`] and
/// replaced by a filter that always answers NEUTRAL: log4j2 leaves such an element out of the
/// configuration, and an absent filter has no opinion at any stage.
pub fn build_filter(spec: &FilterSpec) -> Arc<dyn Filter> {
    match spec {
        FilterSpec::Threshold { level, verdicts } => {
            Arc::new(ThresholdFilter::new(*level, *verdicts))
        }
        FilterSpec::LevelRange {
            min_level,
            max_level,
            verdicts,
        } => Arc::new(LevelRangeFilter::new(*min_level, *max_level, *verdicts)),
        FilterSpec::LevelMatch { level, verdicts } => {
            Arc::new(LevelMatchFilter::new(*level, *verdicts))
        }
        FilterSpec::Regex {
            regex,
            use_raw_msg,
            verdicts,
        } => match RegexFilter::new(regex, *use_raw_msg, *verdicts) {
            Ok(filter) => Arc::new(filter),
            Err(error) => {
                l4rs_core::status::error(regex::creation_failure_message(regex, &error));
                Arc::new(CompositeFilter::new(Vec::new()))
            }
        },
        FilterSpec::StringMatch { text, verdicts } => {
            Arc::new(StringMatchFilter::new(text.clone(), *verdicts))
        }
        FilterSpec::Marker { marker, verdicts } => {
            Arc::new(MarkerFilter::new(marker.clone(), *verdicts))
        }
        FilterSpec::NoMarker { verdicts } => Arc::new(NoMarkerFilter::new(*verdicts)),
        FilterSpec::Burst {
            level,
            rate,
            max_burst,
            verdicts,
        } => Arc::new(BurstFilter::new(*level, *rate, *max_burst, *verdicts)),
        FilterSpec::DenyAll { .. } => Arc::new(DenyAllFilter::new()),
        FilterSpec::DynamicThreshold {
            key,
            levels,
            default_threshold,
            verdicts,
        } => Arc::new(DynamicThresholdFilter::new(
            key.clone(),
            levels.clone(),
            *default_threshold,
            *verdicts,
        )),
        FilterSpec::ThreadContextMap {
            pairs,
            any,
            verdicts,
        } => Arc::new(ThreadContextMapFilter::new(pairs.clone(), *any, *verdicts)),
        FilterSpec::MutableThreadContextMap(spec) => Arc::new(MutableThreadContextMapFilter::new(
            spec.location.clone(),
            spec.poll_seconds,
            spec.initial.clone(),
            spec.read_at,
            spec.verdicts,
        )),
        FilterSpec::Time {
            start_second,
            end_second,
            zone,
            verdicts,
        } => Arc::new(TimeFilter::new(
            *start_second,
            *end_second,
            zone.clone().unwrap_or_else(jiff::tz::TimeZone::system),
            *verdicts,
        )),
        // No l4rs message is a MapMessage or StructuredDataMessage: log4j2's answer for the
        // others, NEUTRAL, is an empty composite's.
        FilterSpec::MessageMap { .. } => Arc::new(CompositeFilter::new(Vec::new())),
        FilterSpec::Composite(children) => Arc::new(CompositeFilter::new(
            children.iter().map(build_filter).collect(),
        )),
    }
}

/// The verdict for a match or a mismatch.
#[inline]
pub(crate) fn verdict(verdicts: &FilterVerdicts, matched: bool) -> FilterResult {
    if matched {
        verdicts.on_match
    } else {
        verdicts.on_mismatch
    }
}

/// Runs `f` on the event's message text: in place when the message is ready text, otherwise
/// formatted into this thread's reused buffer.
pub(crate) fn with_message_text<R>(event: &LogEvent<'_>, f: impl FnOnce(&str) -> R) -> R {
    match event.message.as_str() {
        Some(text) => f(text),
        None => l4rs_core::buffer::with_text_buffer(|buffer| {
            event.message.write_to(buffer);
            f(buffer)
        }),
    }
}

#[cfg(test)]
pub(crate) mod test_support {
    use l4rs_config::model::FilterVerdicts;
    use l4rs_core::{Filter, FilterResult, Level, LogEvent, Message};

    /// Every (onMatch, onMismatch) pair worth checking: the defaults, both inversions and the
    /// ACCEPT forms used in OR chains.
    pub(crate) const VERDICT_PAIRS: [(FilterResult, FilterResult); 5] = [
        (FilterResult::Neutral, FilterResult::Deny),
        (FilterResult::Accept, FilterResult::Deny),
        (FilterResult::Deny, FilterResult::Neutral),
        (FilterResult::Deny, FilterResult::Accept),
        (FilterResult::Accept, FilterResult::Neutral),
    ];

    pub(crate) fn verdicts(on_match: FilterResult, on_mismatch: FilterResult) -> FilterVerdicts {
        FilterVerdicts {
            on_match,
            on_mismatch,
        }
    }

    pub(crate) fn event(level: Level, text: &'static str) -> LogEvent<'static> {
        LogEvent::new("test", level, Message::Text(text))
    }

    /// Asserts, for every pair of [`VERDICT_PAIRS`], that the filter `build` makes with it gives
    /// onMatch to an event at each of the `matching` levels and onMismatch at each of `others`.
    #[track_caller]
    pub(crate) fn assert_level_verdicts<F: Filter>(
        build: impl Fn(FilterVerdicts) -> F,
        matching: &[Level],
        others: &[Level],
    ) {
        for (on_match, on_mismatch) in VERDICT_PAIRS {
            let filter = build(verdicts(on_match, on_mismatch));
            for &level in matching {
                assert_eq!(filter.filter(&event(level, "m")), on_match, "{level:?}");
            }
            for &level in others {
                assert_eq!(filter.filter(&event(level, "m")), on_mismatch, "{level:?}");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::test_support::*;
    use super::*;
    use l4rs_core::status::{self, StatusRecord};
    use l4rs_core::Level;

    /// Builds a RegexFilter of `regex` (ACCEPT on a match, DENY otherwise), which l4rs cannot
    /// use: asserts that building it wrote one status record and that the filter has no opinion
    /// on an event of `text`, and returns that record.
    #[track_caller]
    fn refused_regex_filter_record(regex: &str, text: &'static str) -> StatusRecord {
        let (filter, mut records) = status::capture(|| {
            build_filter(&FilterSpec::Regex {
                regex: regex.into(),
                use_raw_msg: false,
                verdicts: verdicts(FilterResult::Accept, FilterResult::Deny),
            })
        });
        assert_eq!(records.len(), 1);
        assert_eq!(
            filter.filter(&event(Level::INFO, text)),
            FilterResult::Neutral
        );
        records.remove(0)
    }

    #[test]
    fn builds_every_kind_from_its_spec() {
        let defaults = FilterVerdicts::default();
        let specs = vec![
            FilterSpec::Threshold {
                level: Level::WARN,
                verdicts: defaults,
            },
            FilterSpec::LevelRange {
                min_level: Level::ERROR,
                max_level: Level::INFO,
                verdicts: defaults,
            },
            FilterSpec::LevelMatch {
                level: Level::INFO,
                verdicts: defaults,
            },
            FilterSpec::Regex {
                regex: "ab.*".into(),
                use_raw_msg: false,
                verdicts: defaults,
            },
            FilterSpec::StringMatch {
                text: "b".into(),
                verdicts: defaults,
            },
            FilterSpec::Marker {
                marker: "FILTER_LIB_TEST".into(),
                verdicts: defaults,
            },
            FilterSpec::NoMarker { verdicts: defaults },
            FilterSpec::Burst {
                level: Level::WARN,
                rate: 10.0,
                max_burst: 100,
                verdicts: defaults,
            },
        ];
        let composite = build_filter(&FilterSpec::Composite(specs));
        // The first child, ThresholdFilter WARN, denies INFO and ends the evaluation.
        assert_eq!(
            composite.filter(&event(Level::INFO, "abc")),
            FilterResult::Deny
        );
        let threshold = build_filter(&FilterSpec::Threshold {
            level: Level::WARN,
            verdicts: verdicts(FilterResult::Accept, FilterResult::Neutral),
        });
        assert_eq!(
            threshold.filter(&event(Level::ERROR, "x")),
            FilterResult::Accept
        );
        let deny_all = build_filter(&FilterSpec::DenyAll {
            verdicts: verdicts(FilterResult::Accept, FilterResult::Accept),
        });
        assert_eq!(
            deny_all.filter(&event(Level::FATAL, "x")),
            FilterResult::Deny
        );
    }

    #[test]
    fn an_invalid_regex_is_reported_and_has_no_opinion() {
        let record = refused_regex_filter_record("(unclosed", "anything");
        assert_eq!(record.level, Level::ERROR);
        assert!(
            record
                .message
                .starts_with("Could not create plugin of type class org.apache.logging.log4j.core.filter.RegexFilter for element RegexFilter: java.util.regex.PatternSyntaxException"),
            "{}",
            record.message
        );
    }

    #[test]
    fn an_unsupported_java_construct_is_reported_differently() {
        let record = refused_regex_filter_record("(?=a)a", "a");
        assert!(record.message.contains("lookahead"), "{}", record.message);
    }
}
