//! The requests an Http appender sends, compared with log4j2's: each scenario of
//! `crates/conformance/tests/http/` is replayed by the oracle (log4j2 2.19 sending through
//! Java's `HttpURLConnection`) and by `l4rs-replay`, each against a fresh HTTP server on
//! 127.0.0.1 (crates/integration-tests/src/http.rs) whose port is written into the scenario's
//! `log4j2.xml` (`@HTTP_PORT@`) and which answers the statuses [`STATUSES`] gives the scenario.
//!
//! Every request must agree byte for byte, but for `User-Agent` (Java names itself, l4rs
//! itself) and the port in `Host` (each run has its own server): the request line, the
//! headers in order, the body, and which connection it came on (so that connections are kept
//! alive and reused alike). So must the status lines that report a failed request.
//!
//! Skipped with a notice without Java or Debian's log4j2 jars, except under CI.

mod common;

use std::path::Path;

use common::{
    materialize, replay_both, replay_into, require_oracle, scenario_name, status_lines, BothReplays,
};
use l4rs_tests::http::{HttpSink, SinkOptions};

/// The statuses the server answers a scenario's first requests with (200 after them).
const STATUSES: &[(&str, &[u16])] = &[("812-http-error-statuses", &[500, 404, 302, 503])];

/// What one request is compared by.
#[derive(Debug, PartialEq, Eq)]
struct Compared {
    connection: u64,
    head: String,
    body: String,
}

/// The head with what differs between the two clients and runs masked.
fn masked(head: &str, port: u16) -> String {
    head.split("\r\n")
        .map(|line| {
            if line.starts_with("User-Agent: ") {
                "User-Agent: <CLIENT>".to_string()
            } else {
                line.replace(&format!(":{port}"), ":<PORT>")
            }
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Runs `command` (a replay tool, by the contract of shared/oracle/SCENARIO.md; the oracle's
/// when `oracle`) on `scenario` against a fresh server; returns the requests it received and
/// the status lines about sending, or `None` without python3.
fn replay(
    command: &Path,
    scenario: &Path,
    work: &Path,
    oracle: bool,
) -> Option<(Vec<Compared>, Vec<String>)> {
    let name = scenario_name(scenario);
    let statuses = STATUSES
        .iter()
        .find(|(listed, _)| *listed == name)
        .map(|(_, statuses)| statuses.to_vec())
        .unwrap_or_default();
    let options = SinkOptions {
        statuses,
        ..SinkOptions::default()
    };
    let sink = HttpSink::start(&work.join("requests"), &options)?;
    let copy = work.join("scenario");
    materialize(scenario, &copy, &[("@HTTP_PORT@", sink.port().to_string())]);
    let out = work.join("out");
    let _ = std::fs::remove_dir_all(&out);
    let stderr = replay_into(command, &copy, &out, oracle);
    let requests = sink
        .requests()
        .into_iter()
        .map(|request| Compared {
            connection: request.connection,
            head: masked(&request.head, sink.port()),
            body: request.text(),
        })
        .collect();
    let status = status_lines(&stderr, &copy, &out, true)
        .into_iter()
        .filter(|line| line.contains("Unable to send HTTP"))
        .collect();
    Some((requests, status))
}

#[test]
fn requests_are_log4j2s() {
    if !require_oracle("the Http appender against log4j2") {
        return;
    }
    let Some(replays) = replay_both("http", "http-requests", replay) else {
        return;
    };
    let mut differences = Vec::new();
    let mut compared = 0;
    let mut failures = 0;
    for BothReplays { name, theirs, ours } in replays {
        if theirs != ours {
            differences.push(format!(
                "{name}:\n  log4j2 sent:\n{theirs:#?}\n  l4rs sent:\n{ours:#?}"
            ));
            continue;
        }
        assert!(
            !theirs.0.is_empty(),
            "{name}: log4j2 sent no request to compare"
        );
        compared += theirs.0.len();
        failures += theirs.1.len();
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    assert!(failures > 0, "no scenario's request failed");
    println!("{compared} requests and {failures} failure reports agree with log4j2's");
}

#[test]
fn the_masks_leave_the_rest_of_a_head_alone() {
    let head = "POST /in HTTP/1.1\r\nUser-Agent: Java/17.0.15\r\nHost: 127.0.0.1:4321\r\nX-Port: 4321\r\n\r\n";
    assert_eq!(
        masked(head, 4321),
        "POST /in HTTP/1.1\nUser-Agent: <CLIENT>\nHost: 127.0.0.1:<PORT>\nX-Port: 4321\n\n"
    );
}
