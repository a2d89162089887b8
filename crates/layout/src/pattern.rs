//! A compiled pattern: the list of converters a pattern string was parsed into.

use std::sync::Arc;

use l4rs_core::{Interpolator, LogEvent};

use crate::converters::ansi::{HighlightConverter, StyleConverter};
use crate::converters::conditional::{EqualsConverter, MaxLengthConverter};
use crate::converters::context::{self, MdcConverter};
use crate::converters::date::DateConverter;
use crate::converters::encode::EncodeConverter;
use crate::converters::exception::ThrowableConverter;
use crate::converters::level::LevelConverter;
use crate::converters::location;
use crate::converters::message::MessageConverter;
use crate::converters::names::NameAbbreviator;
use crate::converters::replace::ReplaceConverter;
use crate::converters::runtime::{self, UuidKind};
use crate::converters::thread;
use crate::modifiers::FormattingInfo;
use crate::parser::{self, ParseOptions};
use crate::short;

/// A pattern compiled once into converters. Formatting runs the converters in order into the
/// caller's buffer and allocates nothing for the common converters.
///
/// Build one with [`Pattern::compile`]; [`crate::PatternLayout`] holds one per pattern (main,
/// header, footer, each selector match).
pub struct Pattern {
    pub(crate) formatters: Vec<Formatter>,
}

/// One converter with its format modifiers.
pub(crate) struct Formatter {
    pub converter: Converter,
    pub info: Option<FormattingInfo>,
}

impl Formatter {
    /// Appends the converter's output for `event`, with the modifiers applied to it.
    #[inline]
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String, base: usize) {
        let start = out.len();
        self.converter.format(event, out, base);
        if let Some(info) = &self.info {
            info.apply(out, start);
        }
    }
}

/// Options for [`Pattern::compile`].
#[derive(Clone, Default)]
pub struct PatternOptions {
    /// Resolves `${…}` left in literal text, per event.
    pub interpolator: Option<Arc<dyn Interpolator>>,
    /// Append an implicit `%xEx` when no converter prints the throwable (log4j2's
    /// `alwaysWriteExceptions`, default true in a layout).
    pub always_write_exceptions: bool,
    /// Suppress the escape codes of `%highlight` and `%style`.
    pub disable_ansi: bool,
    /// Suppress them too when the output is not a terminal console.
    pub no_console_no_ansi: bool,
    /// The output is a console attached to a terminal.
    pub console: bool,
}

impl Pattern {
    /// Compiles `pattern`. Problems are reported to the status logger as log4j2 words them and
    /// the offending text is printed literally; `Err` is returned only when log4j2 refuses the
    /// whole pattern (a trailing backslash), with its message.
    pub fn compile(pattern: &str, options: &PatternOptions) -> Result<Pattern, String> {
        let parse_options = ParseOptions {
            interpolator: options.interpolator.clone(),
            disable_ansi: options.disable_ansi,
            no_console_no_ansi: options.no_console_no_ansi,
            console: options.console,
        };
        parser::parse(pattern, &parse_options, options.always_write_exceptions)
            .map_err(|error| error.0)
    }

    /// Appends the formatted event to `out`.
    #[inline]
    pub fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        let base = out.len();
        self.format_from(event, out, base);
    }

    /// Formats with `base` as the start of the buffer log4j2 would be writing into (the
    /// `%ex` space rule looks back no further).
    pub(crate) fn format_from(&self, event: &LogEvent<'_>, out: &mut String, base: usize) {
        for formatter in &self.formatters {
            formatter.format(event, out, base);
        }
    }

    /// True when a converter prints the caller's location (`%C %M %L %F %l`), nested ones
    /// included.
    pub fn requires_location(&self) -> bool {
        self.any_converter(&|converter| {
            matches!(
                converter,
                Converter::Class(_)
                    | Converter::Method
                    | Converter::Line
                    | Converter::File
                    | Converter::Location
            )
        })
    }

    /// True when a converter is `%N`/`%nano`, nested ones included. log4j2 switches the
    /// configuration from its dummy nano clock (always 0) to `System.nanoTime()` as soon as it
    /// parses one, in any pattern of the configuration.
    pub fn uses_nano_time(&self) -> bool {
        self.any_converter(&|converter| matches!(converter, Converter::Nano))
    }

    /// True when the pattern must be formatted where and when the line is written, nested
    /// converters included: `%sn` and a time-based `%u` take a number or a time when the line
    /// is formatted, in the order lines are formatted; `%endOfBatch` prints the queue's view of
    /// the event; a literal with a `${…}` lookup allocates its value per event, which a caller
    /// formatting ahead of a queue must not.
    pub fn formats_only_when_written(&self) -> bool {
        self.any_converter(&|converter| match converter {
            Converter::SequenceNumber | Converter::EndOfBatch => true,
            Converter::Uuid(kind) => *kind == UuidKind::Time,
            Converter::Literal(literal) => literal.interpolator.is_some(),
            _ => false,
        })
    }

    /// True when `test` holds for a converter of this pattern or one nested in it.
    fn any_converter(&self, test: &dyn Fn(&Converter) -> bool) -> bool {
        self.formatters
            .iter()
            .any(|formatter| formatter.converter.any(test))
    }

    /// True when a top-level converter renders the event's throwable (log4j2's
    /// `handlesThrowable`).
    pub fn handles_throwable(&self) -> bool {
        self.formatters
            .iter()
            .any(|formatter| formatter.converter.handles_throwable())
    }

    /// Drops the converters that render throwables (used for the `%ex` suffix pattern).
    pub(crate) fn without_throwable_converters(mut self) -> Pattern {
        self.formatters
            .retain(|formatter| !formatter.converter.handles_throwable());
        self
    }
}

impl std::fmt::Debug for Pattern {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pattern({} converters)", self.formatters.len())
    }
}

/// Literal text, resolved per event when it still holds `${…}`.
pub(crate) struct Literal {
    pub text: Box<str>,
    pub interpolator: Option<Arc<dyn Interpolator>>,
}

/// Every converter log4j2's PatternLayout knows, one variant per behaviour.
pub(crate) enum Converter {
    Literal(Literal),
    LineSeparator,
    Date(Box<DateConverter>),
    Level(LevelConverter),
    Logger(NameAbbreviator),
    Class(NameAbbreviator),
    Method,
    Line,
    File,
    Location,
    Message(MessageConverter),
    ThreadName,
    ThreadId,
    ThreadPriority,
    ProcessId(Box<str>),
    Relative,
    SequenceNumber,
    Nano,
    Uuid(UuidKind),
    Fqcn,
    EndOfBatch,
    Mdc(MdcConverter),
    Ndc,
    Marker,
    MarkerSimpleName,
    Map,
    Throwable(Box<ThrowableConverter>),
    Highlight(Box<HighlightConverter>),
    Style(Box<StyleConverter>),
    Encode(Box<EncodeConverter>),
    Replace(Box<ReplaceConverter>),
    Equals(Box<EqualsConverter>),
    NotEmpty(Box<Pattern>),
    MaxLength(Box<MaxLengthConverter>),
    Repeat(Box<str>),
}

impl Converter {
    /// Appends this converter's output for `event`.
    #[inline]
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String, base: usize) {
        match self {
            Converter::Literal(literal) => match &literal.interpolator {
                None => short::push(out, &literal.text),
                Some(interpolator) => {
                    out.push_str(&interpolator.interpolate(&literal.text, Some(event)))
                }
            },
            Converter::LineSeparator => short::push(out, runtime::LINE_SEPARATOR),
            Converter::Date(date) => date.format(event.timestamp, out),
            Converter::Level(level) => level.format(event.level, out),
            Converter::Logger(abbreviator) => abbreviator.abbreviate(event.logger_name, out),
            Converter::Class(abbreviator) => location::format_class(event, abbreviator, out),
            Converter::Method => location::format_method(event, out),
            Converter::Line => location::format_line(event, out),
            Converter::File => location::format_file(event, out),
            Converter::Location => location::format_location(event, out),
            Converter::Message(message) => message.format(event, out),
            Converter::ThreadName => short::push(out, event.thread.name),
            Converter::ThreadId => thread::push_integer(out, event.thread.id as i64),
            Converter::ThreadPriority => thread::push_integer(out, event.thread.priority as i64),
            Converter::ProcessId(pid) => short::push(out, pid),
            Converter::Relative => runtime::format_relative(event, out),
            Converter::SequenceNumber => runtime::format_sequence_number(out),
            Converter::Nano => thread::push_integer(out, event.nano_time),
            Converter::Uuid(kind) => runtime::format_uuid(*kind, out),
            Converter::Fqcn => out.push_str(runtime::FQCN),
            Converter::EndOfBatch => {
                out.push_str(if event.end_of_batch { "true" } else { "false" })
            }
            Converter::Mdc(mdc) => mdc.format(event, out),
            Converter::Ndc => context::format_ndc(event, out),
            Converter::Marker => context::format_marker(event, out),
            Converter::MarkerSimpleName => context::format_marker_simple_name(event, out),
            // l4rs messages are never MapMessages, for which log4j2 prints nothing.
            Converter::Map => {}
            Converter::Throwable(throwable) => throwable.format(event, out, base),
            Converter::Highlight(highlight) => highlight.format(event, out, base),
            Converter::Style(style) => style.format(event, out, base),
            Converter::Encode(encode) => encode.format(event, out, base),
            Converter::Replace(replace) => replace.format(event, out),
            Converter::Equals(equals) => equals.format(event, out, base),
            Converter::NotEmpty(pattern) => {
                crate::converters::conditional::format_not_empty(pattern, event, out, base)
            }
            Converter::MaxLength(max) => max.format(event, out, base),
            Converter::Repeat(text) => out.push_str(text),
        }
    }

    /// log4j2's `handlesThrowable`: throwable converters, and the composite converters that
    /// ask their children (`%highlight`, `%style`, `%enc`). `%notEmpty`, `%maxLen`, `%equals`,
    /// `%replace` and the colour shorthands do not, as in 2.19.
    pub(crate) fn handles_throwable(&self) -> bool {
        match self {
            Converter::Throwable(_) => true,
            Converter::Highlight(highlight) => highlight.pattern.handles_throwable(),
            Converter::Style(style) => style.handles_throwable(),
            Converter::Encode(encode) => encode.pattern.handles_throwable(),
            _ => false,
        }
    }

    /// False only for text that does not depend on the event (`%notEmpty` ignores it).
    pub(crate) fn is_variable(&self) -> bool {
        !matches!(self, Converter::Literal(_) | Converter::LineSeparator)
    }

    /// True when `test` holds for this converter or for one in its sub-patterns.
    fn any(&self, test: &dyn Fn(&Converter) -> bool) -> bool {
        test(self)
            || self
                .sub_patterns()
                .into_iter()
                .flatten()
                .any(|pattern| pattern.any_converter(test))
    }

    /// The patterns a composite converter formats (at most two: `%equals` has a pattern and
    /// may have a substitution pattern).
    fn sub_patterns(&self) -> [Option<&Pattern>; 2] {
        match self {
            Converter::Highlight(c) => [Some(&c.pattern), None],
            Converter::Style(c) => [Some(&c.pattern), None],
            Converter::Encode(c) => [Some(&c.pattern), None],
            Converter::Replace(c) => [Some(&c.pattern), None],
            Converter::Equals(c) => c.patterns(),
            Converter::NotEmpty(p) => [Some(p), None],
            Converter::MaxLength(c) => [Some(&c.pattern), None],
            Converter::Throwable(c) => [c.suffix(), None],
            _ => [None, None],
        }
    }
}
