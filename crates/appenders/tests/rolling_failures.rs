//! Rollovers that cannot happen: each is reported through the status logger (seen here with
//! a process-wide [`status::GlobalCapture`], since some reports come from the appender's
//! worker thread), logging goes on, and no event is lost.
//!
//! * the archive's name is taken by a directory (checked before the current file is touched);
//! * the archive directory is a file, named by a `$${…}` that resolves only at rollover;
//! * the index the worker picks is taken (the worker reports it; the data stays in the
//!   staging file, which the next start archives);
//! * the archive directory is not writable (checked before the current file is touched);
//! * a full disk: no inode left for the new file (the rollover is undone), and no block left
//!   for the compressed archive (it stays uncompressed). These mount a small tmpfs, which
//!   needs root; without it they say so and pass, unless `L4RS_REQUIRE_TMPFS=1` (see
//!   `l4rs_test_support::tmpfs`) makes them fail.
//!
//! The retry delay after a failed rollover runs on a [`ManualClock`]: nothing sleeps.

mod rolling_support;

use std::io::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use l4rs_appenders::{ManualClock, RollingContext, RollingFileAppender};
use l4rs_config::model::AppenderKind;
use l4rs_core::status::GlobalCapture;
use l4rs_core::{Appender as _, Interpolator, LogEvent};
use l4rs_test_support::tmpfs::SmallFilesystem;
use rolling_support::{
    all_lines, bind, context_on, errors_about, leftovers, log_now, rolling_file_in,
    rolling_file_xml, rolling_xml, walk, TempDir, LINES, SIZE_1,
};

fn expected(prefix: &str, count: usize) -> Vec<String> {
    let mut lines: Vec<String> = (0..count).map(|n| format!("{prefix}{n:04}")).collect();
    lines.sort();
    lines
}

/// The default rolling context on a [`ManualClock`] that never moves: the rollovers after a
/// failure all fall in its retry interval, however slowly the test runs.
fn stopped_clock() -> RollingContext {
    context_on(&Arc::new(ManualClock::new(0)))
}

/// Logs three events into a RollingFile rolling at every event to `file_pattern`, and returns
/// the ERROR records about `target` and the current file's text. A failed rollover is not
/// retried within the retry interval, which on a stopped clock ([`stopped_clock`]) never ends:
/// with such a `context`, one report.
fn refused_rollovers(
    dir: &TempDir,
    file_pattern: &str,
    context: &RollingContext,
    target: &str,
    prefix: &str,
) -> (Vec<String>, String) {
    let capture = GlobalCapture::start();
    let xml = rolling_xml("RollingFile", &dir.file("app.log"), file_pattern, SIZE_1);
    let appender = rolling_file_in(&xml, context);
    for n in 0..3 {
        log_now(&appender, &format!("{prefix}{n:04}"));
    }
    appender.stop();
    let current = std::fs::read_to_string(dir.path().join("app.log")).unwrap();
    (errors_about(&capture.records(), target), current)
}

#[test]
fn an_archive_name_taken_by_a_directory_fails_before_touching_the_current_file() {
    let dir = TempDir::new("taken");
    std::fs::create_dir_all(dir.path().join("app.old/occupied")).unwrap();
    let target = dir.file("app.old");
    let (errors, current) = refused_rollovers(&dir, &target, &stopped_clock(), &target, "taken");
    assert_eq!(errors.len(), 1, "one report per retry interval: {errors:?}");
    assert!(errors[0].contains("is a directory"), "{}", errors[0]);
    // Everything went on into the current file; nothing was staged.
    assert_eq!(current, "taken0000\ntaken0001\ntaken0002\n");
    assert!(leftovers(dir.path()).is_empty());
}

/// Resolves `${archives}` to a fixed path, as a configuration property would.
struct Archives(String);

impl Interpolator for Archives {
    fn interpolate(&self, text: &str, _event: Option<&LogEvent<'_>>) -> String {
        text.replace("${archives}", &self.0)
    }
}

#[test]
fn a_pattern_that_resolves_to_an_impossible_path_at_rollover_is_reported() {
    let dir = TempDir::new("bad-pattern");
    // The property names a regular file, so no archive can go "into" it.
    let blocker = dir.file("not-a-dir");
    std::fs::write(&blocker, b"").unwrap();
    let context = RollingContext {
        substitutor: Arc::new(Archives(blocker.clone())),
        ..stopped_clock()
    };
    let (errors, current) =
        refused_rollovers(&dir, "$${archives}/app-%i.log", &context, &blocker, "bad");
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("is not a directory"), "{}", errors[0]);
    assert_eq!(current, "bad0000\nbad0001\nbad0002\n");
}

#[test]
fn a_failure_on_the_worker_is_seen_process_wide_and_keeps_the_data() {
    let dir = TempDir::new("worker");
    // The archive's name is known only on the worker (an `%i` in a directory is not counted,
    // so the index is `min`), and it is taken by a directory that cannot be replaced.
    std::fs::create_dir_all(dir.path().join("archive-1/app.log/occupied")).unwrap();
    let capture = GlobalCapture::start();
    let (spec, diagnostics) = bind(&rolling_file_xml(&dir, "archive-%i/app.log", SIZE_1));
    // The configuration warns about the index in a directory.
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    assert!(diagnostics[0].message.contains("%i in a directory"));
    let AppenderKind::RollingFile(spec) = spec.kind else {
        panic!("not a RollingFile");
    };
    let appender = RollingFileAppender::new("R", &spec, Arc::new(LINES)).unwrap();
    // The thread-local capture of the logging thread does not see the worker's report.
    let ((), local) = l4rs_core::status::capture(|| {
        log_now(&appender, "worker0000");
        log_now(&appender, "worker0001");
        appender.wait_for_actions();
    });
    appender.stop();
    let records = capture.records();
    let errors = errors_about(&records, &dir.file("archive-1/app.log"));
    assert_eq!(errors.len(), 1, "{records:#?}");
    assert!(
        errors_about(&local, &dir.file("archive-1/app.log")).is_empty(),
        "{local:#?}"
    );
    // The first event is in the staging file the report names, the second in app.log.
    assert!(
        errors.iter().any(|e| e.contains(".l4rs-rolling")),
        "{errors:?}"
    );
    assert_eq!(all_lines(dir.path()), expected("worker", 2));
}

/// A directory the rolling appender may not create files in: a read-only tmpfs for root
/// (whom permission bits do not stop), a directory without write permission for others.
enum Unwritable {
    ReadOnly(SmallFilesystem),
    NoPermission(TempDir),
}

impl Unwritable {
    fn make() -> Option<Unwritable> {
        // SAFETY: geteuid only reads the process's credentials.
        if unsafe { libc::geteuid() } != 0 {
            let dir = TempDir::new("no-write");
            std::fs::set_permissions(
                dir.path(),
                std::os::unix::fs::PermissionsExt::from_mode(0o555),
            )
            .unwrap();
            return Some(Unwritable::NoPermission(dir));
        }
        let fs = SmallFilesystem::mount("read-only", "size=64k")?;
        let target = std::ffi::CString::new(fs.file("")).unwrap();
        // SAFETY: a valid C string; remounting the filesystem this test mounted.
        let rc = unsafe {
            libc::mount(
                std::ptr::null(),
                target.as_ptr(),
                std::ptr::null(),
                libc::MS_REMOUNT | libc::MS_RDONLY,
                std::ptr::null(),
            )
        };
        assert_eq!(rc, 0, "{}", std::io::Error::last_os_error());
        Some(Unwritable::ReadOnly(fs))
    }

    fn path(&self) -> &Path {
        match self {
            Unwritable::ReadOnly(fs) => fs.path(),
            Unwritable::NoPermission(dir) => dir.path(),
        }
    }
}

impl Drop for Unwritable {
    fn drop(&mut self) {
        if let Unwritable::NoPermission(dir) = self {
            let _ = std::fs::set_permissions(
                dir.path(),
                std::os::unix::fs::PermissionsExt::from_mode(0o755),
            );
        }
    }
}

#[test]
fn an_archive_directory_that_is_not_writable_fails_before_touching_the_current_file() {
    let Some(archives) = Unwritable::make() else {
        return;
    };
    let dir = TempDir::new("unwritable");
    let archive_dir = archives.path().display().to_string();
    let (errors, current) = refused_rollovers(
        &dir,
        &format!("{archive_dir}/app-%i.log"),
        &stopped_clock(),
        &archive_dir,
        "ro",
    );
    assert_eq!(errors.len(), 1, "one report per retry interval: {errors:?}");
    assert!(errors[0].contains("is not writable"), "{}", errors[0]);
    assert_eq!(current, "ro0000\nro0001\nro0002\n");
    assert!(leftovers(dir.path()).is_empty());
    assert!(walk(archives.path()).is_empty());
}

/// Creates empty files in `dir` until the filesystem has no inode left; returns them.
fn use_up_inodes(dir: &Path) -> Vec<PathBuf> {
    let mut made = Vec::new();
    for n in 0.. {
        let path = dir.join(format!("filler-{n}"));
        match std::fs::File::create(&path) {
            Ok(_) => made.push(path),
            Err(error) => {
                assert_eq!(error.raw_os_error(), Some(libc::ENOSPC), "{error}");
                return made;
            }
        }
    }
    made
}

#[test]
fn no_inode_for_the_new_file_undoes_the_rollover() {
    let Some(fs) = SmallFilesystem::mount("inodes", "size=1m,nr_inodes=16") else {
        return;
    };
    let capture = GlobalCapture::start();
    let clock = Arc::new(ManualClock::new(0));
    let xml = rolling_xml(
        "RollingFile",
        &fs.file("app.log"),
        &fs.file("app-%i.log"),
        SIZE_1,
    );
    let appender = rolling_file_in(&xml, &context_on(&clock));
    log_now(&appender, "inode0000");
    let fillers = use_up_inodes(fs.path());
    // The rollover renames app.log away, cannot create a new one, and puts it back.
    log_now(&appender, "inode0001");
    log_now(&appender, "inode0002");
    let errors = errors_about(&capture.records(), &fs.file("app.log"));
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains("Unable to open a new"), "{}", errors[0]);
    assert_eq!(
        std::fs::read_to_string(fs.file("app.log")).unwrap(),
        "inode0000\ninode0001\ninode0002\n"
    );
    // Space returns; after the retry interval the next event rolls over normally.
    for filler in fillers {
        std::fs::remove_file(filler).unwrap();
    }
    clock.set(999);
    log_now(&appender, "inode0003");
    clock.set(1_000);
    log_now(&appender, "inode0004");
    appender.stop();
    assert_eq!(
        std::fs::read_to_string(fs.file("app.log")).unwrap(),
        "inode0004\n"
    );
    assert_eq!(
        std::fs::read_to_string(fs.file("app-1.log")).unwrap(),
        "inode0000\ninode0001\ninode0002\ninode0003\n"
    );
    assert_eq!(all_lines(fs.path()), expected("inode", 5));
}

/// Fills the filesystem with one file, then frees `pages` pages of it; returns its path.
fn fill_leaving(dir: &Path, pages: u64) -> PathBuf {
    let path = dir.join("ballast");
    let mut file = std::fs::File::create(&path).unwrap();
    let block = vec![0x55u8; 4096];
    loop {
        if let Err(error) = file.write_all(&block) {
            assert_eq!(error.raw_os_error(), Some(libc::ENOSPC), "{error}");
            break;
        }
    }
    let length = file.metadata().unwrap().len() / 4096 * 4096;
    file.set_len(length.saturating_sub(pages * 4096)).unwrap();
    path
}

/// A line of `width` pseudo-random hex digits, which compresses to about half.
fn noise(seed: &mut u64, width: usize) -> String {
    let mut line = String::with_capacity(width);
    while line.len() < width {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        line.push_str(&format!("{:016x}", *seed));
    }
    line.truncate(width);
    line
}

#[test]
fn no_space_for_the_compressed_archive_keeps_it_uncompressed() {
    let Some(fs) = SmallFilesystem::mount("blocks", "size=512k") else {
        return;
    };
    let capture = GlobalCapture::start();
    let appender = rolling_file_in(
        &rolling_xml(
            "RollingFile",
            &fs.file("app.log"),
            &fs.file("app-%i.log.gz"),
            r#"<SizeBasedTriggeringPolicy size="16 KB"/><DefaultRolloverStrategy max="5"/>"#,
        ),
        &RollingContext::default(),
    );
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut written = Vec::new();
    let mut next = |appender: &RollingFileAppender, written: &mut Vec<String>| {
        let line = format!("{:04} {}", written.len(), noise(&mut seed, 95));
        log_now(appender, &line);
        written.push(line);
    };
    // 163 lines of 101 bytes: the 163rd goes just over the 16 KiB limit.
    for _ in 0..163 {
        next(&appender, &mut written);
    }
    let ballast = fill_leaving(fs.path(), 1);
    // Rolls over: the new app.log takes the last free page, the ~9 KiB archive finds none.
    next(&appender, &mut written);
    appender.wait_for_actions();
    let errors = errors_about(&capture.records(), "Unable to compress");
    assert_eq!(errors.len(), 1, "{:#?}", capture.records());
    assert!(errors[0].contains("kept uncompressed"), "{}", errors[0]);
    assert_eq!(
        std::fs::read_to_string(fs.file("app-1.log"))
            .unwrap()
            .lines()
            .count(),
        163
    );
    assert!(!Path::new(&fs.file("app-1.log.gz")).exists());
    assert!(leftovers(fs.path()).is_empty());
    // Space returns: the next rollover compresses as usual.
    std::fs::remove_file(ballast).unwrap();
    for _ in 0..170 {
        next(&appender, &mut written);
    }
    appender.wait_for_actions();
    appender.stop();
    assert!(Path::new(&fs.file("app-2.log.gz")).exists());
    written.sort();
    assert_eq!(all_lines(fs.path()), written);
}
