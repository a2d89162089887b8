//! The background worker of a rolling appender: what a rollover leaves to do after the
//! current file was renamed and reopened (placing the archive, compressing it, deleting old
//! ones) runs here, one job after the other, so the logging threads never wait for it and
//! every job sees the directory as the previous one left it.
//!
//! A job may be due later (the appender's `maxRandomDelay`): the worker waits for it on the
//! rolling clock, and the jobs after it wait with it. Stopping the worker cuts such waits
//! short, so a stopping appender finishes its work at once.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;

use l4rs_core::status;

use super::clock::RolloverClock;
use crate::lock;

/// A unit of work for the worker.
pub(crate) type Job = Box<dyn FnOnce() + Send + 'static>;

#[derive(Default)]
struct Pending {
    count: usize,
}

/// A job and the time (epoch ms, on the rolling clock) before which it does not start.
struct Queued {
    due: i64,
    job: Job,
}

/// One worker thread and its queue.
pub(crate) struct Worker {
    sender: Mutex<Option<Sender<Queued>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    pending: Arc<(Mutex<Pending>, Condvar)>,
    /// Set when stopping: jobs waiting for their time start at once.
    hurry: Arc<AtomicBool>,
    clock: Arc<dyn RolloverClock>,
}

impl Worker {
    /// Starts the worker thread, named after the appender's file. When no thread can be
    /// started, jobs run on the caller's thread instead (reported once). Jobs due later
    /// wait on `clock`.
    pub(crate) fn start(name: &str, clock: Arc<dyn RolloverClock>) -> Worker {
        let (sender, receiver) = channel::<Queued>();
        let pending = Arc::new((Mutex::new(Pending::default()), Condvar::new()));
        let hurry = Arc::new(AtomicBool::new(false));
        let thread_pending = Arc::clone(&pending);
        let thread_hurry = Arc::clone(&hurry);
        let thread_clock = Arc::clone(&clock);
        let thread = std::thread::Builder::new()
            .name(format!("l4rs-rollover-{name}"))
            .spawn(move || {
                run(
                    receiver,
                    &thread_pending,
                    &thread_hurry,
                    thread_clock.as_ref(),
                )
            });
        let (sender, thread) = match thread {
            Ok(thread) => (Some(sender), Some(thread)),
            Err(error) => {
                status::error(format_args!(
                    "Unable to start the rollover worker for {name}: {error}; rollover actions run on the logging thread"
                ));
                (None, None)
            }
        };
        Worker {
            sender: Mutex::new(sender),
            thread: Mutex::new(thread),
            pending,
            hurry,
            clock,
        }
    }

    /// Queues `job`; it runs after every job queued before it.
    pub(crate) fn submit(&self, job: Job) {
        self.submit_at(i64::MIN, job);
    }

    /// Queues `job` to run no sooner than `due` (epoch ms on the worker's clock) and after
    /// every job queued before it. Without a worker thread it runs now, on this thread.
    pub(crate) fn submit_at(&self, due: i64, job: Job) {
        let sender = lock(&self.sender);
        let Some(sender) = sender.as_ref() else {
            drop(sender);
            job();
            return;
        };
        lock(&self.pending.0).count += 1;
        if let Err(returned) = sender.send(Queued { due, job }) {
            // The thread is gone (a job panicked): do the work here rather than lose it.
            self.finished();
            (returned.0.job)();
        }
    }

    fn finished(&self) {
        let (pending, done) = &*self.pending;
        let mut pending = lock(pending);
        pending.count = pending.count.saturating_sub(1);
        if pending.count == 0 {
            done.notify_all();
        }
    }

    /// Waits until every job queued so far has run.
    pub(crate) fn wait_idle(&self) {
        let (pending, done) = &*self.pending;
        let mut pending = lock(pending);
        while pending.count > 0 {
            pending = done.wait(pending).unwrap_or_else(|e| e.into_inner());
        }
    }

    /// Runs what is queued, then ends the thread. Later jobs run on the caller's thread.
    pub(crate) fn stop(&self) {
        self.hurry.store(true, Ordering::Release);
        self.clock.wake();
        drop(lock(&self.sender).take());
        if let Some(thread) = lock(&self.thread).take() {
            if thread.join().is_err() {
                status::error("A rollover action panicked; later actions were not run");
            }
        }
    }
}

fn run(
    receiver: Receiver<Queued>,
    pending: &(Mutex<Pending>, Condvar),
    hurry: &AtomicBool,
    clock: &dyn RolloverClock,
) {
    while let Ok(Queued { due, job }) = receiver.recv() {
        clock.sleep_until(due, hurry);
        // A panicking job must not take the queue down with it.
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(job)).is_err() {
            status::error("A rollover action panicked");
        }
        let (state, done) = pending;
        let mut state = lock(state);
        state.count = state.count.saturating_sub(1);
        if state.count == 0 {
            done.notify_all();
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    #[test]
    fn jobs_run_in_order_and_wait_idle_waits() {
        let worker = Worker::start(
            "test",
            Arc::new(super::super::clock::SystemClock::default()),
        );
        let seen = Arc::new(Mutex::new(Vec::new()));
        for n in 0..20 {
            let seen = Arc::clone(&seen);
            worker.submit(Box::new(move || {
                std::thread::sleep(std::time::Duration::from_millis(1));
                lock(&seen).push(n)
            }));
        }
        worker.wait_idle();
        assert_eq!(*lock(&seen), (0..20).collect::<Vec<_>>());
        let count = Arc::new(AtomicUsize::new(0));
        let inner = Arc::clone(&count);
        worker.submit(Box::new(|| panic!("job failure")));
        worker.submit(Box::new(move || {
            inner.fetch_add(1, Ordering::Relaxed);
        }));
        worker.stop();
        assert_eq!(count.load(Ordering::Relaxed), 1);
        let inner = Arc::clone(&count);
        worker.submit(Box::new(move || {
            inner.fetch_add(1, Ordering::Relaxed);
        }));
        assert_eq!(count.load(Ordering::Relaxed), 2);
    }

    #[test]
    fn a_job_due_later_waits_for_the_clock_and_stop_hurries_it() {
        use crate::ManualClock;
        let clock = Arc::new(ManualClock::new(1_000));
        let worker = Worker::start("delayed", Arc::clone(&clock) as Arc<dyn RolloverClock>);
        let ran = Arc::new(AtomicUsize::new(0));
        let first = Arc::clone(&ran);
        let waits = clock.waits();
        worker.submit_at(
            5_000,
            Box::new(move || {
                first.fetch_add(1, Ordering::Relaxed);
            }),
        );
        let second = Arc::clone(&ran);
        worker.submit(Box::new(move || {
            second.fetch_add(10, Ordering::Relaxed);
        }));
        // The worker is asleep until 5000: neither job (the second is queued behind the
        // first) has run.
        clock.wait_for_waiters(waits);
        assert_eq!(ran.load(Ordering::Relaxed), 0);
        clock.advance_and_settle(4_999);
        assert_eq!(ran.load(Ordering::Relaxed), 0);
        clock.set(5_000);
        worker.wait_idle();
        assert_eq!(ran.load(Ordering::Relaxed), 11);
        // Stopping runs a job still waiting for its time at once.
        let third = Arc::clone(&ran);
        worker.submit_at(
            i64::MAX,
            Box::new(move || {
                third.fetch_add(100, Ordering::Relaxed);
            }),
        );
        worker.stop();
        assert_eq!(ran.load(Ordering::Relaxed), 111);
    }
}
