//! log4j2's `HtmlLayout`: a page whose table has one row per event, and rows under it for the
//! event's context stack, context map and throwable.

use std::cell::RefCell;

use l4rs_config::model::{HtmlLayoutSpec, HTML_FONT_SIZES};
use l4rs_core::{Layout, Level, LogEvent, Timestamp};
use l4rs_java_syntax::java_util::{hash_map_bucket, hash_map_table_size, initial_table_size};

use crate::charset::Charset;
use crate::converters::date::DateFormatter;
use crate::converters::exception::render::{self, Sink};
use crate::scratch::with_scratch;

/// Written before each trace line but the first.
const TRACE_PREFIX: &str = "<br />&nbsp;&nbsp;&nbsp;&nbsp;";

/// log4j2's `HtmlLayout`.
pub struct HtmlLayout {
    location_info: bool,
    title: String,
    charset: Charset,
    /// `contentType`, else `text/html` with the charset.
    content_type: String,
    font_name: String,
    /// The CSS size of the context and throwable rows.
    font_size: &'static str,
    /// The CSS size of the page's text, one larger.
    header_size: &'static str,
    time: TimeColumn,
    /// `java.util.Date.toString()`'s form, for the session's start in the header.
    session_date: DateFormatter,
}

/// What the first column shows.
enum TimeColumn {
    /// `JVM_ELAPSE_TIME`: milliseconds since the process started.
    SinceStart,
    /// A `datePattern`, as `%d{datePattern}{timezone}` prints it.
    Date(DateFormatter),
}

impl HtmlLayout {
    /// Builds the layout from its configuration.
    pub fn new(spec: &HtmlLayoutSpec) -> HtmlLayout {
        let size = spec.font_size.min(HTML_FONT_SIZES.len() - 1);
        // `FontSize.larger()`: the next size, but XXLARGE and LARGER stay.
        let larger = if size < 7 { size + 1 } else { size };
        let charset = Charset::from_attribute(spec.charset.as_deref());
        let time = if spec.date_pattern == "JVM_ELAPSE_TIME" {
            TimeColumn::SinceStart
        } else {
            TimeColumn::Date(DateFormatter::new(
                Some(&spec.date_pattern),
                spec.timezone.as_deref(),
            ))
        };
        HtmlLayout {
            location_info: spec.location_info,
            title: spec.title.clone(),
            charset,
            content_type: spec
                .content_type
                .clone()
                .unwrap_or_else(|| format!("text/html; charset={}", charset.name())),
            font_name: spec.font_name.clone(),
            font_size: HTML_FONT_SIZES[size].1,
            header_size: HTML_FONT_SIZES[larger].1,
            time,
            session_date: DateFormatter::new(Some("EEE MMM dd HH:mm:ss zzz yyyy"), None),
        }
    }

    fn write_level(level: Level, out: &mut String) {
        // log4j2 compares with the DEBUG level itself: a custom level of DEBUG's number stays
        // plain (`Level`'s equality is by number).
        if level == Level::DEBUG && level.name() == Level::DEBUG.name() {
            out.push_str("<font color=\"#339933\">");
            escape_html(level.name(), out);
            out.push_str("</font>");
        } else if level.is_at_least_as_severe_as(Level::WARN) {
            out.push_str("<font color=\"#993300\"><strong>");
            escape_html(level.name(), out);
            out.push_str("</strong></font>");
        } else {
            escape_html(level.name(), out);
        }
    }

    /// The row under the event's for its context stack or map.
    fn context_row(&self, title: &str, out: &mut String, write: impl FnOnce(&mut String)) {
        out.push_str("<tr><td bgcolor=\"#EEEEEE\" style=\"font-size : ");
        out.push_str(self.font_size);
        out.push_str(";\" colspan=\"6\" title=\"");
        out.push_str(title);
        out.push_str("\">");
        with_scratch(|text| {
            write(text);
            escape_html(text, out);
        });
        out.push_str("</td></tr>\n");
    }
}

/// log4j2's `Transform.escapeHtmlTags`: `&`, `<`, `>` and `"` as entities.
fn escape_html(text: &str, out: &mut String) {
    let mut rest = text;
    while let Some(index) = rest.find(['&', '<', '>', '"']) {
        out.push_str(&rest[..index]);
        out.push_str(match rest.as_bytes()[index] {
            b'&' => "&amp;",
            b'<' => "&lt;",
            b'>' => "&gt;",
            _ => "&quot;",
        });
        rest = &rest[index + 1..];
    }
    out.push_str(rest);
}

/// The context map as `HashMap.toString()` prints the copy log4j2 makes of it:
/// `{key=value, …}` in the order of a `new HashMap<>(size)`'s buckets, each bucket in key
/// order. Two cases are not modelled: Java makes a bucket of more than eight colliding keys a
/// tree, iterated in another order, and it sorts keys by UTF-16 units where the context map
/// sorts them by code point (they differ only between U+E000–U+FFFF and characters above it).
fn write_context_map(event: &LogEvent<'_>, out: &mut String) {
    /// Above this many entries the reused list is given back after use.
    const KEPT_CAPACITY: usize = 1024;
    thread_local! {
        /// (bucket, position in key order) of each entry, reused between events.
        static ORDER: RefCell<Vec<(usize, usize)>> = const { RefCell::new(Vec::new()) };
    }
    let write = |order: &mut Vec<(usize, usize)>, out: &mut String| {
        let map = event.context_map;
        let count = map.len();
        let size = hash_map_table_size(initial_table_size(count), count);
        order.clear();
        for (position, (key, _)) in map.iter().enumerate() {
            order.push((hash_map_bucket(key, size), position));
        }
        order.sort_unstable();
        out.push('{');
        for (written, &(_, position)) in order.iter().enumerate() {
            if written > 0 {
                out.push_str(", ");
            }
            if let Some((key, value)) = map.entry_at(position) {
                out.push_str(key);
                out.push('=');
                out.push_str(value);
            }
        }
        out.push('}');
        if order.capacity() > KEPT_CAPACITY {
            *order = Vec::new();
        }
    };
    // A thread being torn down has no list left: one for this event.
    let reused = ORDER.try_with(|order| match order.try_borrow_mut() {
        Ok(mut order) => {
            write(&mut order, &mut *out);
            true
        }
        Err(_) => false,
    });
    if !matches!(reused, Ok(true)) {
        write(&mut Vec::new(), out);
    }
}

impl Layout for HtmlLayout {
    fn content_type(&self) -> String {
        self.content_type.clone()
    }

    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        out.push_str("\n<tr>\n<td>");
        match &self.time {
            TimeColumn::SinceStart => {
                // Java's subtraction wraps; a caller-built timestamp may be anything.
                let elapsed = event
                    .timestamp
                    .epoch_millis
                    .wrapping_sub(l4rs_core::time::process_start_millis());
                out.push_str(itoa::Buffer::new().format(elapsed));
            }
            TimeColumn::Date(date) => date.format(event.timestamp, out),
        }
        out.push_str("</td>\n<td title=\"");
        escape_html(event.thread.name, out);
        out.push_str(" thread\">");
        escape_html(event.thread.name, out);
        out.push_str("</td>\n<td title=\"Level\">");
        Self::write_level(event.level, out);
        out.push_str("</td>\n<td title=\"");
        let logger = if event.logger_name.is_empty() {
            "root"
        } else {
            event.logger_name
        };
        escape_html(logger, out);
        out.push_str(" logger\">");
        escape_html(logger, out);
        out.push_str("</td>\n");
        if self.location_info {
            out.push_str("<td>");
            // log4j2 fails the event without a location (a NullPointerException); l4rs writes
            // `?`, the placeholder log4j prints for a location it lacks.
            match &event.location {
                Some(location) => {
                    escape_html(location.file, out);
                    out.push(':');
                    out.push_str(itoa::Buffer::new().format(location.line));
                }
                None => out.push_str("?:?"),
            }
            out.push_str("</td>\n");
        }
        out.push_str("<td title=\"Message\">");
        with_scratch(|text| {
            event.message.write_to(text);
            // Escaped, then each line feed a line break.
            let mut lines = text.split('\n');
            if let Some(first) = lines.next() {
                escape_html(first, out);
            }
            for line in lines {
                out.push_str("<br />");
                escape_html(line, out);
            }
        });
        out.push_str("</td>\n</tr>\n");
        if !event.context_stack.is_empty() {
            self.context_row("Nested Diagnostic Context", out, |text| {
                text.push_str("NDC: [");
                for (index, entry) in event.context_stack.iter().enumerate() {
                    if index > 0 {
                        text.push_str(", ");
                    }
                    text.push_str(entry);
                }
                text.push(']');
            });
        }
        if !event.context_map.is_empty() {
            self.context_row("Mapped Diagnostic Context", out, |text| {
                text.push_str("MDC: ");
                write_context_map(event, text);
            });
        }
        if let Some(throwable) = &event.throwable {
            out.push_str("<tr><td bgcolor=\"#993300\" style=\"color:White; font-size : ");
            out.push_str(self.font_size);
            out.push_str(";\" colspan=\"6\">");
            let throwable = throwable.resolve();
            with_scratch(|text| {
                render::standard(&throwable, &mut Sink::direct(text));
                // `printStackTrace()`'s lines as `readLine()` splits them: at `\n`, `\r` or
                // `\r\n`, each but the first after the prefix, each ended by a line feed.
                let mut rest = text.as_str();
                let mut first = true;
                while !rest.is_empty() {
                    let end = rest.find(['\n', '\r']).unwrap_or(rest.len());
                    if !first {
                        out.push_str(TRACE_PREFIX);
                    }
                    first = false;
                    escape_html(&rest[..end], out);
                    out.push('\n');
                    let skip = match rest.as_bytes().get(end) {
                        Some(b'\r') if rest.as_bytes().get(end + 1) == Some(&b'\n') => 2,
                        Some(_) => 1,
                        None => 0,
                    };
                    rest = &rest[end + skip..];
                }
            });
            out.push_str("</td></tr>\n");
        }
    }

    fn header(&self, out: &mut String) {
        out.push_str(
            "<!DOCTYPE HTML PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \
             \"http://www.w3.org/TR/html4/loose.dtd\">\n<html>\n<head>\n<meta charset=\"",
        );
        out.push_str(self.charset.name());
        out.push_str("\"/>\n<title>");
        // log4j2 writes the title as it is.
        out.push_str(&self.title);
        out.push_str("</title>\n<style type=\"text/css\">\n<!--\nbody, table {font-family:");
        out.push_str(&self.font_name);
        out.push_str("; font-size: ");
        out.push_str(self.header_size);
        // log4j2 ends that line before the rule's closing brace.
        out.push_str(
            "\n;}th {background: #336699; color: #FFFFFF; text-align: left;}\n-->\n</style>\n\
             </head>\n<body bgcolor=\"#FFFFFF\" topmargin=\"6\" leftmargin=\"6\">\n\
             <hr size=\"1\" noshade=\"noshade\">\nLog session start time ",
        );
        self.session_date.format(Timestamp::now(), out);
        out.push_str(
            "<br>\n<br>\n<table cellspacing=\"0\" cellpadding=\"4\" border=\"1\" \
             bordercolor=\"#224466\" width=\"100%\">\n<tr>\n<th>Time</th>\n<th>Thread</th>\n\
             <th>Level</th>\n<th>Logger</th>\n",
        );
        if self.location_info {
            out.push_str("<th>File:Line</th>\n");
        }
        out.push_str("<th>Message</th>\n</tr>\n");
    }

    fn footer(&self, out: &mut String) {
        out.push_str("</table>\n<br>\n</body></html>\n");
    }

    fn encode<'b>(&self, text: &'b str, scratch: &'b mut Vec<u8>) -> &'b [u8] {
        self.charset.encode(text, scratch)
    }

    fn requires_location(&self) -> bool {
        self.location_info
    }
}

#[cfg(test)]
mod tests {
    use l4rs_core::{ContextMap, ContextStack, Message};

    use super::*;

    fn layout(spec: HtmlLayoutSpec) -> HtmlLayout {
        HtmlLayout::new(&spec)
    }

    fn format(layout: &HtmlLayout, event: &LogEvent<'_>) -> String {
        let mut out = String::new();
        layout.format(event, &mut out);
        out
    }

    #[test]
    fn an_event_is_a_row_with_escaped_cells() {
        let layout = layout(HtmlLayoutSpec {
            date_pattern: "ISO8601".to_string(),
            timezone: Some("UTC".to_string()),
            ..HtmlLayoutSpec::default()
        });
        let mut event = LogEvent::new("", Level::WARN, Message::Text("a <b> & \"c\"\nd"));
        event.timestamp = Timestamp::from_millis(1_700_000_000_001);
        assert_eq!(
            format(&layout, &event),
            "\n<tr>\n<td>2023-11-14T22:13:20,001</td>\n<td title=\"main thread\">main</td>\n\
             <td title=\"Level\"><font color=\"#993300\"><strong>WARN</strong></font></td>\n\
             <td title=\"root logger\">root</td>\n\
             <td title=\"Message\">a &lt;b&gt; &amp; &quot;c&quot;<br />d</td>\n</tr>\n"
        );
    }

    #[test]
    fn only_debug_itself_is_green() {
        let layout = layout(HtmlLayoutSpec::default());
        // A custom level with DEBUG's number, and one between WARN and INFO.
        let detail = Level::register("HTML_TEST_DETAIL", 500);
        let notice = Level::register("HTML_TEST_NOTICE", 350);
        let cell = |level: Level| {
            let row = format(&layout, &LogEvent::new("x", level, Message::Text("m")));
            let start = row.find("<td title=\"Level\">").expect("a level cell");
            row[start..].lines().next().expect("a line").to_string()
        };
        assert_eq!(cell(detail), "<td title=\"Level\">HTML_TEST_DETAIL</td>");
        assert_eq!(cell(notice), "<td title=\"Level\">HTML_TEST_NOTICE</td>");
        assert_eq!(
            cell(Level::FATAL),
            "<td title=\"Level\"><font color=\"#993300\"><strong>FATAL</strong></font></td>"
        );
    }

    #[test]
    fn the_context_map_is_listed_in_hash_map_order() {
        let layout = layout(HtmlLayoutSpec::default());
        let mut map = ContextMap::default();
        // Buckets of a four-slot table: "b" 2, "a" 1, "q" 1 (113), inserted a, b, q.
        for key in ["b", "a", "q"] {
            map.insert(key, "<v>");
        }
        let stack = ContextStack::default();
        let mut event = LogEvent::new("x", Level::INFO, Message::Text("m"));
        event.context_map = &map;
        event.context_stack = &stack;
        let row = format(&layout, &event);
        assert!(
            row.ends_with(
                "<tr><td bgcolor=\"#EEEEEE\" style=\"font-size : small;\" colspan=\"6\" \
                 title=\"Mapped Diagnostic Context\">MDC: {a=&lt;v&gt;, q=&lt;v&gt;, b=&lt;v&gt;}</td></tr>\n"
            ),
            "{row}"
        );
        assert!(!row.contains("Nested Diagnostic Context"));
    }

    #[test]
    fn font_sizes_and_the_header_follow_the_options() {
        let layout = layout(HtmlLayoutSpec {
            location_info: true,
            title: "A <raw> title".to_string(),
            font_size: 7,
            charset: Some("iso-8859-1".to_string()),
            ..HtmlLayoutSpec::default()
        });
        let mut header = String::new();
        layout.header(&mut header);
        assert!(header.contains("<meta charset=\"ISO-8859-1\"/>\n<title>A <raw> title</title>"));
        // XXLARGE stays XXLARGE in the header.
        assert!(header.contains("font-size: xx-large\n;}th"));
        assert!(header.contains("<th>Logger</th>\n<th>File:Line</th>\n<th>Message</th>\n</tr>\n"));
        let mut footer = String::new();
        layout.footer(&mut footer);
        assert_eq!(footer, "</table>\n<br>\n</body></html>\n");
        let event = LogEvent::new("x", Level::DEBUG, Message::Text("m"));
        let row = format(&layout, &event);
        assert!(row.contains("<td title=\"Level\"><font color=\"#339933\">DEBUG</font></td>\n<td title=\"x logger\">x</td>\n<td>?:?</td>\n"), "{row}");
    }
}
