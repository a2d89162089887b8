//! Tests of the MemoryMappedFile appender and its manager.

use std::fs;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use l4rs_config::model::MemoryMappedFileSpec;
use l4rs_core::{status, AppendError, Appender, Level, LogEvent, Message};

use crate::file_manager::WriteError;
use crate::mmf_manager::{MemoryMappedFileManager, RETRY_INTERVAL};
use crate::registry::Managed as _;
use crate::test_support::{
    check_thread_lines, check_unusable_paths_fail_with_log4j2_messages, event, LineLayout, TempDir,
};
use crate::MemoryMappedFileAppender;

fn spec(file_name: &str, region_length: i64) -> MemoryMappedFileSpec {
    MemoryMappedFileSpec {
        file_name: file_name.to_string(),
        append: true,
        immediate_flush: false,
        region_length,
    }
}

fn appender(spec: &MemoryMappedFileSpec, layout: LineLayout) -> MemoryMappedFileAppender {
    MemoryMappedFileAppender::new("M", spec, Arc::new(layout)).unwrap()
}

fn read(path: &str) -> Vec<u8> {
    fs::read(path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn text(path: &str) -> String {
    String::from_utf8(read(path)).unwrap()
}

fn manager(path: &str, region_length: u64) -> MemoryMappedFileManager {
    MemoryMappedFileManager::create(path, true, region_length, Arc::new(LineLayout::default()))
        .unwrap()
}

#[test]
fn region_lengths_are_adjusted_with_log4j2_messages() {
    let dir = TempDir::new("mmf-region");
    let cases: [(i64, u64, Option<&str>); 5] = [
        (
            100,
            256,
            Some("MemoryMappedAppender[M] Expanded region length from 100 to min length: 256"),
        ),
        (
            1000,
            1024,
            Some("MemoryMappedAppender[M] Rounded up region length from 1000 to next power of two: 1024"),
        ),
        (
            2_000_000_000,
            1 << 30,
            Some("MemoryMappedAppender[M] Reduced region length from 2000000000 to max length: 1073741824"),
        ),
        (-5, 256, Some("MemoryMappedAppender[M] Expanded region length from -5 to min length: 256")),
        (33_554_432, 33_554_432, None),
    ];
    for (index, (requested, expected, message)) in cases.into_iter().enumerate() {
        let path = dir.file(&format!("r{index}.log"));
        let (a, records) =
            status::capture(|| appender(&spec(&path, requested), LineLayout::default()));
        assert_eq!(a.region_length(), expected);
        let messages: Vec<_> = records
            .iter()
            .map(|r| (r.level, r.message.as_str()))
            .collect();
        assert_eq!(
            messages,
            message
                .map(|m| (Level::INFO, m))
                .into_iter()
                .collect::<Vec<_>>()
        );
        a.stop();
    }
}

/// Scenario 160-header-footer: the footer is written, the header is lost (log4j2 2.19); the
/// file is truncated to exactly the bytes written.
#[test]
fn stop_writes_the_footer_and_truncates_to_the_data() {
    let dir = TempDir::new("mmf-footer");
    let path = dir.file("mmf.log");
    let a = appender(
        &spec(&path, 4096),
        LineLayout::with_header_footer("# mmf header\n", "# mmf footer\n"),
    );
    a.append(&event("body line 1")).unwrap();
    a.append(&event("body line 2")).unwrap();
    // While running the file is pre-extended to the end of the region, as in log4j2; the
    // events are in the page cache already.
    assert_eq!(fs::metadata(&path).unwrap().len(), 4096);
    assert!(read(&path).starts_with(b"body line 1\nbody line 2\n\0"));
    a.stop();
    a.stop();
    assert_eq!(text(&path), "body line 1\nbody line 2\n# mmf footer\n");
    assert!(matches!(a.append(&event("late")), Err(AppendError::NotStarted(n)) if n == "M"));
}

#[test]
fn immediate_flush_and_end_of_batch_are_accepted_and_flush_fails_once_stopped() {
    let dir = TempDir::new("mmf-flush");
    let path = dir.file("mmf.log");
    let mut s = spec(&path, 4096);
    s.immediate_flush = true;
    let a = appender(&s, LineLayout::default());
    assert!(a.is_immediate_flush());
    let mut last = event("end of batch");
    last.end_of_batch = true;
    a.append(&last).unwrap();
    a.flush().unwrap();
    a.stop();
    assert_eq!(text(&path), "end of batch\n");
    assert!(matches!(a.flush(), Err(AppendError::NotStarted(_))));
}

/// `immediateFlush="true"` does not sync each event, as in log4j2: its
/// `MemoryMappedFileAppender.Builder.build()` hands `false`, not the attribute, to the
/// `AbstractOutputStreamAppender` constructor, whose `directEncodeEvent` forces only on
/// `immediateFlush || event.isEndOfBatch()`, and `MemoryMappedFileManager.write` never forces
/// (log4j2 2.19 and 2.24 sources). An event ending a batch, written where no stage defers
/// (the caller's thread, or a stage whose errors must come back with the event), and
/// `flush()` sync before they return.
#[test]
fn immediate_flush_syncs_only_at_the_end_of_a_batch_as_log4j2_does() {
    let dir = TempDir::new("mmf-immediate");
    let path = dir.file("mmf.log");
    let mut s = spec(&path, 4096);
    s.immediate_flush = true;
    let a = appender(&s, LineLayout::default());
    let manager = a.manager();
    for _ in 0..100 {
        a.append(&event("immediate")).unwrap();
    }
    assert_eq!(manager.syncer().syncs(), 0);
    let mut last = event("end of batch");
    last.end_of_batch = true;
    a.append(&last).unwrap();
    assert_eq!(manager.syncer().syncs(), 1);
    crate::test_support::on_deferring_thread(|| {
        let mut last = event("end of batch");
        last.end_of_batch = true;
        l4rs_core::batch::without_deferring(|| a.append(&last).unwrap())
    });
    assert_eq!(manager.syncer().syncs(), 2);
    a.flush().unwrap();
    assert_eq!(manager.syncer().syncs(), 3);
    a.stop();
    assert_eq!(text(&path).lines().count(), 102);
}

/// Behind a queue, the end of a batch only asks the file's syncer thread for a sync: the
/// stage's thread writes on while the sync runs, requests made meanwhile coalesce into one
/// more sync, and stopping waits for that one, so nothing the last batch asked for is skipped.
#[test]
fn end_of_batch_syncs_run_on_the_syncer_thread_coalesced() {
    let dir = TempDir::new("mmf-syncer");
    let path = dir.file("mmf.log");
    let a = appender(&spec(&path, 4096), LineLayout::default());
    let manager = a.manager();
    let (release, held) = std::sync::mpsc::channel();
    manager.syncer().hold_next_sync(held);
    crate::test_support::on_deferring_thread(|| {
        let mut last = event("end of batch");
        last.end_of_batch = true;
        // The first sync is held before its fdatasync, yet every append returns.
        for _ in 0..100 {
            a.append(&last).unwrap();
        }
    });
    assert_eq!(manager.syncer().syncs(), 0);
    assert_eq!(read(&path).iter().filter(|&&b| b == b'\n').count(), 100);
    release.send(()).unwrap();
    a.stop();
    // The held sync, then one for every request made while it was held.
    assert_eq!(manager.syncer().syncs(), 2);
    assert_eq!(text(&path), "end of batch\n".repeat(100));
}

/// Records spanning a boundary are split exactly, whatever their size relative to the region
/// (scenario 190-buffers-and-mmf-remap uses 256-byte regions).
#[test]
fn records_across_regions_are_split_exactly() {
    let dir = TempDir::new("mmf-split");
    let path = dir.file("mmf.log");
    let a = appender(&spec(&path, 256), LineLayout::default());
    let mut expected = String::new();
    let sizes = [
        1usize, 37, 255, 256, 257, 100, 512, 1000, 3, 2048, 5000, 7, 254, 2, 0,
    ];
    let texts: Vec<String> = sizes
        .iter()
        .enumerate()
        .map(|(index, &size)| {
            let mut line = format!("{index}:");
            while line.len() < size {
                line.push((b'a' + (line.len() % 26) as u8) as char);
            }
            line
        })
        .collect();
    for line in &texts {
        a.append(&LogEvent::new("t", Level::INFO, Message::Text(line)))
            .unwrap();
        expected.push_str(line);
        expected.push('\n');
    }
    a.stop();
    assert_eq!(text(&path), expected);
}

#[test]
fn append_continues_existing_data_and_append_false_starts_anew() {
    let dir = TempDir::new("mmf-append");
    let path = dir.file("mmf.log");
    fs::write(&path, "old mmf line\n").unwrap();
    let a = appender(&spec(&path, 256), LineLayout::default().prefixed("mmf "));
    a.append(&event("INFO appended")).unwrap();
    a.stop();
    assert_eq!(text(&path), "old mmf line\nmmf INFO appended\n");

    let mut s = spec(&path, 256);
    s.append = false;
    let a = appender(&s, LineLayout::default());
    a.append(&event("fresh")).unwrap();
    a.stop();
    assert_eq!(text(&path), "fresh\n");
}

/// A killed run leaves NUL padding after its data; the next run continues right after the
/// data, so the file never holds a gap between runs (log4j2 continues after the padding).
#[test]
fn padding_left_by_a_killed_run_is_cut_off() {
    let dir = TempDir::new("mmf-recover");
    let path = dir.file("mmf.log");
    let mut crashed = b"line of the killed run\n".to_vec();
    crashed.resize(crashed.len() + 200_000, 0);
    fs::write(&path, &crashed).unwrap();
    let a = appender(&spec(&path, 4096), LineLayout::default());
    a.append(&event("next run")).unwrap();
    a.stop();
    assert_eq!(text(&path), "line of the killed run\nnext run\n");

    // A file of nothing but padding is empty data.
    fs::write(&path, vec![0u8; 70_000]).unwrap();
    let a = appender(&spec(&path, 4096), LineLayout::default());
    a.append(&event("first")).unwrap();
    a.stop();
    assert_eq!(text(&path), "first\n");
}

/// Writes `data` followed by NUL padding up to a multiple of `region_length`, plus one more
/// region: what a killed run leaves.
fn killed_run_file(path: &str, data: &[u8], region_length: usize) {
    let mut bytes = data.to_vec();
    bytes.resize((data.len() / region_length + 2) * region_length, 0);
    fs::write(path, bytes).unwrap();
}

/// Writers killed between their reservation and their copy (or during it) leave runs of NUL
/// bytes inside the data; the next open overwrites each with spaces ending in a newline, keeps
/// every offset, and says where they were.
#[test]
fn holes_left_by_killed_writers_are_filled_with_spaces_and_a_newline() {
    let dir = TempDir::new("mmf-holes");
    let path = dir.file("mmf.log");
    let mut data = b"line one\n".to_vec();
    data.extend_from_slice(&[0; 10]); // a record never copied
    data.extend_from_slice(b"line three\ntorn");
    data.extend_from_slice(&[0; 5]); // a record cut short
    data.extend_from_slice(b"line five\n");
    data.push(0); // a one-byte record never copied
    data.extend_from_slice(b"line seven\n");
    killed_run_file(&path, &data, 4096);
    let (a, records) = status::capture(|| appender(&spec(&path, 4096), LineLayout::default()));
    a.append(&event("next run")).unwrap();
    a.stop();
    assert_eq!(
        text(&path),
        format!(
            "line one\n{}\nline three\ntorn    \nline five\n\nline seven\nnext run\n",
            " ".repeat(9)
        )
    );
    let reports: Vec<_> = records
        .iter()
        .filter(|r| r.level == Level::WARN)
        .map(|r| r.message.as_str())
        .collect();
    assert_eq!(
        reports,
        [format!(
            "MemoryMappedFileManager ({path}) An earlier run was killed while copying records: \
             3 run(s) of NUL bytes (16 bytes: 10 at offset 9, 5 at offset 34, 1 at offset 49) \
             were overwritten with spaces ending in a newline"
        )]
    );
}

/// NUL bytes are only taken for holes where a killed run can have left them: a file that was
/// closed (no padding at its end) keeps the NUL bytes of its messages.
#[test]
fn nul_bytes_of_a_closed_file_stay() {
    let dir = TempDir::new("mmf-user-nul");
    let path = dir.file("mmf.log");
    fs::write(&path, b"binary \0\0 message\n").unwrap();
    let (a, records) = status::capture(|| appender(&spec(&path, 4096), LineLayout::default()));
    a.append(&event("next")).unwrap();
    a.stop();
    assert_eq!(read(&path), b"binary \0\0 message\nnext\n");
    assert!(records.is_empty(), "{records:?}");
}

/// Holes are looked for in the regions a killed run can still have been copying into: the
/// last `9 × regionLength` bytes of the file, at least 16 MiB. NUL bytes before that window
/// stay; a run of them that reaches into it is filled whole.
#[test]
fn holes_are_looked_for_only_in_the_last_regions_of_a_killed_run() {
    const WINDOW: usize = 16 << 20;
    const LENGTH: usize = 20 << 20;
    const PADDING: usize = 5000;
    let dir = TempDir::new("mmf-window");
    let path = dir.file("mmf.log");
    let mut data = b"old \0 message\n".to_vec();
    // A run of NULs across the window's start, and one across a read chunk (64 KiB).
    let straddling = LENGTH - WINDOW - 100;
    data.resize(straddling, b'x');
    data.extend_from_slice(&[0; 300]);
    data.resize(straddling + 300 + 70_000, b'y');
    let across_chunks = data.len();
    data.extend_from_slice(&[0; 100_000]);
    data.resize(LENGTH - PADDING - 5, b'z');
    data.extend_from_slice(b"last\n");
    let mut file = data.clone();
    file.resize(LENGTH, 0);
    fs::write(&path, file).unwrap();
    let a = appender(&spec(&path, 256), LineLayout::default());
    a.stop();
    let after = read(&path);
    assert_eq!(after.len(), data.len(), "the padding is cut off");
    assert_eq!(&after[..14], b"old \0 message\n", "before the window");
    let filled = |from: usize, length: usize| {
        let mut expected = vec![b' '; length - 1];
        expected.push(b'\n');
        assert!(after[from..from + length] == expected[..], "hole at {from}");
    };
    filled(straddling, 300);
    filled(across_chunks, 100_000);
    assert_eq!(
        after.iter().filter(|&&b| b == 0).count(),
        1,
        "only the NUL before the window stays"
    );
    assert!(after.ends_with(b"zzlast\n"));
}

/// How long opening takes to recover a 1 GiB file a killed run left (three holes in its last
/// region, 32 MiB of padding): with the default 32 MiB regions (a 288 MiB hole window) and
/// with 1 GiB regions (the window covers the whole file). A measurement, not a check of speed:
/// `cargo test -p l4rs-appenders --release --lib -- --ignored --nocapture recovery_time`.
#[test]
#[ignore = "writes a 1 GiB file; run in release to measure"]
fn recovery_time_of_a_gigabyte_file() {
    use std::io::Write as _;
    use std::os::unix::fs::FileExt as _;
    const DATA: u64 = 1 << 30;
    const PADDING: u64 = 32 << 20;
    let dir = TempDir::new("mmf-gigabyte");
    let path = dir.file("big.log");
    let file = fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(true)
        .open(&path)
        .unwrap();
    let mut out = std::io::BufWriter::with_capacity(1 << 20, &file);
    let mut written = 0u64;
    let mut index = 0u64;
    while written < DATA {
        let line = format!(
            "2026-12-01 17:00:00,000 INFO  [worker-{}] com.example.Service - request {index} handled in 12 ms\n",
            index % 8
        );
        let line = &line.as_bytes()[..line.len().min((DATA - written) as usize)];
        out.write_all(line).unwrap();
        written += line.len() as u64;
        index += 1;
    }
    out.flush().unwrap();
    drop(out);
    file.set_len(DATA + PADDING).unwrap();
    let holes = [DATA - 10_000, DATA - 5_000, DATA - 300];
    for region_length in [32 << 20, 1 << 30] {
        for &hole in &holes {
            file.write_all_at(&[0; 97], hole).unwrap();
        }
        let (started, cpu_before) = (Instant::now(), thread_cpu_seconds());
        let recovered =
            crate::mmf_manager::recover_killed_run(&file, DATA + PADDING, region_length).unwrap();
        let (elapsed, cpu) = (started.elapsed(), thread_cpu_seconds() - cpu_before);
        assert_eq!((recovered.data_end, recovered.holes), (DATA, 3));
        eprintln!(
            "recovery of a 1 GiB file, regionLength {region_length}: {:.1} ms ({:.1} ms of CPU)",
            elapsed.as_secs_f64() * 1000.0,
            cpu * 1000.0
        );
    }
}

/// The CPU time (user and system) this thread has used: unlike the wall clock, it does not
/// count the time other processes on a shared machine take.
fn thread_cpu_seconds() -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let usage = unsafe {
        let mut usage = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(libc::RUSAGE_THREAD, &mut usage);
        usage
    };
    let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 / 1e6;
    seconds(usage.ru_utime) + seconds(usage.ru_stime)
}

/// Set in the child of [`a_writer_killed_between_reservation_and_copy_leaves_no_nul_byte`]:
/// the directory it writes into.
const KILL_CHILD: &str = "L4RS_MMF_KILL_CHILD";
/// Set (to anything) when the child is to write through a RollingMemoryMappedFile.
const KILL_ROLLING: &str = "L4RS_MMF_KILL_ROLLING";

/// The appender of the kill test.
enum KillTarget {
    Plain(MemoryMappedFileAppender),
    Rolling(crate::RollingMemoryMappedFileAppender),
}

impl KillTarget {
    /// `dir/app.log`, written by a RollingMemoryMappedFile when `rolling`, else by a
    /// MemoryMappedFile, both with 4 KiB regions.
    fn open(dir: &str, rolling: bool) -> KillTarget {
        let path = format!("{dir}/app.log");
        if !rolling {
            return KillTarget::Plain(appender(&spec(&path, 4096), LineLayout::default()));
        }
        let xml = format!(
            r#"<Configuration><Appenders>
                 <RollingMemoryMappedFile name="R" fileName="{path}"
                     filePattern="{dir}/app-%i.log" regionLength="4096">
                   <SizeBasedTriggeringPolicy size="1 MB"/>
                 </RollingMemoryMappedFile>
               </Appenders><Loggers><Root level="info"/></Loggers></Configuration>"#
        );
        let config = l4rs_config::load_str(&xml, None).unwrap();
        let l4rs_config::model::AppenderKind::RollingMemoryMappedFile(spec) =
            &config.appenders[0].kind
        else {
            panic!("not a RollingMemoryMappedFile: {:#?}", config.diagnostics);
        };
        KillTarget::Rolling(
            crate::RollingMemoryMappedFileAppender::with_context(
                "R",
                spec,
                Arc::new(LineLayout::default()),
                &crate::RollingContext::default(),
            )
            .unwrap(),
        )
    }

    fn appender(&self) -> &dyn Appender {
        match self {
            KillTarget::Plain(appender) => appender,
            KillTarget::Rolling(appender) => appender,
        }
    }

    /// Runs `f` on the manager of the file written now.
    fn with_manager<R>(&self, f: impl FnOnce(&MemoryMappedFileManager) -> R) -> R {
        match self {
            KillTarget::Plain(appender) => f(&appender.manager()),
            KillTarget::Rolling(appender) => f(&appender.current_backend().manager),
        }
    }
}

/// The child: writes `before`, then a record whose writer stops for good after reserving its
/// bytes and before copying them, then three records after it; says `ready` on stdout and
/// waits to be killed.
#[test]
fn killed_writer_child() {
    let Ok(dir) = std::env::var(KILL_CHILD) else {
        return;
    };
    let target = Arc::new(KillTarget::open(&dir, std::env::var(KILL_ROLLING).is_ok()));
    target.appender().append(&event("before")).unwrap();
    // The sender is kept (and never used), so the stalled writer waits for ever.
    let (_never, stall) = std::sync::mpsc::channel();
    target.with_manager(|m| m.inject.stall_next_copy(b'S', stall));
    let stalled = Arc::clone(&target);
    std::thread::spawn(move || stalled.appender().append(&event("Stalled record")));
    while !target.with_manager(|m| m.inject.stalled.load(Ordering::SeqCst)) {
        std::thread::sleep(Duration::from_millis(1));
    }
    for text in ["after 0", "after 1", "after 2"] {
        target.appender().append(&event(text)).unwrap();
    }
    // On a line of its own: the test harness has started one with the test's name.
    println!("\nready");
    loop {
        std::thread::sleep(Duration::from_secs(1));
    }
}

/// A writer killed between its reservation and its copy, for real: a child process (this test
/// binary) stops one writer there with the stall hook, lets another write three records after
/// it, and is killed with SIGKILL. The file then holds a NUL run where the stopped record was
/// to go, and padding after the data; the next open turns the run into spaces ending in a
/// newline and cuts the padding off, for MemoryMappedFile and RollingMemoryMappedFile.
#[test]
fn a_writer_killed_between_reservation_and_copy_leaves_no_nul_byte() {
    if std::env::var(KILL_CHILD).is_ok() {
        return;
    }
    for rolling in [false, true] {
        let dir = TempDir::new(if rolling {
            "mmf-kill-rolling"
        } else {
            "mmf-kill"
        });
        let path = dir.file("app.log");
        let mut command = std::process::Command::new(std::env::current_exe().unwrap());
        command
            .args(["--exact", "memory_mapped_file::tests::killed_writer_child"])
            .args(["--nocapture", "--test-threads=1"])
            .env(KILL_CHILD, dir.path())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null());
        if rolling {
            command.env(KILL_ROLLING, "1");
        }
        let mut child = command.spawn().unwrap();
        let stdout = child.stdout.take().unwrap();
        let (ready_tx, ready_rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            use std::io::BufRead as _;
            let ready = std::io::BufReader::new(stdout)
                .lines()
                .map_while(Result::ok)
                .any(|line| line == "ready");
            let _ = ready_tx.send(ready);
        });
        let ready = ready_rx.recv_timeout(Duration::from_secs(60));
        // `Child::kill` sends SIGKILL.
        child.kill().unwrap();
        child.wait().unwrap();
        assert_eq!(ready, Ok(true), "the child never got its writer stalled");

        let hole = "Stalled record\n".len();
        let killed = read(&path);
        let mut expected = b"before\n".to_vec();
        expected.extend(std::iter::repeat_n(0, hole));
        expected.extend_from_slice(b"after 0\nafter 1\nafter 2\n");
        assert_eq!(
            &killed[..expected.len()],
            &expected[..],
            "rolling: {rolling}"
        );
        assert!(killed[expected.len()..].iter().all(|&b| b == 0));
        assert_eq!(killed.len(), 4096, "padded to the end of the region");

        let target = KillTarget::open(dir.path().to_str().unwrap(), rolling);
        target.appender().append(&event("next run")).unwrap();
        target.appender().stop();
        assert_eq!(
            text(&path),
            format!(
                "before\n{}\nafter 0\nafter 1\nafter 2\nnext run\n",
                " ".repeat(hole - 1)
            ),
            "rolling: {rolling}"
        );
    }
}

/// What a write returns is in the file at once, before stop, and the region is unmapped and the
/// next mapped as writing moves on.
#[test]
fn data_is_in_the_file_as_soon_as_append_returns() {
    let dir = TempDir::new("mmf-visible");
    let path = dir.file("mmf.log");
    let a = appender(&spec(&path, 256), LineLayout::default());
    let mut expected = Vec::new();
    for index in 0..200 {
        let line = format!("visible line {index}");
        a.append(&LogEvent::new("t", Level::INFO, Message::Text(&line)))
            .unwrap();
        expected.extend_from_slice(line.as_bytes());
        expected.push(b'\n');
        let contents = read(&path);
        assert_eq!(&contents[..expected.len()], &expected[..]);
        assert!(contents[expected.len()..].iter().all(|&b| b == 0));
    }
    a.stop();
    assert_eq!(read(&path), expected);
}

#[test]
fn unusable_paths_fail_with_log4j2_messages() {
    let dir = TempDir::new("mmf-unusable");
    check_unusable_paths_fail_with_log4j2_messages::<MemoryMappedFileAppender>(
        &dir,
        "MemoryMappedFileManager",
    );
}

#[test]
fn appenders_on_one_file_share_its_manager() {
    let dir = TempDir::new("mmf-shared");
    let path = dir.file("shared.log");
    let first = appender(
        &spec(&path, 256),
        LineLayout::with_header_footer("", "A-foot\n"),
    );
    let second = MemoryMappedFileAppender::new(
        "M2",
        &spec(&path, 4096),
        Arc::new(LineLayout::with_header_footer("", "B-foot\n").prefixed("b: ")),
    )
    .unwrap();
    assert_eq!(second.region_length(), 256, "the first appender's manager");
    first.append(&event("one")).unwrap();
    second.append(&event("two")).unwrap();
    first.stop();
    second.append(&event("three")).unwrap();
    drop(second);
    assert_eq!(text(&path), "one\nb: two\nb: three\nA-foot\n");
}

/// Splits a file into lines of `T<thread> <sequence> <padding>` and checks that every thread's
/// lines are all there, once, whole and in order.
fn check_threads(contents: &[u8], threads: usize, per_thread: usize) {
    assert!(!contents.contains(&0), "NUL bytes in the file");
    let text = std::str::from_utf8(contents).unwrap();
    check_thread_lines(text, threads, per_thread, |thread, sequence, padding| {
        padding.is_some_and(|padding| {
            padding.len() == (thread * 7 + sequence * 13) % 300
                && padding.bytes().all(|b| b == b'x')
        })
    });
}

fn line(thread: usize, sequence: usize) -> String {
    let padding = (thread * 7 + sequence * 13) % 300;
    format!("T{thread} {sequence} {}\n", "x".repeat(padding))
}

/// The thread and sequence of a [`line`] (without its newline).
fn thread_and_sequence(line_text: &str) -> (usize, usize) {
    let mut fields = line_text.split(' ');
    let thread = fields.next().unwrap()[1..].parse().unwrap();
    let sequence = fields.next().unwrap().parse().unwrap();
    (thread, sequence)
}

/// Writes the [`line`]s `0..per_thread` to `m` from each of `threads` threads at once.
fn write_lines_from_threads(m: &MemoryMappedFileManager, threads: usize, per_thread: usize) {
    std::thread::scope(|scope| {
        for thread in 0..threads {
            scope.spawn(move || {
                for sequence in 0..per_thread {
                    m.write(line(thread, sequence).as_bytes()).unwrap();
                }
            });
        }
    });
}

/// Many writers and small regions: boundaries are crossed constantly, records are larger than
/// a region now and then, and slots are reused while slow writers still copy.
#[test]
fn many_threads_small_regions_lines_are_whole_and_ordered() {
    let dir = TempDir::new("mmf-mt");
    let path = dir.file("mt.log");
    let m = manager(&path, 256);
    let (threads, per_thread) = (8, 3000);
    write_lines_from_threads(&m, threads, per_thread);
    m.close();
    check_threads(&read(&path), threads, per_thread);
}

/// Regions large enough to be prefaulted: the prefaulter thread populates the pages ahead of
/// four writers across several regions while they copy into them and the regions are
/// unmapped and remapped, and every line is whole and in order, with no NUL byte.
#[test]
fn prefaulted_regions_keep_lines_whole_and_ordered() {
    let dir = TempDir::new("mmf-prefault");
    let path = dir.file("prefault.log");
    let m = manager(&path, 4 << 20);
    let (threads, per_thread) = (4, 30_000);
    write_lines_from_threads(&m, threads, per_thread);
    let runs = m.keeper().expect("4 MiB regions have a keeper").syncs();
    m.close();
    assert!(runs > 0, "the keeper never ran");
    let contents = read(&path);
    assert!(
        contents.len() > 3 * (4 << 20),
        "the writes crossed several regions"
    );
    check_threads(&contents, threads, per_thread);
}

/// Stopping while writers append: every record that was accepted is whole, nothing follows the
/// footer, and there is no NUL byte.
#[test]
fn close_while_writing_leaves_whole_records_and_the_footer_last() {
    let dir = TempDir::new("mmf-close-race");
    let path = dir.file("race.log");
    let m = MemoryMappedFileManager::create(
        &path,
        true,
        256,
        Arc::new(LineLayout::with_header_footer("", "FOOTER\n")),
    )
    .unwrap();
    let accepted: Vec<usize> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..4)
            .map(|thread| {
                let m = &m;
                scope.spawn(move || {
                    let mut sequence = 0;
                    loop {
                        match m.write(line(thread, sequence).as_bytes()) {
                            Ok(()) => sequence += 1,
                            Err(WriteError::Closed) => return sequence,
                            Err(WriteError::Io(error)) => panic!("{error}"),
                        }
                    }
                })
            })
            .collect();
        std::thread::sleep(Duration::from_millis(30));
        m.close();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    let contents = read(&path);
    let body = contents.strip_suffix(b"FOOTER\n").expect("footer last");
    let mut next = [0usize; 4];
    for line_text in std::str::from_utf8(body).unwrap().lines() {
        let (thread, sequence) = thread_and_sequence(line_text);
        assert_eq!(format!("{line_text}\n"), line(thread, sequence));
        assert_eq!(sequence, next[thread]);
        next[thread] += 1;
    }
    assert_eq!(next.to_vec(), accepted);
}

/// Writers do not serialise on the copy: one writer stopped after its reservation and before
/// its copy does not keep later writers in the same region from reserving, copying and
/// returning, and its own bytes stay unwritten until it is released.
#[test]
fn a_writer_stopped_mid_copy_does_not_hold_up_the_others() {
    let dir = TempDir::new("mmf-no-lock");
    let path = dir.file("parallel.log");
    let m = Arc::new(manager(&path, 4096));
    let (release, stalled_copy) = std::sync::mpsc::channel();
    m.inject.stall_next_copy(b'A', stalled_copy);
    let slow = {
        let m = Arc::clone(&m);
        std::thread::spawn(move || m.write(b"AAAA slow\n").map_err(|_| ()))
    };
    let deadline = Instant::now() + Duration::from_secs(30);
    while !m.inject.stalled.load(Ordering::SeqCst) {
        assert!(
            Instant::now() < deadline,
            "the slow writer never reached its copy"
        );
        std::thread::yield_now();
    }
    // The slow writer holds its reservation and has not copied: writers after it in the same
    // region reserve, copy and return all the same. With a lock around the copy they would
    // wait for it; the test then releases it and fails instead of hanging.
    let (done, fast_finished) = std::sync::mpsc::channel();
    let fast = {
        let m = Arc::clone(&m);
        std::thread::spawn(move || {
            for n in 0..3 {
                m.write(format!("fast {n}\n").as_bytes()).unwrap();
            }
            let _ = done.send(());
        })
    };
    let finished = fast_finished.recv_timeout(Duration::from_secs(30));
    if finished.is_err() {
        release.send(()).unwrap();
        panic!("writers after a stopped copy waited for it");
    }
    fast.join().unwrap();
    assert!(
        m.inject.stalled.load(Ordering::SeqCst),
        "the slow writer is still stopped"
    );
    let contents = read(&path);
    assert_eq!(
        &contents[..10],
        &[0u8; 10],
        "the slow record's bytes are not copied yet"
    );
    assert!(text_of(&contents).contains("fast 0\nfast 1\nfast 2\n"));
    release.send(()).unwrap();
    slow.join().unwrap().unwrap();
    m.close();
    assert_eq!(text(&path), "AAAA slow\nfast 0\nfast 1\nfast 2\n");
}

fn text_of(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// Waits out the retry interval of a manager whose region failed.
fn wait_for_the_retry() {
    // A margin past the interval, so that the next write is sure to retry.
    std::thread::sleep(RETRY_INTERVAL + Duration::from_millis(20));
}

/// Writes `<label> <index>` for the indexes `0..count` to `m`, each of which must succeed, and
/// returns the records written.
fn write_numbered(m: &MemoryMappedFileManager, label: &str, count: usize) -> String {
    let mut written = String::new();
    for index in 0..count {
        let record = format!("{label} {index}\n");
        m.write(record.as_bytes())
            .unwrap_or_else(|_| panic!("{label}"));
        written += &record;
    }
    written
}

/// A full disk at a boundary: the record that needed the new region and those after it fail and
/// are reported; nothing of them is written; after the retry interval writing resumes right
/// after the last record that was written, with no gap.
#[test]
fn a_failed_reservation_drops_records_and_writing_resumes_without_a_gap() {
    let dir = TempDir::new("mmf-full");
    let path = dir.file("full.log");
    let m = manager(&path, 256);
    let first = "a".repeat(200) + "\n";
    m.write(first.as_bytes()).unwrap();
    m.inject.reserve_failures.store(1, Ordering::SeqCst);
    let ((), records) = status::capture(|| {
        let crossing = "b".repeat(99) + "\n";
        match m.write(crossing.as_bytes()) {
            Err(WriteError::Io(error)) => assert_eq!(error.raw_os_error(), Some(libc::ENOSPC)),
            _ => panic!("the crossing record must fail"),
        }
        // It would fit in what is left of the region, but it was handed bytes after the failed
        // record, and nothing may follow a gap: it is lost too.
        assert!(m.write(b"fits\n").is_err());
    });
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(records[0].level, Level::ERROR);
    assert!(
        records[0].message.starts_with(&format!(
            "MemoryMappedFileManager ({path}) Unable to remap: could not reserve or map the next 256 bytes: No space left on device."
        )),
        "{}",
        records[0].message
    );
    assert_eq!(m.lost(), 2);
    // Within the retry interval nothing is written.
    assert!(m.write(b"still failing\n").is_err());
    wait_for_the_retry();
    let (after, records) = status::capture(|| {
        // The failing writer that starts the retry writes its own record in the new generation.
        m.write(b"resumed\n").unwrap_or_else(|_| panic!("resumed"));
        // The episode ends when the next region is prepared.
        write_numbered(&m, "after", 20)
    });
    assert_eq!(records.len(), 1, "{records:?}");
    assert_eq!(
        records[0].message,
        format!("MemoryMappedFileManager ({path}) Remapped again; 3 record(s) could not be written meanwhile")
    );
    m.close();
    assert_eq!(text(&path), first + "resumed\n" + &after);
}

/// A record that ends exactly at the boundary is written even when the next region cannot be
/// prepared; only those after it fail.
#[test]
fn a_record_ending_at_a_failed_boundary_is_kept() {
    let dir = TempDir::new("mmf-ender");
    let path = dir.file("ender.log");
    let m = manager(&path, 256);
    m.inject.reserve_failures.store(1, Ordering::SeqCst);
    let exact = "e".repeat(255) + "\n";
    let ((), _) = status::capture(|| {
        m.write(exact.as_bytes())
            .unwrap_or_else(|_| panic!("ender"));
        assert!(m.write(b"after\n").is_err());
    });
    m.close();
    assert_eq!(text(&path), exact);
}

/// A region that cannot be mapped although its blocks are reserved: the record goes in with
/// `pwrite`, later records fail until the retry, which maps the region again.
#[test]
fn a_failed_mapping_writes_the_record_and_resumes_later() {
    let dir = TempDir::new("mmf-map-fail");
    let path = dir.file("map.log");
    let m = manager(&path, 256);
    let first = "a".repeat(200) + "\n";
    m.write(first.as_bytes()).unwrap();
    m.inject.map_failures.store(1, Ordering::SeqCst);
    let crossing = "b".repeat(99) + "\n";
    let ((), records) = status::capture(|| {
        m.write(crossing.as_bytes())
            .unwrap_or_else(|_| panic!("written with pwrite"));
        assert!(m.write(b"lost\n").is_err());
    });
    assert!(
        records[0].message.contains("Cannot allocate memory"),
        "{records:?}"
    );
    wait_for_the_retry();
    let (resumed, _) = status::capture(|| write_numbered(&m, "resumed", 30));
    m.close();
    assert_eq!(text(&path), first + &crossing + &resumed);
}

/// A retry that starts a generation exactly at an unprepared boundary: the generation's first
/// writer prepares the region itself, and fails alone if it cannot.
#[test]
fn the_first_writer_of_a_generation_prepares_its_region() {
    let dir = TempDir::new("mmf-first-writer");
    let path = dir.file("first.log");
    let m = manager(&path, 256);
    m.inject.reserve_failures.store(2, Ordering::SeqCst);
    let fill = "f".repeat(255) + "\n";
    let ((), _) = status::capture(|| {
        m.write(fill.as_bytes()).unwrap_or_else(|_| panic!("ender"));
        assert!(m.write(b"x\n").is_err());
        wait_for_the_retry();
        // The retry starts a generation at the boundary; its first writer (this one) prepares
        // the region and fails once more (the second injected failure).
        assert!(m.write(b"y\n").is_err());
        wait_for_the_retry();
        m.write(b"z\n").unwrap_or_else(|_| panic!("z"));
    });
    m.close();
    assert_eq!(text(&path), fill + "z\n");
}

/// Failures and retries while several threads write: every record reported written is in the
/// file exactly once and whole, every record reported failed is absent, and no NUL byte is left.
#[test]
fn failures_under_concurrency_keep_the_file_consistent() {
    let dir = TempDir::new("mmf-full-mt");
    let path = dir.file("full-mt.log");
    let m = manager(&path, 256);
    m.set_retry_interval(Duration::from_micros(300));
    // The writers' threads report a hundred failure episodes; keep them off the test output
    // (captures still see everything).
    status::set_level(Level::OFF);
    let threads = 4;
    let (written, records) = status::capture(|| {
        std::thread::scope(|scope| {
            let injector = scope.spawn(|| {
                let mut injections = 0;
                let started = Instant::now();
                while started.elapsed() < Duration::from_millis(500) {
                    std::thread::sleep(Duration::from_millis(2));
                    // Alternately failing reservations and mappings, one or several in a row.
                    let count = 1 + injections % 3;
                    if injections % 2 == 0 {
                        m.inject.reserve_failures.store(count, Ordering::SeqCst);
                    } else {
                        m.inject.map_failures.store(count, Ordering::SeqCst);
                    }
                    injections += 1;
                }
                injections
            });
            let handles: Vec<_> = (0..threads)
                .map(|thread| {
                    let m = &m;
                    scope.spawn(move || {
                        let started = Instant::now();
                        let mut ok = Vec::new();
                        let mut sequence = 0;
                        // Through the 500 ms of injected failures, then (on a machine so
                        // loaded that a thread got little time in them) until it has written
                        // more than 100 records, for at most 10 s: a manager that failures
                        // left unable to write fails the count below, a slow machine does not.
                        let more = |ok: &Vec<usize>| {
                            let elapsed = started.elapsed();
                            elapsed < Duration::from_millis(500)
                                || (ok.len() <= 100 && elapsed < Duration::from_secs(10))
                        };
                        // Records written while failures were still being injected.
                        let mut amid_failures = 0;
                        while more(&ok) {
                            if m.write(line(thread, sequence).as_bytes()).is_ok() {
                                ok.push(sequence);
                                if started.elapsed() < Duration::from_millis(500) {
                                    amid_failures += 1;
                                }
                            }
                            sequence += 1;
                        }
                        (ok, amid_failures)
                    })
                })
                .collect();
            assert!(injector.join().unwrap() > 50);
            let (written, amid_failures): (Vec<_>, Vec<_>) =
                handles.into_iter().map(|h| h.join().unwrap()).unzip();
            // Writers got records through while the failures went on, not only after.
            assert!(
                amid_failures.iter().all(|&n| n > 0),
                "records written amid failures, per thread: {amid_failures:?}"
            );
            written
        })
    });
    status::set_level(status::default_level());
    m.close();
    let contents = read(&path);
    assert!(!contents.contains(&0), "NUL bytes in the file");
    let mut found: Vec<Vec<usize>> = vec![Vec::new(); threads];
    for line_text in std::str::from_utf8(&contents).unwrap().lines() {
        let (thread, sequence) = thread_and_sequence(line_text);
        assert_eq!(format!("{line_text}\n"), line(thread, sequence), "torn");
        found[thread].push(sequence);
    }
    assert_eq!(found, written);
    assert!(
        written.iter().all(|w| w.len() > 100),
        "{:?}",
        written.iter().map(Vec::len).collect::<Vec<_>>()
    );
    // The injector's thread made no writes, so nothing was reported on it.
    assert!(records.is_empty(), "{records:?}");
}

/// Descriptors of this process open on `path`.
fn descriptors_on(path: &str) -> usize {
    let path = fs::canonicalize(path).unwrap();
    fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|entry| fs::read_link(entry.ok()?.path()).ok())
        .filter(|target| *target == path)
        .count()
}

/// A closed manager holds no descriptor on its file, though the manager itself (and its
/// keeper's regions) live on: a file deleted after `shutdown` gives its blocks back at once.
#[test]
fn closing_lets_go_of_the_file() {
    let dir = TempDir::new("mmf-close-descriptor");
    for region_length in [256, crate::mmf_regions::MIN_KEPT_REGION] {
        let path = dir.file(&format!("closed-{region_length}.log"));
        let m = manager(&path, region_length);
        m.write(b"one line\n").unwrap();
        m.sync().unwrap();
        assert!(descriptors_on(&path) > 0, "open while in use");
        m.close();
        assert_eq!(descriptors_on(&path), 0, "region length {region_length}");
        assert_eq!(text(&path), "one line\n");
        drop(m);
    }
}

#[test]
fn a_sync_requested_as_the_file_closes_is_no_failure() {
    let dir = TempDir::new("mmf-sync-overtaken");
    let path = dir.file("overtaken.log");
    let m = manager(&path, 256);
    m.write(b"one line\n").unwrap();
    m.close();
    // A batch's end saw the file open, then the close stopped the syncer and let go of the
    // file before the request went on: the request runs inline and finds the manager closed.
    // Before, it synced the descriptor the close had pointed at `/dev/null` and reported EINVAL.
    let ((), records) = status::capture(|| m.request_sync_as_if_open());
    assert!(records.is_empty(), "{records:?}");
    assert_eq!(text(&path), "one line\n");
}
