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
//! * [`XmlLayout`]: log4j-core's Jackson-based `XmlLayout` (Woodstox's escapes).
//! * [`YamlLayout`]: log4j-core's Jackson-based `YamlLayout` (SnakeYAML's emitter).
//! * [`GelfLayout`]: GELF 1.1 JSON objects for Graylog, compressed above a threshold.
//! * [`CsvLayout`]: `CsvLogEventLayout` and `CsvParameterLayout` records.
//! * [`HtmlLayout`]: an HTML page with a table row per event.
//!
//! The three Jackson layouts share their options and (JSON and YAML) their event walk in
//! `jackson`.

mod compress;
mod csv;
mod fields;
mod gelf;
mod html;
mod jackson;
mod json;
mod json_writer;
mod rfc5424;
mod structured_data;
mod syslog;
mod xml;
mod xml_writer;
mod yaml;
mod yaml_writer;

pub use csv::CsvLayout;
pub use gelf::GelfLayout;
pub use html::HtmlLayout;
pub use json::JsonLayout;
// JsonTemplateLayout writes the same escapes and logger FQCN.
pub(crate) use jackson::LOGGER_FQCN;
pub(crate) use json_writer::escape_into;
pub use rfc5424::Rfc5424Layout;
pub use syslog::SyslogLayout;
pub use xml::XmlLayout;
pub use yaml::YamlLayout;
