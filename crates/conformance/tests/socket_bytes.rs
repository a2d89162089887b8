//! The bytes a Socket or Syslog appender sends, byte-identical with log4j2: each scenario of
//! `crates/conformance/tests/socket/` is replayed by the oracle (`shared/oracle/log4j2-java/run.sh`)
//! and by `l4rs-replay` against a receiver on 127.0.0.1 (crates/integration-tests/src/net.rs) whose port is
//! written into the scenario's `log4j2.xml` (`@TCP_PORT@`, `@UDP_PORT@`) before each run;
//! what the receiver recorded is compared (TCP: the stream, from connect to close; UDP: the
//! datagrams in order), each side's own pid masked as compare.py masks it.
//!
//! Skipped with a notice without Java or Debian's log4j2 jars, except under CI.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Duration;

use common::{
    materialize, oracle_dir, oracle_java_opts, replay_binary, require_oracle, scenario_name,
    workspace_root,
};
use l4rs_tests::net::{TcpReceiver, UdpReceiver};

/// What one side sent, pid masked.
#[derive(Debug, PartialEq, Eq)]
struct Sent {
    stream: String,
    datagrams: Vec<String>,
}

/// Runs `command` (a replay tool, by the contract of shared/oracle/SCENARIO.md) on
/// `scenario` against fresh receivers; returns what they recorded.
fn replay(command: &[&Path], scenario: &Path, work: &Path) -> Sent {
    let tcp = TcpReceiver::start();
    let udp = UdpReceiver::start();
    let copy = work.join("scenario");
    materialize(
        scenario,
        &copy,
        &[
            ("@TCP_PORT@", tcp.port().to_string()),
            ("@UDP_PORT@", udp.port().to_string()),
        ],
    );
    let out = work.join("out");
    let _ = std::fs::remove_dir_all(&out);
    let mut process = if command.len() == 1 {
        Command::new(command[0])
    } else {
        let mut process = Command::new(command[0]);
        process.args(&command[1..]);
        process
    };
    let output = process
        .env("ORACLE_JAVA_OPTS", oracle_java_opts())
        .env("TZ", "UTC")
        .arg(&copy)
        .arg(&out)
        .output()
        .expect("run the replay tool");
    assert!(
        output.status.success(),
        "{command:?} failed on {}: {}",
        scenario.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    let meta = std::fs::read_to_string(out.join("replay-meta.json")).expect("replay-meta.json");
    let pid = meta
        .split("\"pid\":")
        .nth(1)
        .and_then(|rest| {
            rest.trim_start()
                .split(|c: char| !c.is_ascii_digit())
                .next()
        })
        .expect("pid in replay-meta.json")
        .to_string();
    // The process has exited, so its connection is closed; UDP datagrams are already queued.
    let datagrams = udp.wait_for(usize::MAX, Duration::from_millis(300));
    let stream = if copy_uses(&copy, "TCP") {
        tcp.wait_until_closed(Duration::from_secs(10))
    } else {
        String::new()
    };
    drop(tcp);
    let mask = |text: String| mask_pid(&text, &pid);
    Sent {
        stream: mask(stream),
        datagrams: datagrams
            .into_iter()
            .map(|d| mask(String::from_utf8_lossy(&d).into_owned()))
            .collect(),
    }
}

/// True when the materialized scenario in `dir` sends over `protocol` (its config names the
/// receiver's port for it).
fn copy_uses(dir: &Path, protocol: &str) -> bool {
    let xml = std::fs::read_to_string(dir.join("log4j2.xml")).unwrap_or_default();
    let udp = xml.contains("\"UDP\"");
    (protocol == "UDP") == udp
}

/// `text` with every decimal number equal to `pid` replaced by `<PID>`.
fn mask_pid(text: &str, pid: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut digits = String::new();
    for c in text.chars().chain(std::iter::once('\u{0}')) {
        if c.is_ascii_digit() {
            digits.push(c);
            continue;
        }
        if !digits.is_empty() {
            out.push_str(if digits == pid { "<PID>" } else { &digits });
            digits.clear();
        }
        if c != '\u{0}' {
            out.push(c);
        }
    }
    out
}

fn scenarios() -> Vec<PathBuf> {
    let root = workspace_root().join("crates/conformance/tests/socket");
    let mut dirs: Vec<PathBuf> = std::fs::read_dir(&root)
        .expect("crates/conformance/tests/socket")
        .flatten()
        .map(|entry| entry.path())
        .filter(|path| path.join("log4j2.xml").exists())
        .collect();
    dirs.sort();
    dirs
}

#[test]
fn socket_appenders_send_log4j2s_bytes() {
    let scenarios = scenarios();
    assert!(scenarios.len() >= 5, "the socket scenarios are missing");
    if !require_oracle("the socket byte scenarios") {
        return;
    }
    let oracle = oracle_dir().join("log4j2-java/run.sh");
    let candidate = replay_binary();
    let work = std::env::temp_dir().join(format!("l4rs-socket-bytes-{}", std::process::id()));
    let mut failures = Vec::new();
    for scenario in &scenarios {
        let name = scenario_name(scenario);
        let expected = replay(
            &[Path::new("bash"), &oracle],
            scenario,
            &work.join("oracle"),
        );
        let actual = replay(&[&candidate], scenario, &work.join("l4rs"));
        assert!(
            !expected.stream.is_empty() || !expected.datagrams.is_empty(),
            "{name}: log4j2 sent nothing"
        );
        if expected == actual {
            println!("PASS {name}");
        } else {
            failures.push(format!(
                "FAIL {name}\n--- log4j2\n{expected:#?}\n--- l4rs\n{actual:#?}"
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&work);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
