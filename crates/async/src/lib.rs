//! Asynchronous logging for l4rs: log4j2's `<AsyncLogger>`/`<AsyncRoot>` and `<Async>` appender.
//!
//! The building block is [`AsyncQueue`]: a bounded ring of preallocated event slots with one
//! background thread.
//!
//! * **Producer side.** [`AsyncQueue::enqueue`] formats the message and copies the rest of the
//!   event ([`EventSnapshot`]) into the calling thread's staging buffers, then swaps them into a
//!   free slot with one compare-and-swap and publishes it. No user code runs while a slot is
//!   held, and in steady state nothing is allocated: the slots' strings, context copies and
//!   throwable frames are reused for ever.
//! * **Consumer side.** The background thread hands each event, in order, to an
//!   [`EventHandler`], marking it end-of-batch when no further event is ready so that buffered
//!   appenders (File with `immediateFlush="false"`, RandomAccessFile, MemoryMappedFile) flush
//!   only when the queue runs dry. Immediate-flush File and RandomAccessFile appenders written
//!   from the thread flush once per batch as well ([`l4rs_core::batch`]): the thread flushes
//!   them when the batch ends, before a waiting drain sees the event released, and before it
//!   ends. A handler that panics loses its event, not the thread.
//! * **Full queue.** Blocking queues apply the [`QueueFullPolicy`] (wait, or discard events at
//!   or below a threshold, counted in [`QueueStats`] and [`dropped_events`]); a non-blocking
//!   queue hands the event back ([`Enqueued::Full`]); an l4rs background thread (any queue's
//!   thread) never waits for a queue, it handles the event itself ([`Enqueued::RunHere`]).
//! * **Shutdown.** [`AsyncQueue::stop`] drains within a timeout; what is still queued after it
//!   is counted and reported, and so are events offered after the stop
//!   ([`Enqueued::Closed`]). A process killed with SIGKILL loses whatever was queued.
//!
//! [`AsyncAppender`] wraps a queue as an [`l4rs_core::Appender`]; [`AsyncSettings`] reads
//! log4j2's global async properties. The facade (`l4rs`) wires both into the routing.

#![warn(missing_docs)]

mod appender;
mod error;
mod idle;
mod queue;
mod ring;
pub mod settings;
mod snapshot;

use std::sync::atomic::{AtomicU64, Ordering};

pub use appender::{AsyncAppender, AsyncAppenderOptions};
pub use error::AsyncError;
pub use l4rs_config::wait_strategy::WaitStrategy;
pub use queue::{
    is_background_thread, AsyncQueue, Enqueued, EventHandler, QueueFullPolicy, QueueOptions,
    QueueStats, StopOutcome,
};
pub use settings::AsyncSettings;
pub use snapshot::EventSnapshot;

/// Events dropped by every asynchronous stage of the process so far.
static DROPPED: AtomicU64 = AtomicU64::new(0);

fn count_dropped(events: u64) {
    DROPPED.fetch_add(events, Ordering::Relaxed);
}

/// The number of events every asynchronous stage of this process has dropped so far: discarded
/// by the `Discard` queue-full policy, refused by a full non-blocking Async appender without an
/// `errorRef`, still queued when a shutdown timed out, or logged to a queue after it was stopped
/// (log4j2 exposes the first as `DiscardingAsyncQueueFullPolicy.getDiscardCount`).
pub fn dropped_events() -> u64 {
    DROPPED.load(Ordering::Relaxed)
}
