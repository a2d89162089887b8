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

/// The other selectors log4j2 ships, which select among logger contexts l4rs does not have.
const OTHERS: &[&str] = &[
    "org.apache.logging.log4j.core.selector.ClassLoaderContextSelector",
    "org.apache.logging.log4j.core.selector.BasicContextSelector",
    "org.apache.logging.log4j.core.selector.JndiContextSelector",
    "org.apache.logging.log4j.core.osgi.BundleContextSelector",
];

/// Whether every logger is asynchronous: the property names an asynchronous selector.
pub(crate) fn all_loggers_asynchronous() -> bool {
    static ALL_ASYNCHRONOUS: OnceLock<bool> = OnceLock::new();
    *ALL_ASYNCHRONOUS.get_or_init(|| {
        let selector = l4rs_config::properties::property(PROPERTY)
            .or_else(|| l4rs_config::system_property(LEGACY_PROPERTY));
        selector.is_some_and(|selector| is_asynchronous(&selector))
    })
}

/// Whether `selector` makes every logger asynchronous; a class log4j2 does not ship gets
/// log4j2's error, and the default (synchronous) selector.
fn is_asynchronous(selector: &str) -> bool {
    if ASYNCHRONOUS.contains(&selector) {
        return true;
    }
    if !OTHERS.contains(&selector) {
        status::error(format_args!(
            "Unable to create custom ContextSelector. Falling back to default. (help: {PROPERTY}={selector} names no selector l4rs knows; {} makes every logger asynchronous, and log4j2's other selectors change nothing in a Rust program)",
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
        assert!(is_asynchronous(ASYNCHRONOUS[0]));
        assert!(is_asynchronous(ASYNCHRONOUS[1]));
        assert!(!is_asynchronous(OTHERS[0]));
        let (asynchronous, reported) =
            status::capture(|| is_asynchronous("com.example.CustomSelector"));
        assert!(!asynchronous);
        assert_eq!(reported.len(), 1, "{reported:?}");
        assert!(reported[0]
            .message
            .starts_with("Unable to create custom ContextSelector. Falling back to default."));
        assert!(
            !is_asynchronous("AsyncLoggerContextSelector"),
            "the class's full name only, as log4j2 compares it"
        );
    }
}
