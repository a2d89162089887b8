//! Batched writes behind an asynchronous stage: an immediate-flush appender written from an
//! l4rs background thread may leave its bytes in its buffer until the stage's batch ends, so
//! that a batch of events leaves in one `write(2)` instead of one per event.
//!
//! Why this is allowed: `immediateFlush="true"` promises the *caller* that its bytes are in
//! the OS when the call returns. Behind an AsyncLogger or an Async appender the call returned
//! long before the event was written, so a flush per event buys no guarantee; it only costs a
//! system call per event on the one thread that writes for every producer. What the batch
//! keeps: the bytes reach the OS as soon as the queue runs dry (the stage then calls
//! [`flush_deferred`]), before a drain or a stop returns, and at the latest when the buffer
//! fills.
//!
//! The protocol, per thread:
//!
//! 1. The stage's thread calls [`begin_deferring`] once when it starts.
//! 2. An appender asked to flush after an event checks [`is_deferring`]; when true it leaves
//!    the bytes buffered and hands itself to [`defer`] (once per batch: it keeps its own
//!    "already deferred" flag, cleared by [`DeferredFlush::flush_deferred`]).
//! 3. The stage calls [`flush_deferred`] when its batch ends, and before it reports progress to
//!    a drain or exits.

use std::cell::{Cell, RefCell};
use std::sync::Arc;

/// The deferred appenders one thread is likely to hold at once without growing its list (the
/// list grows beyond it once, then is reused).
const INITIAL_DEFERRED: usize = 16;

/// Something that left bytes in a buffer and must push them to the OS when the batch ends.
pub trait DeferredFlush: Send + Sync {
    /// Writes what was deferred to the OS. Failures are reported here (through the status
    /// logger): the events' callers are long gone.
    fn flush_deferred(&self);
}

thread_local! {
    static DEFERRING: Cell<bool> = const { Cell::new(false) };
    static DEFERRED: RefCell<Vec<Arc<dyn DeferredFlush>>> = const { RefCell::new(Vec::new()) };
}

/// Marks the calling thread as an asynchronous stage's writer: appenders may defer their
/// per-event flush to the end of its batch. Reserves the list of deferred appenders now, so
/// that deferring allocates nothing later.
pub fn begin_deferring() {
    let _ = DEFERRING.try_with(|deferring| deferring.set(true));
    let _ = DEFERRED.try_with(|list| {
        if let Ok(mut list) = list.try_borrow_mut() {
            list.reserve(INITIAL_DEFERRED);
        }
    });
}

/// True on a thread that called [`begin_deferring`]: a flush after an event may wait for the
/// end of the batch.
#[inline]
pub fn is_deferring() -> bool {
    DEFERRING.try_with(Cell::get).unwrap_or(false)
}

/// Runs `f` with deferring suspended on this thread: an appender whose errors must reach the
/// code that called it (`ignoreExceptions="false"`: an Async appender's `errorRef`, a
/// Failover appender) writes and flushes each event at once, so a failure comes back with the
/// event it belongs to.
pub fn without_deferring<R>(f: impl FnOnce() -> R) -> R {
    /// Puts the flag back even when `f` panics.
    struct Restore(bool);
    impl Drop for Restore {
        fn drop(&mut self) {
            let _ = DEFERRING.try_with(|deferring| deferring.set(self.0));
        }
    }
    let _restore = Restore(
        DEFERRING
            .try_with(|deferring| deferring.replace(false))
            .unwrap_or(false),
    );
    f()
}

/// Records `target` to be flushed by the next [`flush_deferred`] on this thread. Returns false
/// when it could not be recorded (not a deferring thread, or the list is busy because a flush
/// is running); the caller must then flush at once.
pub fn defer(target: Arc<dyn DeferredFlush>) -> bool {
    if !is_deferring() {
        return false;
    }
    DEFERRED
        .try_with(|list| match list.try_borrow_mut() {
            Ok(mut list) => {
                list.push(target);
                true
            }
            Err(_) => false,
        })
        .unwrap_or(false)
}

/// True when this thread holds deferred flushes.
#[inline]
pub fn has_deferred() -> bool {
    DEFERRED
        .try_with(|list| list.try_borrow().is_ok_and(|list| !list.is_empty()))
        .unwrap_or(false)
}

/// Flushes, in the order they were deferred, every target deferred on this thread, and
/// empties the list (keeping its capacity).
pub fn flush_deferred() {
    let _ = DEFERRED.try_with(|list| loop {
        // Take one at a time: a flush may log (a status message routed back into l4rs) and
        // must not find the list borrowed.
        let next = match list.try_borrow_mut() {
            Ok(mut list) if !list.is_empty() => list.remove(0),
            _ => break,
        };
        next.flush_deferred();
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};

    struct Counter(AtomicUsize);

    impl DeferredFlush for Counter {
        fn flush_deferred(&self) {
            self.0.fetch_add(1, Ordering::Relaxed);
        }
    }

    #[test]
    fn defers_only_on_a_deferring_thread_and_flushes_in_order() {
        std::thread::spawn(|| {
            let counter = Arc::new(Counter(AtomicUsize::new(0)));
            assert!(!is_deferring());
            assert!(
                !defer(counter.clone()),
                "an ordinary thread flushes at once"
            );
            begin_deferring();
            assert!(is_deferring());
            assert!(defer(counter.clone()));
            assert!(defer(counter.clone()));
            assert!(has_deferred());
            assert_eq!(counter.0.load(Ordering::Relaxed), 0);
            flush_deferred();
            assert_eq!(counter.0.load(Ordering::Relaxed), 2);
            assert!(!has_deferred());
            flush_deferred();
            assert_eq!(counter.0.load(Ordering::Relaxed), 2);
            assert!(without_deferring(
                || !is_deferring() && !defer(counter.clone())
            ));
            assert!(is_deferring(), "restored afterwards");
        })
        .join()
        .unwrap();
    }
}
