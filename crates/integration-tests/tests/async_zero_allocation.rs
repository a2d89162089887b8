//! The producer side of asynchronous logging allocates nothing in steady state: an AsyncRoot in
//! front of a buffered File, and an Async appender in front of a RandomAccessFile (each beside
//! an immediate-flush one of the other kind, whose flushes the queue's thread batches), with the log4j2
//! appender benchmark's pattern, a 101-frame throwable on every fifth call, and MDC/NDC entries.
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

#[test]
fn steady_state_async_log_calls_do_not_allocate_on_the_producer() {
    let dir = l4rs_tests::fresh_output_dir("async-zero-allocation");
    // A small ring reaches its steady state (every slot's buffers grown) quickly.
    l4rs::config::set_system_property("log4j2.asyncLoggerConfigRingBufferSize", "128");
    // Spliced into the XML below as an argument, so its braces are written once.
    let pattern = "%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %X{user} %x - %msg %ex{full} %n";
    let xml = format!(
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
  <Async name="A" bufferSize="128"><AppenderRef ref="R"/><AppenderRef ref="FI"/></Async>
</Appenders><Loggers>
  <Logger name="Appender" level="debug" additivity="false"><AppenderRef ref="A"/></Logger>
  <AsyncRoot level="debug"><AppenderRef ref="F"/><AppenderRef ref="RI"/></AsyncRoot>
</Loggers></Configuration>"#,
        dir = dir.display()
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    let async_logger = l4rs::get_logger("FileLogger");
    let async_appender = l4rs::get_logger("Appender");
    let error = l4rs_tests::deep_throwable(100);
    let message = "x".repeat(100);
    l4rs::ThreadContext::put("user", "ann");
    l4rs::ThreadContext::push("request-7");
    let run = |count: usize| {
        for index in 0..count {
            for logger in [&async_logger, &async_appender] {
                if index % 5 == 0 {
                    l4rs::debug!(logger, error = &error, "{message} {index}");
                } else {
                    l4rs::debug!(logger, "{message} {index}");
                }
                l4rs::trace!(logger, "disabled {}", index);
            }
        }
    };
    IS_PRODUCER.with(|flag| flag.set(true));
    run(5_000);
    l4rs::flush();
    COUNTING.store(true, Ordering::SeqCst);
    run(10_000);
    COUNTING.store(false, Ordering::SeqCst);
    IS_PRODUCER.with(|flag| flag.set(false));
    l4rs::shutdown();
    let producer = PRODUCER_ALLOCATIONS.load(Ordering::SeqCst);
    let other = OTHER_ALLOCATIONS.load(Ordering::SeqCst);
    eprintln!("allocations during 20,000 calls: producer {producer}, background threads {other}");
    assert_eq!(
        producer, 0,
        "producer allocations in 20,000 steady-state calls"
    );
    for file in [
        "logger.log",
        "appender.log",
        "logger-immediate.log",
        "appender-immediate.log",
    ] {
        let lines = l4rs_tests::read_lines(&dir.join(file));
        let events = lines.iter().filter(|line| line.contains(" - xxx")).count();
        assert_eq!(events, 15_000, "{file}: every event written");
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
