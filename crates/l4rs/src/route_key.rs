//! The key a `<Routing>` appender computes for each event from its `<Routes pattern>`.
//!
//! log4j2 substitutes the pattern with the event (`StrSubstitutor.replace(event, pattern)`),
//! which builds a new string per event. The patterns real files use are context-map lookups
//! (`${ctx:user}`, `${ctx:user:-anonymous}`) and the event's level, logger, marker or thread
//! name (`${event:Level}`), between literal text; those are compiled here and written into a
//! reused buffer, without allocating. Anything else (`${date:…}`, `${event:Timestamp}`, nested
//! variables) is handed to the configuration's substitutor per event, which allocates.

use std::sync::Arc;

use l4rs_core::{Interpolator, Level, LogEvent, Message};

/// A compiled `<Routes pattern>`.
pub(crate) enum RouteKey {
    /// No pattern: every event takes the default route, under log4j2's `DEFAULT_KEY`.
    Default,
    /// Literal text and context-map lookups, evaluated without allocating.
    Parts(Vec<KeyPart>),
    /// Substituted per event by the configuration's substitutor.
    Substituted {
        pattern: String,
        interpolator: Arc<dyn Interpolator>,
    },
}

/// One piece of a compiled pattern.
pub(crate) enum KeyPart {
    /// Text copied as it is.
    Literal(String),
    /// `${ctx:name}`, `${event:Level}`… (with or without `:-default`): the event's value, or
    /// `missing` (the default, else what the substitutor makes of the variable without it).
    Lookup { field: Field, missing: String },
}

/// What a compiled lookup reads from the event.
pub(crate) enum Field {
    /// `ctx:name`: a context-map entry.
    Context(String),
    /// `event:Level`.
    Level,
    /// `event:Logger`.
    Logger,
    /// `event:Marker`: the marker's name, when the event has one.
    Marker,
    /// `event:ThreadName`.
    ThreadName,
}

impl Field {
    fn read<'e>(&'e self, event: &LogEvent<'e>) -> Option<&'e str> {
        match self {
            Field::Context(name) => event.context_map.get(name),
            Field::Level => Some(event.level.name()),
            Field::Logger => Some(event.logger_name),
            Field::Marker => event.marker.map(|marker| marker.name()),
            Field::ThreadName => Some(event.thread.name),
        }
    }
}

/// log4j2's `RoutingAppender.DEFAULT_KEY`.
pub(crate) const DEFAULT_KEY: &str = "ROUTING_APPENDER_DEFAULT";

impl RouteKey {
    /// Compiles `pattern` (already substituted at configuration time).
    pub(crate) fn new(pattern: Option<&str>, interpolator: &Arc<dyn Interpolator>) -> RouteKey {
        let Some(pattern) = pattern else {
            return RouteKey::Default;
        };
        match compile(pattern, interpolator.as_ref()) {
            Some(parts) => RouteKey::Parts(parts),
            None => RouteKey::Substituted {
                pattern: pattern.to_string(),
                interpolator: Arc::clone(interpolator),
            },
        }
    }

    /// True when evaluating the key allocates (see the module documentation).
    #[cfg(test)]
    pub(crate) fn allocates(&self) -> bool {
        matches!(self, RouteKey::Substituted { .. })
    }

    /// Writes the key of `event` into `out` (cleared first).
    pub(crate) fn evaluate(&self, event: &LogEvent<'_>, out: &mut String) {
        out.clear();
        match self {
            RouteKey::Default => out.push_str(DEFAULT_KEY),
            RouteKey::Parts(parts) => {
                for part in parts {
                    match part {
                        KeyPart::Literal(text) => out.push_str(text),
                        KeyPart::Lookup { field, missing } => {
                            out.push_str(field.read(event).unwrap_or(missing))
                        }
                    }
                }
            }
            RouteKey::Substituted {
                pattern,
                interpolator,
            } => out.push_str(&interpolator.interpolate(pattern, Some(event))),
        }
    }
}

/// Splits `pattern` into literal text and plain context-map lookups; `None` when it holds
/// anything else the substitutor would have to interpret.
fn compile(pattern: &str, interpolator: &dyn Interpolator) -> Option<Vec<KeyPart>> {
    let mut parts = Vec::new();
    let mut rest = pattern;
    while let Some(start) = rest.find('$') {
        let (literal, tail) = rest.split_at(start);
        if !literal.is_empty() {
            parts.push(KeyPart::Literal(literal.to_string()));
        }
        // Only plain lookups: `$$` escapes and anything nested go to the substitutor.
        let body = tail.strip_prefix("${")?;
        let end = body.find('}')?;
        let variable = &body[..end];
        let (prefix, lookup) = variable.split_once(':')?;
        let (name, default) = match lookup.split_once(":-") {
            Some((name, default)) => (name, Some(default)),
            None => (lookup, None),
        };
        let plain = |text: &str| !text.contains(['$', '{', '}', ':', '\\']);
        if name.is_empty() || !plain(name) || !default.is_none_or(plain) {
            return None;
        }
        // Prefixes are case-insensitive, as in the substitutor; names are not.
        let field = match (prefix.to_ascii_lowercase().as_str(), name) {
            ("ctx", name) => Field::Context(name.to_string()),
            ("event", "Level") => Field::Level,
            ("event", "Logger") => Field::Logger,
            ("event", "Marker") => Field::Marker,
            ("event", "ThreadName") => Field::ThreadName,
            _ => return None,
        };
        // What the substitutor makes of the variable when the entry is absent: the default,
        // a property of that name, or the variable as written.
        let probe = LogEvent::new("", Level::INFO, Message::Text(""));
        let missing = interpolator.interpolate(&tail[..end + 3], Some(&probe));
        parts.push(KeyPart::Lookup { field, missing });
        rest = &body[end + 1..];
    }
    if !rest.is_empty() {
        parts.push(KeyPart::Literal(rest.to_string()));
    }
    Some(parts)
}

#[cfg(test)]
mod tests {
    use l4rs_config::Substitutor;
    use l4rs_core::ContextMap;

    use super::*;

    /// Every compiled pattern must give what the substitutor gives, entry present or not.
    #[test]
    fn compiled_keys_are_what_the_substitutor_makes() {
        let substitutor: Arc<dyn Interpolator> = Arc::new(Substitutor::with_properties(
            None,
            [("region".to_string(), "eu".to_string())],
        ));
        let patterns = [
            "${ctx:user}",
            "user-${ctx:user}.log",
            "${ctx:user:-anonymous}",
            "${ctx:region}",
            "${ctx:user}/${ctx:tenant:-none}",
            "${ctx:user:-}",
            "plain",
            "${event:Level}",
            "${EVENT:Logger}-${event:Marker}",
            "${event:Marker:-none}/${event:ThreadName}",
            "${event:Timestamp}",
            "${event:level}",
            "$${ctx:user}",
            "${ctx:${ctx:which}}",
            "${sd:type}",
        ];
        let mut with_user = ContextMap::default();
        with_user.insert("user", "alice");
        with_user.insert("tenant", "gold");
        with_user.insert("which", "user");
        let empty = ContextMap::default();
        let mut blank = ContextMap::default();
        blank.insert("user", "");
        let marker = l4rs_core::Marker::get("AUDIT");
        for pattern in patterns {
            let key = RouteKey::new(Some(pattern), &substitutor);
            for (index, map) in [&with_user, &empty, &blank].into_iter().enumerate() {
                let mut event = LogEvent::new("a.b", Level::WARN, Message::Text("m"));
                event.context_map = map;
                event.marker = (index == 0).then_some(&*marker);
                let mut out = String::new();
                key.evaluate(&event, &mut out);
                assert_eq!(
                    out,
                    substitutor.interpolate(pattern, Some(&event)),
                    "{pattern} with {map:?}"
                );
            }
        }
        assert!(!RouteKey::new(Some("${ctx:user}"), &substitutor).allocates());
        assert!(!RouteKey::new(Some("${event:Level}"), &substitutor).allocates());
        assert!(RouteKey::new(Some("${event:Timestamp}"), &substitutor).allocates());
        let mut out = String::new();
        let event = LogEvent::new("a", Level::WARN, Message::Text("m"));
        RouteKey::new(None, &substitutor).evaluate(&event, &mut out);
        assert_eq!(out, DEFAULT_KEY);
    }
}
