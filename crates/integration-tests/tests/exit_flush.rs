//! Nothing buffered is lost when a program ends without calling `l4rs::shutdown()`: returning
//! from `main`, `std::process::exit` and a panic in `main` all flush and close the appenders.
//! A buffered File, a RandomAccessFile without immediate flush (whose 256 KiB buffer holds all
//! 1000 events) and a MemoryMappedFile (which must be truncated to its data, not left padded
//! to the end of its region) are checked in each case, and a `panic = "abort"` build is
//! modelled: the panic hook flushes before the abort.

const PROBE: &str = env!("CARGO_BIN_EXE_l4rs-exit-probe");

/// A root that sends every event to the probe's three appenders.
const ROOT_TO_ALL: &str = r#"<Root level="info"><AppenderRef ref="F"/><AppenderRef ref="R"/><AppenderRef ref="M"/></Root>"#;

/// Runs the probe in `mode` and checks its files.
fn check(mode: &str) {
    l4rs_tests::check_exit_probe(PROBE, &format!("exit-{mode}"), mode, "", ROOT_TO_ALL);
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

/// The signal `abort` raises on Linux.
const SIGABRT: i32 = 6;

/// With `panic = "abort"` (modelled by the probe's `panic-abort` mode: the panic hook runs,
/// then the process aborts without exit handlers), l4rs's panic hook still flushes: the
/// buffered File and the RandomAccessFile without immediate flush hold every event (no footer,
/// since nothing closed them), and the MemoryMappedFile holds its data followed by the NUL
/// padding of its region, which the next run's `append="true"` open cuts off.
#[test]
fn panic_with_abort_flushes_and_the_next_open_cuts_the_padding() {
    use std::os::unix::process::ExitStatusExt as _;

    let dir = l4rs_tests::fresh_output_dir("exit-panic-abort");
    let config =
        l4rs_tests::write_exit_probe_config(&dir, r#" regionLength="65536""#, "", ROOT_TO_ALL);
    let read = |file: &str| std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));

    let status = l4rs_tests::run_exit_probe(PROBE, "panic-abort", &config);
    assert_eq!(status.signal(), Some(SIGABRT), "{status}");
    let events = l4rs_tests::exit_probe_events();
    for file in ["file.log", "raf.log"] {
        assert_eq!(
            String::from_utf8(read(file)).unwrap(),
            events,
            "{file}: flushed by the panic hook, never closed"
        );
    }
    let mapped = read("mmf.log");
    assert_eq!(mapped.len(), 65536, "mmf.log keeps its whole region");
    assert_eq!(&mapped[..events.len()], events.as_bytes(), "mmf.log data");
    assert!(
        mapped[events.len()..].iter().all(|&b| b == 0),
        "mmf.log: only NUL padding after the data"
    );

    // The next run appends right after the data, and its normal end closes every file.
    assert!(l4rs_tests::run_exit_probe(PROBE, "return", &config).success());
    for file in ["file.log", "raf.log", "mmf.log"] {
        assert_eq!(
            String::from_utf8(read(file)).unwrap(),
            format!("{events}{events}footer\n"),
            "{file}: no padding left between the runs"
        );
    }
}
