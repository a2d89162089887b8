//! What `l4rs::tracing::layer()`'s per-layer filter costs per event when another layer with
//! no filter sits beside it (an OpenTelemetry or fmt layer): `tracing` then cannot cache the
//! call site's interest and asks l4rs's filter about every event.
//!
//! Run with `cargo bench -p l4rs-bench --features tracing --bench tracing_beside`. The
//! configuration has one logger at DEBUG (`bench.enabled`) and root at ERROR; the other layer
//! does nothing with what it sees, so the figures are the subscriber's dispatch plus l4rs's
//! filter deciding that it does not want the event.

use std::hint::black_box;

use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::prelude::*;

/// Wants every event and does nothing with it.
struct WantsEverything;

impl<S: tracing::Subscriber> Layer<S> for WantsEverything {
    fn on_event(&self, event: &tracing::Event<'_>, _: Context<'_, S>) {
        black_box(event);
    }
}

fn main() {
    l4rs_bench::ours::init_with_xml("tracing-beside", l4rs_bench::ours::ONE_LOGGER_AT_DEBUG)
        .expect("the configuration loads");
    tracing_subscriber::registry()
        .with(l4rs::tracing::layer())
        .with(WantsEverything)
        .init();
    divan::main();
}

/// A `tracing::debug!` whose logger l4rs does not enable, seen by the other layer: l4rs's
/// filter answers per event. With two threads, shared state touched per event (a lock, a
/// reference count) shows as contention.
#[divan::bench(threads = [1, 2])]
fn debug_l4rs_does_not_want(bencher: divan::Bencher<'_, '_>) {
    let call = || tracing::debug!(target: "bench.disabled", "value {}", black_box(42));
    call();
    bencher.bench(call);
}

/// A `tracing::trace!` below every l4rs logger's level, seen by the other layer.
#[divan::bench(threads = [1, 2])]
fn trace_below_every_l4rs_logger(bencher: divan::Bencher<'_, '_>) {
    let call = || tracing::trace!(target: "bench.enabled", "value {}", black_box(42));
    call();
    bencher.bench(call);
}
