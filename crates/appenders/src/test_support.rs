//! Helpers the unit tests of several of this crate's modules share: events, specs with
//! log4j2's defaults, write-call counts, and one test body per behaviour that the File,
//! RandomAccessFile and MemoryMappedFile tests each run for their own appender.

use std::sync::Arc;

use l4rs_config::model::{AppenderKind, FileSpec, MemoryMappedFileSpec, RandomAccessFileSpec};
use l4rs_core::{AppendError, Appender, Level, LogEvent, Message};

pub(crate) use l4rs_test_support::{LineLayout, TempDir};

use crate::{AppenderBuildError, FileAppender, MemoryMappedFileAppender, RandomAccessFileAppender};

/// The `write`-family system calls the calling thread has made so far (`syscw` in
/// `/proc/thread-self/io`). Reading the file takes `openat`, `read` and `close` only, so the
/// count is not disturbed by taking it.
pub(crate) fn thread_write_calls() -> u64 {
    let io = std::fs::read_to_string("/proc/thread-self/io").expect("/proc/thread-self/io");
    io.lines()
        .find_map(|line| line.strip_prefix("syscw: "))
        .and_then(|count| count.trim().parse().ok())
        .unwrap_or_else(|| panic!("no syscw in {io:?}"))
}

/// The `write`-family system calls the calling thread makes while running `f`. Tests using it
/// are single-threaded and write nothing else (no status output) meanwhile.
pub(crate) fn write_calls_during(f: impl FnOnce()) -> u64 {
    let before = thread_write_calls();
    f();
    thread_write_calls() - before
}

/// Runs `f` on a new thread marked as an asynchronous stage's writer
/// ([`l4rs_core::batch::begin_deferring`]), as a queue's background thread is.
pub(crate) fn on_deferring_thread<R: Send>(f: impl FnOnce() -> R + Send) -> R {
    std::thread::scope(|scope| {
        scope
            .spawn(|| {
                l4rs_core::batch::begin_deferring();
                f()
            })
            .join()
            .unwrap()
    })
}

pub(crate) fn event(text: &'static str) -> LogEvent<'static> {
    LogEvent::new("test", Level::INFO, Message::Text(text))
}

/// The appender l4rs-config binds for `<{element} name="A" fileName="{file_name}"/>`: one
/// with log4j2's defaults (crates/config/tests/appender_defaults.rs checks each by value).
fn bound_with_defaults(element: &str, file_name: &str) -> AppenderKind {
    let xml = format!(
        r#"<Configuration><Appenders><{element} name="A" fileName="{file_name}"/></Appenders><Loggers><Root level="info"/></Loggers></Configuration>"#
    );
    let config = l4rs_config::load_str(&xml, None).unwrap();
    assert!(config.diagnostics.is_empty(), "{:#?}", config.diagnostics);
    let spec = config.appenders.into_iter().next().map(|spec| spec.kind);
    spec.unwrap_or_else(|| panic!("no appender in {xml}"))
}

/// A `<File>` with log4j2's defaults, as l4rs-config binds `<File fileName="…"/>`.
pub(crate) fn file_spec(file_name: &str) -> FileSpec {
    match bound_with_defaults("File", file_name) {
        AppenderKind::File(spec) => spec,
        other => panic!("not a File: {other:?}"),
    }
}

/// A `<RandomAccessFile>` with log4j2's defaults, as l4rs-config binds it.
pub(crate) fn random_access_file_spec(file_name: &str) -> RandomAccessFileSpec {
    match bound_with_defaults("RandomAccessFile", file_name) {
        AppenderKind::RandomAccessFile(spec) => spec,
        other => panic!("not a RandomAccessFile: {other:?}"),
    }
}

/// A `<MemoryMappedFile>` with log4j2's defaults, as l4rs-config binds it.
pub(crate) fn memory_mapped_file_spec(file_name: &str) -> MemoryMappedFileSpec {
    match bound_with_defaults("MemoryMappedFile", file_name) {
        AppenderKind::MemoryMappedFile(spec) => spec,
        other => panic!("not a MemoryMappedFile: {other:?}"),
    }
}

/// The text of the file `path`, which must exist.
pub(crate) fn read(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Checks that `contents` is lines `T<thread> <sequence>[ <rest>]` holding, for each of
/// `threads` threads, the sequences `0..per_thread` once each and in order, and that `rest`
/// accepts each line's thread, sequence and rest: no line lost, doubled, reordered or torn.
pub(crate) fn check_thread_lines(
    contents: &str,
    threads: usize,
    per_thread: usize,
    rest: impl Fn(usize, usize, Option<&str>) -> bool,
) {
    let mut next = vec![0usize; threads];
    for line in contents.lines() {
        let mut fields = line.splitn(3, ' ');
        let thread: usize = fields
            .next()
            .and_then(|t| t.strip_prefix('T'))
            .and_then(|t| t.parse().ok())
            .filter(|&t| t < threads)
            .unwrap_or_else(|| panic!("torn line {line:?}"));
        let sequence: usize = fields
            .next()
            .and_then(|s| s.parse().ok())
            .unwrap_or_else(|| panic!("torn line {line:?}"));
        assert!(rest(thread, sequence, fields.next()), "torn line {line:?}");
        assert_eq!(sequence, next[thread], "thread {thread} out of order");
        next[thread] += 1;
    }
    assert_eq!(next, vec![per_thread; threads]);
}

/// What [`append_from_threads`] writes after `T<thread> <sequence> ` on each line.
pub(crate) const THREAD_PAYLOAD: &str =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-0123456789";

/// Appends `T<thread> <sequence> <THREAD_PAYLOAD>` for the sequences `0..per_thread` from
/// each of `threads` threads at once.
pub(crate) fn append_from_threads(appender: &dyn Appender, threads: usize, per_thread: usize) {
    std::thread::scope(|scope| {
        for thread in 0..threads {
            scope.spawn(move || {
                for sequence in 0..per_thread {
                    let args = format_args!("T{thread} {sequence:06} {THREAD_PAYLOAD}");
                    let event = LogEvent::new("mt", Level::INFO, Message::Args(args));
                    appender.append(&event).unwrap();
                }
            });
        }
    });
}

/// Checks that `contents` holds every line [`append_from_threads`] wrote exactly once, none
/// torn, each thread's lines in order.
pub(crate) fn check_lines_from_threads(contents: &str, threads: usize, per_thread: usize) {
    check_thread_lines(contents, threads, per_thread, |_, _, rest| {
        rest == Some(THREAD_PAYLOAD)
    });
}

/// A File, RandomAccessFile or MemoryMappedFile appender, for the test bodies their modules
/// share.
pub(crate) trait FileBackedAppender: Appender + Sized {
    /// The appender on `path` with log4j2's defaults and `layout`, named as its module's
    /// tests name it.
    fn open(path: &str, layout: LineLayout) -> Result<Self, AppenderBuildError>;

    /// Whether each event is flushed to the file before its append returns.
    fn is_immediate_flush(&self) -> bool;
}

impl FileBackedAppender for FileAppender {
    fn open(path: &str, layout: LineLayout) -> Result<Self, AppenderBuildError> {
        FileAppender::new("F", &file_spec(path), Arc::new(layout))
    }

    fn is_immediate_flush(&self) -> bool {
        FileAppender::is_immediate_flush(self)
    }
}

impl FileBackedAppender for RandomAccessFileAppender {
    fn open(path: &str, layout: LineLayout) -> Result<Self, AppenderBuildError> {
        RandomAccessFileAppender::new("R", &random_access_file_spec(path), Arc::new(layout))
    }

    fn is_immediate_flush(&self) -> bool {
        RandomAccessFileAppender::is_immediate_flush(self)
    }
}

impl FileBackedAppender for MemoryMappedFileAppender {
    fn open(path: &str, layout: LineLayout) -> Result<Self, AppenderBuildError> {
        MemoryMappedFileAppender::new("M", &memory_mapped_file_spec(path), Arc::new(layout))
    }

    fn is_immediate_flush(&self) -> bool {
        MemoryMappedFileAppender::is_immediate_flush(self)
    }
}

/// Checks that `a`, writing to `path`, flushes each event before its append returns, then
/// stops it; `context` names the configuration in failure messages.
pub(crate) fn check_visible_at_once(a: &impl FileBackedAppender, path: &str, context: &str) {
    assert!(a.is_immediate_flush(), "{context}");
    a.append(&event("visible at once")).unwrap();
    assert_eq!(read(path), "visible at once\n", "{context}");
    a.stop();
}

/// Checks that `a`, writing to `path` with immediate flush, makes one `write(2)` per event,
/// then stops it; `context` names the configuration in failure messages.
pub(crate) fn check_one_write_per_event(a: &dyn Appender, path: &str, context: &str) {
    // The first write is done outside the count, so nothing the first use sets up is counted.
    a.append(&event("warm-up")).unwrap();
    let writes = write_calls_during(|| {
        for _ in 0..100 {
            a.append(&event("one event, one write")).unwrap();
        }
    });
    assert_eq!(writes, 100, "{context}");
    a.stop();
    assert_eq!(read(path).lines().count(), 101, "{context}");
}

/// Appends two body lines to `a` (built with the name `name`), stops it twice, and checks
/// that the file at `path` then holds `expected` and that later appends fail with log4j2's
/// message naming it.
pub(crate) fn check_footer_on_stop_and_later_appends_fail(
    a: &dyn Appender,
    name: &str,
    path: &str,
    expected: &str,
) {
    a.append(&event("body line 1")).unwrap();
    a.append(&event("body line 2")).unwrap();
    a.stop();
    a.stop();
    assert_eq!(read(path), expected);
    assert!(matches!(a.append(&event("late")), Err(AppendError::NotStarted(n)) if n == name));
    assert_eq!(
        a.append(&event("late")).unwrap_err().to_string(),
        format!("Attempted to append to non-started appender {name}")
    );
}

/// Checks that `a`, writing to `path` through a 32-byte buffer without immediate flush,
/// holds events back until `flush()`, a full buffer or the end of a batch; `head` is what
/// the file holds before the first event (the header, where one is written).
pub(crate) fn check_buffered_events_wait_for_flush_a_full_buffer_or_end_of_batch(
    a: &impl FileBackedAppender,
    path: &str,
    head: &str,
) {
    assert!(!a.is_immediate_flush());
    assert_eq!(read(path), head, "the header bypasses the buffer");
    a.append(&event("one")).unwrap();
    a.append(&event("two")).unwrap();
    assert_eq!(read(path), head);
    a.flush().unwrap();
    assert_eq!(read(path), format!("{head}one\ntwo\n"));
    // 3 × 12 bytes overflow the 32-byte buffer: the first two are written when the third
    // does not fit.
    for _ in 0..3 {
        a.append(&event("twelve bytes")).unwrap();
    }
    assert_eq!(
        read(path),
        format!("{head}one\ntwo\ntwelve bytes\ntwelve bytes\n")
    );
    let mut last = event("end of batch");
    last.end_of_batch = true;
    a.append(&last).unwrap();
    assert_eq!(
        read(path),
        format!("{head}one\ntwo\ntwelve bytes\ntwelve bytes\ntwelve bytes\nend of batch\n")
    );
}

/// Checks that opening an `A` fails on a directory, under a plain file and where the parent
/// directories cannot be created, with log4j2's messages naming `manager`.
pub(crate) fn check_unusable_paths_fail_with_log4j2_messages<A: FileBackedAppender>(
    dir: &TempDir,
    manager: &str,
) {
    let fail = |path: &str| {
        A::open(path, LineLayout::default())
            .err()
            .unwrap_or_else(|| panic!("{manager} opened {path}"))
    };

    let directory = dir.file("a-directory");
    std::fs::create_dir(&directory).unwrap();
    let error = fail(&directory);
    assert!(matches!(error, AppenderBuildError::Open { .. }));
    assert_eq!(
        error.to_string(),
        format!(
            "{manager} ({directory}) java.io.FileNotFoundException: {directory} (Is a directory)"
        )
    );

    let plain_file = dir.file("plain");
    std::fs::write(&plain_file, "").unwrap();
    let under_file = format!("{plain_file}/x.log");
    assert_eq!(
        fail(&under_file).to_string(),
        format!("{manager} ({under_file}) java.io.IOException: File {plain_file} exists and is not a directory. Unable to create directory.")
    );

    let impossible = "/proc/l4rs-no-such-dir/sub/x.log";
    let error = fail(impossible);
    assert!(
        error.to_string().starts_with(&format!(
            "{manager} (/proc/l4rs-no-such-dir/sub/x.log) java.io.IOException: Could not create directory /proc/l4rs-no-such-dir/sub ("
        )),
        "{error}"
    );
    assert!(std::error::Error::source(&error).is_some());
}

/// Checks that opening an `A` creates the missing parent directories of its file.
pub(crate) fn check_missing_parent_directories_are_created<A: FileBackedAppender>(dir: &TempDir) {
    let path = dir.file("a/b/c/deep.log");
    let a = A::open(&path, LineLayout::default()).unwrap();
    a.append(&event("deep")).unwrap();
    a.stop();
    assert_eq!(read(&path), "deep\n");
}

/// Checks that a write failure of an `A` (on `/dev/full`) is an I/O error naming the file.
pub(crate) fn check_write_failures_are_io_errors_naming_the_file<A: FileBackedAppender>() {
    let a = A::open("/dev/full", LineLayout::default()).unwrap();
    match a.append(&event("no space")) {
        Err(AppendError::Io {
            destination,
            source,
        }) => {
            assert_eq!(destination, "/dev/full");
            assert_eq!(source.raw_os_error(), Some(libc::ENOSPC));
        }
        other => panic!("{other:?}"),
    }
    a.stop();
}
