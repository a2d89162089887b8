//! The background worker of a rolling appender: what a rollover leaves to do after the
//! current file was renamed and reopened (placing the archive, compressing it, deleting old
//! ones) runs here, one job after the other, so the logging threads never wait for it and
//! every job sees the directory as the previous one left it.

use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::JoinHandle;

use l4rs_core::status;

/// A unit of work for the worker.
pub(crate) type Job = Box<dyn FnOnce() + Send + 'static>;

#[derive(Default)]
struct Pending {
    count: usize,
}

/// One worker thread and its queue.
pub(crate) struct Worker {
    sender: Mutex<Option<Sender<Job>>>,
    thread: Mutex<Option<JoinHandle<()>>>,
    pending: Arc<(Mutex<Pending>, Condvar)>,
}

fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(|e| e.into_inner())
}

impl Worker {
    /// Starts the worker thread, named after the appender's file. When no thread can be
    /// started, jobs run on the caller's thread instead (reported once).
    pub(crate) fn start(name: &str) -> Worker {
        let (sender, receiver) = channel::<Job>();
        let pending = Arc::new((Mutex::new(Pending::default()), Condvar::new()));
        let thread_pending = Arc::clone(&pending);
        let thread = std::thread::Builder::new()
            .name(format!("l4rs-rollover-{name}"))
            .spawn(move || run(receiver, &thread_pending));
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
        }
    }

    /// Queues `job`; it runs after every job queued before it.
    pub(crate) fn submit(&self, job: Job) {
        let sender = lock(&self.sender);
        let Some(sender) = sender.as_ref() else {
            drop(sender);
            job();
            return;
        };
        lock(&self.pending.0).count += 1;
        if let Err(returned) = sender.send(job) {
            // The thread is gone (a job panicked): do the work here rather than lose it.
            self.finished();
            (returned.0)();
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
        drop(lock(&self.sender).take());
        if let Some(thread) = lock(&self.thread).take() {
            if thread.join().is_err() {
                status::error("A rollover action panicked; later actions were not run");
            }
        }
    }
}

fn run(receiver: Receiver<Job>, pending: &(Mutex<Pending>, Condvar)) {
    while let Ok(job) = receiver.recv() {
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
        let worker = Worker::start("test");
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
}
