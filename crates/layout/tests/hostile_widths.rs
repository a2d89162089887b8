//! Widths from a hostile or broken configuration: format modifiers too long for log4j2's `int`
//! and huge paddings are refused at parse time with an ERROR, wide paddings cost time linear in
//! the width, and every event still prints its text; `%maxLen` lengths that are negative, zero
//! or not numbers print what log4j2 2.19/2.24 print (checked against the oracle).

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

#[test]
fn max_len_reads_its_length_as_log4j2_integers_parse_int() {
    let cases = [
        ("[%maxLen{%m}{0}]", "[]", None),
        ("[%maxLen{%m}{+5}]", "[Hello]", None),
        ("[%maxLen{%m}{ 5 }]", "[Hello]", None),
        ("[%maxLen{%m}{\t7\t}]", "[Hello, ]", None),
        ("[%maxLen{%m}{}]", "[Hello, world]", None),
        (
            "[%maxLen{%m}{abc}]",
            "[Hello, world]",
            Some("Could not parse \"abc\" as an integer,  using default value 100: java.lang.NumberFormatException: For input string: \"abc\""),
        ),
        (
            "[%maxLen{%m}{ }]",
            "[Hello, world]",
            Some("Could not parse \" \" as an integer,  using default value 100: java.lang.NumberFormatException: For input string: \"\""),
        ),
        (
            "[%maxLen{%m}{2147483648}]",
            "[Hello, world]",
            Some("Could not parse \"2147483648\" as an integer,  using default value 100: java.lang.NumberFormatException: For input string: \"2147483648\""),
        ),
        ("[%maxLen{%m%m}{21}]", "[Hello, worldHello, wo...]", None),
        ("[%maxLen{%m}{2147483647}]", "[Hello, world]", None),
    ];
    for (pattern, expected, message) in cases {
        let (out, messages) = format(pattern);
        assert_eq!(out, expected, "{pattern}");
        assert_eq!(
            messages,
            message.into_iter().collect::<Vec<_>>(),
            "{pattern}"
        );
    }
}

#[test]
fn a_negative_max_len_cuts_the_text_before_it_as_log4j2_does_and_is_reported() {
    // log4j2 sets its buffer back to `start + n`: the sub-pattern prints nothing and the `-n`
    // UTF-16 units before the converter go too (a surrogate pair cut in half leaves `?`).
    let cases = [
        ("abcdefgh%maxLen{%m}{-3}|", "abcde|"),
        (
            "0123456789012345678901234567890123456789[%maxLen{%m}{-25}]",
            "0123456789012345]",
        ),
        ("a😀%maxLen{%m}{-1}|", "a?|"),
        ("%maxLen{ab%maxLen{%m}{-1}cd}{10}|", "acd|"),
        // log4j2 throws here (fewer characters precede) and the appender loses the event; l4rs
        // removes those there are and keeps the rest.
        ("[x]%maxLen{%m}{-5}[y]", "[y]"),
    ];
    for (pattern, expected) in cases {
        let (out, messages) = format(pattern);
        assert_eq!(out, expected, "{pattern}");
        assert_eq!(messages.len(), 1, "{pattern}: {messages:?}");
        assert!(
            messages[0].starts_with("The length -") && messages[0].contains("is negative"),
            "{pattern}: {}",
            messages[0]
        );
    }
    let (_, messages) = format("x%maxLen{%m}{-5}");
    assert_eq!(
        messages,
        ["The length -5 of maxLength{%m}{-5} is negative: as in log4j2, the converter prints nothing and removes the 5 characters before it (log4j2 fails the whole event when fewer precede it; l4rs then removes those there are). Use a length of 0 or more."]
    );
}

#[test]
fn max_len_stops_running_its_converters_once_past_the_length() {
    // The `%sn` after the cut is not run, as in log4j2 (the oracle prints `1|Hel|2`).
    let (out, _) = format("%sn|%maxLen{%m%sn}{3}|%sn");
    let numbers: Vec<u64> = out
        .split('|')
        .filter_map(|part| part.parse().ok())
        .collect();
    assert_eq!(out.split('|').nth(1), Some("Hel"), "{out}");
    assert_eq!(numbers.len(), 2, "{out}");
    assert_eq!(numbers[1], numbers[0] + 1, "{out}");
}

#[test]
fn a_negative_max_len_inside_other_converters_never_panics() {
    // The cut reaches into the text before the enclosing converter, and text appended after
    // it can leave that converter's start inside a character.
    for inner in [
        "%maxLen{%m}{-3}",
        "%maxLen{%m}{-3}ééé",
        "%maxLen{%m}{-4}😀é",
    ] {
        for outer in [
            "abcdefgh%equals{INNER}{x}{y}|",
            "abcdefgh%equals{INNER}{}{y}|",
            "abcdefgh%enc{INNER<}|",
            "abcdefgh%notEmpty{INNER}|",
            "abcdefgh%5notEmpty{INNER}|",
            "abcdefgh%-9.2enc{INNER}|",
            "abcdefgh%maxLen{INNER}{2}|",
            "abcdefgh%maxLen{INNER}{-1}|",
            "abcdefgh%style{INNER}{red}|",
            "abcdefgh%highlight{INNER}|",
            "ab%replace{INNER}{b}{c}|",
            "%maxLen{INNER}{-100}|",
        ] {
            let pattern = outer.replace("INNER", inner);
            let (out, _) = format(&pattern);
            assert!(out.ends_with('|'), "{pattern}: {out:?}");
        }
    }
}
