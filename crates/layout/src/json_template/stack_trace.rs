//! The `stackTrace` field of the `exception` and `exceptionRootCause` resolvers: the frames as
//! an array of objects built by a stack trace element template, or the trace as one string
//! (Java's `printStackTrace()` text, as log4j2 writes it) with optional truncation after given
//! points.

use l4rs_core::{StackFrame, Throwable};

use super::options::Options;
use super::tree::{MaybeResolvable, Node, Resolve};
use super::writer::Writer;
use crate::converters::exception::render::{self, Sink};
use crate::converters::runtime::LINE_SEPARATOR;
use crate::scratch::with_scratch;

/// The `stackTraceElement` resolver of element templates.
pub(crate) enum FrameResolver {
    /// `className`: the frame's class (Rust: module path).
    ClassName,
    /// `methodName`.
    MethodName,
    /// `fileName`, `null` when unknown.
    FileName,
    /// `lineNumber`.
    LineNumber,
}

impl FrameResolver {
    /// Builds the resolver from its options.
    pub(super) fn new(options: &Options<'_>) -> Result<FrameResolver, String> {
        match options.name()? {
            "stackTraceElement" => {}
            other => {
                return Err(format!(
                    "unknown resolver: {other} (at {}); a stack trace element template has only the stackTraceElement resolver",
                    options.path
                ))
            }
        }
        Ok(
            match options.field(&["className", "methodName", "fileName", "lineNumber"])? {
                "className" => FrameResolver::ClassName,
                "methodName" => FrameResolver::MethodName,
                "fileName" => FrameResolver::FileName,
                _ => FrameResolver::LineNumber,
            },
        )
    }
}

impl MaybeResolvable for FrameResolver {}

impl Resolve<StackFrame> for FrameResolver {
    fn resolve(&self, frame: &StackFrame, out: &mut Writer<'_>, _succeeding: bool) {
        match self {
            FrameResolver::ClassName => out.string(&frame.class),
            FrameResolver::MethodName => out.string(&frame.method),
            FrameResolver::FileName => out.optional_string(frame.file.as_deref()),
            FrameResolver::LineNumber => out.integer(i64::from(frame.line)),
        }
    }
}

/// How a stack trace is written.
pub(crate) enum StackTrace {
    /// One object per frame, `null` for a throwable without frames.
    Elements(Node<FrameResolver>),
    /// The trace as text.
    Text(Truncation),
}

/// `stackTrace.stringified.truncation`: where to cut each block (the throwable, each
/// `Caused by:` and each `Suppressed:`) of a stringified trace.
pub(crate) struct Truncation {
    /// `suffix`: written on its own line after a cut (default: `truncatedStringSuffix`).
    pub suffix: String,
    /// `pointMatcherStrings`: cut after the first occurrence of any.
    pub strings: Vec<String>,
    /// `pointMatcherRegexes`: cut after the first match of any (tried after the strings).
    pub regexes: Vec<regex::Regex>,
}

impl Truncation {
    fn enabled(&self) -> bool {
        !self.strings.is_empty() || !self.regexes.is_empty()
    }

    /// Where the block `text[start..end]` is cut, if a point matches in it.
    fn point(&self, text: &str, start: usize, end: usize) -> Option<usize> {
        let block = &text[start..end];
        for matcher in &self.strings {
            if let Some(index) = block.find(matcher.as_str()) {
                if start + index > 0 {
                    return Some(start + index + matcher.len());
                }
            }
        }
        self.regexes
            .iter()
            .find_map(|regex| regex.find(block).map(|m| start + m.end()))
    }
}

impl StackTrace {
    /// Writes the stack trace of `throwable`.
    pub(super) fn write(&self, throwable: &Throwable, out: &mut Writer<'_>) {
        match self {
            StackTrace::Elements(template) => {
                let frames = throwable.frames();
                if frames.is_empty() {
                    out.null();
                    return;
                }
                out.raw("[");
                for (index, frame) in frames.iter().enumerate() {
                    if index > 0 {
                        out.raw(",");
                    }
                    template.write(frame, out);
                }
                out.raw("]");
            }
            StackTrace::Text(truncation) => with_scratch(|text| {
                render::standard(throwable, &mut Sink::direct(text));
                if truncation.enabled() {
                    with_scratch(|cut| {
                        truncate(text, truncation, cut);
                        out.string(cut);
                    });
                } else {
                    out.string(text);
                }
            }),
        }
    }
}

/// Copies `text` into `out` block by block, each cut after its first truncation point with
/// the suffix on a new line. Unlike log4j2 2.24 (whose regex search of a later block runs
/// from that block to the end of the trace, and adds an empty line after an uncut block), a
/// point is looked for only inside its own block and uncut blocks are copied unchanged.
fn truncate(text: &str, truncation: &Truncation, out: &mut String) {
    let mut start = 0;
    loop {
        let label = labeled_line(text, start);
        let end = label.unwrap_or(text.len());
        match truncation.point(text, start, end) {
            Some(point) => {
                out.push_str(&text[start..point]);
                out.push_str(LINE_SEPARATOR);
                out.push_str(&truncation.suffix);
                if label.is_some() {
                    out.push_str(LINE_SEPARATOR);
                }
            }
            None => out.push_str(&text[start..end]),
        }
        match label {
            Some(label) => {
                // The label itself (tabs and `Caused by:`) is never cut.
                let colon = text[label..]
                    .find(':')
                    .map_or(text.len(), |i| label + i + 1);
                out.push_str(&text[label..colon]);
                start = colon;
            }
            None => return,
        }
    }
}

/// The start of the first line after `from` that (after tabs) begins a `Caused by: ` or
/// `Suppressed: ` block.
fn labeled_line(text: &str, from: usize) -> Option<usize> {
    let mut search = from;
    while let Some(newline) = text[search..].find('\n') {
        let line = search + newline + 1;
        let rest = text[line..].trim_start_matches('\t');
        if rest.starts_with("Caused by: ") || rest.starts_with("Suppressed: ") {
            return Some(line);
        }
        search = line;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cut(text: &str, strings: &[&str], regexes: &[&str]) -> String {
        let truncation = Truncation {
            suffix: "[cut]".into(),
            strings: strings.iter().map(|s| s.to_string()).collect(),
            regexes: regexes
                .iter()
                .map(|r| l4rs_java_syntax::regex::compile(r).unwrap())
                .collect(),
        };
        let mut out = String::new();
        truncate(text, &truncation, &mut out);
        out
    }

    // The behaviour of StackTraceStringResolverTest.point_matchers_should_work
    // (log4j-layout-template-json-test): each block is cut after its own matcher, the
    // `Caused by:` label kept.
    const TRACE: &str = "a.E: one\n\tat a.A.f(A.java:1)\n\tat a.B.g(B.java:2)\nCaused by: b.F: two\n\tat b.C.h(C.java:3)\n\tat b.D.i(D.java:4)\n";

    #[test]
    fn each_block_is_cut_after_its_first_point() {
        assert_eq!(
            cut(TRACE, &["at a.A"], &[]),
            "a.E: one\n\tat a.A\n[cut]\nCaused by: b.F: two\n\tat b.C.h(C.java:3)\n\tat b.D.i(D.java:4)\n"
        );
        assert_eq!(
            cut(TRACE, &["at b.C"], &[]),
            "a.E: one\n\tat a.A.f(A.java:1)\n\tat a.B.g(B.java:2)\nCaused by: b.F: two\n\tat b.C\n[cut]"
        );
        assert_eq!(
            cut(TRACE, &[], &["[a]t [ab]\\.[AC]"]),
            "a.E: one\n\tat a.A\n[cut]\nCaused by: b.F: two\n\tat b.C\n[cut]"
        );
        assert_eq!(cut(TRACE, &["nowhere"], &[]), TRACE);
    }
}
