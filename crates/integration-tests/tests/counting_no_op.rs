//! `<CountingNoOp>` and `l4rs::counted_events`: the count is the number of events that reached
//! the appender, after levels, additivity, references' levels and filters, behind an
//! asynchronous logger too; it restarts at 0 when a reconfiguration builds a new appender.

use l4rs_tests::{init_in_fresh_dir, serial, write_config};

const CONFIG: &str = r#"<Configuration status="warn">
  <Appenders>
    <CountingNoOp name="All"/>
    <CountingNoOp name="Warnings"/>
    <CountingNoOp name="Unsecret"/>
    <CountingNoOp name="Queued"/>
  </Appenders>
  <Loggers>
    <Logger name="app" level="debug" additivity="false">
      <AppenderRef ref="All"/>
      <AppenderRef ref="Warnings" level="warn"/>
      <AppenderRef ref="Unsecret">
        <RegexFilter regex=".*secret.*" onMatch="DENY" onMismatch="NEUTRAL"/>
      </AppenderRef>
    </Logger>
    <AsyncLogger name="queued" level="info" additivity="false"><AppenderRef ref="Queued"/></AsyncLogger>
    <Root level="off"/>
  </Loggers>
</Configuration>"#;

#[test]
fn counts_what_reaches_each_appender_and_restarts_after_reconfiguring() {
    let _turn = serial();
    let dir = init_in_fresh_dir("counting-no-op", |_| CONFIG.to_string());
    let app = l4rs::get_logger("app");
    let queued = l4rs::get_logger("queued");
    assert_eq!(l4rs::counted_events("All"), Some(0));

    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| {
                for i in 0..250 {
                    l4rs::trace!(app, "below the logger's level {i}");
                    l4rs::debug!(app, "debug {i}");
                    l4rs::warn!(app, "warn {i}");
                    l4rs::error!(app, "a secret {i}");
                    l4rs::debug!(queued, "below the queue's level {i}");
                    l4rs::info!(queued, "queued {i}");
                }
            });
        }
    });
    l4rs::flush();

    // 4 threads × 250 rounds: debug, warn and error reach the logger.
    assert_eq!(l4rs::counted_events("All"), Some(3_000));
    assert_eq!(l4rs::counted_events("Warnings"), Some(2_000));
    assert_eq!(l4rs::counted_events("Unsecret"), Some(2_000));
    assert_eq!(l4rs::counted_events("Queued"), Some(1_000));
    assert_eq!(l4rs::counted_events("Missing"), None);

    // The log crate's calls reach it too.
    log::warn!(target: "app", "through the log bridge");
    assert_eq!(l4rs::counted_events("Warnings"), Some(2_001));

    let config = write_config(&dir, &CONFIG.replace("Queued", "Renamed"));
    l4rs::reconfigure_with_file(&config).expect("the edited configuration loads");
    assert_eq!(
        l4rs::counted_events("All"),
        Some(0),
        "a new appender counts from 0"
    );
    assert_eq!(
        l4rs::counted_events("Queued"),
        None,
        "no appender of that name now"
    );
    l4rs::info!(app, "after");
    assert_eq!(l4rs::counted_events("All"), Some(1));

    l4rs::shutdown();
    l4rs::info!(app, "after shutdown");
    assert_eq!(
        l4rs::counted_events("All"),
        Some(1),
        "a stopped appender counts nothing"
    );
}
