//! Asynchronous logging in the facade: the AsyncLogger queue behind `<AsyncLogger>` and
//! `<AsyncRoot>`, and the `<Async>` appenders (the queues themselves are in `l4rs-async`).

use std::cell::Cell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use l4rs_async::{
    AsyncAppender, AsyncAppenderOptions, AsyncQueue, AsyncSettings, Enqueued, EventHandler,
    QueueOptions, QueueStats,
};
use l4rs_config::model::{AppenderSpec, AsyncAppenderSpec};
use l4rs_core::{status, Layout, LogEvent};

use crate::appender_control::AppenderControl;
use crate::check::{BuildMode, CheckedAppender};
use crate::context::{AppenderRef, LoggerConfig, Predicate, Walk};

/// The tag bit telling the AsyncLogger thread that the location was already visible when the
/// event was queued; the bits below [`UNFILTERED_BIT`] are the index of the config where the
/// path split.
const VISIBLE_BIT: u64 = 1 << 63;
/// The tag bit telling the AsyncLogger thread that the split config's filter has not run yet
/// (log4j2's all-asynchronous mode queues the event before any logger filter).
const UNFILTERED_BIT: u64 = 1 << 62;

/// Whether the config an event is queued at has applied its filter already, in the caller's
/// thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Filtered {
    /// It has: the split of mixed synchronous and asynchronous loggers.
    Yes,
    /// It has not: every logger asynchronous, queued at the owner.
    No,
}
/// log4j2 waits up to about 10 s (200 × 50 ms) for the AsyncLogger ring to drain at shutdown
/// before applying the configuration's `shutdownTimeout`.
const ASYNC_LOGGER_DRAIN: Duration = Duration::from_secs(10);

/// How long a call waits at a closed gate ([`Gate::pass_caller`]): longer than a
/// reconfiguration waits for the calls on the old configuration (10 s) plus a queue's drain,
/// so that only a stuck old configuration makes a call go ahead out of order.
const CALLER_WAIT: Duration = Duration::from_secs(30);

thread_local! {
    /// How many routing calls the thread is inside: above zero, a log call is nested in another
    /// one (a message argument's `Display` that logs, an appender that logs).
    static ROUTING_DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Marks the thread as inside a routing call until dropped (also when the call unwinds), so
/// that a nested call does not wait at a closed gate ([`Gate::pass_caller`]).
pub(crate) struct RoutingCall(());

impl RoutingCall {
    /// Counts the thread into a routing call.
    pub(crate) fn enter() -> RoutingCall {
        let _ = ROUTING_DEPTH.try_with(|depth| depth.set(depth.get().saturating_add(1)));
        RoutingCall(())
    }

    /// True when the thread is already inside a routing call.
    fn nested() -> bool {
        ROUTING_DEPTH
            .try_with(|depth| depth.get() > 0)
            .unwrap_or(false)
    }
}

impl Drop for RoutingCall {
    fn drop(&mut self) {
        let _ = ROUTING_DEPTH.try_with(|depth| depth.set(depth.get().saturating_sub(1)));
    }
}

/// Opens its gate when dropped ([`Gate::opens_on_drop`]).
pub(crate) struct OpensOnDrop(Arc<Gate>);

impl Drop for OpensOnDrop {
    fn drop(&mut self) {
        self.0.open();
    }
}

/// Holds a new configuration's queues back until the configuration it replaces has drained its
/// own, so that an event a thread logged before a reload is written before one it logged after
/// it, whichever queue each went through. Open from the start for a first configuration.
pub(crate) struct Gate {
    open: AtomicBool,
    lock: Mutex<()>,
    opened: Condvar,
}

impl Gate {
    /// A gate that lets events through.
    pub(crate) fn opened() -> Arc<Gate> {
        let gate = Gate::closed();
        gate.open();
        gate
    }

    /// A gate that holds every queue's thread at its first event until [`Gate::open`].
    pub(crate) fn closed() -> Arc<Gate> {
        Arc::new(Gate {
            open: AtomicBool::new(false),
            lock: Mutex::new(()),
            opened: Condvar::new(),
        })
    }

    /// Lets the queues' threads go on.
    pub(crate) fn open(&self) {
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.open.store(true, Ordering::Release);
        self.opened.notify_all();
    }

    /// A guard that opens the gate when dropped, also when the reconfiguration unwinds
    /// between its switch and the opening: a gate left closed would hold every queue's thread,
    /// and callers for [`CALLER_WAIT`] each, for good.
    pub(crate) fn opens_on_drop(self: &Arc<Gate>) -> OpensOnDrop {
        OpensOnDrop(Arc::clone(self))
    }

    /// True once [`Gate::open`] was called (a gate that is not open belongs to a configuration
    /// that replaces another).
    pub(crate) fn is_open(&self) -> bool {
        self.open.load(Ordering::Acquire)
    }

    /// What a call that writes in its own thread does while a configuration replaces one whose
    /// queues may still hold events (or whose file it takes over): returns once the gate is
    /// open, or after [`CALLER_WAIT`], so the caller's events come after the ones it queued
    /// before. One atomic load once the gate is open. l4rs's own threads do not wait: one of
    /// them may be the old queue the gate waits for. Nor does a call nested in another one
    /// (a message argument whose `Display` logs): the outer call may hold the old
    /// configuration, which the reconfiguration waits for before it opens the gate.
    pub(crate) fn pass_caller(&self) {
        if self.open.load(Ordering::Acquire)
            || l4rs_async::is_background_thread()
            || RoutingCall::nested()
        {
            return;
        }
        let deadline = Instant::now() + CALLER_WAIT;
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        while !self.open.load(Ordering::Acquire) {
            let now = Instant::now();
            if now >= deadline {
                static REPORTED: AtomicBool = AtomicBool::new(false);
                if !REPORTED.swap(true, Ordering::Relaxed) {
                    status::warn(format_args!(
                        "Reconfiguration: the previous configuration did not stop within {} s; a call writes through the new one without waiting (its events may come before ones it logged earlier)",
                        CALLER_WAIT.as_secs()
                    ));
                }
                return;
            }
            guard = self
                .opened
                .wait_timeout(guard, deadline - now)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Returns once the gate is open: one atomic load on a queue's thread once it is.
    fn pass(&self) {
        if self.open.load(Ordering::Acquire) {
            return;
        }
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        while !self.open.load(Ordering::Acquire) {
            guard = self.opened.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
    }
}

/// How the events of one split are formatted before the AsyncLogger queue: with the layout of
/// the one appender the queue's thread hands them to.
pub(crate) struct RenderAhead {
    /// That appender's layout.
    pub(crate) layout: Arc<dyn Layout>,
    /// True when the appender's config includes the location, so that the appender sees the
    /// captured location even when it was not visible before the queue.
    pub(crate) shows_location: bool,
}

/// The queue shared by the asynchronous logger configs of one configuration.
pub(crate) struct AsyncLoggerStage {
    queue: AsyncQueue,
    handler: Arc<AsyncLoggerDispatch>,
    stop_timeout: Duration,
    out_of_order_reported: AtomicBool,
    after_stop_reported: AtomicBool,
}

/// Runs the asynchronous part of an event's path (log4j2's
/// `logToAsyncLoggerConfigsOnCurrentThread`).
struct AsyncLoggerDispatch {
    configs: Arc<[LoggerConfig]>,
    gate: Arc<Gate>,
}

impl EventHandler for AsyncLoggerDispatch {
    fn handle(&self, event: &LogEvent<'_>, tag: u64) {
        self.gate.pass();
        let split = (tag & !(VISIBLE_BIT | UNFILTERED_BIT)) as usize;
        if split >= self.configs.len() {
            return;
        }
        let mut walk = Walk::new(event, tag & VISIBLE_BIT != 0);
        // The split config's filter passed in the caller's thread, unless the event was queued
        // before it ran.
        let filtered = tag & UNFILTERED_BIT == 0;
        walk.run(&self.configs, split, Predicate::AsynchronousOnly, filtered);
        // Errors of appenders with ignoreExceptions="false" have no caller to go to here; the
        // appender control has reported them already.
    }
}

impl AsyncLoggerStage {
    /// Queues the event for the asynchronous configs from `split` up. The captured location
    /// travels along when it is already visible or may become visible on that path.
    /// With `render`, the event is also formatted here with that layout, and the location
    /// travels only when that appender will be shown it.
    pub(crate) fn enqueue(
        &self,
        split: usize,
        walk: &Walk<'_>,
        filtered: Filtered,
        path_prints_location: bool,
        render: Option<&RenderAhead>,
    ) {
        let mut event = walk.event;
        event.location = walk.captured;
        let tag = split as u64
            | if walk.visible { VISIBLE_BIT } else { 0 }
            | if filtered == Filtered::No {
                UNFILTERED_BIT
            } else {
                0
            };
        let keep_location = match render {
            // The one appender on the queue's side sees the location when it is visible
            // already or its config includes it; nothing else there reads it.
            Some(render) => walk.visible || render.shows_location,
            None => walk.visible || path_prints_location,
        };
        let layout = render.map(|render| &render.layout);
        match self
            .queue
            .enqueue_rendered(&event, tag, keep_location, layout)
        {
            Enqueued::Queued | Enqueued::Discarded => {}
            Enqueued::Closed => {
                // Counted by the queue; log4j2 warns for every such event, l4rs once.
                if !self.after_stop_reported.swap(true, Ordering::Relaxed) {
                    status::warn(format_args!(
                        "Ignoring log event after log4j was shut down: {} [{}] {} (reported once; l4rs::dropped_events() counts them all)",
                        event.level, event.logger_name, event.message
                    ));
                }
            }
            Enqueued::RunHere | Enqueued::Full => {
                if !self.out_of_order_reported.swap(true, Ordering::Relaxed) {
                    status::warn("AsyncLoggerConfig: the queue is full and the caller is an l4rs background thread; such events are written on the caller's thread, out of order, to avoid a deadlock");
                }
                if !keep_location {
                    event.location = None;
                }
                self.handler.handle(&event, tag);
            }
        }
    }

    /// Waits (up to log4j2's drain time) for the queued events to be written.
    pub(crate) fn drain(&self) {
        self.queue.drain(Some(self.stop_timeout));
    }

    /// Stops the queue, draining it first.
    pub(crate) fn stop(&self) {
        self.queue.stop(Some(self.stop_timeout));
    }

    /// The queue's counters.
    pub(crate) fn stats(&self) -> QueueStats {
        self.queue.stats()
    }
}

/// Registers the Rust counterpart of a log4j2 `AsyncWaitStrategyFactory` class: a
/// configuration whose `<AsyncWaitStrategyFactory class="…"/>` names `class_name` has its
/// AsyncLogger queue wait as `factory` says, instead of as the wait strategy properties
/// (`log4j2.asyncLoggerConfigWaitStrategy`) say.
///
/// Register before the configuration is loaded (before the first [`crate::get_logger`]); a
/// reload picks up what was registered since. A configuration naming a class that was not
/// registered is reported (at INFO, as log4j2 reports a class it cannot load) and uses the
/// properties.
///
/// ```
/// use std::time::Duration;
///
/// fn short_timeout() -> l4rs::WaitStrategy {
///     l4rs::WaitStrategy::Timeout(Duration::from_millis(1))
/// }
/// l4rs::register_async_wait_strategy_factory("com.example.ShortTimeoutFactory", short_timeout);
/// ```
pub fn register_async_wait_strategy_factory(
    class_name: &str,
    factory: fn() -> l4rs_async::WaitStrategy,
) {
    l4rs_config::wait_strategy::register_factory(class_name, factory);
}

/// Starts the AsyncLogger queue when some asynchronous config has appenders; without one (or
/// when the thread cannot start) every config routes synchronously.
pub(crate) fn start_async_logger(
    configs: Vec<LoggerConfig>,
    settings: &AsyncSettings,
    shutdown_timeout_ms: u64,
    gate: &Arc<Gate>,
) -> (Arc<[LoggerConfig]>, Option<AsyncLoggerStage>) {
    let needed = configs.iter().any(LoggerConfig::splits_to_async);
    if !needed {
        return (configs.into(), None);
    }
    // The configs are shared with the queue's thread, so the queue starts after they are final.
    static STAGES: AtomicUsize = AtomicUsize::new(1);
    let number = STAGES.fetch_add(1, Ordering::Relaxed);
    let options = QueueOptions {
        name: "AsyncLoggerConfig".to_string(),
        thread_name: format!("AsyncLoggerConfig-{number}"),
        capacity: settings.ring_buffer_size,
        blocking: true,
        policy: settings.queue_full_policy,
        wait_strategy: settings.wait_strategy,
    };
    let shared: Arc<[LoggerConfig]> = configs.into();
    let handler = Arc::new(AsyncLoggerDispatch {
        configs: Arc::clone(&shared),
        gate: Arc::clone(gate),
    });
    match AsyncQueue::start(options, handler.clone()) {
        Ok(queue) => (
            shared,
            Some(AsyncLoggerStage {
                queue,
                handler,
                stop_timeout: ASYNC_LOGGER_DRAIN + Duration::from_millis(shutdown_timeout_ms),
                out_of_order_reported: AtomicBool::new(false),
                after_stop_reported: AtomicBool::new(false),
            }),
        ),
        Err(error) => {
            // Without a stage the routing ignores the asynchronous flags (Predicate::Everything).
            status::error(format_args!(
                "{error}; asynchronous loggers log synchronously"
            ));
            (shared, None)
        }
    }
}

/// Sends each event to the Async appender's references; when none of them took it (every one
/// failed with `ignoreExceptions="false"`, or none could be resolved), to the error appender
/// (log4j2's `AsyncAppenderEventDispatcher.dispatch`).
struct AsyncAppenderDispatch {
    refs: Vec<AppenderRef>,
    error: Option<Arc<AppenderControl>>,
    gate: Arc<Gate>,
}

impl EventHandler for AsyncAppenderDispatch {
    fn handle(&self, event: &LogEvent<'_>, _tag: u64) {
        self.gate.pass();
        let mut succeeded = false;
        for reference in &self.refs {
            // A reference that filters the event out has not failed.
            if !reference.accepts(event) || reference.control.call(event).is_ok() {
                succeeded = true;
            }
        }
        if !succeeded {
            if let Some(error) = &self.error {
                let _ = error.call(event);
            }
        }
    }
}

/// The `errorRef` appender as the queue calls it when a non-blocking queue is full.
struct ErrorAppender(Arc<AppenderControl>);

impl EventHandler for ErrorAppender {
    fn handle(&self, event: &LogEvent<'_>, _tag: u64) {
        let _ = self.0.call(event);
    }
}

/// Builds one Async appender from the appenders built so far (see
/// [`crate::referring::build_referring_appenders`] for the order): the control, and the queue
/// when one was started (none when checking).
pub(crate) fn build_async_appender(
    spec: &AppenderSpec,
    async_spec: &AsyncAppenderSpec,
    settings: &AsyncSettings,
    by_name: &HashMap<String, Arc<AppenderControl>>,
    mode: &BuildMode,
    gate: &Arc<Gate>,
) -> Option<(Arc<AppenderControl>, Option<Arc<AsyncAppender>>)> {
    let refs = AppenderRef::resolve_all(&async_spec.appender_refs, by_name, |name| {
        status::error(format_args!("No appender named {name} was configured"))
    });
    let error = async_spec
        .error_ref
        .as_ref()
        .and_then(|name| match by_name.get(name) {
            Some(control) => Some(Arc::clone(control)),
            None => {
                status::error(format_args!(
                    "Unable to set up error Appender. No appender named {name} was configured"
                ));
                None
            }
        });
    if refs.is_empty() && error.is_none() {
        status::error(format_args!(
            "No appenders are available for AsyncAppender {}",
            spec.name
        ));
        return None;
    }
    let requires_location = async_spec.include_location
        && refs
            .iter()
            .any(|reference| reference.control.requires_location());
    let drops_when_full = !async_spec.blocking
        || matches!(
            settings.queue_full_policy,
            l4rs_async::QueueFullPolicy::Discard { .. }
        );
    let options = AsyncAppenderOptions {
        name: spec.name.clone(),
        buffer_size: async_spec.buffer_size,
        blocking: async_spec.blocking,
        shutdown_timeout: (async_spec.shutdown_timeout_ms > 0)
            .then(|| Duration::from_millis(async_spec.shutdown_timeout_ms)),
        include_location: async_spec.include_location,
        requires_location,
        policy: settings.queue_full_policy,
        wait_strategy: async_spec.wait_strategy,
    };
    // Only a queue whose events all go to one appender knows whose layout to format with.
    let render_with = match refs.as_slice() {
        [only] if settings.render_ahead => only.control.layout_rendering_ahead(),
        _ => None,
    };
    let error_handler = error
        .clone()
        .map(|control| Arc::new(ErrorAppender(control)) as Arc<dyn EventHandler>);
    let dispatch = Arc::new(AsyncAppenderDispatch {
        refs,
        error,
        gate: Arc::clone(gate),
    });
    let filter = spec.filter.as_ref().map(l4rs_filter::build_filter);
    if mode.checking() {
        // Everything above is what starting does; the queue itself is not allocated and its
        // thread not started. Impossible sizes are refused before this point, by the loader
        // (`bufferSize` is bounded there), so `l4rs check` reports them too.
        let checked = Arc::new(CheckedAppender {
            name: options.name,
            requires_location: options.requires_location,
        });
        let control = AppenderControl::new(checked, filter, spec.ignore_exceptions);
        return Some((Arc::new(control), None));
    }
    match AsyncAppender::start(options, dispatch, error_handler) {
        Ok(appender) => {
            let appender = Arc::new(appender.rendering_ahead(render_with));
            let control = Arc::new(
                AppenderControl::new(appender.clone(), filter, spec.ignore_exceptions)
                    .queueing(drops_when_full),
            );
            Some((control, Some(appender)))
        }
        Err(error) => {
            status::error(&error);
            None
        }
    }
}

/// The counters of every asynchronous queue of the configuration in force: the AsyncLogger
/// queue (named `AsyncLoggerConfig`) first, then each Async appender (`AsyncAppender <name>`).
/// Empty when the configuration logs synchronously.
pub fn async_queue_stats() -> Vec<QueueStats> {
    crate::lifecycle::installed_context()
        .map(|context| context.async_stats())
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, Instant};

    use super::Gate;

    #[test]
    fn a_gate_guarded_by_opens_on_drop_opens_when_the_holder_panics() {
        let gate = Gate::closed();
        let unwound = std::panic::catch_unwind(|| {
            let _opens = gate.opens_on_drop();
            panic!("between the switch and the opening");
        });
        assert!(unwound.is_err());
        assert!(gate.is_open());
    }

    #[test]
    fn a_caller_waits_at_a_closed_gate_until_it_opens() {
        let gate = Gate::closed();
        let opener = {
            let gate = std::sync::Arc::clone(&gate);
            std::thread::spawn(move || {
                std::thread::sleep(Duration::from_millis(100));
                gate.open();
            })
        };
        let started = Instant::now();
        gate.pass_caller();
        let waited = started.elapsed();
        opener.join().expect("opener");
        assert!(
            waited >= Duration::from_millis(90),
            "went through after {waited:?}"
        );
        // Open: nothing to wait for.
        let started = Instant::now();
        gate.pass_caller();
        assert!(started.elapsed() < Duration::from_millis(50));
    }
}
