//! Nothing queued is lost when a program ends without calling `l4rs::shutdown()`: returning
//! from `main`, `std::process::exit` and a panic in `main` drain the AsyncLogger queue and the
//! Async appenders into buffered appenders, which are then flushed and closed.

/// Runs the probe in `mode` and checks its files.
fn check(mode: &str) {
    l4rs_tests::check_exit_probe(
        env!("CARGO_BIN_EXE_l4rs-exit-probe"),
        &format!("async-exit-{mode}"),
        mode,
        r#"<Async name="A" bufferSize="8"><AppenderRef ref="F"/></Async>"#,
        r#"<AsyncRoot level="info"><AppenderRef ref="R"/><AppenderRef ref="M"/><AppenderRef ref="A"/></AsyncRoot>"#,
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
