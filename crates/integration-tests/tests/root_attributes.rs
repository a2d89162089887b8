//! The root element's `dest` (where the status logger prints) and `shutdownHook="disable"`
//! (no flush at exit). Both change process-wide state, so each case runs a probe process.

use std::path::Path;

use l4rs_tests::{fresh_output_dir, read_lines, run_discovery_probe, write_config};

const DISCOVERY_PROBE: &str = env!("CARGO_BIN_EXE_l4rs-discovery-probe");
const EXIT_PROBE: &str = env!("CARGO_BIN_EXE_l4rs-exit-probe");

/// The status message the configuration of [`dest_config`] causes when it is put in force.
const MISSING_REF: &str = "ERROR Unable to locate appender \"Missing\" for logger config \"root\"";

/// A configuration with the root attributes `attributes` whose root refers to a missing
/// appender beside a working File appender (`dir/app.log`).
fn dest_config(dir: &Path, attributes: &str) -> std::path::PathBuf {
    write_config(
        dir,
        &format!(
            r#"<Configuration {attributes}>
  <Appenders><File name="F" fileName="{dir}/app.log"><PatternLayout pattern="%p %m%n"/></File></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="F"/><AppenderRef ref="Missing"/></Root></Loggers>
</Configuration>"#,
            dir = dir.display()
        ),
    )
}

/// True when `line` is a printed status line, `yyyy-MM-dd HH:mm:ss,SSS main <suffix>`.
fn is_status_line(line: &str, suffix: &str) -> bool {
    let Some(rest) = line.get(23..) else {
        return false;
    };
    let stamp = line.as_bytes();
    stamp[4] == b'-' && stamp[10] == b' ' && stamp[19] == b',' && rest == format!(" main {suffix}")
}

#[test]
fn dest_sends_status_messages_to_a_file() {
    let dir = fresh_output_dir("root-dest-file");
    let status_file = dir.join("status.log");
    let config = dest_config(&dir, &format!(r#"dest="{}""#, status_file.display()));
    let run = run_discovery_probe(
        DISCOVERY_PROBE,
        "lazy",
        &dir,
        &[("LOG4RS_CONFIGURATION_FILE", &config)],
    );
    let printed = read_lines(&status_file);
    assert_eq!(printed.len(), 1, "{printed:?}");
    assert!(is_status_line(&printed[0], MISSING_REF), "{printed:?}");
    assert!(!run.stderr.contains("Unable to locate appender"), "{run:?}");
    // The rest of the configuration works.
    assert_eq!(
        read_lines(&dir.join("app.log")),
        ["ERROR error line", "WARN warn line", "INFO info line"]
    );
}

#[test]
fn dest_out_prints_to_stdout_and_the_default_is_stderr() {
    let dir = fresh_output_dir("root-dest-out");
    let config = dest_config(&dir, r#"dest="out""#);
    let run = run_discovery_probe(
        DISCOVERY_PROBE,
        "lazy",
        &dir,
        &[("LOG4RS_CONFIGURATION_FILE", &config)],
    );
    assert_eq!(run.output.len(), 1, "{run:?}");
    assert!(is_status_line(&run.output[0], MISSING_REF), "{run:?}");
    assert!(!run.stderr.contains("Unable to locate appender"), "{run:?}");

    let config = dest_config(&dir, "");
    let run = run_discovery_probe(
        DISCOVERY_PROBE,
        "lazy",
        &dir,
        &[("LOG4RS_CONFIGURATION_FILE", &config)],
    );
    assert!(run.output.is_empty(), "{run:?}");
    let stderr: Vec<&str> = run.stderr.lines().collect();
    assert!(
        stderr.iter().any(|line| is_status_line(line, MISSING_REF)),
        "{run:?}"
    );
}

/// Runs the exit probe in `return` mode on a File appender that keeps its 1000 events in a
/// 1 MiB buffer until it is closed, with the root attributes `attributes`; returns the file.
fn buffered_file_after_return(name: &str, attributes: &str) -> String {
    let dir = fresh_output_dir(name);
    let config = write_config(
        &dir,
        &format!(
            r#"<Configuration {attributes}><Appenders>
  <File name="F" fileName="{dir}/file.log" immediateFlush="false" bufferSize="1048576">
    <PatternLayout pattern="%m%n" footer="footer%n"/>
  </File>
</Appenders><Loggers><Root level="info"><AppenderRef ref="F"/></Root></Loggers></Configuration>"#,
            dir = dir.display()
        ),
    );
    let status = l4rs_tests::run_exit_probe(EXIT_PROBE, "return", &config);
    assert!(status.success(), "{status}");
    std::fs::read_to_string(dir.join("file.log")).expect("the file was created")
}

#[test]
fn shutdown_hook_disable_leaves_the_flush_to_the_program() {
    // With the hook (the default) the buffer is written and the footer follows at exit.
    let flushed = buffered_file_after_return("root-shutdown-hook-default", "");
    assert_eq!(flushed, l4rs_tests::exit_probe_events() + "footer\n");
    // As in log4j2, `disable` means nothing stops the appenders at exit: the buffered events
    // and the footer never reach the file.
    let unflushed =
        buffered_file_after_return("root-shutdown-hook-disable", r#"shutdownHook="disable""#);
    assert_eq!(unflushed, "");
}
