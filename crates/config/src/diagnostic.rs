//! Problems found while loading a configuration, with their position in the file.

use std::fmt;
use std::path::PathBuf;

use l4rs_core::Level;

/// A line and column in the configuration file, both starting at 1.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Position {
    /// Line number, from 1.
    pub line: u32,
    /// Column number (in characters), from 1.
    pub column: u32,
}

impl fmt::Display for Position {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.line, self.column)
    }
}

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Severity {
    /// The affected piece was dropped or replaced by a default that changes behaviour.
    Error,
    /// A value was ignored or defaulted; the configuration works.
    Warning,
    /// For information only (e.g. a value adjusted as log4j2 adjusts it).
    Info,
}

impl Severity {
    /// The status-logger level this severity is reported at.
    pub fn level(self) -> Level {
        match self {
            Severity::Error => Level::ERROR,
            Severity::Warning => Level::WARN,
            Severity::Info => Level::INFO,
        }
    }
}

/// One problem found in a configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// How bad it is.
    pub severity: Severity,
    /// The message, worded as log4j2's status logger words it where log4j2 has one.
    pub message: String,
    /// The configuration file, when the configuration came from one.
    pub file: Option<PathBuf>,
    /// Where in the file, when known.
    pub position: Option<Position>,
    /// How to fix it, when there is something useful to say.
    pub help: Option<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (&self.file, &self.position) {
            (Some(file), Some(position)) => write!(f, "{}:{}: ", file.display(), position)?,
            (Some(file), None) => write!(f, "{}: ", file.display())?,
            (None, Some(position)) => write!(f, "{position}: ")?,
            (None, None) => {}
        }
        f.write_str(&self.message)?;
        if let Some(help) = &self.help {
            write!(f, " (help: {help})")?;
        }
        Ok(())
    }
}
