//! Formatting allocates nothing once warm: the log4j2 appender benchmark's pattern with a 101-frame
//! throwable, counted by a global allocator (only allocations made on the test's own thread count).

use std::alloc::{GlobalAlloc, Layout as AllocLayout, System};
use std::cell::Cell;
use std::sync::atomic::{AtomicUsize, Ordering};

use l4rs_core::{
    Layout, Level, Location, LogEvent, Message, StackFrame, Throwable, ThrowableRef, Timestamp,
};
use l4rs_layout::PatternLayout;

struct Counting;

static ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: AllocLayout) -> *mut u8 {
        if COUNTING.try_with(Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        System.alloc(layout)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: AllocLayout) {
        System.dealloc(ptr, layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: AllocLayout, new_size: usize) -> *mut u8 {
        if COUNTING.try_with(Cell::get).unwrap_or(false) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        System.realloc(ptr, layout, new_size)
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn counted<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let before = ALLOCATIONS.load(Ordering::Relaxed);
    COUNTING.with(|c| c.set(true));
    let result = f();
    COUNTING.with(|c| c.set(false));
    (result, ALLOCATIONS.load(Ordering::Relaxed) - before)
}

fn benchmark_throwable() -> Throwable {
    let frames: Vec<StackFrame> = (0..101)
        .map(|i| {
            StackFrame::java(
                format!("com.example.bench.Layer{i}"),
                "call",
                Some("Layer.java"),
                10 + i,
            )
        })
        .collect();
    let cause = Throwable::new("java.io.IOException")
        .with_message("disk full")
        .with_frames(frames[50..].to_vec());
    Throwable::new("com.example.BenchException")
        .with_message("benchmark failure")
        .with_frames(frames)
        .with_cause(cause)
}

#[test]
fn benchmark_pattern_formats_without_allocating() {
    let (_probe, seen) = counted(|| Vec::<u8>::with_capacity(16));
    assert!(seen >= 1, "the counting allocator must see allocations");
    for pattern in [
        "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %C.%M:%L - %msg %ex{full} %n",
        "%d %p %c{1.} [%t] %X %x %marker %m%n",
        "%d{ISO8601}{America/New_York} %-5p %c{2} %l %m %xEx%n",
        "%highlight{%p} %style{%c}{bold} %enc{%m}{JSON} %maxLen{%m}{20} %notEmpty{[%X{a}]} %equals{%x}{[]}{-}%n",
        "%m %rEx{5}%n",
    ] {
        let layout = PatternLayout::from_pattern(pattern);
        let throwable = benchmark_throwable();
        let message = "Benchmark message 0123456789 abcdefghijklmnopqrstuvwxyz ABCDEFGHIJKLMNOPQRSTUVWXYZ 0123456789 end!!.";
        let make = |millis: i64| {
            let mut event = LogEvent::new("FileLogger", Level::DEBUG, Message::Text(message));
            event.timestamp = Timestamp { epoch_millis: millis, nano_of_milli: 0 };
            event.thread.name = "bench-worker-1";
            event.location = Some(Location { class: "Bench$Worker", method: "run", file: "Bench.java", line: 142 });
            event.throwable = Some(ThrowableRef::Throwable(&throwable));
            event
        };
        let mut out = String::with_capacity(64 * 1024);
        // Warm up: the date cache, thread-local buffers and the regex caches.
        for i in 0..3 {
            out.clear();
            layout.format(&make(1_700_000_000_007 + i * 1000), &mut out);
        }
        let length = out.len();
        let ((), allocations) = counted(|| {
            for i in 0..200 {
                out.clear();
                // Crosses several second boundaries, so the cache re-renders in place.
                layout.format(&make(1_700_000_003_000 + i * 37), &mut out);
            }
        });
        assert!(out.len() >= length / 2);
        assert_eq!(allocations, 0, "{pattern}: {allocations} allocations in 200 events");
    }
}
