//! A program that logs and then ends, in most modes without calling `l4rs::shutdown()` (only
//! the `shutdown` mode calls it), used by the tests that check what survives the end of a
//! process. `l4rs-exit-probe MODE CONFIG [RUN]`:
//!
//! * `return`, `exit`, `panic`: logs `event 0` … `event 999` on the logger `probe`, then returns
//!   from main, calls `std::process::exit`, or panics in main (`crates/integration-tests/tests/exit_flush.rs`).
//! * `panic-abort`: logs the same, then does what a `panic = "abort"` build does on a panic:
//!   the panic hook runs, then the process aborts (SIGABRT) with no unwinding out of main and
//!   no exit handler (`crates/integration-tests/tests/exit_flush.rs`).
//! * `shutdown`: logs the same, calls `l4rs::shutdown()`, then returns (the exit hook's second
//!   shutdown must change nothing). `thread-panic`: a spawned thread logs the same and panics;
//!   main returns normally (`crates/integration-tests/tests/async_exit.rs`).
//! * `crash-loop`: four threads log `R<RUN> T<thread> <sequence> <payload>` on the logger
//!   `crash` without end, and after each call returns print `A <thread> <sequence>` on stdout
//!   (one `write` per line), so a test that kills the process knows which calls had returned
//!   (`crates/integration-tests/tests/crash_kill.rs`).

use std::io::Write as _;

use l4rs_tests::CRASH_PAYLOAD;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_default();
    let config = args
        .next()
        .expect("usage: l4rs-exit-probe MODE CONFIG [RUN]");
    l4rs::init_with_file(config).expect("configuration loads");
    if mode == "crash-loop" {
        let run: u32 = args
            .next()
            .and_then(|run| run.parse().ok())
            .expect("crash-loop needs a run number");
        crash_loop(run);
    }
    let log_events = || {
        let logger = l4rs::get_logger("probe");
        for index in 0..1000 {
            l4rs::info!(logger, "event {index}");
        }
    };
    if mode == "thread-panic" {
        let outcome = std::thread::spawn(move || {
            log_events();
            panic!("a logging thread panics");
        })
        .join();
        assert!(outcome.is_err(), "the logging thread panicked");
        return;
    }
    log_events();
    match mode.as_str() {
        "shutdown" => l4rs::shutdown(),
        "exit" => std::process::exit(0),
        "panic" => panic!("the probe panics without calling shutdown"),
        "panic-abort" => panic_then_abort(),
        _ => {}
    }
}

/// A panic in a `panic = "abort"` build, modelled in this unwinding build: std runs the panic
/// hook and then aborts instead of unwinding. Here the hook runs for a panic that is caught at
/// once (nothing is dropped on the way), and the abort follows; `atexit` handlers never run.
fn panic_then_abort() -> ! {
    let _ = std::panic::catch_unwind(|| panic!("the probe panics as panic = \"abort\" would"));
    std::process::abort()
}

/// Logs from four threads until the process is killed.
fn crash_loop(run: u32) -> ! {
    let threads: Vec<_> = (0..4)
        .map(|thread| {
            std::thread::spawn(move || {
                let logger = l4rs::get_logger("crash");
                let stdout = std::io::stdout();
                for sequence in 0u64.. {
                    l4rs::info!(logger, "R{run} T{thread} {sequence} {CRASH_PAYLOAD}");
                    // Acknowledged only after the call returned; a line lost in the kill only
                    // makes the test expect less.
                    let mut out = stdout.lock();
                    if writeln!(out, "A {thread} {sequence}").is_err() {
                        break;
                    }
                }
            })
        })
        .collect();
    for thread in threads {
        let _ = thread.join();
    }
    std::process::exit(1)
}
