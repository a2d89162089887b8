//! The `log` crate bridge: `log::info!(…)` calls become l4rs events on the logger named by
//! their target (the module path by default).

use std::sync::atomic::{AtomicBool, Ordering};

use l4rs_core::{Level, Location};

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
        // `log` records carry the module path and file but not the function name.
        let location = record.module_path().map(|module| Location {
            class: module,
            method: "",
            file: record
                .file()
                .map(|file| file.rsplit(['/', '\\']).next().unwrap_or(file))
                .unwrap_or(""),
            line: record.line().map_or(-1, |line| line as i32),
        });
        let _ = logger.log(level, location.as_ref(), None, None, *record.args());
    }

    fn flush(&self) {
        crate::lifecycle_flush();
    }
}

/// Installs the bridge as `log`'s logger, once. If another logger was installed first, the
/// status logger says so and l4rs leaves it in place.
pub(crate) fn install() {
    static INSTALLED: AtomicBool = AtomicBool::new(false);
    if INSTALLED.swap(true, Ordering::SeqCst) {
        return;
    }
    match log::set_logger(&BRIDGE) {
        Ok(()) => log::set_max_level(log::LevelFilter::Trace),
        Err(_) => l4rs_core::status::warn(
            "Another logger is already installed for the log crate; log:: macros will not reach l4rs",
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_levels_map_to_log4j2_levels() {
        assert_eq!(level_of(log::Level::Warn), Level::WARN);
        assert_eq!(level_of(log::Level::Trace), Level::TRACE);
    }
}
