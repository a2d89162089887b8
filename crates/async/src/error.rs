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
    /// The queue's slots could not be allocated (an impossible `bufferSize` or ring size).
    #[error("Unable to allocate the {capacity} slots of {name}: {source}")]
    Allocation {
        /// The stage's name.
        name: String,
        /// The slots asked for.
        capacity: usize,
        /// Why the allocation failed.
        #[source]
        source: std::collections::TryReserveError,
    },
}
