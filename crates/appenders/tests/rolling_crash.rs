//! A process rolling over as fast as it can is killed with SIGKILL, five times over into the
//! same files; a rollover leaves hidden staging files (the renamed current file, waiting for
//! the worker) and partial archives (a compression in progress) that such a kill strands.
//! The next start must archive the staging files and delete the partial archives, so that:
//!
//! * no `.l4rs-rolling` file is left;
//! * every event whose `append` had returned (the child acknowledges each one on a pipe) is in
//!   exactly one file, and each thread's events of each run keep their order across the
//!   archives (by index) and the current file;
//! * every archive decompresses (none was left truncated under its final name).
//!
//! The child is this test binary itself, started with `L4RS_ROLLING_CRASH_CHILD` set.
//!
//! A RollingMemoryMappedFile killed between a rollover's rename and the close leaves a staging
//! file padded with NULs: the next start archives it without them.

mod rolling_support;

use std::collections::HashMap;
use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;
use std::time::{Duration, Instant};

use l4rs_appenders::{RollingContext, RollingFileAppender};
use l4rs_core::status;
use l4rs_core::Appender as _;
use l4rs_test_support::dead_pid;
use rolling_support::{
    archives_then_current, assert_files, contents, kill_after_acks, leftovers, log_now,
    rolling_file_in, rolling_memory_mapped_in, rolling_xml, set_modified, TempDir,
};

const CHILD_ENV: &str = "L4RS_ROLLING_CRASH_CHILD";
const THREADS: usize = 4;
const KILLED_RUNS: u32 = 5;

fn appender(dir: &Path) -> RollingFileAppender {
    let dir = dir.display();
    let xml = rolling_xml(
        "RollingFile",
        &format!("{dir}/app.log"),
        &format!("{dir}/app-%i.log.gz"),
        r#"<SizeBasedTriggeringPolicy size="4 KB"/>
           <DefaultRolloverStrategy fileIndex="nomax" compressionLevel="9"/>"#,
    );
    rolling_file_in(&xml, &RollingContext::default())
}

/// The child: four threads log `run thread sequence payload` until killed, acknowledging each
/// event on stdout once `append` returned.
#[test]
fn child_entry() {
    let Ok(dir) = std::env::var(CHILD_ENV) else {
        return;
    };
    let run: u32 = std::env::var("L4RS_ROLLING_CRASH_RUN")
        .unwrap()
        .parse()
        .unwrap();
    let appender = Arc::new(appender(Path::new(&dir)));
    let threads: Vec<_> = (0..THREADS)
        .map(|thread| {
            let appender = Arc::clone(&appender);
            std::thread::spawn(move || {
                for sequence in 0u64.. {
                    let line = format!("{run} {thread} {sequence} payload-0123456789abcdef");
                    log_now(appender.as_ref(), &line);
                    let mut out = std::io::stdout().lock();
                    if writeln!(out, "{thread} {sequence}").is_err() {
                        // The parent is gone: stop rather than fill the disk.
                        std::process::exit(1);
                    }
                }
            })
        })
        .collect();
    for thread in threads {
        let _ = thread.join();
    }
}

#[test]
fn a_killed_rollover_is_recovered_at_the_next_start() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let dir = TempDir::new("crash");
    let mut acknowledged: HashMap<(u32, usize), u64> = HashMap::new();
    let mut stranded = 0;
    for run in 0..KILLED_RUNS {
        // Different amounts of logging, so the kills land at different points of a rollover.
        let mut child = Command::new(std::env::current_exe().unwrap());
        child
            .args(["--exact", "child_entry", "--nocapture", "--test-threads=1"])
            .env(CHILD_ENV, dir.path())
            .env("L4RS_ROLLING_CRASH_RUN", run.to_string());
        let last = kill_after_acks(child, 3000 + 1700 * run as usize);
        for (thread, sequence) in last {
            acknowledged.insert((run, thread), sequence);
        }
        stranded += leftovers(dir.path()).len();
    }
    assert!(
        stranded > 0,
        "no kill stranded a rollover in progress: the test proves nothing"
    );
    // The next start recovers, then this run rolls over normally.
    let appender = appender(dir.path());
    for n in 0..200 {
        let line = format!("{KILLED_RUNS} 0 {n} payload-0123456789abcdef");
        log_now(&appender, &line);
    }
    appender.wait_for_actions();
    appender.stop();
    acknowledged.insert((KILLED_RUNS, 0), 199);

    let leftovers = leftovers(dir.path());
    assert!(leftovers.is_empty(), "{leftovers:?}");
    let mut next: HashMap<(u32, usize), u64> = HashMap::new();
    let mut torn = 0;
    for file in archives_then_current(dir.path(), "app-", "app.log") {
        for line in contents(&file).lines() {
            let line = match cut_record(line) {
                Some(cut) => {
                    // The record a kill cut short (never acknowledged) stays as the start of
                    // the line the next run's first record continues (docs/appenders.md).
                    torn += 1;
                    assert!(torn <= KILLED_RUNS as usize, "more cut records than kills");
                    &line[cut..]
                }
                None => line,
            };
            let fields: Vec<&str> = line.split(' ').collect();
            assert_eq!(fields.len(), 4, "torn line {line:?} in {}", file.display());
            let key: (u32, usize) = (fields[0].parse().unwrap(), fields[1].parse().unwrap());
            let sequence: u64 = fields[2].parse().unwrap();
            let expected = next.entry(key).or_insert(0);
            assert_eq!(
                sequence,
                *expected,
                "run {} thread {}: out of order, missing or repeated in {}",
                key.0,
                key.1,
                file.display()
            );
            *expected += 1;
        }
    }
    for (key, last) in acknowledged {
        let written = next.get(&key).copied().unwrap_or(0);
        assert!(
            written > last,
            "run {} thread {}: acknowledged up to {last}, found {written} events",
            key.0,
            key.1
        );
    }
    eprintln!(
        "{stranded} stranded rollover files recovered, {torn} records cut, over {KILLED_RUNS} kills"
    );
}

/// A process killed after a compression committed (its source deleted) and before it renamed
/// the finished archive leaves that archive only under its partial name, its index free on
/// disk, and usually staging files too, since the worker lags behind the rollovers. The next
/// start must put the archive in place before it numbers any staging file: a staging file
/// numbered first took the free index, and the settling then found a "source" under that
/// index and deleted the partial as unfinished, or renamed it over the new archive; either
/// way a whole archive was lost. A start with many leftovers lets its worker run ahead like
/// that by itself; here the start is held at its second staging file until the worker has
/// numbered the first.
#[test]
fn a_finished_partial_archive_keeps_its_index_when_staging_files_are_archived() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let dir = TempDir::new("crash-settle");
    let dead = dead_pid();
    let gzip = |text: &str| {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        encoder.write_all(text.as_bytes()).unwrap();
        encoder.finish().unwrap()
    };
    let file = |name: String, bytes: &[u8]| {
        let path = dir.path().join(name);
        std::fs::write(&path, bytes).unwrap();
        path
    };
    file("app-1.log.gz".into(), &gzip("0 0 0 payload\n"));
    file(
        format!(".app-2.log.gz.{dead}-compressing.l4rs-rolling"),
        &gzip("0 0 1 payload\n"),
    );
    let first = file(
        format!(".app.log.{dead}-0.l4rs-rolling"),
        b"0 0 2 payload\n",
    );
    let second = file(
        format!(".app.log.{dead}-1.l4rs-rolling"),
        b"0 0 3 payload\n",
    );
    set_modified(&first, 1_000_000);
    set_modified(&second, 2_000_000);
    file("app.log".into(), b"0 0 4 payload\n");

    let index_taken = [
        dir.path().join("app-2.log"),
        dir.path().join("app-2.log.gz"),
    ];
    let held_at = second.display().to_string();
    let _hold = status::add_listener(move |record| {
        if record.message.contains("archiving") && record.message.contains(&held_at) {
            let deadline = Instant::now() + Duration::from_secs(10);
            while !index_taken.iter().any(|path| path.exists()) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    });
    let appender = appender(dir.path());
    appender.wait_for_actions();
    appender.stop();
    assert_files(
        dir.path(),
        &[
            ("app-1.log.gz", "0 0 0 payload\n"),
            ("app-2.log.gz", "0 0 1 payload\n"),
            ("app-3.log.gz", "0 0 2 payload\n"),
            ("app-4.log.gz", "0 0 3 payload\n"),
            ("app.log", "0 0 4 payload\n"),
        ],
    );
}

/// Process ids are reused (a restarted container's process is often pid 1 again), so a
/// rollover may find its staging name taken by a staging file a killed process of the same id
/// left; it takes the next name rather than replace that file and the events in it.
#[test]
fn a_staging_file_of_an_earlier_process_with_the_same_id_is_not_replaced() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let dir = TempDir::new("crash-same-pid");
    let taken = dir
        .path()
        .join(format!(".app.log.{}-0.l4rs-rolling", std::process::id()));
    std::fs::write(&taken, "0 0 0 payload\n").unwrap();
    let display = dir.path().display();
    let xml = rolling_xml(
        "RollingFile",
        &format!("{display}/app.log"),
        &format!("{display}/app-%i.log"),
        r#"<SizeBasedTriggeringPolicy size="1"/>"#,
    );
    let appender = rolling_file_in(&xml, &RollingContext::default());
    log_now(&appender, "1 0 0 payload");
    log_now(&appender, "1 0 1 payload");
    appender.wait_for_actions();
    appender.stop();
    assert_eq!(contents(&taken), "0 0 0 payload\n");
    assert_eq!(contents(&dir.path().join("app-1.log")), "1 0 0 payload\n");
    assert_eq!(contents(&dir.path().join("app.log")), "1 0 1 payload\n");
}

/// Where the whole record starts in a line that holds a record a kill cut short followed by a
/// whole one (`0 1 2328 payl` + `1 0 0 payload-…`): a SIGKILL can end a `write(2)` at a page
/// boundary, so a killed run's last, unacknowledged record may be partly written. `None` for
/// a line that is one whole record.
fn cut_record(line: &str) -> Option<usize> {
    const TAIL: &str = " payload-0123456789abcdef";
    let whole = |text: &str| {
        let fields: Vec<&str> = text.split(' ').collect();
        fields.len() == 4
            && fields[..3]
                .iter()
                .all(|f| !f.is_empty() && f.bytes().all(|b| b.is_ascii_digit()))
            && text.ends_with(TAIL)
    };
    if whole(line) {
        return None;
    }
    (1..line.len())
        .filter(|&at| line.is_char_boundary(at))
        .find(|&at| {
            whole(&line[at..])
                && line[..at]
                    .bytes()
                    .next()
                    .is_some_and(|b| b.is_ascii_digit())
        })
}

/// A process killed after a rollover renamed its memory-mapped file and before it closed it
/// leaves a staging file with the rest of its regions as NUL padding (and, had writers been
/// copying, with holes in its data). The next start archives it recovered: holes filled with
/// spaces ending in a newline, padding cut off, not one NUL byte.
#[test]
fn a_killed_memory_mapped_rollover_is_archived_without_nul_bytes() {
    if std::env::var(CHILD_ENV).is_ok() {
        return;
    }
    let dir = TempDir::new("crash-mapped");
    let dead = dead_pid();
    let staging = dir.path().join(format!(".app.log.{dead}-0.l4rs-rolling"));
    let mut bytes = b"0 0 0 payload\n".to_vec();
    bytes.extend_from_slice(&[0; 8]);
    bytes.extend_from_slice(b"0 1 0 payload\n");
    bytes.resize(8192, 0);
    std::fs::write(&staging, &bytes).unwrap();
    let display = dir.path().display();
    let xml = rolling_xml(
        "RollingMemoryMappedFile",
        &format!("{display}/app.log"),
        &format!("{display}/app-%i.log"),
        r#"<SizeBasedTriggeringPolicy size="1 MB"/>"#,
    );
    let (appender, records) =
        status::capture(|| rolling_memory_mapped_in(&xml, &RollingContext::default()));
    appender.wait_for_actions();
    appender.stop();
    assert_eq!(leftovers(dir.path()), Vec::<PathBuf>::new());
    assert_eq!(
        contents(&dir.path().join("app-1.log")),
        "0 0 0 payload\n       \n0 1 0 payload\n"
    );
    assert!(
        records
            .iter()
            .any(|r| r.message.contains(&staging.display().to_string())
                && r.message
                    .contains("1 run(s) of NUL bytes (8 bytes: 8 at offset 14)")),
        "{records:#?}"
    );
}
