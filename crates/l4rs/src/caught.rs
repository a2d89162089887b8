//! Panics l4rs catches itself: a user's `Display`, `Debug` or `Error::source` that panics while
//! an event is formatted is written as a placeholder, and the log call goes on. Such a panic
//! is no crash, so the panic hook (which flushes every appender, for the crash it expects to
//! follow) must tell it from one that unwinds out of l4rs: a per-thread depth says so.

use std::cell::Cell;
use std::panic::{catch_unwind, AssertUnwindSafe};

thread_local! {
    /// How many [`catching`] calls this thread is inside.
    static DEPTH: Cell<u32> = const { Cell::new(0) };
}

/// Runs `f`, catching a panic in it (see [`std::panic::catch_unwind`]); while it runs, the
/// panic hook knows a panic will be caught ([`is_catching`]).
// Only the `tracing` layer formats user values under a catch so far.
#[cfg_attr(not(feature = "tracing"), allow(dead_code))]
pub(crate) fn catching<R>(f: impl FnOnce() -> R) -> std::thread::Result<R> {
    /// Leaves the depth as it found it, however `f` ends.
    struct Inside;
    impl Drop for Inside {
        fn drop(&mut self) {
            let _ = DEPTH.try_with(|depth| depth.set(depth.get().saturating_sub(1)));
        }
    }
    let _ = DEPTH.try_with(|depth| depth.set(depth.get() + 1));
    let _inside = Inside;
    catch_unwind(AssertUnwindSafe(f))
}

/// True when a panic on this thread now will be caught by l4rs.
pub(crate) fn is_catching() -> bool {
    DEPTH.try_with(Cell::get).unwrap_or(0) > 0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_depth_is_kept_while_catching_and_restored_after_a_panic() {
        assert!(!is_catching());
        let inner = catching(|| {
            assert!(is_catching());
            let nested = catching(|| panic!("inner"));
            assert!(nested.is_err());
            assert!(is_catching());
            7
        });
        assert_eq!(inner.ok(), Some(7));
        assert!(!is_catching());
    }
}
