//! The study's configuration (`config-samples/log4j2-appender.xml`) loaded through
//! `LOG4RS_CONFIGURATION_FILE`, with FileLogger's lines checked field by field.

use l4rs::core::status;
use l4rs::{Level, StackFrame, Throwable};

/// The line of the first `debug!` call, as `%L` must print it.
static DEBUG_LINE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);

const LOG_FILE: &str = "target/test-output/log4j2-file.log";

fn log_through_file_logger() -> (Vec<String>, Vec<status::StatusRecord>) {
    let root = l4rs_tests::workspace_root();
    std::env::set_current_dir(&root).unwrap();
    let _ = std::fs::remove_file(LOG_FILE);
    std::env::set_var(
        "LOG4RS_CONFIGURATION_FILE",
        root.join("config-samples/log4j2-appender.xml"),
    );
    let (logger, records) = status::capture(|| l4rs::get_logger("FileLogger"));
    let message = "m".repeat(100);
    let error = Throwable::new("bench.BenchError")
        .with_message("benchmark throwable")
        .with_frames(vec![
            StackFrame::rust("bench", "deep", Some("bench.rs"), 118),
            StackFrame::rust("bench", "main", Some("bench.rs"), 57),
        ]);
    l4rs::debug!(logger, "{message}");
    DEBUG_LINE.store(line!() - 1, std::sync::atomic::Ordering::Relaxed);
    l4rs::debug!(logger, error = &error, "{message}");
    l4rs::trace!(logger, "below the logger's DEBUG level");
    l4rs::shutdown();
    (l4rs_tests::read_lines(&root.join(LOG_FILE)), records)
}

#[test]
fn file_logger_writes_the_study_pattern() {
    let (lines, records) = log_through_file_logger();

    // Only the two appenders this issue does not implement yet are reported.
    let errors: Vec<_> = records
        .iter()
        .filter(|r| r.level == Level::ERROR)
        .map(|r| r.message.clone())
        .collect();
    assert!(
        errors.iter().any(|m| m.contains("RandomAccessFile")),
        "{errors:?}"
    );
    assert!(
        errors.iter().any(|m| m.contains("MemoryMappedFile")),
        "{errors:?}"
    );
    assert!(
        errors
            .iter()
            .all(|m| m.contains("RandomAccessFile") || m.contains("MemoryMappedFile")),
        "{errors:?}"
    );

    // `%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %C.%M:%L - %msg %ex{full} %n`
    assert_eq!(lines.len(), 2 + 3, "{lines:#?}");
    let first: Vec<&str> = lines[0].splitn(8, ' ').collect();
    let (date, time) = (first[0], first[1]);
    assert_eq!(date.len(), 10);
    assert_eq!(&date[4..5], "-");
    assert_eq!(&date[7..8], "-");
    assert_eq!(time.len(), 12);
    assert_eq!(&time[8..9], ".");
    assert_eq!(first[2], "DEBUG");
    assert_eq!(first[3], std::process::id().to_string());
    assert_eq!(first[4], "file_logger_writes_the_study_pattern");
    assert_eq!(
        first[5],
        format!(
            "sample_config.log_through_file_logger:{}",
            DEBUG_LINE.load(std::sync::atomic::Ordering::Relaxed)
        )
    );
    assert_eq!(first[6], "-");
    assert_eq!(first[7], format!("{}  ", "m".repeat(100)));

    let second = &lines[1];
    assert!(
        second.ends_with(&format!(
            "- {} bench.BenchError: benchmark throwable",
            "m".repeat(100)
        )),
        "{second}"
    );
    assert_eq!(lines[2], "\tat bench::deep(bench.rs:118)");
    assert_eq!(lines[3], "\tat bench::main(bench.rs:57)");
    assert_eq!(lines[4], " ");
}
