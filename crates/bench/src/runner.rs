//! Runs a workload on N threads: a warm-up, one measured window, then the drain.
//!
//! The measurement is end to end: after the producers' window the workers stop and a `drain`
//! callback (e.g. `l4rs::flush()`) waits until every event handed over is in the file; the
//! operations of the window are divided by the window *plus* that drain. A synchronous logger
//! drains in no time, so its figure is unchanged; an asynchronous one cannot look fast by
//! leaving its queue full when the clock stops.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::alloc::{self, AllocSnapshot};
use crate::progress::Progress;
use crate::workload::{Coin, Workload};

/// What one measured run produced.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Sample {
    /// Operations completed inside the producers' window.
    pub ops: u64,
    /// Length of the producers' window.
    pub window_seconds: f64,
    /// From the window's start until the drain returned: the time `ops` really took to be
    /// written.
    pub seconds: f64,
    /// The producer threads' allocations inside their window (the logging calls' own cost).
    pub alloc: AllocSnapshot,
    /// Every other thread's allocations from the window's start until the drain returned
    /// (background writers), less what the drain call itself allocated on the calling thread.
    pub background_alloc: AllocSnapshot,
    /// Operations of the whole run, warm-up included (every one wrote an event).
    pub events: u64,
}

/// One worker's operation count, alone on its cache line: written by its worker only, read by
/// the main thread at the window's edges.
#[repr(align(128))]
#[derive(Default)]
struct Counter(AtomicU64);

/// Runs `workload` on `threads` threads named `bench-0`, `bench-1`, … (the names `%t` prints):
/// `warmup`, then `measure`, moving `progress` through its current step as time passes; then
/// stops the workers and calls `drain`, which must return once every event logged so far is
/// written (it is part of the measured time).
pub fn run(
    workload: &dyn Workload,
    threads: usize,
    warmup: Duration,
    measure: Duration,
    progress: &Progress,
    drain: &dyn Fn(),
) -> Sample {
    let running = AtomicBool::new(true);
    let counters: Vec<Counter> = (0..threads).map(|_| Counter::default()).collect();
    let total = warmup + measure;
    let (t0, ops, window_seconds, alloc0, alloc1) = std::thread::scope(|scope| {
        for (index, counter) in counters.iter().enumerate() {
            let running = &running;
            std::thread::Builder::new()
                .name(format!("bench-{index}"))
                .spawn_scoped(scope, move || {
                    alloc::mark_producer_thread();
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
        let alloc0 = alloc::split_snapshot();
        let t0 = Instant::now();
        // The window is `measure` long from its real start, however late the warm-up ended.
        wait_until(start, t0.duration_since(start) + measure, total, progress);
        let ops1 = sum(&counters);
        let alloc1 = alloc::split_snapshot();
        let window_seconds = t0.elapsed().as_secs_f64();
        running.store(false, Ordering::Relaxed);
        (t0, ops1 - ops0, window_seconds, alloc0, alloc1)
    });
    // The scope has joined the workers, so nothing is handed over any more: the drain waits
    // for exactly the events logged so far.
    let main_before = alloc::this_thread();
    drain();
    let seconds = t0.elapsed().as_secs_f64();
    let drained = alloc::split_snapshot();
    // What the drain call allocated on this thread (e.g. polling queue counters) is the
    // bench's, not the logger's background work.
    let drain_own = alloc::this_thread().since(main_before);
    Sample {
        ops,
        window_seconds,
        seconds,
        alloc: alloc1.since(alloc0).producers,
        background_alloc: drained.since(alloc0).others.since(drain_own),
        events: sum(&counters),
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
        let _lock = crate::alloc::producer_test_lock();
        let workload = Count(AtomicU64::new(0), AtomicU64::new(0));
        // A window long enough that both workers get a core in it even on a loaded machine
        // (with 50 ms, a run-queue of ~80 on two cores left it without a single operation).
        let sample = run(
            &workload,
            2,
            Duration::from_millis(20),
            Duration::from_millis(500),
            &Progress::hidden(),
            &|| {},
        );
        let plain = workload.0.load(Ordering::Relaxed);
        let errors = workload.1.load(Ordering::Relaxed);
        assert_eq!(sample.events, plain + errors);
        assert!(sample.ops > 0 && sample.ops <= sample.events);
        assert!(sample.window_seconds >= 0.5);
        assert!(sample.seconds >= sample.window_seconds);
        let share = errors as f64 / sample.events as f64;
        assert!((0.15..0.25).contains(&share), "{share}");
        // The workers allocate nothing per operation here, and are the only producers.
        assert_eq!(sample.alloc.bytes, 0);
    }

    /// A queue stand-in: operations only count up, and the drain "writes" them all.
    struct Queue {
        handed_over: AtomicU64,
        written: AtomicU64,
    }

    impl Workload for Queue {
        fn plain(&self) {
            self.handed_over.fetch_add(1, Ordering::Relaxed);
        }
        fn with_error(&self) {
            self.plain();
        }
    }

    #[test]
    fn the_drain_runs_after_the_workers_stopped_and_is_part_of_the_time() {
        let _lock = crate::alloc::producer_test_lock();
        let queue = Queue {
            handed_over: AtomicU64::new(0),
            written: AtomicU64::new(0),
        };
        let sample = run(
            &queue,
            2,
            Duration::ZERO,
            Duration::from_millis(20),
            &Progress::hidden(),
            &|| {
                // Every worker has stopped: nothing is handed over after this point.
                let all = queue.handed_over.load(Ordering::SeqCst);
                queue.written.store(all, Ordering::SeqCst);
                // A background writer allocates while draining.
                std::thread::spawn(|| {
                    let garbage: Vec<u8> = std::hint::black_box(Vec::with_capacity(5000));
                    drop(garbage);
                })
                .join()
                .unwrap();
            },
        );
        assert_eq!(
            queue.written.load(Ordering::SeqCst),
            queue.handed_over.load(Ordering::SeqCst)
        );
        assert_eq!(sample.events, queue.handed_over.load(Ordering::SeqCst));
        assert!(sample.seconds >= sample.window_seconds);
        // The writer is not a producer: counted as background, not per operation.
        assert!(sample.background_alloc.bytes >= 5000);
        assert_eq!(sample.alloc.bytes, 0);
    }
}
