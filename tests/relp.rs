//! `protocol="RELP"` (an l4rs extension: log4j2 has no RELP transport) against a real rsyslog
//! with its RELP input, imrelp, started on 127.0.0.1 by the test (tests/support/rsyslog.rs):
//! every event arrives once with the fields rsyslog parsed, over plain TCP and TLS; a receiver
//! restart in the middle of a four-thread run behind a Failover puts every event in rsyslog's
//! output or the failover file (none lost); a refused port and a receiver that stops
//! acknowledging are status errors, and no caller waits longer than the bounds.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use l4rs::core::status::{self, GlobalCapture};
use l4rs_tests::rsyslog::{Certificates, Rsyslog, STORE_PASSWORD};
use l4rs_tests::serial;

/// A configuration with `appenders` and a root at DEBUG referring to `root_refs`.
fn config(appenders: &str, root_refs: &[&str]) -> String {
    l4rs_tests::root_config(
        r#"name="l4rs-relp" status="off""#,
        "debug",
        appenders,
        root_refs,
    )
}

/// Starts l4rs with `xml` (given the fresh output directory `name`); returns the directory and
/// the status messages building reported.
fn start(name: &str, xml: impl FnOnce(&str) -> String) -> (std::path::PathBuf, Vec<String>) {
    let dir = l4rs_tests::fresh_output_dir(name);
    let xml = xml(&dir.display().to_string());
    let path = l4rs_tests::write_config(&dir, &xml);
    let (_, records) = status::capture(|| l4rs::init_with_file(&path));
    (dir, records.into_iter().map(|r| r.message).collect())
}

/// Every status message the capture saw, and those building reported.
fn messages(capture: &GlobalCapture, building: &[String]) -> Vec<String> {
    let mut all = building.to_vec();
    all.extend(capture.records().into_iter().map(|record| record.message));
    all
}

/// `threads` threads log `per_thread` events `T{thread}-{sequence}` each.
fn log_from_threads(threads: usize, per_thread: usize, pause: Duration) {
    std::thread::scope(|scope| {
        for thread in 0..threads {
            scope.spawn(move || {
                let logger = l4rs::get_logger("relp");
                for sequence in 0..per_thread {
                    l4rs::info!(logger, "T{thread}-{sequence}");
                    if !pause.is_zero() {
                        std::thread::sleep(pause);
                    }
                }
            });
        }
    });
}

#[test]
fn every_event_from_four_threads_arrives_once_with_its_fields() {
    let _serial = serial();
    if !Rsyslog::relp_available() {
        return;
    }
    let dir = l4rs_tests::fresh_output_dir("relp-every-event");
    let rsyslog = Rsyslog::start_relp(&dir.join("rsyslog"), None);
    let port = rsyslog.relp_port();
    let (_, problems) = start("relp-every-event-l4rs", |_| {
        config(
            &format!(
                r#"<Syslog name="R" host="127.0.0.1" port="{port}" protocol="RELP" format="RFC5424" appName="shop" facility="LOCAL2" ignoreExceptions="false"/>"#
            ),
            &["R"],
        )
    });
    assert!(problems.is_empty(), "{problems:#?}");
    let per_thread = 500;
    let began = Instant::now();
    log_from_threads(4, per_thread, Duration::ZERO);
    let elapsed = began.elapsed();
    // Each call returned after rsyslog's acknowledgement: everything is there already.
    let received = rsyslog.received();
    eprintln!(
        "RELP, 4 threads: {} events acknowledged in {elapsed:?} ({:.0} events/s, debug build)",
        4 * per_thread,
        (4 * per_thread) as f64 / elapsed.as_secs_f64()
    );
    l4rs::shutdown();
    assert_eq!(received.len(), 4 * per_thread, "{}", rsyslog.stderr());
    let mut seen: HashMap<&str, usize> = HashMap::new();
    for message in &received {
        assert_eq!(
            (
                message.app_name.as_str(),
                message.facility.as_str(),
                message.severity.as_str()
            ),
            ("shop", "local2", "info"),
            "{message:?}"
        );
        *seen.entry(message.msg.as_str()).or_default() += 1;
    }
    for thread in 0..4 {
        for sequence in 0..per_thread {
            let event = format!("T{thread}-{sequence}");
            assert_eq!(seen.get(event.as_str()), Some(&1), "{event}");
        }
    }
}
