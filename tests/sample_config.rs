//! The study's configuration (`config-samples/log4j2-appender.xml`) loaded through
//! `LOG4RS_CONFIGURATION_FILE`: its three loggers (File, RandomAccessFile, MemoryMappedFile)
//! all run, and each file's lines are checked field by field.

use l4rs::core::status;
use l4rs::{Level, StackFrame, Throwable};

const LOG_FILES: [(&str, &str); 3] = [
    ("FileLogger", "target/test-output/log4j2-file.log"),
    (
        "RandomAccessFileLogger",
        "target/test-output/log4j2-random-access-file.log",
    ),
    (
        "MemoryMappedFileLogger",
        "target/test-output/log4j2-memory-mapped-file.log",
    ),
];

/// What the test logged, and where the two `debug!` calls are (as `%L` prints them).
struct Logged {
    contents: Vec<Vec<u8>>,
    records: Vec<status::StatusRecord>,
    lines: [u32; 2],
}

fn log_through_every_logger() -> Logged {
    let root = l4rs_tests::workspace_root();
    std::env::set_current_dir(&root).unwrap();
    for (_, file) in LOG_FILES {
        let _ = std::fs::remove_file(file);
    }
    std::env::set_var(
        "LOG4RS_CONFIGURATION_FILE",
        root.join("config-samples/log4j2-appender.xml"),
    );
    let (loggers, records) =
        status::capture(|| LOG_FILES.map(|(logger, _)| l4rs::get_logger(logger)));
    let message = "m".repeat(100);
    let error = Throwable::new("bench.BenchError")
        .with_message("benchmark throwable")
        .with_frames(vec![
            StackFrame::rust("bench", "deep", Some("bench.rs"), 118),
            StackFrame::rust("bench", "main", Some("bench.rs"), 57),
        ]);
    let mut lines = [0; 2];
    for logger in &loggers {
        lines[0] = line!() + 1;
        l4rs::debug!(logger, "{message}");
        lines[1] = line!() + 1;
        l4rs::debug!(logger, error = &error, "{message}");
        l4rs::trace!(logger, "below the logger's DEBUG level");
    }
    l4rs::shutdown();
    let contents = LOG_FILES
        .iter()
        .map(|(_, file)| std::fs::read(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}")))
        .collect();
    Logged {
        contents,
        records,
        lines,
    }
}

#[test]
fn every_logger_writes_the_study_pattern() {
    let Logged {
        contents,
        records,
        lines: call_lines,
    } = log_through_every_logger();
    let errors: Vec<_> = records
        .iter()
        .filter(|r| r.level == Level::ERROR)
        .map(|r| r.message.clone())
        .collect();
    assert!(errors.is_empty(), "{errors:?}");

    for ((logger, file), bytes) in LOG_FILES.iter().zip(contents) {
        // The memory-mapped file is truncated to its data: no NUL padding is left.
        assert!(!bytes.contains(&0), "{file}: NUL bytes");
        let text = String::from_utf8(bytes).unwrap();
        let lines: Vec<&str> = text.lines().collect();
        check_lines(logger, file, &lines, call_lines);
    }
}

/// `%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %C.%M:%L - %msg %ex{full} %n`
fn check_lines(logger: &str, file: &str, lines: &[&str], call_lines: [u32; 2]) {
    assert_eq!(lines.len(), 2 + 3, "{file}: {lines:#?}");
    let first: Vec<&str> = lines[0].splitn(8, ' ').collect();
    let (date, time) = (first[0], first[1]);
    assert_eq!(date.len(), 10, "{file}");
    assert_eq!(&date[4..5], "-");
    assert_eq!(&date[7..8], "-");
    assert_eq!(time.len(), 12, "{file}");
    assert_eq!(&time[8..9], ".");
    assert_eq!(first[2], "DEBUG", "{file}");
    assert_eq!(first[3], std::process::id().to_string(), "{file}");
    assert_eq!(first[4], "every_logger_writes_the_study_pattern", "{file}");
    assert_eq!(
        first[5],
        format!("sample_config.log_through_every_logger:{}", call_lines[0]),
        "{file} ({logger})"
    );
    assert_eq!(first[6], "-");
    assert_eq!(first[7], format!("{}  ", "m".repeat(100)), "{file}");

    let second = lines[1];
    assert!(second.starts_with(&lines[0][..11]), "{file}: {second}");
    assert!(
        second.ends_with(&format!(
            "sample_config.log_through_every_logger:{} - {} bench.BenchError: benchmark throwable",
            call_lines[1],
            "m".repeat(100)
        )),
        "{file}: {second}"
    );
    assert_eq!(lines[2], "\tat bench::deep(bench.rs:118)", "{file}");
    assert_eq!(lines[3], "\tat bench::main(bench.rs:57)", "{file}");
    assert_eq!(lines[4], " ", "{file}");
}
