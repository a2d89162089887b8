//! log4j2's structured (non-pattern) layouts.
//!
//! They live in this crate rather than a crate of their own because they share its machinery:
//! the charsets, the `ThrowableProxy` trace renderer that `%xEx` uses (JsonLayout's
//! `stacktraceAsString` prints exactly that text) and the per-thread scratch buffers that keep
//! steady-state formatting free of allocations.
//!
//! * [`JsonLayout`]: log4j-core's Jackson-based `JsonLayout`, compact or pretty-printed.
//! * [`SyslogLayout`]: BSD syslog (RFC 3164) lines.
//! * [`Rfc5424Layout`]: RFC 5424 syslog lines with the MDC as structured data.

mod json;
mod json_writer;
mod rfc5424;
mod syslog;

pub use json::JsonLayout;
// JsonTemplateLayout writes the same escapes and logger FQCN.
pub(crate) use json::LOGGER_FQCN;
pub(crate) use json_writer::escape_into;
pub use rfc5424::Rfc5424Layout;
pub use syslog::SyslogLayout;
