//! The rolling appenders' own options at work: `createOnDemand`, `bufferedIo="false"`,
//! `immediateFlush="false"` (buffered bytes do not count towards the size limit, as in
//! log4j2, which counts what reached the OS), `filePermissions` on every new file, and the
//! RollingMemoryMappedFile's archives (truncated to their data, no NUL padding) under size-
//! and time-based rolling.

mod rolling_support;

use std::os::unix::fs::PermissionsExt as _;
use std::sync::Arc;

use l4rs_appenders::ManualClock;
use rolling_support::{
    assert_files, build, build_on, contents, log_at_times, log_now, millis, names,
    rolling_file_xml, rolling_file_xml_with, rolling_xml_with, TempDir, SIZE_1,
};

#[test]
fn create_on_demand_creates_the_file_with_the_first_event() {
    let dir = TempDir::new("on-demand");
    let appender = build(&rolling_file_xml_with(
        &dir,
        "app-%i.log",
        r#"createOnDemand="true""#,
        SIZE_1,
    ));
    assert!(names(dir.path()).is_empty());
    log_now(appender.as_ref(), "a");
    assert_eq!(names(dir.path()), ["app.log"]);
    log_now(appender.as_ref(), "b");
    appender.stop();
    assert_eq!(names(dir.path()), ["app-1.log", "app.log"]);
    assert_eq!(contents(&dir.path().join("app.log")), "b\n");
}

#[test]
fn without_buffering_each_event_reaches_the_file_at_once() {
    let dir = TempDir::new("unbuffered");
    let appender = build(&rolling_file_xml_with(
        &dir,
        "app-%i.log",
        r#"bufferedIo="false" immediateFlush="false""#,
        r#"<SizeBasedTriggeringPolicy size="10"/>"#,
    ));
    log_now(appender.as_ref(), "first");
    // No buffer, so immediateFlush="false" changes nothing: the bytes are in the file and
    // count towards the limit.
    assert_eq!(contents(&dir.path().join("app.log")), "first\n");
    log_now(appender.as_ref(), "second");
    log_now(appender.as_ref(), "third");
    appender.stop();
    assert_files(
        dir.path(),
        &[("app-1.log", "first\nsecond\n"), ("app.log", "third\n")],
    );
}

#[test]
fn buffered_bytes_do_not_count_towards_the_size_limit() {
    for kind in ["RollingFile", "RollingRandomAccessFile"] {
        let dir = TempDir::new("buffered");
        let appender = build(&rolling_xml_with(
            kind,
            &dir.file("app.log"),
            &dir.file("app-%i.log"),
            r#"immediateFlush="false""#,
            r#"<SizeBasedTriggeringPolicy size="10"/>"#,
        ));
        let lines: Vec<String> = (0..20).map(|n| format!("line{n:02}")).collect();
        for line in &lines {
            log_now(appender.as_ref(), line);
        }
        // 140 bytes, all still in the buffer (8 KiB, 256 KiB): the file is empty as far as
        // the size policy knows, and nothing rolled.
        assert_eq!(names(dir.path()), ["app.log"], "{kind}");
        assert_eq!(contents(&dir.path().join("app.log")), "", "{kind}");
        appender.stop();
        assert_eq!(names(dir.path()), ["app.log"], "{kind}");
        let expected: String = lines.iter().map(|line| format!("{line}\n")).collect();
        assert_eq!(contents(&dir.path().join("app.log")), expected, "{kind}");
    }
}

fn mode(path: &std::path::Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

#[test]
fn file_permissions_apply_to_every_new_file() {
    for kind in ["RollingFile", "RollingRandomAccessFile"] {
        let dir = TempDir::new("permissions");
        let appender = build(&rolling_xml_with(
            kind,
            &dir.file("app.log"),
            &dir.file("app-%i.log"),
            r#"filePermissions="rw-r-----""#,
            SIZE_1,
        ));
        assert_eq!(mode(&dir.path().join("app.log")), 0o640, "{kind}");
        log_now(appender.as_ref(), "a");
        log_now(appender.as_ref(), "b");
        appender.stop();
        // The file opened by the rollover and the archive (the renamed file) keep the mode.
        assert_eq!(names(dir.path()), ["app-1.log", "app.log"]);
        assert_eq!(mode(&dir.path().join("app.log")), 0o640, "{kind}");
        assert_eq!(mode(&dir.path().join("app-1.log")), 0o640, "{kind}");
    }
}

/// Checks that every file of `dir` holds only whole `line…` records, no NUL byte, and
/// returns their lines in archive order then the current file's.
fn mapped_lines(dir: &TempDir, order: impl Fn(&str) -> u64) -> Vec<String> {
    let mut files = names(dir.path());
    files.sort_by_key(|name| order(name));
    let mut lines = Vec::new();
    for name in files {
        let bytes = std::fs::read(dir.path().join(&name)).unwrap();
        assert!(!bytes.contains(&0), "NUL padding in {name}");
        assert!(bytes.is_empty() || bytes.ends_with(b"\n"), "{name}");
        let text = String::from_utf8(bytes).unwrap();
        lines.extend(text.lines().map(str::to_string));
    }
    lines
}

#[test]
fn mapped_archives_are_truncated_to_their_data() {
    let dir = TempDir::new("mapped-size");
    let appender = build(&rolling_xml_with(
        "RollingMemoryMappedFile",
        &dir.file("app.log"),
        &dir.file("app-%i.log"),
        r#"regionLength="4096""#,
        r#"<SizeBasedTriggeringPolicy size="1 KB"/><DefaultRolloverStrategy fileIndex="nomax"/>"#,
    ));
    let expected: Vec<String> = (0..300)
        .map(|n| format!("line {n:04} {}", "x".repeat(40)))
        .collect();
    for line in &expected {
        log_now(appender.as_ref(), line);
    }
    appender.stop();
    let index = |name: &str| {
        name.strip_prefix("app-")
            .and_then(|rest| rest.strip_suffix(".log"))
            .map_or(u64::MAX, |n| n.parse().unwrap())
    };
    assert!(names(dir.path()).len() > 10, "{:?}", names(dir.path()));
    // Each archive is just over 1 KiB (the event that went past the limit went in), far less
    // than its 4 KiB mapping.
    for name in names(dir.path()) {
        let length = std::fs::metadata(dir.path().join(&name)).unwrap().len();
        assert!(length <= 1024 + 52, "{name}: {length} bytes");
    }
    assert_eq!(mapped_lines(&dir, index), expected);
}

#[test]
fn mapped_files_roll_by_time() {
    let dir = TempDir::new("mapped-time");
    let clock = Arc::new(ManualClock::new(millis("2030-05-01T10:00:00Z")));
    let appender = build_on(
        &rolling_xml_with(
            "RollingMemoryMappedFile",
            &dir.file("app.log"),
            &dir.file("app-%d{yyyy-MM-dd-HH}{UTC}.log"),
            r#"append="false" regionLength="65536""#,
            "<TimeBasedTriggeringPolicy/>",
        ),
        &clock,
    );
    log_at_times(
        appender.as_ref(),
        &[
            ("ten a", "2030-05-01T10:05:00Z"),
            ("ten b", "2030-05-01T10:59:59.999Z"),
            ("eleven", "2030-05-01T11:00:00Z"),
            ("one", "2030-05-01T13:10:00Z"),
        ],
    );
    appender.stop();
    assert_eq!(
        names(dir.path()),
        ["app-2030-05-01-10.log", "app-2030-05-01-11.log", "app.log"]
    );
    let order = |name: &str| if name == "app.log" { 1 } else { 0 };
    assert_eq!(
        mapped_lines(&dir, order),
        ["ten a", "ten b", "eleven", "one"]
    );
    assert_eq!(
        std::fs::read(dir.path().join("app-2030-05-01-10.log")).unwrap(),
        b"ten a\nten b\n"
    );
    assert_eq!(
        std::fs::read(dir.path().join("app-2030-05-01-11.log")).unwrap(),
        b"eleven\n"
    );
}

#[test]
fn bzip2_gzip_and_zstd_archives_decompress_to_what_was_written() {
    for suffix in [".bz2", ".gz", ".zst"] {
        let dir = TempDir::new("codecs");
        let appender = build(&rolling_file_xml(
            &dir,
            &format!("app-%i.log{suffix}"),
            r#"<SizeBasedTriggeringPolicy size="1 KB"/><DefaultRolloverStrategy compressionLevel="9"/>"#,
        ));
        let lines: Vec<String> = (0..30)
            .map(|n| format!("{suffix} line {n:03} {}", "y".repeat(40)))
            .collect();
        for line in &lines {
            log_now(appender.as_ref(), line);
        }
        appender.stop();
        let archive = format!("app-1.log{suffix}");
        assert_eq!(names(dir.path()), [archive.as_str(), "app.log"], "{suffix}");
        let mut seen: Vec<String> = contents(&dir.path().join(&archive))
            .lines()
            .map(str::to_string)
            .collect();
        seen.extend(
            contents(&dir.path().join("app.log"))
                .lines()
                .map(str::to_string),
        );
        assert_eq!(seen, lines, "{suffix}");
    }
}
