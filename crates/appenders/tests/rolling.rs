//! The rolling appenders against log4j2's documented behaviour: file names and indexes, which
//! file holds the triggering event, header and footer per file, compression, strategies,
//! policies with chosen event times, and many threads rolling at once.

mod rolling_support;

use std::collections::HashMap;
use std::io::Read as _;
use std::sync::Arc;

use l4rs_appenders::ManualClock;
use l4rs_core::Appender as _;
use rolling_support::{
    assert_files, build, build_with_layout, contents, errors_about, log_at, log_at_times, log_now,
    millis, names, now_millis, rolling_file_on, rolling_file_xml, rolling_file_xml_with,
    rolling_xml, set_modified, walk, LineLayout, TempDir, SIZE_1,
};

#[test]
fn size_policy_rolls_before_the_event_with_ascending_indexes() {
    let dir = TempDir::new("size");
    let appender = build_with_layout(
        &rolling_file_xml(
            &dir,
            "app-%i.log",
            r#"<SizeBasedTriggeringPolicy size="10 B"/><DefaultRolloverStrategy max="3"/>"#,
        ),
        Arc::new(LineLayout::with_header_footer("H\n", "F\n")),
    );
    // 6 bytes each: the third event finds 12 > 10 bytes and goes into a new file.
    for message in [
        "one01", "two02", "thr03", "fou04", "fiv05", "six06", "sev07", "eig08", "nin09", "ten10",
    ] {
        log_now(appender.as_ref(), message);
    }
    appender.stop();
    // Five files were written (2 events each); max=3 keeps the three newest archives, the
    // newest with the highest index.
    assert_files(
        dir.path(),
        &[
            ("app-1.log", "H\nthr03\nfou04\nF\n"),
            ("app-2.log", "H\nfiv05\nsix06\nF\n"),
            ("app-3.log", "H\nsev07\neig08\nF\n"),
            ("app.log", "H\nnin09\nten10\nF\n"),
        ],
    );
}

#[test]
fn size_limit_is_strictly_greater_and_header_is_not_counted() {
    let dir = TempDir::new("strict");
    let appender = build_with_layout(
        &rolling_xml(
            "RollingRandomAccessFile",
            &dir.file("app.log"),
            &dir.file("app.%i.log"),
            r#"<Policies><SizeBasedTriggeringPolicy size="12"/></Policies>"#,
        ),
        Arc::new(LineLayout::with_header_footer("HEADER\n", "")),
    );
    for message in ["aaaaa", "bbbbb", "ccccc", "ddddd"] {
        log_now(appender.as_ref(), message);
    }
    appender.stop();
    // Before the third event the file holds 12 bytes (the header does not count): not more
    // than 12, so it stays; before the fourth it holds 18 and rolls.
    assert_files(
        dir.path(),
        &[
            ("app.1.log", "HEADER\naaaaa\nbbbbb\nccccc\n"),
            ("app.log", "HEADER\nddddd\n"),
        ],
    );
}

#[test]
fn min_file_index_puts_the_newest_first() {
    let dir = TempDir::new("min");
    let strategy = r#"<DefaultRolloverStrategy fileIndex="min" max="2"/>"#;
    let appender = build(&rolling_file_xml(
        &dir,
        "app-%i.log",
        &format!("{SIZE_1}{strategy}"),
    ));
    for message in ["a1", "b2", "c3", "d4"] {
        log_now(appender.as_ref(), message);
    }
    appender.stop();
    assert_files(
        dir.path(),
        &[
            ("app-1.log", "c3\n"),
            ("app-2.log", "b2\n"),
            ("app.log", "d4\n"),
        ],
    );
}

#[test]
fn archives_above_the_window_move_down_and_give_way_as_in_log4j2() {
    let dir = TempDir::new("above-window");
    // Left by an earlier run: one archive inside the window, one above it (a larger `max`).
    std::fs::write(dir.path().join("app-2.log"), "s2\n").unwrap();
    std::fs::write(dir.path().join("app-7.log"), "s7\n").unwrap();
    let strategy = r#"<DefaultRolloverStrategy max="3"/>"#;
    let appender = build(&rolling_file_xml(
        &dir,
        "app-%i.log",
        &format!("{SIZE_1}{strategy}"),
    ));
    let capture = l4rs_core::status::GlobalCapture::start();
    for message in ["e1", "e2", "e3", "e4", "e5", "e6"] {
        log_now(appender.as_ref(), message);
    }
    appender.stop();
    // log4j2's purge moves every archive down one index a rollover once the highest is at
    // `max` or above: s7 reaches index 3 at the fourth rollover, where the new archive goes.
    // log4j2 writes over it, and so does l4rs, saying which it was; no staging file is left.
    assert_files(
        dir.path(),
        &[
            ("app-1.log", "e3\n"),
            ("app-2.log", "e4\n"),
            ("app-3.log", "e5\n"),
            ("app.log", "e6\n"),
        ],
    );
    let warnings = rolling_support::messages_about(
        &capture.records(),
        l4rs_core::Level::WARN,
        &format!("moved there from {}", dir.file("app-4.log")),
    );
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert!(
        warnings[0].contains(&format!(
            "replaced {} (moved there from",
            dir.file("app-3.log")
        )) && warnings[0].contains("above max=\"3\""),
        "{warnings:#?}"
    );
}

#[test]
fn an_empty_rollover_leaves_an_archive_above_the_window_where_the_purge_put_it() {
    let dir = TempDir::new("above-window-empty");
    std::fs::write(dir.path().join("app-2030-4.log"), "s4\n").unwrap();
    let clock = Arc::new(ManualClock::new(millis("2030-01-01T00:00:00Z")));
    let appender = rolling_file_on(
        &rolling_file_xml(
            &dir,
            "app-%d{yyyy}{UTC}-%i.log",
            r#"<TimeBasedTriggeringPolicy/><DefaultRolloverStrategy max="3"/>"#,
        ),
        &clock,
    );
    let capture = l4rs_core::status::GlobalCapture::start();
    // The first event, a year on, rolls the empty file of 2030: the purge moves app-2030-4
    // down onto index 3, and as in log4j2 the empty file is dropped and the archive stays.
    log_at(&appender, "e1", millis("2031-06-01T00:00:00Z"));
    appender.stop();
    assert_files(
        dir.path(),
        &[("app-2030-3.log", "s4\n"), ("app.log", "e1\n")],
    );
    // The capture is process-wide: only this test's directory counts, not the replacement the
    // test beside it provokes at the same time.
    let records = capture.records();
    let warnings: Vec<String> = rolling_support::messages_about(
        &records,
        l4rs_core::Level::WARN,
        &dir.path().display().to_string(),
    )
    .into_iter()
    .filter(|message| message.contains("replaced"))
    .collect();
    assert!(warnings.is_empty(), "{warnings:#?}");
}

#[test]
fn a_compressed_archive_above_the_window_gives_way_to_the_new_one() {
    use std::io::Write as _;
    let dir = TempDir::new("above-window-gz");
    let mut seed = flate2::write::GzEncoder::new(
        std::fs::File::create(dir.path().join("app-4.log.gz")).unwrap(),
        flate2::Compression::default(),
    );
    seed.write_all(b"s4\n").unwrap();
    seed.finish().unwrap();
    let strategy = r#"<DefaultRolloverStrategy max="3"/>"#;
    let appender = build(&rolling_file_xml(
        &dir,
        "app-%i.log.gz",
        &format!("{SIZE_1}{strategy}"),
    ));
    let capture = l4rs_core::status::GlobalCapture::start();
    for message in ["e1", "e2"] {
        log_now(appender.as_ref(), message);
    }
    appender.stop();
    // The purge moves app-4.log.gz onto index 3, where e1's archive is compressed to: log4j2
    // writes over it, l4rs deletes it once e1's file is in place, and says which it was.
    assert_files(dir.path(), &[("app-3.log.gz", "e1\n"), ("app.log", "e2\n")]);
    let warnings = rolling_support::messages_about(
        &capture.records(),
        l4rs_core::Level::WARN,
        &dir.file("app-4.log.gz"),
    );
    assert_eq!(warnings.len(), 1, "{warnings:#?}");
    assert!(
        warnings[0].contains(&format!("replaced {}", dir.file("app-3.log.gz"))),
        "{warnings:#?}"
    );
}

#[test]
fn time_policy_uses_event_times_and_names_the_previous_period() {
    let dir = TempDir::new("time");
    let appender = build(&rolling_file_xml_with(
        &dir,
        "app-%d{yyyy-MM-dd-HH}{UTC}.log.gz",
        r#"append="false""#,
        "<TimeBasedTriggeringPolicy/>",
    ));
    // The appender starts "now"; the first event far in the future rolls the (empty) file,
    // which is deleted rather than archived.
    log_at_times(
        appender.as_ref(),
        &[
            ("first", "2030-05-01T10:15:00Z"),
            ("same hour", "2030-05-01T10:59:59.999Z"),
            ("next hour", "2030-05-01T11:00:00Z"),
            ("two hours on", "2030-05-01T13:30:00Z"),
        ],
    );
    appender.stop();
    assert_files(
        dir.path(),
        &[
            ("app-2030-05-01-10.log.gz", "first\nsame hour\n"),
            ("app-2030-05-01-11.log.gz", "next hour\n"),
            ("app.log", "two hours on\n"),
        ],
    );
}

#[test]
fn restart_the_next_day_rolls_yesterdays_file_under_yesterdays_date() {
    let dir = TempDir::new("restart");
    let path = dir.path().join("app.log");
    std::fs::write(&path, "yesterday\n").unwrap();
    set_modified(&path, millis("2030-01-01T12:00:00Z"));
    let appender = build(&rolling_file_xml(
        &dir,
        "app-%d{yyyy-MM-dd}{UTC}.log",
        "<TimeBasedTriggeringPolicy/>",
    ));
    log_at(appender.as_ref(), "today", millis("2030-01-02T08:00:00Z"));
    appender.stop();
    assert_files(
        dir.path(),
        &[
            ("app-2030-01-01.log", "yesterday\n"),
            ("app.log", "today\n"),
        ],
    );
}

#[test]
fn on_startup_rolls_a_file_older_than_the_process() {
    let dir = TempDir::new("startup");
    let path = dir.path().join("app.log");
    std::fs::write(&path, "previous run\n").unwrap();
    // A year ago.
    set_modified(&path, now_millis() - 365 * 24 * 3_600_000);
    let xml = rolling_file_xml(&dir, "app-%i.log.zip", "<OnStartupTriggeringPolicy/>");
    let appender = build(&xml);
    log_now(appender.as_ref(), "this run");
    appender.stop();
    assert_eq!(names(dir.path()), ["app-1.log.zip", "app.log"]);
    let mut archive =
        zip::ZipArchive::new(std::fs::File::open(dir.path().join("app-1.log.zip")).unwrap())
            .unwrap();
    let mut entry = archive.by_index(0).unwrap();
    assert_eq!(entry.name(), "app-1.log");
    let mut text = String::new();
    entry.read_to_string(&mut text).unwrap();
    assert_eq!(text, "previous run\n");
    assert_eq!(contents(&dir.path().join("app.log")), "this run\n");
    // A file written by this process is not rolled at the next start.
    drop(entry);
    let again = build(&xml);
    again.stop();
    assert_eq!(names(dir.path()), ["app-1.log.zip", "app.log"]);
}

#[test]
fn direct_write_names_the_current_file_with_the_pattern() {
    let dir = TempDir::new("direct");
    // No fileName: the pattern names the file written.
    let appender = build(&format!(
        r#"<RollingFile name="R" filePattern="{}">
             <SizeBasedTriggeringPolicy size="2"/>
             <DirectWriteRolloverStrategy maxFiles="3"/>
           </RollingFile>"#,
        dir.file("app-%i.log.gz")
    ));
    for message in ["aa", "bb", "cc", "dd", "ee"] {
        log_now(appender.as_ref(), message);
    }
    appender.stop();
    // Five files 1..5; maxFiles=3 keeps the newest three; closed files are compressed.
    assert_eq!(
        names(dir.path()),
        ["app-3.log.gz", "app-4.log.gz", "app-5.log"]
    );
    assert_eq!(contents(&dir.path().join("app-5.log")), "ee\n");
}

#[test]
fn delete_action_keeps_the_newest_archives() {
    let dir = TempDir::new("delete");
    let strategy = format!(
        r#"<DefaultRolloverStrategy fileIndex="nomax">
             <Delete basePath="{}" maxDepth="1">
               <IfFileName glob="app-*.log"><IfAccumulatedFileCount exceeds="2"/></IfFileName>
             </Delete>
           </DefaultRolloverStrategy>"#,
        dir.path().display()
    );
    let appender = build(&rolling_file_xml(
        &dir,
        "app-%i.log",
        &format!("{SIZE_1}{strategy}"),
    ));
    // Archives written within one millisecond are ordered by path, newest index first: the
    // same order as by time, so no waiting between events is needed.
    for message in ["a", "b", "c", "d", "e", "f"] {
        log_now(appender.as_ref(), message);
    }
    appender.stop();
    assert_eq!(names(dir.path()), ["app-4.log", "app-5.log", "app.log"]);
    assert_eq!(contents(&dir.path().join("app-5.log")), "e\n");
}

#[test]
fn cron_rolls_on_its_schedule_without_events() {
    let dir = TempDir::new("cron");
    let clock = Arc::new(ManualClock::new(millis("2030-01-01T10:30:00Z")));
    let appender = rolling_file_on(
        &rolling_file_xml(
            &dir,
            "app-%i.log",
            r#"<CronTriggeringPolicy schedule="0 0 * * * ?"/>"#,
        ),
        &clock,
    );
    log_now(&appender, "before eleven");
    clock.advance_and_settle(millis("2030-01-01T10:59:00Z"));
    assert_eq!(names(dir.path()), ["app.log"]);
    clock.advance_and_settle(millis("2030-01-01T11:00:00Z"));
    log_now(&appender, "after eleven");
    appender.stop();
    assert_files(
        dir.path(),
        &[
            ("app-1.log", "before eleven\n"),
            ("app.log", "after eleven\n"),
        ],
    );
}

#[test]
fn a_rollover_that_cannot_happen_keeps_writing_into_the_current_file() {
    let dir = TempDir::new("blocked");
    // The archive's name is taken by a non-empty directory: it cannot be replaced.
    std::fs::create_dir_all(dir.path().join("app-1.log/occupied")).unwrap();
    let strategy = r#"<DefaultRolloverStrategy max="1"/>"#;
    let appender = build(&rolling_file_xml(
        &dir,
        "app-%i.log",
        &format!("{SIZE_1}{strategy}"),
    ));
    // The reports come from the worker: a process-wide capture sees them.
    let capture = l4rs_core::status::GlobalCapture::start();
    for message in ["a", "b", "c"] {
        log_now(appender.as_ref(), message);
    }
    appender.stop();
    let in_the_way = dir.file("app-1.log");
    let errors = errors_about(&capture.records(), &dir.path().display().to_string());
    // As log4j2's purge does, each rollover tries to delete the lowest archive (the
    // directory), reports that it cannot, and moves it down one index out of the way.
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].contains(&format!("Unable to delete {in_the_way}")),
        "{errors:#?}"
    );
    assert!(errors[1].contains("Unable to delete"), "{errors:#?}");
    // Every event is somewhere on disk, none twice (and no file ends in a partial line: the
    // files' texts are joined before they are split into lines).
    let all: String = walk(dir.path()).iter().map(|path| contents(path)).collect();
    let mut lines: Vec<&str> = all.lines().collect();
    lines.sort();
    assert_eq!(lines, ["a", "b", "c"]);
}

/// The record thread `thread` logs as its `n`-th event.
fn message(thread: usize, n: usize) -> String {
    format!("t{thread:02}-{n:06}-{}", "x".repeat(40))
}

/// Many threads through many rollovers: every event exactly once across the current and the
/// rolled (compressed) files, none torn, each thread's order kept.
fn concurrent(kind: &str, threads: usize, per_thread: usize) {
    let dir = TempDir::new(&format!("stress-{kind}-{threads}"));
    let appender = build(&rolling_xml(
        kind,
        &dir.file("app.log"),
        &dir.file("app-%i.log.gz"),
        r#"<SizeBasedTriggeringPolicy size="4 KB"/><DefaultRolloverStrategy fileIndex="nomax"/>"#,
    ));
    std::thread::scope(|scope| {
        for thread in 0..threads {
            let appender = Arc::clone(&appender);
            scope.spawn(move || {
                for n in 0..per_thread {
                    log_now(appender.as_ref(), &message(thread, n));
                }
            });
        }
    });
    appender.stop();
    let mut by_index: Vec<(u64, String)> = Vec::new();
    for name in names(dir.path()) {
        let text = contents(&dir.path().join(&name));
        let order = name
            .strip_prefix("app-")
            .and_then(|rest| rest.strip_suffix(".log.gz"))
            .map_or(u64::MAX, |index| index.parse().unwrap());
        by_index.push((order, text));
    }
    by_index.sort();
    assert!(
        by_index.len() > 10,
        "expected many rollovers, got {}",
        by_index.len()
    );
    let mut next: HashMap<usize, usize> = HashMap::new();
    let mut total = 0;
    for (_, text) in &by_index {
        for line in text.lines() {
            let (thread, rest) = line[1..].split_once('-').unwrap();
            let (n, _) = rest.split_once('-').unwrap();
            let thread: usize = thread.parse().unwrap();
            let n: usize = n.parse().unwrap();
            // The whole record, byte for byte: a torn or interleaved write cannot pass.
            assert_eq!(line, message(thread, n), "torn line");
            let expected = next.entry(thread).or_default();
            assert_eq!(n, *expected, "thread {thread} out of order or duplicated");
            *expected += 1;
            total += 1;
        }
    }
    assert_eq!(total, threads * per_thread);
}

#[test]
fn four_threads_rolling_file() {
    concurrent("RollingFile", 4, 3000);
}

#[test]
fn four_threads_rolling_random_access_file() {
    concurrent("RollingRandomAccessFile", 4, 3000);
}

#[test]
fn four_threads_rolling_memory_mapped_file() {
    concurrent("RollingMemoryMappedFile", 4, 3000);
}

#[test]
fn sixty_four_threads_rolling_file() {
    concurrent("RollingFile", 64, 300);
}

#[test]
fn sixty_four_threads_rolling_random_access_file() {
    concurrent("RollingRandomAccessFile", 64, 300);
}

#[test]
fn sixty_four_threads_rolling_memory_mapped_file() {
    concurrent("RollingMemoryMappedFile", 64, 300);
}
