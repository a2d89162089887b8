//! `l4rs::shutdown` ends MutableThreadContextMapFilter's polling thread, although the stopped
//! configuration still holds the filter: a program that shut logging down reads no file any
//! more.

use std::time::{Duration, Instant};

/// The polling thread's name as Linux keeps it (15 bytes of `l4rs-context-map-filter`).
const POLLER: &str = "l4rs-context-ma";

fn pollers() -> usize {
    l4rs_tests::thread_names()
        .iter()
        .filter(|name| name.as_str() == POLLER)
        .count()
}

/// Waits up to 5 s for [`pollers`] to be `count` (a new thread takes its name a moment after
/// it starts, and an ending one goes a moment after it is told); returns the last count.
fn pollers_become(count: usize) -> usize {
    let deadline = Instant::now() + Duration::from_secs(5);
    while pollers() != count && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(10));
    }
    pollers()
}

#[test]
fn shutdown_ends_the_polling_thread() {
    let dir = l4rs_tests::fresh_output_dir("context-map-filter-shutdown");
    let pairs = dir.join("pairs.json");
    std::fs::write(&pairs, r#"{"configs": {"user": ["alice"]}}"#).unwrap();
    let xml = format!(
        r#"<Configuration status="warn">
  <MutableThreadContextMapFilter configLocation="{}" pollInterval="1" onMatch="ACCEPT" onMismatch="NEUTRAL"/>
  <Appenders><CountingNoOp name="counted"/></Appenders>
  <Loggers><Root level="error"><AppenderRef ref="counted"/></Root></Loggers>
</Configuration>"#,
        pairs.display()
    );
    assert_eq!(pollers(), 0);
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).expect("the configuration loads");
    assert_eq!(pollers_become(1), 1, "{:?}", l4rs_tests::thread_names());
    // The filter works: alice's INFO passes the ERROR root, bob's does not.
    let logger = l4rs::get_logger("app");
    l4rs::ThreadContext::put("user", "alice");
    l4rs::info!(logger, "accepted");
    l4rs::ThreadContext::put("user", "bob");
    l4rs::info!(logger, "below the level");
    l4rs::ThreadContext::clear_map();
    assert_eq!(l4rs::counted_events("counted"), Some(1));
    l4rs::shutdown();
    assert_eq!(pollers_become(0), 0, "{:?}", l4rs_tests::thread_names());
}
