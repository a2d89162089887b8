//! The converters, one module per family, and the table of converter keys.

pub(crate) mod ansi;
pub(crate) mod conditional;
pub(crate) mod context;
pub(crate) mod date;
pub(crate) mod encode;
pub(crate) mod exception;
pub(crate) mod level;
pub(crate) mod location;
pub(crate) mod message;
pub(crate) mod names;
pub(crate) mod replace;
pub(crate) mod runtime;
pub(crate) mod thread;

use crate::parser::ParseOptions;
use crate::pattern::Converter;

/// What a converter key stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    Date,
    Logger,
    Class,
    Method,
    Line,
    File,
    Location,
    Message,
    LineSeparator,
    Level,
    ThreadName,
    ThreadId,
    ThreadPriority,
    ProcessId,
    Relative,
    SequenceNumber,
    Nano,
    Uuid,
    Mdc,
    Ndc,
    Map,
    Marker,
    MarkerSimpleName,
    Fqcn,
    EndOfBatch,
    Throwable(exception::Flavor),
    Highlight,
    Style,
    StyleName(&'static str),
    Encode,
    Equals { ignore_case: bool },
    NotEmpty,
    Replace,
    MaxLength,
    Repeat,
}

/// log4j2 2.19's converter keys (case-sensitive).
const KEYS: &[(&str, Kind)] = &[
    ("d", Kind::Date),
    ("date", Kind::Date),
    ("c", Kind::Logger),
    ("logger", Kind::Logger),
    ("C", Kind::Class),
    ("class", Kind::Class),
    ("M", Kind::Method),
    ("method", Kind::Method),
    ("L", Kind::Line),
    ("line", Kind::Line),
    ("F", Kind::File),
    ("file", Kind::File),
    ("l", Kind::Location),
    ("location", Kind::Location),
    ("m", Kind::Message),
    ("msg", Kind::Message),
    ("message", Kind::Message),
    ("n", Kind::LineSeparator),
    ("p", Kind::Level),
    ("level", Kind::Level),
    ("t", Kind::ThreadName),
    ("tn", Kind::ThreadName),
    ("thread", Kind::ThreadName),
    ("threadName", Kind::ThreadName),
    ("T", Kind::ThreadId),
    ("tid", Kind::ThreadId),
    ("threadId", Kind::ThreadId),
    ("tp", Kind::ThreadPriority),
    ("threadPriority", Kind::ThreadPriority),
    ("pid", Kind::ProcessId),
    ("processId", Kind::ProcessId),
    ("r", Kind::Relative),
    ("relative", Kind::Relative),
    ("sn", Kind::SequenceNumber),
    ("sequenceNumber", Kind::SequenceNumber),
    ("N", Kind::Nano),
    ("nano", Kind::Nano),
    ("u", Kind::Uuid),
    ("uuid", Kind::Uuid),
    ("X", Kind::Mdc),
    ("mdc", Kind::Mdc),
    ("MDC", Kind::Mdc),
    ("x", Kind::Ndc),
    ("NDC", Kind::Ndc),
    ("K", Kind::Map),
    ("map", Kind::Map),
    ("MAP", Kind::Map),
    ("marker", Kind::Marker),
    ("markerSimpleName", Kind::MarkerSimpleName),
    ("fqcn", Kind::Fqcn),
    ("endOfBatch", Kind::EndOfBatch),
    ("ex", Kind::Throwable(exception::Flavor::Standard)),
    ("exception", Kind::Throwable(exception::Flavor::Standard)),
    ("throwable", Kind::Throwable(exception::Flavor::Standard)),
    ("xEx", Kind::Throwable(exception::Flavor::Extended)),
    ("xException", Kind::Throwable(exception::Flavor::Extended)),
    ("xThrowable", Kind::Throwable(exception::Flavor::Extended)),
    ("rEx", Kind::Throwable(exception::Flavor::Root)),
    ("rException", Kind::Throwable(exception::Flavor::Root)),
    ("rThrowable", Kind::Throwable(exception::Flavor::Root)),
    ("highlight", Kind::Highlight),
    ("style", Kind::Style),
    ("black", Kind::StyleName("black")),
    ("red", Kind::StyleName("red")),
    ("green", Kind::StyleName("green")),
    ("yellow", Kind::StyleName("yellow")),
    ("blue", Kind::StyleName("blue")),
    ("magenta", Kind::StyleName("magenta")),
    ("cyan", Kind::StyleName("cyan")),
    ("white", Kind::StyleName("white")),
    ("enc", Kind::Encode),
    ("encode", Kind::Encode),
    ("equals", Kind::Equals { ignore_case: false }),
    ("equalsIgnoreCase", Kind::Equals { ignore_case: true }),
    ("notEmpty", Kind::NotEmpty),
    ("varsNotEmpty", Kind::NotEmpty),
    ("variablesNotEmpty", Kind::NotEmpty),
    ("replace", Kind::Replace),
    ("maxLen", Kind::MaxLength),
    ("maxLength", Kind::MaxLength),
    ("repeat", Kind::Repeat),
];

/// The converter registered under exactly `key`.
pub(crate) fn lookup(key: &str) -> Option<Kind> {
    KEYS.iter().find(|(k, _)| *k == key).map(|(_, kind)| *kind)
}

/// Why a converter could not be created.
pub(crate) enum CreateError {
    /// The converter reported the problem itself (wrong option count, bad option …).
    Failed,
    /// A sub-pattern could not be parsed; log4j2 reports it as a failed creation.
    Pattern(String),
}

impl From<crate::parser::ParseError> for CreateError {
    fn from(error: crate::parser::ParseError) -> Self {
        CreateError::Pattern(error.0)
    }
}

/// Creates the converter of `kind` from its `{…}` options.
pub(crate) fn create(
    kind: Kind,
    options: &[String],
    parse: &ParseOptions,
) -> Result<Converter, CreateError> {
    let first = options.first().map(String::as_str);
    Ok(match kind {
        Kind::Date => Converter::Date(Box::new(date::DateConverter::new(options))),
        Kind::Logger => Converter::Logger(names::NameAbbreviator::new(first)),
        Kind::Class => Converter::Class(names::NameAbbreviator::new(first)),
        Kind::Method => Converter::Method,
        Kind::Line => Converter::Line,
        Kind::File => Converter::File,
        Kind::Location => Converter::Location,
        Kind::Message => Converter::Message(message::MessageConverter::new(options)),
        Kind::LineSeparator => Converter::LineSeparator,
        Kind::Level => Converter::Level(level::LevelConverter::new(first)),
        Kind::ThreadName => Converter::ThreadName,
        Kind::ThreadId => Converter::ThreadId,
        Kind::ThreadPriority => Converter::ThreadPriority,
        Kind::ProcessId => Converter::ProcessId(runtime::process_id(first)),
        Kind::Relative => {
            runtime::mark_start();
            Converter::Relative
        }
        Kind::SequenceNumber => Converter::SequenceNumber,
        Kind::Nano => Converter::Nano,
        Kind::Uuid => Converter::Uuid(runtime::UuidKind::from_option(first)),
        Kind::Mdc => Converter::Mdc(context::MdcConverter::new(first)),
        Kind::Ndc => Converter::Ndc,
        Kind::Map => Converter::Map,
        Kind::Marker => Converter::Marker,
        Kind::MarkerSimpleName => Converter::MarkerSimpleName,
        Kind::Fqcn => Converter::Fqcn,
        Kind::EndOfBatch => Converter::EndOfBatch,
        Kind::Throwable(flavor) => Converter::Throwable(Box::new(
            exception::ThrowableConverter::new(flavor, options, parse)?,
        )),
        Kind::Highlight => {
            Converter::Highlight(Box::new(ansi::HighlightConverter::new(options, parse)?))
        }
        Kind::Style => Converter::Style(Box::new(ansi::StyleConverter::new(options, parse)?)),
        Kind::StyleName(color) => Converter::Style(Box::new(ansi::StyleConverter::shorthand(
            color, options, parse,
        )?)),
        Kind::Encode => Converter::Encode(Box::new(encode::EncodeConverter::new(options, parse)?)),
        Kind::Equals { ignore_case } => Converter::Equals(Box::new(
            conditional::EqualsConverter::new(options, ignore_case, parse)?,
        )),
        Kind::NotEmpty => Converter::NotEmpty(Box::new(conditional::not_empty(options, parse)?)),
        Kind::Replace => {
            Converter::Replace(Box::new(replace::ReplaceConverter::new(options, parse)?))
        }
        Kind::MaxLength => Converter::MaxLength(Box::new(conditional::MaxLengthConverter::new(
            options, parse,
        )?)),
        Kind::Repeat => Converter::Repeat(conditional::repeat(options)?),
    })
}

/// The `%xEx` that `alwaysWriteExceptions` appends.
pub(crate) fn implicit_throwable() -> Converter {
    Converter::Throwable(Box::new(exception::ThrowableConverter::implicit()))
}
