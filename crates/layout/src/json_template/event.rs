//! The event template resolvers of log4j2 2.24's JsonTemplateLayout, each built once from its
//! options and run per event without allocating (except where log4j2 documents a cost too:
//! regex key patterns and case conversion).

use std::sync::atomic::{AtomicI64, Ordering};
use std::sync::{Arc, Mutex};

use l4rs_core::{Interpolator, Level, LogEvent, Throwable};
use l4rs_java_syntax::regex::Replacement;

use super::options::Options;
use super::reader::Value;
use super::stack_trace::{FrameResolver, StackTrace, Truncation};
use super::tree::{Compiler, MaybeResolvable, Node, Resolve};
use super::writer::{Limits, Writer};
use crate::scratch::with_scratch;
use crate::structured::LOGGER_FQCN;
use crate::{DateFormatter, Pattern, PatternOptions};

/// What building resolvers needs from the layout.
pub(crate) struct Context<'a> {
    /// `stackTraceEnabled`.
    pub stack_trace_enabled: bool,
    /// `locationInfoEnabled`.
    pub location_info_enabled: bool,
    /// `truncatedStringSuffix`.
    pub truncated_string_suffix: &'a str,
    /// The layout's stack trace element template (already read).
    pub element_template: &'a Value,
    /// Resolves `${…}` in literal strings.
    pub interpolator: Option<Arc<dyn Interpolator>>,
    /// `maxStringLength` and `truncatedStringSuffix`.
    pub limits: &'a Limits,
    /// The `timestamp` resolver's default format and zone (`log4j.layout.jsonTemplate.*`).
    pub timestamp_format: &'a str,
    /// The default time zone id; `None` for the local zone.
    pub time_zone: Option<&'a str>,
}

/// One `$resolver` of an event template.
pub(crate) enum EventResolver {
    /// `timestamp` with a `pattern`.
    TimestampPattern(DateFormatter),
    /// `timestamp` with an `epoch`.
    TimestampEpoch(Epoch),
    /// `level`.
    Level(LevelField),
    /// `logger` `name`.
    LoggerName,
    /// `logger` `fqcn`.
    LoggerFqcn,
    /// `message`, as a string or (`fallbackKey`) an object holding the string.
    Message {
        /// `"fallbackKey":` escaped, when given.
        fallback_prefix: Option<String>,
    },
    /// `thread` `name`.
    ThreadName,
    /// `thread` `id`.
    ThreadId,
    /// `thread` `priority`.
    ThreadPriority,
    /// `exception` and `exceptionRootCause`.
    Exception(Box<Exception>),
    /// `mdc`.
    Mdc(Box<MapAccess>),
    /// `map` (MapMessage fields), `messageParameter` (l4rs messages are text, so these never
    /// have anything to write) and `source` without `locationInfoEnabled`.
    Absent,
    /// `ndc`.
    Ndc(Option<regex::Regex>),
    /// `marker` `name`.
    MarkerName,
    /// `marker` `parents`.
    MarkerParents,
    /// `source`.
    Source(SourceField),
    /// `pattern`: a PatternLayout pattern, written as a string.
    Pattern(Box<Pattern>),
    /// `counter`.
    Counter(Counter),
    /// `caseConverter`.
    CaseConverter(Box<CaseConverter>),
    /// `endOfBatch`.
    EndOfBatch,
    /// A constant computed when the layout is built (`main`).
    Constant(String),
}

/// `timestamp` `epoch` units.
pub(crate) enum Epoch {
    /// `nanos`: integer nanoseconds.
    Nanos,
    /// `millis`: milliseconds with six decimals.
    Millis,
    /// `millis` `rounded`.
    MillisRounded,
    /// `millis.nanos`: the nanoseconds within the millisecond.
    MillisNanos,
    /// `secs`: seconds with nine decimals.
    Secs,
    /// `secs` `rounded`.
    SecsRounded,
    /// `secs.nanos`: the nanoseconds within the second.
    SecsNanos,
}

/// `level` fields.
pub(crate) enum LevelField {
    /// `name`.
    Name,
    /// `severity` `keyword` (syslog).
    Keyword,
    /// `severity` `code` (syslog).
    Code,
}

/// `source` fields.
pub(crate) enum SourceField {
    /// `className`.
    ClassName,
    /// `methodName`.
    MethodName,
    /// `fileName`.
    FileName,
    /// `lineNumber`.
    LineNumber,
}

/// `exception` / `exceptionRootCause`.
pub(crate) struct Exception {
    root_cause: bool,
    /// `stackTraceEnabled` of the layout: without it the member is dropped.
    enabled: bool,
    field: ExceptionField,
}

enum ExceptionField {
    ClassName,
    Message,
    StackTrace(StackTrace),
}

/// `mdc`: one key, or all keys (matching a pattern) as an object or merged into the parent.
pub(crate) struct MapAccess {
    key: Option<String>,
    pattern: Option<regex::Regex>,
    replacement: Option<Replacement>,
    flatten: bool,
    prefix: String,
}

/// `counter`.
pub(crate) enum Counter {
    /// `overflowing` (the default): a wrapping 64-bit counter.
    Overflowing {
        /// The next value.
        next: AtomicI64,
        /// `stringified`.
        stringified: bool,
    },
    /// `overflowing: false`: a 128-bit counter (log4j2 uses a `BigInteger`).
    Wide {
        /// The next value.
        next: Mutex<i128>,
        /// `stringified`.
        stringified: bool,
    },
}

/// `caseConverter`.
pub(crate) struct CaseConverter {
    input: Node<EventResolver>,
    upper: bool,
    strategy: Strategy,
    replacement: Node<EventResolver>,
}

#[derive(PartialEq, Eq)]
enum Strategy {
    Fail,
    Pass,
    Replace,
}

/// The resolver names log4j2 2.24 registers, for the unknown-resolver message.
const RESOLVERS: &str = "caseConverter, counter, endOfBatch, exception, exceptionRootCause, level, logger, main, map, marker, mdc, message, messageParameter, ndc, pattern, source, thread, timestamp";

impl EventResolver {
    /// Builds the resolver of the `{"$resolver": …}` object `value` found at `path`.
    pub(super) fn new(
        value: &Value,
        path: &str,
        context: &Context<'_>,
    ) -> Result<EventResolver, String> {
        let options = Options::new(value, path);
        let name = options.name()?;
        Ok(match name {
            "timestamp" => timestamp(&options, context)?,
            "level" => EventResolver::Level(match options.field(&["name", "severity"])? {
                "name" => LevelField::Name,
                _ => match options.one_of(&["severity", "field"], &["keyword", "code"])? {
                    "keyword" => LevelField::Keyword,
                    _ => LevelField::Code,
                },
            }),
            "logger" => match options.field(&["name", "fqcn"])? {
                "name" => EventResolver::LoggerName,
                _ => EventResolver::LoggerFqcn,
            },
            "message" => {
                let stringified = options.boolean(&["stringified"])?.unwrap_or(false);
                let fallback_key = options.string(&["fallbackKey"])?;
                if stringified && fallback_key.is_some() {
                    return Err(format!(
                        "fallbackKey is not allowed when stringified is enable (at {path}); remove one of them"
                    ));
                }
                EventResolver::Message {
                    fallback_prefix: fallback_key.map(|key| {
                        let mut prefix = String::from("{\"");
                        crate::structured::escape_into(&mut prefix, key);
                        prefix.push_str("\":");
                        prefix
                    }),
                }
            }
            "thread" => match options.field(&["name", "id", "priority"])? {
                "name" => EventResolver::ThreadName,
                "id" => EventResolver::ThreadId,
                _ => EventResolver::ThreadPriority,
            },
            "exception" | "exceptionRootCause" => EventResolver::Exception(Box::new(exception(
                &options,
                name == "exceptionRootCause",
                context,
            )?)),
            "mdc" => EventResolver::Mdc(Box::new(map_access(&options)?)),
            "map" => {
                map_access(&options)?;
                EventResolver::Absent
            }
            "messageParameter" => {
                options.boolean(&["stringified"])?;
                options.integer(&["index"])?;
                EventResolver::Absent
            }
            "ndc" => EventResolver::Ndc(
                options
                    .string(&["pattern"])?
                    .map(|p| whole_regex(p, &options, "pattern"))
                    .transpose()?,
            ),
            "marker" => match options.field(&["name", "parents"])? {
                "name" => EventResolver::MarkerName,
                _ => EventResolver::MarkerParents,
            },
            // Without `locationInfoEnabled` log4j2 drops `source` members from the template.
            "source" if !context.location_info_enabled => {
                options.field(&["className", "fileName", "methodName", "lineNumber"])?;
                EventResolver::Absent
            }
            "source" => EventResolver::Source(
                match options.field(&["className", "fileName", "methodName", "lineNumber"])? {
                    "className" => SourceField::ClassName,
                    "fileName" => SourceField::FileName,
                    "methodName" => SourceField::MethodName,
                    _ => SourceField::LineNumber,
                },
            ),
            "pattern" => {
                let pattern = options
                    .string(&["pattern"])?
                    .filter(|p| !p.trim().is_empty())
                    .ok_or_else(|| format!("blank pattern (at {path}); give the pattern resolver a PatternLayout pattern"))?;
                let always_write_exceptions = options
                    .boolean(&["stackTraceEnabled"])?
                    .unwrap_or(context.stack_trace_enabled);
                // log4j2 does not substitute lookups in a pattern resolver's pattern.
                let pattern_options = PatternOptions {
                    interpolator: None,
                    always_write_exceptions,
                    disable_ansi: false,
                    no_console_no_ansi: false,
                    console: false,
                };
                let compiled = Pattern::compile(pattern, &pattern_options)
                    .map_err(|message| format!("{message} (pattern resolver at {path})"))?;
                EventResolver::Pattern(Box::new(compiled))
            }
            "counter" => counter(&options)?,
            "caseConverter" => {
                EventResolver::CaseConverter(Box::new(case_converter(&options, context)?))
            }
            "endOfBatch" => EventResolver::EndOfBatch,
            "main" => {
                let variable = match (options.integer(&["index"])?, options.string(&["key"])?) {
                    (Some(index), None) => index.to_string(),
                    (None, Some(key)) => key.to_string(),
                    _ => {
                        return Err(format!(
                            "either index or key must be provided (at {path}), not both"
                        ))
                    }
                };
                let text = format!("${{main:{variable}}}");
                let resolved = context
                    .interpolator
                    .as_ref()
                    .map(|i| i.interpolate(&text, None))
                    .filter(|r| *r != text);
                match resolved {
                    Some(value) => {
                        let mut json = String::from("\"");
                        crate::structured::escape_into(&mut json, &value);
                        json.push('"');
                        EventResolver::Constant(json)
                    }
                    None => EventResolver::Constant("null".to_string()),
                }
            }
            other => {
                return Err(format!(
                    "unknown resolver: {other} (at {path}); the resolvers are {RESOLVERS}"
                ))
            }
        })
    }
}

fn whole_regex(pattern: &str, options: &Options<'_>, key: &str) -> Result<regex::Regex, String> {
    l4rs_java_syntax::regex::compile_whole(pattern).map_err(|error| {
        format!(
            "{} ({error})",
            options.invalid(&[key], "a regular expression")
        )
    })
}

fn timestamp(options: &Options<'_>, context: &Context<'_>) -> Result<EventResolver, String> {
    if options.get(&["epoch"]).is_some() {
        let unit = options.string(&["epoch", "unit"])?;
        let rounded = options.boolean(&["epoch", "rounded"])?;
        let epoch = match (unit, rounded) {
            (Some("nanos"), None | Some(true)) => Epoch::Nanos,
            (Some("millis"), None | Some(false)) => Epoch::Millis,
            (Some("millis"), Some(true)) => Epoch::MillisRounded,
            (Some("millis.nanos"), None) => Epoch::MillisNanos,
            (Some("secs"), None | Some(false)) => Epoch::Secs,
            (Some("secs"), Some(true)) => Epoch::SecsRounded,
            (Some("secs.nanos"), None) => Epoch::SecsNanos,
            _ => {
                return Err(options.invalid(
                    &["epoch"],
                    "a unit of \"nanos\", \"millis\", \"secs\", \"millis.nanos\" or \"secs.nanos\" (rounded only with nanos, millis and secs)",
                ))
            }
        };
        return Ok(EventResolver::TimestampEpoch(epoch));
    }
    let format = options
        .string(&["pattern", "format"])?
        .unwrap_or(context.timestamp_format);
    let zone = options
        .string(&["pattern", "timeZone"])?
        .or(context.time_zone);
    if let Some(zone) = zone {
        if !is_time_zone(zone) {
            return Err(options.invalid(
                &["pattern", "timeZone"],
                "a time zone id such as \"UTC\" or \"Europe/Paris\"",
            ));
        }
    }
    options.string(&["pattern", "locale"])?;
    let formatter = DateFormatter::java_time(format, zone).map_err(|reason| {
        format!(
            "{} ({reason})",
            options.invalid(
                &["pattern", "format"],
                "a java.time DateTimeFormatter pattern"
            )
        )
    })?;
    Ok(EventResolver::TimestampPattern(formatter))
}

/// Java's `TimeZone.getAvailableIDs()` check, against the tz database l4rs reads.
fn is_time_zone(id: &str) -> bool {
    id.eq_ignore_ascii_case("UTC")
        || id.eq_ignore_ascii_case("GMT")
        || jiff::tz::TimeZone::get(id).is_ok()
}

fn exception(
    options: &Options<'_>,
    root_cause: bool,
    context: &Context<'_>,
) -> Result<Exception, String> {
    let field = match options.field(&["className", "message", "stackTrace"])? {
        "className" => ExceptionField::ClassName,
        "message" => ExceptionField::Message,
        _ => {
            let old = options.boolean(&["stringified"])?;
            if old.is_some() {
                l4rs_core::status::warn(format_args!(
                    "\"stringified\" flag at the root level of an exception [root cause] resolver is deprecated in favor of \"stackTrace.stringified\" (at {})",
                    options.path
                ));
            }
            let new = options.get(&["stackTrace", "stringified"]);
            let stringified = match new {
                None => old.unwrap_or(false),
                Some(Value::Bool(b)) => *b,
                Some(_) => true,
            };
            let form = if stringified {
                let keys = ["stackTrace", "stringified", "truncation"];
                let at = |key: &'static str| [keys[0], keys[1], keys[2], key];
                let regexes = options
                    .strings(&at("pointMatcherRegexes"))?
                    .iter()
                    .enumerate()
                    .map(|(index, regex)| {
                        l4rs_java_syntax::regex::compile(regex).map_err(|error| {
                            format!("invalid truncation point matcher regex at index {index}: {regex} ({error}; at {})", options.path)
                        })
                    })
                    .collect::<Result<_, _>>()?;
                StackTrace::Text(Truncation {
                    suffix: options
                        .string(&at("suffix"))?
                        .unwrap_or(context.truncated_string_suffix)
                        .to_string(),
                    strings: options.strings(&at("pointMatcherStrings"))?,
                    regexes,
                })
            } else {
                let template = options
                    .get(&["stackTrace", "elementTemplate"])
                    .unwrap_or(context.element_template);
                let mut build =
                    |value: &Value, path: &str| FrameResolver::new(&Options::new(value, path));
                let mut compiler = Compiler {
                    resolver: &mut build,
                    interpolator: context.interpolator.clone(),
                    limits: context.limits,
                };
                StackTrace::Elements(compiler.compile(template, "")?)
            };
            ExceptionField::StackTrace(form)
        }
    };
    Ok(Exception {
        root_cause,
        enabled: context.stack_trace_enabled,
        field,
    })
}

fn map_access(options: &Options<'_>) -> Result<MapAccess, String> {
    let (flatten, prefix) = match options.get(&["flatten"]) {
        None => (false, None),
        Some(Value::Bool(b)) => (*b, None),
        Some(Value::Object(_)) => (true, options.string(&["flatten", "prefix"])?),
        Some(_) => return Err(options.invalid(&["flatten"], "true, false or {\"prefix\": …}")),
    };
    let key = options.string(&["key"])?;
    let pattern = options.string(&["pattern"])?;
    let replacement = options.string(&["replacement"])?;
    options.boolean(&["stringified"])?;
    let path = options.path;
    if key.is_some() && flatten {
        return Err(format!(
            "key and flatten options cannot be combined (at {path})"
        ));
    }
    if key.is_some() && pattern.is_some() {
        return Err(format!(
            "pattern and key options cannot be combined (at {path})"
        ));
    }
    if pattern.is_none() && replacement.is_some() {
        return Err(format!(
            "replacement cannot be provided without a pattern (at {path})"
        ));
    }
    let replacement = match (pattern, replacement) {
        (Some(pattern), Some(replacement)) => {
            Some(Replacement::new(pattern, replacement).map_err(|error| {
                format!(
                    "{} ({error})",
                    options.invalid(&["replacement"], "a regex replacement")
                )
            })?)
        }
        _ => None,
    };
    Ok(MapAccess {
        key: key.map(str::to_string),
        pattern: pattern
            .map(|p| whole_regex(p, options, "pattern"))
            .transpose()?,
        replacement,
        flatten,
        prefix: prefix.unwrap_or("").to_string(),
    })
}

fn counter(options: &Options<'_>) -> Result<EventResolver, String> {
    let start = options.integer(&["start"])?.unwrap_or(0);
    let overflowing = options.boolean(&["overflowing"])?.unwrap_or(true);
    let stringified = options.boolean(&["stringified"])?.unwrap_or(false);
    Ok(EventResolver::Counter(if overflowing {
        Counter::Overflowing {
            next: AtomicI64::new(start),
            stringified,
        }
    } else {
        Counter::Wide {
            next: Mutex::new(i128::from(start)),
            stringified,
        }
    }))
}

fn case_converter(options: &Options<'_>, context: &Context<'_>) -> Result<CaseConverter, String> {
    let upper = options.one_of(&["case"], &["upper", "lower"])? == "upper";
    let strategy = match options.string(&["errorHandlingStrategy"])? {
        None | Some("replace") => Strategy::Replace,
        Some("pass") => Strategy::Pass,
        Some("fail") => Strategy::Fail,
        Some(_) => {
            return Err(options.invalid(
                &["errorHandlingStrategy"],
                "one of \"fail\", \"pass\", \"replace\"",
            ))
        }
    };
    options.string(&["locale"])?;
    let mut build = |value: &Value, path: &str| EventResolver::new(value, path, context);
    let mut compiler = Compiler {
        resolver: &mut build,
        interpolator: context.interpolator.clone(),
        limits: context.limits,
    };
    let input = compiler.compile(
        options.get(&["input"]).unwrap_or(&Value::Null),
        &format!("{}/input", options.path),
    )?;
    if matches!(&input, Node::Resolver(r) if r.flattens()) {
        return Err(format!(
            "a flattening input is not supported by caseConverter in l4rs (at {}/input)",
            options.path
        ));
    }
    let replacement = compiler.compile(
        options.get(&["replacement"]).unwrap_or(&Value::Null),
        &format!("{}/replacement", options.path),
    )?;
    Ok(CaseConverter {
        input,
        upper,
        strategy,
        replacement,
    })
}

impl MaybeResolvable for EventResolver {
    fn is_resolvable(&self) -> bool {
        match self {
            EventResolver::Exception(exception) => exception.enabled,
            EventResolver::Absent => false,
            _ => true,
        }
    }

    fn flattens(&self) -> bool {
        matches!(self, EventResolver::Mdc(map) if map.flatten)
    }
}

/// The syslog severity of a level: `(keyword, code)`, through the standard level at or above
/// it in severity, as log4j2's `Severity.getSeverity(level)` maps it.
fn severity(level: Level) -> (&'static str, i64) {
    match level.int_level() {
        i32::MIN..=99 => ("EMERG", 0),
        100..=199 => ("ALERT", 1),
        200..=299 => ("ERROR", 3),
        300..=399 => ("WARNING", 4),
        400..=499 => ("INFO", 6),
        _ => ("DEBUG", 7),
    }
}

fn with_throwable<R>(
    event: &LogEvent<'_>,
    root_cause: bool,
    f: impl FnOnce(&Throwable) -> R,
) -> Option<R> {
    let throwable = event.throwable.as_ref()?.resolve();
    Some(if root_cause {
        f(throwable.root_cause())
    } else {
        f(&throwable)
    })
}

impl Resolve<LogEvent<'_>> for EventResolver {
    fn resolvable(&self, event: &LogEvent<'_>) -> bool {
        match self {
            EventResolver::Exception(exception) => exception.enabled && event.throwable.is_some(),
            EventResolver::Mdc(map) => match &map.key {
                Some(key) => event.context_map.contains_key(key),
                None => !event.context_map.is_empty(),
            },
            EventResolver::Absent => false,
            EventResolver::Ndc(_) => !event.context_stack.is_empty(),
            EventResolver::MarkerName | EventResolver::MarkerParents => event.marker.is_some(),
            EventResolver::Source(_) => event.location.is_some(),
            EventResolver::CaseConverter(converter) => converter.input.resolvable(event),
            _ => true,
        }
    }

    fn flattening(&self) -> bool {
        self.flattens()
    }

    fn resolve(&self, event: &LogEvent<'_>, out: &mut Writer<'_>, succeeding: bool) {
        match self {
            EventResolver::TimestampPattern(formatter) => with_scratch(|text| {
                formatter.format(event.timestamp, text);
                out.string(text);
            }),
            EventResolver::TimestampEpoch(epoch) => write_epoch(epoch, event, out),
            EventResolver::Level(field) => match field {
                LevelField::Name => out.string(event.level.name()),
                LevelField::Keyword => out.string(severity(event.level).0),
                LevelField::Code => out.integer(severity(event.level).1),
            },
            EventResolver::LoggerName => out.string(event.logger_name),
            EventResolver::LoggerFqcn => out.string(LOGGER_FQCN),
            EventResolver::Message { fallback_prefix } => {
                if let Some(prefix) = fallback_prefix {
                    out.raw(prefix);
                }
                match event.message.as_str() {
                    Some(text) => out.string(text),
                    None => with_scratch(|text| {
                        event.message.write_to(text);
                        out.string(text);
                    }),
                }
                if fallback_prefix.is_some() {
                    out.raw("}");
                }
            }
            EventResolver::ThreadName => out.string(event.thread.name),
            EventResolver::ThreadId => out.integer(event.thread.id as i64),
            EventResolver::ThreadPriority => out.integer(i64::from(event.thread.priority)),
            EventResolver::Exception(exception) => {
                let written = with_throwable(event, exception.root_cause, |throwable| {
                    match &exception.field {
                        ExceptionField::ClassName => out.string(throwable.class_name()),
                        ExceptionField::Message => out.optional_string(throwable.message()),
                        // Only reachable in an array: log4j2 writes `null` for a stack
                        // trace with `stackTraceEnabled="false"`.
                        ExceptionField::StackTrace(_) if !exception.enabled => out.null(),
                        ExceptionField::StackTrace(trace) => trace.write(throwable, out),
                    }
                });
                if written.is_none() {
                    out.null();
                }
            }
            EventResolver::Mdc(map) => map.write(event, out, succeeding),
            EventResolver::Absent => out.null(),
            EventResolver::Ndc(pattern) => {
                let mut started = false;
                for item in event.context_stack.iter() {
                    if pattern.as_ref().is_some_and(|p| !p.is_match(item)) {
                        continue;
                    }
                    out.raw(if started { "," } else { "[" });
                    started = true;
                    out.string(item);
                }
                out.raw(if started { "]" } else { "null" });
            }
            EventResolver::MarkerName => out.optional_string(event.marker.map(|m| m.name())),
            EventResolver::MarkerParents => match event.marker {
                None => out.null(),
                Some(marker) => marker.with_parents(|parents| {
                    if parents.is_empty() {
                        out.null();
                        return;
                    }
                    for (index, parent) in parents.iter().enumerate() {
                        out.raw(if index == 0 { "[" } else { "," });
                        out.string(parent.name());
                    }
                    out.raw("]");
                }),
            },
            EventResolver::Source(field) => match &event.location {
                None => out.null(),
                Some(location) => match field {
                    SourceField::ClassName => out.string(location.class),
                    SourceField::MethodName => out.string(location.method),
                    SourceField::FileName => {
                        out.optional_string(Some(location.file).filter(|f| !f.is_empty()))
                    }
                    SourceField::LineNumber => out.integer(i64::from(location.line)),
                },
            },
            EventResolver::Pattern(pattern) => with_scratch(|text| {
                pattern.format(event, text);
                out.string(text);
            }),
            EventResolver::Counter(counter) => counter.write(out),
            EventResolver::CaseConverter(converter) => converter.write(event, out),
            EventResolver::EndOfBatch => out.boolean(event.end_of_batch),
            EventResolver::Constant(json) => out.raw(json),
        }
    }
}

/// Writes `digits` (a non-negative decimal) with a `.` before its last `decimals` digits.
fn write_with_point(value: i128, decimals: usize, out: &mut Writer<'_>) {
    let mut buffer = itoa::Buffer::new();
    let digits = buffer.format(value);
    if digits.len() > decimals && value >= 0 {
        let (whole, fraction) = digits.split_at(digits.len() - decimals);
        out.raw(whole);
        out.raw(".");
        out.raw(fraction);
    } else {
        // Before 1970 plus a few milliseconds: log4j2 inserts the point at a negative index
        // and fails; l4rs writes the number unpointed rather than fail the event.
        out.raw(digits);
    }
}

fn write_epoch(epoch: &Epoch, event: &LogEvent<'_>, out: &mut Writer<'_>) {
    let timestamp = event.timestamp;
    let nanos = i128::from(timestamp.epoch_seconds()) * 1_000_000_000
        + i128::from(timestamp.nano_of_second());
    match epoch {
        Epoch::Nanos => out.raw(itoa::Buffer::new().format(nanos)),
        Epoch::Millis => write_with_point(nanos, 6, out),
        Epoch::MillisRounded => out.integer(timestamp.epoch_millis),
        Epoch::MillisNanos => out.integer(i64::from(timestamp.nano_of_milli)),
        Epoch::Secs => write_with_point(nanos, 9, out),
        Epoch::SecsRounded => out.integer(timestamp.epoch_seconds()),
        Epoch::SecsNanos => out.integer(i64::from(timestamp.nano_of_second())),
    }
}

impl MapAccess {
    fn write(&self, event: &LogEvent<'_>, out: &mut Writer<'_>, succeeding: bool) {
        let map = event.context_map;
        if let Some(key) = &self.key {
            out.optional_string(map.get(key));
            return;
        }
        if map.is_empty() {
            if !self.flatten {
                out.null();
            }
            return;
        }
        if !self.flatten {
            out.raw("{");
        }
        let start = out.len();
        for (key, value) in map.iter() {
            if self.pattern.as_ref().is_some_and(|p| !p.is_match(key)) {
                continue;
            }
            if (self.flatten && succeeding) || out.len() > start {
                out.raw(",");
            }
            if self.prefix.is_empty() && self.replacement.is_none() {
                out.key(key);
            } else {
                with_scratch(|name| {
                    name.push_str(&self.prefix);
                    match &self.replacement {
                        Some(replacement) => replacement.apply(key, name),
                        None => name.push_str(key),
                    }
                    out.key(name);
                });
            }
            // MDC values are strings, so `stringified` changes nothing.
            out.string(value);
        }
        if !self.flatten {
            out.raw("}");
        }
    }
}

impl Counter {
    fn write(&self, out: &mut Writer<'_>) {
        let (value, stringified) = match self {
            Counter::Overflowing { next, stringified } => (
                i128::from(next.fetch_add(1, Ordering::Relaxed)),
                *stringified,
            ),
            Counter::Wide { next, stringified } => {
                let mut next = next.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                let value = *next;
                *next = next.saturating_add(1);
                (value, *stringified)
            }
        };
        let mut buffer = itoa::Buffer::new();
        let digits = buffer.format(value);
        if stringified {
            out.raw("\"");
            out.raw(digits);
            out.raw("\"");
        } else {
            out.raw(digits);
        }
    }
}

impl CaseConverter {
    fn write(&self, event: &LogEvent<'_>, out: &mut Writer<'_>) {
        let start = out.len();
        self.input.write(event, out);
        let json = &out.out[start..];
        let converted = if json.len() >= 2 && json.starts_with('"') && json.ends_with('"') {
            match super::reader::read(json) {
                Ok(Value::String(text)) => Some(if self.upper {
                    text.to_uppercase()
                } else {
                    text.to_lowercase()
                }),
                _ => None,
            }
        } else {
            None
        };
        match converted {
            Some(text) => {
                out.out.truncate(start);
                out.string(&text);
            }
            None if self.strategy == Strategy::Pass => {}
            // log4j2's `fail` throws out of the layout; l4rs never fails an event, so it
            // writes the replacement as `replace` does.
            None => {
                out.out.truncate(start);
                self.replacement.write(event, out);
            }
        }
    }
}
