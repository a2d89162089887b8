//! Reload under load: four threads log through three loggers while the configuration is
//! replaced 50 times (the layout of the same file changes, the appender writing it is renamed,
//! another appender comes and goes, levels of other loggers change), and go on after the last
//! reload. Every event must appear exactly once, in each thread's order (through each logger
//! and across the three), under the old or the new layout, with no NUL byte and nothing
//! truncated, for each kind of file appender, behind an AsyncLogger and an Async appender,
//! with the root switching between asynchronous and synchronous at every reload, and with the
//! type of the appender writing the file changing at every reload. Halfway through, a file that
//! does not parse is refused and logging goes on unchanged.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

/// Serialises the tests of this file: they replace the one process-wide configuration.
fn turn() -> MutexGuard<'static, ()> {
    static TURN: Mutex<()> = Mutex::new(());
    TURN.lock().unwrap_or_else(|e| e.into_inner())
}

const THREADS: usize = 4;
const REWRITES: usize = 50;
/// How many events each thread logs after the last reload before the threads stop.
const EVENTS_AFTER_LAST_RELOAD: usize = 20;
/// The pause between two rounds of a thread's events: the threads log throughout the reloads
/// (pacing by time, not by count, which a fast machine used up before most reloads) without
/// writing megabytes.
const PACE: Duration = Duration::from_micros(100);

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    File,
    RandomAccessFile,
    MemoryMappedFile,
    Rolling,
    AsyncLogger,
    AsyncAppender,
    /// `<AsyncRoot>` in odd versions, `<Root>` in even ones, on the same File.
    AsyncLoggerThenSynchronous,
    /// Through an Async appender in odd versions, straight to the File in even ones.
    AsyncAppenderThenSynchronous,
    /// File, RandomAccessFile (`append="false"`, which must not truncate the file it takes
    /// over) and MemoryMappedFile in turn on the same file.
    ChangingType,
}

impl Kind {
    /// The kind of the appender writing the main file in `version`, and whether an Async
    /// appender stands in front of it and whether the root is asynchronous.
    fn in_version(self, version: usize) -> (Kind, bool, bool) {
        let odd = !version.is_multiple_of(2);
        match self {
            Kind::AsyncLogger => (Kind::File, false, true),
            Kind::AsyncAppender => (Kind::File, true, false),
            Kind::AsyncLoggerThenSynchronous => (Kind::File, false, odd),
            Kind::AsyncAppenderThenSynchronous => (Kind::File, odd, false),
            Kind::ChangingType => (
                [Kind::File, Kind::RandomAccessFile, Kind::MemoryMappedFile][version % 3],
                false,
                false,
            ),
            kind => (kind, false, false),
        }
    }
}

/// The appender writing `main.log`, named `name`, with `pattern`.
fn main_appender(kind: Kind, dir: &Path, name: &str, pattern: &str) -> String {
    let dir = dir.display();
    let layout = format!(r#"<PatternLayout pattern="{pattern}"/>"#);
    match kind {
        Kind::RandomAccessFile => format!(
            r#"<RandomAccessFile name="{name}" fileName="{dir}/main.log" immediateFlush="false" append="false">{layout}</RandomAccessFile>"#
        ),
        Kind::MemoryMappedFile => format!(
            r#"<MemoryMappedFile name="{name}" fileName="{dir}/main.log" regionLength="65536">{layout}</MemoryMappedFile>"#
        ),
        Kind::Rolling => format!(
            r#"<RollingFile name="{name}" fileName="{dir}/main.log" filePattern="{dir}/rolled-%i.log" immediateFlush="false">{layout}<SizeBasedTriggeringPolicy size="64 KB"/><DefaultRolloverStrategy max="100000"/></RollingFile>"#
        ),
        _ => format!(
            r#"<File name="{name}" fileName="{dir}/main.log" bufferedIO="true" immediateFlush="false">{layout}</File>"#
        ),
    }
}

/// Version `version` of the configuration: the main file's appender is renamed every other
/// version and its pattern changes every third, an Extra appender exists in odd versions, and
/// the `noise` logger's level flips.
fn configuration(kind: Kind, dir: &Path, version: usize) -> String {
    let main = if version.is_multiple_of(2) {
        "MainA"
    } else {
        "MainB"
    };
    let pattern = if version.is_multiple_of(3) {
        "A|%m%n"
    } else {
        "B|%m%n"
    };
    let (main_kind, through_queue, asynchronous_root) = kind.in_version(version);
    let mut appenders = main_appender(main_kind, dir, main, pattern);
    let mut loggers = format!(
        r#"<Logger name="noise" level="{}"/>"#,
        if version.is_multiple_of(2) {
            "warn"
        } else {
            "debug"
        }
    );
    if !version.is_multiple_of(2) {
        appenders.push_str(&format!(
            r#"<File name="Extra" fileName="{}/extra.log"><PatternLayout pattern="%m%n"/></File>"#,
            dir.display()
        ));
        loggers
            .push_str(r#"<Logger name="extra" level="info"><AppenderRef ref="Extra"/></Logger>"#);
    }
    let mut target = main.to_string();
    if through_queue {
        appenders.push_str(&format!(
            r#"<Async name="Queue" bufferSize="256"><AppenderRef ref="{main}"/></Async>"#
        ));
        target = "Queue".to_string();
    }
    let root = if asynchronous_root {
        "AsyncRoot"
    } else {
        "Root"
    };
    format!(
        r#"<Configuration><Appenders>{appenders}</Appenders><Loggers>{loggers}<{root} level="info"><AppenderRef ref="{target}"/></{root}></Loggers></Configuration>"#
    )
}

/// Where the threads stand: `stop` ends them, `reloaded` is set after the last reload, and
/// `logged_after` counts each thread's rounds begun after it.
struct Progress {
    stop: AtomicBool,
    reloaded: AtomicBool,
    logged_after: [AtomicUsize; THREADS],
}

/// Logs rounds of `T<thread> <n>` (INFO, load.t<thread>), `N<thread> <n>` (DEBUG, noise: shown
/// in odd versions only) and `E<thread> <n>` (INFO, extra) until `stop`; returns the rounds.
fn log_until(thread: usize, progress: &Progress) -> usize {
    let logger = l4rs::get_logger(&format!("load.t{thread}"));
    let noise = l4rs::get_logger("noise");
    let extra = l4rs::get_logger("extra");
    let mut sequence = 0;
    while !progress.stop.load(Ordering::Relaxed) {
        let after = progress.reloaded.load(Ordering::Acquire);
        l4rs::info!(logger, "T{thread} {sequence}");
        l4rs::debug!(noise, "N{thread} {sequence}");
        l4rs::info!(extra, "E{thread} {sequence}");
        sequence += 1;
        if after {
            progress.logged_after[thread].fetch_add(1, Ordering::Relaxed);
        }
        std::thread::sleep(PACE);
    }
    sequence
}

/// The main file's lines, the rolled files first (oldest first) for the rolling appender.
fn main_lines(dir: &Path) -> Vec<String> {
    let mut rolled: Vec<(u64, PathBuf)> = std::fs::read_dir(dir)
        .expect("dir")
        .filter_map(|entry| {
            let path = entry.ok()?.path();
            let name = path.file_name()?.to_str()?.to_string();
            let index = name
                .strip_prefix("rolled-")?
                .strip_suffix(".log")?
                .parse()
                .ok()?;
            Some((index, path))
        })
        .collect();
    rolled.sort();
    let mut text = Vec::new();
    for path in rolled
        .into_iter()
        .map(|(_, path)| path)
        .chain([dir.join("main.log")])
    {
        text.extend(std::fs::read(&path).expect("read"));
    }
    assert!(!text.contains(&0), "a NUL byte in the output");
    String::from_utf8(text)
        .expect("UTF-8")
        .lines()
        .map(str::to_string)
        .collect()
}

fn reload_under_load(kind: Kind, name: &str) {
    let _turn = turn();
    let dir = l4rs_tests::fresh_output_dir(name);
    let files: Vec<PathBuf> = (0..=REWRITES)
        .map(|version| {
            let path = dir.join(format!("v{version}.xml"));
            std::fs::write(&path, configuration(kind, &dir, version)).expect("write");
            path
        })
        .collect();
    l4rs::init_with_file(&files[0]).expect("loads cleanly");
    let progress = Arc::new(Progress {
        stop: AtomicBool::new(false),
        reloaded: AtomicBool::new(false),
        logged_after: Default::default(),
    });
    let threads: Vec<_> = (0..THREADS)
        .map(|thread| {
            let progress = Arc::clone(&progress);
            std::thread::spawn(move || log_until(thread, &progress))
        })
        .collect();
    let broken = dir.join("broken.xml");
    std::fs::write(&broken, "<Configuration><Appenders><File name=").expect("write");
    for (version, file) in files.iter().enumerate().skip(1) {
        std::thread::sleep(Duration::from_millis(10));
        if version == REWRITES / 2 {
            // A broken rewrite in the middle: refused, and the running configuration goes on.
            let error = l4rs::reconfigure_with_file(&broken).expect_err("does not parse");
            assert!(matches!(error, l4rs::Error::Config(_)), "{error:?}");
            std::thread::sleep(Duration::from_millis(10));
        }
        l4rs::reconfigure_with_file(file).expect("loads cleanly");
    }
    progress.reloaded.store(true, Ordering::Release);
    let deadline = std::time::Instant::now() + Duration::from_secs(10);
    while progress
        .logged_after
        .iter()
        .any(|count| count.load(Ordering::Relaxed) < EVENTS_AFTER_LAST_RELOAD)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "a thread stopped logging after the last reload"
        );
        std::thread::sleep(Duration::from_millis(1));
    }
    progress.stop.store(true, Ordering::Relaxed);
    let logged: Vec<usize> = threads
        .into_iter()
        .map(|thread| thread.join().expect("logging thread"))
        .collect();
    // A configuration without the main file closes its manager (the memory-mapped file is cut
    // to what was written), after every queued event reached it.
    let park = dir.join("park.xml");
    std::fs::write(
        &park,
        r#"<Configuration><Loggers><Root level="off"/></Loggers></Configuration>"#,
    )
    .expect("write");
    l4rs::reconfigure_with_file(&park).expect("loads cleanly");

    // Per thread: the next T and E due (every one reaches the main file: `extra` is additive),
    // the last N seen (only odd versions show them), and the last event of any of the three.
    let mut next: HashMap<(usize, char), usize> = HashMap::new();
    let mut last_noise: HashMap<usize, usize> = HashMap::new();
    let mut last_event: HashMap<usize, (usize, u8)> = HashMap::new();
    for line in main_lines(&dir) {
        let body = line
            .strip_prefix("A|")
            .or_else(|| line.strip_prefix("B|"))
            .unwrap_or_else(|| panic!("a line under no layout: {line:?}"));
        let (logger, thread, sequence) = body
            .split_once(' ')
            .and_then(|(head, sequence)| {
                let mut head = head.chars();
                let logger = head.next()?;
                Some((
                    logger,
                    head.as_str().parse::<usize>().ok()?,
                    sequence.parse::<usize>().ok()?,
                ))
            })
            .filter(|(logger, _, _)| matches!(logger, 'T' | 'N' | 'E'))
            .unwrap_or_else(|| panic!("a damaged line: {line:?}"));
        if logger == 'N' {
            let last = last_noise.insert(thread, sequence);
            assert!(
                last.is_none_or(|last| last < sequence),
                "thread {thread}: noise {sequence} after {last:?}"
            );
        } else {
            let expected = next.entry((thread, logger)).or_default();
            assert_eq!(
                sequence, *expected,
                "thread {thread}: {logger} {sequence} where {expected} was due"
            );
            *expected += 1;
        }
        // Across the loggers too: every logger moves to the new configuration at once, so an
        // event a thread logs into a new queue (held until the old queues drain) is never
        // followed by one it logs next through the old configuration.
        let rank = match logger {
            'T' => 0,
            'N' => 1,
            _ => 2,
        };
        let last = last_event.insert(thread, (sequence, rank));
        assert!(
            last.is_none_or(|last| last < (sequence, rank)),
            "thread {thread}: {logger} {sequence} after {last:?}"
        );
    }
    for (thread, count) in logged.iter().enumerate() {
        for logger in ['T', 'E'] {
            assert_eq!(
                next.get(&(thread, logger)).copied().unwrap_or(0),
                *count,
                "thread {thread} logged {count} rounds ({logger})"
            );
        }
    }
    assert!(logged.iter().all(|&count| count > EVENTS_AFTER_LAST_RELOAD));
    assert!(!last_noise.is_empty(), "no debug event of noise was shown");
}

#[test]
fn file() {
    reload_under_load(Kind::File, "reconfigure-load-file");
}

#[test]
fn random_access_file() {
    reload_under_load(Kind::RandomAccessFile, "reconfigure-load-raf");
}

#[test]
fn memory_mapped_file() {
    reload_under_load(Kind::MemoryMappedFile, "reconfigure-load-mmf");
}

#[test]
fn rolling_file() {
    reload_under_load(Kind::Rolling, "reconfigure-load-rolling");
}

#[test]
fn behind_an_async_logger() {
    reload_under_load(Kind::AsyncLogger, "reconfigure-load-async-logger");
}

#[test]
fn behind_an_async_appender() {
    reload_under_load(Kind::AsyncAppender, "reconfigure-load-async-appender");
}

#[test]
fn from_an_async_logger_to_synchronous_and_back() {
    reload_under_load(
        Kind::AsyncLoggerThenSynchronous,
        "reconfigure-load-async-logger-sync",
    );
}

#[test]
fn from_an_async_appender_to_synchronous_and_back() {
    reload_under_load(
        Kind::AsyncAppenderThenSynchronous,
        "reconfigure-load-async-appender-sync",
    );
}

#[test]
fn the_type_of_the_appender_on_the_file_changes() {
    reload_under_load(Kind::ChangingType, "reconfigure-load-changing-type");
}
