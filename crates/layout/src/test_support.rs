//! Helpers for the unit tests: the reference event of `pattern-cases.tsv` and a one-call
//! renderer.

use l4rs_core::{Level, LogEvent, Message, Timestamp};

use crate::pattern::{Pattern, PatternOptions};

/// logger `org.apache.commons.test.Foo`, INFO, `Hello, world`, thread `main` (id 1,
/// priority 5), 2012-11-02T14:34:02.781Z.
pub(crate) fn event() -> LogEvent<'static> {
    let mut event = LogEvent::new(
        "org.apache.commons.test.Foo",
        Level::INFO,
        Message::Text("Hello, world"),
    );
    event.timestamp = Timestamp::from_millis(1_351_866_842_781);
    event
}

/// Formats `event` with `pattern` (no implicit `%xEx`).
pub(crate) fn render(pattern: &str, event: &LogEvent<'_>) -> String {
    let pattern = Pattern::compile(pattern, &PatternOptions::default()).expect("pattern compiles");
    let mut out = String::new();
    pattern.format(event, &mut out);
    out
}
