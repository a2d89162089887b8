//! With tracing-log's `LogTracer` holding the `log` crate (as `tracing-subscriber`'s `init()`
//! installs it with its default `tracing-log` feature), `log` records reach l4rs through the
//! layer, once, on the logger of their own target and with their own location; l4rs's `log`
//! bridge stands aside without a warning.

use tracing_subscriber::prelude::*;

#[test]
fn log_records_through_log_tracer_are_routed_once_by_their_own_target() {
    // The layer first: it makes l4rs's `log` bridge wait, so LogTracer can take `log`.
    tracing_subscriber::registry()
        .with(l4rs::tracing::layer())
        .init();
    tracing_log::LogTracer::init().expect("LogTracer takes the log crate");
    let dir = l4rs_tests::init_file_logger(
        "tracing-log-tracer",
        ("Out", "%c|%p|%C|%M|%F|%L|%m|%X%n"),
        ("legacy::db", "debug"),
    );
    // The configuration's DEBUG reaches `log`'s own maximum level too.
    assert_eq!(log::max_level(), log::LevelFilter::Debug);
    let ((from_tracing, from_log), status) = l4rs::core::status::observe(l4rs::Level::WARN, || {
        let from_tracing = line!() + 1;
        tracing::info!(target: "legacy::db", "from tracing");
        let from_log = line!() + 1;
        log::debug!(target: "legacy::db::pool", "from log, {} args", 2);
        log::trace!(target: "legacy::db::pool", "below debug");
        log::info!(target: "elsewhere", "not routed");
        (from_tracing, from_log)
    });
    l4rs::shutdown();
    assert!(status.is_empty(), "{status:?}");
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("out.log")),
        [
            format!("legacy::db|INFO|tracing_log_tracer|?|tracing_log_tracer.rs|{from_tracing}|from tracing|{{}}"),
            format!("legacy::db::pool|DEBUG|tracing_log_tracer|?|tracing_log_tracer.rs|{from_log}|from log, 2 args|{{}}"),
        ]
    );
}
