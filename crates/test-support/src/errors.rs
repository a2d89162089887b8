//! An application's error value, for the tests (and micro-benchmarks) of how l4rs turns a
//! `dyn Error` with a source into a throwable.

/// An error with a source, as applications define them: it displays as `request failed`, its
/// source is the I/O error it wraps, and l4rs names it `RequestFailed` (from its derived
/// `Debug` output).
#[derive(Debug)]
pub struct RequestFailed(pub std::io::Error);

impl std::fmt::Display for RequestFailed {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("request failed")
    }
}

impl std::error::Error for RequestFailed {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.0)
    }
}
