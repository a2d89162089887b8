//! log4j2's all-asynchronous mode, `log4j2.contextSelector` naming
//! `AsyncLoggerContextSelector`: plain `<Logger>`s and `<Root>` go through the AsyncLogger
//! queue, whose thread writes; `includeLocation` defaults to false for every logger (so `%C`
//! and `%L` print what they print without a location) and stays true where a logger sets it.
//! The property is read once per process, so this file holds one test.

#[test]
fn every_logger_is_asynchronous_under_the_asynchronous_selector() {
    l4rs::set_system_property(
        "log4j2.contextSelector",
        "org.apache.logging.log4j.core.async.AsyncLoggerContextSelector",
    );
    let dir = l4rs_tests::init_in_fresh_dir("all-async-context-selector", |dir| {
        format!(
            r#"<Configuration><Appenders>{}</Appenders><Loggers>
                 <Logger name="located" level="info" includeLocation="true" additivity="false"><AppenderRef ref="Located"/></Logger>
                 <Root level="info"><AppenderRef ref="Plain"/></Root>
               </Loggers></Configuration>"#,
            l4rs_tests::file_appenders(
                dir,
                &[("Plain", "%t [%C:%L] %m%n"), ("Located", "%t [%M] %m%n")]
            )
        )
    });
    let stats = l4rs_tests::queue_stats("AsyncLoggerConfig");
    assert_eq!(stats.enqueued, 0);
    std::thread::Builder::new()
        .name("caller".to_string())
        .spawn(|| {
            l4rs::info!(l4rs::get_logger("app"), "queued from a plain logger");
            l4rs::info!(l4rs::get_logger("located"), "queued with its location");
        })
        .expect("a thread")
        .join()
        .expect("logs");
    l4rs::flush();
    assert_eq!(
        l4rs_tests::queue_stats("AsyncLoggerConfig").enqueued,
        2,
        "both events went through the queue"
    );
    assert!(
        l4rs_tests::thread_names()
            .iter()
            .any(|name| name.starts_with("AsyncLoggerConf")),
        "the queue's thread writes"
    );
    l4rs::shutdown();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("plain.log")),
        ["caller [?:] queued from a plain logger"],
        "no location by default"
    );
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("located.log")),
        ["caller [every_logger_is_asynchronous_under_the_asynchronous_selector] queued with its location"],
    );
}
