//! `l4rs::tracing::init()` before l4rs's own initialisation: the layer loads the default
//! configuration, l4rs's `log` bridge takes the `log` crate at once (no `log` record is lost
//! waiting for a first `tracing` event), and the configuration put in force afterwards
//! routes `log` records and `tracing` events, each once.

#[test]
fn initialising_tracing_first_then_l4rs_routes_log_and_tracing_once() {
    l4rs::tracing::init().expect("the first tracing subscriber");
    // l4rs's bridge holds `log` already.
    assert!(tracing_log::LogTracer::init().is_err());
    let dir = l4rs_tests::init_file_logger(
        "tracing-init-before-l4rs",
        ("Out", "%c|%p|%m|%X%n"),
        ("my_app", "debug"),
    );
    log::debug!(target: "my_app::db", "from log");
    tracing::debug!(target: "my_app::web", id = 7, "from tracing");
    tracing::trace!(target: "my_app::web", "below debug");
    l4rs::shutdown();
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("out.log")),
        [
            "my_app::db|DEBUG|from log|{}",
            "my_app::web|DEBUG|from tracing|{id=7}"
        ]
    );
}
