//! What several structured layouts read the same way: the `<KeyValuePair>` fields they add to
//! every event, and which MDC keys they keep.

use std::sync::Arc;

use l4rs_core::{Interpolator, LogEvent};

/// One `<KeyValuePair>` of a layout.
pub(super) struct AdditionalField {
    pub key: String,
    value: String,
    /// The value still holds `${…}` after configuration-time substitution: resolved per event.
    needs_lookup: bool,
}

impl AdditionalField {
    /// The fields of a layout's `(key, value)` pairs, in document order.
    pub(super) fn all(pairs: &[(String, String)]) -> Vec<AdditionalField> {
        pairs
            .iter()
            .map(|(key, value)| AdditionalField {
                key: key.clone(),
                value: value.clone(),
                needs_lookup: value.contains("${"),
            })
            .collect()
    }

    /// Calls `write` with the field's value for `event`, resolved by `interpolator` when it
    /// holds a lookup (a resolved value is built per event; a plain one is borrowed).
    pub(super) fn with_value(
        &self,
        interpolator: Option<&Arc<dyn Interpolator>>,
        event: &LogEvent<'_>,
        write: impl FnOnce(&str),
    ) {
        match interpolator {
            Some(interpolator) if self.needs_lookup => {
                write(&interpolator.interpolate(&self.value, Some(event)));
            }
            _ => write(&self.value),
        }
    }
}

/// Which MDC keys a layout keeps (GELF's `threadContextIncludes`/`threadContextExcludes`,
/// RFC 5424's `mdcIncludes`/`mdcExcludes`).
pub(super) enum KeyFilter {
    All,
    Only(Vec<String>),
    Except(Vec<String>),
}

impl KeyFilter {
    /// True when the MDC entry `key` is kept.
    pub(super) fn keeps(&self, key: &str) -> bool {
        match self {
            KeyFilter::All => true,
            KeyFilter::Only(keys) => keys.iter().any(|k| k == key),
            KeyFilter::Except(keys) => !keys.iter().any(|k| k == key),
        }
    }
}
