//! `%replace{pattern}{regex}{replacement}`: Java's `replaceAll` on the sub-pattern's output.

use l4rs_core::{status, LogEvent};
use l4rs_java_syntax::regex::Replacement;

use super::CreateError;
use crate::parser::{self, ParseOptions};
use crate::pattern::Pattern;
use crate::scratch::with_scratch;

/// The `%replace` converter.
pub(crate) struct ReplaceConverter {
    pub pattern: Pattern,
    replacement: Replacement,
}

impl ReplaceConverter {
    /// Requires three options.
    pub(crate) fn new(
        options: &[String],
        parse: &ParseOptions,
    ) -> Result<ReplaceConverter, CreateError> {
        if options.len() != 3 {
            status::error(format_args!(
                "Incorrect number of options on replace. Expected 3 received {}",
                options.len()
            ));
            return Err(CreateError::Failed);
        }
        let replacement = Replacement::new(&options[1], &options[2]).map_err(|reason| {
            if reason.is_unsupported() {
                // Java would have built it: say so rather than quote Java's exception.
                status::error(format_args!(
                    "%replace with regex \"{}\" cannot be created: {reason}; rewrite the expression without it",
                    options[1]
                ));
            } else {
                status::error(format_args!(
                    "Error creating converter for replace java.util.regex.PatternSyntaxException: {reason}"
                ));
            }
            CreateError::Failed
        })?;
        Ok(ReplaceConverter {
            pattern: parser::parse_nested(&options[0], parse)?,
            replacement,
        })
    }

    /// log4j2 formats the sub-pattern into a fresh buffer (so `%ex` inside sees no
    /// preceding text) and appends the replaced result.
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        with_scratch(|buffer| {
            self.pattern.format_from(event, buffer, 0);
            self.replacement.apply(buffer, out);
        });
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{event, render};

    #[test]
    fn replace_sub_output() {
        let e = event();
        assert_eq!(
            render("%replace{%c}{\\.}{/}|%replace{%m}{o}{0}", &e),
            "org/apache/commons/test/Foo|Hell0, w0rld"
        );
        // Java's dialect: `(?i)` folds ASCII letters only, `\d` is ASCII digits.
        assert_eq!(render("%replace{%m}{(?i)HELLO|\\d}{x}", &e), "x, world");
    }

    #[test]
    fn a_construct_java_has_and_l4rs_lacks_is_named() {
        let (_, records) = l4rs_core::status::capture(|| {
            crate::pattern::Pattern::compile(
                "%replace{%m}{(?=x)}{y}",
                &crate::pattern::PatternOptions::default(),
            )
        });
        assert!(
            records.iter().any(|r| r.message.contains(
                "%replace with regex \"(?=x)\" cannot be created: a lookahead group (near index 0) is not supported by l4rs"
            )),
            "{records:?}"
        );
    }
}
