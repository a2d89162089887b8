//! Helpers shared by the integration tests in `tests/`.
//!
//! Each integration test file is its own process, because l4rs's configuration is global, as
//! log4j2's `LoggerContext` is. What every test crate shares (the FIFO gate, counted
//! allocations, deep throwables, an error with a source, the workspace root) comes from l4rs-test-support and is
//! re-exported here, so a test of `tests/` finds all its helpers under `l4rs_tests::`.

use std::fmt::Display;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};

pub mod databases;
pub mod http;
pub mod kafka;
pub mod net;
pub mod rsyslog;
mod script_server;
pub mod smtp;
pub mod trickle;

pub use l4rs_test_support::{
    allocations, deep_throwable, fifo_gate, tmpfs, workspace_root, RequestFailed,
};

/// The text after the sequence number in each line the exit probe's `crash-loop` mode logs.
pub const CRASH_PAYLOAD: &str = "payload-0123456789-abcdefghijklmnopqrstuvwxyz";

/// A fresh, empty directory under `target/test-output/<name>`.
pub fn fresh_output_dir(name: &str) -> PathBuf {
    l4rs_test_support::fresh_dir_at(workspace_root().join("target/test-output").join(name))
}

/// The status messages reported while `f` runs, with its result.
pub fn reported<R>(f: impl FnOnce() -> R) -> (R, Vec<String>) {
    let (result, records) = l4rs::core::status::capture(f);
    (
        result,
        records.into_iter().map(|record| record.message).collect(),
    )
}

/// The wall-clock time in milliseconds since the epoch, as events are stamped.
pub fn now_millis() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .expect("the clock is after 1970")
        .as_millis() as i64
}

/// Writes `xml` as a configuration file in `dir` and returns its path.
pub fn write_config(dir: &Path, xml: &str) -> PathBuf {
    let path = dir.join("log4j2.xml");
    std::fs::write(&path, xml).expect("write configuration");
    path
}

/// The names of this process's threads (Linux keeps 15 bytes of each).
pub fn thread_names() -> Vec<String> {
    l4rs_test_support::threads::threads()
        .into_iter()
        .map(|(name, _)| name)
        .collect()
}

/// The lines of a file, or an empty list when it does not exist.
pub fn read_lines(path: &Path) -> Vec<String> {
    std::fs::read_to_string(path)
        .map(|text| text.lines().map(str::to_string).collect())
        .unwrap_or_default()
}

/// Tests that replace the global configuration take turns through this lock (a panicking test
/// does not poison it for the others).
pub fn serial() -> std::sync::MutexGuard<'static, ()> {
    static SERIAL: std::sync::Mutex<()> = std::sync::Mutex::new(());
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// A configuration with the `<Configuration>` attributes `attributes`, `appenders`, and a root
/// at `level` referring to `root_refs`.
pub fn root_config(attributes: &str, level: &str, appenders: &str, root_refs: &[&str]) -> String {
    let refs: String = root_refs
        .iter()
        .map(|name| format!(r#"<AppenderRef ref="{name}"/>"#))
        .collect();
    format!(
        r#"<Configuration {attributes}><Appenders>{appenders}</Appenders><Loggers><Root level="{level}">{refs}</Root></Loggers></Configuration>"#
    )
}

/// The routing configuration of `tests/routing.rs` and `tests/tracing_layer.rs`, its files in
/// `dir` (each line `%c|%p|%m`): `my_app` at DEBUG to `app.log` and, from WARN and without
/// lines matching `secret`, to `warnings.log`; `my_app.db` to `db.log` alone (not additive);
/// `my_app::quiet` at ERROR; the root at ERROR to `root.log`.
pub fn hierarchy_routing_config(dir: &str) -> String {
    format!(
        r#"<Configuration status="warn">
  <Appenders>
    <File name="App" fileName="{dir}/app.log"><PatternLayout pattern="%c|%p|%m%n"/></File>
    <File name="Db" fileName="{dir}/db.log"><PatternLayout pattern="%c|%p|%m%n"/></File>
    <File name="Root" fileName="{dir}/root.log"><PatternLayout pattern="%c|%p|%m%n"/></File>
    <File name="Warnings" fileName="{dir}/warnings.log">
      <PatternLayout pattern="%c|%p|%m%n"/>
      <RegexFilter regex=".*secret.*" onMatch="DENY" onMismatch="NEUTRAL"/>
    </File>
  </Appenders>
  <Loggers>
    <Logger name="my_app" level="debug">
      <AppenderRef ref="App"/>
      <AppenderRef ref="Warnings" level="warn"/>
    </Logger>
    <Logger name="my_app.db" additivity="false"><AppenderRef ref="Db"/></Logger>
    <Logger name="my_app::quiet" level="error"/>
    <Root level="error"><AppenderRef ref="Root"/></Root>
  </Loggers>
</Configuration>"#
    )
}

/// Makes the fresh output directory `name` (see [`fresh_output_dir`]), writes the configuration
/// `xml(dir)` into it and initializes l4rs with it; returns the directory.
pub fn init_in_fresh_dir(name: &str, xml: impl FnOnce(&str) -> String) -> PathBuf {
    let dir = fresh_output_dir(name);
    let config = write_config(&dir, &xml(&dir.display().to_string()));
    l4rs::init_with_file(&config).expect("configuration loads cleanly");
    dir
}

/// [`init_in_fresh_dir`] with one File appender, `file`'s `(name, pattern)` (see
/// [`file_appenders`]), fed by `logger`'s `(name, level)` alone, and the root logger off;
/// returns the directory.
pub fn init_file_logger(name: &str, file: (&str, &str), logger: (&str, &str)) -> PathBuf {
    let ((appender, pattern), (logger, level)) = (file, logger);
    init_in_fresh_dir(name, |dir| {
        files_config(
            dir,
            &[(appender, pattern)],
            &[(logger, level, appender)],
            r#"<Root level="off"/>"#,
        )
    })
}

/// [`init_in_fresh_dir`] for a configuration whose building may report problems (a receiver
/// that is not there): returns the directory and the status messages building reported.
pub fn init_reporting(name: &str, xml: impl FnOnce(&str) -> String) -> (PathBuf, Vec<String>) {
    let dir = fresh_output_dir(name);
    let path = write_config(&dir, &xml(&dir.display().to_string()));
    let (_, records) = l4rs::core::status::capture(|| l4rs::init_with_file(&path));
    (dir, records.into_iter().map(|r| r.message).collect())
}

/// Runs the exit probe `probe` (a test's `env!("CARGO_BIN_EXE_l4rs-exit-probe")`) in `mode`
/// (`return`, `exit`, `panic`, `shutdown` or `thread-panic`), in the fresh output directory
/// `name`, and checks that nothing it logged was lost.
///
/// Its configuration is [`write_exit_probe_config`]'s, with `appenders` and `loggers`. The probe
/// must end as the mode says (with a failure for `panic` only), and each file must hold
/// [`exit_probe_events`] and a `footer` line: no NUL padding, and no header (RandomAccessFile
/// and MemoryMappedFile lose it, as in log4j2 2.19).
pub fn check_exit_probe(probe: &str, name: &str, mode: &str, appenders: &str, loggers: &str) {
    let dir = fresh_output_dir(name);
    let config = write_exit_probe_config(&dir, "", appenders, loggers);
    let status = run_exit_probe(probe, mode, &config);
    assert_eq!(status.success(), mode != "panic", "{mode}: {status}");
    let expected = exit_probe_events() + "footer\n";
    for file in ["file.log", "raf.log", "mmf.log"] {
        let contents = std::fs::read(dir.join(file)).unwrap_or_else(|e| panic!("{file}: {e}"));
        assert!(
            contents == expected.as_bytes(),
            "{mode}: {file}: {} bytes, {} NUL bytes, expected {} bytes",
            contents.len(),
            contents.iter().filter(|&&b| b == 0).count(),
            expected.len()
        );
    }
}

/// Writes the exit probe's configuration into `dir` and returns its path. It holds three
/// buffered appenders that keep every event in memory until they are closed, each with a
/// footer: a File `F` (`file.log`, 1 MiB buffer), a RandomAccessFile `R` (`raf.log`, whose
/// 256 KiB buffer holds all the events) and a MemoryMappedFile `M` (`mmf.log`, with the extra
/// attributes `mapped_attributes`, e.g. ` regionLength="65536"`); then `appenders` (more
/// appenders, referring to those) and `loggers`, the `<Loggers>` content.
pub fn write_exit_probe_config(
    dir: &Path,
    mapped_attributes: &str,
    appenders: &str,
    loggers: &str,
) -> PathBuf {
    let xml = format!(
        r#"<Configuration><Appenders>
  <File name="F" fileName="{dir}/file.log" immediateFlush="false" bufferSize="1048576">
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </File>
  <RandomAccessFile name="R" fileName="{dir}/raf.log" immediateFlush="false">
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </RandomAccessFile>
  <MemoryMappedFile name="M" fileName="{dir}/mmf.log"{mapped_attributes}>
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </MemoryMappedFile>
  {appenders}
</Appenders><Loggers>
  {loggers}
</Loggers></Configuration>"#,
        dir = dir.display()
    );
    write_config(dir, &xml)
}

/// Runs the exit probe `probe` in `mode` on `config` (its stderr discarded); returns how it
/// ended.
pub fn run_exit_probe(probe: &str, mode: &str, config: &Path) -> ExitStatus {
    Command::new(probe)
        .arg(mode)
        .arg(config)
        .stderr(Stdio::null())
        .status()
        .expect("run the probe")
}

/// `event 0` … `event 999`, one a line, as the exit probe logs them.
pub fn exit_probe_events() -> String {
    (0..1000).map(|index| format!("event {index}\n")).collect()
}

/// File appenders in `dir`, one for each `(name, pattern)` of `files`, writing
/// `{dir}/{name in lower case}.log` with a PatternLayout of `pattern`.
pub fn file_appenders(dir: impl Display, files: &[(&str, &str)]) -> String {
    files
        .iter()
        .map(|(name, pattern)| {
            let file = name.to_lowercase();
            format!(
                r#"<File name="{name}" fileName="{dir}/{file}.log"><PatternLayout pattern="{pattern}"/></File>"#
            )
        })
        .collect()
}

/// Non-additive loggers, one for each `(name, level, appender)` of `loggers`, each writing to
/// its appender only.
pub fn non_additive_loggers(loggers: &[(&str, &str, &str)]) -> String {
    loggers
        .iter()
        .map(|(name, level, appender)| {
            format!(
                r#"<Logger name="{name}" level="{level}" additivity="false"><AppenderRef ref="{appender}"/></Logger>"#
            )
        })
        .collect()
}

/// A configuration of [`file_appenders`] and [`non_additive_loggers`], then `root` (the
/// `<Root>` element).
pub fn files_config(
    dir: impl Display,
    files: &[(&str, &str)],
    loggers: &[(&str, &str, &str)],
    root: &str,
) -> String {
    format!(
        "<Configuration><Appenders>{}</Appenders><Loggers>{}{root}</Loggers></Configuration>",
        file_appenders(dir, files),
        non_additive_loggers(loggers)
    )
}

/// The statistics of the asynchronous queue `name` (`"AsyncLoggerConfig"`,
/// `"AsyncAppender <appender>"`); panics when there is no such queue.
pub fn queue_stats(name: &str) -> l4rs::QueueStats {
    l4rs::async_queue_stats()
        .into_iter()
        .find(|s| s.name == name)
        .unwrap_or_else(|| panic!("no queue {name}"))
}

/// The `write`-family system calls (`syscw` in `/proc/self/task/*/io`) made so far by the
/// threads of this process whose name starts with `name_prefix` (Linux keeps 15 bytes of a
/// thread's name: `AsyncLoggerConf`, `AsyncAppenderEv`).
pub fn thread_write_calls(name_prefix: &str) -> u64 {
    l4rs_test_support::threads::threads()
        .into_iter()
        .filter(|(name, _)| name.starts_with(name_prefix))
        .map(|(_, task)| {
            // A thread that ended between the listing and the read counts nothing.
            let io = std::fs::read_to_string(task.join("io")).unwrap_or_default();
            io.lines()
                .find_map(|line| line.strip_prefix("syscw: "))
                .and_then(|count| count.trim().parse::<u64>().ok())
                .unwrap_or(0)
        })
        .sum()
}

/// What one run of the discovery probe (`src/bin/discovery_probe.rs`) printed.
#[derive(Debug)]
pub struct ProbeRun {
    /// Its stdout lines, other than the status records: what Console appenders printed, the
    /// `init:` line of `init` mode, and status messages printed with `dest="out"`.
    pub output: Vec<String>,
    /// Every status record it saw, as `<LEVEL> <message>`.
    pub records: Vec<String>,
    /// Its stderr.
    pub stderr: String,
}

impl ProbeRun {
    /// True when some status record starts with `prefix` (`"ERROR Error parsing"`).
    pub fn has_record(&self, prefix: &str) -> bool {
        self.records.iter().any(|record| record.starts_with(prefix))
    }

    /// The records at WARN or more severe.
    pub fn problems(&self) -> Vec<&String> {
        self.records
            .iter()
            .filter(|r| {
                ["WARN ", "ERROR ", "FATAL "]
                    .iter()
                    .any(|l| r.starts_with(l))
            })
            .collect()
    }
}

/// Environment variables that steer configuration discovery or the status logger; the probe
/// runs without them unless a test sets them.
const DISCOVERY_VARIABLES: [&str; 5] = [
    "LOG4RS_CONFIGURATION_FILE",
    "LOG4J_CONFIGURATION_FILE",
    "LOG4J_DEBUG",
    "LOG4J_STATUS_LOGGER_LEVEL",
    "LOG4J_LEVEL",
];

/// Runs the discovery probe `probe` (a test's `env!("CARGO_BIN_EXE_l4rs-discovery-probe")`) in
/// `mode` (`lazy` or `init`) with `dir` as its working directory and only the discovery
/// variables in `env` set; the probe must exit successfully.
pub fn run_discovery_probe(probe: &str, mode: &str, dir: &Path, env: &[(&str, &Path)]) -> ProbeRun {
    let mut command = Command::new(probe);
    command.arg(mode).current_dir(dir);
    for variable in DISCOVERY_VARIABLES {
        command.env_remove(variable);
    }
    for (variable, value) in env {
        command.env(variable, value);
    }
    let output = command.output().expect("run the discovery probe");
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(
        output.status.success(),
        "{}\n{stdout}\n{stderr}",
        output.status
    );
    let (records, output): (Vec<String>, Vec<String>) = stdout
        .lines()
        .map(str::to_string)
        .partition(|line| line.starts_with("status: "));
    ProbeRun {
        output,
        records: records
            .into_iter()
            .map(|r| r["status: ".len()..].to_string())
            .collect(),
        stderr,
    }
}
