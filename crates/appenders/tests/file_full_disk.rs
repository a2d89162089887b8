//! Concurrent immediate-flush File and RandomAccessFile appenders on a filesystem that runs out
//! of space (a 1 MiB tmpfs mounted for the test). Any write path that shares a `write(2)`
//! between callers (the flat-combining experiment of docs/appenders.md did) must still hand a
//! failure to exactly the callers whose bytes it lost, so this checks it for the path in use:
//! every call that returned `Ok` has its line in the file, whole
//! and in its thread's order, every call that failed got ENOSPC and has no line, and at most one
//! record's first bytes (the short write that filled the filesystem) end the file.
//!
//! Mounting needs root (or CAP_SYS_ADMIN); without it the test says so and passes, unless
//! `L4RS_REQUIRE_TMPFS=1` is set (as CI does), which turns the skip into a failure.

mod rolling_support;

use std::sync::Arc;

use l4rs_appenders::{FileAppender, RandomAccessFileAppender};
use l4rs_config::model::{AppenderKind, RandomAccessFileSpec};
use l4rs_core::Appender;
use l4rs_test_support::tmpfs::SmallFilesystem;
use rolling_support::{kind, try_log, LINES};

const THREADS: usize = 4;
/// Failures each thread must see before it stops (bounded by `MAX_EVENTS` calls).
const FAILURES: usize = 50;
const MAX_EVENTS: usize = 100_000;

/// The record of `thread`'s call `sequence`: a few hundred bytes, its length varying so records
/// straddle the point where the filesystem fills at different offsets.
fn record(thread: usize, sequence: usize) -> String {
    let filler = "abcdefghijklmnopqrstuvwxyz".repeat(1 + sequence % 13);
    format!("{thread} {sequence} {filler}")
}

/// Logs from `THREADS` threads until each saw `FAILURES` failures; returns, per thread, the
/// sequence numbers whose calls succeeded, in call order, and those that failed.
fn fill(appender: &dyn Appender) -> Vec<(Vec<usize>, Vec<usize>)> {
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..THREADS)
            .map(|thread| {
                scope.spawn(move || {
                    let (mut written, mut failed) = (Vec::new(), Vec::new());
                    for sequence in 0..MAX_EVENTS {
                        if try_log(appender, &record(thread, sequence), libc::ENOSPC) {
                            written.push(sequence);
                        } else {
                            failed.push(sequence);
                            if failed.len() == FAILURES {
                                break;
                            }
                        }
                    }
                    (written, failed)
                })
            })
            .collect();
        workers.into_iter().map(|w| w.join().unwrap()).collect()
    })
}

/// The file holds exactly the calls that succeeded, each line whole and each thread's in order,
/// then at most the start of one failed record.
fn check(contents: &[u8], outcomes: &[(Vec<usize>, Vec<usize>)]) {
    let text = String::from_utf8_lossy(contents);
    let (complete, fragment) = match text.rfind('\n') {
        Some(end) => (&text[..end + 1], &text[end + 1..]),
        None => ("", &text[..]),
    };
    let mut seen: Vec<Vec<usize>> = vec![Vec::new(); THREADS];
    for line in complete.lines() {
        let mut fields = line.splitn(3, ' ');
        let thread: usize = fields.next().unwrap().parse().expect(line);
        let sequence: usize = fields.next().unwrap().parse().expect(line);
        assert_eq!(line, record(thread, sequence), "torn line");
        seen[thread].push(sequence);
    }
    for (thread, (written, failed)) in outcomes.iter().enumerate() {
        assert_eq!(
            failed.len(),
            FAILURES,
            "thread {thread} never filled the disk"
        );
        assert_eq!(
            &seen[thread], written,
            "thread {thread}: the file must hold exactly its successful calls, in order"
        );
    }
    if !fragment.is_empty() {
        assert!(
            outcomes
                .iter()
                .enumerate()
                .any(|(thread, (_, failed))| failed
                    .iter()
                    .any(|&sequence| record(thread, sequence).starts_with(fragment))),
            "the file ends in {fragment:?}, which starts no failed record"
        );
    }
}

/// A 1 MiB tmpfs (named after `label`) with 256 KiB left free, and the path of `app.log` on
/// it; `None` where no tmpfs can be mounted.
fn nearly_full(label: &str) -> Option<(SmallFilesystem, String)> {
    let filesystem = SmallFilesystem::mount(label, "size=1048576")?;
    filesystem.fill((1 << 20) - 256 * 1024);
    let path = filesystem.file("app.log");
    Some((filesystem, path))
}

#[test]
fn concurrent_file_writers_get_exactly_their_own_errors() {
    let Some((_filesystem, path)) = nearly_full("file-full") else {
        return;
    };
    let AppenderKind::File(spec) = kind(&format!(r#"<File name="File" fileName="{path}"/>"#))
    else {
        panic!("not a File");
    };
    let appender = FileAppender::new("File", &spec, Arc::new(LINES)).unwrap();
    let outcomes = fill(&appender);
    appender.stop();
    check(&std::fs::read(&path).unwrap(), &outcomes);
}

#[test]
fn concurrent_random_access_file_writers_get_exactly_their_own_errors() {
    let Some((_filesystem, path)) = nearly_full("raf-full") else {
        return;
    };
    let spec = RandomAccessFileSpec {
        file_name: path.clone(),
        append: true,
        immediate_flush: true,
        buffer_size: 262_144,
    };
    let appender = RandomAccessFileAppender::new("Raf", &spec, Arc::new(LINES)).unwrap();
    let outcomes = fill(&appender);
    appender.stop();
    check(&std::fs::read(&path).unwrap(), &outcomes);
}
