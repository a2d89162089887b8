//! The asynchronous queue: producers capture events into the ring, one background thread
//! dispatches them.

use std::cell::{Cell, RefCell};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{fence, AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock, TryLockError};
use std::thread::{JoinHandle, Thread};
use std::time::{Duration, Instant};

use l4rs_config::wait_strategy::WaitStrategy;
use l4rs_core::status::ReportLimit;
use l4rs_core::{status, Layout, Level, LogEvent, ThrowableRef};

use crate::idle::{IdleStep, IdleWait};
use crate::ring::{ClaimError, Ring};
use crate::snapshot::EventSnapshot;
use crate::AsyncError;

/// Busy polls of a producer waiting for room before it yields, then sleeps.
const PRODUCER_SPINS: u32 = 64;
/// A producer waiting for room re-checks at least this often, in case a wake-up raced it.
const SPACE_RECHECK: Duration = Duration::from_millis(5);
/// How often a drain waiter re-checks progress without a wake-up.
const DRAIN_RECHECK: Duration = Duration::from_millis(10);
/// How many handled events' conversion buffers each queue adds room for in the spare pool:
/// about as many as can be in flight at once in a burst of errors.
const SPARE_THROWABLES: usize = 64;
/// The most throwable buffers the spare pool keeps, however many queues were created (each
/// reconfiguration creates new ones); past it, a handled event's buffers stay in its slot.
const MAX_SPARE_THROWABLES: usize = 1024;

/// The buffers handled events converted their errors into, for producers whose staging
/// snapshot holds none. Only errors that are not prepared [`l4rs_core::Throwable`]s are
/// converted (a prepared one is shared with the caller, see [`EventSnapshot`], and needs no
/// buffers). Without the pool, the first such error through each of a large ring's slots
/// would allocate its strings, however long the program ran (an error every thousand events
/// reaches the last of 256 Ki slots after a quarter of a billion events). A background
/// thread returns them after handling an event; a producer takes one before converting an
/// error.
///
/// One pool for every queue, because a thread's staging snapshot moves between queues: a
/// slot that kept its buffers (the pool was busy or full) hands them to the staging snapshot,
/// which can carry them into another queue. With a pool per queue, those moves drained one
/// queue's pool into another's until a producer found its queue's pool empty and allocated,
/// in steady state. Its room is reserved when a queue starts, never on a producer's path.
static SPARE_POOL: Mutex<Vec<l4rs_core::Throwable>> = Mutex::new(Vec::new());

/// Throwables with more text than this (class names and messages, causes and suppressed
/// ones included) are not kept as spares: the pool holds at most
/// [`MAX_SPARE_THROWABLES`] × this much text.
const MAX_SPARE_TEXT: usize = 64 * 1024;

/// The text `throwable` holds, its causes' and suppressed throwables' included.
fn text_len(throwable: &l4rs_core::Throwable) -> usize {
    throwable.class_name().len()
        + throwable.message().map_or(0, str::len)
        + throwable.cause().map_or(0, text_len)
        + throwable.suppressed().iter().map(text_len).sum::<usize>()
}

/// Makes room in [`SPARE_POOL`] for the spares of one more queue.
fn reserve_spare_room() {
    let mut pool = SPARE_POOL.lock().unwrap_or_else(|e| e.into_inner());
    let wanted = (pool.capacity() + SPARE_THROWABLES).min(MAX_SPARE_THROWABLES);
    let more = wanted.saturating_sub(pool.len());
    pool.reserve_exact(more);
}

/// Called on the background thread for every event, in queue order. The same handler also
/// runs on a producer's thread when [`Enqueued::RunHere`] is returned and the caller chooses to
/// log synchronously, so it takes `&self`.
pub trait EventHandler: Send + Sync + 'static {
    /// Handles one event. `tag` is the value given to [`AsyncQueue::enqueue`].
    fn handle(&self, event: &LogEvent<'_>, tag: u64);
}

impl<F> EventHandler for F
where
    F: Fn(&LogEvent<'_>, u64) + Send + Sync + 'static,
{
    fn handle(&self, event: &LogEvent<'_>, tag: u64) {
        self(event, tag)
    }
}

/// What happens to an event when a blocking queue is full (log4j2's `AsyncQueueFullPolicy`,
/// chosen with `log4j2.asyncQueueFullPolicy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QueueFullPolicy {
    /// Wait for room (log4j2's `Default`).
    Block,
    /// Drop events at or below `threshold` in severity (INFO, DEBUG, … for the default INFO);
    /// more severe events wait for room (log4j2's `Discard`, `DiscardingAsyncQueueFullPolicy`).
    Discard {
        /// The most severe level that is dropped (`log4j2.discardThreshold`, default INFO).
        threshold: Level,
    },
}

/// How to build an [`AsyncQueue`].
#[derive(Clone, Debug)]
pub struct QueueOptions {
    /// The stage's name, used in status messages (an appender name, or `AsyncLoggerConfig`).
    pub name: String,
    /// The background thread's name.
    pub thread_name: String,
    /// The number of slots (a value below 2 gets 2); all are allocated when the queue starts.
    pub capacity: usize,
    /// True: a full queue applies `policy`. False: a full queue rejects the event at once with
    /// [`Enqueued::Full`] (the Async appender's `blocking="false"`).
    pub blocking: bool,
    /// What a blocking queue does when full.
    pub policy: QueueFullPolicy,
    /// How the background thread waits while the queue is empty.
    pub wait_strategy: WaitStrategy,
}

/// What [`AsyncQueue::enqueue`] did with an event.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Enqueued {
    /// The event is in the queue (its message was formatted already).
    Queued,
    /// The queue was full and the discarding policy dropped the event (counted).
    Discarded,
    /// The queue was full and is non-blocking: the caller decides (log4j2 hands the event to
    /// the Async appender's `errorRef`, or drops it).
    Full,
    /// The queue was full and the caller is an l4rs background thread (this queue's own, an
    /// appender logging while it writes, or another queue's): waiting could deadlock, so the
    /// caller should handle the event on its own thread, out of order, as log4j2 does for its
    /// own threads (`DefaultAsyncQueueFullPolicy`, `EventRoute.SYNCHRONOUS`).
    RunHere,
    /// The queue was stopped; the event was not taken (counted in [`QueueStats::after_stop`]).
    Closed,
}

/// Counters of one queue.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueueStats {
    /// The stage's name.
    pub name: String,
    /// The number of slots.
    pub capacity: usize,
    /// Events waiting or being written right now.
    pub len: usize,
    /// Events accepted into the queue since it started.
    pub enqueued: u64,
    /// Events the discarding policy dropped.
    pub discarded: u64,
    /// Events a non-blocking full queue handed back ([`Enqueued::Full`]).
    pub rejected: u64,
    /// Of the rejected events, those the caller had nowhere to send (a non-blocking Async
    /// appender without `errorRef`), reported with [`AsyncQueue::record_rejected_lost`].
    pub rejected_lost: u64,
    /// Events offered by an l4rs background thread (this queue's or another queue's) while the
    /// queue was full, handed back to run synchronously on that thread ([`Enqueued::RunHere`]).
    pub synchronous: u64,
    /// Events still queued when a shutdown timed out, never written.
    pub abandoned: u64,
    /// Events offered after the queue was stopped ([`Enqueued::Closed`]), including producers
    /// that were waiting for room when it stopped.
    pub after_stop: u64,
    /// Events whose handler panicked (the background thread survives).
    pub panicked: u64,
    /// Events handed on with their line formatted by the caller
    /// ([`AsyncQueue::enqueue_rendered`], `l4rs.asyncRenderAhead`).
    pub rendered_ahead: u64,
    /// How the background thread waits while the queue is empty.
    pub wait_strategy: WaitStrategy,
}

impl QueueStats {
    /// Events this queue accepted or saw and that reached no appender because of the queue:
    /// discarded by the policy, rejected with nowhere else to go, abandoned at shutdown, or
    /// offered after the stop. (Rejected events an `errorRef` took are not lost.)
    pub fn dropped(&self) -> u64 {
        self.discarded + self.rejected_lost + self.abandoned + self.after_stop
    }
}

/// How [`AsyncQueue::stop`] ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StopOutcome {
    /// True when every accepted event was handled before the background thread ended.
    pub drained: bool,
    /// Events left unwritten because the timeout elapsed.
    pub abandoned: u64,
}

thread_local! {
    /// The queue whose background thread this is (its shared state's address; 0 on any other
    /// thread), to recognise an appender that logs back into its own full queue, and l4rs's own
    /// background threads.
    static DISPATCHER_OF: Cell<usize> = const { Cell::new(0) };
    /// Where a producer formats its event before taking a slot, so that no user code (the
    /// arguments' `Display`, an error's `source`) runs while a slot is held. The slot's old
    /// buffers are swapped back in here, so both stay warm.
    static STAGING: RefCell<Box<EventSnapshot>> = RefCell::new(Box::new(EventSnapshot::new()));
}

/// Keeps a flag every producer reads on a cache line of its own, away from the counters and
/// flags the background thread and waiters write.
#[repr(align(128))]
struct PaddedFlag(AtomicBool);

/// The background thread's own counter, on a cache line no producer writes.
#[repr(align(128))]
struct PaddedCounter(AtomicUsize);

/// The value a timed-out [`AsyncQueue::stop`] leaves in `Shared::started`: no further event
/// may start.
const SEALED: usize = usize::MAX;

struct Shared {
    options: QueueOptions,
    ring: Ring,
    handler: Arc<dyn EventHandler>,
    consumer: OnceLock<Thread>,
    /// Written only when the background thread goes to sleep or wakes up.
    consumer_sleeping: PaddedFlag,
    /// The position of the next event the background thread may start. It advances it with a
    /// compare-and-swap before each event; a timed-out stop swaps in [`SEALED`], so exactly
    /// the events from the old value on are abandoned, none of them half-written.
    started: PaddedCounter,
    finished: Mutex<bool>,
    finished_signal: Condvar,
    waiting_producers: AtomicUsize,
    space_lock: Mutex<()>,
    space_signal: Condvar,
    drain_waiters: AtomicUsize,
    progress_lock: Mutex<()>,
    progress_signal: Condvar,
    discarded: AtomicU64,
    rejected: AtomicU64,
    rejected_lost: AtomicU64,
    synchronous: AtomicU64,
    abandoned: AtomicU64,
    after_stop: AtomicU64,
    panicked: AtomicU64,
    /// Written by the background thread only.
    rendered_ahead: AtomicU64,
    discard_reported: AtomicBool,
    totals_reported: AtomicBool,
    /// Panicking appenders, reported as log4j2's error handler reports what an appender throws:
    /// four, then one per five minutes.
    panic_reports: ReportLimit,
}

/// A bounded queue of events with one background thread that hands each event, in order, to an
/// [`EventHandler`].
///
/// * Every slot is allocated when the queue starts and reused for ever: a producer formats the
///   event into its thread's staging snapshot, swaps it into a free slot and publishes it, so
///   the producer side allocates nothing in steady state.
/// * The background thread marks an event end-of-batch when no further event is ready after
///   it, so buffered appenders flush exactly when the queue runs dry.
/// * A full queue waits, discards or rejects as configured ([`QueueOptions`]).
/// * [`AsyncQueue::stop`] drains what was accepted within a timeout; dropping the queue
///   closes it and lets the thread drain in the background.
pub struct AsyncQueue {
    shared: Arc<Shared>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl std::fmt::Debug for AsyncQueue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AsyncQueue")
            .field("name", &self.shared.options.name)
            .field("capacity", &self.shared.ring.capacity())
            .finish_non_exhaustive()
    }
}

impl AsyncQueue {
    /// Allocates the slots and starts the background thread.
    pub fn start(
        options: QueueOptions,
        handler: Arc<dyn EventHandler>,
    ) -> Result<AsyncQueue, AsyncError> {
        let ring = Ring::new(options.capacity).map_err(|source| AsyncError::Allocation {
            name: options.name.clone(),
            capacity: options.capacity,
            source,
        })?;
        let shared = Arc::new(Shared {
            ring,
            options,
            handler,
            consumer: OnceLock::new(),
            consumer_sleeping: PaddedFlag(AtomicBool::new(false)),
            started: PaddedCounter(AtomicUsize::new(0)),
            finished: Mutex::new(false),
            finished_signal: Condvar::new(),
            waiting_producers: AtomicUsize::new(0),
            space_lock: Mutex::new(()),
            space_signal: Condvar::new(),
            drain_waiters: AtomicUsize::new(0),
            progress_lock: Mutex::new(()),
            progress_signal: Condvar::new(),
            discarded: AtomicU64::new(0),
            rejected: AtomicU64::new(0),
            rejected_lost: AtomicU64::new(0),
            synchronous: AtomicU64::new(0),
            abandoned: AtomicU64::new(0),
            after_stop: AtomicU64::new(0),
            panicked: AtomicU64::new(0),
            rendered_ahead: AtomicU64::new(0),
            discard_reported: AtomicBool::new(false),
            totals_reported: AtomicBool::new(false),
            panic_reports: ReportLimit::error_handler(),
        });
        reserve_spare_room();
        let consumer = Arc::clone(&shared);
        let thread = std::thread::Builder::new()
            .name(shared.options.thread_name.clone())
            .spawn(move || consumer.run())
            .map_err(|source| AsyncError::Spawn {
                name: shared.options.name.clone(),
                source,
            })?;
        // Set here as well as by the thread itself, so producers can wake it even before it
        // first runs.
        let _ = shared.consumer.set(thread.thread().clone());
        Ok(AsyncQueue {
            shared,
            thread: Mutex::new(Some(thread)),
        })
    }

    /// The stage's name.
    pub fn name(&self) -> &str {
        &self.shared.options.name
    }

    /// The number of slots.
    pub fn capacity(&self) -> usize {
        self.shared.ring.capacity()
    }

    /// Copies `event` (formatting its message now) and queues it with `tag`. The location is
    /// kept only when `include_location` is true. See [`Enqueued`] for the outcomes; only
    /// [`Enqueued::Queued`] means the handler will see the event.
    pub fn enqueue(&self, event: &LogEvent<'_>, tag: u64, include_location: bool) -> Enqueued {
        self.enqueue_rendered(event, tag, include_location, None)
    }

    /// [`AsyncQueue::enqueue`], and when `layout` is given the event is also formatted with it
    /// here, on the calling thread, before it is queued ([`EventSnapshot::render`]): the
    /// handler's appender with that layout then copies the text, so the queue's one thread
    /// only writes what several callers formatted in parallel.
    pub fn enqueue_rendered(
        &self,
        event: &LogEvent<'_>,
        tag: u64,
        include_location: bool,
        layout: Option<&Arc<dyn Layout>>,
    ) -> Enqueued {
        let shared = &*self.shared;
        if shared.ring.is_closed() {
            return shared.refuse_after_stop();
        }
        let staged = STAGING.try_with(|cell| {
            cell.try_borrow_mut().ok().map(|mut staging| {
                let converts = matches!(event.throwable, Some(ThrowableRef::Error { .. }));
                if converts && !staging.has_conversion_buffers() {
                    shared.lend_spare_throwable(&mut staging);
                }
                staging.capture(event, include_location);
                if let Some(layout) = layout {
                    staging.render(layout);
                }
                shared.offer(&mut staging, tag)
            })
        });
        match staged {
            Ok(Some(outcome)) => outcome,
            // Logging from inside the formatting of another event on this thread, or during
            // thread teardown: a one-off snapshot (this allocates; it is not the steady state).
            _ => {
                let mut snapshot = Box::new(EventSnapshot::new());
                snapshot.capture(event, include_location);
                if let Some(layout) = layout {
                    snapshot.render(layout);
                }
                shared.offer(&mut snapshot, tag)
            }
        }
    }

    /// True when the calling thread is this queue's background thread.
    pub fn is_dispatcher_thread(&self) -> bool {
        self.shared.is_current_dispatcher()
    }

    /// Counts one event this queue rejected ([`Enqueued::Full`]) that the caller could not
    /// send anywhere else, so that [`QueueStats::dropped`] and [`crate::dropped_events`] show
    /// it.
    pub fn record_rejected_lost(&self) {
        self.shared.rejected_lost.fetch_add(1, Ordering::Relaxed);
        crate::count_dropped(1);
    }

    /// Waits until every event accepted before the call has been handled, or `timeout` passed
    /// (`None`: no limit). Returns true when drained. Returns false at once on the queue's own
    /// thread, which cannot wait for itself.
    pub fn drain(&self, timeout: Option<Duration>) -> bool {
        let shared = &*self.shared;
        if shared.is_current_dispatcher() {
            return shared.ring.consumed() >= shared.ring.claimed();
        }
        // Announced before the target is read: the background thread then either sees this
        // waiter and flushes its deferred appenders before releasing each event, or released
        // the target's last event at the end of a batch, which flushes them too.
        shared.drain_waiters.fetch_add(1, Ordering::SeqCst);
        let target = shared.ring.claimed();
        let deadline = timeout.map(|timeout| Instant::now() + timeout);
        let drained = loop {
            if shared.ring.consumed() >= target {
                break true;
            }
            if shared.is_finished() {
                break shared.ring.consumed() >= target;
            }
            let mut wait = DRAIN_RECHECK;
            if let Some(deadline) = deadline {
                let now = Instant::now();
                if now >= deadline {
                    break false;
                }
                wait = wait.min(deadline - now);
            }
            let guard = shared
                .progress_lock
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if shared.ring.consumed() >= target {
                break true;
            }
            let _ = shared.progress_signal.wait_timeout(guard, wait);
        };
        shared.drain_waiters.fetch_sub(1, Ordering::SeqCst);
        drained
    }

    /// Stops taking events and waits until the accepted ones are handled, or `timeout` passed
    /// (`None`: no limit, log4j2's `shutdownTimeout="0"`). On timeout the events not yet
    /// started are abandoned (counted and reported through the status logger) and the
    /// background thread is left to finish the event it is writing. Either way what the queue
    /// lost for being full (discarded or refused events) is reported once. Stopping twice is
    /// harmless.
    pub fn stop(&self, timeout: Option<Duration>) -> StopOutcome {
        let shared = &*self.shared;
        shared.ring.close();
        shared.wake_consumer(true);
        shared.wake_producers();
        if shared.is_current_dispatcher() {
            // An appender stopping its own context: the thread ends after this event by itself.
            // The queue is closed, so its loss counts are final.
            shared.report_totals();
            return StopOutcome {
                drained: false,
                abandoned: 0,
            };
        }
        let deadline = timeout.map(|timeout| Instant::now() + timeout);
        let mut finished = shared.finished.lock().unwrap_or_else(|e| e.into_inner());
        let mut timed_out = false;
        while !*finished {
            match deadline {
                None => {
                    finished = shared
                        .finished_signal
                        .wait(finished)
                        .unwrap_or_else(|e| e.into_inner())
                }
                Some(deadline) => {
                    let now = Instant::now();
                    if now >= deadline {
                        timed_out = true;
                        break;
                    }
                    finished = shared
                        .finished_signal
                        .wait_timeout(finished, deadline - now)
                        .unwrap_or_else(|e| e.into_inner())
                        .0;
                }
            }
        }
        drop(finished);
        if timed_out {
            let abandoned = shared.abandon_unstarted(timeout);
            shared.report_totals();
            return StopOutcome {
                drained: false,
                abandoned,
            };
        }
        if let Some(thread) = self.thread.lock().unwrap_or_else(|e| e.into_inner()).take() {
            let _ = thread.join();
        }
        shared.report_totals();
        StopOutcome {
            drained: true,
            abandoned: 0,
        }
    }

    /// The queue's counters.
    pub fn stats(&self) -> QueueStats {
        let shared = &*self.shared;
        let load = |counter: &AtomicU64| counter.load(Ordering::Relaxed);
        QueueStats {
            name: shared.options.name.clone(),
            capacity: shared.ring.capacity(),
            len: shared.ring.queued(),
            // Every claimed position was published (or is being): the tail counts them.
            enqueued: shared.ring.claimed() as u64,
            discarded: load(&shared.discarded),
            rejected: load(&shared.rejected),
            rejected_lost: load(&shared.rejected_lost),
            synchronous: load(&shared.synchronous),
            abandoned: load(&shared.abandoned),
            after_stop: load(&shared.after_stop),
            panicked: load(&shared.panicked),
            rendered_ahead: load(&shared.rendered_ahead),
            wait_strategy: shared.options.wait_strategy,
        }
    }
}

impl Drop for AsyncQueue {
    /// Closes the queue without waiting: the background thread drains what was accepted and
    /// ends on its own.
    fn drop(&mut self) {
        self.shared.ring.close();
        self.shared.wake_consumer(true);
        self.shared.wake_producers();
    }
}

/// True on one of l4rs's own background threads (every asynchronous queue's thread): log4j2's
/// `instanceof Log4jThread` check. A full blocking queue never makes such a thread wait: the
/// event is handled on that thread instead ([`Enqueued::RunHere`]), because a thread that
/// consumes one queue and waits on another can deadlock with a thread doing the reverse.
pub fn is_background_thread() -> bool {
    DISPATCHER_OF
        .try_with(|current| current.get() != 0)
        .unwrap_or(false)
}

impl Shared {
    fn id(&self) -> usize {
        self as *const Shared as usize
    }

    fn is_current_dispatcher(&self) -> bool {
        DISPATCHER_OF
            .try_with(|current| current.get() == self.id())
            .unwrap_or(false)
    }

    fn is_finished(&self) -> bool {
        *self.finished.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Counts an event offered after the stop.
    fn refuse_after_stop(&self) -> Enqueued {
        self.after_stop.fetch_add(1, Ordering::Relaxed);
        crate::count_dropped(1);
        Enqueued::Closed
    }

    /// Gives up, after a timed-out stop, on every event the background thread has not started
    /// yet; returns their number (0 when an earlier stop already gave up).
    fn abandon_unstarted(&self, timeout: Option<Duration>) -> u64 {
        let started = self.started.0.swap(SEALED, Ordering::SeqCst);
        self.wake_consumer(true);
        if started == SEALED {
            return 0;
        }
        // The ring is closed, so the claimed count is final.
        let left = self.ring.claimed().saturating_sub(started) as u64;
        self.abandoned.fetch_add(left, Ordering::Relaxed);
        crate::count_dropped(left);
        status::warn(format_args!(
            "{}: shutdown timed out after {} ms with {left} event(s) still queued; they are not written",
            self.options.name,
            timeout.map_or(0, |t| t.as_millis())
        ));
        left
    }

    /// Reports, once, what the queue lost for being full: the events the discarding policy
    /// dropped, and those a non-blocking queue refused that had nowhere else to go.
    fn report_totals(&self) {
        let discarded = self.discarded.load(Ordering::Relaxed);
        let refused = self.rejected_lost.load(Ordering::Relaxed);
        // Stopping again (an explicit shutdown, then the exit hook) reports nothing new.
        if discarded + refused == 0 || self.totals_reported.swap(true, Ordering::Relaxed) {
            return;
        }
        let name = &self.options.name;
        if discarded > 0 {
            status::warn(format_args!(
                "{name}: {discarded} event(s) were discarded because the queue was full"
            ));
        }
        if refused > 0 {
            status::warn(format_args!(
                "{name}: {refused} event(s) were dropped because the queue was full"
            ));
        }
    }

    /// Gives `staging` the buffers of an error converted before, if the pool has one: the
    /// lock is held for one `pop`, never while formatting.
    fn lend_spare_throwable(&self, staging: &mut EventSnapshot) {
        let spare = SPARE_POOL.lock().unwrap_or_else(|e| e.into_inner()).pop();
        if let Some(spare) = spare {
            staging.put_conversion_buffers(spare);
        }
    }

    /// Keeps the conversion buffers of the handled event in `snapshot` for a later producer,
    /// while the pool has room (never waiting for a producer that holds the lock: buffers
    /// left in the slot reach the pool through a later event).
    fn keep_spare_throwable(&self, snapshot: &mut EventSnapshot) {
        if !snapshot.has_conversion_buffers() {
            return;
        }
        let mut spares = match SPARE_POOL.try_lock() {
            Ok(spares) => spares,
            // Nothing panics under this lock; were it poisoned, the pool would still be whole.
            Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner(),
            Err(TryLockError::WouldBlock) => return,
        };
        if spares.len() < spares.capacity() {
            // A huge one is dropped here, off the producers' path, instead of being kept for
            // the life of the process.
            if let Some(spare) = snapshot.take_conversion_buffers() {
                if text_len(&spare) <= MAX_SPARE_TEXT {
                    spares.push(spare);
                }
            }
        }
    }

    /// Moves the staged snapshot into a free slot, applying the full-queue rules.
    fn offer(&self, staged: &mut Box<EventSnapshot>, tag: u64) -> Enqueued {
        loop {
            match self.ring.try_claim() {
                Ok(mut claim) => {
                    let data = claim.data();
                    std::mem::swap(&mut data.snapshot, staged);
                    data.tag = tag;
                    claim.publish();
                    self.wake_consumer(false);
                    return Enqueued::Queued;
                }
                Err(ClaimError::Closed) => return self.refuse_after_stop(),
                Err(ClaimError::Full) => {}
            }
            if !self.options.blocking {
                self.rejected.fetch_add(1, Ordering::Relaxed);
                return Enqueued::Full;
            }
            // log4j2's order: the discarding policy first (whatever the thread), then its
            // default policy, which never lets one of its own threads wait.
            if let QueueFullPolicy::Discard { threshold } = self.options.policy {
                let level = staged.level();
                // log4j2's `isLessSpecificThan`: at or below the threshold in severity.
                if level.int_level() >= threshold.int_level() {
                    self.discarded.fetch_add(1, Ordering::Relaxed);
                    crate::count_dropped(1);
                    if !self.discard_reported.swap(true, Ordering::Relaxed) {
                        status::warn(format_args!(
                            "Async queue is full, discarding event with level {level}. This message will only appear once; future events from {threshold} are silently discarded until queue capacity becomes available."
                        ));
                    }
                    return Enqueued::Discarded;
                }
            }
            if is_background_thread() {
                self.synchronous.fetch_add(1, Ordering::Relaxed);
                return Enqueued::RunHere;
            }
            self.wait_for_space();
        }
    }

    /// Blocks until a slot may be free (or the queue closed); the caller retries the claim.
    fn wait_for_space(&self) {
        for _ in 0..PRODUCER_SPINS {
            std::hint::spin_loop();
        }
        std::thread::yield_now();
        if self.ring.is_closed() {
            return;
        }
        self.waiting_producers.fetch_add(1, Ordering::SeqCst);
        // Pairs with the consumer's head store and waiter check: either it sees this waiter,
        // or the re-check below sees the freed slot (and a 5 ms re-check bounds any miss).
        fence(Ordering::SeqCst);
        let guard = self.space_lock.lock().unwrap_or_else(|e| e.into_inner());
        if self.ring.queued() >= self.ring.capacity() && !self.ring.is_closed() {
            let _ = self.space_signal.wait_timeout(guard, SPACE_RECHECK);
        }
        self.waiting_producers.fetch_sub(1, Ordering::SeqCst);
    }

    fn wake_producers(&self) {
        let _guard = self.space_lock.lock().unwrap_or_else(|e| e.into_inner());
        self.space_signal.notify_all();
    }

    /// Wakes the background thread if it sleeps (or unconditionally when `always`).
    fn wake_consumer(&self, always: bool) {
        let sleeping = self.consumer_sleeping.0.load(Ordering::SeqCst)
            && self.consumer_sleeping.0.swap(false, Ordering::SeqCst);
        if sleeping || always {
            if let Some(thread) = self.consumer.get() {
                thread.unpark();
            }
        }
    }

    /// Pushes the batch's deferred appender flushes to the OS; a panicking flush is reported
    /// and does not end the thread.
    fn flush_deferred(&self) {
        if catch_unwind(l4rs_core::batch::flush_deferred).is_err() {
            self.panic_reports.report(
                Level::ERROR,
                format_args!(
                    "{}: flushing the written events panicked; the queue goes on",
                    self.options.name
                ),
            );
        }
    }

    /// The background thread's loop.
    fn run(self: Arc<Shared>) {
        let _ = DISPATCHER_OF.try_with(|current| current.set(self.id()));
        let _ = self.consumer.set(std::thread::current());
        // Immediate-flush file appenders written from here flush once per batch (see
        // `l4rs_core::batch`): one `write(2)` for what was queued instead of one per event.
        l4rs_core::batch::begin_deferring();
        // Waking the producers waiting for room costs a lock and wakes every one of them; do
        // it once half the queue's slots were released since a producer started waiting (and
        // whenever the queue runs dry), so each woken producer finds room for several events
        // instead of going back to sleep after one.
        let wake_every = self.ring.capacity() / 2;
        let mut since_wake = 0;
        let mut position = 0usize;
        let mut idle = IdleWait::new(self.options.wait_strategy);
        loop {
            if self.ring.is_published(position) {
                // Fails only once a timed-out stop has sealed the queue (and counted this event
                // and the rest as abandoned).
                if self
                    .started
                    .0
                    .compare_exchange(position, position + 1, Ordering::AcqRel, Ordering::Relaxed)
                    .is_err()
                {
                    break;
                }
                idle.reset();
                let end_of_batch = !self.ring.is_published(position + 1);
                // SAFETY: this is the only consumer, `position` is its current position and the
                // slot is published; it is released below, after the last use of `data`.
                let data = unsafe { self.ring.published(position) };
                let event = data.snapshot.event(end_of_batch);
                if event.rendered.is_some() {
                    // This thread is the counter's only writer: no locked add is needed.
                    let counted = self.rendered_ahead.load(Ordering::Relaxed);
                    self.rendered_ahead.store(counted + 1, Ordering::Relaxed);
                }
                let tag = data.tag;
                let handler = &self.handler;
                if catch_unwind(AssertUnwindSafe(|| handler.handle(&event, tag))).is_err() {
                    self.panicked.fetch_add(1, Ordering::Relaxed);
                    self.panic_reports.report(
                        Level::ERROR,
                        format_args!(
                            "{}: writing an event panicked; that event is lost and the queue goes on",
                            self.options.name
                        ),
                    );
                }
                // The batch's deferred flushes happen before the slot is released, so a drain
                // that sees this event handled also sees its bytes in the OS.
                if (end_of_batch || self.drain_waiters.load(Ordering::SeqCst) > 0)
                    && l4rs_core::batch::has_deferred()
                {
                    self.flush_deferred();
                }
                self.keep_spare_throwable(&mut data.snapshot);
                data.snapshot.trim();
                self.ring.release(position);
                position += 1;
                // The sequentially consistent head store in `release` and this load pair with
                // the waiter's increment and re-check in `wait_for_space`.
                if self.waiting_producers.load(Ordering::SeqCst) == 0 {
                    since_wake = 0;
                } else {
                    since_wake += 1;
                    if since_wake >= wake_every || end_of_batch {
                        since_wake = 0;
                        self.wake_producers();
                    }
                }
                if end_of_batch && self.drain_waiters.load(Ordering::SeqCst) > 0 {
                    let _guard = self.progress_lock.lock().unwrap_or_else(|e| e.into_inner());
                    self.progress_signal.notify_all();
                }
                continue;
            }
            if self.ring.is_closed()
                && (self.ring.claimed() == position
                    || self.started.0.load(Ordering::Relaxed) == SEALED)
            {
                break;
            }
            match idle.next_step() {
                IdleStep::Spin => std::hint::spin_loop(),
                IdleStep::Yield => std::thread::yield_now(),
                IdleStep::Nap(duration) => std::thread::park_timeout(duration),
                IdleStep::Park(timeout) => {
                    self.consumer_sleeping.0.store(true, Ordering::SeqCst);
                    // Re-check after announcing the sleep: a producer that published before the
                    // announcement is seen here, one that publishes after it sees the flag.
                    if !self.ring.is_published(position) && !self.ring.is_closed() {
                        match timeout {
                            Some(timeout) => std::thread::park_timeout(timeout),
                            None => std::thread::park(),
                        }
                    }
                    self.consumer_sleeping.0.store(false, Ordering::SeqCst);
                }
            }
        }
        // A timed-out stop can end the loop in the middle of a batch.
        self.flush_deferred();
        *self.finished.lock().unwrap_or_else(|e| e.into_inner()) = true;
        self.finished_signal.notify_all();
        self.wake_producers();
        let _guard = self.progress_lock.lock().unwrap_or_else(|e| e.into_inner());
        self.progress_signal.notify_all();
    }
}

#[cfg(test)]
mod tests {
    use l4rs_core::Throwable;

    use super::{text_len, MAX_SPARE_TEXT};

    #[test]
    fn a_throwables_text_counts_its_causes_and_suppressed_ones() {
        let throwable = Throwable::new("a.B")
            .with_message("12345")
            .with_cause(Throwable::new("c.D").with_message("xy"))
            .with_suppressed(Throwable::new("e").with_cause(Throwable::new("fg")));
        assert_eq!(text_len(&throwable), 3 + 5 + 3 + 2 + 1 + 2);
    }

    #[test]
    fn a_throwable_with_a_huge_message_is_over_the_spare_limit() {
        let huge = Throwable::new("E").with_message("x".repeat(MAX_SPARE_TEXT));
        assert!(text_len(&huge) > MAX_SPARE_TEXT);
        let nested = Throwable::new("E").with_cause(huge);
        assert!(text_len(&nested) > MAX_SPARE_TEXT);
    }
}
