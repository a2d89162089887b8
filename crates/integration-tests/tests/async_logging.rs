//! Asynchronous logging through the facade: mixed synchronous and asynchronous loggers (log4j2's
//! split), the Async appender, its error appender, ordering and loss under many producers, and
//! the copy of the message and context taken before the call returns.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// A `<File>` attribute: no flush after each event.
const BUFFERED: &str = r#"immediateFlush="false""#;

/// A `<File>` attribute: a write error propagates instead of being ignored.
const THROWING: &str = r#"ignoreExceptions="false""#;

/// The `<File>`s of [`setup`]: name, file (absolute or in the output folder), attributes, pattern.
const FILES: &[(&str, &str, &str, &str)] = &[
    ("SyncFile", "sync.log", "", "%c|%p|%m%n"),
    (
        "AsyncFile",
        "async.log",
        BUFFERED,
        "%c|%p|%m|%X{user}|%x|%L%n",
    ),
    ("RootFile", "root.log", "", "%c|%p|%m%n"),
    ("Ordered", "ordered.log", BUFFERED, "%m%n"),
    ("Behind", "behind.log", "", "%t|%m|%L%n"),
    ("Located", "located.log", "", "%m|%M|%L%n"),
    ("Broken", "/dev/full", THROWING, "%m%n"),
    ("Errors", "errors.log", "", "%m%n"),
    ("BrokenBehindLogger", "/dev/full", THROWING, "%m%n"),
    ("Survivor", "survivor.log", "", "%m%n"),
];

/// [`FILES`] as `<File>` elements, their relative files in `dir`.
fn file_appenders(dir: &str) -> String {
    FILES
        .iter()
        .map(|(name, file, attributes, pattern)| {
            let path = Path::new(dir).join(file);
            format!(
                r#"<File name="{name}" fileName="{}" {attributes}><PatternLayout pattern="{pattern}"/></File>"#,
                path.display()
            )
        })
        .collect()
}

fn setup() -> &'static PathBuf {
    static DIR: OnceLock<PathBuf> = OnceLock::new();
    DIR.get_or_init(|| {
        l4rs_tests::init_in_fresh_dir("async-logging", |dir| {
            let files = file_appenders(dir);
            format!(
                r#"<Configuration status="warn">
  <Appenders>
    {files}
    <Async name="Chain" bufferSize="16"><AppenderRef ref="A"/></Async>
    <Async name="A" bufferSize="64"><AppenderRef ref="Behind"/></Async>
    <Async name="WithLocation" includeLocation="true"><AppenderRef ref="Located"/></Async>
    <Async name="Failing" error-ref="Errors"><AppenderRef ref="Broken"/></Async>
  </Appenders>
  <Loggers>
    <AsyncLogger name="mixed" level="debug"><AppenderRef ref="AsyncFile"/></AsyncLogger>
    <Logger name="mixed.sync"><AppenderRef ref="SyncFile"/></Logger>
    <AsyncLogger name="located" level="info" includeLocation="true" additivity="false">
      <AppenderRef ref="AsyncFile"/>
    </AsyncLogger>
    <AsyncLogger name="ordered" level="info" additivity="false">
      <AppenderRef ref="Ordered"/>
    </AsyncLogger>
    <Logger name="appender" level="info" additivity="false"><AppenderRef ref="A"/></Logger>
    <Logger name="chain" level="info" additivity="false"><AppenderRef ref="Chain"/></Logger>
    <Logger name="where" level="info" additivity="false">
      <AppenderRef ref="WithLocation"/>
    </Logger>
    <Logger name="failing" level="info" additivity="false"><AppenderRef ref="Failing"/></Logger>
    <AsyncLogger name="async.failing" level="info" additivity="false">
      <AppenderRef ref="BrokenBehindLogger"/>
      <AppenderRef ref="Survivor"/>
    </AsyncLogger>
    <Root level="info"><AppenderRef ref="RootFile"/></Root>
  </Loggers>
</Configuration>"#
            )
        })
    })
}

fn lines(file: &str) -> Vec<String> {
    l4rs_tests::read_lines(&setup().join(file))
}

#[test]
fn mixed_loggers_split_as_log4j2_does() {
    setup();
    let logger = l4rs::get_logger("mixed.sync.inner");
    let line = line!() + 1;
    l4rs::debug!(logger, "split");
    // Synchronous configs on the path are written before the call returns: the logger's own
    // and the root, which sits above the first asynchronous config with appenders.
    assert_eq!(lines("sync.log"), ["mixed.sync.inner|DEBUG|split"]);
    assert!(lines("root.log").contains(&"mixed.sync.inner|DEBUG|split".to_string()));
    l4rs::flush();
    // `mixed.sync` includes location (a synchronous logger's default) and an appender on its
    // path prints it, so log4j2 captures it before routing and the queued copy keeps it.
    let written = lines("async.log");
    assert!(
        written.contains(&format!("mixed.sync.inner|DEBUG|split||[]|{line}")),
        "{written:?}"
    );
    assert_eq!(
        lines("root.log")
            .iter()
            .filter(|line| line.contains("|split"))
            .count(),
        1,
        "the root is written once, synchronously"
    );
}

#[test]
fn message_and_context_are_copied_before_the_call_returns() {
    setup();
    let logger = l4rs::get_logger("mixed.copy");
    let mut value = String::from("original");
    l4rs::ThreadContext::put("user", "ann");
    l4rs::ThreadContext::push("outer");
    l4rs::info!(logger, "value={value}");
    value.replace_range(.., "mutated");
    l4rs::ThreadContext::put("user", "bob");
    l4rs::ThreadContext::clear_stack();
    l4rs::flush();
    let written = lines("async.log");
    assert!(
        written.contains(&"mixed.copy|INFO|value=original|ann|[outer]|".to_string()),
        "{written:?}"
    );
    assert_eq!(value, "mutated");
    l4rs::ThreadContext::clear_all();
}

#[test]
fn include_location_on_an_async_logger_keeps_the_line() {
    setup();
    let logger = l4rs::get_logger("located");
    let line = line!() + 1;
    l4rs::info!(logger, "here");
    l4rs::flush();
    let expected = format!("located|INFO|here||[]|{line}");
    assert!(
        lines("async.log").contains(&expected),
        "{:?}",
        lines("async.log")
    );
}

#[test]
fn sixty_four_producers_lose_nothing_and_keep_their_order() {
    setup();
    const THREADS: usize = 64;
    const PER_THREAD: usize = 500;
    let threads: Vec<_> = (0..THREADS)
        .map(|thread| {
            std::thread::spawn(move || {
                let logger = l4rs::get_logger("ordered");
                for index in 0..PER_THREAD {
                    l4rs::info!(logger, "{thread} {index}");
                }
            })
        })
        .collect();
    for thread in threads {
        thread.join().unwrap();
    }
    l4rs::flush();
    let written = lines("ordered.log");
    assert_eq!(written.len(), THREADS * PER_THREAD);
    let mut next = [0usize; THREADS];
    for line in &written {
        let (thread, index) = line.split_once(' ').unwrap();
        let (thread, index): (usize, usize) = (thread.parse().unwrap(), index.parse().unwrap());
        assert_eq!(index, next[thread], "thread {thread} out of order");
        next[thread] += 1;
    }
}

#[test]
fn the_async_appender_writes_with_the_callers_thread_and_no_location() {
    setup();
    let handle = std::thread::Builder::new()
        .name("caller".to_string())
        .spawn(|| {
            let logger = l4rs::get_logger("appender");
            for index in 0..200 {
                l4rs::info!(logger, "queued {index}");
            }
        })
        .unwrap();
    handle.join().unwrap();
    let chained = l4rs::get_logger("chain");
    l4rs::info!(chained, "through two queues");
    l4rs::flush();
    let written = lines("behind.log");
    for index in 0..200 {
        assert!(
            written.contains(&format!("caller|queued {index}|")),
            "{index}"
        );
    }
    assert!(written
        .iter()
        .any(|line| line.ends_with("|through two queues|")));
    let stats = l4rs::async_queue_stats();
    let names: Vec<&str> = stats.iter().map(|s| s.name.as_str()).collect();
    assert!(names.contains(&"AsyncLoggerConfig"), "{names:?}");
    assert!(names.contains(&"AsyncAppender A"), "{names:?}");
    assert!(stats.iter().all(|s| s.dropped() == 0));
}

#[test]
fn include_location_on_the_async_appender_keeps_the_caller() {
    setup();
    let logger = l4rs::get_logger("where");
    let line = line!() + 1;
    l4rs::info!(logger, "located");
    l4rs::flush();
    let expected =
        format!("located|include_location_on_the_async_appender_keeps_the_caller|{line}");
    assert_eq!(lines("located.log"), [expected]);
}

#[test]
fn events_every_target_fails_go_to_the_error_appender() {
    setup();
    let logger = l4rs::get_logger("failing");
    for index in 0..5 {
        l4rs::info!(logger, "rescued {index}");
    }
    l4rs::flush();
    assert_eq!(
        lines("errors.log"),
        (0..5).map(|i| format!("rescued {i}")).collect::<Vec<_>>()
    );
}

#[test]
fn a_failing_appender_behind_an_async_logger_is_reported_and_harms_nothing() {
    setup();
    let capture = l4rs::core::status::GlobalCapture::start();
    let logger = l4rs::get_logger("async.failing");
    for index in 0..5 {
        // With ignoreExceptions="false" the error would reach a synchronous caller; here the
        // write happens on the AsyncLogger thread, after the call returned.
        let result = logger.log(
            l4rs::Level::INFO,
            None,
            None,
            None,
            format_args!("survives {index}"),
        );
        assert!(result.is_ok(), "{result:?}");
    }
    l4rs::flush();
    assert_eq!(
        lines("survivor.log"),
        (0..5).map(|i| format!("survives {i}")).collect::<Vec<_>>(),
        "the other appender on the path gets every event"
    );
    let records = capture.records();
    assert!(
        records.iter().any(|r| r
            .message
            .starts_with("An exception occurred processing Appender BrokenBehindLogger")),
        "{records:?}"
    );
    // log4j2's AbstractOutputStreamAppender names the stream (the file manager's name, its
    // file) before the error handler's line, followed by the exception it caught.
    assert!(
        records.iter().any(|r| r.level == l4rs::Level::ERROR
            && r.message.starts_with(
                "Unable to write to stream /dev/full for appender BrokenBehindLogger \
                 org.apache.logging.log4j.core.appender.AppenderLoggingException: \
                 Error writing to stream /dev/full"
            )),
        "{records:?}"
    );
    let queue = l4rs_tests::queue_stats("AsyncLoggerConfig");
    assert_eq!(
        queue.panicked, 0,
        "a failing appender is an error, not a panic"
    );
}

// End of batch (buffered appenders flushed when a queue runs dry, and only then) is checked in
// `async_end_of_batch.rs`, a process where nothing calls `l4rs::flush()`.
