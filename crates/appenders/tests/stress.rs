//! 64 threads × 100,000 events into each file appender (File, RandomAccessFile with and without
//! immediate flush, MemoryMappedFile with large and with tiny regions): every line is present
//! exactly once, none is torn, and each thread's lines are in order.
//!
//! The files go to `/dev/shm` when it exists (tmpfs: the test measures the appenders, not the
//! disk) and are deleted afterwards.

mod rolling_support;

use std::path::Path;
use std::sync::Arc;

use l4rs_appenders::{FileAppender, MemoryMappedFileAppender, RandomAccessFileAppender};
use l4rs_config::model::{AppenderKind, MemoryMappedFileSpec, RandomAccessFileSpec};
use l4rs_core::{Appender, Level, LogEvent, Message};
use rolling_support::{kind, TempDir, LINES};

const THREADS: usize = 64;
const EVENTS: usize = 100_000;

/// A fresh directory in `/dev/shm` when it exists (else the temporary directory), removed on
/// drop.
fn scratch(label: &str) -> TempDir {
    let shm = Path::new("/dev/shm");
    let root = if shm.is_dir() {
        shm.to_path_buf()
    } else {
        std::env::temp_dir()
    };
    TempDir::new_in(&root, &format!("stress-{label}"))
}

/// Every thread logs `<thread> <sequence> <filler>` where the filler's length varies with the
/// sequence, so records cross region boundaries at every possible offset.
fn hammer(appender: &dyn Appender, threads: usize, events: usize) {
    std::thread::scope(|scope| {
        for thread in 0..threads {
            scope.spawn(move || {
                for sequence in 0..events {
                    let filler = &FILLER[..sequence % 23];
                    let args = format_args!("{thread} {sequence} {filler}");
                    appender
                        .append(&LogEvent::new("stress", Level::INFO, Message::Args(args)))
                        .unwrap();
                }
            });
        }
    });
    appender.stop();
}

const FILLER: &str = "abcdefghijklmnopqrstuvwxyz";

/// Parses the file: each line whole, each thread's sequence numbers 0..events in order.
fn check(path: &str, threads: usize, events: usize) {
    let contents = std::fs::read(path).unwrap();
    let mut next = vec![0usize; threads];
    let mut lines = 0usize;
    for line in contents.split(|&b| b == b'\n') {
        if line.is_empty() {
            continue;
        }
        lines += 1;
        let mut fields = line.splitn(3, |&b| b == b' ');
        let (Some(thread), Some(sequence), Some(filler)) =
            (fields.next(), fields.next(), fields.next())
        else {
            panic!("torn line {:?}", String::from_utf8_lossy(line));
        };
        let thread = number(thread, line);
        let sequence = number(sequence, line);
        assert!(
            thread < threads,
            "torn line {:?}",
            String::from_utf8_lossy(line)
        );
        assert_eq!(
            filler,
            &FILLER.as_bytes()[..sequence % 23],
            "torn line {:?}",
            String::from_utf8_lossy(line)
        );
        assert_eq!(
            sequence, next[thread],
            "thread {thread} out of order or duplicated"
        );
        next[thread] += 1;
    }
    assert_eq!(lines, threads * events);
    assert!(next.iter().all(|&n| n == events));
    assert_eq!(contents.last(), Some(&b'\n'));
}

fn number(field: &[u8], line: &[u8]) -> usize {
    std::str::from_utf8(field)
        .ok()
        .and_then(|text| text.parse().ok())
        .unwrap_or_else(|| panic!("torn line {:?}", String::from_utf8_lossy(line)))
}

#[test]
fn file_64_threads() {
    let dir = scratch("file");
    let path = dir.file("stress.log");
    // log4j2's defaults, as the configuration binds them.
    let AppenderKind::File(spec) = kind(&format!(r#"<File name="File" fileName="{path}"/>"#))
    else {
        panic!("not a File");
    };
    let appender = FileAppender::new("File", &spec, Arc::new(LINES)).unwrap();
    hammer(&appender, THREADS, EVENTS);
    check(&path, THREADS, EVENTS);
}

fn random_access_file(immediate_flush: bool) {
    let dir = scratch("raf");
    let path = dir.file("stress.log");
    let spec = RandomAccessFileSpec {
        file_name: path.clone(),
        append: true,
        immediate_flush,
        buffer_size: 262_144,
    };
    let appender = RandomAccessFileAppender::new("Raf", &spec, Arc::new(LINES)).unwrap();
    hammer(&appender, THREADS, EVENTS);
    check(&path, THREADS, EVENTS);
}

#[test]
fn random_access_file_64_threads_immediate_flush() {
    random_access_file(true);
}

#[test]
fn random_access_file_64_threads_buffered() {
    random_access_file(false);
}

fn memory_mapped_file(region_length: i64, threads: usize, events: usize) {
    let dir = scratch("mmf");
    let path = dir.file("stress.log");
    let spec = MemoryMappedFileSpec {
        file_name: path.clone(),
        append: true,
        immediate_flush: false,
        region_length,
    };
    let appender = MemoryMappedFileAppender::new("Mmf", &spec, Arc::new(LINES)).unwrap();
    hammer(&appender, threads, events);
    check(&path, threads, events);
}

/// 1 MiB regions: about a hundred remaps under full contention.
#[test]
fn memory_mapped_file_64_threads() {
    memory_mapped_file(1 << 20, THREADS, EVENTS);
}

/// 256-byte regions: a boundary every dozen records, slots reused while slow writers copy.
#[test]
fn memory_mapped_file_64_threads_tiny_regions() {
    memory_mapped_file(256, THREADS, 5_000);
}
