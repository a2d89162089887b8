//! `%p` / `%level`, with `{length=n}`, `{lowerCase=true}` and `{LEVEL=label, …}`.

use l4rs_core::{status, Level};

/// The level converter. With options, log4j2 builds a label for every level known when the
/// pattern is parsed; a level registered later prints `null`.
pub(crate) struct LevelConverter {
    labels: Option<Vec<(&'static str, Box<str>)>>,
}

impl LevelConverter {
    /// Reads the single comma-separated option.
    pub(crate) fn new(option: Option<&str>) -> LevelConverter {
        let Some(option) = option else {
            return LevelConverter { labels: None };
        };
        let mut mapped: Vec<(Level, String)> = Vec::new();
        let mut length = usize::MAX;
        let mut lower_case = false;
        for definition in split_comma(option) {
            let parts: Vec<&str> = definition.split('=').collect();
            if parts.len() != 2 {
                status::error(format_args!("Invalid option {definition}"));
                continue;
            }
            let (key, value) = (parts[0].trim(), parts[1].trim());
            if key.eq_ignore_ascii_case("length") {
                match value.parse::<i64>() {
                    Ok(n) => length = n.max(0) as usize,
                    Err(_) => status::error(format_args!("Invalid option {definition}")),
                }
            } else if key.eq_ignore_ascii_case("lowerCase") {
                lower_case = value.eq_ignore_ascii_case("true");
            } else {
                match Level::from_name(key) {
                    Ok(level) => {
                        mapped.retain(|(l, _)| l.name() != level.name());
                        mapped.push((level, value.to_string()));
                    }
                    Err(_) => status::error(format_args!("Invalid Level {key}")),
                }
            }
        }
        if mapped.is_empty() && length == usize::MAX && !lower_case {
            return LevelConverter { labels: None };
        }
        let mut labels: Vec<(&'static str, Box<str>)> = mapped
            .into_iter()
            .map(|(l, v)| (l.name(), v.into_boxed_str()))
            .collect();
        for level in Level::STANDARD.into_iter().chain(Level::custom()) {
            if labels.iter().any(|(name, _)| *name == level.name()) {
                continue;
            }
            let name = level.name();
            let cut = name
                .char_indices()
                .nth(length)
                .map_or(name.len(), |(i, _)| i);
            let label = if lower_case {
                name[..cut].to_lowercase()
            } else {
                name[..cut].to_string()
            };
            labels.push((name, label.into_boxed_str()));
        }
        LevelConverter {
            labels: Some(labels),
        }
    }

    /// Appends the level's label.
    #[inline]
    pub(crate) fn format(&self, level: Level, out: &mut String) {
        match &self.labels {
            None => crate::short::push(out, level.name()),
            Some(labels) => {
                let name = level.name();
                match labels
                    .iter()
                    .find(|(n, _)| std::ptr::eq(*n, name) || *n == name)
                {
                    Some((_, label)) => out.push_str(label),
                    None => out.push_str("null"),
                }
            }
        }
    }
}

/// Java's `split("\\s*,\\s*")`: trailing empty pieces are dropped.
pub(crate) fn split_comma(text: &str) -> Vec<&str> {
    let mut pieces: Vec<&str> = text.split(',').map(str::trim).collect();
    while pieces.len() > 1 && pieces.last().is_some_and(|p| p.is_empty()) {
        pieces.pop();
    }
    pieces
}

#[cfg(test)]
mod tests {
    use crate::test_support::{event, render};
    use l4rs_core::Level;

    #[test]
    fn level_options() {
        let mut e = event();
        e.level = Level::DEBUG;
        assert_eq!(
            render(
                "%p|%level{length=1}|%level{length=10}|%level{lowerCase=true}",
                &e
            ),
            "DEBUG|D|DEBUG|debug"
        );
        assert_eq!(
            render("%level{WARN=Warning, length=2, lowerCase=true}", &e),
            "de"
        );
        e.level = Level::WARN;
        assert_eq!(
            render(
                "%level{WARN=Warning, length=2, lowerCase=true}|%-5p|%05p",
                &e
            ),
            "Warning|WARN |0WARN"
        );
    }

    #[test]
    fn levels_registered_after_parsing_print_null() {
        let pattern = crate::Pattern::compile("%level{length=1}", &Default::default()).unwrap();
        let late = Level::register("LAYOUT_LATE_LEVEL", 451);
        let mut e = event();
        e.level = late;
        let mut out = String::new();
        pattern.format(&e, &mut out);
        assert_eq!(out, "null");
        assert_eq!(render("%level{length=3}", &e), "LAY");
    }
}
