//! The order a program most often writes: l4rs initialised first (its `log` bridge takes the
//! `log` crate then), the `tracing` subscriber second. `tracing-subscriber`'s `init()` panics
//! in that order (it installs `tracing-log`'s `LogTracer`, and `log` has a logger already);
//! `l4rs::tracing::install` sets the subscriber without a panic, and `log` records and
//! `tracing` events each reach the appenders once.

use tracing_subscriber::prelude::*;

#[test]
fn installing_the_subscriber_after_l4rs_routes_log_and_tracing_once() {
    let dir = l4rs_tests::init_file_logger(
        "tracing-init-after-l4rs",
        ("Out", "%c|%p|%m|%X%n"),
        ("my_app", "debug"),
    );
    // l4rs's bridge holds `log` now: what makes `tracing-subscriber`'s `init()` fail.
    assert!(
        tracing_log::LogTracer::init().is_err(),
        "l4rs's bridge took log"
    );
    let subscriber = tracing_subscriber::registry().with(l4rs::tracing::layer());
    let (installed, status) =
        l4rs::core::status::observe(l4rs::Level::WARN, || l4rs::tracing::install(subscriber));
    assert!(installed.is_ok(), "{installed:?}");
    assert!(status.is_empty(), "{status:?}");
    tracing::info!(target: "my_app::web", user = "ann", "from tracing");
    log::info!(target: "my_app::db", "from log");
    log::trace!(target: "my_app::db", "below debug");
    // A second subscriber is refused, without a panic; the first one stays.
    let second = l4rs::tracing::init();
    assert!(second.is_err());
    tracing::debug!(target: "my_app", "still routed");
    l4rs::shutdown();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("out.log")),
        [
            "my_app::web|INFO|from tracing|{user=ann}",
            "my_app::db|INFO|from log|{}",
            "my_app|DEBUG|still routed|{}",
        ]
    );
}
