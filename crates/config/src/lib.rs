//! log4j2 XML configuration for l4rs.
//!
//! The pipeline is the one log4j2 runs, in the same order and with the same tolerance for
//! mistakes:
//!
//! 1. [`xml`]: the file is parsed with quick-xml into a [`xml::Node`] tree that keeps the
//!    line and column of every element and attribute (XInclude is honoured, entities are not
//!    expanded);
//! 2. [`substitute`]: `${…}` variables are resolved with log4j2's `StrSubstitutor` rules and
//!    lookups (`sys`, `env`, `date`, `main`, `ctx`, `event`, …);
//! 3. [`load`]: the tree is bound to a typed [`model::Configuration`], plugin by plugin, with
//!    log4j2's defaults, aliases, case-insensitivity, strict syntax and arbiters. Problems
//!    become [`Diagnostic`]s (each also reported through the status logger when found) and the
//!    affected piece is dropped, never the whole configuration;
//! 4. [`routing`]: the loggers become a tree that maps any logger name to the logger config
//!    that owns it.
//!
//! [`default_configuration`] is log4j2 2.24's fallback. No I/O happens here besides reading
//! the configuration file, the files it XIncludes, and what a few plugins read as log4j2
//! builds them: a MutableThreadContextMapFilter's pairs and `${bundle:…}` files (a
//! `<ScriptFile>` is only opened, never read).
//!
//! ```
//! let config = l4rs_config::load_str(
//!     r#"<Configuration><Appenders><Console name="C"/></Appenders>
//!        <Loggers><Root level="info"><AppenderRef ref="C"/></Root></Loggers></Configuration>"#,
//!     None,
//! )
//! .unwrap();
//! let tree = l4rs_config::routing::LoggerTree::new(&config.loggers);
//! assert_eq!(tree.owner_of("my_app::db"), tree.root());
//! ```

#![warn(missing_docs)]

pub mod context_map_file;
mod default;
pub mod diagnostic;
pub mod jdbc_url;
pub mod load;
pub mod model;
pub mod plugins;
pub mod posix;
pub mod properties;
pub mod rolling;
pub mod routing;
pub mod spring_profiles;
pub mod substitute;
pub mod wait_strategy;
pub mod xml;

pub use default::{default_configuration, DEFAULT_PATTERN};
pub use diagnostic::{Diagnostic, Position, Severity};
pub use load::{load_file, load_file_with, load_str, load_str_with, LoadError, LoadOptions};
pub use model::Configuration;
pub use substitute::{
    clear_system_property, local_host_name, set_main_arguments, set_system_property,
    system_property, Substitutor,
};
pub use wait_strategy::WaitStrategy;
