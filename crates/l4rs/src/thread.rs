//! Per-thread data attached to events: the thread's name and id, and log4j2's ThreadContext
//! (MDC map and NDC stack).

use std::cell::RefCell;
use std::sync::atomic::{AtomicU64, Ordering};

use l4rs_core::{ContextMap, ContextStack, ThreadInfo};

/// Thread ids for threads other than `main`; `main` is 1, as the JVM numbers its main thread.
static NEXT_THREAD_ID: AtomicU64 = AtomicU64::new(2);

/// log4j2's default thread priority; Rust threads have none.
const DEFAULT_PRIORITY: i32 = 5;

struct ThreadData {
    name: String,
    id: u64,
    map: ContextMap,
    stack: ContextStack,
}

impl ThreadData {
    fn current() -> ThreadData {
        let current = std::thread::current();
        let name = current.name().unwrap_or("").to_string();
        let id = if name == "main" {
            1
        } else {
            NEXT_THREAD_ID.fetch_add(1, Ordering::Relaxed)
        };
        ThreadData {
            name,
            id,
            map: ContextMap::new(),
            stack: ContextStack::new(),
        }
    }
}

thread_local! {
    static THREAD_DATA: RefCell<ThreadData> = RefCell::new(ThreadData::current());
}

/// Runs `f` with this thread's identity and context. Falls back to an anonymous thread with
/// empty context when the thread-local is being destroyed or is in use by an outer call
/// (logging from inside `Display` of a logged value), so logging never panics.
pub(crate) fn with_thread_data<R>(
    f: impl FnOnce(ThreadInfo<'_>, &ContextMap, &ContextStack) -> R,
) -> R {
    let mut f = Some(f);
    let result = THREAD_DATA.try_with(|cell| {
        cell.try_borrow().ok().map(|data| {
            let info = ThreadInfo {
                name: &data.name,
                id: data.id,
                priority: DEFAULT_PRIORITY,
            };
            (f.take().expect("called once"))(info, &data.map, &data.stack)
        })
    });
    match result {
        Ok(Some(value)) => value,
        _ => {
            let info = ThreadInfo {
                name: "",
                id: 0,
                priority: DEFAULT_PRIORITY,
            };
            (f.take().expect("not yet called"))(info, &ContextMap::new(), &ContextStack::new())
        }
    }
}

fn with_thread_data_mut(f: impl FnOnce(&mut ThreadData)) {
    let _ = THREAD_DATA.try_with(|cell| {
        if let Ok(mut data) = cell.try_borrow_mut() {
            f(&mut data);
        }
    });
}

/// log4j2's `ThreadContext`: a per-thread map (MDC, printed by `%X`) and stack (NDC, printed by
/// `%x`) attached to every event the thread logs.
pub struct ThreadContext;

impl ThreadContext {
    /// Sets `key` in this thread's map.
    pub fn put(key: impl Into<String>, value: impl Into<String>) {
        let (key, value) = (key.into(), value.into());
        with_thread_data_mut(|data| data.map.insert(key, value));
    }

    /// The value of `key` in this thread's map.
    pub fn get(key: &str) -> Option<String> {
        with_thread_data(|_, map, _| map.get(key).map(str::to_string))
    }

    /// Removes `key` from this thread's map.
    pub fn remove(key: &str) {
        with_thread_data_mut(|data| {
            data.map.remove(key);
        });
    }

    /// Empties this thread's map.
    pub fn clear_map() {
        with_thread_data_mut(|data| data.map.clear());
    }

    /// Pushes an entry on this thread's stack.
    pub fn push(entry: impl Into<String>) {
        let entry = entry.into();
        with_thread_data_mut(|data| data.stack.push(entry));
    }

    /// Pops the top entry of this thread's stack.
    pub fn pop() -> Option<String> {
        let mut popped = None;
        with_thread_data_mut(|data| popped = data.stack.pop());
        popped
    }

    /// Empties this thread's stack.
    pub fn clear_stack() {
        with_thread_data_mut(|data| data.stack.clear());
    }

    /// Empties both the map and the stack.
    pub fn clear_all() {
        with_thread_data_mut(|data| {
            data.map.clear();
            data.stack.clear();
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn context_is_per_thread() {
        ThreadContext::put("user", "ann");
        ThreadContext::push("outer");
        std::thread::spawn(|| {
            assert_eq!(ThreadContext::get("user"), None);
            with_thread_data(|info, _, stack| {
                assert!(info.id >= 2);
                assert!(stack.is_empty());
            });
        })
        .join()
        .unwrap();
        with_thread_data(|_, map, stack| {
            assert_eq!(map.get("user"), Some("ann"));
            assert_eq!(stack.iter().collect::<Vec<_>>(), vec!["outer"]);
        });
        ThreadContext::clear_all();
        assert_eq!(ThreadContext::pop(), None);
    }
}
