//! `l4rs::tracing::layer()` beside another layer that has no filter, as an OpenTelemetry
//! layer sits: `tracing` then asks l4rs's per-layer filter about every event (a call site
//! l4rs does not want is still wanted by the other layer), so the filter's per-event answer
//! must be as cheap as the layer's own path. Enabled events, events whose logger is disabled
//! and events below every l4rs logger's level allocate nothing in steady state: the filter
//! reads the most verbose level from an atomic and the call site's logger from a per-thread
//! cache, never the global logger registry.

use std::sync::atomic::{AtomicUsize, Ordering};

use l4rs_tests::allocations::{self, CountingAllocator};
use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::prelude::*;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

/// Counts every event it sees (it wants them all, and has no filter).
struct CountEvents(&'static AtomicUsize);

impl<S: tracing::Subscriber> Layer<S> for CountEvents {
    fn on_event(&self, _: &tracing::Event<'_>, _: Context<'_, S>) {
        self.0.fetch_add(1, Ordering::Relaxed);
    }
}

#[test]
fn the_layer_beside_an_unfiltered_layer_does_not_allocate_per_event() {
    static SEEN: AtomicUsize = AtomicUsize::new(0);
    let dir = l4rs_tests::init_file_logger(
        "tracing-beside-zero-allocation",
        ("Out", "%c %p %m%n"),
        ("chatty", "debug"),
    );
    tracing_subscriber::registry()
        .with(l4rs::tracing::layer())
        .with(CountEvents(&SEEN))
        .init();
    let run = |count: usize| {
        for index in 0..count {
            tracing::debug!(target: "chatty", "written {}", index);
            // Not wanted by l4rs (root is off), wanted by the other layer.
            tracing::info!(target: "quiet", "other layer only {}", index);
            // Below every l4rs logger's level, wanted by the other layer.
            tracing::trace!(target: "chatty", "below debug {}", index);
        }
    };
    run(1_000);
    let allocations = allocations::allocations_during(|| run(10_000));
    l4rs::shutdown();
    assert_eq!(allocations, 0, "allocations in 10,000 steady-state rounds");
    assert_eq!(SEEN.load(Ordering::Relaxed), 3 * 11_000);
    let lines = l4rs_tests::read_lines(&dir.join("out.log"));
    assert_eq!(lines.len(), 11_000);
    assert_eq!(lines[10_999], "chatty DEBUG written 9999");
}
