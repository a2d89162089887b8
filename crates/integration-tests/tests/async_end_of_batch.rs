//! End of batch behind a queue, in a process of its own so that nothing else calls
//! `l4rs::flush()`: File, RandomAccessFile and MemoryMappedFile appenders behind an AsyncLogger
//! or an Async appender hold every event once the queue runs dry, with no flush call. The File
//! and RandomAccessFile appenders are also checked mid-batch: while the queue still holds
//! events their 1 MiB buffers stay unwritten. The MemoryMappedFile is checked at the end only:
//! each event is in its mapping, and so in the file, as soon as it is written (the end of a
//! batch syncs it to the disk, which a test cannot observe).
//!
//! A File appender on a named pipe (see `crates/test-support/src/fifo_gate.rs`) comes first on the path
//! and holds the queue's thread mid-batch, so the check in between needs no timing.
//!
//! Immediate-flush File and RandomAccessFile appenders (log4j2's defaults) on the same path
//! flush once per batch behind a queue (`l4rs_core::batch`): the whole run costs the queue's
//! thread fewer `write(2)` calls than there are events, where a flush per event would cost
//! three per event (the pipe's File and the two).

use std::path::Path;
use std::time::{Duration, Instant};

use l4rs_tests::fifo_gate::FifoGate;

/// Events of the batch; with lines of about 1 KiB they overfill the pipe's 64 KiB several
/// times, and stay well below the 1 MiB buffers.
const EVENTS: usize = 400;
/// The first event, alone in the queue, which fills the pipe and stalls the thread.
const PLUG: usize = 100_000;

fn line(index: usize) -> String {
    format!("{index:04} {}", "x".repeat(1000))
}

fn non_nul_lines(path: &Path) -> Vec<String> {
    let bytes = std::fs::read(path).unwrap_or_default();
    let text = String::from_utf8(bytes.into_iter().filter(|&b| b != 0).collect()).unwrap();
    text.lines().map(str::to_string).collect()
}

/// One configuration: `front` is "logger" (an AsyncLogger calls the appenders) or
/// "appender" (a synchronous logger calls an Async appender in front of them).
fn check(front: &str) {
    let dir = l4rs_tests::fresh_output_dir(&format!("async-end-of-batch-{front}"));
    let gate = FifoGate::create(&dir.join("gate.pipe"));
    // The plug is a DEBUG event; the buffered appenders take INFO and above only.
    let refs = r#"<AppenderRef ref="Gate"/><AppenderRef ref="F" level="info"/>
      <AppenderRef ref="R" level="info"/><AppenderRef ref="M" level="info"/>
      <AppenderRef ref="FI" level="info"/><AppenderRef ref="RI" level="info"/>"#;
    let (appender, loggers, queue) = match front {
        "logger" => (
            String::new(),
            format!(
                r#"<AsyncLogger name="plug" level="debug" additivity="false"><AppenderRef ref="Gate"/></AsyncLogger>
  <AsyncLogger name="batch" level="info" additivity="false">{refs}</AsyncLogger>"#
            ),
            ("AsyncLoggerConfig", "AsyncLoggerConf"),
        ),
        _ => (
            format!(r#"<Async name="A" bufferSize="1024">{refs}</Async>"#),
            r#"<Logger name="plug" level="debug" additivity="false"><AppenderRef ref="A"/></Logger>
  <Logger name="batch" level="info" additivity="false"><AppenderRef ref="A"/></Logger>"#
                .to_string(),
            ("AsyncAppender A", "AsyncAppenderEv"),
        ),
    };
    let (queue, thread) = queue;
    let xml = format!(
        r#"<Configuration><Appenders>
  <File name="Gate" fileName="{gate}"><PatternLayout pattern="%m%n"/></File>
  <File name="F" fileName="{dir}/file.log" immediateFlush="false" bufferSize="1048576">
    <PatternLayout pattern="%m%n"/>
  </File>
  <RandomAccessFile name="R" fileName="{dir}/raf.log" immediateFlush="false" bufferSize="1048576">
    <PatternLayout pattern="%m%n"/>
  </RandomAccessFile>
  <MemoryMappedFile name="M" fileName="{dir}/mmf.log"><PatternLayout pattern="%m%n"/></MemoryMappedFile>
  <File name="FI" fileName="{dir}/file-immediate.log"><PatternLayout pattern="%m%n"/></File>
  <RandomAccessFile name="RI" fileName="{dir}/raf-immediate.log"><PatternLayout pattern="%m%n"/></RandomAccessFile>
  {appender}
</Appenders><Loggers>
  {loggers}
  <Root level="off"/>
</Loggers></Configuration>"#,
        gate = gate.path().display(),
        dir = dir.display()
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).expect("configuration loads");
    let writes_before = l4rs_tests::thread_write_calls(thread);

    // The plug goes out alone and fills the pipe: the queue's thread stalls in its write.
    l4rs::debug!(l4rs::get_logger("plug"), "{}", "p".repeat(PLUG));
    let batch = l4rs::get_logger("batch");
    for index in 0..EVENTS {
        l4rs::info!(batch, "{}", line(index));
    }
    // Every batch event is queued behind the plug, so none of them but the last ends a batch.
    // Let the plug through: the thread writes batch events until the pipe is full again.
    gate.pass(PLUG + 1);
    let stats = || l4rs_tests::queue_stats(queue);
    let deadline = Instant::now() + Duration::from_secs(30);
    while stats().enqueued - (stats().len as u64) < 2 {
        assert!(Instant::now() < deadline, "{front}: the thread never moved");
        std::thread::sleep(Duration::from_millis(2));
    }
    // At least one batch event went to every appender, and the thread is stuck mid-batch
    // (the pipe holds 64 KiB, the batch is 400 KiB): nothing was flushed per event.
    assert!(stats().len > 0, "{front}: the thread is held mid-batch");
    for file in ["file.log", "raf.log"] {
        let length = std::fs::metadata(dir.join(file)).unwrap().len();
        assert_eq!(
            length, 0,
            "{front}: {file} was flushed before the batch ended"
        );
    }

    // Open the pipe; the queue runs dry and its last event flushes the buffers. No flush call.
    gate.open();
    let expected: Vec<String> = (0..EVENTS).map(line).collect();
    for file in [
        "file.log",
        "raf.log",
        "mmf.log",
        "file-immediate.log",
        "raf-immediate.log",
    ] {
        let path = dir.join(file);
        while non_nul_lines(&path).len() < EVENTS {
            assert!(
                Instant::now() < deadline,
                "{front}: {file} has {} of {EVENTS} lines after the queue ran dry",
                non_nul_lines(&path).len()
            );
            std::thread::sleep(Duration::from_millis(2));
        }
        assert!(
            non_nul_lines(&path) == expected,
            "{front}: {file}: wrong lines"
        );
    }
    assert_eq!(stats().len, 0);
    let writes = l4rs_tests::thread_write_calls(thread) - writes_before;
    assert!(
        writes < EVENTS as u64,
        "{front}: {writes} write calls for {EVENTS} events: not batched"
    );
    l4rs::shutdown();
    let through_gate = gate.finish();
    assert_eq!(
        through_gate.lines().count(),
        EVENTS + 1,
        "{front}: the pipe got them all"
    );
}

#[test]
fn buffered_appenders_flush_when_the_queue_runs_dry_and_not_before() {
    check("logger");
    check("appender");
}
