//! Runs a workload on N threads: a warm-up, then one measured window.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::alloc::{self, AllocSnapshot};
use crate::progress::Progress;
use crate::workload::{Coin, Workload};

/// What one measured run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sample {
    /// Operations completed inside the measured window.
    pub ops: u64,
    /// Length of the measured window.
    pub seconds: f64,
    /// Allocations of the whole process inside the measured window.
    pub alloc: AllocSnapshot,
    /// Operations of the whole run, warm-up included (every one wrote an event).
    pub events: u64,
}

/// One worker's operation count, alone on its cache line: written by its worker only, read by
/// the main thread at the window's edges.
#[repr(align(128))]
#[derive(Default)]
struct Counter(AtomicU64);

/// Runs `workload` on `threads` threads named `bench-0`, `bench-1`, … (the names `%t` prints):
/// `warmup`, then `measure`, moving `progress` through its current step as time passes.
pub fn run(
    workload: &dyn Workload,
    threads: usize,
    warmup: Duration,
    measure: Duration,
    progress: &Progress,
) -> Sample {
    let running = AtomicBool::new(true);
    let counters: Vec<Counter> = (0..threads).map(|_| Counter::default()).collect();
    let total = warmup + measure;
    std::thread::scope(|scope| {
        for (index, counter) in counters.iter().enumerate() {
            let running = &running;
            std::thread::Builder::new()
                .name(format!("bench-{index}"))
                .spawn_scoped(scope, move || {
                    let mut coin = Coin::new(index as u64 + 1);
                    let mut done = 0u64;
                    while running.load(Ordering::Relaxed) {
                        if coin.error_this_time() {
                            workload.with_error();
                        } else {
                            workload.plain();
                        }
                        done += 1;
                        counter.0.store(done, Ordering::Relaxed);
                    }
                })
                .expect("cannot spawn a benchmark thread");
        }
        let start = Instant::now();
        wait_until(start, warmup, total, progress);
        let ops0 = sum(&counters);
        let alloc0 = alloc::snapshot();
        let t0 = Instant::now();
        // The window is `measure` long from its real start, however late the warm-up ended.
        wait_until(start, t0.duration_since(start) + measure, total, progress);
        let ops1 = sum(&counters);
        let alloc1 = alloc::snapshot();
        let seconds = t0.elapsed().as_secs_f64();
        running.store(false, Ordering::Relaxed);
        Sample {
            ops: ops1 - ops0,
            seconds,
            alloc: alloc1.since(alloc0),
            events: 0,
        }
    })
    .with_events(sum(&counters))
}

impl Sample {
    fn with_events(mut self, events: u64) -> Sample {
        self.events = events;
        self
    }
}

fn sum(counters: &[Counter]) -> u64 {
    counters.iter().map(|c| c.0.load(Ordering::Relaxed)).sum()
}

/// Sleeps until `deadline` after `start`, redrawing the progress bar; drawing does not
/// allocate, so it does not pollute the allocation figures of the window.
fn wait_until(start: Instant, deadline: Duration, total: Duration, progress: &Progress) {
    loop {
        let elapsed = start.elapsed();
        if elapsed >= deadline {
            return;
        }
        progress.set_fraction(elapsed.as_secs_f64() / total.as_secs_f64().max(1e-9));
        std::thread::sleep((deadline - elapsed).min(Duration::from_millis(100)));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    struct Count(AtomicU64, AtomicU64);

    impl Workload for Count {
        fn plain(&self) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
        fn with_error(&self) {
            self.1.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn counts_operations_and_mixes_in_errors() {
        let workload = Count(AtomicU64::new(0), AtomicU64::new(0));
        let sample = run(
            &workload,
            2,
            Duration::from_millis(20),
            Duration::from_millis(50),
            &Progress::hidden(),
        );
        let plain = workload.0.load(Ordering::Relaxed);
        let errors = workload.1.load(Ordering::Relaxed);
        assert_eq!(sample.events, plain + errors);
        assert!(sample.ops > 0 && sample.ops <= sample.events);
        assert!(sample.seconds >= 0.05);
        let share = errors as f64 / sample.events as f64;
        assert!((0.15..0.25).contains(&share), "{share}");
    }
}
