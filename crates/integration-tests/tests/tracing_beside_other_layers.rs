//! `l4rs::tracing::layer()` beside another layer (as an OpenTelemetry layer would sit): l4rs's
//! per-layer filter hides from the other layer nothing that l4rs does not want, and the other
//! layer's interest does not make l4rs write what its configuration disables.

use std::sync::atomic::{AtomicUsize, Ordering};

use tracing_subscriber::layer::{Context, Layer};
use tracing_subscriber::prelude::*;

/// Counts every event it sees (it wants them all).
struct CountEvents(&'static AtomicUsize);

impl<S: tracing::Subscriber> Layer<S> for CountEvents {
    fn on_event(&self, _: &tracing::Event<'_>, _: Context<'_, S>) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }
}

#[test]
fn events_l4rs_does_not_want_still_reach_the_other_layer() {
    static SEEN: AtomicUsize = AtomicUsize::new(0);
    let dir = l4rs_tests::init_file_logger(
        "tracing-beside-other-layers",
        ("Out", "%c %p %m%n"),
        ("quiet", "warn"),
    );
    tracing_subscriber::registry()
        .with(l4rs::tracing::layer())
        .with(CountEvents(&SEEN))
        .init();
    tracing::debug!(target: "quiet", "only the other layer");
    tracing::trace!(target: "elsewhere", "only the other layer too");
    tracing::warn!(target: "quiet", "both");
    l4rs::shutdown();
    assert_eq!(SEEN.load(Ordering::SeqCst), 3);
    assert_eq!(
        l4rs_tests::read_lines(&dir.join("out.log")),
        ["quiet WARN both"]
    );
}
