//! Nothing queued is lost when a program ends without calling `l4rs::shutdown()`: returning
//! from `main`, `std::process::exit` and a panic in `main` or on another thread drain the
//! AsyncLogger queue and the Async appenders into buffered appenders, which are then flushed
//! and closed; an explicit `l4rs::shutdown()` before the exit hook's writes everything once.

/// Runs the probe in `mode` and checks its files. The logging thread feeds the small Async
/// appender directly (a synchronous logger), so it waits for room and the order is kept; an
/// AsyncLogger thread would write into a full Async appender itself, out of order, as log4j2's
/// threads do (`async_cross_queue.rs`). The AsyncRoot above queues every event too.
fn check(mode: &str) {
    l4rs_tests::check_exit_probe(
        env!("CARGO_BIN_EXE_l4rs-exit-probe"),
        &format!("async-exit-{mode}"),
        mode,
        r#"<Async name="A" bufferSize="8"><AppenderRef ref="F"/></Async>"#,
        r#"<Logger name="probe" level="info"><AppenderRef ref="A"/></Logger>
  <AsyncRoot level="info"><AppenderRef ref="R"/><AppenderRef ref="M"/></AsyncRoot>"#,
    );
}

#[test]
fn returning_from_main_drains_the_queues() {
    check("return");
}

#[test]
fn process_exit_drains_the_queues() {
    check("exit");
}

#[test]
fn panicking_main_drains_the_queues() {
    check("panic");
}

#[test]
fn an_explicit_shutdown_then_exit_writes_everything_once() {
    check("shutdown");
}

#[test]
fn a_panic_on_another_thread_loses_nothing() {
    check("thread-panic");
}
