//! A reused per-thread text buffer, so formatting an event allocates nothing in steady state.

use std::cell::RefCell;

/// Buffers larger than this are not kept after use, so one huge event does not pin memory.
const MAX_RETAINED_CAPACITY: usize = 1 << 20;

thread_local! {
    static TEXT_BUFFER: RefCell<String> = RefCell::new(String::with_capacity(1024));
}

/// Runs `f` with this thread's cleared text buffer. A nested call on the same thread (an
/// appender that logs while formatting) gets a fresh buffer instead of panicking.
pub fn with_text_buffer<R>(f: impl FnOnce(&mut String) -> R) -> R {
    let mut f = Some(f);
    let reused = TEXT_BUFFER.try_with(|cell| {
        cell.try_borrow_mut().ok().map(|mut buffer| {
            buffer.clear();
            let result = (f.take().expect("called once"))(&mut buffer);
            if buffer.capacity() > MAX_RETAINED_CAPACITY {
                *buffer = String::with_capacity(1024);
            }
            result
        })
    });
    match reused {
        Ok(Some(result)) => result,
        _ => (f.take().expect("not yet called"))(&mut String::new()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buffer_is_cleared_and_nesting_is_safe() {
        with_text_buffer(|outer| {
            outer.push_str("outer");
            with_text_buffer(|inner| {
                assert!(inner.is_empty());
                inner.push_str("inner");
            });
            assert_eq!(outer, "outer");
        });
        with_text_buffer(|again| assert!(again.is_empty()));
    }
}
