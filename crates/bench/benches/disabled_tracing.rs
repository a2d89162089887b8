//! What a disabled `tracing::debug!` costs through `l4rs::tracing::layer()`, beside a disabled
//! `l4rs::debug!` in the same configuration.
//!
//! Run with `cargo bench -p l4rs-bench --features tracing --bench disabled_tracing`. The
//! configuration has one logger at DEBUG (`bench.enabled`) and root at ERROR, so `tracing`'s
//! global maximum level is DEBUG: a `tracing::debug!` to another target passes that check and
//! is stopped by its call site's cached interest, which l4rs's routing decided (never).

use std::hint::black_box;

use tracing_subscriber::prelude::*;

fn main() {
    l4rs_bench::ours::init_with_xml("disabled-tracing", l4rs_bench::ours::ONE_LOGGER_AT_DEBUG)
        .expect("the configuration loads");
    tracing_subscriber::registry()
        .with(l4rs::tracing::layer())
        .init();
    assert_eq!(
        tracing::level_filters::LevelFilter::current(),
        tracing::level_filters::LevelFilter::DEBUG
    );
    divan::main();
}

/// A disabled `tracing::debug!` with an argument: stopped by its call site's interest.
#[divan::bench]
fn tracing_debug_disabled_at_its_call_site(bencher: divan::Bencher<'_, '_>) {
    let call = || tracing::debug!(target: "bench.disabled", "value {}", black_box(42));
    // The first call registers the call site (l4rs decides its interest then); without it the
    // first sample would be that registration and divan would time single calls.
    call();
    bencher.bench_local(call);
}

/// A disabled `tracing::trace!`: stopped by `tracing`'s global maximum level (DEBUG here, from
/// l4rs's most verbose logger).
#[divan::bench]
fn tracing_trace_disabled_by_the_max_level(bencher: divan::Bencher<'_, '_>) {
    let call = || tracing::trace!(target: "bench.enabled", "value {}", black_box(42));
    call();
    bencher.bench_local(call);
}

/// A disabled `l4rs::debug!` in the same configuration: the logger's atomic load.
#[divan::bench]
fn l4rs_debug_macro(bencher: divan::Bencher<'_, '_>) {
    let logger = l4rs::get_logger("bench.disabled");
    bencher.bench_local(|| {
        let logger = black_box(&logger);
        l4rs::debug!(logger, "value {}", black_box(42))
    });
}
