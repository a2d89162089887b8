//! The producer side of asynchronous logging allocates nothing in steady state: an AsyncRoot in
//! front of a buffered File, and an Async appender in front of a RandomAccessFile (each beside
//! an immediate-flush one of the other kind, whose flushes the queue's thread batches), with the log4j2
//! appender benchmark's pattern, a 101-frame throwable on every fifth call, and MDC/NDC entries.
//! Then the same through rings far larger than the warm-up, whose warm-up logs no error, so
//! that the counted errors reach slots that never held one: a prepared throwable is shared
//! with the slot (a reference count). The strict check of that, errors far beyond the queue's
//! spare buffers in flight at once, is `crates/async/tests/queue.rs`.
//! Only allocations made on the logging thread are counted; the background threads' are reported.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use l4rs_tests::allocations::CountingAllocator;

static COUNTING: AtomicBool = AtomicBool::new(false);
static PRODUCER_ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);
static OTHER_ALLOCATIONS: AtomicUsize = AtomicUsize::new(0);

thread_local! {
    static IS_PRODUCER: Cell<bool> = const { Cell::new(false) };
}

fn count() {
    if COUNTING.load(Ordering::Relaxed) {
        if IS_PRODUCER.try_with(Cell::get).unwrap_or(false) {
            PRODUCER_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        } else {
            OTHER_ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(count);

/// The configuration: an AsyncRoot and an Async appender, each with `slots` slots, writing to
/// files in `dir` with the log4j2 appender benchmark's pattern and a full trace.
fn config(dir: &std::path::Path, slots: usize) -> String {
    l4rs::config::set_system_property("log4j2.asyncLoggerConfigRingBufferSize", slots.to_string());
    // Spliced into the XML below as an argument, so its braces are written once.
    let pattern = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %X{user} %x - %msg %ex{full} %n";
    format!(
        r#"<Configuration><Appenders>
  <File name="F" fileName="{dir}/logger.log" immediateFlush="false">
    <PatternLayout pattern="{pattern}"/>
  </File>
  <RandomAccessFile name="R" fileName="{dir}/appender.log" immediateFlush="false">
    <PatternLayout pattern="{pattern}"/>
  </RandomAccessFile>
  <File name="FI" fileName="{dir}/appender-immediate.log"><PatternLayout pattern="{pattern}"/></File>
  <RandomAccessFile name="RI" fileName="{dir}/logger-immediate.log">
    <PatternLayout pattern="{pattern}"/>
  </RandomAccessFile>
  <Async name="A" bufferSize="{slots}"><AppenderRef ref="R"/><AppenderRef ref="FI"/></Async>
</Appenders><Loggers>
  <Logger name="Appender" level="debug" additivity="false"><AppenderRef ref="A"/></Logger>
  <AsyncRoot level="debug"><AppenderRef ref="F"/><AppenderRef ref="RI"/></AsyncRoot>
</Loggers></Configuration>"#,
        dir = dir.display()
    )
}

/// What the calls log: one logger for each of the two queues, the message and the throwable.
struct Workload {
    loggers: [l4rs::Logger; 2],
    message: String,
    error: l4rs::Throwable,
}

/// Logs `count` events to each of the two queues, with the 101-frame throwable on every
/// `error_every`-th (none when 0), and a disabled call beside each.
fn run(work: &Workload, count: usize, error_every: usize) {
    let (message, error) = (&work.message, &work.error);
    for index in 0..count {
        for logger in &work.loggers {
            if error_every != 0 && index % error_every == 0 {
                l4rs::debug!(logger, error = error, "{message} {index}");
            } else {
                l4rs::debug!(logger, "{message} {index}");
            }
            l4rs::trace!(logger, "disabled {}", index);
        }
    }
}

/// The producer's allocations while `work` runs.
fn producer_allocations(work: impl FnOnce()) -> usize {
    let before = PRODUCER_ALLOCATIONS.load(Ordering::SeqCst);
    COUNTING.store(true, Ordering::SeqCst);
    work();
    COUNTING.store(false, Ordering::SeqCst);
    PRODUCER_ALLOCATIONS.load(Ordering::SeqCst) - before
}

/// Checks that each file in `dir` holds `events` events, with the MDC, the NDC and the trace.
fn check_files(dir: &std::path::Path, events: usize) {
    for file in [
        "logger.log",
        "appender.log",
        "logger-immediate.log",
        "appender-immediate.log",
    ] {
        let lines = l4rs_tests::read_lines(&dir.join(file));
        let written = lines.iter().filter(|line| line.contains(" - xxx")).count();
        assert_eq!(written, events, "{file}: every event written");
        // The whole pattern was in force: MDC, NDC and the rendered trace.
        assert!(
            lines
                .iter()
                .any(|line| line.contains(" ann [request-7] - xxx")),
            "{file}: {:?}",
            lines.first()
        );
        assert!(
            lines.iter().any(|line| line.starts_with("\tat ")),
            "{file}: the error's frames are printed"
        );
    }
}

#[test]
fn steady_state_async_log_calls_do_not_allocate_on_the_producer() {
    let dir = l4rs_tests::fresh_output_dir("async-zero-allocation");
    // A small ring reaches its steady state (every slot's buffers grown) quickly.
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &config(&dir, 128))).unwrap();
    let work = Workload {
        loggers: [l4rs::get_logger("FileLogger"), l4rs::get_logger("Appender")],
        message: "x".repeat(100),
        error: l4rs_tests::deep_throwable(100),
    };
    l4rs::ThreadContext::put("user", "ann");
    l4rs::ThreadContext::push("request-7");
    IS_PRODUCER.with(|flag| flag.set(true));
    run(&work, 5_000, 5);
    l4rs::flush();
    let steady = producer_allocations(|| run(&work, 10_000, 5));

    // Rings far larger than the warm-up, which logs no error: every counted error reaches a
    // slot that never held one. Warm-up: every slot twice (the snapshots move between the two
    // queues through the thread's staging one, so each must have held both logger names).
    let large = l4rs_tests::fresh_output_dir("async-zero-allocation-first-error");
    l4rs::reconfigure_with_file(l4rs_tests::write_config(&large, &config(&large, 8192))).unwrap();
    run(&work, 17_000, 0);
    l4rs::flush();
    let first_errors = producer_allocations(|| run(&work, 3_000, 100));
    IS_PRODUCER.with(|flag| flag.set(false));
    l4rs::shutdown();
    let other = OTHER_ALLOCATIONS.load(Ordering::SeqCst);
    eprintln!(
        "producer allocations: {steady} in 20,000 calls, {first_errors} in 6,000 calls with \
         errors in fresh slots; background threads {other}"
    );
    assert_eq!(
        steady, 0,
        "producer allocations in 20,000 steady-state calls"
    );
    assert_eq!(
        first_errors, 0,
        "producer allocations in 6,000 calls whose errors are the first ever through their slots"
    );
    check_files(&dir, 15_000);
    check_files(&large, 20_000);
}
