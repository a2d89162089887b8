//! Pattern selectors: `MarkerPatternSelector` and `LevelPatternSelector`.

use l4rs_config::model::{PatternSelectorKind, PatternSelectorSpec};
use l4rs_core::LogEvent;

use crate::pattern::{Pattern, PatternOptions};

/// Chooses the pattern for each event.
pub(crate) struct Selector {
    kind: PatternSelectorKind,
    matches: Vec<(Box<str>, Pattern)>,
    default: Pattern,
}

impl Selector {
    /// Compiles every pattern with the selector's own options.
    pub(crate) fn new(spec: &PatternSelectorSpec, base: &PatternOptions) -> Selector {
        let options = PatternOptions {
            always_write_exceptions: spec.always_write_exceptions,
            disable_ansi: spec.disable_ansi,
            no_console_no_ansi: spec.no_console_no_ansi,
            ..base.clone()
        };
        Selector {
            kind: spec.kind,
            matches: spec
                .matches
                .iter()
                .map(|(key, pattern)| {
                    (
                        key.as_str().into(),
                        crate::compile_or_default(pattern, &options),
                    )
                })
                .collect(),
            default: crate::compile_or_default(&spec.default_pattern, &options),
        }
    }

    /// The pattern for `event`: the first match whose key is the event's marker or one of
    /// its ancestors (marker selector), or equals the level name (level selector).
    pub(crate) fn select(&self, event: &LogEvent<'_>) -> &Pattern {
        let found = match self.kind {
            PatternSelectorKind::Marker => event.marker.and_then(|marker| {
                self.matches
                    .iter()
                    .find(|(key, _)| marker.is_instance_of(key))
            }),
            PatternSelectorKind::Level => self
                .matches
                .iter()
                .find(|(key, _)| key.eq_ignore_ascii_case(event.level.name())),
        };
        found.map_or(&self.default, |(_, pattern)| pattern)
    }

    /// Every pattern the selector may use.
    pub(crate) fn patterns(&self) -> impl Iterator<Item = &Pattern> {
        self.matches
            .iter()
            .map(|(_, p)| p)
            .chain(std::iter::once(&self.default))
    }
}
