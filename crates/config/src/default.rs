//! log4j2 2.24's default configuration: ERROR and above to the console.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use l4rs_core::Level;

use crate::model::{
    AppenderKind, AppenderRefSpec, AppenderSpec, Configuration, ConsoleSpec, ConsoleTarget,
    LayoutSpec, LoggerSpec, LoggersSpec, PatternLayoutSpec,
};
use crate::substitute::Substitutor;

/// The default configuration's pattern in log4j2 up to 2.24.
pub const DEFAULT_PATTERN: &str = "%d{HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n";

/// log4j2 numbers its default consoles per process: `DefaultConsole-1`, `-2`, …
static CONSOLE_COUNTER: AtomicUsize = AtomicUsize::new(0);

/// The root level of a default configuration: `LOG4J_LEVEL` (log4j2's `log4j2.level`) or ERROR.
pub(crate) fn default_root_level() -> Level {
    std::env::var("LOG4J_LEVEL")
        .ok()
        .and_then(|name| Level::from_name(&name).ok())
        .unwrap_or(Level::ERROR)
}

/// A fresh `DefaultConsole-N` appender: SYSTEM_OUT, the default pattern.
pub(crate) fn default_console() -> AppenderSpec {
    let number = CONSOLE_COUNTER.fetch_add(1, Ordering::Relaxed) + 1;
    AppenderSpec {
        name: format!("DefaultConsole-{number}"),
        ignore_exceptions: true,
        layout: Some(LayoutSpec::Pattern(PatternLayoutSpec {
            pattern: DEFAULT_PATTERN.to_string(),
            ..PatternLayoutSpec::default()
        })),
        filter: None,
        kind: AppenderKind::Console(ConsoleSpec {
            target: ConsoleTarget::SystemOut,
            follow: false,
            direct: false,
        }),
        position: None,
    }
}

/// The root logger log4j2 puts in place of a missing one: the default level and a reference to
/// `console`.
pub(crate) fn default_root(console: &AppenderSpec) -> LoggerSpec {
    LoggerSpec {
        name: String::new(),
        level: Some(default_root_level()),
        additivity: true,
        include_location: None,
        asynchronous: false,
        appender_refs: vec![AppenderRefSpec {
            appender: console.name.clone(),
            level: None,
            filter: None,
            position: None,
        }],
        filter: None,
        position: None,
    }
}

/// `Default@<hex>`, as log4j2 names a default configuration (after its identity hash).
pub(crate) fn default_name() -> String {
    use std::hash::{BuildHasher, Hasher};
    let mut hasher = std::collections::hash_map::RandomState::new().build_hasher();
    hasher.write_usize(CONSOLE_COUNTER.load(Ordering::Relaxed));
    format!("Default@{:x}", hasher.finish() as u32)
}

/// log4j2 2.24's default configuration: root at ERROR (or `LOG4J_LEVEL`) writing to one
/// `DefaultConsole-N` on standard output with `%d{HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n`.
pub fn default_configuration() -> Configuration {
    let console = default_console();
    let root = default_root(&console);
    Configuration {
        source: None,
        name: default_name(),
        status: None,
        dest: None,
        monitor_interval_seconds: 0,
        monitor_resources: Vec::new(),
        strict: false,
        shutdown_hook: true,
        shutdown_timeout_ms: 0,
        properties: Vec::new(),
        custom_levels: Vec::new(),
        appenders: vec![console],
        replaced_appenders: Vec::new(),
        filter: None,
        loggers: LoggersSpec {
            root,
            loggers: Vec::new(),
        },
        substitutor: Arc::new(Substitutor::new(None)),
        diagnostics: Vec::new(),
        async_wait_strategy: None,
        is_default: true,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_configuration_is_log4j2_2_24s() {
        let config = default_configuration();
        assert!(config.is_default);
        assert!(config.name.starts_with("Default@"));
        assert_eq!(config.appenders.len(), 1);
        let console = &config.appenders[0];
        assert!(console.name.starts_with("DefaultConsole-"));
        let Some(LayoutSpec::Pattern(layout)) = &console.layout else {
            panic!("pattern layout expected");
        };
        assert_eq!(layout.pattern, DEFAULT_PATTERN);
        assert_eq!(config.loggers.root.appender_refs[0].appender, console.name);
        if std::env::var_os("LOG4J_LEVEL").is_none() {
            assert_eq!(config.loggers.root.level, Some(Level::ERROR));
        }
        let next = default_console();
        assert_ne!(next.name, console.name);
    }
}
