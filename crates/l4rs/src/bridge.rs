//! The `log` crate bridge: `log::info!(…)` calls become l4rs events on the logger named by
//! their target (the module path by default).

use std::sync::atomic::{AtomicBool, Ordering};

use l4rs_core::location::{file_name_from_path, UNKNOWN_METHOD};
use l4rs_core::{Level, Location};

use crate::context::Context;

struct Bridge;

static BRIDGE: Bridge = Bridge;

/// Maps `log`'s levels onto log4j2's.
fn level_of(level: log::Level) -> Level {
    match level {
        log::Level::Error => Level::ERROR,
        log::Level::Warn => Level::WARN,
        log::Level::Info => Level::INFO,
        log::Level::Debug => Level::DEBUG,
        log::Level::Trace => Level::TRACE,
    }
}

impl log::Log for Bridge {
    fn enabled(&self, metadata: &log::Metadata<'_>) -> bool {
        crate::get_logger(metadata.target()).is_enabled(level_of(metadata.level()))
    }

    fn log(&self, record: &log::Record<'_>) {
        let logger = crate::get_logger(record.target());
        let level = level_of(record.level());
        if !logger.is_enabled(level) {
            return;
        }
        // `log` records carry the module path and file but not the function name; `%M` prints
        // `?` for them, as for a `tracing` event or a `log` record through `tracing-log`.
        let location = record.module_path().map(|module| Location {
            class: module,
            method: UNKNOWN_METHOD,
            file: record.file().map_or("", file_name_from_path),
            line: record.line().map_or(-1, |line| line as i32),
        });
        let _ = logger.log(level, location.as_ref(), None, None, *record.args());
    }

    fn flush(&self) {
        crate::lifecycle_flush();
    }
}

/// True once the bridge is `log`'s logger.
static OURS: AtomicBool = AtomicBool::new(false);
/// True once the bridge tried to become `log`'s logger.
static TRIED: AtomicBool = AtomicBool::new(false);
/// True once a `tracing` layer was created: the bridge then waits for the layer's first event,
/// so that `tracing-subscriber`'s `init()` may install `tracing-log`'s `LogTracer` first.
static DEFERRED: AtomicBool = AtomicBool::new(false);

/// Installs the bridge as `log`'s logger, once. If another logger was installed first, the
/// status logger says so and l4rs leaves it in place. With a `tracing` layer, waits for
/// [`install_behind_tracing`].
pub(crate) fn install() {
    if !DEFERRED.load(Ordering::SeqCst) {
        try_install(true);
    }
}

/// Has the bridge wait for the `tracing` layer's first event ([`install_behind_tracing`]).
#[cfg(feature = "tracing")]
pub(crate) fn defer_to_tracing() {
    DEFERRED.store(true, Ordering::SeqCst);
}

/// Installs the bridge unless `log` has a logger already; quietly, since that logger is then
/// `tracing-log`'s `LogTracer` (or another bridge to `tracing`), whose records reach l4rs
/// through the `tracing` layer. One atomic load once tried.
#[cfg(feature = "tracing")]
pub(crate) fn install_behind_tracing() {
    if !TRIED.load(Ordering::Relaxed) {
        try_install(false);
    }
}

/// True when the bridge is `log`'s logger.
#[cfg(feature = "tracing")]
pub(crate) fn is_installed() -> bool {
    OURS.load(Ordering::SeqCst)
}

fn try_install(warn_if_taken: bool) {
    if TRIED.swap(true, Ordering::SeqCst) {
        return;
    }
    match log::set_logger(&BRIDGE) {
        Ok(()) => {
            OURS.store(true, Ordering::SeqCst);
            if let Some(context) = crate::lifecycle::installed_context() {
                follow(&context);
            } else {
                log::set_max_level(log::LevelFilter::Trace);
            }
        }
        Err(_) if warn_if_taken => l4rs_core::status::warn(
            "Another logger is already installed for the log crate; log:: macros will not reach l4rs",
        ),
        Err(_) => {}
    }
}

/// Sets `log`'s global maximum level to the most verbose level `context` can enable, so a
/// `log::debug!` that no logger wants stops at `log`'s own atomic check instead of looking
/// its target up (about 1 ns instead of about 60).
pub(crate) fn follow(context: &Context) {
    if OURS.load(Ordering::SeqCst) {
        log::set_max_level(max_level_for(context.most_verbose_threshold()));
    }
}

/// Raises `log`'s maximum level to what `next` can enable when that is more verbose, before the
/// switch to `next`: until [`follow`] sets it exactly after the switch, a `log` record that
/// either configuration wants reaches the routing, which decides with the one in force.
pub(crate) fn widen(next: &Context) {
    if OURS.load(Ordering::SeqCst) {
        let next = max_level_for(next.most_verbose_threshold());
        if next > log::max_level() {
            log::set_max_level(next);
        }
    }
}

/// The most verbose `log` level whose log4j2 level `threshold` lets through (the `tracing`
/// layer's level hint is derived from it too).
pub(crate) fn max_level_for(threshold: Level) -> log::LevelFilter {
    [
        log::Level::Trace,
        log::Level::Debug,
        log::Level::Info,
        log::Level::Warn,
        log::Level::Error,
    ]
    .into_iter()
    .find(|level| level_of(*level).is_at_least_as_severe_as(threshold))
    .map_or(log::LevelFilter::Off, |level| level.to_level_filter())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_levels_map_to_log4j2_levels() {
        assert_eq!(level_of(log::Level::Warn), Level::WARN);
        assert_eq!(level_of(log::Level::Trace), Level::TRACE);
    }

    #[test]
    fn the_max_level_is_the_most_verbose_log_level_a_threshold_passes() {
        assert_eq!(max_level_for(Level::ALL), log::LevelFilter::Trace);
        assert_eq!(max_level_for(Level::TRACE), log::LevelFilter::Trace);
        assert_eq!(max_level_for(Level::DEBUG), log::LevelFilter::Debug);
        assert_eq!(max_level_for(Level::ERROR), log::LevelFilter::Error);
        assert_eq!(max_level_for(Level::FATAL), log::LevelFilter::Off);
        assert_eq!(max_level_for(Level::OFF), log::LevelFilter::Off);
        // A custom level between INFO (400) and DEBUG (500) lets INFO through, not DEBUG.
        let between = Level::register("BRIDGE_NOTICE", 450);
        assert_eq!(max_level_for(between), log::LevelFilter::Info);
    }
}
