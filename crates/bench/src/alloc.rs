//! A counting global allocator: every allocation (and reallocation) of every thread is added to
//! striped counters, so the bench can report allocated bytes and allocations per operation.
//!
//! The bench binary installs it with `#[global_allocator]`. Counting costs one uncontended
//! relaxed add per allocation: each thread adds to its own cache line (threads are spread over
//! [`STRIPES`] stripes), so allocation-heavy peers are not slowed by a shared counter and the
//! comparison stays fair. All threads count, background threads of asynchronous loggers
//! included: their allocations are part of what an operation costs.
//!
//! Threads that call [`mark_producer_thread`] (the benchmark's workers) are also added to a
//! second set of counters, so a row can tell what the logging call itself allocated (the
//! zero-allocation target) from what background threads (an asynchronous queue's writer, a
//! peer's channel consumer) allocated to write the same events.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

/// Number of counter stripes; threads beyond it share stripes (still exact, just contended).
pub const STRIPES: usize = 64;

/// One stripe, alone on its cache line (128 bytes also covers adjacent-line prefetching).
#[repr(align(128))]
struct Stripe {
    bytes: AtomicU64,
    count: AtomicU64,
}

#[allow(clippy::declare_interior_mutable_const)] // only used to initialise the array below
const EMPTY_STRIPE: Stripe = Stripe {
    bytes: AtomicU64::new(0),
    count: AtomicU64::new(0),
};

static COUNTERS: [Stripe; STRIPES] = [EMPTY_STRIPE; STRIPES];
/// The allocations of producer threads only (also counted in [`COUNTERS`]).
static PRODUCER_COUNTERS: [Stripe; STRIPES] = [EMPTY_STRIPE; STRIPES];
static NEXT_STRIPE: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    // `const` and without `Drop`: touching it never allocates nor registers a destructor, which
    // matters because it is read from inside the allocator.
    static STRIPE: Cell<usize> = const { Cell::new(usize::MAX) };
    // This thread's own totals, for exact checks that other threads cannot disturb.
    static THREAD_BYTES: Cell<u64> = const { Cell::new(0) };
    static THREAD_COUNT: Cell<u64> = const { Cell::new(0) };
    // Set once by `mark_producer_thread`; read on every allocation, so also `const`.
    static PRODUCER: Cell<bool> = const { Cell::new(false) };
}

fn record(bytes: usize) {
    let stripe = STRIPE
        .try_with(|slot| {
            let mut index = slot.get();
            if index == usize::MAX {
                index = NEXT_STRIPE.fetch_add(1, Ordering::Relaxed) % STRIPES;
                slot.set(index);
            }
            index
        })
        // During thread teardown the slot may be gone; stripe 0 still counts the allocation.
        .unwrap_or(0);
    let _ = THREAD_BYTES.try_with(|b| b.set(b.get() + bytes as u64));
    let _ = THREAD_COUNT.try_with(|c| c.set(c.get() + 1));
    let counters = &COUNTERS[stripe];
    counters.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
    counters.count.fetch_add(1, Ordering::Relaxed);
    if PRODUCER.try_with(Cell::get).unwrap_or(false) {
        let producers = &PRODUCER_COUNTERS[stripe];
        producers.bytes.fetch_add(bytes as u64, Ordering::Relaxed);
        producers.count.fetch_add(1, Ordering::Relaxed);
    }
}

/// Marks the calling thread as a producer: from now on its allocations are also added to the
/// producer totals ([`split_snapshot`]). The benchmark's worker threads call it first thing.
pub fn mark_producer_thread() {
    let _ = PRODUCER.try_with(|flag| flag.set(true));
}

/// The system allocator, with every allocation counted. Install it in a binary with
/// `#[global_allocator] static A: CountingAllocator = CountingAllocator;`.
pub struct CountingAllocator;

// SAFETY: every call is forwarded unchanged to the system allocator; only counters are added,
// and counting neither allocates nor panics.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        record(layout.size());
        System.alloc_zeroed(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A growing buffer is new memory handed out; counting the whole new size (not only the
        // growth) errs on the side of reporting too much, never too little.
        record(new_size);
        System.realloc(ptr, layout, new_size)
    }
}

/// Totals of every thread's allocations since the process started.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocSnapshot {
    /// Bytes requested (reallocations count their new size).
    pub bytes: u64,
    /// Number of allocations and reallocations.
    pub count: u64,
}

impl AllocSnapshot {
    /// What was allocated between `earlier` and `self`.
    pub fn since(self, earlier: AllocSnapshot) -> AllocSnapshot {
        AllocSnapshot {
            bytes: self.bytes.saturating_sub(earlier.bytes),
            count: self.count.saturating_sub(earlier.count),
        }
    }
}

/// Sums the stripes. Only meaningful in a binary whose global allocator is
/// [`CountingAllocator`] (otherwise it stays at zero; see [`is_counting`]).
pub fn snapshot() -> AllocSnapshot {
    sum(&COUNTERS)
}

/// The process's totals split by who allocated: producer threads (marked with
/// [`mark_producer_thread`]) and every other thread.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SplitSnapshot {
    /// The producer threads' allocations.
    pub producers: AllocSnapshot,
    /// Everything else: background threads, and the main thread.
    pub others: AllocSnapshot,
}

impl SplitSnapshot {
    /// What was allocated between `earlier` and `self`, per side.
    pub fn since(self, earlier: SplitSnapshot) -> SplitSnapshot {
        SplitSnapshot {
            producers: self.producers.since(earlier.producers),
            others: self.others.since(earlier.others),
        }
    }
}

fn sum(stripes: &[Stripe; STRIPES]) -> AllocSnapshot {
    stripes
        .iter()
        .fold(AllocSnapshot::default(), |total, stripe| AllocSnapshot {
            bytes: total.bytes + stripe.bytes.load(Ordering::Relaxed),
            count: total.count + stripe.count.load(Ordering::Relaxed),
        })
}

/// The totals split into producer threads and the others. The producer counters are read
/// first: every producer allocation reaches the overall counters first, so `others` never
/// comes out negative because of a race (it is saturated at zero regardless).
pub fn split_snapshot() -> SplitSnapshot {
    let producers = sum(&PRODUCER_COUNTERS);
    let total = sum(&COUNTERS);
    SplitSnapshot {
        producers,
        others: total.since(producers),
    }
}

/// The calling thread's own allocations since it started (exact, whatever other threads do).
pub fn this_thread() -> AllocSnapshot {
    AllocSnapshot {
        bytes: THREAD_BYTES.try_with(Cell::get).unwrap_or(0),
        count: THREAD_COUNT.try_with(Cell::get).unwrap_or(0),
    }
}

/// True when [`CountingAllocator`] is the global allocator (a fresh allocation shows up in the
/// counters). The bench refuses to report allocation figures otherwise.
pub fn is_counting() -> bool {
    let before = snapshot();
    let probe = std::hint::black_box(Box::new(0u64));
    drop(probe);
    snapshot().count > before.count
}

/// Serialises the tests that check the producer totals exactly (producers of a concurrently
/// running test would add to them).
#[cfg(test)]
pub(crate) fn producer_test_lock() -> std::sync::MutexGuard<'static, ()> {
    static LOCK: std::sync::Mutex<()> = std::sync::Mutex::new(());
    LOCK.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_binary_counts() {
        assert!(is_counting());
    }

    #[test]
    fn allocations_are_counted_in_bytes_and_number() {
        let before = snapshot();
        let buffer: Vec<u8> = std::hint::black_box(Vec::with_capacity(10_000));
        let after = snapshot().since(before);
        drop(buffer);
        // Other tests run concurrently and may add to the totals, never take away.
        assert!(after.bytes >= 10_000, "{after:?}");
        assert!(after.count >= 1, "{after:?}");
    }

    #[test]
    fn reallocations_count_their_new_size() {
        let mut buffer: Vec<u8> = Vec::with_capacity(16);
        buffer.push(1);
        let before = snapshot();
        buffer.reserve_exact(50_000);
        let after = snapshot().since(before);
        std::hint::black_box(&buffer);
        assert!(after.bytes >= 50_000, "{after:?}");
    }

    #[test]
    fn other_threads_are_counted_too() {
        let before = snapshot();
        std::thread::spawn(|| {
            let data: Vec<u64> = std::hint::black_box(vec![7; 4096]);
            drop(data);
        })
        .join()
        .unwrap();
        assert!(snapshot().since(before).bytes >= 4096 * 8);
    }

    #[test]
    fn each_thread_has_its_own_exact_totals() {
        let before = this_thread();
        let data: Vec<u8> = std::hint::black_box(Vec::with_capacity(3000));
        let after = this_thread().since(before);
        drop(data);
        assert_eq!(
            after,
            AllocSnapshot {
                bytes: 3000,
                count: 1
            }
        );
    }

    #[test]
    fn producer_threads_are_counted_apart_from_the_others() {
        // Other tests allocate concurrently on unmarked threads, so only the producer side can
        // be checked exactly (the lock keeps other producers out).
        let _lock = producer_test_lock();
        let before = split_snapshot();
        std::thread::spawn(|| {
            mark_producer_thread();
            let data: Vec<u8> = std::hint::black_box(Vec::with_capacity(7000));
            drop(data);
        })
        .join()
        .unwrap();
        let between = split_snapshot();
        std::thread::spawn(|| {
            let data: Vec<u8> = std::hint::black_box(Vec::with_capacity(9000));
            drop(data);
        })
        .join()
        .unwrap();
        let after = split_snapshot();
        let marked = between.since(before);
        let unmarked = after.since(between);
        assert_eq!(marked.producers.bytes, 7000, "{marked:?}");
        assert_eq!(unmarked.producers.bytes, 0, "{unmarked:?}");
        assert!(unmarked.others.bytes >= 9000, "{unmarked:?}");
    }

    #[test]
    fn since_never_underflows() {
        let later = AllocSnapshot { bytes: 5, count: 1 };
        let earlier = AllocSnapshot { bytes: 9, count: 3 };
        assert_eq!(later.since(earlier), AllocSnapshot::default());
    }
}
