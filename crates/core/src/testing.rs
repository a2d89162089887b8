//! Test support: a global allocator that counts allocations, for the tests that prove
//! steady-state logging allocates nothing. Nothing else in l4rs uses it.
//!
//! Each such test binary installs its own counter, since it replaces the global allocator:
//!
//! ```
//! use l4rs_core::testing::{self, CountingAllocator};
//!
//! #[global_allocator]
//! static ALLOCATOR: CountingAllocator = CountingAllocator::new(testing::count_on_this_thread);
//!
//! fn main() {
//!     let allocations = testing::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16])));
//!     assert!(allocations > 0);
//! }
//! ```

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

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
    let _ = THREAD_ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

/// How many allocations this thread made while `f` ran, as counted by
/// [`count_on_this_thread`].
pub fn allocations_during(f: impl FnOnce()) -> usize {
    let before = THREAD_ALLOCATIONS.with(Cell::get);
    f();
    THREAD_ALLOCATIONS.with(Cell::get) - before
}
