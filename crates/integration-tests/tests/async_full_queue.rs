//! Full queues through the facade: the `Discard` queue-full policy (set with log4j2's
//! properties) drops only events at or below its threshold and counts them; a non-blocking
//! Async appender hands what does not fit to its `errorRef`, losing nothing.

#[test]
fn discarding_and_non_blocking_queues() {
    let dir = l4rs_tests::fresh_output_dir("async-full-queue");
    l4rs::config::set_system_property("log4j2.asyncQueueFullPolicy", "Discard");
    l4rs::config::set_system_property("log4j2.discardThreshold", "INFO");
    let files = l4rs_tests::file_appenders(
        dir.display(),
        &[("Kept", "%p %m%n"), ("Main", "%m%n"), ("Overflow", "%m%n")],
    );
    let loggers = l4rs_tests::non_additive_loggers(&[
        ("discard", "info", "Discarding"),
        ("nonblocking", "info", "NonBlocking"),
    ]);
    let xml = format!(
        r#"<Configuration><Appenders>
  {files}
  <Async name="Discarding" bufferSize="1"><AppenderRef ref="Kept"/></Async>
  <Async name="NonBlocking" bufferSize="1" blocking="false" errorRef="Overflow">
    <AppenderRef ref="Main"/>
  </Async>
</Appenders><Loggers>
  {loggers}
  <Root level="off"/>
</Loggers></Configuration>"#
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    const EVENTS: usize = 20_000;
    let before = l4rs::dropped_events();

    let discard = l4rs::get_logger("discard");
    for index in 0..EVENTS {
        if index % 10 == 0 {
            l4rs::error!(discard, "{index}");
        } else {
            l4rs::info!(discard, "{index}");
        }
    }
    let nonblocking = l4rs::get_logger("nonblocking");
    for index in 0..EVENTS {
        l4rs::info!(nonblocking, "{index}");
    }
    l4rs::flush();
    let discarding = l4rs_tests::queue_stats("AsyncAppender Discarding");
    l4rs::shutdown();

    let kept = l4rs_tests::read_lines(&dir.join("kept.log"));
    let errors = kept
        .iter()
        .filter(|line| line.starts_with("ERROR "))
        .count();
    let infos = kept.iter().filter(|line| line.starts_with("INFO ")).count();
    assert_eq!(
        errors,
        EVENTS / 10,
        "events above the threshold are never discarded"
    );
    assert_eq!(
        infos as u64 + discarding.discarded,
        (EVENTS - EVENTS / 10) as u64,
        "every INFO event is either written or counted as discarded"
    );
    assert!(discarding.discarded > 0, "a one-slot queue overflows");
    assert!(l4rs::dropped_events() >= before + discarding.discarded);

    let main = l4rs_tests::read_lines(&dir.join("main.log"));
    let overflow = l4rs_tests::read_lines(&dir.join("overflow.log"));
    eprintln!(
        "discarded {} of {} INFO; non-blocking: {} queued, {} to errorRef",
        discarding.discarded,
        EVENTS - EVENTS / 10,
        main.len(),
        overflow.len()
    );
    assert_eq!(main.len() + overflow.len(), EVENTS, "nothing is lost");
    assert!(
        !overflow.is_empty(),
        "a one-slot non-blocking queue overflows"
    );
    for file in [&main, &overflow] {
        let numbers: Vec<usize> = file.iter().map(|l| l.parse().unwrap()).collect();
        assert!(numbers.windows(2).all(|w| w[0] < w[1]), "order kept");
    }
}
