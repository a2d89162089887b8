//! Runs a workload at a fixed rate on N threads and times every call.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Barrier, Mutex};
use std::time::{Duration, Instant};

use super::histogram::Histogram;
use super::schedule::{latency_ns, wait_until, Schedule};
use crate::alloc;
use crate::workload::{Coin, Workload};

/// What a fixed-rate run measured.
pub struct Recorded {
    /// Every measured call's latency, all workers merged.
    pub histogram: Histogram,
    /// Calls the schedule had due in the window (one per interval per thread).
    pub due: u64,
    /// The workers' allocations in the window (timing and recording must add none).
    pub alloc_bytes: u64,
    /// Every call the workers made, warm-up included: what the log files hold.
    pub calls_made: u64,
}

/// Runs `workload` on `threads` threads: first flat out for `warmup` (so both sides' code is
/// warm: a fixed low rate would take log4j2's JIT many seconds to compile the error path),
/// then, once `drain` has emptied the queues, each thread offers `rate_per_second` calls on
/// the fixed [`Schedule`] for `measure`, every call timed from its due time to its return on
/// the monotonic clock into a histogram allocated before the start. Then `drain` again
/// (outside the timing). Between the warm-up's drain and the window's start, `settle` runs
/// once: the caller writes back what the warm-up left dirty ([`super::settle`]).
pub fn run(
    workload: &dyn Workload,
    threads: usize,
    rate_per_second: f64,
    warmup: Duration,
    measure: Duration,
    drain: &dyn Fn(),
    settle: &dyn Fn(),
) -> Recorded {
    let warm_until = Instant::now() + warmup;
    let stop = AtomicBool::new(false);
    // Workers meet here after the warm-up, and again once the main thread has drained the
    // queues and fixed the schedule's start.
    let barrier = Barrier::new(threads + 1);
    let start: Mutex<Option<Instant>> = Mutex::new(None);
    let results: Vec<Worker> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..threads)
            .map(|index| {
                let (stop, barrier, start) = (&stop, &barrier, &start);
                std::thread::Builder::new()
                    .name(format!("bench-{index}"))
                    .spawn_scoped(scope, move || {
                        let mut histogram = Histogram::new();
                        alloc::mark_producer_thread();
                        let mut coin = Coin::new(index as u64 + 1);
                        let call = |coin: &mut Coin| {
                            if coin.error_this_time() {
                                workload.with_error();
                            } else {
                                workload.plain();
                            }
                        };
                        let mut warm_calls = 0;
                        while Instant::now() < warm_until {
                            call(&mut coin);
                            warm_calls += 1;
                        }
                        barrier.wait();
                        barrier.wait();
                        let Some(start) = *start.lock().unwrap_or_else(|e| e.into_inner()) else {
                            return Worker::idle(histogram, warm_calls);
                        };
                        let schedule = Schedule::new(start, rate_per_second);
                        let end = schedule.first_at_or_after(measure);
                        let before = alloc::this_thread();
                        let mut timed_calls = 0;
                        for index in 0..end {
                            if stop.load(Ordering::Relaxed) {
                                break;
                            }
                            timed_calls += 1;
                            let due = schedule.due_ns(index);
                            wait_until(start, due);
                            call(&mut coin);
                            let done = start.elapsed().as_nanos() as u64;
                            histogram.record(latency_ns(due, done));
                        }
                        let alloc_bytes = alloc::this_thread().since(before).bytes;
                        Worker {
                            histogram,
                            due: end,
                            alloc_bytes,
                            calls_made: warm_calls + timed_calls,
                        }
                    })
                    .expect("cannot spawn a benchmark thread")
            })
            .collect();
        barrier.wait();
        drain();
        settle();
        *start.lock().unwrap_or_else(|e| e.into_inner()) =
            Some(Instant::now() + Duration::from_millis(5));
        barrier.wait();
        // A stalled logger must not hold the run forever: past a minute beyond the window,
        // the workers stop at their next call (the histogram then counts fewer than due).
        let limit = Instant::now() + measure + Duration::from_secs(60);
        while handles.iter().any(|h| !h.is_finished()) {
            if Instant::now() > limit {
                stop.store(true, Ordering::Relaxed);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Worker::idle(Histogram::new(), 0))
            })
            .collect()
    });
    drain();
    let mut recorded = Recorded {
        histogram: Histogram::new(),
        due: 0,
        alloc_bytes: 0,
        calls_made: 0,
    };
    for worker in &results {
        recorded.histogram.merge(&worker.histogram);
        recorded.due += worker.due;
        recorded.alloc_bytes += worker.alloc_bytes;
        recorded.calls_made += worker.calls_made;
    }
    recorded
}

/// What one worker thread measured.
struct Worker {
    histogram: Histogram,
    due: u64,
    alloc_bytes: u64,
    calls_made: u64,
}

impl Worker {
    /// A worker that timed nothing (the run was called off, or it panicked).
    fn idle(histogram: Histogram, calls_made: u64) -> Worker {
        Worker {
            histogram,
            due: 0,
            alloc_bytes: 0,
            calls_made,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    struct Sleepy(AtomicU64);

    impl Workload for Sleepy {
        fn plain(&self) {
            // One call in 50 stalls for 2 ms: the calls due behind it are late.
            if self.0.fetch_add(1, Ordering::Relaxed) % 50 == 49 {
                std::thread::sleep(Duration::from_millis(2));
            }
        }
        fn with_error(&self) {
            self.plain();
        }
    }

    #[test]
    fn every_due_call_is_timed_and_stalls_show_in_the_tail() {
        let workload = Sleepy(AtomicU64::new(0));
        let recorded = run(
            &workload,
            2,
            2_000.0,
            Duration::from_millis(20),
            Duration::from_millis(100),
            &|| {},
            &|| {},
        );
        // 2 threads × 2000/s × 100 ms.
        assert_eq!(recorded.due, 400);
        assert_eq!(recorded.histogram.count(), 400);
        assert!(recorded.histogram.max() >= 2_000_000);
        // One call in 50 stalls for 2 ms or more (a loaded machine only adds to it), so more
        // than 1% of the calls are at least that slow, and the percentiles are in order.
        let p99 = recorded.histogram.value_at(99.0);
        assert!(p99 >= 2_000_000, "p99 {p99}");
        assert!(recorded.histogram.value_at(50.0) <= p99);
        assert_eq!(recorded.alloc_bytes, 0);
        // The warm-up ran flat out for 20 ms before the 400 timed calls.
        assert!(recorded.calls_made > 400, "{}", recorded.calls_made);
    }

    #[test]
    fn the_settle_step_runs_once_between_the_warm_up_and_the_window() {
        let workload = Sleepy(AtomicU64::new(0));
        // The calls made when `settle` ran, once per run.
        let seen: Mutex<Vec<u64>> = Mutex::new(Vec::new());
        let settle = || {
            seen.lock()
                .unwrap()
                .push(workload.0.load(Ordering::Relaxed))
        };
        let recorded = run(
            &workload,
            2,
            2_000.0,
            Duration::from_millis(20),
            Duration::from_millis(50),
            &|| {},
            &settle,
        );
        let seen = seen.into_inner().unwrap();
        assert_eq!(seen.len(), 1, "{seen:?}");
        // After every warm-up call and before every timed one: the 200 timed calls follow it.
        assert_eq!(recorded.due, 200);
        assert_eq!(seen[0] + 200, recorded.calls_made);
        assert_eq!(workload.0.load(Ordering::Relaxed), recorded.calls_made);
    }
}
