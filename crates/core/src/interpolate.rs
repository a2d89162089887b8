//! Variable substitution (`${prefix:key:-default}`) as a service for layouts.

use crate::LogEvent;

/// Resolves `${…}` variables in text, log4j2's `StrSubstitutor`. Layouts use it for the parts
/// of a pattern that must be resolved per event (`$${ctx:user}` in a configuration).
pub trait Interpolator: Send + Sync {
    /// Substitutes every variable in `text`, using `event` for event lookups (`ctx`, `event`,
    /// `marker`, `date`) when it is given. Unresolved variables stay as written.
    fn interpolate(&self, text: &str, event: Option<&LogEvent<'_>>) -> String;
}
