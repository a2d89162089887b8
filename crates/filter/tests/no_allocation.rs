//! Filters allocate nothing per event once warm: counted with a per-thread allocation counter
//! (in its own test binary, since it replaces the global allocator).

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use l4rs_config::model::{FilterSpec, FilterVerdicts};
use l4rs_core::{FilterResult, Level, LogEvent, Marker, Message};
use l4rs_filter::build_filter;

struct CountingAllocator;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count() {
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

// SAFETY: every call is forwarded unchanged to the system allocator.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count();
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count();
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

fn allocations_during(f: impl FnOnce()) -> usize {
    let before = ALLOCATIONS.with(Cell::get);
    f();
    ALLOCATIONS.with(Cell::get) - before
}

#[test]
fn the_counter_sees_allocations() {
    assert!(allocations_during(|| drop(std::hint::black_box(vec![1u8; 16]))) > 0);
}

#[test]
fn steady_state_filtering_allocates_nothing() {
    let defaults = FilterVerdicts::default();
    let filter = build_filter(&FilterSpec::Composite(vec![
        FilterSpec::Threshold {
            level: Level::TRACE,
            verdicts: defaults,
        },
        FilterSpec::LevelRange {
            min_level: Level::FATAL,
            max_level: Level::TRACE,
            verdicts: defaults,
        },
        FilterSpec::Regex {
            regex: r"request \d+ took .*".into(),
            use_raw_msg: false,
            verdicts: defaults,
        },
        FilterSpec::StringMatch {
            text: "took".into(),
            verdicts: defaults,
        },
        FilterSpec::Marker {
            marker: "NO_ALLOC_PARENT".into(),
            verdicts: defaults,
        },
        FilterSpec::Burst {
            level: Level::INFO,
            rate: 1e9,
            max_burst: 64,
            verdicts: defaults,
        },
    ]));
    let child = Marker::get("NO_ALLOC_CHILD");
    child.add_parent(Marker::get("NO_ALLOC_PARENT"));
    let run = |count: usize| {
        for i in 0..count {
            let args = format_args!("request {i} took {} ms", i % 97);
            let mut event = LogEvent::new("alloc", Level::INFO, Message::Args(args));
            event.marker = Some(&child);
            assert_eq!(filter.filter(&event), FilterResult::Neutral);
        }
    };
    run(100);
    assert_eq!(allocations_during(|| run(1000)), 0);
}
