//! Reused per-thread text buffers for converters that must format a sub-pattern on its own
//! (`%replace`, the `%ex` suffix, `<Replace>`), so that steady-state formatting allocates
//! nothing.

use std::cell::RefCell;

/// Buffers larger than this are dropped after use so that one huge event does not pin memory.
const MAX_RETAINED: usize = 64 * 1024;

thread_local! {
    static POOL: RefCell<Vec<String>> = const { RefCell::new(Vec::new()) };
}

/// Runs `f` with an empty buffer taken from this thread's pool. Nested calls each get their
/// own buffer; the buffer goes back to the pool afterwards with its capacity kept.
pub(crate) fn with_scratch<R>(f: impl FnOnce(&mut String) -> R) -> R {
    let mut buffer = POOL
        .try_with(|pool| pool.borrow_mut().pop())
        .ok()
        .flatten()
        .unwrap_or_default();
    buffer.clear();
    let result = f(&mut buffer);
    if buffer.capacity() <= MAX_RETAINED {
        let _ = POOL.try_with(|pool| pool.borrow_mut().push(buffer));
    }
    result
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_scratch_buffers_are_distinct_and_empty() {
        with_scratch(|outer| {
            outer.push_str("outer");
            with_scratch(|inner| {
                assert!(inner.is_empty());
                inner.push_str("inner");
            });
            assert_eq!(outer, "outer");
        });
        with_scratch(|again| assert!(again.is_empty()));
    }
}
