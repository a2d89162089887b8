//! `%ex` options: log4j2 2.19's `ThrowableFormatOptions`.

use crate::converters::level::split_comma;

/// The `short.*` options that print one property instead of a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Property {
    ClassName,
    MethodName,
    LineNumber,
    FileName,
    Message,
    LocalizedMessage,
}

impl Property {
    fn parse(option: &str) -> Option<Property> {
        const NAMES: [(&str, Property); 6] = [
            ("short.className", Property::ClassName),
            ("short.methodName", Property::MethodName),
            ("short.lineNumber", Property::LineNumber),
            ("short.fileName", Property::FileName),
            ("short.message", Property::Message),
            ("short.localizedMessage", Property::LocalizedMessage),
        ];
        NAMES
            .iter()
            .find(|(name, _)| name.eq_ignore_ascii_case(option))
            .map(|(_, property)| *property)
    }
}

/// Parsed options.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ThrowableOptions {
    /// Lines to print (`usize::MAX`: all).
    pub lines: usize,
    /// The line separator (`separator(…)`).
    pub separator: String,
    /// Frame class prefixes to leave out (`filters(…)`).
    pub filters: Vec<String>,
    /// The suffix pattern (`suffix(…)` / `S(…)`), unparsed.
    pub suffix: Option<String>,
    /// `short.*` in the first option: print one property.
    pub property: Option<Property>,
}

impl ThrowableOptions {
    /// The defaults: everything, `\n`-separated, no filters, no suffix.
    pub(super) fn default_options() -> ThrowableOptions {
        ThrowableOptions {
            lines: usize::MAX,
            separator: crate::converters::runtime::LINE_SEPARATOR.to_string(),
            filters: Vec::new(),
            suffix: None,
            property: None,
        }
    }

    /// True when every line is printed.
    pub(super) fn all_lines(&self) -> bool {
        self.lines == usize::MAX
    }

    /// Parses the `{…}` options. `Err` carries Java's `NumberFormatException` text for an
    /// option that is none of the known words and not a number.
    pub(super) fn parse(raw: &[String]) -> Result<ThrowableOptions, String> {
        let mut options = ThrowableOptions::default_options();
        if raw.is_empty() {
            return Ok(options);
        }
        options.property = Property::parse(&raw[0]);
        // log4j2 still accepts the old single-option form `{n,filters(…)}`.
        let mut list: Vec<String> = raw.to_vec();
        if raw.len() == 1 && !raw[0].is_empty() {
            if let Some((first, rest)) = raw[0].split_once(',') {
                let first = first.trim();
                let numeric = first.parse::<i64>().is_ok();
                if numeric
                    || first.eq_ignore_ascii_case("full")
                    || first.eq_ignore_ascii_case("short")
                    || first.eq_ignore_ascii_case("none")
                {
                    list = vec![first.to_string(), rest.trim().to_string()];
                }
            }
        }
        for raw_option in &list {
            let option = raw_option.trim();
            if option.is_empty() {
                continue;
            }
            if let Some(inner) = enclosed(option, "separator(") {
                options.separator = inner.to_string();
            } else if let Some(inner) = enclosed(option, "filters(") {
                if !inner.is_empty() {
                    options.filters = split_comma(inner)
                        .into_iter()
                        .filter(|p| !p.is_empty())
                        .map(str::to_string)
                        .collect();
                }
            } else if option.eq_ignore_ascii_case("none") {
                options.lines = 0;
            } else if option.eq_ignore_ascii_case("short") || Property::parse(option).is_some() {
                options.lines = 2;
            } else if option == "ansi" || enclosed(option, "ansi(").is_some() {
                // JAnsi colouring of traces is not supported; the plain trace is printed.
            } else if let Some(inner) =
                enclosed(option, "S(").or_else(|| enclosed(option, "suffix("))
            {
                options.suffix = Some(inner.to_string());
            } else if !option.eq_ignore_ascii_case("full") {
                match option.parse::<i64>() {
                    Ok(n) if n == i64::from(i32::MAX) => options.lines = usize::MAX,
                    Ok(n) if n >= i64::from(i32::MIN) && n <= i64::from(i32::MAX) => {
                        options.lines = n.max(0) as usize
                    }
                    _ => return Err(format!("For input string: \"{option}\"")),
                }
            }
        }
        Ok(options)
    }
}

fn enclosed<'a>(option: &'a str, prefix: &str) -> Option<&'a str> {
    option.strip_prefix(prefix)?.strip_suffix(')')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(options: &[&str]) -> ThrowableOptions {
        ThrowableOptions::parse(&options.iter().map(|s| s.to_string()).collect::<Vec<_>>()).unwrap()
    }

    #[test]
    fn option_words() {
        assert_eq!(parse(&[]).lines, usize::MAX);
        assert_eq!(parse(&["short"]).lines, 2);
        assert_eq!(parse(&["SHORT"]).lines, 2);
        assert_eq!(parse(&["Full"]).lines, usize::MAX);
        assert_eq!(parse(&[" 3 "]).lines, 3);
        assert_eq!(parse(&["none"]).lines, 0);
        assert_eq!(parse(&["2147483647"]).lines, usize::MAX);
        let p = parse(&["short.lineNumber"]);
        assert_eq!((p.lines, p.property), (2, Some(Property::LineNumber)));
        let p = parse(&["3,filters(a.b, c)"]);
        assert_eq!(
            (p.lines, p.filters.clone()),
            (3, vec!["a.b".to_string(), "c".to_string()])
        );
        let p = parse(&["full", "separator(|)", "suffix(%p)"]);
        assert_eq!(
            (p.separator.as_str(), p.suffix.as_deref()),
            ("|", Some("%p"))
        );
        assert!(ThrowableOptions::parse(&["short.foo".to_string()]).is_err());
    }
}
