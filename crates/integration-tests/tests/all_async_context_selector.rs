//! log4j2's all-asynchronous mode, `log4j2.contextSelector` naming
//! `AsyncLoggerContextSelector`: plain `<Logger>`s and `<Root>` go through the AsyncLogger
//! queue, whose thread runs the loggers' filters and writes. As log4j2's AsyncLogger does, the
//! event takes its location once, when its owner's config includes it (`includeLocation`
//! defaults to false for every logger), and each logger filter on its path runs once.
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
                 <Logger name="app.child" level="info"><AppenderRef ref="Child"/></Logger>
                 <Root level="info" includeLocation="true">
                   <AppenderRef ref="Plain"/>
                   <BurstFilter level="INFO" rate="0.001" maxBurst="2"/>
                 </Root>
               </Loggers></Configuration>"#,
            l4rs_tests::file_appenders(
                dir,
                &[
                    ("Plain", "%t [%M] %m%n"),
                    ("Child", "%t [%M] %m%n"),
                    ("Located", "%t [%M] %m%n")
                ]
            )
        )
    });
    assert_eq!(l4rs_tests::queue_stats("AsyncLoggerConfig").enqueued, 0);
    std::thread::Builder::new()
        .name("caller".to_string())
        .spawn(|| {
            l4rs::info!(l4rs::get_logger("app"), "owned by the root");
            l4rs::info!(l4rs::get_logger("app.child"), "owned by the child");
            l4rs::info!(l4rs::get_logger("located"), "owned by a located logger");
        })
        .expect("a thread")
        .join()
        .expect("logs");
    l4rs::flush();
    assert_eq!(
        l4rs_tests::queue_stats("AsyncLoggerConfig").enqueued,
        3,
        "every event went through the queue"
    );
    assert!(
        l4rs_tests::thread_names()
            .iter()
            .any(|name| name.starts_with("AsyncLoggerConf")),
        "the queue's thread writes"
    );
    l4rs::shutdown();
    let function = "every_logger_is_asynchronous_under_the_asynchronous_selector";
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("plain.log")),
        [
            // The root includes the location for the events it owns…
            format!("caller [{function}] owned by the root"),
            // …not for the child's: the owner decides, as in log4j2. The root's burst filter
            // let both through: it ran once per event (a second run, in the caller, would have
            // spent the last token).
            "caller [] owned by the child".to_string(),
        ]
    );
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("child.log")),
        ["caller [] owned by the child"],
        "no location by default"
    );
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("located.log")),
        [format!("caller [{function}] owned by a located logger")],
    );
}
