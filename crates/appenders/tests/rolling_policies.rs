//! Policies and strategies bound from XML and driven with a [`ManualClock`] and chosen event
//! times (nothing waits for real time): `TimeBasedTriggeringPolicy interval`/`modulate`/
//! `maxRandomDelay`, `OnStartupTriggeringPolicy minSize`, `CronTriggeringPolicy
//! evaluateOnStartup`, `DefaultRolloverStrategy min` and `compressionLevel`,
//! `DirectWriteRolloverStrategy` with a time policy, the appender's `maxRandomDelay` (the
//! rollover's work waits on the worker while logging goes on) and the retry delay after a
//! failed rollover.

mod rolling_support;

use std::sync::Arc;

use l4rs_appenders::ManualClock;
use l4rs_core::status::GlobalCapture;
use l4rs_core::Appender as _;
use rolling_support::{
    assert_files, bind, build_on, contents, errors_about, leftovers, log_at, log_at_times, millis,
    names, rolling_file_on, rolling_file_xml, rolling_file_xml_with, set_modified, TempDir, LINES,
    SIZE_1,
};

fn clock_at(text: &str) -> Arc<ManualClock> {
    Arc::new(ManualClock::new(millis(text)))
}

#[test]
fn every_four_hours_modulated_rolls_at_multiples_of_four() {
    let dir = TempDir::new("modulate");
    // Started at 03:14: rollovers at 04:00, 08:00, … (without modulate: 07:14's hour, 07:00).
    let clock = clock_at("2030-05-01T03:14:00Z");
    let appender = build_on(
        &rolling_file_xml_with(
            &dir,
            "app-%d{yyyy-MM-dd-HH}{UTC}.log",
            r#"append="false""#,
            r#"<TimeBasedTriggeringPolicy interval="4" modulate="true"/>"#,
        ),
        &clock,
    );
    log_at_times(
        appender.as_ref(),
        &[
            ("a 03:20", "2030-05-01T03:20:00Z"),
            ("b 03:59", "2030-05-01T03:59:59.999Z"),
            ("c 04:00", "2030-05-01T04:00:00Z"),
            ("d 07:59", "2030-05-01T07:59:59.999Z"),
            ("e 08:00", "2030-05-01T08:00:00Z"),
        ],
    );
    appender.stop();
    // Each archive is named after the last hour of its period (log4j2's `nextFileTime`).
    assert_files(
        dir.path(),
        &[
            ("app-2030-05-01-03.log", "a 03:20\nb 03:59\n"),
            ("app-2030-05-01-07.log", "c 04:00\nd 07:59\n"),
            ("app.log", "e 08:00\n"),
        ],
    );
}

#[test]
fn policy_max_random_delay_moves_each_boundary_by_the_clocks_draw() {
    let dir = TempDir::new("policy-delay");
    let clock = clock_at("2030-05-01T03:14:00Z");
    clock.set_random_delay(1_500);
    let appender = build_on(
        &rolling_file_xml_with(
            &dir,
            "app-%d{yyyy-MM-dd-HH}{UTC}.log",
            r#"append="false""#,
            r#"<TimeBasedTriggeringPolicy maxRandomDelay="2"/>"#,
        ),
        &clock,
    );
    log_at_times(
        appender.as_ref(),
        &[
            ("a", "2030-05-01T03:30:00Z"),
            // The boundary is 04:00 plus the 1.5 s drawn: these stay in the 03 file.
            ("b", "2030-05-01T04:00:00Z"),
            ("c", "2030-05-01T04:00:01.499Z"),
            ("d", "2030-05-01T04:00:01.500Z"),
            // The next boundary is drawn again: 05:00:01.5.
            ("e", "2030-05-01T05:00:01.499Z"),
            ("f", "2030-05-01T05:00:01.500Z"),
        ],
    );
    appender.stop();
    assert_files(
        dir.path(),
        &[
            ("app-2030-05-01-03.log", "a\nb\nc\n"),
            ("app-2030-05-01-04.log", "d\ne\n"),
            ("app.log", "f\n"),
        ],
    );
}

/// A RollingFile on `app.log` (written `text`, dated years back) with `policy`; returns the
/// files once the appender started and stopped.
fn start_with(policy: &str, text: &str) -> (TempDir, Vec<String>) {
    let dir = TempDir::new("startup");
    let path = dir.path().join("app.log");
    std::fs::write(&path, text).unwrap();
    set_modified(&path, millis("2020-01-01T00:00:00Z"));
    let (spec, diagnostics) = bind(&rolling_file_xml(&dir, "app-%i.log", policy));
    assert!(
        diagnostics
            .iter()
            .all(|d| d.message.contains("minSize -1 is negative")),
        "{diagnostics:#?}"
    );
    let appender = l4rs_appenders::build_appender(&spec, Arc::new(LINES)).unwrap();
    appender.stop();
    let files = names(dir.path());
    (dir, files)
}

#[test]
fn on_startup_min_size() {
    // minSize="0": an empty file from before the process is archived (log4j2 turns on
    // renameEmptyFiles).
    let (_dir, files) = start_with(r#"<OnStartupTriggeringPolicy minSize="0"/>"#, "");
    assert_eq!(files, ["app-1.log", "app.log"]);
    // The default minSize (1) leaves an empty file alone.
    let (_dir, files) = start_with("<OnStartupTriggeringPolicy/>", "");
    assert_eq!(files, ["app.log"]);
    // A file smaller than minSize stays; one as large rolls.
    let (dir, files) = start_with(r#"<OnStartupTriggeringPolicy minSize="100"/>"#, "12345\n");
    assert_eq!(files, ["app.log"]);
    assert_eq!(contents(&dir.path().join("app.log")), "12345\n");
    let (dir, files) = start_with(r#"<OnStartupTriggeringPolicy minSize="6"/>"#, "12345\n");
    assert_eq!(files, ["app-1.log", "app.log"]);
    assert_eq!(contents(&dir.path().join("app-1.log")), "12345\n");
    // A negative minSize (warned about) rolls even an empty file, as log4j2 does, but the
    // empty file is deleted rather than archived.
    let (_dir, files) = start_with(r#"<OnStartupTriggeringPolicy minSize="-1"/>"#, "");
    assert_eq!(files, ["app.log"]);
    let (_dir, files) = start_with(r#"<OnStartupTriggeringPolicy minSize="-1"/>"#, "x\n");
    assert_eq!(files, ["app-1.log", "app.log"]);
}

#[test]
fn cron_evaluate_on_startup_rolls_a_file_that_missed_a_fire_time() {
    for (evaluate, expected) in [
        ("true", vec!["app-1.log", "app.log"]),
        ("false", vec!["app.log"]),
    ] {
        let dir = TempDir::new("cron-startup");
        let path = dir.path().join("app.log");
        std::fs::write(&path, "before eleven\n").unwrap();
        set_modified(&path, millis("2030-01-01T10:30:00Z"));
        // The clock says 11:30: the 11:00 fire time passed since the file was written.
        let clock = clock_at("2030-01-01T11:30:00Z");
        let policy = format!(
            r#"<CronTriggeringPolicy schedule="0 0 * * * ?" evaluateOnStartup="{evaluate}"/>"#
        );
        let appender = build_on(&rolling_file_xml(&dir, "app-%i.log", &policy), &clock);
        log_at(appender.as_ref(), "after", millis("2030-01-01T11:30:00Z"));
        appender.stop();
        assert_eq!(names(dir.path()), expected, "evaluateOnStartup={evaluate}");
        if evaluate == "true" {
            assert_eq!(contents(&dir.path().join("app-1.log")), "before eleven\n");
            assert_eq!(contents(&dir.path().join("app.log")), "after\n");
        } else {
            assert_eq!(
                contents(&dir.path().join("app.log")),
                "before eleven\nafter\n"
            );
        }
    }
}

#[test]
fn a_min_above_one_numbers_archives_from_min() {
    let dir = TempDir::new("min3");
    let clock = clock_at("2030-01-01T00:00:00Z");
    let strategy = r#"<DefaultRolloverStrategy min="3" max="5"/>"#;
    let xml = rolling_file_xml(&dir, "app-%i.log", &format!("{SIZE_1}{strategy}"));
    let appender = rolling_file_on(&xml, &clock);
    let at = millis("2030-01-01T00:00:00Z");
    for (n, text) in ["a", "b", "c"].iter().enumerate() {
        log_at(&appender, text, at + n as i64);
    }
    appender.wait_for_actions();
    assert_eq!(names(dir.path()), ["app-3.log", "app-4.log", "app.log"]);
    for (n, text) in ["d", "e", "f", "g"].iter().enumerate() {
        log_at(&appender, text, at + 3 + n as i64);
    }
    appender.stop();
    // The window 3..=5 holds three archives, the newest at 5; nothing below 3.
    assert_files(
        dir.path(),
        &[
            ("app-3.log", "d\n"),
            ("app-4.log", "e\n"),
            ("app-5.log", "f\n"),
            ("app.log", "g\n"),
        ],
    );
}

/// The size of the archive a RollingFile with `compressionLevel="{level}"` makes of `text`.
fn gzip_size(level: &str, text: &str) -> u64 {
    let dir = TempDir::new(&format!("level-{level}"));
    let clock = clock_at("2030-01-01T00:00:00Z");
    let strategy = format!(r#"<DefaultRolloverStrategy compressionLevel="{level}"/>"#);
    let xml = rolling_file_xml(&dir, "app-%i.log.gz", &format!("{SIZE_1}{strategy}"));
    let appender = build_on(&xml, &clock);
    log_at(appender.as_ref(), text, 0);
    log_at(appender.as_ref(), "next", 0);
    appender.stop();
    let archive = dir.path().join("app-1.log.gz");
    assert_eq!(contents(&archive), format!("{text}\n"));
    std::fs::metadata(&archive).unwrap().len()
}

#[test]
fn compression_level_changes_the_archive() {
    let text: String = (0..2_000).map(|n| format!("line {} ", n % 50)).collect();
    let stored = gzip_size("0", &text);
    let best = gzip_size("9", &text);
    let default = gzip_size("-1", &text);
    // Level 0 stores the bytes (plus framing); 9 and the default compress them.
    assert!(stored > text.len() as u64, "{stored} vs {}", text.len());
    assert!(best * 10 < text.len() as u64, "{best} vs {}", text.len());
    assert!(default * 10 < text.len() as u64, "{default}");
}

#[test]
fn direct_write_restarts_the_index_in_a_new_period() {
    let dir = TempDir::new("direct-time");
    let clock = clock_at("2030-05-01T10:00:00Z");
    let appender = build_on(
        &format!(
            r#"<RollingFile name="R" filePattern="{}">
                 <Policies>
                   <TimeBasedTriggeringPolicy/>
                   <SizeBasedTriggeringPolicy size="1"/>
                 </Policies>
               </RollingFile>"#,
            dir.file("app-%d{yyyy-MM-dd-HH}{UTC}-%i.log")
        ),
        &clock,
    );
    log_at_times(
        appender.as_ref(),
        &[
            ("a", "2030-05-01T10:10:00Z"),
            ("b", "2030-05-01T10:20:00Z"),
            ("c", "2030-05-01T10:30:00Z"),
            ("d", "2030-05-01T11:05:00Z"),
            ("e", "2030-05-01T11:06:00Z"),
        ],
    );
    appender.stop();
    assert_eq!(
        names(dir.path()),
        [
            "app-2030-05-01-10-1.log",
            "app-2030-05-01-10-2.log",
            "app-2030-05-01-10-3.log",
            "app-2030-05-01-11-1.log",
            "app-2030-05-01-11-2.log",
        ]
    );
    for (name, text) in [
        ("10-1", "a\n"),
        ("10-2", "b\n"),
        ("10-3", "c\n"),
        ("11-1", "d\n"),
        ("11-2", "e\n"),
    ] {
        assert_eq!(
            contents(&dir.path().join(format!("app-2030-05-01-{name}.log"))),
            text
        );
    }
}

#[test]
fn appender_max_random_delay_holds_the_work_on_the_worker_while_logging_goes_on() {
    let dir = TempDir::new("appender-delay");
    let start = millis("2030-01-01T00:00:00Z");
    let clock = Arc::new(ManualClock::new(start));
    clock.set_random_delay(30_000);
    let appender = rolling_file_on(
        &rolling_file_xml_with(&dir, "app-%i.log.gz", r#"maxRandomDelay="60""#, SIZE_1),
        &clock,
    );
    let waits = clock.waits();
    for text in ["a", "b", "c"] {
        log_at(&appender, text, start);
    }
    // Both rollovers happened on this thread (app.log holds the last event) while their
    // compression waits on the worker, asleep until 30 s from now: the logging thread never
    // waited for it. The two staging files (renamed away from app.log) wait for the worker.
    clock.wait_for_waiters(waits);
    assert_eq!(contents(&dir.path().join("app.log")), "c\n");
    assert_eq!(leftovers(dir.path()).len(), 2, "{:?}", names(dir.path()));
    assert!(!names(dir.path()).iter().any(|name| name.ends_with(".gz")));
    clock.advance_and_settle(start + 29_999);
    assert_eq!(leftovers(dir.path()).len(), 2, "{:?}", names(dir.path()));
    clock.set(start + 30_000);
    appender.wait_for_actions();
    assert_eq!(
        names(dir.path()),
        ["app-1.log.gz", "app-2.log.gz", "app.log"]
    );
    assert_eq!(contents(&dir.path().join("app-1.log.gz")), "a\n");
    assert_eq!(contents(&dir.path().join("app-2.log.gz")), "b\n");
    // Stopping does not wait out a delay: the work of a last rollover is done at once.
    log_at(&appender, "d", start + 30_000);
    appender.stop();
    assert_eq!(
        names(dir.path()),
        ["app-1.log.gz", "app-2.log.gz", "app-3.log.gz", "app.log"]
    );
    assert_eq!(contents(&dir.path().join("app-3.log.gz")), "c\n");
}

#[test]
fn a_failed_rollover_is_retried_after_a_second_on_the_rolling_clock() {
    let dir = TempDir::new("retry");
    // The archive's name is taken by a directory: the rollover fails before touching app.log.
    std::fs::create_dir_all(dir.path().join("app.old/occupied")).unwrap();
    let start = millis("2030-01-01T00:00:00Z");
    let clock = Arc::new(ManualClock::new(start));
    let capture = GlobalCapture::start();
    let appender = build_on(&rolling_file_xml(&dir, "app.old", SIZE_1), &clock);
    log_at(appender.as_ref(), "a", start);
    log_at(appender.as_ref(), "b", start);
    std::fs::remove_dir_all(dir.path().join("app.old")).unwrap();
    // The way is free, but the retry waits for the clock.
    clock.set(start + 999);
    log_at(appender.as_ref(), "c", start);
    assert_eq!(names(dir.path()), ["app.log"]);
    clock.set(start + 1_000);
    log_at(appender.as_ref(), "d", start);
    appender.stop();
    let errors = errors_about(&capture.records(), &dir.file("app.old"));
    assert_eq!(errors.len(), 1, "{errors:#?}");
    assert!(errors[0].contains("is a directory"), "{}", errors[0]);
    assert_files(dir.path(), &[("app.log", "d\n"), ("app.old", "a\nb\nc\n")]);
}
