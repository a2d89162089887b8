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

use std::path::Path;
use std::sync::Arc;

use l4rs_appenders::{ManualClock, RollingContext, RolloverClock};
use l4rs_core::{Appender, Layout, LogEvent};
use rolling_support::{bind, log_at, millis, names, set_modified, TempDir};

/// `<message>\n`, with the header `HEADER\n` and the footer `FOOTER\n`.
struct Framed;

impl Layout for Framed {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        event.message.write_to(out);
        out.push('\n');
    }

    fn header(&self, out: &mut String) {
        out.push_str("HEADER\n");
    }

    fn footer(&self, out: &mut String) {
        out.push_str("FOOTER\n");
    }
}

/// What a previous run with [`Framed`] left in `app.log`.
const PREVIOUS_RUN: &str = "HEADER\nold line\nFOOTER\n";

/// The three rolling appenders' element names.
const KINDS: [&str; 3] = [
    "RollingFile",
    "RollingRandomAccessFile",
    "RollingMemoryMappedFile",
];

/// What [`Framed`]'s header is in a new file of `kind`: nothing for the memory-mapped one.
fn header(kind: &str) -> &'static str {
    if kind == "RollingMemoryMappedFile" {
        ""
    } else {
        "HEADER\n"
    }
}

/// Writes `text` into `path`, dated long before this process started.
fn seed(path: &Path, text: &str, dated: &str) {
    std::fs::write(path, text).unwrap();
    set_modified(path, millis(dated));
}

/// Builds a `kind` appender on `dir/app.log` with `policies` and [`Framed`], on `clock`.
fn build(
    kind: &str,
    dir: &TempDir,
    file_pattern: &str,
    policies: &str,
    clock: &Arc<ManualClock>,
) -> Arc<dyn Appender> {
    let xml = format!(
        r#"<{kind} name="R" fileName="{}" filePattern="{}">{policies}</{kind}>"#,
        dir.join("app.log"),
        dir.join(file_pattern)
    );
    let (spec, diagnostics) = bind(&xml);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    let context = RollingContext {
        clock: Arc::clone(clock) as Arc<dyn RolloverClock>,
        ..RollingContext::default()
    };
    l4rs_appenders::build_appender_with(&spec, Arc::new(Framed), &context).unwrap()
}

/// Logs `event 1` … `event {count}`, one millisecond apart from `from`.
fn log_events(appender: &dyn Appender, count: usize, from: i64) {
    for number in 1..=count {
        log_at(appender, &format!("event {number}"), from + number as i64);
    }
}

fn text(dir: &TempDir, name: &str) -> String {
    std::fs::read_to_string(dir.0.join(name)).unwrap()
}

#[test]
fn on_startup_archives_the_previous_run_without_a_second_footer() {
    for kind in KINDS {
        let dir = TempDir::new("startup-footer");
        seed(&dir.0.join("app.log"), PREVIOUS_RUN, "2020-01-01T12:00:00Z");
        let clock = Arc::new(ManualClock::new(millis("2030-01-01T00:00:00Z")));
        let appender = build(
            kind,
            &dir,
            "app-%i.log",
            "<OnStartupTriggeringPolicy/>",
            &clock,
        );
        log_events(appender.as_ref(), 5, millis("2030-01-01T00:00:00Z"));
        appender.stop();
        assert_eq!(names(&dir.0), ["app-1.log", "app.log"], "{kind}");
        assert_eq!(text(&dir, "app-1.log"), PREVIOUS_RUN, "{kind}");
        assert_eq!(
            text(&dir, "app.log"),
            format!(
                "{}event 1\nevent 2\nevent 3\nevent 4\nevent 5\nFOOTER\n",
                header(kind)
            ),
            "{kind}"
        );
    }
}

#[test]
fn a_size_triggered_rollover_writes_the_footer() {
    for kind in KINDS {
        let dir = TempDir::new("size-footer");
        let clock = Arc::new(ManualClock::new(millis("2030-01-01T00:00:00Z")));
        // 20 bytes: the header aside, `event 4` finds 24 bytes written and rolls first.
        let appender = build(
            kind,
            &dir,
            "app-%i.log",
            r#"<SizeBasedTriggeringPolicy size="20"/>"#,
            &clock,
        );
        log_events(appender.as_ref(), 5, millis("2030-01-01T00:00:00Z"));
        appender.stop();
        assert_eq!(names(&dir.0), ["app-1.log", "app.log"], "{kind}");
        assert_eq!(
            text(&dir, "app-1.log"),
            format!("{}event 1\nevent 2\nevent 3\nFOOTER\n", header(kind)),
            "{kind}"
        );
        assert_eq!(
            text(&dir, "app.log"),
            format!("{}event 4\nevent 5\nFOOTER\n", header(kind)),
            "{kind}"
        );
    }
}

#[test]
fn on_startup_and_size_together_skip_the_footer_only_at_startup() {
    for kind in KINDS {
        let dir = TempDir::new("both-footer");
        seed(&dir.0.join("app.log"), PREVIOUS_RUN, "2020-01-01T12:00:00Z");
        let clock = Arc::new(ManualClock::new(millis("2030-01-01T00:00:00Z")));
        let appender = build(
            kind,
            &dir,
            "app-%i.log",
            r#"<Policies><SizeBasedTriggeringPolicy size="20"/><OnStartupTriggeringPolicy/></Policies>"#,
            &clock,
        );
        log_events(appender.as_ref(), 5, millis("2030-01-01T00:00:00Z"));
        appender.stop();
        assert_eq!(
            names(&dir.0),
            ["app-1.log", "app-2.log", "app.log"],
            "{kind}"
        );
        assert_eq!(text(&dir, "app-1.log"), PREVIOUS_RUN, "{kind}");
        assert_eq!(
            text(&dir, "app-2.log"),
            format!("{}event 1\nevent 2\nevent 3\nFOOTER\n", header(kind)),
            "{kind}"
        );
        assert_eq!(
            text(&dir, "app.log"),
            format!("{}event 4\nevent 5\nFOOTER\n", header(kind)),
            "{kind}"
        );
    }
}

#[test]
fn the_first_event_of_a_later_period_rolls_with_the_footer() {
    for kind in KINDS {
        let dir = TempDir::new("time-footer");
        seed(&dir.0.join("app.log"), PREVIOUS_RUN, "2030-01-01T12:00:00Z");
        let clock = Arc::new(ManualClock::new(millis("2030-01-02T08:00:00Z")));
        let appender = build(
            kind,
            &dir,
            "app-%d{yyyy-MM-dd}{UTC}.log",
            "<TimeBasedTriggeringPolicy/>",
            &clock,
        );
        log_events(appender.as_ref(), 3, millis("2030-01-02T08:00:00Z"));
        appender.stop();
        assert_eq!(names(&dir.0), ["app-2030-01-01.log", "app.log"], "{kind}");
        assert_eq!(
            text(&dir, "app-2030-01-01.log"),
            format!("{PREVIOUS_RUN}FOOTER\n"),
            "{kind}"
        );
        assert_eq!(
            text(&dir, "app.log"),
            format!("{}event 1\nevent 2\nevent 3\nFOOTER\n", header(kind)),
            "{kind}"
        );
    }
}

#[test]
fn cron_evaluate_on_startup_rolls_with_the_footer() {
    for kind in KINDS {
        let dir = TempDir::new("cron-footer");
        // Written at 10:30; the clock says 11:30, so the 11:00 fire time was missed.
        seed(&dir.0.join("app.log"), PREVIOUS_RUN, "2030-01-01T10:30:00Z");
        let clock = Arc::new(ManualClock::new(millis("2030-01-01T11:30:00Z")));
        let appender = build(
            kind,
            &dir,
            "app-%i.log",
            r#"<CronTriggeringPolicy schedule="0 0 * * * ?" evaluateOnStartup="true"/>"#,
            &clock,
        );
        log_events(appender.as_ref(), 1, millis("2030-01-01T11:30:00Z"));
        appender.stop();
        assert_eq!(names(&dir.0), ["app-1.log", "app.log"], "{kind}");
        assert_eq!(
            text(&dir, "app-1.log"),
            format!("{PREVIOUS_RUN}FOOTER\n"),
            "{kind}"
        );
        assert_eq!(
            text(&dir, "app.log"),
            format!("{}event 1\nFOOTER\n", header(kind)),
            "{kind}"
        );
    }
}

#[test]
fn with_cron_and_on_startup_the_first_listed_decides_the_footer() {
    let cron = r#"<CronTriggeringPolicy schedule="0 0 * * * ?" evaluateOnStartup="true"/>"#;
    let on_startup = "<OnStartupTriggeringPolicy/>";
    for kind in KINDS {
        for (policies, archive) in [
            (
                format!("<Policies>{cron}{on_startup}</Policies>"),
                format!("{PREVIOUS_RUN}FOOTER\n"),
            ),
            (
                format!("<Policies>{on_startup}{cron}</Policies>"),
                PREVIOUS_RUN.to_string(),
            ),
        ] {
            let dir = TempDir::new("cron-startup-footer");
            // Dated in 2020: before this process (OnStartup) and before the clock's 11:00 fire
            // time (cron).
            seed(&dir.0.join("app.log"), PREVIOUS_RUN, "2020-01-01T10:30:00Z");
            let clock = Arc::new(ManualClock::new(millis("2020-01-01T11:30:00Z")));
            let appender = build(kind, &dir, "app-%i.log", &policies, &clock);
            log_events(appender.as_ref(), 1, millis("2020-01-01T11:30:00Z"));
            appender.stop();
            // One rollover, not two.
            assert_eq!(names(&dir.0), ["app-1.log", "app.log"], "{kind} {policies}");
            assert_eq!(text(&dir, "app-1.log"), archive, "{kind} {policies}");
            assert_eq!(
                text(&dir, "app.log"),
                format!("{}event 1\nFOOTER\n", header(kind)),
                "{kind} {policies}"
            );
        }
    }
}
