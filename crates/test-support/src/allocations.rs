//! Counted allocations, for the tests that prove steady-state logging allocates nothing.
//!
//! A test binary installs [`CountingAllocator`] as its global allocator (each binary installs
//! its own, since it replaces the process's allocator) with one of two counters:
//!
//! * [`count_on_this_thread`] with [`allocations_during`]: what the calling thread allocates
//!   while a closure runs (a layout, a filter, an appender called in the test's thread);
//! * [`count`] with [`counted`]: what every thread of the process allocates while a closure
//!   runs (logging through asynchronous queues, sockets or the facade's background threads).
//!
//! ```
//! use l4rs_test_support::allocations::{self, CountingAllocator};
//!
//! #[global_allocator]
//! static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);
//!
//! fn main() {
//!     let allocations =
//!         allocations::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16])));
//!     assert!(allocations > 0);
//! }
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

/// The system allocator, with `count` called before each allocation and reallocation.
pub struct CountingAllocator {
    count: fn(),
}

impl CountingAllocator {
    /// An allocator that calls `count` for each allocation. `count` runs inside the allocator,
    /// so it must not allocate (atomics and `const` thread-locals are fine).
    pub const fn new(count: fn()) -> CountingAllocator {
        CountingAllocator { count }
    }
}

// SAFETY: every call is forwarded to the system allocator unchanged; only `count` is added.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        (self.count)();
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        (self.count)();
        System.realloc(ptr, layout, new_size)
    }
}

thread_local! {
    static THREAD_ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

/// A `count` for [`CountingAllocator::new`]: counts the calling thread's allocations, for
/// [`allocations_during`].
pub fn count_on_this_thread() {
    // During thread teardown the slot may be gone; that allocation is not the test's.
    let _ = THREAD_ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

/// How many allocations this thread made while `f` ran, as counted by
/// [`count_on_this_thread`].
pub fn allocations_during(f: impl FnOnce()) -> usize {
    let before = THREAD_ALLOCATIONS.with(Cell::get);
    f();
    THREAD_ALLOCATIONS.with(Cell::get) - before
}

static COUNTING: AtomicBool = AtomicBool::new(false);
static PROCESS_ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

/// A `count` for [`CountingAllocator::new`]: counts every thread's allocations while
/// [`counted`] runs.
pub fn count() {
    if COUNTING.load(Ordering::Relaxed) {
        PROCESS_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
    }
}

/// Runs `work` and returns how many allocations the process made meanwhile, as counted by
/// [`count`].
pub fn counted(work: impl FnOnce()) -> usize {
    let before = PROCESS_ALLOCATIONS.load(Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    work();
    COUNTING.store(false, Ordering::SeqCst);
    PROCESS_ALLOCATIONS.load(Ordering::SeqCst) - before
}
