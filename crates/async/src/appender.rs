//! log4j2's `<Async>` appender: a queue in front of other appenders.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use l4rs_core::status::ReportLimit;
use l4rs_core::{status, AppendError, Appender, Layout, LogEvent};

use crate::{
    AsyncError, AsyncQueue, Enqueued, EventHandler, QueueFullPolicy, QueueOptions, QueueStats,
    WaitStrategy,
};

/// How long [`Appender::flush`] waits for the queue to drain when `shutdownTimeout` is 0
/// (unlimited): a flush runs from panic hooks too, which must not hang on a stuck appender.
const FLUSH_TIMEOUT: Duration = Duration::from_secs(10);

/// The `<Async>` attributes, resolved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AsyncAppenderOptions {
    /// The appender's name.
    pub name: String,
    /// `bufferSize`: the queue's capacity in events (log4j2's default 1024).
    pub buffer_size: usize,
    /// `blocking`: true waits (or applies the queue-full policy) when the queue is full; false
    /// hands the event to the error appender, or drops it.
    pub blocking: bool,
    /// `shutdownTimeout`: how long stopping waits for the queue to drain; `None` (log4j2's 0)
    /// waits until it is empty.
    pub shutdown_timeout: Option<Duration>,
    /// `includeLocation`: keep the caller's location in the queued copy.
    pub include_location: bool,
    /// True when `include_location` is set and some target appender prints the location (so the
    /// routing must make it visible to this appender).
    pub requires_location: bool,
    /// What a full blocking queue does (from `log4j2.asyncQueueFullPolicy`).
    pub policy: QueueFullPolicy,
    /// How the queue's thread waits while the queue is empty.
    pub wait_strategy: WaitStrategy,
}

/// The Async appender: [`Appender::append`] copies the event into a bounded queue and returns;
/// a background thread (`AsyncAppenderEventDispatcher-N-<name>`) hands each event to the
/// `dispatch` handler, which calls the referenced appenders (and the error appender when all of
/// them fail). The handler is the caller's (the facade owns appender references, filters and
/// error reporting).
pub struct AsyncAppender {
    options: AsyncAppenderOptions,
    queue: AsyncQueue,
    dispatch: Arc<dyn EventHandler>,
    error_appender: Option<Arc<dyn EventHandler>>,
    /// The layout events are formatted with before they are queued
    /// ([`AsyncAppender::rendering_ahead`]).
    render_with: Option<Arc<dyn Layout>>,
    stopped: AtomicBool,
    /// "Queue is full" reports, rate-limited as log4j2's default error handler limits them.
    full_reports: ReportLimit,
}

impl std::fmt::Debug for AsyncAppender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AsyncAppender")
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

impl AsyncAppender {
    /// Starts the queue and its thread. `dispatch` runs for every event on the background
    /// thread; `error_appender` (the `errorRef`) receives, on the caller's thread, the events a
    /// full non-blocking queue cannot take.
    pub fn start(
        options: AsyncAppenderOptions,
        dispatch: Arc<dyn EventHandler>,
        error_appender: Option<Arc<dyn EventHandler>>,
    ) -> Result<AsyncAppender, AsyncError> {
        static DISPATCHERS: AtomicUsize = AtomicUsize::new(1);
        let number = DISPATCHERS.fetch_add(1, Ordering::Relaxed);
        let queue = AsyncQueue::start(
            QueueOptions {
                name: format!("AsyncAppender {}", options.name),
                thread_name: format!("AsyncAppenderEventDispatcher-{number}-{}", options.name),
                // A slot stays taken while its event is written; one more slot keeps
                // `bufferSize` events waiting behind it, as log4j2's ArrayBlockingQueue does.
                capacity: options.buffer_size.max(1) + 1,
                blocking: options.blocking,
                policy: options.policy,
                wait_strategy: options.wait_strategy,
            },
            Arc::clone(&dispatch),
        )?;
        Ok(AsyncAppender {
            options,
            queue,
            dispatch,
            error_appender,
            render_with: None,
            stopped: AtomicBool::new(false),
            full_reports: ReportLimit::error_handler(),
        })
    }

    /// Formats every event with `layout` on the calling thread before queueing it
    /// ([`AsyncQueue::enqueue_rendered`]): for an appender whose events all go to the one
    /// appender that layout belongs to ([`Appender::layout_rendering_ahead`]).
    pub fn rendering_ahead(mut self, layout: Option<Arc<dyn Layout>>) -> AsyncAppender {
        self.render_with = layout;
        self
    }

    /// The queue's counters (events a full non-blocking queue dropped for want of an error
    /// appender are its `rejected_lost`).
    pub fn stats(&self) -> QueueStats {
        self.queue.stats()
    }

    /// The queue, for draining or inspection.
    pub fn queue(&self) -> &AsyncQueue {
        &self.queue
    }

    /// The event as this appender passes it on synchronously: without location unless
    /// `includeLocation`.
    fn local_copy<'a>(&self, event: &LogEvent<'a>) -> LogEvent<'a> {
        let mut event = *event;
        if !self.options.include_location {
            event.location = None;
        }
        event
    }
}

impl Appender for AsyncAppender {
    fn name(&self) -> &str {
        &self.options.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        // After `stop` the queue is closed: the event comes back as `Closed`, counted.
        let render = self.render_with.as_ref();
        match self
            .queue
            .enqueue_rendered(event, 0, self.options.include_location, render)
        {
            Enqueued::Queued | Enqueued::Discarded => Ok(()),
            Enqueued::RunHere => {
                if self.full_reports.admit().is_some() {
                    status::warn(format_args!(
                        "Appender {}: the queue is full and the caller is an l4rs background thread; that event is written on the caller's thread, out of order, to avoid a deadlock",
                        self.options.name
                    ));
                }
                self.dispatch.handle(&self.local_copy(event), 0);
                Ok(())
            }
            Enqueued::Full => {
                if self.full_reports.admit().is_some() {
                    status::error(format_args!(
                        "Appender {} is unable to write primary appenders. queue is full",
                        self.options.name
                    ));
                }
                match &self.error_appender {
                    Some(error_appender) => error_appender.handle(&self.local_copy(event), 0),
                    None => self.queue.record_rejected_lost(),
                }
                Ok(())
            }
            Enqueued::Closed => Err(AppendError::NotStarted(self.options.name.clone())),
        }
    }

    /// Waits until the events queued so far are written (at most `shutdownTimeout`, or 10 s
    /// when that is unlimited). The appenders behind it flush themselves at end of batch.
    fn flush(&self) -> Result<(), AppendError> {
        let timeout = self.options.shutdown_timeout.unwrap_or(FLUSH_TIMEOUT);
        if !self.queue.drain(Some(timeout)) && !self.queue.is_dispatcher_thread() {
            status::warn(format_args!(
                "Appender {}: the queue did not drain within {} ms",
                self.options.name,
                timeout.as_millis()
            ));
        }
        Ok(())
    }

    /// Stops taking events and drains the queue within `shutdownTimeout`. The appenders behind
    /// it are not stopped: the configuration stops them afterwards.
    fn stop(&self) {
        if self.stopped.swap(true, Ordering::AcqRel) {
            return;
        }
        // The queue reports what it lost, refused events included.
        self.queue.stop(self.options.shutdown_timeout);
    }

    fn requires_location(&self) -> bool {
        self.options.requires_location
    }
}
