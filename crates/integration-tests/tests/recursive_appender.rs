//! Logging into an appender from inside that appender's own formatting (a `Display` of a logged
//! value that logs to the same logger): log4j2's `AppenderControl` refuses the inner call with
//! `Recursive call to appender <name>` and the inner event is skipped, the outer one written.

use std::fmt;

/// A value whose formatting logs to the logger `reentrant`.
struct LogsWhileFormatted;

impl fmt::Display for LogsWhileFormatted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        l4rs::info!(l4rs::get_logger("reentrant"), "from inside Display");
        f.write_str("value")
    }
}

#[test]
fn an_appender_called_again_from_its_own_formatting_skips_the_inner_event() {
    let dir = l4rs_tests::init_file_logger(
        "recursive-appender",
        ("Reentrant", "%m%n"),
        ("reentrant", "info"),
    );
    let logger = l4rs::get_logger("reentrant");
    let ((), records) = l4rs::core::status::capture(|| {
        for index in 0..6 {
            l4rs::info!(logger, "outer {index} {}", LogsWhileFormatted);
        }
    });
    l4rs::flush();
    let recursive: Vec<_> = records
        .iter()
        .filter(|record| record.message == "Recursive call to appender Reentrant")
        .collect();
    // Reported through the appender's error handler, as in log4j2: the first report and three
    // more, then one per five minutes.
    assert_eq!(recursive.len(), 4, "{records:?}");
    assert!(recursive.iter().all(|r| r.level == l4rs::Level::ERROR));
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("reentrant.log")),
        (0..6)
            .map(|i| format!("outer {i} value"))
            .collect::<Vec<_>>()
    );
}
