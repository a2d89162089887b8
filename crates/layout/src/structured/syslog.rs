//! log4j2's `SyslogLayout`: BSD syslog lines (RFC 3164), `<PRI>Mmm dd HH:mm:ss host message`.

use l4rs_config::model::SyslogLayoutSpec;
use l4rs_core::{Layout, Level, LogEvent};

use crate::charset::Charset;
use crate::converters::date::DateFormatter;
use crate::scratch::with_scratch;

/// log4j2's `SyslogLayout`.
pub struct SyslogLayout {
    facility: u8,
    new_line: bool,
    new_line_escape: Option<String>,
    charset: Charset,
    host_name: String,
    /// `MMM dd HH:mm:ss` in the default time zone; the day's leading zero becomes a space.
    date: DateFormatter,
}

impl SyslogLayout {
    /// Builds the layout from its configuration. The host name is read once, as log4j2 reads
    /// it when the layout is built.
    pub fn new(spec: &SyslogLayoutSpec) -> SyslogLayout {
        SyslogLayout {
            facility: spec.facility,
            new_line: spec.new_line,
            new_line_escape: spec.new_line_escape.clone(),
            charset: Charset::from_attribute(spec.charset.as_deref()),
            host_name: local_host_name(),
            date: DateFormatter::new(Some("MMM dd HH:mm:ss"), None),
        }
    }

    /// The host name written in every line.
    pub fn host_name(&self) -> &str {
        &self.host_name
    }

    fn write_message(&self, event: &LogEvent<'_>, out: &mut String) {
        let Some(escape) = &self.new_line_escape else {
            event.message.write_to(out);
            return;
        };
        match event.message.as_str() {
            Some(text) => escape_new_lines(text, escape, out),
            None => with_scratch(|text| {
                event.message.write_to(text);
                escape_new_lines(text, escape, out);
            }),
        }
    }
}

/// The syslog severity of a level: log4j2 maps the standard level at or below it
/// (`StandardLevel.getStandardLevel`) as FATAL to ALERT (1), ERROR to ERROR (3), WARN to
/// WARNING (4), INFO to INFO (6), DEBUG, TRACE and ALL to DEBUG (7), and OFF (a custom level
/// more severe than FATAL) to EMERG (0).
pub(super) fn severity(level: Level) -> u8 {
    match level.int_level() {
        i32::MIN..=99 => 0,
        100..=199 => 1,
        200..=299 => 3,
        300..=399 => 4,
        400..=499 => 6,
        _ => 7,
    }
}

/// Writes `text` with every `\r\n` and `\n` replaced by `escape`.
pub(super) fn escape_new_lines(text: &str, escape: &str, out: &mut String) {
    let mut rest = text;
    while let Some(index) = rest.find('\n') {
        let line = &rest[..index];
        out.push_str(line.strip_suffix('\r').unwrap_or(line));
        out.push_str(escape);
        rest = &rest[index + 1..];
    }
    out.push_str(rest);
}

/// The machine's host name as `InetAddress.getLocalHost().getHostName()` gives it: the name
/// the kernel holds (`gethostname`), or `localhost` if that fails.
pub(super) fn local_host_name() -> String {
    let mut buffer = [0u8; 256];
    // SAFETY: the buffer is valid for writes of its length; gethostname writes at most that.
    let result = unsafe { libc::gethostname(buffer.as_mut_ptr().cast(), buffer.len()) };
    if result != 0 {
        return "localhost".to_string();
    }
    let end = buffer.iter().position(|&b| b == 0).unwrap_or(buffer.len());
    String::from_utf8_lossy(&buffer[..end]).into_owned()
}

impl Layout for SyslogLayout {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        out.push('<');
        let priority = u32::from(self.facility) * 8 + u32::from(severity(event.level));
        out.push_str(itoa::Buffer::new().format(priority));
        out.push('>');
        let date_start = out.len();
        self.date.format(event.timestamp, out);
        // RFC 3164 pads the day of the month with a space, not a zero.
        let day = date_start + 4;
        if out.as_bytes().get(day) == Some(&b'0') {
            out.replace_range(day..day + 1, " ");
        }
        out.push(' ');
        out.push_str(&self.host_name);
        out.push(' ');
        self.write_message(event, out);
        if self.new_line {
            out.push('\n');
        }
    }

    fn encode<'b>(&self, text: &'b str, scratch: &'b mut Vec<u8>) -> &'b [u8] {
        self.charset.encode(text, scratch)
    }
}

impl std::fmt::Debug for SyslogLayout {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SyslogLayout")
            .field("facility", &self.facility)
            .field("new_line", &self.new_line)
            .field("host_name", &self.host_name)
            .finish_non_exhaustive()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use l4rs_core::{Message, Timestamp};

    fn format(spec: &SyslogLayoutSpec, level: Level, message: &str, millis: i64) -> String {
        let layout = SyslogLayout::new(spec);
        let mut event = LogEvent::new("a", level, Message::Text(message));
        event.timestamp = Timestamp::from_millis(millis);
        let mut out = String::new();
        layout.format(&event, &mut out);
        out.replace(layout.host_name(), "HOST")
    }

    #[test]
    fn severities_follow_the_standard_level_at_or_below() {
        let cases = [
            (Level::FATAL, 1),
            (Level::ERROR, 3),
            (Level::WARN, 4),
            (Level::INFO, 6),
            (Level::DEBUG, 7),
            (Level::TRACE, 7),
            (Level::ALL, 7),
            (Level::register("SYSLOG_TEST_NOTICE", 350), 4),
            (Level::register("SYSLOG_TEST_CRIT", 150), 1),
            (Level::register("SYSLOG_TEST_EMERG", 50), 0),
        ];
        for (level, expected) in cases {
            assert_eq!(severity(level), expected, "{}", level.name());
        }
    }

    #[test]
    fn new_lines_are_escaped_and_the_day_is_space_padded() {
        let spec = SyslogLayoutSpec {
            facility: 19,
            new_line: true,
            new_line_escape: Some("\\n".to_string()),
            charset: None,
        };
        // 2024-01-01T00:00:00Z in the process's zone; only the shape is checked here (the
        // oracle scenarios pin the zone).
        let line = format(&spec, Level::INFO, "a\r\nb\nc\r", 1_704_067_200_000);
        assert!(line.starts_with("<158>"), "{line}");
        assert!(line.ends_with(" HOST a\\nb\\nc\r\n"), "{line:?}");
        let day = &line[9..11];
        assert!(!day.starts_with('0'), "{line}");
    }

    #[test]
    fn without_options_the_message_is_kept_and_no_line_end_added() {
        let line = format(&SyslogLayoutSpec::default(), Level::ERROR, "x\ny", 1);
        assert!(line.starts_with("<131>"), "{line}");
        assert!(line.ends_with(" HOST x\ny"), "{line:?}");
    }
}
