//! Errors returned by explicit initialisation and reconfiguration.

use std::path::PathBuf;

/// Why [`init`](crate::init) or [`init_with_file`](crate::init_with_file) could not use a
/// configuration, or all of it. Logging still works afterwards: with log4j2's default
/// configuration after [`Error::Config`], with the parts that could be built after
/// [`Error::Invalid`].
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// The configuration file could not be read or parsed.
    #[error(transparent)]
    Config(#[from] l4rs_config::LoadError),
    /// The configuration loaded but reported errors; the parts that could be used are active.
    #[error("{} configuration error(s) in {}: {}", .messages.len(), .file.display(), .messages.join("; "))]
    Invalid {
        /// The configuration file.
        file: PathBuf,
        /// Each error as the status logger reported it: the file's diagnostics (with their
        /// positions), then every ERROR the status logger reported while building the
        /// configuration (an appender that could not be built, a reference to an appender that
        /// does not exist, an unknown converter, a regex that does not compile).
        messages: Vec<String>,
    },
    /// [`reconfigure`](crate::reconfigure) found no file to load again: the configuration in
    /// force is log4j2's default one, or none was loaded yet.
    #[error("the configuration in force was not loaded from a file; nothing to reload (use reconfigure_with_file)")]
    NoFile,
}
