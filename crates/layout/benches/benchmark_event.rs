//! What formatting one event of the log4j2 appender benchmark's workload
//! (`config-samples/log4j2-appender.xml`) costs, without any appender: the plain event and the
//! event with its 101-frame error (`%ex{full}` renders every frame on every event), with its
//! pattern.
//!
//! Run with `cargo bench -p l4rs-layout --bench benchmark_event`; `cargo test` runs each
//! benchmark once as a smoke test.
//!
//! Wall-clock times on a shared machine swing with the load; instruction counts do not. With
//! `L4RS_COUNT_EVENTS=PLAIN,WITH_ERROR` set (two counts) the binary skips divan, formats that
//! many plain events, then that many with the error, and exits, so that
//! `valgrind --tool=callgrind` (docs/benchmarks.md, "Formatting cost, counted") can count what
//! one event costs: run it with two counts of one kind and divide the difference.

use std::hint::black_box;

use l4rs_core::{Layout, Level, LogEvent, Message, Throwable, ThrowableRef};
use l4rs_layout::PatternLayout;
// The shape of the bench's error: 100 recursive frames and their caller, as Rust frames resolve.
use l4rs_test_support::benchmark_throwable;

const BENCHMARK_PATTERN: &str =
    "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %C.%M:%L - %msg %ex{full} %n";
const MESSAGE: &str = "l4rs benchmark event: a fixed one-hundred-character message, logged at DEBUG level by every thread..";

fn main() {
    match std::env::var("L4RS_COUNT_EVENTS") {
        Ok(counts) => {
            let counts: Vec<usize> = counts
                .split(',')
                .map(|count| {
                    count
                        .trim()
                        .parse()
                        .expect("L4RS_COUNT_EVENTS is two counts")
                })
                .collect();
            count_events(counts[0], counts.get(1).copied().unwrap_or(0));
        }
        Err(_) => divan::main(),
    }
}

/// The callgrind harness: `plain` events, then `with_error` events, each into the cleared
/// buffer.
fn count_events(plain: usize, with_error: usize) {
    let throwable = benchmark_throwable();
    let layout = PatternLayout::from_pattern(BENCHMARK_PATTERN);
    let mut out = String::with_capacity(16 * 1024);
    for (throwable, count) in [(None, plain), (Some(&throwable), with_error)] {
        let event = benchmark_event(throwable);
        for _ in 0..count {
            out.clear();
            layout.format(black_box(&event), &mut out);
            black_box(out.len());
        }
    }
}

/// The bench's event: its logger, level, message and call site, with or without the error.
fn benchmark_event(throwable: Option<&Throwable>) -> LogEvent<'_> {
    let mut event = LogEvent::new("FileLogger", Level::DEBUG, Message::Text(MESSAGE));
    event.location = Some(l4rs_core::Location {
        class: "l4rs_bench::ours",
        method: "with_error",
        file: "ours.rs",
        line: 576,
    });
    event.throwable = throwable.map(ThrowableRef::Throwable);
    event
}

fn format_bench(bencher: divan::Bencher<'_, '_>, throwable: Option<&Throwable>) {
    let layout = PatternLayout::from_pattern(BENCHMARK_PATTERN);
    let event = benchmark_event(throwable);
    let mut out = String::with_capacity(16 * 1024);
    bencher.bench_local(|| {
        out.clear();
        layout.format(black_box(&event), &mut out);
        black_box(out.len())
    });
}

/// An event of four in five: the message alone.
#[divan::bench]
fn plain(bencher: divan::Bencher<'_, '_>) {
    format_bench(bencher, None);
}

/// An event of one in five: the message and the 101-frame error.
#[divan::bench]
fn with_error(bencher: divan::Bencher<'_, '_>) {
    let throwable = benchmark_throwable();
    format_bench(bencher, Some(&throwable));
}
