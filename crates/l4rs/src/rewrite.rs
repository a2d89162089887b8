//! `<Rewrite>`: log4j2's RewriteAppender. Each event is changed by the rewrite policy, then
//! handed to the referenced appenders (each reference with its own level and filter).
//!
//! * `PropertiesRewritePolicy` sets context-map entries. A value that still holds `${` after
//!   configuration-time substitution (written `$${ctx:user}` in the file) is resolved for every
//!   event, with the event's own context map and time.
//! * `LoggerNameLevelRewritePolicy` maps the level of events whose logger name starts with the
//!   configured prefix.
//! * `MapRewritePolicy` rewrites only `MapMessage`s in log4j2; l4rs messages never are one, so
//!   it passes events unchanged, as log4j2 does for every other message.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::Arc;

use l4rs_config::model::{AppenderSpec, RewritePolicySpec, RewriteSpec};
use l4rs_core::{status, AppendError, Appender, ContextMap, Interpolator, Level, LogEvent};

use crate::appender_control::AppenderControl;
use crate::context::AppenderRef;

thread_local! {
    /// Context maps kept for rewritten events, so that a steady stream of events reuses their
    /// strings. A stack, since a rewritten event may reach another Rewrite appender.
    static SPARE_MAPS: RefCell<Vec<ContextMap>> = const { RefCell::new(Vec::new()) };
}

/// The names a Rewrite appender refers to.
pub(crate) fn referenced(spec: &RewriteSpec) -> impl Iterator<Item = &str> {
    spec.appender_refs
        .iter()
        .map(|reference| reference.appender.as_str())
}

/// One property of a `PropertiesRewritePolicy`.
pub(crate) enum PropertyValue {
    /// Set as it is.
    Fixed(String),
    /// Resolved for every event.
    Lookup(String),
}

/// What a Rewrite appender (or a Routing appender's rewrite policy) does to an event.
pub(crate) enum Policy {
    /// Passes it unchanged (no policy, or `MapRewritePolicy`).
    Unchanged,
    /// `PropertiesRewritePolicy`.
    Properties {
        entries: Vec<(String, PropertyValue)>,
        interpolator: Arc<dyn Interpolator>,
    },
    /// `LoggerNameLevelRewritePolicy`.
    LoggerNameLevel {
        prefix: String,
        levels: Vec<(Level, Level)>,
    },
}

/// The appender behind `<Rewrite>`.
pub(crate) struct RewriteAppender {
    name: String,
    refs: Vec<AppenderRef>,
    policy: Policy,
}

impl RewriteAppender {
    /// Hands `event` to every reference that accepts it; the first failure (of an appender
    /// with `ignoreExceptions="false"`) stops the delivery and is returned, as in log4j2.
    fn deliver(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        for reference in &self.refs {
            if reference.accepts(event) {
                reference.control.call(event)?;
            }
        }
        Ok(())
    }
}

impl Policy {
    /// The policy `spec` configures (none, or `MapRewritePolicy`: events pass unchanged).
    pub(crate) fn new(
        spec: Option<&RewritePolicySpec>,
        interpolator: &Arc<dyn Interpolator>,
    ) -> Policy {
        match spec {
            None | Some(RewritePolicySpec::Map { .. }) => Policy::Unchanged,
            Some(RewritePolicySpec::Properties(properties)) => Policy::Properties {
                entries: properties
                    .iter()
                    .map(|(name, value)| {
                        let value = if value.contains("${") {
                            PropertyValue::Lookup(value.clone())
                        } else {
                            PropertyValue::Fixed(value.clone())
                        };
                        (name.clone(), value)
                    })
                    .collect(),
                interpolator: Arc::clone(interpolator),
            },
            Some(RewritePolicySpec::LoggerNameLevel { logger, levels }) => {
                Policy::LoggerNameLevel {
                    prefix: logger.clone(),
                    levels: levels.clone(),
                }
            }
        }
    }

    /// Rewrites `event` and hands the result to `deliver`.
    pub(crate) fn apply(
        &self,
        event: &LogEvent<'_>,
        deliver: impl FnOnce(&LogEvent<'_>) -> Result<(), AppendError>,
    ) -> Result<(), AppendError> {
        match self {
            Policy::Unchanged => deliver(event),
            Policy::Properties {
                entries,
                interpolator,
            } => with_properties(event, entries, interpolator.as_ref(), deliver),
            Policy::LoggerNameLevel { prefix, levels } => {
                let mapped = event
                    .logger_name
                    .starts_with(prefix.as_str())
                    .then(|| levels.iter().find(|(from, _)| *from == event.level))
                    .flatten()
                    .map(|(_, to)| *to)
                    .filter(|to| *to != event.level);
                match mapped {
                    Some(level) => {
                        let mut rewritten = *event;
                        rewritten.level = level;
                        rewritten.rendered = None;
                        deliver(&rewritten)
                    }
                    None => deliver(event),
                }
            }
        }
    }
}

/// `event` with `entries` set in its context map, handed to `deliver`.
fn with_properties(
    event: &LogEvent<'_>,
    entries: &[(String, PropertyValue)],
    interpolator: &dyn Interpolator,
    deliver: impl FnOnce(&LogEvent<'_>) -> Result<(), AppendError>,
) -> Result<(), AppendError> {
    let mut map = SPARE_MAPS
        .try_with(|maps| maps.borrow_mut().pop())
        .ok()
        .flatten()
        .unwrap_or_default();
    // Refilled through `insert_with`, which reuses the strings `recycle` kept.
    map.recycle();
    for (key, value) in event.context_map.iter() {
        map.insert_with(key, |out| out.push_str(value));
    }
    for (key, value) in entries {
        match value {
            PropertyValue::Fixed(text) => map.insert_with(key, |out| out.push_str(text)),
            PropertyValue::Lookup(text) => {
                // The substitutor returns a new string: one allocation per lookup value.
                let resolved = interpolator.interpolate(text, Some(event));
                map.insert_with(key, |out| out.push_str(&resolved));
            }
        }
    }
    let mut rewritten = *event;
    // Text rendered ahead of a queue shows the event before the rewrite.
    rewritten.rendered = None;
    rewritten.context_map = &map;
    let result = deliver(&rewritten);
    let _ = SPARE_MAPS.try_with(|maps| maps.borrow_mut().push(map));
    result
}

impl Appender for RewriteAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        self.policy
            .apply(event, |rewritten| self.deliver(rewritten))
    }

    fn requires_location(&self) -> bool {
        self.refs
            .iter()
            .any(|reference| reference.control.requires_location())
    }
}

/// Builds a Rewrite appender from the appenders built so far (log4j2's `start`): a reference
/// to no appender is reported and ignored.
pub(crate) fn build_rewrite_appender(
    spec: &AppenderSpec,
    rewrite: &RewriteSpec,
    by_name: &HashMap<String, Arc<AppenderControl>>,
    interpolator: &Arc<dyn Interpolator>,
) -> AppenderControl {
    let refs = AppenderRef::resolve_all(&rewrite.appender_refs, by_name, |name| {
        status::error(format_args!(
            "Appender {name} cannot be located. Reference ignored"
        ))
    });
    let policy = Policy::new(rewrite.policy.as_ref(), interpolator);
    let appender = RewriteAppender {
        name: spec.name.clone(),
        refs,
        policy,
    };
    AppenderControl::new(
        Arc::new(appender),
        spec.filter.as_ref().map(l4rs_filter::build_filter),
        spec.ignore_exceptions,
    )
}
