//! Console destinations, seen from outside the process: `SYSTEM_OUT` and `SYSTEM_ERR`, each
//! through Rust's standard streams and with `direct="true"` (the raw descriptors 1 and 2), and
//! stdout still usable after `l4rs::shutdown()` stopped a direct Console (it never closes the
//! descriptor). Each case runs the discovery probe, which logs `error line`, `warn line`,
//! `info line` and `debug line` on `discovery.Probe`.

use l4rs_tests::{fresh_output_dir, run_discovery_probe, write_config, ProbeRun};

const DISCOVERY_PROBE: &str = env!("CARGO_BIN_EXE_l4rs-discovery-probe");

/// Runs the probe in `mode` with Console appenders of the given `(name, attributes)`, each
/// prefixing its lines with its name, all fed by `discovery.Probe` at INFO.
fn run_with_consoles(label: &str, mode: &str, consoles: &[(&str, &str)]) -> ProbeRun {
    let dir = fresh_output_dir(label);
    let appenders: String = consoles
        .iter()
        .map(|(name, attributes)| {
            format!(
                r#"<Console name="{name}" {attributes}><PatternLayout pattern="{name} %m%n"/></Console>"#
            )
        })
        .collect();
    let refs: String = consoles
        .iter()
        .map(|(name, _)| format!(r#"<AppenderRef ref="{name}"/>"#))
        .collect();
    let config = write_config(
        &dir,
        &format!(
            r#"<Configuration><Appenders>{appenders}</Appenders><Loggers>
  <Logger name="discovery.Probe" level="info" additivity="false">{refs}</Logger>
  <Root level="off"/>
</Loggers></Configuration>"#
        ),
    );
    run_discovery_probe(
        DISCOVERY_PROBE,
        mode,
        &dir,
        &[("LOG4RS_CONFIGURATION_FILE", &config)],
    )
}

/// The three enabled events as `prefix`'s Console prints them.
fn lines(prefix: &str) -> Vec<String> {
    ["error line", "warn line", "info line"]
        .iter()
        .map(|message| format!("{prefix} {message}"))
        .collect()
}

fn stderr_lines(run: &ProbeRun) -> Vec<String> {
    run.stderr.lines().map(str::to_string).collect()
}

#[test]
fn each_target_reaches_its_stream_with_and_without_direct() {
    let run = run_with_consoles(
        "console-streams",
        "lazy",
        &[
            ("Out", r#"target="SYSTEM_OUT""#),
            ("Err", r#"target="SYSTEM_ERR""#),
            ("OutDirect", r#"target="SYSTEM_OUT" direct="true""#),
            ("ErrDirect", r#"target="SYSTEM_ERR" direct="true""#),
        ],
    );
    assert!(run.records.is_empty(), "a clean configuration: {run:?}");
    let interleave = |first: &str, second: &str| -> Vec<String> {
        lines(first)
            .into_iter()
            .zip(lines(second))
            .flat_map(|(a, b)| [a, b])
            .collect()
    };
    // Every write reaches the stream before the call returns, so the order is the calls'.
    assert_eq!(run.output, interleave("Out", "OutDirect"), "{run:?}");
    assert_eq!(
        stderr_lines(&run),
        interleave("Err", "ErrDirect"),
        "{run:?}"
    );
}

#[test]
fn stdout_works_after_shutdown_stops_a_direct_console() {
    let run = run_with_consoles(
        "console-direct-shutdown",
        "after-shutdown",
        &[("OutDirect", r#"target="SYSTEM_OUT" direct="true""#)],
    );
    let mut expected = lines("OutDirect");
    expected.push("stdout after shutdown".to_string());
    assert_eq!(run.output, expected, "{run:?}");
    assert!(run.stderr.is_empty(), "{run:?}");
}
