//! `%C %M %L %F %l`: the caller's location, when the event carries one.

use l4rs_core::LogEvent;

use super::names::NameAbbreviator;
use super::thread::push_integer;

/// `%C`: the caller's class (module path), abbreviated; `?` without a location.
pub(crate) fn format_class(event: &LogEvent<'_>, abbreviator: &NameAbbreviator, out: &mut String) {
    match &event.location {
        Some(location) => abbreviator.abbreviate(location.class, out),
        None => out.push('?'),
    }
}

/// `%M`: the caller's method, or nothing.
pub(crate) fn format_method(event: &LogEvent<'_>, out: &mut String) {
    if let Some(location) = &event.location {
        crate::short::push(out, location.method);
    }
}

/// `%L`: the caller's line, or nothing.
pub(crate) fn format_line(event: &LogEvent<'_>, out: &mut String) {
    if let Some(location) = &event.location {
        push_integer(out, location.line as i64);
    }
}

/// `%F`: the caller's file name, or nothing.
pub(crate) fn format_file(event: &LogEvent<'_>, out: &mut String) {
    if let Some(location) = &event.location {
        out.push_str(location.file);
    }
}

/// `%l`: Java's `StackTraceElement.toString()` of the caller. A Rust module path (one that
/// contains `::`) is joined to the function with `::`, as Rust frames print.
pub(crate) fn format_location(event: &LogEvent<'_>, out: &mut String) {
    let Some(location) = &event.location else {
        return;
    };
    out.push_str(location.class);
    if !location.class.is_empty() {
        out.push_str(if location.class.contains("::") {
            "::"
        } else {
            "."
        });
    }
    out.push_str(location.method);
    out.push('(');
    if location.line == -2 {
        out.push_str("Native Method");
    } else {
        out.push_str(location.file);
        if location.line >= 0 {
            out.push(':');
            push_integer(out, location.line as i64);
        }
    }
    out.push(')');
}

#[cfg(test)]
mod tests {
    use crate::test_support::{event, render};
    use l4rs_core::Location;

    #[test]
    fn location_converters_print_the_caller_or_placeholders() {
        let mut e = event();
        assert_eq!(render("%C|%M|%L|%F|%l|", &e), "?|||||");
        e.location = Some(Location {
            class: "com.example.Foo",
            method: "doIt",
            file: "Foo.java",
            line: 123,
        });
        assert_eq!(
            render("%C|%C{1}|%M|%L|%F|%l|%class|%method|%line|%file|%location", &e),
            "com.example.Foo|Foo|doIt|123|Foo.java|com.example.Foo.doIt(Foo.java:123)|com.example.Foo|doIt|123|Foo.java|com.example.Foo.doIt(Foo.java:123)"
        );
        e.location = Some(Location {
            class: "app::db",
            method: "query",
            file: "db.rs",
            line: 7,
        });
        assert_eq!(render("%l", &e), "app::db::query(db.rs:7)");
    }
}
