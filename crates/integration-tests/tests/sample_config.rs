//! The log4j2 appender benchmark's configuration (`config-samples/log4j2-appender.xml`) loaded
//! through `LOG4RS_CONFIGURATION_FILE`: its three loggers (File, RandomAccessFile,
//! MemoryMappedFile) all run, and each file's lines are checked field by field.

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

/// What the test logged, where the two `debug!` calls are (as `%L` prints them), and the
/// wall-clock window the calls were made in.
struct Logged {
    contents: Vec<Vec<u8>>,
    records: Vec<status::StatusRecord>,
    lines: [u32; 2],
    window: Window,
}

/// Epoch milliseconds (rounded down, as `%d{…SSS}` prints them) just before the first log
/// call and just after the last one.
#[derive(Clone, Copy)]
struct Window {
    before: i64,
    after: i64,
}

fn epoch_millis() -> i64 {
    jiff::Timestamp::now().as_millisecond()
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
    let before = epoch_millis();
    for logger in &loggers {
        lines[0] = line!() + 1;
        l4rs::debug!(logger, "{message}");
        lines[1] = line!() + 1;
        l4rs::debug!(logger, error = &error, "{message}");
        l4rs::trace!(logger, "below the logger's DEBUG level");
    }
    let after = epoch_millis();
    l4rs::shutdown();
    let contents = LOG_FILES
        .iter()
        .map(|(_, file)| std::fs::read(root.join(file)).unwrap_or_else(|e| panic!("{file}: {e}")))
        .collect();
    Logged {
        contents,
        records,
        lines,
        window: Window { before, after },
    }
}

#[test]
fn every_logger_writes_the_benchmark_pattern() {
    let Logged {
        contents,
        records,
        lines: call_lines,
        window,
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
        check_file(logger, file, &text, call_lines, window);
    }
}

/// The fields `%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %C.%M:%L - ` print before the
/// message, split at their spaces.
struct Prefix<'a> {
    date: &'a str,
    time: &'a str,
    level: &'a str,
    pid: &'a str,
    thread: &'a str,
    location: &'a str,
    dash: &'a str,
    /// `%msg %ex{full} %n` without the final line break.
    rest: &'a str,
}

impl<'a> Prefix<'a> {
    fn split(line: &'a str) -> Prefix<'a> {
        let fields: Vec<&str> = line.splitn(8, ' ').collect();
        let [date, time, level, pid, thread, location, dash, rest] = fields[..] else {
            panic!("not eight fields: {line:?}");
        };
        Prefix {
            date,
            time,
            level,
            pid,
            thread,
            location,
            dash,
            rest,
        }
    }
}

/// Reads `yyyy-MM-dd` and `HH:mm:ss.SSS` back (exactly those widths) and returns the instant
/// they name in the system time zone (the one `%d` prints in), in epoch ms.
fn parse_date_time(date: &str, time: &str) -> i64 {
    assert_eq!((date.len(), time.len()), (10, 12), "{date:?} {time:?}");
    let civil = jiff::civil::DateTime::strptime("%Y-%m-%d %H:%M:%S%.f", format!("{date} {time}"))
        .unwrap_or_else(|e| panic!("{date} {time}: {e}"));
    // strptime accepts unpadded fields; printing it back must give the same text.
    assert_eq!(
        civil.strftime("%Y-%m-%d %H:%M:%S%.3f").to_string(),
        format!("{date} {time}"),
        "not zero-padded"
    );
    jiff::tz::TimeZone::system()
        .to_timestamp(civil)
        .unwrap_or_else(|e| panic!("{date} {time}: {e}"))
        .as_millisecond()
}

/// Checks the fields every event line shares and returns its instant (epoch ms).
fn check_prefix(file: &str, prefix: &Prefix<'_>, location: &str, window: Window) -> i64 {
    let instant = parse_date_time(prefix.date, prefix.time);
    assert!(
        (window.before..=window.after).contains(&instant),
        "{file}: {} {} is not between {} and {} ms since the epoch (local time read back)",
        prefix.date,
        prefix.time,
        window.before,
        window.after
    );
    assert_eq!(prefix.level, "DEBUG", "{file}: %-5level");
    assert_eq!(prefix.pid, std::process::id().to_string(), "{file}: %pid");
    // The test harness names each test's thread after the test.
    assert_eq!(
        prefix.thread, "every_logger_writes_the_benchmark_pattern",
        "{file}: %t"
    );
    assert_eq!(prefix.location, location, "{file}: %C.%M:%L");
    assert_eq!(prefix.dash, "-", "{file}");
    instant
}

/// `%d{yyyy-MM-dd HH:mm:ss.SSS} %-5level %pid %t %C.%M:%L - %msg %ex{full} %n`: the plain
/// event (empty `%ex`, so two spaces after the message), then the event with a throwable,
/// printed as `printStackTrace` does and followed by the pattern's ` ` and line break.
fn check_file(logger: &str, file: &str, text: &str, call_lines: [u32; 2], window: Window) {
    let message = "m".repeat(100);
    let lines: Vec<&str> = text.split_inclusive('\n').collect();
    assert_eq!(lines.len(), 2 + 3, "{file}: {lines:#?}");
    assert!(lines.iter().all(|line| line.ends_with('\n')), "{file}");
    let lines: Vec<&str> = lines.iter().map(|line| &line[..line.len() - 1]).collect();
    let location = |line: u32| format!("sample_config.log_through_every_logger:{line}");

    let first = Prefix::split(lines[0]);
    let first_at = check_prefix(file, &first, &location(call_lines[0]), window);
    assert_eq!(
        first.rest,
        format!("{message}  "),
        "{file} ({logger}): %msg %ex %n"
    );

    let second = Prefix::split(lines[1]);
    let second_at = check_prefix(file, &second, &location(call_lines[1]), window);
    assert!(first_at <= second_at, "{file}: time went back");
    assert_eq!(
        second.rest,
        format!("{message} bench.BenchError: benchmark throwable"),
        "{file} ({logger}): %msg %ex{{full}}"
    );
    assert_eq!(lines[2], "\tat bench::deep(bench.rs:118)", "{file}");
    assert_eq!(lines[3], "\tat bench::main(bench.rs:57)", "{file}");
    assert_eq!(
        lines[4], " ",
        "{file}: the pattern's ' %n' after the stack trace"
    );
}
