//! l4rs: log4j2's configuration, routing and output, for Rust.
//!
//! Point `LOG4RS_CONFIGURATION_FILE` (or log4j2's own `LOG4J_CONFIGURATION_FILE`) at an existing
//! `log4j2.xml`, ask for a logger by name, and log:
//!
//! ```no_run
//! let logger = l4rs::get_logger("FileLogger");
//! l4rs::debug!(logger, "connected to {} in {} ms", "db-1", 12);
//! let error = std::io::Error::other("disk full");
//! l4rs::error!(logger, error = &error, "write failed");
//! ```
//!
//! The first [`get_logger`] loads the configuration as log4j2's `LogManager` does (see [`init`]);
//! the routing (logger hierarchy, levels, additivity, filters, appender references) and the
//! bytes written follow log4j2 2.24.
//!
//! The level check of a disabled call is one atomic load. An enabled call formats into a reused
//! per-thread buffer and allocates nothing in steady state; the caller's module, function, file
//! and line are captured at compile time by the macros, never by walking the stack.
//!
//! The [`log`](mod@log) crate's macros are routed too: `log::info!(target: "FileLogger", …)` goes to the
//! logger `FileLogger`, and a plain `log::info!(…)` to the logger named after its module path.
//!
//! With the `tracing` feature, `l4rs::tracing::layer()` is a `tracing-subscriber` layer that
//! routes `tracing` events the same way: the target is the logger, the fields and spans are the
//! event's context map and stack (see `docs/tracing.md`).

mod appender_control;
mod asynchronous;
mod bridge;
mod caught;
mod check;
mod context;
mod context_selector;
mod error;
mod failover;
mod handover;
mod jdbc;
mod kafka;
mod lifecycle;
mod logger;
#[doc(hidden)]
pub mod macros;
mod monitor;
mod referring;
mod replaced_appenders;
mod rewrite;
mod route_key;
mod routing;
mod system_console;
mod thread;
#[cfg(feature = "tracing")]
pub mod tracing;

pub use asynchronous::{async_queue_stats, register_async_wait_strategy_factory};
pub use check::{check_configuration, Finding};

/// Whether every logger is asynchronous: log4j2's `log4j2.contextSelector` (also
/// `Log4jContextSelector`, `LOG4J_CONTEXT_SELECTOR`) names `AsyncLoggerContextSelector` or
/// `BasicAsyncLoggerContextSelector`. Read once per process, before the first configuration
/// is built (docs/configuration.md, "Every logger asynchronous").
pub fn all_loggers_asynchronous() -> bool {
    context_selector::all_loggers_asynchronous()
}
pub use context::build_layout;
pub use error::Error;
pub use l4rs_async::{dropped_events, QueueStats, WaitStrategy};
/// log4j2's system properties and `${main:…}` arguments, set by the program before the
/// configuration is loaded (`${sys:…}`, `${main:…}` and l4rs's global settings read them).
pub use l4rs_config::{clear_system_property, set_main_arguments, set_system_property};
pub use l4rs_core::{
    Level, LogEvent, Marker, Message, StackFrame, ThreadInfo, Throwable, Timestamp,
};
pub(crate) use lifecycle::flush as lifecycle_flush;
pub use lifecycle::{
    active_appenders, counted_events, flush, get_logger, init, init_with_file, reconfigure,
    reconfigure_with_file, set_level, set_root_level, shutdown, with_configuration,
};
pub use logger::Logger;
pub use thread::ThreadContext;

/// Re-exports of the building blocks, for l4rs's own tools and tests that drive the pipeline
/// directly (the conformance replay, the benchmark). Not API: hidden from the documentation and
/// free to change; programs use the items exported at the crate root.
#[doc(hidden)]
pub mod core {
    pub use l4rs_core::*;
}

/// The configuration crate (loading, diagnostics, routing tree), for l4rs's own tools. Not API,
/// as [`core`](self::core) above.
#[doc(hidden)]
pub mod config {
    pub use l4rs_config::*;
}
