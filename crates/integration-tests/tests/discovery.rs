//! Configuration discovery, as log4j2's `ConfigurationFactory` does it: `LOG4RS_CONFIGURATION_FILE`,
//! then log4j2's `LOG4J_CONFIGURATION_FILE`, then `log4j2-test.xml` and `log4j2.xml` in the
//! working directory, else the default configuration. Each case runs the discovery probe in its
//! own working directory and environment, since discovery happens once per process.

use std::path::{Path, PathBuf};

use l4rs_tests::{fresh_output_dir, read_lines, run_discovery_probe, ProbeRun};

const PROBE: &str = env!("CARGO_BIN_EXE_l4rs-discovery-probe");

/// The lines a configuration written by [`write_file_config`] receives from the probe.
const INFO_LINES: [&str; 3] = ["ERROR error line", "WARN warn line", "INFO info line"];

/// Writes `dir/<config>`: root at INFO to a File appender writing `%p %m%n` to `dir/<log>`.
fn write_file_config(dir: &Path, config: &str, log: &str) -> PathBuf {
    let path = dir.join(config);
    let xml = format!(
        r#"<Configuration>
  <Appenders><File name="F" fileName="{}"><PatternLayout pattern="%p %m%n"/></File></Appenders>
  <Loggers><Root level="info"><AppenderRef ref="F"/></Root></Loggers>
</Configuration>
"#,
        dir.join(log).display()
    );
    std::fs::write(&path, xml).expect("write configuration");
    path
}

/// Asserts that `log` got the probe's lines and that the run reported no problem.
fn assert_loaded(run: &ProbeRun, dir: &Path, log: &str) {
    assert_eq!(read_lines(&dir.join(log)), INFO_LINES, "{run:?}");
    assert!(run.problems().is_empty(), "{run:?}");
    assert!(
        run.output.iter().all(|l| !l.contains("error line")),
        "{run:?}"
    );
}

/// Asserts that the default configuration was in force: only the ERROR reached the console,
/// as `%d{HH:mm:ss.SSS} [%t] %-5level %logger{36} - %msg%n`.
fn assert_default_configuration(run: &ProbeRun) {
    let console: Vec<&String> = run
        .output
        .iter()
        .filter(|line| !line.starts_with("init: "))
        .collect();
    assert_eq!(console.len(), 1, "{run:?}");
    let line = console[0].as_bytes();
    let (time, rest) = line.split_at(12.min(line.len()));
    let digits = [0, 1, 3, 4, 6, 7, 9, 10, 11];
    assert!(
        digits.iter().all(|&i| time[i].is_ascii_digit())
            && time[2] == b':'
            && time[5] == b':'
            && time[8] == b'.',
        "HH:mm:ss.SSS: {run:?}"
    );
    assert_eq!(
        std::str::from_utf8(rest).unwrap(),
        " [main] ERROR discovery.Probe - error line"
    );
}

#[test]
fn log4rs_variable_names_the_file() {
    let dir = fresh_output_dir("discovery-log4rs");
    let named = write_file_config(&dir, "named.xml", "named.log");
    write_file_config(&dir, "log4j2.xml", "working-dir.log");
    let run = run_discovery_probe(
        PROBE,
        "lazy",
        &dir,
        &[("LOG4RS_CONFIGURATION_FILE", &named)],
    );
    assert_loaded(&run, &dir, "named.log");
    assert!(!dir.join("working-dir.log").exists());
}

#[test]
fn log4j_variable_is_the_fallback() {
    let dir = fresh_output_dir("discovery-log4j");
    let named = write_file_config(&dir, "log4j.xml", "log4j.log");
    let run = run_discovery_probe(PROBE, "lazy", &dir, &[("LOG4J_CONFIGURATION_FILE", &named)]);
    assert_loaded(&run, &dir, "log4j.log");
}

#[test]
fn log4rs_variable_takes_priority_over_log4j_variable() {
    let dir = fresh_output_dir("discovery-priority");
    let log4rs = write_file_config(&dir, "log4rs.xml", "log4rs.log");
    let log4j = write_file_config(&dir, "log4j.xml", "log4j.log");
    for mode in ["lazy", "init"] {
        let _ = std::fs::remove_file(dir.join("log4rs.log"));
        let run = run_discovery_probe(
            PROBE,
            mode,
            &dir,
            &[
                ("LOG4J_CONFIGURATION_FILE", &log4j),
                ("LOG4RS_CONFIGURATION_FILE", &log4rs),
            ],
        );
        assert_loaded(&run, &dir, "log4rs.log");
        assert!(!dir.join("log4j.log").exists(), "{mode}");
    }
}

#[test]
fn log4j2_test_xml_is_preferred_to_log4j2_xml_in_the_working_directory() {
    let dir = fresh_output_dir("discovery-working-dir");
    write_file_config(&dir, "log4j2-test.xml", "test.log");
    write_file_config(&dir, "log4j2.xml", "main.log");
    let run = run_discovery_probe(PROBE, "lazy", &dir, &[]);
    assert_loaded(&run, &dir, "test.log");
    assert!(!dir.join("main.log").exists());

    std::fs::remove_file(dir.join("log4j2-test.xml")).unwrap();
    let run = run_discovery_probe(PROBE, "init", &dir, &[]);
    assert_eq!(run.output, ["init: ok"]);
    assert_loaded(&run, &dir, "main.log");
}

/// A configuration that is not well-formed: the `<File>` element is never closed (line 3).
fn write_malformed(dir: &Path) -> PathBuf {
    let path = dir.join("broken.xml");
    std::fs::write(
        &path,
        "<Configuration>\n  <Appenders>\n    <File name=\"F\" fileName=\"x.log\">\n  </Appenders>\n</Configuration>\n",
    )
    .unwrap();
    path
}

#[test]
fn lazy_path_falls_back_to_the_default_configuration_on_a_malformed_file() {
    let dir = fresh_output_dir("discovery-lazy-malformed");
    let broken = write_malformed(&dir);
    // As in log4j2, a named file that cannot be loaded does not fall through to the working
    // directory's files.
    write_file_config(&dir, "log4j2-test.xml", "test.log");
    let run = run_discovery_probe(
        PROBE,
        "lazy",
        &dir,
        &[("LOG4RS_CONFIGURATION_FILE", &broken)],
    );
    assert_default_configuration(&run);
    // log4j2's two lines; the position is in the first one's help.
    let parsing = format!(
        "ERROR Error parsing {path} (help: {path}:4:3: ill-formed document: expected `</File>`, but `</Appenders>` was found)",
        path = broken.display()
    );
    let at = run.records.iter().position(|record| *record == parsing);
    assert!(at.is_some(), "{run:?}");
    assert_eq!(
        run.records.get(at.unwrap() + 1).map(String::as_str),
        Some("ERROR No logging configuration"),
        "{run:?}"
    );
    assert!(!dir.join("test.log").exists());
    assert!(!dir.join("x.log").exists());
}

#[test]
fn lazy_path_falls_back_to_the_default_configuration_on_a_missing_file() {
    let dir = fresh_output_dir("discovery-lazy-missing");
    let missing = dir.join("missing.xml");
    write_file_config(&dir, "log4j2.xml", "main.log");
    let run = run_discovery_probe(
        PROBE,
        "lazy",
        &dir,
        &[("LOG4J_CONFIGURATION_FILE", &missing)],
    );
    assert_default_configuration(&run);
    assert!(
        run.has_record(&format!(
            "ERROR Error parsing {}: cannot read the file",
            missing.display()
        )),
        "{run:?}"
    );
    assert!(!dir.join("main.log").exists());
}

#[test]
fn explicit_init_returns_the_error_and_uses_the_default_configuration() {
    let dir = fresh_output_dir("discovery-init-errors");
    let broken = write_malformed(&dir);
    let run = run_discovery_probe(
        PROBE,
        "init",
        &dir,
        &[("LOG4RS_CONFIGURATION_FILE", &broken)],
    );
    let expected = format!("init: error: Error parsing {}:4:", broken.display());
    assert!(run.output[0].starts_with(&expected), "{run:?}");
    assert_default_configuration(&run);

    let missing = dir.join("missing.xml");
    let run = run_discovery_probe(
        PROBE,
        "init",
        &dir,
        &[("LOG4RS_CONFIGURATION_FILE", &missing)],
    );
    let expected = format!(
        "init: error: Error parsing {}: cannot read the file",
        missing.display()
    );
    assert!(run.output[0].starts_with(&expected), "{run:?}");
    assert_default_configuration(&run);
}

#[test]
fn no_file_found_warns_as_log4j2_does_on_both_paths() {
    let dir = fresh_output_dir("discovery-none");
    for mode in ["lazy", "init"] {
        let run = run_discovery_probe(PROBE, mode, &dir, &[]);
        if mode == "init" {
            assert_eq!(run.output[0], "init: ok");
        }
        assert_default_configuration(&run);
        assert_eq!(
            run.problems(),
            ["WARN No Log4j 2 configuration file found. Using default configuration (logging only errors to the console), or user programmatically provided configurations. Set system property 'log4j2.debug' to show Log4j 2 internal initialization logging. See https://logging.apache.org/log4j/2.x/manual/configuration.html for instructions on how to configure Log4j 2"],
            "{mode}"
        );
    }
}
