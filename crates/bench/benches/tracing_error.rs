//! What an error value costs a `tracing` event routed by `l4rs::tracing::layer()`, beside the
//! same error through l4rs's own macro: the layer converts the error (its `Display` and its
//! sources') into a per-thread throwable on every event, the macro hands the error over and the
//! layout converts it when it prints it.
//!
//! Run with `cargo bench -p l4rs-bench --features tracing --bench tracing_error`. One logger at
//! ERROR writes `%m %ex{full}%n` into a buffered File appender on `/dev/null` (no flush per
//! event), so the figures are routing, conversion and formatting, not the disk.

use std::hint::black_box;

use l4rs_test_support::RequestFailed;

fn error() -> &'static RequestFailed {
    static ERROR: std::sync::OnceLock<RequestFailed> = std::sync::OnceLock::new();
    ERROR.get_or_init(|| RequestFailed(std::io::Error::other("disk full")))
}

fn main() {
    l4rs_bench::ours::init_with_xml(
        "tracing-error",
        r#"<Configuration><Appenders>
  <File name="Null" fileName="/dev/null" immediateFlush="false"><PatternLayout pattern="%m %ex{full}%n"/></File>
</Appenders><Loggers><Logger name="bench.errors" level="error" additivity="false"><AppenderRef ref="Null"/></Logger><Root level="off"/></Loggers></Configuration>"#,
    )
    .expect("the configuration loads");
    l4rs::tracing::init().expect("the first subscriber");
    divan::main();
}

/// The event without an error.
#[divan::bench]
fn tracing_without_error(bencher: divan::Bencher<'_, '_>) {
    bencher.bench(|| tracing::error!(target: "bench.errors", "failed {}", black_box(1)));
}

/// The error as `tracing`'s error value: converted by the layer, printed with its source.
#[divan::bench]
fn tracing_with_error(bencher: divan::Bencher<'_, '_>) {
    let error: &(dyn std::error::Error + Send + Sync + 'static) = error();
    bencher.bench(|| tracing::error!(target: "bench.errors", error, "failed {}", black_box(1)));
}

/// The same error through l4rs's macro, as `dyn Error` (named as the layer names it).
#[divan::bench]
fn macro_with_error(bencher: divan::Bencher<'_, '_>) {
    let logger = l4rs::get_logger("bench.errors");
    let error: &(dyn std::error::Error + Send + Sync + 'static) = error();
    bencher.bench(|| l4rs::error!(logger, error = error, "failed {}", black_box(1)));
}

/// The event without an error through l4rs's macro.
#[divan::bench]
fn macro_without_error(bencher: divan::Bencher<'_, '_>) {
    let logger = l4rs::get_logger("bench.errors");
    bencher.bench(|| l4rs::error!(logger, "failed {}", black_box(1)));
}
