//! `%ex` / `%xEx` / `%rEx` and their aliases: exception traces as log4j2 2.19 prints them.

mod lines;
mod options;
pub(crate) mod render;

use l4rs_core::LogEvent;

use crate::converters::CreateError;
use crate::parser::{self, ParseOptions};
use crate::pattern::Pattern;
use crate::scratch::with_scratch;

use options::{Property, ThrowableOptions};
use render::{ProxyStyle, Sink};

/// Which trace layout a key selects.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flavor {
    /// `%ex`, `%exception`, `%throwable`: `printStackTrace()`.
    Standard,
    /// `%xEx`, `%xException`, `%xThrowable`: extended frames, no line limit in 2.19.
    Extended,
    /// `%rEx`, `%rException`, `%rThrowable`: root cause first.
    Root,
}

/// A throwable converter.
pub(crate) struct ThrowableConverter {
    flavor: Flavor,
    options: ThrowableOptions,
    suffix: Option<Pattern>,
}

impl ThrowableConverter {
    /// Builds the converter from its options.
    pub(crate) fn new(
        flavor: Flavor,
        raw: &[String],
        parse: &ParseOptions,
    ) -> Result<ThrowableConverter, CreateError> {
        let options = ThrowableOptions::parse(raw).map_err(|message| {
            l4rs_core::status::error(format_args!(
                "Error creating converter java.lang.NumberFormatException: {message}"
            ));
            CreateError::Failed
        })?;
        let suffix = match &options.suffix {
            Some(text) => Some(parser::parse_nested(text, parse)?.without_throwable_converters()),
            None => None,
        };
        Ok(ThrowableConverter {
            flavor,
            options,
            suffix,
        })
    }

    /// The `%xEx` that `alwaysWriteExceptions` adds.
    pub(crate) fn implicit() -> ThrowableConverter {
        ThrowableConverter {
            flavor: Flavor::Extended,
            options: ThrowableOptions::default_options(),
            suffix: None,
        }
    }

    /// The `suffix(…)` pattern, if any.
    pub(crate) fn suffix(&self) -> Option<&Pattern> {
        self.suffix.as_ref()
    }

    /// Appends the event's throwable, if any.
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String, base: usize) {
        let Some(throwable) = &event.throwable else {
            return;
        };
        match &self.suffix {
            None => self.render(throwable, "", out, base),
            Some(pattern) => with_scratch(|suffix| {
                pattern.format_from(event, suffix, 0);
                self.render(throwable, suffix, out, base);
            }),
        }
    }

    fn render(
        &self,
        throwable: &l4rs_core::ThrowableRef<'_>,
        suffix: &str,
        out: &mut String,
        base: usize,
    ) {
        let throwable = throwable.resolve();
        let options = &self.options;
        if let (Flavor::Standard, Some(property)) = (self.flavor, options.property) {
            let Some(first) = throwable.frames().first() else {
                return;
            };
            insert_space(out, base);
            match property {
                Property::ClassName => out.push_str(&first.class),
                Property::MethodName => out.push_str(&first.method),
                Property::LineNumber => super::thread::push_integer(out, i64::from(first.line)),
                Property::FileName => out.push_str(first.file.as_deref().unwrap_or("null")),
                Property::Message | Property::LocalizedMessage => {
                    out.push_str(throwable.message().unwrap_or("null"))
                }
            }
            if !is_blank(suffix) {
                out.push(' ');
                out.push_str(suffix);
            }
            return;
        }
        if options.lines == 0 {
            return;
        }
        insert_space(out, base);
        let style = ProxyStyle {
            separator: &options.separator,
            suffix,
            filters: &options.filters,
        };
        match self.flavor {
            Flavor::Standard => {
                let plain = options.all_lines()
                    && options.separator == super::runtime::LINE_SEPARATOR
                    && is_blank(suffix);
                let mut sink = if plain {
                    Sink::direct(out)
                } else {
                    Sink::split(
                        out,
                        options.lines,
                        &options.separator,
                        (!is_blank(suffix)).then_some(suffix),
                    )
                };
                render::standard(&throwable, &mut sink);
                sink.finish();
            }
            Flavor::Extended => {
                let mut sink = Sink::direct(out);
                render::extended(&throwable, &style, &mut sink);
            }
            Flavor::Root => {
                let plain =
                    options.all_lines() && options.separator == super::runtime::LINE_SEPARATOR;
                let mut sink = if plain {
                    Sink::direct(out)
                } else {
                    Sink::split(out, options.lines, &options.separator, None)
                };
                render::root_first(&throwable, &style, &mut sink);
                sink.finish();
            }
        }
    }
}

/// log4j2 2.19 puts one space between a trace and preceding text that does not end in
/// whitespace. Only the layout's own output counts (from `base`).
fn insert_space(out: &mut String, base: usize) {
    if let Some(last) = out[base.min(out.len())..].chars().next_back() {
        if !is_java_whitespace(last) {
            out.push(' ');
        }
    }
}

/// Java's `Character.isWhitespace`.
pub(crate) fn is_java_whitespace(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | '\u{1c}'..='\u{1f}'
    ) || (c.is_whitespace() && !matches!(c, '\u{a0}' | '\u{2007}' | '\u{202f}' | '\u{85}'))
}

/// Java's `Strings.isBlank`: empty or whitespace only.
fn is_blank(text: &str) -> bool {
    text.chars().all(is_java_whitespace)
}
