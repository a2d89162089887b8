//! `l4rs::shutdown()` with stuck appenders, end to end: the AsyncLogger queue waits log4j2's
//! 10 s drain plus the configuration's `shutdownTimeout`, an Async appender its own
//! `shutdownTimeout`; what is left is abandoned, counted and reported, and so are the events
//! the discarding policy dropped, those a full non-blocking Async appender refused, and those
//! logged after the shutdown. One test in its own process: shutdown is global.
//!
//! The stuck appenders are File appenders on named pipes nobody reads
//! (`crates/test-support/src/fifo_gate.rs`); a status listener opens the pipes once the last timeout has
//! been reported, so the appenders can then be closed.

use l4rs::core::status;
use l4rs_tests::fifo_gate::FifoGate;

/// Larger than a pipe's buffer: the write of this message blocks.
const PLUG: usize = 100_000;

#[test]
fn timed_out_shutdown_reports_and_counts_what_is_lost() {
    let dir = l4rs_tests::fresh_output_dir("async-shutdown");
    let gate_logger = FifoGate::create(&dir.join("logger.pipe"));
    let gate_slow = FifoGate::create(&dir.join("slow.pipe"));
    let gate_hasty = FifoGate::create(&dir.join("hasty.pipe"));
    l4rs::config::set_system_property("log4j2.asyncQueueFullPolicy", "Discard");
    let xml = format!(
        r#"<Configuration shutdownTimeout="200"><Appenders>
  <File name="GateL" fileName="{gate_l}"><PatternLayout pattern="%m%n"/></File>
  <File name="GateS" fileName="{gate_s}"><PatternLayout pattern="%m%n"/></File>
  <File name="GateH" fileName="{gate_h}"><PatternLayout pattern="%m%n"/></File>
  <Async name="Slow" bufferSize="8" shutdownTimeout="100"><AppenderRef ref="GateS"/></Async>
  <Async name="Hasty" bufferSize="1" blocking="false" shutdownTimeout="100">
    <AppenderRef ref="GateH"/>
  </Async>
</Appenders><Loggers>
  <AsyncLogger name="stuck" level="info" additivity="false"><AppenderRef ref="GateL"/></AsyncLogger>
  {loggers}
  <Root level="off"/>
</Loggers></Configuration>"#,
        loggers = l4rs_tests::non_additive_loggers(&[
            ("slow", "info", "Slow"),
            ("hasty", "info", "Hasty"),
        ]),
        gate_l = gate_logger.path().display(),
        gate_s = gate_slow.path().display(),
        gate_h = gate_hasty.path().display(),
    );
    let capture = status::GlobalCapture::start();
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).expect("configuration loads");
    let before = l4rs::dropped_events();
    let plug = "p".repeat(PLUG);

    // The AsyncLogger thread stalls on its plug, three events wait behind it.
    let stuck = l4rs::get_logger("stuck");
    l4rs::info!(stuck, "{plug}");
    for index in 0..3 {
        l4rs::info!(stuck, "stuck {index}");
    }
    // Slow's thread stalls on its plug; its 9 slots (bufferSize + the one being written) fill
    // and the Discard policy drops the other 3 INFO events.
    let slow = l4rs::get_logger("slow");
    l4rs::info!(slow, "{plug}");
    for index in 0..11 {
        l4rs::info!(slow, "slow {index}");
    }
    // Hasty stalls on its plug too; its 2 slots fill and, being non-blocking without an
    // errorRef, it drops the other 4 events.
    let hasty = l4rs::get_logger("hasty");
    l4rs::info!(hasty, "{plug}");
    for index in 0..5 {
        l4rs::info!(hasty, "hasty {index}");
    }

    let open_logger = gate_logger.opener();
    let open_slow = gate_slow.opener();
    let open_hasty = gate_hasty.opener();
    let _opener = status::add_listener(move |record| {
        // Slow stops last of the queues; after its timeout the File appenders are stopped,
        // which needs the writes in progress to finish.
        if record
            .message
            .starts_with("AsyncAppender Slow: shutdown timed out")
        {
            open_logger();
            open_slow();
            open_hasty();
        }
    });
    l4rs::shutdown();

    let logger_queue = l4rs_tests::queue_stats("AsyncLoggerConfig");
    let slow_queue = l4rs_tests::queue_stats("AsyncAppender Slow");
    let hasty_queue = l4rs_tests::queue_stats("AsyncAppender Hasty");
    let messages: Vec<String> = capture.records().into_iter().map(|r| r.message).collect();
    let has = |prefix: &str| messages.iter().filter(|m| m.starts_with(prefix)).count();

    assert_eq!(
        has("Async queue is full, discarding event with level INFO. This message will only appear once; future events from INFO are silently discarded until queue capacity becomes available."),
        1,
        "{messages:#?}"
    );
    assert!(
        has("Appender Hasty is unable to write primary appenders. queue is full") >= 1,
        "{messages:#?}"
    );
    assert_eq!(
        has("AsyncLoggerConfig: shutdown timed out after 10200 ms with 3 event(s) still queued"),
        1,
        "10 s of drain plus the configuration's 200 ms: {messages:#?}"
    );
    assert_eq!(
        has("AsyncAppender Hasty: shutdown timed out after 100 ms"),
        1,
        "{messages:#?}"
    );
    assert_eq!(
        has("AsyncAppender Slow: shutdown timed out after 100 ms"),
        1,
        "{messages:#?}"
    );
    assert_eq!(
        has("AsyncAppender Slow: 3 event(s) were discarded because the queue was full"),
        1,
        "the total is reported even though the stop timed out: {messages:#?}"
    );
    assert_eq!(
        has("AsyncAppender Hasty: 4 event(s) were dropped because the queue was full"),
        1,
        "{messages:#?}"
    );

    assert_eq!(logger_queue.abandoned, 3, "{logger_queue:?}");
    assert_eq!(slow_queue.enqueued, 9, "{slow_queue:?}");
    assert_eq!(slow_queue.discarded, 3, "{slow_queue:?}");
    // The appenders' queues stop after the AsyncLogger queue's 10.2 s, long after each thread
    // took its plug: what is left are the events behind it.
    assert_eq!(slow_queue.abandoned, 8, "{slow_queue:?}");
    assert_eq!(slow_queue.dropped(), 3 + slow_queue.abandoned);
    assert_eq!(hasty_queue.enqueued, 2, "{hasty_queue:?}");
    assert_eq!(hasty_queue.rejected, 4, "{hasty_queue:?}");
    assert_eq!(hasty_queue.rejected_lost, 4, "{hasty_queue:?}");
    assert_eq!(hasty_queue.abandoned, 1, "{hasty_queue:?}");
    let counted: u64 = [&logger_queue, &slow_queue, &hasty_queue]
        .iter()
        .map(|s| s.dropped())
        .sum();
    assert_eq!(l4rs::dropped_events() - before, counted);

    // Nothing abandoned was written: at most the plugs that were being written.
    for (gate, queue) in [
        (gate_logger, &logger_queue),
        (gate_slow, &slow_queue),
        (gate_hasty, &hasty_queue),
    ] {
        let written = gate.finish();
        assert!(
            written.lines().all(|line| line == plug),
            "{}: only the plug: {} lines",
            queue.name,
            written.lines().count()
        );
        assert_eq!(
            written.lines().count() as u64 + queue.abandoned,
            queue.enqueued,
            "{queue:?}"
        );
    }

    // After the shutdown: the AsyncLogger queue refuses, warns once and counts.
    let (_, records) = status::capture(|| {
        l4rs::info!(stuck, "late 1");
        l4rs::info!(stuck, "late 2");
    });
    let ignored: Vec<&String> = records
        .iter()
        .map(|r| &r.message)
        .filter(|m| m.starts_with("Ignoring log event after log4j was shut down"))
        .collect();
    assert_eq!(ignored.len(), 1, "{records:?}");
    assert!(
        ignored[0].starts_with("Ignoring log event after log4j was shut down: INFO [stuck] late 1"),
        "{ignored:?}"
    );
    assert_eq!(l4rs_tests::queue_stats("AsyncLoggerConfig").after_stop, 2);
    l4rs::info!(slow, "late");
    assert_eq!(l4rs_tests::queue_stats("AsyncAppender Slow").after_stop, 1);
    assert_eq!(l4rs::dropped_events() - before, counted + 3);
}
