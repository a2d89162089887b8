//! log4j2's `log4j2.contextSelector` (`Log4jContextSelector`): the selector
//! `org.apache.logging.log4j.core.async.AsyncLoggerContextSelector` (or its `Basic…` sibling)
//! makes every logger asynchronous, log4j2's "all asynchronous loggers" mode.
//!
//! l4rs has one logger context, so the other selectors (`ClassLoaderContextSelector`,
//! `BasicContextSelector`, `JndiContextSelector`, `BundleContextSelector`) change nothing. In
//! the asynchronous mode every logger config behaves as an `<AsyncLogger>`: the call checks the
//! context-wide filter and the logger's level, copies the event into the queue and returns; the
//! queue's thread walks the loggers, filters and appenders. As in log4j2, `includeLocation`
//! then defaults to false for every logger. The property is read once, when the first
//! configuration is built, as log4j2 reads it when its context factory starts.

use std::sync::OnceLock;

use l4rs_core::status;

/// The property, as log4j2 2.10+ names it (also `LOG4J_CONTEXT_SELECTOR`).
const PROPERTY: &str = "log4j2.contextSelector";
/// Its pre-2.10 name.
const LEGACY_PROPERTY: &str = "Log4jContextSelector";

/// The selectors that make every logger asynchronous.
const ASYNCHRONOUS: &[&str] = &[
    "org.apache.logging.log4j.core.async.AsyncLoggerContextSelector",
    "org.apache.logging.log4j.core.async.BasicAsyncLoggerContextSelector",
];

/// log4j2's JNDI selector, which 2.19 builds only when [`JNDI_PROPERTY`] is `true`.
const JNDI_SELECTOR: &str = "org.apache.logging.log4j.core.selector.JndiContextSelector";
/// The switch of the JNDI selector.
const JNDI_PROPERTY: &str = "log4j2.enableJndiContextSelector";

/// The other selectors log4j2 ships, which select among logger contexts l4rs does not have.
const OTHERS: &[&str] = &[
    "org.apache.logging.log4j.core.selector.ClassLoaderContextSelector",
    "org.apache.logging.log4j.core.selector.BasicContextSelector",
    JNDI_SELECTOR,
    "org.apache.logging.log4j.core.osgi.BundleContextSelector",
];

/// Whether every logger is asynchronous: the property names an asynchronous selector.
pub(crate) fn all_loggers_asynchronous() -> bool {
    static ALL_ASYNCHRONOUS: OnceLock<bool> = OnceLock::new();
    *ALL_ASYNCHRONOUS.get_or_init(|| {
        let named = |name: &'static str, value: Option<String>| value.map(|value| (name, value));
        let selector = named(PROPERTY, l4rs_config::properties::property(PROPERTY)).or_else(|| {
            named(
                LEGACY_PROPERTY,
                l4rs_config::system_property(LEGACY_PROPERTY).filter(|value| !value.is_empty()),
            )
        });
        selector.is_some_and(|(name, selector)| {
            let jndi_enabled = l4rs_config::properties::property(JNDI_PROPERTY)
                .is_some_and(|value| value.eq_ignore_ascii_case("true"));
            is_asynchronous(name, &selector, jndi_enabled)
        })
    })
}

/// Whether `selector` (the value of the property `name`) makes every logger asynchronous; a
/// class log4j2 does not ship, or the JNDI selector without its switch, gets log4j2's error,
/// and the default (synchronous) selector.
fn is_asynchronous(name: &str, selector: &str, jndi_enabled: bool) -> bool {
    if ASYNCHRONOUS.contains(&selector) {
        return true;
    }
    let refused = if selector == JNDI_SELECTOR && !jndi_enabled {
        Some(format!(
            "java.lang.IllegalStateException: JNDI must be enabled by setting {JNDI_PROPERTY}=true"
        ))
    } else if !OTHERS.contains(&selector) {
        Some(format!("java.lang.ClassNotFoundException: {selector}"))
    } else {
        None
    };
    if let Some(exception) = refused {
        status::error(format_args!(
            "Unable to create custom ContextSelector. Falling back to default. {exception} (help: {name}={selector} names no selector l4rs can use; {} makes every logger asynchronous, and log4j2's other selectors change nothing in a Rust program)",
            ASYNCHRONOUS[0]
        ));
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_the_asynchronous_selectors_make_loggers_asynchronous() {
        assert!(is_asynchronous(PROPERTY, ASYNCHRONOUS[0], false));
        assert!(is_asynchronous(PROPERTY, ASYNCHRONOUS[1], false));
        assert!(!is_asynchronous(PROPERTY, OTHERS[0], false));
        let (asynchronous, reported) = status::capture(|| {
            is_asynchronous(LEGACY_PROPERTY, "com.example.CustomSelector", false)
        });
        assert!(!asynchronous);
        assert_eq!(reported.len(), 1, "{reported:?}");
        assert!(
            reported[0].message.starts_with(
                "Unable to create custom ContextSelector. Falling back to default. java.lang.ClassNotFoundException: com.example.CustomSelector (help: Log4jContextSelector=com.example.CustomSelector"
            ),
            "{}",
            reported[0].message
        );
        assert!(
            !is_asynchronous(PROPERTY, "AsyncLoggerContextSelector", false),
            "the class's full name only, as log4j2 compares it"
        );
    }

    #[test]
    fn the_jndi_selector_needs_its_switch() {
        let (_, refused) = status::capture(|| is_asynchronous(PROPERTY, JNDI_SELECTOR, false));
        assert_eq!(refused.len(), 1, "{refused:?}");
        assert!(refused[0].message.contains("JNDI must be enabled"));
        let (_, accepted) = status::capture(|| is_asynchronous(PROPERTY, JNDI_SELECTOR, true));
        assert!(accepted.is_empty(), "{accepted:?}");
    }
}
