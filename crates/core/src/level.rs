//! Log levels with log4j2's integer scale and custom levels.

use std::fmt;
use std::sync::{OnceLock, RwLock};

/// A log level: a name and log4j2's `intLevel`.
///
/// A smaller integer is more severe. An event at level `E` passes a threshold `T` when
/// `E.int_level() <= T.int_level()` (see [`Level::is_at_least_as_severe_as`]).
/// Levels compare by their integer only, as log4j2's do.
#[derive(Clone, Copy)]
pub struct Level {
    name: &'static str,
    int_level: i32,
}

/// Error returned when a level name is not a standard or registered custom level.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LevelParseError {
    /// The text that did not name a level.
    pub name: String,
}

impl fmt::Display for LevelParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown level \"{}\"", self.name)
    }
}

impl std::error::Error for LevelParseError {}

impl Level {
    /// No events at all pass a threshold of `OFF`.
    pub const OFF: Level = Level::new_static("OFF", 0);
    /// Severe errors that end the program.
    pub const FATAL: Level = Level::new_static("FATAL", 100);
    /// Errors.
    pub const ERROR: Level = Level::new_static("ERROR", 200);
    /// Warnings.
    pub const WARN: Level = Level::new_static("WARN", 300);
    /// Informational messages.
    pub const INFO: Level = Level::new_static("INFO", 400);
    /// Debugging messages.
    pub const DEBUG: Level = Level::new_static("DEBUG", 500);
    /// Fine-grained tracing.
    pub const TRACE: Level = Level::new_static("TRACE", 600);
    /// Every event passes a threshold of `ALL`.
    pub const ALL: Level = Level::new_static("ALL", i32::MAX);

    /// The standard levels, most severe first.
    pub const STANDARD: [Level; 8] = [
        Level::OFF,
        Level::FATAL,
        Level::ERROR,
        Level::WARN,
        Level::INFO,
        Level::DEBUG,
        Level::TRACE,
        Level::ALL,
    ];

    const fn new_static(name: &'static str, int_level: i32) -> Level {
        Level { name, int_level }
    }

    /// The level's registered name, e.g. `"WARN"` or a custom level's name as declared.
    pub fn name(&self) -> &'static str {
        self.name
    }

    /// log4j2's `intLevel`.
    pub fn int_level(&self) -> i32 {
        self.int_level
    }

    /// True when an event at `self` passes a threshold of `threshold`.
    #[inline]
    pub fn is_at_least_as_severe_as(&self, threshold: Level) -> bool {
        self.int_level <= threshold.int_level
    }

    /// Looks a level up by name, case-insensitively and ignoring surrounding whitespace, among
    /// the standard levels and the registered custom levels (log4j2's `Level.getLevel` after
    /// upper-casing).
    pub fn from_name(name: &str) -> Result<Level, LevelParseError> {
        let trimmed = name.trim();
        for level in Level::STANDARD {
            if level.name.eq_ignore_ascii_case(trimmed) {
                return Ok(level);
            }
        }
        let registry = custom_levels().read().unwrap_or_else(|e| e.into_inner());
        registry
            .iter()
            .find(|level| level.name.eq_ignore_ascii_case(trimmed))
            .copied()
            .ok_or_else(|| LevelParseError {
                name: name.to_string(),
            })
    }

    /// Registers a custom level (log4j2's `Level.forName`). Registering a name that already
    /// exists returns the existing level unchanged. The name is upper-cased for lookups but kept
    /// as declared for printing.
    pub fn register(name: &str, int_level: i32) -> Level {
        if let Ok(existing) = Level::from_name(name) {
            return existing;
        }
        let mut registry = custom_levels().write().unwrap_or_else(|e| e.into_inner());
        if let Some(existing) = registry
            .iter()
            .find(|level| level.name.eq_ignore_ascii_case(name.trim()))
        {
            return *existing;
        }
        // Custom levels live for the rest of the process, as in log4j2; leaking the name once
        // per registered level keeps `Level` `Copy` and free to pass around.
        let name: &'static str = Box::leak(name.trim().to_string().into_boxed_str());
        let level = Level { name, int_level };
        registry.push(level);
        level
    }

    /// Every custom level registered so far, in registration order.
    pub fn custom() -> Vec<Level> {
        custom_levels()
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The standard level with this integer, if any.
    pub fn standard_from_int(int_level: i32) -> Option<Level> {
        Level::STANDARD
            .into_iter()
            .find(|level| level.int_level == int_level)
    }
}

fn custom_levels() -> &'static RwLock<Vec<Level>> {
    static CUSTOM: OnceLock<RwLock<Vec<Level>>> = OnceLock::new();
    CUSTOM.get_or_init(|| RwLock::new(Vec::new()))
}

impl PartialEq for Level {
    fn eq(&self, other: &Self) -> bool {
        self.int_level == other.int_level
    }
}

impl Eq for Level {}

impl PartialOrd for Level {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Level {
    /// Orders by `intLevel`: `FATAL < ERROR < … < TRACE < ALL`.
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.int_level.cmp(&other.int_level)
    }
}

impl std::hash::Hash for Level {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.int_level.hash(state);
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name)
    }
}

impl fmt::Debug for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}({})", self.name, self.int_level)
    }
}

impl std::str::FromStr for Level {
    type Err = LevelParseError;
    fn from_str(s: &str) -> Result<Level, LevelParseError> {
        Level::from_name(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_levels_have_log4j2_integers() {
        assert_eq!(Level::OFF.int_level(), 0);
        assert_eq!(Level::WARN.int_level(), 300);
        assert_eq!(Level::ALL.int_level(), i32::MAX);
    }

    #[test]
    fn lookup_is_case_insensitive_and_trims() {
        assert_eq!(Level::from_name(" debug ").unwrap(), Level::DEBUG);
        assert!(Level::from_name("verbose").is_err());
    }

    #[test]
    fn threshold_comparison_follows_int_levels() {
        assert!(Level::ERROR.is_at_least_as_severe_as(Level::WARN));
        assert!(!Level::DEBUG.is_at_least_as_severe_as(Level::INFO));
        assert!(!Level::FATAL.is_at_least_as_severe_as(Level::OFF));
    }

    #[test]
    fn custom_levels_register_once_and_keep_their_spelling() {
        let notice = Level::register("Notice_Core_Test", 450);
        assert_eq!(notice.name(), "Notice_Core_Test");
        let again = Level::register("NOTICE_CORE_TEST", 999);
        assert_eq!(again.int_level(), 450);
        assert_eq!(
            Level::from_name("notice_core_test").unwrap().int_level(),
            450
        );
    }
}
