//! Tests of the File appender and its manager.

use std::fs;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::io::AsRawFd as _;
use std::sync::Arc;
use std::time::{Duration, Instant};

use l4rs_config::model::{AppenderKind, AppenderSpec, FileSpec, MemoryMappedFileSpec};
use l4rs_core::{status, AppendError, Appender, Level, LogEvent, Message};

use crate::test_support::{
    append_from_threads, check_buffered_events_wait_for_flush_a_full_buffer_or_end_of_batch,
    check_footer_on_stop_and_later_appends_fail, check_lines_from_threads,
    check_missing_parent_directories_are_created, check_one_write_per_event,
    check_unusable_paths_fail_with_log4j2_messages, check_visible_at_once,
    check_write_failures_are_io_errors_naming_the_file, event, file_spec as spec,
    on_deferring_thread, random_access_file_spec, read, write_calls_during, LineLayout, TempDir,
    THREAD_PAYLOAD,
};
use crate::{build_appender, AppenderBuildError, FileAppender};

fn appender(spec: &FileSpec, layout: LineLayout) -> FileAppender {
    FileAppender::new("F", spec, Arc::new(layout)).unwrap()
}

#[test]
fn append_true_keeps_old_bytes_and_writes_no_header_on_existing_files() {
    let dir = TempDir::new("append-true");
    let existing = dir.file("file.log");
    fs::write(&existing, "old file line\n").unwrap();
    let fresh = dir.file("new.log");
    let layout = || LineLayout::with_header_footer("HEADER\n", "").prefixed("file ");
    let old = appender(&spec(&existing), layout());
    let new = appender(&spec(&fresh), layout());
    for a in [&old, &new] {
        a.append(&event("INFO appended 1")).unwrap();
        a.append(&event("WARN appended 2")).unwrap();
        a.stop();
    }
    assert_eq!(
        read(&existing),
        "old file line\nfile INFO appended 1\nfile WARN appended 2\n"
    );
    assert_eq!(
        read(&fresh),
        "HEADER\nfile INFO appended 1\nfile WARN appended 2\n"
    );
}

#[test]
fn append_false_truncates_when_built_and_writes_the_header_again() {
    let dir = TempDir::new("append-false");
    let path = dir.file("file.log");
    fs::write(&path, "old file line\n").unwrap();
    let mut s = spec(&path);
    s.append = false;
    let a = appender(
        &s,
        LineLayout::with_header_footer("HEADER (only for a new file)\n", ""),
    );
    assert_eq!(
        read(&path),
        "HEADER (only for a new file)\n",
        "truncated at build time"
    );
    a.append(&event("file INFO appended 1")).unwrap();
    a.stop();
    assert_eq!(
        read(&path),
        "HEADER (only for a new file)\nfile INFO appended 1\n"
    );
}

#[test]
fn footer_on_stop_stop_is_idempotent_and_later_appends_fail() {
    let dir = TempDir::new("footer");
    let path = dir.file("file.log");
    let a = appender(
        &spec(&path),
        LineLayout::with_header_footer("# file header\n", "# file footer\n"),
    );
    check_footer_on_stop_and_later_appends_fail(
        &a,
        "F",
        &path,
        "# file header\nbody line 1\nbody line 2\n# file footer\n",
    );
}

#[test]
fn immediate_flush_reaches_the_file_before_append_returns() {
    let dir = TempDir::new("immediate");
    for (buffered_io, immediate_flush) in [(true, true), (false, true), (false, false)] {
        let path = dir.file(&format!("immediate-{buffered_io}-{immediate_flush}.log"));
        let mut s = spec(&path);
        s.buffered_io = buffered_io;
        s.immediate_flush = immediate_flush;
        let a = appender(&s, LineLayout::default());
        check_visible_at_once(&a, &path, &format!("{buffered_io} {immediate_flush}"));
    }
}

/// `immediateFlush="true"` means one `write(2)` per event, with `bufferedIo` on or off.
#[test]
fn immediate_flush_is_one_write_per_event() {
    let dir = TempDir::new("one-write");
    for buffered_io in [true, false] {
        let path = dir.file(&format!("one-write-{buffered_io}.log"));
        let mut s = spec(&path);
        s.buffered_io = buffered_io;
        let a = appender(&s, LineLayout::default());
        check_one_write_per_event(&a, &path, &format!("bufferedIo={buffered_io}"));
    }
}

/// Behind an asynchronous stage, `immediateFlush="true"` flushes once per batch: the events
/// wait in the buffer (no `write(2)`) until the stage's batch ends, then leave in one write.
/// Without a buffer (`bufferedIo="false"`) nothing can wait: one write per event, as before.
#[test]
fn immediate_flush_on_a_stage_thread_is_one_write_per_batch() {
    let dir = TempDir::new("batched");
    for buffered_io in [true, false] {
        let path = dir.file(&format!("batched-{buffered_io}.log"));
        let mut s = spec(&path);
        s.buffered_io = buffered_io;
        let a = appender(&s, LineLayout::default());
        let (writes, visible_before_flush, flush_writes) = on_deferring_thread(|| {
            a.append(&event("warm-up")).unwrap();
            l4rs_core::batch::flush_deferred();
            let writes = write_calls_during(|| {
                for _ in 0..100 {
                    a.append(&event("one batch, one write")).unwrap();
                }
            });
            let visible = read(&path).lines().count();
            let flush_writes = write_calls_during(l4rs_core::batch::flush_deferred);
            (writes, visible, flush_writes)
        });
        if buffered_io {
            assert_eq!((writes, visible_before_flush, flush_writes), (0, 1, 1));
        } else {
            assert_eq!((writes, visible_before_flush, flush_writes), (100, 101, 0));
        }
        assert_eq!(read(&path).lines().count(), 101, "bufferedIo={buffered_io}");
        a.stop();
    }
}

/// An event that ends a batch is flushed at once with what the batch left buffered; the same
/// appender used from an ordinary thread meanwhile still flushes each event, after the
/// deferred bytes (one buffer, so the file keeps the order of the appends).
#[test]
fn end_of_batch_and_ordinary_threads_still_flush_at_once() {
    let dir = TempDir::new("batched-end");
    let path = dir.file("batched-end.log");
    let a = appender(&spec(&path), LineLayout::default());
    on_deferring_thread(|| {
        a.append(&event("deferred 1")).unwrap();
        assert_eq!(read(&path), "");
        // Another thread writing meanwhile: its flush takes the deferred line along, in order.
        std::thread::scope(|scope| {
            scope.spawn(|| a.append(&event("ordinary")).unwrap());
        });
        assert_eq!(read(&path), "deferred 1\nordinary\n");
        a.append(&event("deferred 2")).unwrap();
        let mut last = event("last of batch");
        last.end_of_batch = true;
        a.append(&last).unwrap();
        assert_eq!(
            read(&path),
            "deferred 1\nordinary\ndeferred 2\nlast of batch\n"
        );
        l4rs_core::batch::flush_deferred();
    });
    a.stop();
}

/// A deferred flush that fails has no caller to return to: it is reported through the status
/// logger with the wording of a failed append, naming the file.
#[test]
fn a_failing_deferred_flush_is_reported() {
    let a = appender(&spec("/dev/full"), LineLayout::default());
    let records = on_deferring_thread(|| {
        // The write only buffers, so the append succeeds; the failure comes with the flush.
        a.append(&event("no space")).unwrap();
        status::capture(l4rs_core::batch::flush_deferred).1
    });
    assert!(
        records.iter().any(|r| r.level == Level::ERROR
            && r.message.starts_with("Error writing to stream /dev/full: ")
            && r.message.contains("No space left on device")),
        "{records:?}"
    );
    a.stop();
}

#[test]
fn buffered_events_wait_for_flush_a_full_buffer_end_of_batch_or_stop() {
    let dir = TempDir::new("buffered");
    let path = dir.file("buffered.log");
    let mut s = spec(&path);
    s.immediate_flush = false;
    s.buffer_size = 32;
    let a = appender(&s, LineLayout::with_header_footer("head\n", "foot\n"));
    check_buffered_events_wait_for_flush_a_full_buffer_or_end_of_batch(&a, &path, "head\n");
    a.append(&event("kept until stop")).unwrap();
    a.stop();
    assert!(read(&path).ends_with("end of batch\nkept until stop\nfoot\n"));
}

#[test]
fn a_record_larger_than_the_buffer_goes_straight_through_after_the_buffer() {
    let dir = TempDir::new("large");
    let path = dir.file("large.log");
    let mut s = spec(&path);
    s.immediate_flush = false;
    s.buffer_size = 16;
    let a = appender(&s, LineLayout::default());
    a.append(&event("small")).unwrap();
    a.append(&event("a record much longer than sixteen bytes"))
        .unwrap();
    assert_eq!(
        read(&path),
        "small\na record much longer than sixteen bytes\n"
    );
    a.stop();
}

#[test]
fn create_on_demand_opens_the_file_at_the_first_write() {
    let dir = TempDir::new("on-demand");
    let path = dir.file("nested/lazy.log");
    let mut s = spec(&path);
    s.create_on_demand = true;
    let a = appender(&s, LineLayout::with_header_footer("head\n", ""));
    assert!(
        dir.path().join("nested").is_dir(),
        "parents are made at build time"
    );
    assert!(!std::path::Path::new(&path).exists());
    a.append(&event("first")).unwrap();
    assert_eq!(read(&path), "head\nfirst\n");
    a.stop();

    // Never written and no footer: the file is never created.
    let untouched = dir.file("untouched.log");
    let mut s = spec(&untouched);
    s.create_on_demand = true;
    appender(&s, LineLayout::with_header_footer("head\n", "")).stop();
    assert!(!std::path::Path::new(&untouched).exists());

    // Never written but with a footer: log4j2 creates the file to write the footer.
    let footer_only = dir.file("footer-only.log");
    let mut s = spec(&footer_only);
    s.create_on_demand = true;
    appender(&s, LineLayout::with_header_footer("head\n", "foot\n")).stop();
    assert_eq!(read(&footer_only), "head\nfoot\n");

    // An existing non-empty file gets no header.
    let existing = dir.file("existing.log");
    fs::write(&existing, "old\n").unwrap();
    let mut s = spec(&existing);
    s.create_on_demand = true;
    let a = appender(&s, LineLayout::with_header_footer("head\n", ""));
    a.append(&event("new")).unwrap();
    a.stop();
    assert_eq!(read(&existing), "old\nnew\n");
}

#[test]
fn file_permissions_are_set_exactly_and_invalid_ones_warn() {
    let dir = TempDir::new("permissions");
    let path = dir.file("private.log");
    let mut s = spec(&path);
    s.file_permissions = Some("rw-r-----".into());
    let (a, records) = status::capture(|| appender(&s, LineLayout::default()));
    assert!(records.is_empty(), "{records:?}");
    let mode = fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o640);
    a.stop();

    // Also applied to an existing file.
    let existing = dir.file("existing.log");
    fs::write(&existing, "").unwrap();
    let mut s = spec(&existing);
    s.file_permissions = Some("rwx------".into());
    appender(&s, LineLayout::default()).stop();
    assert_eq!(
        fs::metadata(&existing).unwrap().permissions().mode() & 0o777,
        0o700
    );

    let bad = dir.file("bad.log");
    let mut s = spec(&bad);
    s.file_permissions = Some("rw-r--r".into());
    let (a, records) = status::capture(|| appender(&s, LineLayout::default()));
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].level, Level::WARN);
    assert!(records[0].message.contains("rw-r--r"));
    a.append(&event("still works")).unwrap();
    a.stop();
    assert_eq!(read(&bad), "still works\n");
}

#[test]
fn owner_and_group_are_applied_and_unknown_names_reported() {
    let dir = TempDir::new("owner");
    // SAFETY: plain queries of this process's ids.
    let (uid, gid) = unsafe { (libc::geteuid(), libc::getegid()) };
    let path = dir.file("owned.log");
    let mut s = spec(&path);
    s.file_owner = Some(uid.to_string());
    s.file_group = Some(gid.to_string());
    let (a, records) = status::capture(|| appender(&s, LineLayout::default()));
    assert!(records.is_empty(), "{records:?}");
    a.stop();

    let unknown = dir.file("unknown.log");
    let mut s = spec(&unknown);
    s.file_owner = Some("no-such-user-l4rs".into());
    s.file_group = Some("no-such-group-l4rs".into());
    let (a, records) = status::capture(|| appender(&s, LineLayout::default()));
    assert_eq!(records.len(), 2, "{records:?}");
    assert!(records[0].message.starts_with(&format!(
        "Could not define attribute view on path \"{unknown}\" got "
    )));
    assert!(records[0].message.contains("no-such-user-l4rs"));
    a.append(&event("still works")).unwrap();
    a.stop();
    assert_eq!(read(&unknown), "still works\n");
}

#[test]
fn missing_parent_directories_are_created() {
    check_missing_parent_directories_are_created::<FileAppender>(&TempDir::new("parents"));
}

#[test]
fn unusable_paths_fail_with_log4j2_messages() {
    let dir = TempDir::new("unusable");
    check_unusable_paths_fail_with_log4j2_messages::<FileAppender>(&dir, "FileManager");
}

#[test]
fn write_failures_are_io_errors_naming_the_file() {
    check_write_failures_are_io_errors_naming_the_file::<FileAppender>();
}

#[test]
fn appenders_on_one_file_share_its_manager_header_and_footer() {
    let dir = TempDir::new("shared");
    let path = dir.file("shared.log");
    let first = appender(
        &spec(&path),
        LineLayout::with_header_footer("A-head\n", "A-foot\n"),
    );
    let mut second_spec = spec(&path);
    second_spec.append = false; // ignored: the manager exists already
    let second = appender(
        &second_spec,
        LineLayout::with_header_footer("B-head\n", "B-foot\n").prefixed("b: "),
    );
    first.append(&event("one")).unwrap();
    second.append(&event("two")).unwrap();
    first.stop();
    second.append(&event("three")).unwrap();
    assert_eq!(read(&path), "A-head\none\nb: two\nb: three\n");
    second.stop();
    assert_eq!(read(&path), "A-head\none\nb: two\nb: three\nA-foot\n");
}

#[test]
fn dropping_an_appender_releases_its_share() {
    let dir = TempDir::new("drop");
    let path = dir.file("dropped.log");
    let mut s = spec(&path);
    s.immediate_flush = false;
    let a = appender(&s, LineLayout::with_header_footer("", "foot\n"));
    a.append(&event("buffered")).unwrap();
    drop(a);
    assert_eq!(read(&path), "buffered\nfoot\n");
}

/// The loader reports the unused bufferSize (crates/config); the appender only says why it
/// turned buffering off, once.
#[test]
fn locking_turns_buffering_off_with_log4j2_warning() {
    let dir = TempDir::new("locking-warn");
    let path = dir.file("locked.log");
    let mut s = spec(&path);
    s.locking = true;
    s.immediate_flush = false;
    let (a, records) = status::capture(|| appender(&s, LineLayout::default()));
    let messages: Vec<&str> = records.iter().map(|r| r.message.as_str()).collect();
    let expected =
        format!("Locking and buffering are mutually exclusive. No buffering will occur for {path}");
    assert_eq!(messages, [expected.as_str()]);
    assert!(a.is_immediate_flush());
    a.append(&event("locked write")).unwrap();
    assert_eq!(read(&path), "locked write\n");
    a.stop();
}

/// Another process holds a POSIX lock on the file: a locking appender waits for it.
#[test]
fn locking_waits_for_another_process_holding_the_lock() {
    let dir = TempDir::new("locking-wait");
    let path = dir.file("contended.log");
    let mut s = spec(&path);
    s.locking = true;
    s.buffered_io = false;
    let a = appender(&s, LineLayout::default());
    let holder = fs::OpenOptions::new().append(true).open(&path).unwrap();
    let holder_fd = holder.as_raw_fd();
    let mut pipe = [0; 2];
    // SAFETY: `pipe` has room for two descriptors.
    assert_eq!(unsafe { libc::pipe(pipe.as_mut_ptr()) }, 0);
    // SAFETY: the child only makes async-signal-safe calls (fcntl, write, nanosleep, _exit) on
    // memory prepared before the fork, so forking this multi-threaded test process is sound.
    let pid = unsafe { libc::fork() };
    assert!(pid >= 0);
    if pid == 0 {
        // SAFETY: see above.
        unsafe {
            let mut request: libc::flock = std::mem::zeroed();
            request.l_type = libc::F_WRLCK as libc::c_short;
            request.l_whence = libc::SEEK_SET as libc::c_short;
            libc::fcntl(holder_fd, libc::F_SETLKW, &request);
            libc::write(pipe[1], b"L".as_ptr().cast(), 1);
            let pause = libc::timespec {
                tv_sec: 0,
                tv_nsec: 400_000_000,
            };
            libc::nanosleep(&pause, std::ptr::null_mut());
            libc::_exit(0);
        }
    }
    let mut signal = [0u8; 1];
    // SAFETY: reading one byte into a live buffer; this returns once the child holds the lock.
    assert_eq!(
        unsafe { libc::read(pipe[0], signal.as_mut_ptr().cast(), 1) },
        1
    );
    let started = Instant::now();
    a.append(&event("after the other process")).unwrap();
    let waited = started.elapsed();
    let mut child_status = 0;
    // SAFETY: waiting for the child forked above; closing descriptors opened above.
    unsafe {
        libc::waitpid(pid, &mut child_status, 0);
        libc::close(pipe[0]);
        libc::close(pipe[1]);
    }
    assert!(
        waited >= Duration::from_millis(250),
        "waited only {waited:?}"
    );
    assert_eq!(read(&path), "after the other process\n");
    a.stop();
}

#[test]
fn requires_location_forwards_the_layout() {
    let dir = TempDir::new("location");
    let plain = appender(&spec(&dir.file("p.log")), LineLayout::default());
    assert!(!plain.requires_location());
    let located = appender(
        &spec(&dir.file("l.log")),
        LineLayout::default().with_location(),
    );
    assert!(located.requires_location());
    plain.stop();
    located.stop();
}

#[test]
fn build_appender_dispatches_every_file_kind() {
    let dir = TempDir::new("build");
    let base = |kind| AppenderSpec {
        name: "Built".into(),
        ignore_exceptions: true,
        layout: None,
        filter: None,
        kind,
        position: None,
    };
    let layout = || Arc::new(LineLayout::default()) as Arc<dyn l4rs_core::Layout>;
    let kinds = [
        AppenderKind::File(spec(&dir.file("built.log"))),
        AppenderKind::RandomAccessFile(random_access_file_spec(&dir.file("raf.log"))),
        AppenderKind::MemoryMappedFile(MemoryMappedFileSpec {
            file_name: dir.file("mmf.log"),
            append: true,
            immediate_flush: false,
            region_length: 1 << 25,
        }),
    ];
    for (kind, file) in kinds.into_iter().zip(["built.log", "raf.log", "mmf.log"]) {
        let built = build_appender(&base(kind), layout()).unwrap();
        assert_eq!(built.name(), "Built");
        built.append(&event("via build_appender")).unwrap();
        built.stop();
        assert_eq!(read(&dir.file(file)), "via build_appender\n", "{file}");
    }
    let missing_parent = AppenderKind::MemoryMappedFile(MemoryMappedFileSpec {
        file_name: "/proc/l4rs-none/x.log".into(),
        append: true,
        immediate_flush: false,
        region_length: 256,
    });
    assert!(matches!(
        build_appender(&base(missing_parent), layout()),
        Err(AppenderBuildError::CreateDirectory {
            manager: "MemoryMappedFileManager",
            ..
        })
    ));
}

const THREADS: usize = 8;
const EVENTS_PER_THREAD: usize = 20_000;

/// Appends from many threads at once to `a`, stops it and checks every line of `path`.
fn check_many_threads(a: &FileAppender, path: &str) {
    append_from_threads(a, THREADS, EVENTS_PER_THREAD);
    a.stop();
    check_lines_from_threads(&read(path), THREADS, EVENTS_PER_THREAD);
}

#[test]
fn many_threads_unbuffered_lines_are_whole_and_ordered() {
    let dir = TempDir::new("mt-immediate");
    let path = dir.file("mt.log");
    let a = appender(&spec(&path), LineLayout::default());
    check_many_threads(&a, &path);
}

#[test]
fn many_threads_buffered_lines_are_whole_and_ordered() {
    let dir = TempDir::new("mt-buffered");
    let path = dir.file("mt.log");
    let mut s = spec(&path);
    s.immediate_flush = false;
    let a = appender(&s, LineLayout::default());
    check_many_threads(&a, &path);
}

#[test]
fn many_threads_locking_lines_are_whole_and_ordered() {
    let dir = TempDir::new("mt-locking");
    let path = dir.file("mt.log");
    let mut s = spec(&path);
    s.locking = true;
    s.buffered_io = false;
    let a = status::capture(|| appender(&s, LineLayout::default())).0;
    check_many_threads(&a, &path);
}

/// Stopping while other threads append: the footer is the last line, nothing is torn, and
/// the writers see "not started" afterwards.
#[test]
fn stop_while_appending_leaves_the_footer_last() {
    for immediate_flush in [true, false] {
        let dir = TempDir::new("stop-race");
        let path = dir.file("race.log");
        let mut s = spec(&path);
        s.immediate_flush = immediate_flush;
        let a = appender(&s, LineLayout::with_header_footer("", "FOOTER\n"));
        std::thread::scope(|scope| {
            for thread in 0..4 {
                let a = &a;
                scope.spawn(move || {
                    let mut sequence = 0usize;
                    loop {
                        let args = format_args!("T{thread} {sequence:06} {THREAD_PAYLOAD}");
                        match a.append(&LogEvent::new("mt", Level::INFO, Message::Args(args))) {
                            Ok(()) => sequence += 1,
                            Err(AppendError::NotStarted(_)) => break,
                            Err(other) => panic!("{other}"),
                        }
                    }
                });
            }
            std::thread::sleep(Duration::from_millis(50));
            a.stop();
        });
        let contents = read(&path);
        assert!(contents.ends_with("FOOTER\n"));
        let body = &contents[..contents.len() - "FOOTER\n".len()];
        for line in body.lines() {
            assert!(line.ends_with(THREAD_PAYLOAD), "torn line {line:?}");
        }
    }
}

#[test]
fn text_rendered_ahead_by_the_appenders_layout_is_written_as_it_is() {
    use l4rs_core::{Layout, LayoutId, Rendered};
    use l4rs_test_support::FormattingThreadLayout;
    let dir = TempDir::new("rendered-ahead");
    let path = dir.file("file.log");
    let layout: Arc<dyn Layout> = Arc::new(FormattingThreadLayout);
    let a = FileAppender::new("F", &spec(&path), Arc::clone(&layout)).unwrap();
    let offered = a
        .layout_rendering_ahead()
        .expect("its layout renders ahead");
    assert!(Arc::ptr_eq(&offered, &layout));
    let other: Arc<dyn Layout> = Arc::new(FormattingThreadLayout);
    for (by, text) in [
        (LayoutId::of(&layout), "ahead|written as it is\n"),
        (LayoutId::of(&other), "another layout's text\n"),
    ] {
        a.append(&LogEvent {
            rendered: Some(Rendered { layout: by, text }),
            ..event("formatted here")
        })
        .unwrap();
    }
    a.stop();
    let formatter = std::thread::current().name().unwrap_or("?").to_string();
    assert_eq!(
        read(&path),
        format!("ahead|written as it is\n{formatter}|formatted here\n")
    );
    let plain = appender(&spec(&dir.file("plain.log")), LineLayout::new());
    assert!(
        plain.layout_rendering_ahead().is_none(),
        "a layout that does not render ahead is not offered"
    );
    plain.stop();
}
