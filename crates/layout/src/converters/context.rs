//! `%X` (MDC), `%x` (NDC) and the marker converters.

use l4rs_core::LogEvent;

/// `%X` / `%mdc` / `%MDC`: the whole map, one key, or a list of keys.
pub(crate) enum MdcConverter {
    /// `{k1=v1, k2=v2}` sorted by key; `{}` when empty.
    Full,
    /// The value of one key, or nothing.
    Key(Box<str>),
    /// `{k1=v1, k2=v2}` for the listed keys that are present, in listed order.
    Keys(Vec<Box<str>>),
}

impl MdcConverter {
    /// Reads the option as log4j2 does: a comma after the first character makes a key list
    /// (trimmed keys); otherwise the option is one key, untrimmed.
    pub(crate) fn new(option: Option<&str>) -> MdcConverter {
        match option {
            None => MdcConverter::Full,
            Some(option) => match option.find(',') {
                Some(index) if index > 0 => {
                    let mut keys: Vec<Box<str>> =
                        option.split(',').map(|k| k.trim().into()).collect();
                    // Java's String.split drops trailing empty strings.
                    while keys.last().is_some_and(|k| k.is_empty()) && keys.len() > 1 {
                        keys.pop();
                    }
                    MdcConverter::Keys(keys)
                }
                _ => MdcConverter::Key(option.into()),
            },
        }
    }

    /// Appends the MDC text.
    pub(crate) fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        let map = event.context_map;
        match self {
            MdcConverter::Full => {
                out.push('{');
                for (index, (key, value)) in map.iter().enumerate() {
                    if index > 0 {
                        out.push_str(", ");
                    }
                    out.push_str(key);
                    out.push('=');
                    out.push_str(value);
                }
                out.push('}');
            }
            MdcConverter::Key(key) => {
                if let Some(value) = map.get(key) {
                    out.push_str(value);
                }
            }
            MdcConverter::Keys(keys) => {
                out.push('{');
                let mut first = true;
                if !map.is_empty() {
                    for key in keys {
                        if let Some(value) = map.get(key) {
                            if !first {
                                out.push_str(", ");
                            }
                            first = false;
                            out.push_str(key);
                            out.push('=');
                            out.push_str(value);
                        }
                    }
                }
                out.push('}');
            }
        }
    }
}

/// `%x` / `%NDC`: `[bottom, …, top]`, `[]` when empty.
pub(crate) fn format_ndc(event: &LogEvent<'_>, out: &mut String) {
    out.push('[');
    for (index, entry) in event.context_stack.iter().enumerate() {
        if index > 0 {
            out.push_str(", ");
        }
        out.push_str(entry);
    }
    out.push(']');
}

/// `%marker`: the marker with its ancestry, `NAME[ PARENT ]`.
pub(crate) fn format_marker(event: &LogEvent<'_>, out: &mut String) {
    if let Some(marker) = event.marker {
        marker.write_full(out);
    }
}

/// `%markerSimpleName`: the marker's name only.
pub(crate) fn format_marker_simple_name(event: &LogEvent<'_>, out: &mut String) {
    if let Some(marker) = event.marker {
        out.push_str(marker.name());
    }
}

#[cfg(test)]
mod tests {
    use crate::test_support::{event, render};
    use l4rs_core::{ContextMap, ContextStack, Marker};

    #[test]
    fn mdc_forms() {
        let mut e = event();
        assert_eq!(render("%X|%X{a}|%X{a,b}|%mdc|%MDC", &e), "{}||{}|{}|{}");
        let mut map = ContextMap::new();
        map.insert("subject", "I");
        map.insert("verb", "love");
        map.insert("object", "Log4j");
        e.context_map = &map;
        assert_eq!(
            render(
                "%X|%X{object}|%X{object, subject}|%X{verb,missing}|%X{missing}|%X{ verb}",
                &e
            ),
            "{object=Log4j, subject=I, verb=love}|Log4j|{object=Log4j, subject=I}|{verb=love}||"
        );
    }

    #[test]
    fn ndc_and_markers() {
        let mut e = event();
        assert_eq!(
            render("%x|%NDC|[%marker]|[%markerSimpleName]", &e),
            "[]|[]|[]|[]"
        );
        let mut stack = ContextStack::new();
        stack.push("foo");
        stack.push("bar");
        e.context_stack = &stack;
        let marker = Marker::get("LAYOUT_CTX_AUDIT");
        marker.set_parents(vec![Marker::get("LAYOUT_CTX_EVENT")]);
        e.marker = Some(&marker);
        assert_eq!(
            render("%x|%marker|%markerSimpleName", &e),
            "[foo, bar]|LAYOUT_CTX_AUDIT[ LAYOUT_CTX_EVENT ]|LAYOUT_CTX_AUDIT"
        );
    }
}
