//! What a log call costs when its level is disabled: l4rs aims at "a few nanoseconds".
//!
//! Run with `cargo bench -p l4rs-bench --bench disabled_level`; `cargo test` runs each
//! benchmark once as a smoke test. The context is log4j2's default configuration (root at
//! ERROR, console), so every DEBUG call below is disabled and nothing is written.

use std::hint::black_box;

fn main() {
    // No configuration file: the default configuration, root at ERROR.
    std::env::remove_var("LOG4RS_CONFIGURATION_FILE");
    std::env::remove_var("LOG4J_CONFIGURATION_FILE");
    let logger = l4rs::get_logger("bench.disabled");
    assert!(
        !logger.is_enabled(l4rs::Level::DEBUG),
        "DEBUG must be disabled for this benchmark to measure a disabled call"
    );
    divan::main();
}

/// `Logger::is_enabled` alone: the atomic load every macro starts with.
#[divan::bench]
fn is_enabled(bencher: divan::Bencher<'_, '_>) {
    let logger = l4rs::get_logger("bench.disabled");
    bencher.bench_local(|| black_box(&logger).is_enabled(black_box(l4rs::Level::DEBUG)));
}

/// A disabled `debug!` with format arguments, as the benchmark's workload writes it.
#[divan::bench]
fn debug_macro_with_arguments(bencher: divan::Bencher<'_, '_>) {
    let logger = l4rs::get_logger("bench.disabled");
    let (host, elapsed) = ("db-1.internal", 17u64);
    bencher.bench_local(|| {
        let logger = black_box(&logger);
        l4rs::debug!(
            logger,
            "connected to {} in {} ms",
            black_box(host),
            black_box(elapsed)
        )
    });
}

/// A disabled `debug!` carrying an error: the error is never converted or rendered.
#[divan::bench]
fn debug_macro_with_error(bencher: divan::Bencher<'_, '_>) {
    let logger = l4rs::get_logger("bench.disabled");
    let error = std::io::Error::other("disk full");
    bencher.bench_local(|| {
        let logger = black_box(&logger);
        l4rs::debug!(
            logger,
            error = black_box(&error),
            "write failed after {} retries",
            black_box(3)
        )
    });
}

/// A disabled `log::debug!` through the `log` bridge (the `log` crate's own max-level check).
#[divan::bench]
fn log_crate_debug(bencher: divan::Bencher<'_, '_>) {
    bencher.bench_local(|| log::debug!(target: "bench.disabled", "value {}", black_box(42)));
}
