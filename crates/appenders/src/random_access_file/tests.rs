//! Tests of the RandomAccessFile appender.

use std::fs;
use std::os::unix::fs::MetadataExt as _;
use std::sync::Arc;

use l4rs_config::model::RandomAccessFileSpec;
use l4rs_core::Appender;

use crate::test_support::{
    append_from_threads, check_buffered_events_wait_for_flush_a_full_buffer_or_end_of_batch,
    check_footer_on_stop_and_later_appends_fail, check_lines_from_threads,
    check_missing_parent_directories_are_created, check_one_write_per_event,
    check_unusable_paths_fail_with_log4j2_messages, check_visible_at_once,
    check_write_failures_are_io_errors_naming_the_file, event, file_spec,
    random_access_file_spec as spec, read, write_calls_during, LineLayout, TempDir,
};
use crate::{FileAppender, RandomAccessFileAppender};

fn appender(spec: &RandomAccessFileSpec, layout: LineLayout) -> RandomAccessFileAppender {
    RandomAccessFileAppender::new("R", spec, Arc::new(layout)).unwrap()
}

/// log4j2 2.19 (scenario 160-header-footer): the footer is written, the header is lost.
#[test]
fn footer_is_written_and_the_header_is_lost_as_in_log4j2() {
    let dir = TempDir::new("raf-header");
    let path = dir.file("raf.log");
    let a = appender(
        &spec(&path),
        LineLayout::with_header_footer("# raf header\n", "# raf footer\n"),
    );
    check_footer_on_stop_and_later_appends_fail(
        &a,
        "R",
        &path,
        "body line 1\nbody line 2\n# raf footer\n",
    );
}

#[test]
fn immediate_flush_reaches_the_file_before_append_returns() {
    let dir = TempDir::new("raf-immediate");
    let path = dir.file("raf.log");
    let a = appender(&spec(&path), LineLayout::default());
    check_visible_at_once(&a, &path, "immediateFlush=true");
}

/// `immediateFlush="true"` (the default): the buffer is drained by one `write(2)` per event.
#[test]
fn immediate_flush_is_one_write_per_event() {
    let dir = TempDir::new("raf-one-write");
    let path = dir.file("raf.log");
    let a = appender(&spec(&path), LineLayout::default());
    check_one_write_per_event(&a, &path, "immediateFlush=true");
}

/// The `write(2)`s each event costs on a shared 32-byte buffer, `B` flushing after each event
/// and `A` not: none while events fit, one when `B` drains what `A` buffered together with its
/// own event, and two (as in log4j2: drain, then the event) when `B`'s event does not fit beside
/// the buffered bytes or is larger than the whole buffer.
#[test]
fn immediate_flush_after_buffered_events_is_one_write_when_they_fit() {
    let dir = TempDir::new("raf-write-count");
    let path = dir.file("raf.log");
    let mut buffered = spec(&path);
    buffered.immediate_flush = false;
    buffered.buffer_size = 32;
    let a = appender(&buffered, LineLayout::default().prefixed("A "));
    let b = appender(&spec(&path), LineLayout::default().prefixed("B "));
    let writes = |appender: &RandomAccessFileAppender, text: &'static str| {
        write_calls_during(|| appender.append(&event(text)).unwrap())
    };
    assert_eq!(writes(&a, "ten bytes"), 0);
    assert_eq!(writes(&b, "ten bytes"), 1, "12 + 12 bytes fit");
    assert_eq!(writes(&a, "ten bytes"), 0);
    assert_eq!(
        writes(&b, "does not fit beside it"),
        2,
        "12 + 25 bytes do not"
    );
    assert_eq!(writes(&a, "ten bytes"), 0);
    assert_eq!(writes(&b, "a record longer than the buffer"), 2);
    assert_eq!(writes(&a, "a record longer than the buffer"), 1);
    a.stop();
    b.stop();
    assert_eq!(
        read(&path),
        "A ten bytes\nB ten bytes\nA ten bytes\nB does not fit beside it\nA ten bytes\n\
         B a record longer than the buffer\nA a record longer than the buffer\n"
    );
}

/// Scenario 190-buffers-and-mmf-remap: a 100-byte buffer without immediate flush.
#[test]
fn buffered_events_wait_for_a_full_buffer_end_of_batch_flush_or_stop() {
    let dir = TempDir::new("raf-buffered");
    let path = dir.file("raf.log");
    let mut s = spec(&path);
    s.immediate_flush = false;
    s.buffer_size = 32;
    let a = appender(&s, LineLayout::with_header_footer("", "foot\n"));
    check_buffered_events_wait_for_flush_a_full_buffer_or_end_of_batch(&a, &path, "");
    // A record at least as large as the buffer goes straight through, after what is buffered.
    a.append(&event("small")).unwrap();
    a.append(&event("a record much longer than thirty-two bytes"))
        .unwrap();
    assert!(
        read(&path).ends_with("end of batch\nsmall\na record much longer than thirty-two bytes\n")
    );
    a.append(&event("kept until stop")).unwrap();
    a.stop();
    assert!(read(&path).ends_with("thirty-two bytes\nkept until stop\nfoot\n"));
}

#[test]
fn the_default_buffer_holds_events_until_stop() {
    let dir = TempDir::new("raf-default-buffer");
    let path = dir.file("raf.log");
    let mut s = spec(&path);
    s.immediate_flush = false;
    let a = appender(&s, LineLayout::default());
    for _ in 0..1000 {
        a.append(&event("0123456789 0123456789 0123456789 0123456789"))
            .unwrap();
    }
    assert_eq!(read(&path), "", "45 kB fit in the 256 KiB buffer");
    drop(a);
    assert_eq!(read(&path).lines().count(), 1000);
}

/// Scenarios 141/142 and 012: append continues existing files, append=false starts anew.
#[test]
fn append_continues_and_append_false_deletes_the_file_first() {
    let dir = TempDir::new("raf-append");
    let path = dir.file("raf.log");
    fs::write(&path, "old raf line\n").unwrap();
    let a = appender(&spec(&path), LineLayout::default().prefixed("raf "));
    a.append(&event("INFO appended")).unwrap();
    a.stop();
    assert_eq!(read(&path), "old raf line\nraf INFO appended\n");

    let old_inode = fs::metadata(&path).unwrap().ino();
    // A reader holding the old file keeps its contents: the file is deleted, not truncated.
    let reader = fs::File::open(&path).unwrap();
    let mut s = spec(&path);
    s.append = false;
    let a = appender(&s, LineLayout::default());
    a.append(&event("fresh")).unwrap();
    a.stop();
    assert_eq!(read(&path), "fresh\n");
    assert_ne!(fs::metadata(&path).unwrap().ino(), old_inode);
    assert_eq!(
        reader.metadata().unwrap().len(),
        "old raf line\nraf INFO appended\n".len() as u64
    );
}

#[test]
fn missing_parent_directories_are_created() {
    check_missing_parent_directories_are_created::<RandomAccessFileAppender>(&TempDir::new(
        "raf-parents",
    ));
}

#[test]
fn unusable_paths_fail_with_log4j2_messages() {
    let dir = TempDir::new("raf-unusable");
    check_unusable_paths_fail_with_log4j2_messages::<RandomAccessFileAppender>(
        &dir,
        "RandomAccessFileManager",
    );
}

#[test]
fn write_failures_are_io_errors_naming_the_file() {
    check_write_failures_are_io_errors_naming_the_file::<RandomAccessFileAppender>();
}

#[test]
fn appenders_on_one_file_share_a_manager_apart_from_file_appenders() {
    let dir = TempDir::new("raf-shared");
    let path = dir.file("shared.log");
    let mut buffered = spec(&path);
    buffered.immediate_flush = false;
    let first = appender(&buffered, LineLayout::with_header_footer("", "A-foot\n"));
    let second = appender(
        &spec(&path),
        LineLayout::with_header_footer("", "B-foot\n").prefixed("b: "),
    );
    let writes = write_calls_during(|| first.append(&event("one")).unwrap());
    assert_eq!(writes, 0, "buffered");
    // The second appender flushes the shared buffer, so "one" comes first: the buffered bytes
    // and its own event leave together, in one write.
    let writes = write_calls_during(|| second.append(&event("two")).unwrap());
    assert_eq!(writes, 1);
    assert_eq!(read(&path), "one\nb: two\n");
    first.stop();
    second.append(&event("three")).unwrap();
    second.stop();
    assert_eq!(read(&path), "one\nb: two\nb: three\nA-foot\n");

    // A File appender on the same name has a manager of its own (as in log4j2, whose
    // factories differ); both append, so nothing is overwritten.
    let raf = appender(&spec(&path), LineLayout::default().prefixed("raf "));
    let file = FileAppender::new(
        "F",
        &file_spec(&path),
        Arc::new(LineLayout::default().prefixed("file ")),
    )
    .unwrap();
    raf.append(&event("x")).unwrap();
    file.append(&event("y")).unwrap();
    raf.stop();
    file.stop();
    assert!(read(&path).ends_with("A-foot\nraf x\nfile y\n"));
}

#[test]
fn many_threads_lines_are_whole_and_ordered() {
    for immediate_flush in [true, false] {
        let dir = TempDir::new("raf-mt");
        let path = dir.file("mt.log");
        let mut s = spec(&path);
        s.immediate_flush = immediate_flush;
        s.buffer_size = 4096;
        let a = appender(&s, LineLayout::default());
        append_from_threads(&a, 8, 5000);
        a.stop();
        check_lines_from_threads(&read(&path), 8, 5000);
    }
}
