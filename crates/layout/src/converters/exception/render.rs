//! The three trace layouts of log4j2 2.19, written straight into the output.
//!
//! * [`standard`]: Java's `printStackTrace()` (`%ex`): causes and suppressed throwables elide
//!   the frames they share with their immediate enclosing throwable.
//! * [`extended`]: `ThrowableProxy`'s extended trace (`%xEx`): frames end in ` ~[?:?]`,
//!   causes elide against the outermost throwable, suppressed ones elide nothing.
//! * [`root_first`]: `%rEx`: the deepest cause first, then `Wrapped by:` each enclosing one.
//!
//! Everything goes through a [`Sink`], which either copies text through or applies 2.19's
//! post-processing for line limits and custom separators: split on `\n`, drop trailing empty
//! lines, keep the first N and join them with the separator, adding the suffix to each.

use l4rs_core::throwable::FrameStyle;
use l4rs_core::{StackFrame, Throwable};

use crate::converters::runtime::LINE_SEPARATOR;

use super::lines;

/// Where rendered text goes.
pub(crate) struct Sink<'a> {
    out: &'a mut String,
    split: Option<Split<'a>>,
}

struct Split<'a> {
    limit: usize,
    separator: &'a str,
    suffix: Option<&'a str>,
    line: usize,
    materialized: usize,
    any: bool,
}

impl<'a> Sink<'a> {
    /// Copies everything to `out`.
    pub(crate) fn direct(out: &'a mut String) -> Sink<'a> {
        Sink { out, split: None }
    }

    /// Keeps `limit` lines, joined by `separator`, each followed by ` suffix` when given.
    pub(crate) fn split(
        out: &'a mut String,
        limit: usize,
        separator: &'a str,
        suffix: Option<&'a str>,
    ) -> Sink<'a> {
        Sink {
            out,
            split: Some(Split {
                limit,
                separator,
                suffix,
                line: 0,
                materialized: 0,
                any: false,
            }),
        }
    }

    /// Writes text; in split mode every `\n` ends a line.
    #[inline]
    pub(crate) fn text(&mut self, text: &str) {
        // A trace is hundreds of short pieces: the common, unsplit case stays a bare copy.
        match self.split {
            None => self.out.push_str(text),
            Some(_) => self.split_text(text),
        }
    }

    /// Makes room for `additional` bytes at once, so the pieces of one line copy without
    /// growing the buffer in between.
    #[inline]
    pub(crate) fn reserve(&mut self, additional: usize) {
        self.out.reserve(additional);
    }

    #[inline(never)]
    fn split_text(&mut self, text: &str) {
        let Some(split) = &mut self.split else {
            return;
        };
        for (index, segment) in text.split('\n').enumerate() {
            if index > 0 {
                split.line += 1;
            }
            if segment.is_empty() {
                continue;
            }
            let end = split.line.min(split.limit);
            for line in split.materialized..end {
                if let Some(suffix) = split.suffix {
                    self.out.push(' ');
                    self.out.push_str(suffix);
                }
                if line + 1 < split.limit {
                    self.out.push_str(split.separator);
                }
            }
            split.materialized = split.materialized.max(split.line);
            split.any = true;
            if split.line < split.limit {
                self.out.push_str(segment);
            }
        }
    }

    /// The output itself when text is copied through unchanged, for writers that copy many
    /// pieces at once ([`super::lines`]).
    #[inline]
    pub(crate) fn direct_out(&mut self) -> Option<&mut String> {
        match self.split {
            None => Some(self.out),
            Some(_) => None,
        }
    }

    /// True when nothing more can be printed (the line limit is reached).
    #[inline]
    pub(crate) fn is_full(&self) -> bool {
        self.split
            .as_ref()
            .is_some_and(|s| s.materialized >= s.limit)
    }

    #[inline]
    fn integer(&mut self, value: i64) {
        self.text(itoa::Buffer::new().format(value));
    }

    /// Ends the last line.
    pub(crate) fn finish(self) {
        if let Some(split) = self.split {
            if split.any && split.materialized < split.limit {
                if let Some(suffix) = split.suffix {
                    self.out.push(' ');
                    self.out.push_str(suffix);
                }
            }
        }
    }
}

/// `StackTraceElement.toString()`.
fn frame(frame: &StackFrame, sink: &mut Sink<'_>) {
    // The longest fixed text of a frame: "(Unknown Source)", or "::" + "(" + ":" + a line
    // number + ")".
    const FIXED: usize = 24;
    sink.reserve(
        frame.class.len() + frame.method.len() + frame.file.as_ref().map_or(0, |f| f.len()) + FIXED,
    );
    sink.text(&frame.class);
    if !frame.class.is_empty() {
        sink.text(match frame.style {
            FrameStyle::Java => ".",
            FrameStyle::Rust => "::",
        });
    }
    sink.text(&frame.method);
    if frame.line == -2 {
        sink.text("(Native Method)");
        return;
    }
    match &frame.file {
        None => sink.text("(Unknown Source)"),
        Some(file) => {
            sink.text("(");
            sink.text(file);
            if frame.line >= 0 {
                sink.text(":");
                sink.integer(i64::from(frame.line));
            }
            sink.text(")");
        }
    }
}

/// `Throwable.toString()`: the class, then `: message` when there is one.
fn header(throwable: &Throwable, sink: &mut Sink<'_>) {
    sink.text(throwable.class_name());
    if let Some(message) = throwable.message() {
        sink.text(": ");
        sink.text(message);
    }
}

fn tabs(count: usize, sink: &mut Sink<'_>) {
    for _ in 0..count {
        sink.text("\t");
    }
}

/// The number of trailing frames `trace` shares with `enclosing`.
pub(crate) fn frames_in_common(trace: &[StackFrame], enclosing: &[StackFrame]) -> usize {
    trace
        .iter()
        .rev()
        .zip(enclosing.iter().rev())
        .take_while(|(a, b)| a == b)
        .count()
}

/// `printStackTrace()`.
pub(crate) fn standard(throwable: &Throwable, sink: &mut Sink<'_>) {
    header(throwable, sink);
    sink.text(LINE_SEPARATOR);
    standard_frames(throwable.frames(), 0, sink);
    for suppressed in throwable.suppressed() {
        standard_enclosed(suppressed, throwable.frames(), "Suppressed: ", 1, sink);
    }
    if let Some(cause) = throwable.cause() {
        standard_enclosed(cause, throwable.frames(), "Caused by: ", 0, sink);
    }
}

/// One `\tat frame` line per frame, each after `prefix` tabs, until the line limit.
fn standard_frames(frames: &[StackFrame], prefix: usize, sink: &mut Sink<'_>) {
    if let Some(out) = sink.direct_out() {
        lines::write(out, frames, prefix, [LINE_SEPARATOR, ""]);
        return;
    }
    for f in frames {
        if sink.is_full() {
            return;
        }
        tabs(prefix, sink);
        sink.text("\tat ");
        frame(f, sink);
        sink.text(LINE_SEPARATOR);
    }
}

fn standard_enclosed(
    throwable: &Throwable,
    enclosing: &[StackFrame],
    caption: &str,
    prefix: usize,
    sink: &mut Sink<'_>,
) {
    if sink.is_full() {
        return;
    }
    let trace = throwable.frames();
    let common = frames_in_common(trace, enclosing);
    tabs(prefix, sink);
    sink.text(caption);
    header(throwable, sink);
    sink.text(LINE_SEPARATOR);
    standard_frames(&trace[..trace.len() - common], prefix, sink);
    if sink.is_full() {
        return;
    }
    if common != 0 {
        more_line(common, prefix, sink);
        sink.text(LINE_SEPARATOR);
    }
    for suppressed in throwable.suppressed() {
        standard_enclosed(suppressed, trace, "Suppressed: ", prefix + 1, sink);
    }
    if let Some(cause) = throwable.cause() {
        standard_enclosed(cause, trace, "Caused by: ", prefix, sink);
    }
}

/// The `... N more` line (without its line ending) for the frames shared with the enclosing
/// trace.
fn more_line(common: usize, prefix: usize, sink: &mut Sink<'_>) {
    tabs(prefix, sink);
    sink.text("\t... ");
    sink.integer(common as i64);
    sink.text(" more");
}

/// What the proxy-based layouts (`%xEx`, `%rEx`) need besides the sink.
pub(crate) struct ProxyStyle<'a> {
    pub separator: &'a str,
    pub suffix: &'a str,
    pub filters: &'a [String],
}

impl ProxyStyle<'_> {
    fn suffix(&self, sink: &mut Sink<'_>) {
        if !self.suffix.is_empty() {
            sink.text(" ");
            sink.text(self.suffix);
        }
    }

    fn end_line(&self, sink: &mut Sink<'_>) {
        self.suffix(sink);
        sink.text(self.separator);
    }

    fn ignored(&self, frame: &StackFrame) -> bool {
        self.filters
            .iter()
            .any(|prefix| frame.class.starts_with(prefix.as_str()))
    }

    /// The frames of one throwable, with filtered runs and the `... N more` line.
    fn elements(&self, frames: &[StackFrame], common: usize, prefix: usize, sink: &mut Sink<'_>) {
        if self.filters.is_empty() && self.suffix.is_empty() {
            if let Some(out) = sink.direct_out() {
                lines::write(out, frames, prefix, [" ~[?:?]", self.separator]);
                if common != 0 {
                    more_line(common, prefix, sink);
                    self.end_line(sink);
                }
                return;
            }
        }
        let mut skipped = 0;
        for f in frames {
            if sink.is_full() {
                return;
            }
            if !self.filters.is_empty() && self.ignored(f) {
                skipped += 1;
                continue;
            }
            if skipped > 0 {
                self.skipped(skipped, prefix, sink);
                skipped = 0;
            }
            tabs(prefix, sink);
            sink.text("\tat ");
            frame(f, sink);
            sink.text(" ~[?:?]");
            self.end_line(sink);
        }
        if skipped > 0 {
            self.skipped(skipped, prefix, sink);
        }
        if common != 0 {
            more_line(common, prefix, sink);
            self.end_line(sink);
        }
    }

    fn skipped(&self, count: usize, prefix: usize, sink: &mut Sink<'_>) {
        tabs(prefix, sink);
        if count == 1 {
            sink.text("\t... ");
        } else {
            sink.text("\t... suppressed ");
            sink.integer(count as i64);
            sink.text(" lines");
        }
        self.end_line(sink);
    }
}

/// The extended trace (`%xEx`). The outermost header prints `: null` for a missing message.
pub(crate) fn extended(throwable: &Throwable, style: &ProxyStyle<'_>, sink: &mut Sink<'_>) {
    extended_proxy(throwable, None, style, sink);
}

/// The extended trace of one node of a `ThrowableProxy` tree, as its own
/// `getExtendedStackTraceAsString()` prints it (JsonLayout's `stacktraceAsString`). `root` is
/// the trace of the outermost throwable when this one is a cause: its shared frames are
/// dropped without a `... N more` line, as the proxy stores them. `None` for the outermost
/// throwable and for suppressed ones (each a new tree).
pub(crate) fn extended_proxy(
    throwable: &Throwable,
    root: Option<&[StackFrame]>,
    style: &ProxyStyle<'_>,
    sink: &mut Sink<'_>,
) {
    sink.text(throwable.class_name());
    sink.text(": ");
    sink.text(throwable.message().unwrap_or("null"));
    style.end_line(sink);
    let trace = throwable.frames();
    let common = root.map_or(0, |root| frames_in_common(trace, root));
    style.elements(&trace[..trace.len() - common], 0, 0, sink);
    for suppressed in throwable.suppressed() {
        extended_enclosed(suppressed, None, "Suppressed: ", 1, style, sink);
    }
    if let Some(cause) = throwable.cause() {
        extended_enclosed(
            cause,
            Some(root.unwrap_or(trace)),
            "Caused by: ",
            0,
            style,
            sink,
        );
    }
}

/// One enclosed throwable. `root` is the trace of the outermost throwable of its proxy tree
/// (log4j2 2.19 elides causes against it); `None` makes this throwable a new tree, as
/// suppressed throwables are.
fn extended_enclosed(
    throwable: &Throwable,
    root: Option<&[StackFrame]>,
    caption: &str,
    prefix: usize,
    style: &ProxyStyle<'_>,
    sink: &mut Sink<'_>,
) {
    if sink.is_full() {
        return;
    }
    tabs(prefix, sink);
    sink.text(caption);
    header(throwable, sink);
    style.end_line(sink);
    let trace = throwable.frames();
    let common = root.map_or(0, |root| frames_in_common(trace, root));
    style.elements(&trace[..trace.len() - common], common, prefix, sink);
    for suppressed in throwable.suppressed() {
        extended_enclosed(suppressed, None, "Suppressed: ", prefix + 1, style, sink);
    }
    if let Some(cause) = throwable.cause() {
        extended_enclosed(
            cause,
            Some(root.unwrap_or(trace)),
            "Caused by: ",
            prefix,
            style,
            sink,
        );
    }
}

/// The root-cause-first trace (`%rEx`); suppressed throwables are not printed.
pub(crate) fn root_first(throwable: &Throwable, style: &ProxyStyle<'_>, sink: &mut Sink<'_>) {
    if let Some(cause) = throwable.cause() {
        wrapper(cause, throwable.frames(), style, sink);
        sink.text("Wrapped by: ");
        style.suffix(sink);
    }
    header(throwable, sink);
    style.end_line(sink);
    style.elements(throwable.frames(), 0, 0, sink);
}

fn wrapper(
    throwable: &Throwable,
    root: &[StackFrame],
    style: &ProxyStyle<'_>,
    sink: &mut Sink<'_>,
) {
    if let Some(cause) = throwable.cause() {
        wrapper(cause, root, style, sink);
        sink.text("Wrapped by: ");
        style.suffix(sink);
    }
    header(throwable, sink);
    style.end_line(sink);
    let trace = throwable.frames();
    let common = frames_in_common(trace, root);
    style.elements(&trace[..trace.len() - common], common, 0, sink);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split(text_parts: &[&str], limit: usize, separator: &str, suffix: Option<&str>) -> String {
        let mut out = String::new();
        let mut sink = Sink::split(&mut out, limit, separator, suffix);
        for part in text_parts {
            sink.text(part);
        }
        sink.finish();
        out
    }

    #[test]
    fn split_sink_keeps_limited_lines_without_a_trailing_separator() {
        assert_eq!(split(&["a\n", "b\n", "c\n"], 2, "#", None), "a#b");
        assert_eq!(split(&["a\nb\n\n\tc\n"], usize::MAX, "#", None), "a#b##\tc");
        assert_eq!(
            split(&["a\n", "b\n"], usize::MAX, "\n", Some("~")),
            "a ~\nb ~"
        );
        assert_eq!(split(&["a\n\n\nb"], 3, "|", Some("s")), "a s| s| s");
        assert_eq!(split(&["a\n\n"], 5, "|", None), "a");
    }
}
