//! `ignoreExceptions` on the synchronous path: an appender that fails returns its error from
//! `Logger::log` and `Logger::log_event` only with `ignoreExceptions="false"`; with the default
//! (`true`) the call returns `Ok` and the failure goes to the status logger alone.
//!
//! File and RandomAccessFile write to `/dev/full`, where every `write(2)` fails with ENOSPC;
//! MemoryMappedFile runs out of room on a small tmpfs (mounting needs root; see
//! `l4rs_tests::tmpfs`, which makes a failed mount a failure under `L4RS_REQUIRE_TMPFS=1`).

use std::sync::Mutex;

use l4rs::core::{status, AppendError, LogEvent, Message};
use l4rs::Level;
use l4rs_tests::tmpfs::SmallFilesystem;

/// Tests in this file replace the global configuration; they take turns.
static SERIAL: Mutex<()> = Mutex::new(());

/// A configuration of the `(name, element)` appenders, each behind a non-additive logger of the
/// same name.
fn config(appenders: &[(&str, &str)]) -> String {
    let mut elements = String::new();
    let mut loggers = Vec::new();
    for (name, element) in appenders {
        elements += element;
        loggers.push((*name, "info", *name));
    }
    format!(
        r#"<Configuration><Appenders>{elements}</Appenders><Loggers>{}<Root level="off"/></Loggers></Configuration>"#,
        l4rs_tests::non_additive_loggers(&loggers)
    )
}

/// Logs one event through `Logger::log` (as the macros do) and one through `Logger::log_event`.
fn log_both_ways(logger: &l4rs::Logger) -> [Result<(), AppendError>; 2] {
    let logged = logger.log(
        Level::INFO,
        None,
        None,
        None,
        format_args!("through log {}", 1),
    );
    let event = LogEvent::new(
        logger.name(),
        Level::INFO,
        Message::Text("through log_event"),
    );
    [logged, logger.log_event(&event)]
}

fn assert_no_space(result: &Result<(), AppendError>, what: &str) {
    match result {
        Err(AppendError::Io { source, .. }) => {
            assert_eq!(
                source.raw_os_error(),
                Some(libc::ENOSPC),
                "{what}: {source}"
            )
        }
        other => panic!("{what}: the appender's error is returned, got {other:?}"),
    }
}

#[test]
fn file_and_random_access_file_errors_are_returned_only_when_not_ignored() {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let layout = r#"<PatternLayout pattern="%m%n"/>"#;
    // One kind at a time: two kinds of appender may not share a file.
    for (kind, element) in [("File", "File"), ("Raf", "RandomAccessFile")] {
        let strict = format!(
            r#"<{element} name="{kind}Strict" fileName="/dev/full" ignoreExceptions="false">{layout}</{element}>"#
        );
        let lenient =
            format!(r#"<{element} name="{kind}Lenient" fileName="/dev/full">{layout}</{element}>"#);
        l4rs_tests::init_in_fresh_dir(&format!("ignore-exceptions-{kind}"), |_| {
            config(&[
                (&format!("{kind}Strict"), &strict),
                (&format!("{kind}Lenient"), &lenient),
            ])
        });
        let strict = l4rs::get_logger(&format!("{kind}Strict"));
        let (results, records) = status::capture(|| log_both_ways(&strict));
        for (result, way) in results.iter().zip(["log", "log_event"]) {
            assert_no_space(result, &format!("{kind} strict, {way}"));
        }
        assert!(
            records.iter().any(|r| r.level == Level::ERROR),
            "{kind} strict: also reported: {records:?}"
        );

        let lenient = l4rs::get_logger(&format!("{kind}Lenient"));
        let (results, records) = status::capture(|| log_both_ways(&lenient));
        for (result, way) in results.iter().zip(["log", "log_event"]) {
            assert!(result.is_ok(), "{kind} lenient, {way}: {result:?}");
        }
        assert!(
            records
                .iter()
                .any(|r| r.level == Level::ERROR && r.message.contains("No space left on device")),
            "{kind} lenient: the write did fail, and was reported: {records:?}"
        );
    }
    l4rs::shutdown();
}

#[test]
fn memory_mapped_file_errors_are_returned_only_when_not_ignored() {
    let _guard = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let Some(strict_fs) = SmallFilesystem::mount("ignore-strict", "size=1048576") else {
        return;
    };
    let Some(lenient_fs) = SmallFilesystem::mount("ignore-lenient", "size=1048576") else {
        return;
    };
    // Room for the first region and a few more, then the filesystem is full.
    for filesystem in [&strict_fs, &lenient_fs] {
        std::fs::write(
            filesystem.path().join("filler"),
            vec![b'f'; (1 << 20) - 48 * 1024],
        )
        .expect("fill the filesystem");
    }
    let layout = r#"<PatternLayout pattern="%m%n"/>"#;
    let strict = format!(
        r#"<MemoryMappedFile name="MmfStrict" fileName="{}" regionLength="16384" ignoreExceptions="false">{layout}</MemoryMappedFile>"#,
        strict_fs.file("strict.log")
    );
    let lenient = format!(
        r#"<MemoryMappedFile name="MmfLenient" fileName="{}" regionLength="16384">{layout}</MemoryMappedFile>"#,
        lenient_fs.file("lenient.log")
    );
    l4rs_tests::init_in_fresh_dir("ignore-exceptions-mmf", |_| {
        config(&[("MmfStrict", &strict), ("MmfLenient", &lenient)])
    });

    // Each round writes two short events; 3000 rounds need far more than the 48 KiB left.
    let strict_logger = l4rs::get_logger("MmfStrict");
    let (failure, records) = status::capture(|| {
        (0..3000).find_map(|round| {
            let results = log_both_ways(&strict_logger);
            results
                .into_iter()
                .find(Result::is_err)
                .map(|error| (round, error))
        })
    });
    let (round, error) = failure.expect("the full filesystem fails a strict append");
    assert!(round > 0, "the first region had room");
    assert_no_space(&error, "MemoryMappedFile strict");
    assert!(
        records
            .iter()
            .any(|r| r.message.contains("No space left on device")),
        "also reported: {records:?}"
    );

    let lenient_logger = l4rs::get_logger("MmfLenient");
    let (all_ok, records) = status::capture(|| {
        (0..3000).all(|_| log_both_ways(&lenient_logger).iter().all(Result::is_ok))
    });
    assert!(all_ok, "with ignoreExceptions the calls return Ok");
    assert!(
        records
            .iter()
            .any(|r| r.level == Level::ERROR && r.message.contains("No space left on device")),
        "the appends did fail, and were reported: {records:?}"
    );
    l4rs::shutdown();
}
