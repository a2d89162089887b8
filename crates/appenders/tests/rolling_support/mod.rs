//! Helpers the appender integration tests share, the rolling ones above all (each test file is
//! its own crate and uses what it needs).
#![allow(dead_code)]

use std::collections::HashMap;
use std::io::{BufRead as _, BufReader, Read as _};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::time::{Duration, Instant};

use l4rs_appenders::{ManualClock, RollingContext, RolloverClock};
use l4rs_config::model::{AppenderKind, AppenderSpec};
use l4rs_config::Diagnostic;
use l4rs_core::status::StatusRecord;
use l4rs_core::{AppendError, Appender, Layout, Level, LogEvent, Message, Timestamp};

pub(crate) use l4rs_test_support::{LineLayout, TempDir};

/// `<message>\n`: the layout of most of these tests.
pub(crate) const LINES: LineLayout = LineLayout::new();

/// The appender kind `appender_xml` binds to, through l4rs-config (no diagnostics allowed).
pub(crate) fn kind(appender_xml: &str) -> AppenderKind {
    let (spec, diagnostics) = bind(appender_xml);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    spec.kind
}

/// The appender `appender_xml` binds to, and the configuration's diagnostics.
pub(crate) fn bind(appender_xml: &str) -> (AppenderSpec, Vec<Diagnostic>) {
    let xml = format!(
        "<Configuration><Appenders>{appender_xml}</Appenders><Loggers><Root level='info'/></Loggers></Configuration>"
    );
    let config = l4rs_config::load_str(&xml, None).unwrap();
    let spec = config
        .appenders
        .first()
        .unwrap_or_else(|| panic!("no appender: {:#?}", config.diagnostics))
        .clone();
    (spec, config.diagnostics)
}

/// A size policy that rolls before every event but the first.
pub(crate) const SIZE_1: &str = r#"<SizeBasedTriggeringPolicy size="1"/>"#;

/// `<{element} name="R" fileName="{file_name}" filePattern="{file_pattern}">{children}</{element}>`:
/// a rolling appender `R` with `children` (policies, strategy) inside.
pub(crate) fn rolling_xml(
    element: &str,
    file_name: &str,
    file_pattern: &str,
    children: &str,
) -> String {
    rolling_xml_with(element, file_name, file_pattern, "", children)
}

/// [`rolling_xml`] with more `attributes` (such as `append="false"`, none when empty) after
/// `filePattern`.
pub(crate) fn rolling_xml_with(
    element: &str,
    file_name: &str,
    file_pattern: &str,
    attributes: &str,
    children: &str,
) -> String {
    let separator = if attributes.is_empty() { "" } else { " " };
    format!(
        r#"<{element} name="R" fileName="{file_name}" filePattern="{file_pattern}"{separator}{attributes}>{children}</{element}>"#
    )
}

/// [`rolling_xml`] for a RollingFile on `dir/app.log` whose archives `dir/{file_pattern}` names.
pub(crate) fn rolling_file_xml(dir: &TempDir, file_pattern: &str, children: &str) -> String {
    rolling_file_xml_with(dir, file_pattern, "", children)
}

/// [`rolling_file_xml`] with more `attributes`, as [`rolling_xml_with`] takes them.
pub(crate) fn rolling_file_xml_with(
    dir: &TempDir,
    file_pattern: &str,
    attributes: &str,
    children: &str,
) -> String {
    rolling_xml_with(
        "RollingFile",
        &dir.file("app.log"),
        &dir.file(file_pattern),
        attributes,
        children,
    )
}

/// Builds the appender `appender_xml` describes (no diagnostics allowed) with [`LINES`], on
/// `clock`.
pub(crate) fn build_on(appender_xml: &str, clock: &Arc<ManualClock>) -> Arc<dyn Appender> {
    build_with_layout_on(appender_xml, Arc::new(LINES), clock)
}

/// Builds the appender `appender_xml` describes (no diagnostics allowed) with `layout`, on
/// `clock`.
pub(crate) fn build_with_layout_on(
    appender_xml: &str,
    layout: Arc<dyn Layout>,
    clock: &Arc<ManualClock>,
) -> Arc<dyn Appender> {
    let (spec, diagnostics) = bind(appender_xml);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    l4rs_appenders::build_appender_with(&spec, layout, &context_on(clock)).unwrap()
}

/// The default rolling context, but on `clock`.
pub(crate) fn context_on(clock: &Arc<ManualClock>) -> RollingContext {
    RollingContext {
        clock: Arc::clone(clock) as Arc<dyn RolloverClock>,
        ..RollingContext::default()
    }
}

/// The RollingFile `appender_xml` describes (no diagnostics allowed), with [`LINES`], on
/// `clock`: for tests that wait for its worker.
pub(crate) fn rolling_file_on(
    appender_xml: &str,
    clock: &Arc<ManualClock>,
) -> l4rs_appenders::RollingFileAppender {
    rolling_file_in(appender_xml, &context_on(clock))
}

/// The RollingFile `appender_xml` describes (no diagnostics allowed), with [`LINES`], in
/// `context`.
pub(crate) fn rolling_file_in(
    appender_xml: &str,
    context: &RollingContext,
) -> l4rs_appenders::RollingFileAppender {
    let AppenderKind::RollingFile(spec) = kind(appender_xml) else {
        panic!("not a RollingFile: {appender_xml}");
    };
    l4rs_appenders::RollingFileAppender::with_context("R", &spec, Arc::new(LINES), context).unwrap()
}

/// The RollingMemoryMappedFile `appender_xml` describes (no diagnostics allowed), with
/// [`LINES`], in `context`: for tests that wait for its worker.
pub(crate) fn rolling_memory_mapped_in(
    appender_xml: &str,
    context: &RollingContext,
) -> l4rs_appenders::RollingMemoryMappedFileAppender {
    let AppenderKind::RollingMemoryMappedFile(spec) = kind(appender_xml) else {
        panic!("not a RollingMemoryMappedFile: {appender_xml}");
    };
    l4rs_appenders::RollingMemoryMappedFileAppender::with_context(
        "R",
        &spec,
        Arc::new(LINES),
        context,
    )
    .unwrap()
}

/// Builds the appender `appender_xml` describes (no diagnostics allowed) with [`LINES`], on
/// the system clock.
pub(crate) fn build(appender_xml: &str) -> Arc<dyn Appender> {
    build_with_layout(appender_xml, Arc::new(LINES))
}

/// Builds the appender `appender_xml` describes (no diagnostics allowed) with `layout`, on the
/// system clock.
pub(crate) fn build_with_layout(appender_xml: &str, layout: Arc<dyn Layout>) -> Arc<dyn Appender> {
    let (spec, diagnostics) = bind(appender_xml);
    assert!(diagnostics.is_empty(), "{diagnostics:#?}");
    l4rs_appenders::build_appender(&spec, layout).unwrap()
}

/// Appends an event with `text` at `millis` (epoch ms).
pub(crate) fn log_at(appender: &dyn Appender, text: &str, millis: i64) {
    let mut event = LogEvent::new("test", Level::INFO, Message::Text(text));
    event.timestamp = Timestamp::from_millis(millis);
    appender.append(&event).unwrap();
}

/// Appends an event with `text`, timed now.
pub(crate) fn log_now(appender: &dyn Appender, text: &str) {
    log_at(appender, text, now_millis());
}

/// Appends an event for each `(text, at)` of `events`, in order, `at` an RFC 3339 timestamp
/// (see [`millis`]).
pub(crate) fn log_at_times(appender: &dyn Appender, events: &[(&str, &str)]) {
    for (text, at) in events {
        log_at(appender, text, millis(at));
    }
}

/// Appends an event with `text`, timed now; returns whether it was written. A failure must be
/// an I/O error with `errno` (a full disk's `ENOSPC`, say): any other fails the test.
pub(crate) fn try_log(appender: &dyn Appender, text: &str, errno: i32) -> bool {
    match appender.append(&LogEvent::new("test", Level::INFO, Message::Text(text))) {
        Ok(()) => true,
        Err(AppendError::Io { source, .. }) => {
            assert_eq!(source.raw_os_error(), Some(errno), "{source}");
            false
        }
        Err(other) => panic!("{other}"),
    }
}

/// The time now, in epoch ms.
pub(crate) fn now_millis() -> i64 {
    Timestamp::now().epoch_millis
}

/// The messages of the `level` records among `records` that mention `needle`.
pub(crate) fn messages_about(records: &[StatusRecord], level: Level, needle: &str) -> Vec<String> {
    records
        .iter()
        .filter(|r| r.level == level && r.message.contains(needle))
        .map(|r| r.message.clone())
        .collect()
}

/// The messages of the ERROR records among `records` that mention `needle`.
pub(crate) fn errors_about(records: &[StatusRecord], needle: &str) -> Vec<String> {
    messages_about(records, Level::ERROR, needle)
}

/// Parses `text`, an RFC 3339 timestamp such as `2030-01-01T10:00:00Z`, into epoch ms.
pub(crate) fn millis(text: &str) -> i64 {
    text.parse::<jiff::Timestamp>().unwrap().as_millisecond()
}

/// Sets the last-modified time of `path` to `millis` (epoch ms).
pub(crate) fn set_modified(path: &Path, millis: i64) {
    let when = std::time::UNIX_EPOCH + std::time::Duration::from_millis(millis as u64);
    std::fs::File::options()
        .write(true)
        .open(path)
        .unwrap()
        .set_modified(when)
        .unwrap();
}

/// The names of the files directly in `dir` (hidden ones too), sorted.
pub(crate) fn names(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap())
        .filter(|entry| entry.file_type().unwrap().is_file())
        .map(|entry| entry.file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// Every file below `dir` (hidden ones too), recursively.
pub(crate) fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let path = entry.path();
        if path.is_dir() {
            out.extend(walk(&path));
        } else {
            out.push(path);
        }
    }
    out.sort();
    out
}

/// A file's text, decompressed by its suffix.
pub(crate) fn contents(path: &Path) -> String {
    let file = std::fs::File::open(path).unwrap();
    let mut text = String::new();
    let name = path.to_string_lossy();
    if name.ends_with(".gz") {
        flate2::read::GzDecoder::new(file)
            .read_to_string(&mut text)
            .unwrap();
    } else if name.ends_with(".bz2") {
        bzip2::read::BzDecoder::new(file)
            .read_to_string(&mut text)
            .unwrap();
    } else if name.ends_with(".zst") {
        zstd::stream::read::Decoder::new(file)
            .unwrap()
            .read_to_string(&mut text)
            .unwrap();
    } else {
        let mut file = file;
        file.read_to_string(&mut text).unwrap();
    }
    text
}

/// Asserts that the files directly in `dir` are exactly those `expected` names, in the
/// order [`names`] sorts them, and that each holds its text (decompressed by [`contents`]).
pub(crate) fn assert_files(dir: &Path, expected: &[(&str, &str)]) {
    let expected_names: Vec<&str> = expected.iter().map(|&(name, _)| name).collect();
    assert_eq!(names(dir), expected_names);
    for &(name, text) in expected {
        assert_eq!(contents(&dir.join(name)), text, "{name}");
    }
}

/// The lines of every file below `dir`, decompressed, sorted.
pub(crate) fn all_lines(dir: &Path) -> Vec<String> {
    let mut lines: Vec<String> = walk(dir)
        .iter()
        .flat_map(|path| {
            contents(path)
                .lines()
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    lines.sort();
    lines
}

/// Whether `path`'s name is a staging or partial file of an interrupted rollover.
pub(crate) fn is_leftover(path: &Path) -> bool {
    path.to_string_lossy().ends_with(".l4rs-rolling")
}

/// The files below `dir` that [`is_leftover`] recognises, sorted.
pub(crate) fn leftovers(dir: &Path) -> Vec<PathBuf> {
    walk(dir)
        .into_iter()
        .filter(|path| is_leftover(path))
        .collect()
}

/// The archives `dir/{prefix}<index>.…` by index (any compression suffix), then
/// `dir/{current}`: the order a `fileIndex="nomax"` rolling appender wrote them in.
pub(crate) fn archives_then_current(dir: &Path, prefix: &str, current: &str) -> Vec<PathBuf> {
    let mut archives: Vec<(u64, PathBuf)> = walk(dir)
        .into_iter()
        .filter_map(|path| {
            let name = path.file_name()?.to_str()?.to_string();
            let rest = name.strip_prefix(prefix)?;
            let digits = rest.len() - rest.trim_start_matches(|c: char| c.is_ascii_digit()).len();
            if digits == 0 || !rest[digits..].starts_with('.') {
                return None;
            }
            Some((rest[..digits].parse().ok()?, path))
        })
        .collect();
    archives.sort();
    let mut files: Vec<PathBuf> = archives.into_iter().map(|(_, path)| path).collect();
    files.push(dir.join(current));
    files
}

/// Reads `<thread> <sequence>` acknowledgements (a child prints one once a log call has
/// returned) into `last`, the last sequence per thread; other lines are skipped.
fn note_ack(line: &str, last: &mut HashMap<usize, u64>) -> bool {
    let mut fields = line.split(' ');
    match (
        fields.next().map(str::parse::<usize>),
        fields.next().map(str::parse::<u64>),
    ) {
        (Some(Ok(thread)), Some(Ok(sequence))) => {
            last.insert(thread, sequence);
            true
        }
        _ => false,
    }
}

/// Starts `command`, a child that acknowledges each returned log call on stdout as
/// `<thread> <sequence>`, lets it acknowledge `acks` calls (for at most a minute), kills it
/// with SIGKILL and returns the last sequence acknowledged per thread, counting those still in
/// the pipe. Fails when the child acknowledged fewer.
pub(crate) fn kill_after_acks(mut command: Command, acks: usize) -> HashMap<usize, u64> {
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let mut last = HashMap::new();
    let mut seen = 0;
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut lines = BufReader::new(stdout).lines();
    while seen < acks && Instant::now() < deadline {
        let Some(Ok(line)) = lines.next() else { break };
        if note_ack(&line, &mut last) {
            seen += 1;
        }
    }
    // SAFETY: signalling our own child.
    unsafe {
        libc::kill(child.id() as libc::pid_t, libc::SIGKILL);
    }
    // Acknowledgements already in the pipe are calls that returned too.
    for line in lines.map_while(Result::ok) {
        note_ack(&line, &mut last);
    }
    child.wait().unwrap();
    assert!(seen >= acks, "the child acknowledged only {seen} calls");
    last
}
