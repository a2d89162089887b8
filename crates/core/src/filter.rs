//! The filter stage: ACCEPT, NEUTRAL or DENY for each event.

use std::fmt;
use std::str::FromStr;

use crate::LogEvent;

/// A filter's verdict (log4j2's `Filter.Result`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FilterResult {
    /// Take the event without further checks at this stage (only the context-wide filter
    /// differs from NEUTRAL: ACCEPT there skips the logger level check).
    Accept,
    /// No opinion: the next check decides.
    Neutral,
    /// Drop the event.
    Deny,
}

impl FromStr for FilterResult {
    type Err = ();
    /// Parses `ACCEPT`, `NEUTRAL` or `DENY`, case-insensitively.
    fn from_str(s: &str) -> Result<FilterResult, ()> {
        match s.trim().to_ascii_uppercase().as_str() {
            "ACCEPT" => Ok(FilterResult::Accept),
            "NEUTRAL" => Ok(FilterResult::Neutral),
            "DENY" => Ok(FilterResult::Deny),
            _ => Err(()),
        }
    }
}

impl fmt::Display for FilterResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            FilterResult::Accept => "ACCEPT",
            FilterResult::Neutral => "NEUTRAL",
            FilterResult::Deny => "DENY",
        })
    }
}

/// A filter at any stage: context-wide, logger, appender reference or appender.
pub trait Filter: Send + Sync + fmt::Debug {
    /// Judges one event.
    fn filter(&self, event: &LogEvent<'_>) -> FilterResult;
}
