//! The end-of-batch sync of a memory-mapped file, run on a thread of its own.
//!
//! log4j2 forces the mapping to the disk (`MappedByteBuffer.force()`) whenever an event ends an
//! asynchronous stage's batch, on the stage's thread, which waits for the disk before it writes
//! the next event. The events' callers gain nothing from that wait (their calls returned when
//! the events were queued), and on the one thread that writes for every producer it costs a
//! disk round trip per batch. Here the stage's thread only *requests* the sync; a syncer thread
//! per file (started when the file is opened) runs `fdatasync`, and requests made while one
//! runs are coalesced into one more: at most one sync is in flight and at most one is pending,
//! so a request never waits and never piles up work. Syncs start at least
//! [`MIN_SYNC_INTERVAL`] apart.
//!
//! What that changes for an OS crash or a power loss: with log4j2 every batch that ended before
//! the crash is on the disk, except one whose force was still running. Here the sync lags the
//! writer by at most the sync in flight and the one pending, which waits until
//! [`MIN_SYNC_INTERVAL`] after the start of the one before: the events written since the start
//! of the last sync that completed may be lost (they are in the page cache; the kernel
//! writes them back within its own writeback interval otherwise). A process crash loses
//! nothing either way: the bytes are in the page cache the moment they are copied.
//!
//! A pending request is honoured before the syncer stops: closing waits (bounded) for it.
//!
//! The same coalescing worker runs a file's other background job, its keeper (see
//! `mmf_regions`), with its own thread, so that a slow sync never holds it up.

use std::fs::File;
use std::io;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use l4rs_core::status;

use crate::lock;

/// No sync requested, none running.
const IDLE: u8 = 0;
/// A sync runs (or the syncer was woken to run one).
const RUNNING: u8 = 1;
/// A sync runs and another was requested meanwhile: it runs once the current one ends.
const AGAIN: u8 = 2;

/// The least time between the starts of two background syncs of a file. A sync cleans and
/// write-protects every page written since the last one, and the writers then fault on them
/// again; back to back, syncs took a sixth of the samples of a 2-core machine and slowed the
/// writer they were meant to spare (measured on the AsyncLogger-MemoryMappedFile row).
pub(crate) const MIN_SYNC_INTERVAL: Duration = Duration::from_millis(50);

/// How long stopping waits for the sync in flight and the one pending.
const STOP_TIMEOUT: Duration = Duration::from_secs(10);

/// The work a [`BackgroundSync`] thread runs on each request.
pub(crate) type Job = Box<dyn FnMut() -> io::Result<()> + Send>;

/// A coalescing background worker of one file (its syncer, or its keeper): started on the
/// file's opening (or the first request), stopped on close or drop.
pub(crate) struct BackgroundSync {
    shared: Arc<Shared>,
    /// True once the thread was started (or could not be: requests then sync at once).
    started: Mutex<Started>,
}

/// Whether the syncer thread exists.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Started {
    No,
    Yes,
    /// Spawning failed or the syncer stopped: requests sync on the caller's thread.
    Unavailable,
}

/// What the requesting writer and the syncer thread share.
struct Shared {
    /// [`IDLE`], [`RUNNING`] or [`AGAIN`].
    state: AtomicU8,
    /// The syncer sleeps on `wake` with this lock; `stop` and `exited` live under it.
    control: Mutex<Control>,
    wake: Condvar,
    /// Set once the thread has finished its last sync.
    exited: Condvar,
    file_name: String,
    /// The thread's name, and whether a failed run is reported (a sync's is; a keeper's
    /// only means the writers do its work themselves).
    thread_name: &'static str,
    reports: bool,
    /// The least time from the start of one run to the start of the next.
    min_interval: Duration,
    /// Syncs completed, on either thread, for tests.
    #[cfg(test)]
    syncs: std::sync::atomic::AtomicU64,
    /// Holds the next background sync until the sender sends or is dropped, for tests that
    /// need a sync to still run while more requests arrive.
    #[cfg(test)]
    hold: Mutex<Option<std::sync::mpsc::Receiver<()>>>,
}

#[derive(Default)]
struct Control {
    stop: bool,
    exited: bool,
    /// True while a failure episode lasts, so it is reported once, not once per sync.
    failing: bool,
}

impl BackgroundSync {
    /// A syncer for the file named `file_name` (the name its failures are reported under);
    /// no thread runs until the first request.
    pub(crate) fn new(file_name: &str) -> BackgroundSync {
        BackgroundSync::with_thread(file_name, "l4rs-mmf-sync", true, MIN_SYNC_INTERVAL)
    }

    /// A worker whose thread is called `thread_name`; with `reports`, failed runs are reported
    /// as sync failures. Runs start at least `min_interval` apart (stopping cuts the wait).
    pub(crate) fn with_thread(
        file_name: &str,
        thread_name: &'static str,
        reports: bool,
        min_interval: Duration,
    ) -> BackgroundSync {
        BackgroundSync {
            shared: Arc::new(Shared {
                state: AtomicU8::new(IDLE),
                control: Mutex::new(Control::default()),
                wake: Condvar::new(),
                exited: Condvar::new(),
                file_name: file_name.to_string(),
                thread_name,
                reports,
                min_interval,
                #[cfg(test)]
                syncs: std::sync::atomic::AtomicU64::new(0),
                #[cfg(test)]
                hold: Mutex::new(None),
            }),
            started: Mutex::new(Started::No),
        }
    }

    /// Syncs `file` (`fdatasync`) on the caller's thread, counted as the background syncs are.
    pub(crate) fn sync_now(&self, file: &File) -> io::Result<()> {
        let result = file.sync_data();
        #[cfg(test)]
        self.shared.syncs.fetch_add(1, Ordering::Relaxed);
        result
    }

    /// Starts the thread now with `job`, so that the first request allocates nothing (the
    /// thread, its name and the job are allocated here, when the file is opened).
    pub(crate) fn start(&self, job: impl FnOnce() -> io::Result<Job>) {
        self.ensure_started(job);
    }

    /// Asks for the worker's job to run soon, without waiting for it: the caller goes on at
    /// once. A request while a run is under way marks one more run; further requests change
    /// nothing. `job` makes the job when the thread starts; `inline` runs it on the caller's
    /// thread when no thread can run.
    pub(crate) fn request_job(
        &self,
        job: impl FnOnce() -> io::Result<Job>,
        inline: impl FnOnce() -> io::Result<()>,
    ) {
        let state = &self.shared.state;
        match state.load(Ordering::Acquire) {
            AGAIN => return,
            // If the sync ended meanwhile (RUNNING → IDLE), start one as from IDLE.
            RUNNING
                if state
                    .compare_exchange(RUNNING, AGAIN, Ordering::AcqRel, Ordering::Acquire)
                    .is_ok() =>
            {
                return;
            }
            _ => {}
        }
        if self
            .shared
            .state
            .compare_exchange(IDLE, RUNNING, Ordering::AcqRel, Ordering::Acquire)
            .is_err()
        {
            // Another request got there first, or the state moved to AGAIN: a sync that starts
            // after our bytes were copied is on its way.
            let _ = self.shared.state.compare_exchange(
                RUNNING,
                AGAIN,
                Ordering::AcqRel,
                Ordering::Acquire,
            );
            return;
        }
        if self.ensure_started(job) {
            // Taking the lock orders this signal after the syncer's check of `state`.
            drop(lock(&self.shared.control));
            self.shared.wake.notify_one();
        } else {
            // No syncer: sync here, as log4j2 does, reported per failure episode as the
            // syncer reports its own.
            self.shared.state.store(IDLE, Ordering::Release);
            self.shared.note(inline());
        }
    }

    /// Starts the syncer thread on first use. False when it cannot run.
    fn ensure_started(&self, job: impl FnOnce() -> io::Result<Job>) -> bool {
        let mut started = lock(&self.started);
        match *started {
            Started::Yes => return true,
            Started::Unavailable => return false,
            Started::No => {}
        }
        // The thread owns what its job needs (a descriptor of the file, the mapped regions),
        // so it needs nothing of the manager.
        let spawned = job().and_then(|job| {
            let shared = Arc::clone(&self.shared);
            std::thread::Builder::new()
                .name(self.shared.thread_name.to_string())
                .spawn(move || {
                    crate::scheduling::run_as_batch_work();
                    shared.run(job)
                })
        });
        *started = match spawned {
            Ok(_) => Started::Yes,
            Err(error) => {
                status::warn(format_args!(
                    "{} ({}) Unable to start the {} thread: {error}; its work is done on \
                     the writing thread",
                    crate::mmf_manager::MANAGER,
                    self.shared.file_name,
                    self.shared.thread_name
                ));
                Started::Unavailable
            }
        };
        *started == Started::Yes
    }

    /// Stops the syncer after the sync in flight and the one pending, waiting for them at most
    /// [`STOP_TIMEOUT`]. Later requests sync on the caller's thread.
    pub(crate) fn stop(&self) {
        let mut started = lock(&self.started);
        let was = std::mem::replace(&mut *started, Started::Unavailable);
        drop(started);
        if was != Started::Yes {
            return;
        }
        let mut control = lock(&self.shared.control);
        control.stop = true;
        self.shared.wake.notify_one();
        let deadline = Instant::now() + STOP_TIMEOUT;
        while !control.exited {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                drop(control);
                status::error(format_args!(
                    "{} ({}) The background sync did not finish within {} s of closing",
                    crate::mmf_manager::MANAGER,
                    self.shared.file_name,
                    STOP_TIMEOUT.as_secs()
                ));
                return;
            }
            control = self
                .shared
                .exited
                .wait_timeout(control, left)
                .map(|(guard, _)| guard)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    /// Runs of the job completed so far (for the syncer: syncs, on its thread or the
    /// caller's).
    #[cfg(test)]
    pub(crate) fn syncs(&self) -> u64 {
        self.shared.syncs.load(Ordering::Acquire)
    }

    /// Holds the next background sync, before its `fdatasync`, until `release` gets a message
    /// or its sender is dropped.
    #[cfg(test)]
    pub(crate) fn hold_next_sync(&self, release: std::sync::mpsc::Receiver<()>) {
        *lock(&self.shared.hold) = Some(release);
    }
}

impl Drop for BackgroundSync {
    /// A manager dropped without closing still lets its syncer finish and exit.
    fn drop(&mut self) {
        let mut control = lock(&self.shared.control);
        control.stop = true;
        self.shared.wake.notify_one();
    }
}

impl Shared {
    /// The syncer thread: sleeps until a request, syncs, and again while requests came in.
    fn run(&self, mut job: Job) {
        let mut last_start: Option<Instant> = None;
        loop {
            {
                let mut control = lock(&self.control);
                while self.state.load(Ordering::Acquire) == IDLE && !control.stop {
                    control = self.wake.wait(control).unwrap_or_else(|e| e.into_inner());
                }
                if self.state.load(Ordering::Acquire) == IDLE {
                    // Stopping, and nothing pending. What the job holds (the syncer's own
                    // descriptor of the file) goes before the exit is reported, so that a
                    // closed file is let go of by the time `stop` returns.
                    drop(job);
                    control.exited = true;
                    self.exited.notify_all();
                    return;
                }
            }
            // Every request from here on asks for a sync after this one.
            loop {
                if let Some(last) = last_start {
                    self.wait_until(last + self.min_interval);
                }
                #[cfg(test)]
                if let Some(release) = lock(&self.hold).take() {
                    let _ = release.recv();
                }
                last_start = Some(Instant::now());
                let result = job();
                #[cfg(test)]
                self.syncs.fetch_add(1, Ordering::Release);
                self.note(result);
                match self.state.compare_exchange(
                    RUNNING,
                    IDLE,
                    Ordering::AcqRel,
                    Ordering::Acquire,
                ) {
                    Ok(_) => break,
                    // AGAIN: a request came while this sync ran; its bytes may be newer.
                    Err(_) => self.state.store(RUNNING, Ordering::Release),
                }
            }
        }
    }

    /// Sleeps until `deadline`, or until stopping begins.
    fn wait_until(&self, deadline: Instant) {
        let mut control = lock(&self.control);
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if control.stop || left.is_zero() {
                return;
            }
            control = self
                .wake
                .wait_timeout(control, left)
                .map(|(guard, _)| guard)
                .unwrap_or_else(|e| e.into_inner().0);
        }
    }

    /// Reports the first failure of an episode and its end.
    fn note(&self, result: io::Result<()>) {
        if !self.reports {
            return;
        }
        let mut control = lock(&self.control);
        match result {
            Ok(()) if control.failing => {
                control.failing = false;
                drop(control);
                status::info(format_args!(
                    "{} ({}) Syncing to the disk works again",
                    crate::mmf_manager::MANAGER,
                    self.file_name
                ));
            }
            Ok(()) => {}
            Err(error) if !control.failing => {
                control.failing = true;
                drop(control);
                self.report(&error);
            }
            Err(_) => {}
        }
    }

    fn report(&self, error: &io::Error) {
        status::error(format_args!(
            "Error writing to stream {}: {error}",
            self.file_name
        ));
    }
}

/// The syncer's job: `fdatasync` on a descriptor of its own of `file`.
pub(crate) fn sync_job(file: &File) -> io::Result<Job> {
    let file = file.try_clone()?;
    Ok(Box::new(move || file.sync_data()))
}

#[cfg(all(test, target_os = "linux"))]
mod tests {
    use super::*;

    /// The worker's runs happen on a thread whose wake-ups do not preempt the writers
    /// (`scheduling`), and the caller's thread keeps its own policy.
    #[test]
    fn the_worker_runs_its_job_as_batch_work() {
        let caller_policy = crate::scheduling::current_policy();
        let worker =
            BackgroundSync::with_thread("test.log", "l4rs-test-worker", false, Duration::ZERO);
        let (seen, policies) = std::sync::mpsc::channel();
        let job = move || -> io::Result<Job> {
            Ok(Box::new(move || {
                let _ = seen.send(crate::scheduling::current_policy());
                Ok(())
            }))
        };
        worker.request_job(job, || panic!("the worker thread should run the job"));
        let policy = policies
            .recv_timeout(Duration::from_secs(10))
            .expect("the job ran");
        worker.stop();
        assert_eq!(policy, libc::SCHED_BATCH);
        assert_eq!(crate::scheduling::current_policy(), caller_policy);
    }
}
