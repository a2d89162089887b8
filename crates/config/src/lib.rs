//! log4j2 XML configuration for l4rs.
//!
//! The pipeline is the one log4j2 runs, in the same order and with the same tolerance for
//! mistakes:
//!
//! 1. [`xml`]: the file is parsed with quick-xml into a [`xml::Node`] tree that keeps the
//!    line and column of every element and attribute;
//! 2. [`substitute`]: `${…}` variables are resolved with log4j2's `StrSubstitutor` rules and
//!    lookups (`sys`, `env`, `date`, `main`, …);
//! 3. [`model`]: the tree is bound to a typed [`model::Configuration`], plugin by plugin.
//!    Problems become [`Diagnostic`]s (also reported through the status logger) and the
//!    affected piece is dropped, never the whole configuration;
//! 4. [`routing`]: the loggers become a tree that maps any logger name to the logger config
//!    that owns it.
//!
//! No I/O happens here besides reading the configuration file.

pub mod diagnostic;
pub mod model;

pub use diagnostic::{Diagnostic, Position, Severity};
