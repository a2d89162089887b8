//! Nothing buffered is lost when a program ends without calling `l4rs::shutdown()`: returning
//! from `main`, `std::process::exit` and a panic in `main` all flush and close the appenders.
//! A buffered File, a RandomAccessFile without immediate flush (whose 256 KiB buffer holds all
//! 1000 events) and a MemoryMappedFile (which must be truncated to its data, not left padded
//! to the end of its region) are checked in each case.

/// Runs the probe in `mode` and checks its files.
fn check(mode: &str) {
    l4rs_tests::check_exit_probe(
        env!("CARGO_BIN_EXE_l4rs-exit-probe"),
        &format!("exit-{mode}"),
        mode,
        "",
        r#"<Root level="info"><AppenderRef ref="F"/><AppenderRef ref="R"/><AppenderRef ref="M"/></Root>"#,
    );
}

#[test]
fn returning_from_main_flushes() {
    check("return");
}

#[test]
fn process_exit_flushes() {
    check("exit");
}

#[test]
fn panicking_main_flushes() {
    check("panic");
}
