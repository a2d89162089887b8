//! The rolling appenders against log4j2's documented behaviour: file names and indexes, which
//! file holds the triggering event, header and footer per file, compression, strategies,
//! policies with chosen event times, and many threads rolling at once.

use std::collections::HashMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use l4rs_appenders::{build_appender, ManualClock, RollingFileAppender};
use l4rs_config::model::AppenderKind;
use l4rs_core::{Appender, Layout, Level, LogEvent, Message, Timestamp};

/// `<message>\n`, with a header and footer naming nothing in particular.
struct Lines {
    header: &'static str,
    footer: &'static str,
}

impl Layout for Lines {
    fn format(&self, event: &LogEvent<'_>, out: &mut String) {
        event.message.write_to(out);
        out.push('\n');
    }
    fn header(&self, out: &mut String) {
        out.push_str(self.header);
    }
    fn footer(&self, out: &mut String) {
        out.push_str(self.footer);
    }
}

struct TempDir(PathBuf);

impl TempDir {
    fn new(label: &str) -> TempDir {
        static COUNTER: AtomicUsize = AtomicUsize::new(0);
        let path = std::env::temp_dir().join(format!(
            "l4rs-rolling-{}-{}-{label}",
            std::process::id(),
            COUNTER.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&path);
        std::fs::create_dir_all(&path).unwrap();
        TempDir(path)
    }
    fn join(&self, name: &str) -> String {
        self.0.join(name).to_string_lossy().into_owned()
    }
    /// The files in the directory (not hidden), sorted, with their contents.
    fn files(&self) -> Vec<(String, Vec<u8>)> {
        let mut files: Vec<(String, Vec<u8>)> = std::fs::read_dir(&self.0)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file())
            .map(|p| {
                (
                    p.file_name().unwrap().to_string_lossy().into_owned(),
                    std::fs::read(&p).unwrap(),
                )
            })
            .collect();
        files.sort();
        files
    }
    fn names(&self) -> Vec<String> {
        self.files().into_iter().map(|(name, _)| name).collect()
    }
    fn text(&self, name: &str) -> String {
        String::from_utf8(std::fs::read(self.0.join(name)).unwrap()).unwrap()
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Binds `appender_xml` with l4rs-config and builds it with [`Lines`].
fn build(appender_xml: &str, header: &'static str, footer: &'static str) -> Arc<dyn Appender> {
    let (kind, name) = spec(appender_xml);
    let spec = l4rs_config::model::AppenderSpec {
        name,
        ignore_exceptions: true,
        layout: None,
        filter: None,
        kind,
        position: None,
    };
    build_appender(&spec, Arc::new(Lines { header, footer })).unwrap()
}

fn spec(appender_xml: &str) -> (AppenderKind, String) {
    let xml = format!(
        "<Configuration><Appenders>{appender_xml}</Appenders><Loggers><Root level='info'/></Loggers></Configuration>"
    );
    let config = l4rs_config::load_str(&xml, None).unwrap();
    assert!(config.diagnostics.is_empty(), "{:#?}", config.diagnostics);
    let appender = &config.appenders[0];
    (appender.kind.clone(), appender.name.clone())
}

fn event_at(message: &'static str, millis: i64) -> LogEvent<'static> {
    let mut event = LogEvent::new("test", Level::INFO, Message::Text(message));
    event.timestamp = Timestamp::from_millis(millis);
    event
}

fn log(appender: &dyn Appender, message: &'static str) {
    appender
        .append(&event_at(message, Timestamp::now().epoch_millis))
        .unwrap();
}

fn millis(text: &str) -> i64 {
    text.parse::<jiff::Timestamp>().unwrap().as_millisecond()
}

fn leak(text: String) -> &'static str {
    Box::leak(text.into_boxed_str())
}

#[test]
fn size_policy_rolls_before_the_event_with_ascending_indexes() {
    let dir = TempDir::new("size");
    let appender = build(
        &format!(
            r#"<RollingFile name="R" fileName="{}" filePattern="{}">
                 <SizeBasedTriggeringPolicy size="10 B"/>
                 <DefaultRolloverStrategy max="3"/>
               </RollingFile>"#,
            dir.join("app.log"),
            dir.join("app-%i.log")
        ),
        "H\n",
        "F\n",
    );
    // 6 bytes each: the third event finds 12 > 10 bytes and goes into a new file.
    for message in [
        "one01", "two02", "thr03", "fou04", "fiv05", "six06", "sev07", "eig08", "nin09", "ten10",
    ] {
        log(appender.as_ref(), message);
    }
    appender.stop();
    // Five files were written (2 events each); max=3 keeps the three newest archives, the
    // newest with the highest index.
    assert_eq!(
        dir.names(),
        ["app-1.log", "app-2.log", "app-3.log", "app.log"]
    );
    assert_eq!(dir.text("app-1.log"), "H\nthr03\nfou04\nF\n");
    assert_eq!(dir.text("app-2.log"), "H\nfiv05\nsix06\nF\n");
    assert_eq!(dir.text("app-3.log"), "H\nsev07\neig08\nF\n");
    assert_eq!(dir.text("app.log"), "H\nnin09\nten10\nF\n");
}

#[test]
fn size_limit_is_strictly_greater_and_header_is_not_counted() {
    let dir = TempDir::new("strict");
    let appender = build(
        &format!(
            r#"<RollingRandomAccessFile name="R" fileName="{}" filePattern="{}">
                 <Policies><SizeBasedTriggeringPolicy size="12"/></Policies>
               </RollingRandomAccessFile>"#,
            dir.join("app.log"),
            dir.join("app.%i.log")
        ),
        "HEADER\n",
        "",
    );
    for message in ["aaaaa", "bbbbb", "ccccc", "ddddd"] {
        log(appender.as_ref(), message);
    }
    appender.stop();
    // Before the third event the file holds 12 bytes (the header does not count): not more
    // than 12, so it stays; before the fourth it holds 18 and rolls.
    assert_eq!(dir.names(), ["app.1.log", "app.log"]);
    assert_eq!(dir.text("app.1.log"), "HEADER\naaaaa\nbbbbb\nccccc\n");
    assert_eq!(dir.text("app.log"), "HEADER\nddddd\n");
}

#[test]
fn min_file_index_puts_the_newest_first() {
    let dir = TempDir::new("min");
    let appender = build(
        &format!(
            r#"<RollingFile name="R" fileName="{}" filePattern="{}">
                 <SizeBasedTriggeringPolicy size="1"/>
                 <DefaultRolloverStrategy fileIndex="min" max="2"/>
               </RollingFile>"#,
            dir.join("app.log"),
            dir.join("app-%i.log")
        ),
        "",
        "",
    );
    for message in ["a1", "b2", "c3", "d4"] {
        log(appender.as_ref(), message);
    }
    appender.stop();
    assert_eq!(dir.names(), ["app-1.log", "app-2.log", "app.log"]);
    assert_eq!(dir.text("app-1.log"), "c3\n");
    assert_eq!(dir.text("app-2.log"), "b2\n");
    assert_eq!(dir.text("app.log"), "d4\n");
}

#[test]
fn time_policy_uses_event_times_and_names_the_previous_period() {
    let dir = TempDir::new("time");
    let appender = build(
        &format!(
            r#"<RollingFile name="R" fileName="{}" filePattern="{}" append="false">
                 <TimeBasedTriggeringPolicy/>
               </RollingFile>"#,
            dir.join("app.log"),
            dir.join("app-%d{yyyy-MM-dd-HH}{UTC}.log.gz")
        ),
        "",
        "",
    );
    // The appender starts "now"; the first event far in the future rolls the (empty) file,
    // which is deleted rather than archived.
    appender
        .append(&event_at("first", millis("2030-05-01T10:15:00Z")))
        .unwrap();
    appender
        .append(&event_at("same hour", millis("2030-05-01T10:59:59.999Z")))
        .unwrap();
    appender
        .append(&event_at("next hour", millis("2030-05-01T11:00:00Z")))
        .unwrap();
    appender
        .append(&event_at("two hours on", millis("2030-05-01T13:30:00Z")))
        .unwrap();
    appender.stop();
    let files = dir.files();
    let names: Vec<&str> = files.iter().map(|(n, _)| n.as_str()).collect();
    assert_eq!(
        names,
        [
            "app-2030-05-01-10.log.gz",
            "app-2030-05-01-11.log.gz",
            "app.log"
        ]
    );
    let gunzip = |bytes: &[u8]| {
        let mut text = String::new();
        flate2::read::GzDecoder::new(bytes)
            .read_to_string(&mut text)
            .unwrap();
        text
    };
    assert_eq!(gunzip(&files[0].1), "first\nsame hour\n");
    assert_eq!(gunzip(&files[1].1), "next hour\n");
    assert_eq!(dir.text("app.log"), "two hours on\n");
}

#[test]
fn restart_the_next_day_rolls_yesterdays_file_under_yesterdays_date() {
    let dir = TempDir::new("restart");
    let path = dir.join("app.log");
    std::fs::write(&path, "yesterday\n").unwrap();
    let yesterday = std::time::UNIX_EPOCH
        + std::time::Duration::from_millis(millis("2030-01-01T12:00:00Z") as u64);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(yesterday)
        .unwrap();
    let appender = build(
        &format!(
            r#"<RollingFile name="R" fileName="{path}" filePattern="{}">
                 <TimeBasedTriggeringPolicy/>
               </RollingFile>"#,
            dir.join("app-%d{yyyy-MM-dd}{UTC}.log")
        ),
        "",
        "",
    );
    appender
        .append(&event_at("today", millis("2030-01-02T08:00:00Z")))
        .unwrap();
    appender.stop();
    assert_eq!(dir.names(), ["app-2030-01-01.log", "app.log"]);
    assert_eq!(dir.text("app-2030-01-01.log"), "yesterday\n");
    assert_eq!(dir.text("app.log"), "today\n");
}

#[test]
fn on_startup_rolls_a_file_older_than_the_process() {
    let dir = TempDir::new("startup");
    let path = dir.join("app.log");
    std::fs::write(&path, "previous run\n").unwrap();
    let hour_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(3600 * 24 * 365);
    std::fs::File::options()
        .write(true)
        .open(&path)
        .unwrap()
        .set_modified(hour_ago)
        .unwrap();
    let xml = format!(
        r#"<RollingFile name="R" fileName="{path}" filePattern="{}">
             <OnStartupTriggeringPolicy/>
           </RollingFile>"#,
        dir.join("app-%i.log.zip")
    );
    let appender = build(&xml, "", "");
    log(appender.as_ref(), "this run");
    appender.stop();
    assert_eq!(dir.names(), ["app-1.log.zip", "app.log"]);
    let mut archive =
        zip::ZipArchive::new(std::fs::File::open(dir.0.join("app-1.log.zip")).unwrap()).unwrap();
    let mut entry = archive.by_index(0).unwrap();
    assert_eq!(entry.name(), "app-1.log");
    let mut text = String::new();
    entry.read_to_string(&mut text).unwrap();
    assert_eq!(text, "previous run\n");
    assert_eq!(dir.text("app.log"), "this run\n");
    // A file written by this process is not rolled at the next start.
    drop(entry);
    let again = build(&xml, "", "");
    again.stop();
    assert_eq!(dir.names(), ["app-1.log.zip", "app.log"]);
}

#[test]
fn direct_write_names_the_current_file_with_the_pattern() {
    let dir = TempDir::new("direct");
    let appender = build(
        &format!(
            r#"<RollingFile name="R" filePattern="{}">
                 <SizeBasedTriggeringPolicy size="2"/>
                 <DirectWriteRolloverStrategy maxFiles="3"/>
               </RollingFile>"#,
            dir.join("app-%i.log.gz")
        ),
        "",
        "",
    );
    for message in ["aa", "bb", "cc", "dd", "ee"] {
        log(appender.as_ref(), message);
    }
    appender.stop();
    // Five files 1..5; maxFiles=3 keeps the newest three; closed files are compressed.
    assert_eq!(dir.names(), ["app-3.log.gz", "app-4.log.gz", "app-5.log"]);
    assert_eq!(dir.text("app-5.log"), "ee\n");
}

#[test]
fn delete_action_keeps_the_newest_archives() {
    let dir = TempDir::new("delete");
    let appender = build(
        &format!(
            r#"<RollingFile name="R" fileName="{}" filePattern="{}">
                 <SizeBasedTriggeringPolicy size="1"/>
                 <DefaultRolloverStrategy fileIndex="nomax">
                   <Delete basePath="{}" maxDepth="1">
                     <IfFileName glob="app-*.log"><IfAccumulatedFileCount exceeds="2"/></IfFileName>
                   </Delete>
                 </DefaultRolloverStrategy>
               </RollingFile>"#,
            dir.join("app.log"),
            dir.join("app-%i.log"),
            dir.0.display()
        ),
        "",
        "",
    );
    // Archives written within one millisecond are ordered by path, newest index first: the
    // same order as by time, so no waiting between events is needed.
    for message in ["a", "b", "c", "d", "e", "f"] {
        log(appender.as_ref(), message);
    }
    appender.stop();
    assert_eq!(dir.names(), ["app-4.log", "app-5.log", "app.log"]);
    assert_eq!(dir.text("app-5.log"), "e\n");
}

#[test]
fn cron_rolls_on_its_schedule_without_events() {
    let dir = TempDir::new("cron");
    let (kind, _) = spec(&format!(
        r#"<RollingFile name="R" fileName="{}" filePattern="{}">
             <CronTriggeringPolicy schedule="0 0 * * * ?"/>
           </RollingFile>"#,
        dir.join("app.log"),
        dir.join("app-%i.log")
    ));
    let AppenderKind::RollingFile(spec) = kind else {
        panic!("not a RollingFile")
    };
    let clock = Arc::new(ManualClock::new(millis("2030-01-01T10:30:00Z")));
    let appender = RollingFileAppender::with_clock(
        "R",
        &spec,
        Arc::new(Lines {
            header: "",
            footer: "",
        }),
        Arc::clone(&clock) as Arc<dyn l4rs_appenders::RolloverClock>,
    )
    .unwrap();
    log(&appender, "before eleven");
    clock.advance_and_settle(millis("2030-01-01T10:59:00Z"));
    assert_eq!(dir.names(), ["app.log"]);
    clock.advance_and_settle(millis("2030-01-01T11:00:00Z"));
    log(&appender, "after eleven");
    appender.stop();
    assert_eq!(dir.names(), ["app-1.log", "app.log"]);
    assert_eq!(dir.text("app-1.log"), "before eleven\n");
    assert_eq!(dir.text("app.log"), "after eleven\n");
}

#[test]
fn a_rollover_that_cannot_happen_keeps_writing_into_the_current_file() {
    let dir = TempDir::new("blocked");
    // The archive's name is taken by a non-empty directory: it cannot be replaced.
    std::fs::create_dir_all(dir.0.join("app-1.log/occupied")).unwrap();
    let appender = build(
        &format!(
            r#"<RollingFile name="R" fileName="{}" filePattern="{}">
                 <SizeBasedTriggeringPolicy size="1"/>
                 <DefaultRolloverStrategy max="1"/>
               </RollingFile>"#,
            dir.join("app.log"),
            dir.join("app-%i.log")
        ),
        "",
        "",
    );
    // The reports come from the worker: a process-wide capture sees them.
    let capture = l4rs_core::status::GlobalCapture::start();
    for message in ["a", "b", "c"] {
        log(appender.as_ref(), message);
    }
    appender.stop();
    let in_the_way = dir.join("app-1.log");
    let errors: Vec<String> = capture
        .records()
        .into_iter()
        .filter(|r| r.level == Level::ERROR && r.message.contains(&dir.0.display().to_string()))
        .map(|r| r.message)
        .collect();
    // As log4j2's purge does, each rollover tries to delete the lowest archive (the
    // directory), reports that it cannot, and moves it down one index out of the way.
    assert_eq!(errors.len(), 2, "{errors:#?}");
    assert!(
        errors[0].contains(&format!("Unable to delete {in_the_way}")),
        "{errors:#?}"
    );
    assert!(errors[1].contains("Unable to delete"), "{errors:#?}");
    // Every event is somewhere on disk, none twice.
    let mut all = String::new();
    for entry in walk(&dir.0) {
        if entry.is_file() {
            all.push_str(&std::fs::read_to_string(entry).unwrap());
        }
    }
    let mut lines: Vec<&str> = all.lines().collect();
    lines.sort();
    assert_eq!(lines, ["a", "b", "c"]);
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out
}

/// The record thread `thread` logs as its `n`-th event.
fn message(thread: usize, n: usize) -> String {
    format!("t{thread:02}-{n:06}-{}", "x".repeat(40))
}

/// Many threads through many rollovers: every event exactly once across the current and the
/// rolled (compressed) files, none torn, each thread's order kept.
fn concurrent(kind: &str, threads: usize, per_thread: usize) {
    let dir = TempDir::new(&format!("stress-{kind}-{threads}"));
    let appender = build(
        &format!(
            r#"<{kind} name="R" fileName="{}" filePattern="{}">
                 <SizeBasedTriggeringPolicy size="4 KB"/>
                 <DefaultRolloverStrategy fileIndex="nomax"/>
               </{kind}>"#,
            dir.join("app.log"),
            dir.join("app-%i.log.gz")
        ),
        "",
        "",
    );
    std::thread::scope(|scope| {
        for thread in 0..threads {
            let appender = Arc::clone(&appender);
            scope.spawn(move || {
                for n in 0..per_thread {
                    log(appender.as_ref(), leak(message(thread, n)));
                }
            });
        }
    });
    appender.stop();
    let mut by_index: Vec<(u64, String)> = Vec::new();
    for (name, bytes) in dir.files() {
        let text = if name.ends_with(".gz") {
            let mut text = String::new();
            flate2::read::GzDecoder::new(&bytes[..])
                .read_to_string(&mut text)
                .unwrap();
            text
        } else {
            String::from_utf8(bytes).unwrap()
        };
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
