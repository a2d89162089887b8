//! An AsyncLogger feeding an Async appender whose tiny queue is full: the AsyncLogger thread
//! is an l4rs background thread, so it writes the event itself instead of waiting for the
//! other queue (log4j2's `DefaultAsyncQueueFullPolicy` routes every Log4j thread that way),
//! which is what keeps two queues from waiting on each other.

use l4rs_tests::fifo_gate::FifoGate;

#[test]
fn the_async_logger_thread_never_waits_for_a_full_async_appender() {
    let dir = l4rs_tests::fresh_output_dir("async-cross-queue");
    let gate = FifoGate::create(&dir.join("gate.pipe"));
    let xml = format!(
        r#"<Configuration><Appenders>
  <File name="Gate" fileName="{gate}"><PatternLayout pattern="%m%n"/></File>
  <Async name="Tiny" bufferSize="1"><AppenderRef ref="Gate"/></Async>
</Appenders><Loggers>
  <AsyncLogger name="cross" level="info" additivity="false"><AppenderRef ref="Tiny"/></AsyncLogger>
  <Root level="off"/>
</Loggers></Configuration>"#,
        gate = gate.path().display()
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).expect("configuration loads");
    let logger = l4rs::get_logger("cross");
    // The plug stalls Tiny's thread on the pipe; Tiny's two slots then fill, and the
    // AsyncLogger thread handles the next event on its own thread (it blocks in the pipe
    // itself, not on Tiny's queue).
    let plug = "p".repeat(100_000);
    l4rs::info!(logger, "{plug}");
    for index in 0..10 {
        l4rs::info!(logger, "cross {index}");
    }
    let stats = || l4rs_tests::queue_stats("AsyncAppender Tiny");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while stats().synchronous == 0 {
        assert!(
            std::time::Instant::now() < deadline,
            "the AsyncLogger thread waits for Tiny's room: {:?}",
            stats()
        );
        std::thread::sleep(std::time::Duration::from_millis(2));
    }
    gate.open();
    l4rs::flush();
    let stats = stats();
    l4rs::shutdown();
    let written = gate.finish();
    // Nothing lost. Two threads write into the pipe here (Tiny's with the plug, the
    // AsyncLogger's with the events it handles itself), and a write larger than the pipe's
    // atomic size (4 KiB) may have another writer's line land inside it, as with log4j2: so the
    // events are counted in the text, not line by line.
    assert_eq!(
        written.bytes().filter(|&b| b == b'p').count(),
        plug.len(),
        "the plug arrived whole"
    );
    // Handled on the AsyncLogger thread, out of order with the queued ones.
    let mut handled: Vec<usize> = written
        .match_indices("cross ")
        .map(|(at, found)| {
            let digits: String = written[at + found.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            digits.parse().expect("an event number")
        })
        .collect();
    handled.sort_unstable();
    assert_eq!(handled, (0..10).collect::<Vec<_>>());
    assert_eq!(stats.dropped(), 0, "{stats:?}");
    assert_eq!(
        stats.enqueued + stats.synchronous,
        11,
        "every event was queued or written by the caller: {stats:?}"
    );
}
