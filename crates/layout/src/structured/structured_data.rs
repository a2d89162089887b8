//! Rfc5424Layout's STRUCTURED-DATA: the MDC element and the `<LoggerFields>` elements, in the
//! order log4j2's `HashMap` of elements iterates them, each element's parameters sorted by name.

use std::cell::RefCell;

use l4rs_config::model::LoggerFieldsSpec;
use l4rs_core::LogEvent;
use l4rs_java_syntax::java_util::{compare_strings, hash_map_order, initial_table_size};

use super::fields::KeyFilter;
use super::syslog::escape_new_lines;
use crate::pattern::{Pattern, PatternOptions};
use crate::scratch::with_scratch;

/// One `<LoggerFields>` element: its id and its parameters' patterns, sorted by name.
struct FieldsElement {
    id: String,
    fields: Vec<(String, Pattern)>,
    discard_if_all_empty: bool,
}

/// An element in output order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Element {
    /// `fields[i]`, unioned with the MDC when its id is the MDC's.
    Fields(usize),
    /// The MDC on its own.
    Mdc,
}

/// What the MDC element needs from the layout.
pub(super) struct MdcElement {
    pub include: bool,
    /// `mdcId@enterpriseNumber`.
    pub id: String,
    pub prefix: Option<String>,
    pub filter: KeyFilter,
}

/// The STRUCTURED-DATA writer.
pub(super) struct StructuredData {
    mdc: MdcElement,
    /// `eventPrefix`, which log4j2 gives the LoggerFields elements.
    event_prefix: Option<String>,
    fields: Vec<FieldsElement>,
    /// The output order when the MDC has entries (and is included), and when not.
    order_with_mdc: Vec<Element>,
    order_without_mdc: Vec<Element>,
}

thread_local! {
    /// The end of each rendered field value in the shared text buffer, reused per event.
    static VALUE_ENDS: RefCell<Vec<usize>> = const { RefCell::new(Vec::new()) };
}

impl StructuredData {
    /// Compiles the `<LoggerFields>` patterns (log4j2 parses them without the implicit `%xEx`).
    pub(super) fn new(
        mdc: MdcElement,
        event_prefix: Option<String>,
        logger_fields: &[LoggerFieldsSpec],
        options: &PatternOptions,
    ) -> StructuredData {
        let mut fields: Vec<FieldsElement> = Vec::new();
        for spec in logger_fields.iter().filter(|spec| !spec.fields.is_empty()) {
            // log4j2 uses its own id only when both sdId and enterpriseId are given.
            let id = match (&spec.sd_id, &spec.enterprise_id) {
                (Some(name), Some(number)) => format!("{name}@{number}"),
                _ => mdc.id.clone(),
            };
            // A later KeyValuePair with the same key replaces the earlier one.
            let mut named: Vec<(String, Pattern)> = Vec::new();
            for (key, pattern) in &spec.fields {
                let compiled = crate::compile_or_default(pattern, options);
                match named.iter_mut().find(|(k, _)| k == key) {
                    Some(slot) => slot.1 = compiled,
                    None => named.push((key.clone(), compiled)),
                }
            }
            named.sort_by(|a, b| compare_strings(&a.0, &b.0));
            let element = FieldsElement {
                id,
                fields: named,
                discard_if_all_empty: spec.discard_if_all_fields_are_empty,
            };
            // A later element with the same id replaces the earlier one in log4j2's map.
            match fields.iter_mut().find(|f| f.id == element.id) {
                Some(slot) => *slot = element,
                None => fields.push(element),
            }
        }
        let element_count = logger_fields.len();
        let ids: Vec<&str> = fields.iter().map(|f| f.id.as_str()).collect();
        // The LoggerFields map is sized for the number of <LoggerFields> elements; the
        // elements then go into a default-sized map in that map's order, the MDC last.
        let fields_order = hash_map_order(&ids, initial_table_size(element_count), ids.len());
        let mut with_mdc: Vec<Element> = fields_order.iter().map(|&i| Element::Fields(i)).collect();
        let without_mdc: Vec<Element> = {
            let keys: Vec<&str> = fields_order.iter().map(|&i| ids[i]).collect();
            hash_map_order(&keys, 16, keys.len())
                .into_iter()
                .map(|position| with_mdc[position])
                .collect()
        };
        if !ids.contains(&mdc.id.as_str()) {
            let mut keys: Vec<&str> = fields_order.iter().map(|&i| ids[i]).collect();
            keys.push(&mdc.id);
            with_mdc.push(Element::Mdc);
            with_mdc = hash_map_order(&keys, 16, keys.len())
                .into_iter()
                .map(|position| with_mdc[position])
                .collect();
        } else {
            with_mdc = without_mdc.clone();
        }
        StructuredData {
            mdc,
            event_prefix,
            fields,
            order_with_mdc: with_mdc,
            order_without_mdc: without_mdc,
        }
    }

    /// True when a `<LoggerFields>` pattern prints the caller's location.
    pub(super) fn requires_location(&self) -> bool {
        self.fields
            .iter()
            .flat_map(|element| &element.fields)
            .any(|(_, pattern)| pattern.requires_location())
    }

    /// Writes the elements, or `-` without any. (Elements that are all discarded write
    /// nothing at all, as in log4j2.)
    pub(super) fn write(
        &self,
        event: &LogEvent<'_>,
        new_line_escape: Option<&str>,
        out: &mut String,
    ) {
        let mdc_present = self.mdc.include && !event.context_map.is_empty();
        let order = if mdc_present {
            &self.order_with_mdc
        } else {
            &self.order_without_mdc
        };
        if order.is_empty() {
            out.push('-');
            return;
        }
        for element in order {
            match *element {
                Element::Mdc => {
                    let entries = event
                        .context_map
                        .iter()
                        .filter(|(k, _)| self.mdc.filter.keeps(k));
                    write_element(
                        &self.mdc.id,
                        self.mdc.prefix.as_deref(),
                        entries,
                        new_line_escape,
                        out,
                    );
                }
                Element::Fields(index) => self.write_fields(
                    &self.fields[index],
                    event,
                    mdc_present,
                    new_line_escape,
                    out,
                ),
            }
        }
    }

    fn write_fields(
        &self,
        element: &FieldsElement,
        event: &LogEvent<'_>,
        mdc_present: bool,
        new_line_escape: Option<&str>,
        out: &mut String,
    ) {
        with_scratch(|text| {
            let mut ends_owned = VALUE_ENDS
                .try_with(|ends| std::mem::take(&mut *ends.borrow_mut()))
                .unwrap_or_default();
            ends_owned.clear();
            for (_, pattern) in &element.fields {
                pattern.format(event, text);
                ends_owned.push(text.len());
            }
            let ends = &ends_owned;
            let text = &*text;
            let values = || {
                element
                    .fields
                    .iter()
                    .enumerate()
                    .map(move |(index, (key, _))| {
                        let start = if index == 0 { 0 } else { ends[index - 1] };
                        (key.as_str(), &text[start..ends[index]])
                    })
            };
            let is_mdc = element.id == self.mdc.id;
            let union = is_mdc && mdc_present;
            let merged = || merge(values(), event.context_map.iter().filter(move |_| union));
            let discard = element.discard_if_all_empty && merged().all(|(_, v)| v.is_empty());
            if !discard {
                // The MDC's includes and excludes apply to every parameter of its element.
                let kept = merged().filter(|(k, _)| !is_mdc || self.mdc.filter.keeps(k));
                write_element(
                    &element.id,
                    self.event_prefix.as_deref(),
                    kept,
                    new_line_escape,
                    out,
                );
            }
            let _ = VALUE_ENDS.try_with(|slot| *slot.borrow_mut() = ends_owned);
        });
    }
}

/// `[id name="value" …]` with the parameter names and values escaped (`"`, `\` and `]`, then
/// new lines when `newLineEscape` is set).
fn write_element<'a>(
    id: &str,
    prefix: Option<&str>,
    params: impl Iterator<Item = (&'a str, &'a str)>,
    new_line_escape: Option<&str>,
    out: &mut String,
) {
    out.push('[');
    out.push_str(id);
    for (key, value) in params {
        out.push(' ');
        if let Some(prefix) = prefix {
            out.push_str(prefix);
        }
        write_param_text(key, new_line_escape, out);
        out.push_str("=\"");
        write_param_text(value, new_line_escape, out);
        out.push('"');
    }
    out.push(']');
}

fn write_param_text(text: &str, new_line_escape: Option<&str>, out: &mut String) {
    let escape_params = |text: &str, out: &mut String| {
        for c in text.chars() {
            if matches!(c, '"' | '\\' | ']') {
                out.push('\\');
            }
            out.push(c);
        }
    };
    match new_line_escape {
        Some(escape) if text.contains('\n') => with_scratch(|escaped| {
            escape_params(text, escaped);
            escape_new_lines(escaped, escape, out);
        }),
        _ => escape_params(text, out),
    }
}

/// Two key-sorted sequences as one, the second's value winning on equal keys (log4j2's
/// `putAll` of the MDC into the LoggerFields element).
fn merge<'a>(
    first: impl Iterator<Item = (&'a str, &'a str)>,
    second: impl Iterator<Item = (&'a str, &'a str)>,
) -> impl Iterator<Item = (&'a str, &'a str)> {
    Merge {
        first: first.peekable(),
        second: second.peekable(),
    }
}

struct Merge<A: Iterator, B: Iterator> {
    first: std::iter::Peekable<A>,
    second: std::iter::Peekable<B>,
}

impl<'a, A, B> Iterator for Merge<A, B>
where
    A: Iterator<Item = (&'a str, &'a str)>,
    B: Iterator<Item = (&'a str, &'a str)>,
{
    type Item = (&'a str, &'a str);

    fn next(&mut self) -> Option<Self::Item> {
        match (self.first.peek(), self.second.peek()) {
            (Some(a), Some(b)) => match compare_strings(a.0, b.0) {
                std::cmp::Ordering::Less => self.first.next(),
                std::cmp::Ordering::Greater => self.second.next(),
                std::cmp::Ordering::Equal => {
                    self.first.next();
                    self.second.next()
                }
            },
            (Some(_), None) => self.first.next(),
            (None, _) => self.second.next(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_lets_the_second_win() {
        let first = [("a", "1"), ("c", "3")];
        let second = [("b", "x"), ("c", "y")];
        let merged: Vec<_> = merge(first.iter().copied(), second.iter().copied()).collect();
        assert_eq!(merged, vec![("a", "1"), ("b", "x"), ("c", "y")]);
    }
}
