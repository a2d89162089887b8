//! Which rollovers write the layout's footer into the file they roll, checked byte for byte for
//! the three rolling appenders (RollingMemoryMappedFile behaves as RollingFile, except that it
//! never writes a header, as MemoryMappedFile does not).
//!
//! What log4j2 2.19 writes was taken from the oracle (`/work/shared/oracle`, with the current
//! file created before the JVM started so that `OnStartupTriggeringPolicy` fires):
//! * `OnStartupTriggeringPolicy` rolls the previous run's file as it is: that run already ended
//!   it with its footer, and log4j2 skips the footer for this one rollover (`skipFooter`).
//! * Every other rollover writes the footer into the file it closes: a size-triggered one
//!   during the run, the first event finding the file from an earlier period, and
//!   `CronTriggeringPolicy evaluateOnStartup` (so the last two archive the previous run's
//!   footer followed by a second one).
//! * Under `<Policies>` the policies start in document order and only the first startup
//!   rollover happens, so a cron policy listed before OnStartup decides (footer written).

mod rolling_support;

use std::ops::RangeInclusive;
use std::sync::Arc;

use l4rs_appenders::ManualClock;
use rolling_support::{
    build_with_layout_on, log_at, millis, names, rolling_xml, set_modified, LineLayout, TempDir,
};

/// `<message>\n`, with the header `HEADER\n` and the footer `FOOTER\n`.
const FRAMED: LineLayout = LineLayout::with_header_footer("HEADER\n", "FOOTER\n");

/// What a previous run with [`FRAMED`] left in `app.log`.
const PREVIOUS_RUN: &str = "HEADER\nold line\nFOOTER\n";

/// The three rolling appenders' element names.
const KINDS: [&str; 3] = [
    "RollingFile",
    "RollingRandomAccessFile",
    "RollingMemoryMappedFile",
];

/// Archives named by index.
const INDEXED: &str = "app-%i.log";
const ON_STARTUP: &str = "<OnStartupTriggeringPolicy/>";
/// 20 bytes: the header aside, `event 4` finds 24 bytes written and rolls first.
const SIZE_20: &str = r#"<SizeBasedTriggeringPolicy size="20"/>"#;
/// Hourly, and the fire time missed while the process was not running counts.
const CRON_ON_STARTUP: &str =
    r#"<CronTriggeringPolicy schedule="0 0 * * * ?" evaluateOnStartup="true"/>"#;

/// What [`FRAMED`]'s header is in a new file of `kind`: nothing for the memory-mapped one.
fn header(kind: &str) -> &'static str {
    if kind == "RollingMemoryMappedFile" {
        ""
    } else {
        "HEADER\n"
    }
}

/// The text of a file of `kind` this run created and closed: its header, `event {n}` for each
/// of `events`, the footer.
fn written(kind: &str, events: RangeInclusive<usize>) -> String {
    let mut text = header(kind).to_string();
    for number in events {
        text += &format!("event {number}\n");
    }
    text + "FOOTER\n"
}

/// [`PREVIOUS_RUN`] with the footer written a second time, by a rollover that did not skip it.
fn previous_run_footed_again() -> String {
    format!("{PREVIOUS_RUN}FOOTER\n")
}

/// Puts [`PREVIOUS_RUN`] in `dir/app.log`, last modified at `dated`.
fn seed_previous_run(dir: &TempDir, dated: &str) {
    let path = dir.path().join("app.log");
    std::fs::write(&path, PREVIOUS_RUN).unwrap();
    set_modified(&path, millis(dated));
}

/// Runs a `kind` appender on `dir/app.log` with `policies` and [`FRAMED`], its archives named by
/// `file_pattern` in `dir`: the clock starts at `now`, `event 1` … `event {events}` are logged one
/// millisecond apart from `now`, and the appender is stopped.
fn run(kind: &str, dir: &TempDir, file_pattern: &str, policies: &str, now: &str, events: usize) {
    let now = millis(now);
    let clock = Arc::new(ManualClock::new(now));
    let xml = rolling_xml(
        kind,
        &dir.file("app.log"),
        &dir.file(file_pattern),
        policies,
    );
    let appender = build_with_layout_on(&xml, Arc::new(FRAMED), &clock);
    for number in 1..=events {
        log_at(
            appender.as_ref(),
            &format!("event {number}"),
            now + number as i64,
        );
    }
    appender.stop();
}

/// Checks that `dir` holds exactly the files `expected` names (in name order), each with its
/// text.
fn expect_files(dir: &TempDir, expected: &[(&str, String)], context: &str) {
    let expected_names: Vec<&str> = expected.iter().map(|(name, _)| *name).collect();
    assert_eq!(names(dir.path()), expected_names, "{context}");
    for (name, text) in expected {
        let actual = std::fs::read_to_string(dir.path().join(name)).unwrap();
        assert_eq!(&actual, text, "{context}: {name}");
    }
}

#[test]
fn on_startup_archives_the_previous_run_without_a_second_footer() {
    for kind in KINDS {
        let dir = TempDir::new("startup-footer");
        seed_previous_run(&dir, "2020-01-01T12:00:00Z");
        run(kind, &dir, INDEXED, ON_STARTUP, "2030-01-01T00:00:00Z", 5);
        let expected = [
            ("app-1.log", PREVIOUS_RUN.to_string()),
            ("app.log", written(kind, 1..=5)),
        ];
        expect_files(&dir, &expected, kind);
    }
}

#[test]
fn a_size_triggered_rollover_writes_the_footer() {
    for kind in KINDS {
        let dir = TempDir::new("size-footer");
        run(kind, &dir, INDEXED, SIZE_20, "2030-01-01T00:00:00Z", 5);
        let expected = [
            ("app-1.log", written(kind, 1..=3)),
            ("app.log", written(kind, 4..=5)),
        ];
        expect_files(&dir, &expected, kind);
    }
}

#[test]
fn on_startup_and_size_together_skip_the_footer_only_at_startup() {
    let policies = format!("<Policies>{SIZE_20}{ON_STARTUP}</Policies>");
    for kind in KINDS {
        let dir = TempDir::new("both-footer");
        seed_previous_run(&dir, "2020-01-01T12:00:00Z");
        run(kind, &dir, INDEXED, &policies, "2030-01-01T00:00:00Z", 5);
        let expected = [
            ("app-1.log", PREVIOUS_RUN.to_string()),
            ("app-2.log", written(kind, 1..=3)),
            ("app.log", written(kind, 4..=5)),
        ];
        expect_files(&dir, &expected, kind);
    }
}

#[test]
fn the_first_event_of_a_later_period_rolls_with_the_footer() {
    for kind in KINDS {
        let dir = TempDir::new("time-footer");
        seed_previous_run(&dir, "2030-01-01T12:00:00Z");
        let daily = "app-%d{yyyy-MM-dd}{UTC}.log";
        let time_based = "<TimeBasedTriggeringPolicy/>";
        run(kind, &dir, daily, time_based, "2030-01-02T08:00:00Z", 3);
        let expected = [
            ("app-2030-01-01.log", previous_run_footed_again()),
            ("app.log", written(kind, 1..=3)),
        ];
        expect_files(&dir, &expected, kind);
    }
}

#[test]
fn cron_evaluate_on_startup_rolls_with_the_footer() {
    for kind in KINDS {
        let dir = TempDir::new("cron-footer");
        // Written at 10:30; the clock says 11:30, so the 11:00 fire time was missed.
        seed_previous_run(&dir, "2030-01-01T10:30:00Z");
        run(
            kind,
            &dir,
            INDEXED,
            CRON_ON_STARTUP,
            "2030-01-01T11:30:00Z",
            1,
        );
        let expected = [
            ("app-1.log", previous_run_footed_again()),
            ("app.log", written(kind, 1..=1)),
        ];
        expect_files(&dir, &expected, kind);
    }
}

#[test]
fn with_cron_and_on_startup_the_first_listed_decides_the_footer() {
    for kind in KINDS {
        for (policies, archive) in [
            (
                format!("<Policies>{CRON_ON_STARTUP}{ON_STARTUP}</Policies>"),
                previous_run_footed_again(),
            ),
            (
                format!("<Policies>{ON_STARTUP}{CRON_ON_STARTUP}</Policies>"),
                PREVIOUS_RUN.to_string(),
            ),
        ] {
            let dir = TempDir::new("cron-startup-footer");
            // Dated in 2020: before this process (OnStartup) and before the clock's 11:00 fire
            // time (cron).
            seed_previous_run(&dir, "2020-01-01T10:30:00Z");
            run(kind, &dir, INDEXED, &policies, "2020-01-01T11:30:00Z", 1);
            // One rollover, not two.
            let expected = [("app-1.log", archive), ("app.log", written(kind, 1..=1))];
            expect_files(&dir, &expected, &format!("{kind} {policies}"));
        }
    }
}
