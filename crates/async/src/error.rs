//! Why an asynchronous stage could not start.

/// Why an asynchronous queue (and so an AsyncLogger configuration or an Async appender) could
/// not be started.
#[derive(Debug, thiserror::Error)]
pub enum AsyncError {
    /// The operating system refused to start the background thread.
    #[error("Unable to start the background thread of {name}: {source}")]
    Spawn {
        /// The stage's name.
        name: String,
        /// The OS error.
        #[source]
        source: std::io::Error,
    },
}
