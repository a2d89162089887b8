//! Format modifiers from a hostile or broken configuration: widths too long for log4j2's `int`
//! and huge paddings are refused at parse time with an ERROR, wide paddings cost time linear in
//! the width, and every event still prints its text.

use std::time::{Duration, Instant};

use l4rs_core::{status, Layout, Level, LogEvent, Message};
use l4rs_layout::PatternLayout;

const TWENTY_NINES: &str = "99999999999999999999";

/// The largest minimum width l4rs accepts (`MAX_PADDING_WIDTH` in `modifiers.rs`).
const MAX_PADDING_WIDTH: usize = 1 << 20;

fn event() -> LogEvent<'static> {
    LogEvent::new(
        "org.apache.commons.test.Foo",
        Level::INFO,
        Message::Text("Hello, world"),
    )
}

/// Builds the layout for `pattern`, formats one event, and returns the text with the status
/// messages reported while building and formatting.
fn format(pattern: &str) -> (String, Vec<String>) {
    let (out, records) = status::capture(|| {
        let layout = PatternLayout::from_pattern(pattern);
        let mut out = String::new();
        layout.format(&event(), &mut out);
        out
    });
    (out, records.into_iter().map(|r| r.message).collect())
}

#[test]
fn widths_beyond_a_java_int_are_refused_and_the_converter_prints_unchanged() {
    for (modifier, what) in [
        (format!("-{TWENTY_NINES}"), "minimum"),
        (TWENTY_NINES.to_string(), "minimum"),
        (format!("0{TWENTY_NINES}"), "minimum"),
        (format!(".{TWENTY_NINES}"), "maximum"),
        (format!(".-{TWENTY_NINES}"), "maximum"),
        (".2147483648".to_string(), "maximum"),
        (format!("5.{TWENTY_NINES}"), "maximum"),
    ] {
        let pattern = format!("[%{modifier}c] %m");
        let started = Instant::now();
        let (out, messages) = format(&pattern);
        assert!(started.elapsed() < Duration::from_secs(5), "{pattern}");
        // `%5.…c` keeps its minimum width (the logger name is longer anyway).
        assert_eq!(
            out, "[org.apache.commons.test.Foo] Hello, world",
            "{pattern}"
        );
        assert_eq!(messages.len(), 1, "{pattern}: {messages:?}");
        assert!(
            messages[0].starts_with(&format!(
                "The {what} width of %{modifier}c in pattern '{pattern}' is larger than"
            )),
            "{pattern}: {}",
            messages[0]
        );
    }
}

#[test]
fn minimum_widths_above_the_limit_are_refused_and_widths_up_to_it_are_honoured() {
    let (out, messages) = format(&format!("%{}c|", MAX_PADDING_WIDTH + 1));
    assert_eq!(out, "org.apache.commons.test.Foo|");
    assert_eq!(
        messages,
        [format!(
            "The minimum width of %{width}c in pattern '%{width}c|' is larger than {MAX_PADDING_WIDTH}; the converter is printed without padding. Use a width of at most {MAX_PADDING_WIDTH}.",
            width = MAX_PADDING_WIDTH + 1
        )]
    );
    // The largest width log4j2 accepts is refused as well (log4j2 runs out of memory on it).
    let (out, messages) = format("%-2147483647c|");
    assert_eq!(out, "org.apache.commons.test.Foo|");
    assert_eq!(messages.len(), 1, "{messages:?}");

    let (out, messages) = format(&format!("%{MAX_PADDING_WIDTH}c|%-{MAX_PADDING_WIDTH}c|"));
    assert!(messages.is_empty(), "{messages:?}");
    let padding = " ".repeat(MAX_PADDING_WIDTH - 27);
    assert_eq!(
        out,
        format!("{padding}org.apache.commons.test.Foo|org.apache.commons.test.Foo{padding}|")
    );
}

#[test]
fn maximum_widths_that_fit_a_java_int_truncate_as_in_log4j2_without_a_message() {
    let (out, messages) = format("[%.2147483647c][%.-2147483647c][%.0c][%.3c][%.-3c]");
    assert!(messages.is_empty(), "{messages:?}");
    assert_eq!(
        out,
        "[org.apache.commons.test.Foo][org.apache.commons.test.Foo][][Foo][org]"
    );
}

#[test]
fn the_widest_padding_costs_time_linear_in_the_width() {
    // Inserting the padding a chunk at a time took about 0.25 s per event at this width
    // (quadratic); linear padding takes a few milliseconds even in a debug build.
    let layout = PatternLayout::from_pattern(&format!(
        "%{MAX_PADDING_WIDTH}c|%0{MAX_PADDING_WIDTH}p|%-{MAX_PADDING_WIDTH}m%n"
    ));
    let event = event();
    let mut out = String::new();
    let started = Instant::now();
    for _ in 0..20 {
        out.clear();
        layout.format(&event, &mut out);
    }
    let elapsed = started.elapsed();
    assert_eq!(out.len(), 3 * MAX_PADDING_WIDTH + 3);
    assert!(out.starts_with(' ') && out.contains("|0000") && out.ends_with(" \n"));
    assert!(
        elapsed < Duration::from_secs(3),
        "20 events with three 1 MiB paddings took {elapsed:?}"
    );
}
