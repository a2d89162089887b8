//! Formatting allocates nothing once warm: the log4j2 appender benchmark's pattern with a 101-frame
//! throwable, counted by a global allocator (only allocations made on the test's own thread count).

use l4rs_core::{Layout, Level, Location, LogEvent, Message, Throwable, ThrowableRef, Timestamp};
use l4rs_layout::PatternLayout;
use l4rs_test_support::allocations::{self, CountingAllocator};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(allocations::count_on_this_thread);

/// The benchmark's error, with a cause that shares its last 51 frames (`... 51 more`).
fn benchmark_throwable() -> Throwable {
    let throwable = l4rs_test_support::benchmark_throwable();
    let cause = Throwable::new("java.io.IOException")
        .with_message("disk full")
        .with_frames(throwable.frames()[50..].to_vec());
    throwable.with_cause(cause)
}

#[test]
fn benchmark_pattern_formats_without_allocating() {
    let seen = allocations::allocations_during(|| drop(std::hint::black_box(vec![1u8; 16])));
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
        let allocations = allocations::allocations_during(|| {
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
