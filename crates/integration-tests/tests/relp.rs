//! `protocol="RELP"` (an l4rs extension: log4j2 has no RELP transport) against a real rsyslog
//! with its RELP input, imrelp, started on 127.0.0.1 by the test (crates/integration-tests/src/rsyslog.rs):
//! every event arrives once with the fields rsyslog parsed, over plain TCP and TLS; a receiver
//! restart in the middle of a four-thread run behind a Failover puts every event in rsyslog's
//! output or the failover file (none lost); a refused port and a receiver that stops
//! acknowledging are status errors, and no caller waits longer than the bounds.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use l4rs::core::status::GlobalCapture;
use l4rs_tests::init_reporting as start;
use l4rs_tests::rsyslog::{Certificates, FailoverSample, Rsyslog, STORE_PASSWORD};
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

/// How rsyslog is restarted in the middle of a run.
#[derive(Clone, Copy)]
enum Restart {
    /// SIGTERM: rsyslog's orderly shutdown (it tells its RELP clients `serverclose`).
    Stop,
    /// SIGKILL: no shutdown at all.
    Kill,
}

/// How many times each event `T{thread}-{sequence}` is in rsyslog's output and in the
/// failover file, after four threads logged `per_thread` events each through the appenders
/// `appenders(port, dir)` while rsyslog restarted once; and the two counts of lines.
fn run_through_a_restart(
    name: &str,
    restart: Restart,
    appenders: impl FnOnce(u16, &str) -> String,
    per_thread: usize,
) -> (HashMap<String, usize>, Vec<String>, usize) {
    let dir = l4rs_tests::fresh_output_dir(name);
    let mut rsyslog = Rsyslog::start_relp(&dir.join("rsyslog"), None);
    let port = rsyslog.relp_port();
    let (out, problems) = start(&format!("{name}-l4rs"), |dir| {
        config(&appenders(port, dir), &["Root"])
    });
    assert!(problems.is_empty(), "{problems:#?}");
    std::thread::scope(|scope| {
        // About two seconds: long enough for the Failover to go back to the primary after the
        // restart.
        scope.spawn(|| log_from_threads(4, per_thread, Duration::from_millis(2)));
        std::thread::sleep(Duration::from_millis(300));
        match restart {
            Restart::Stop => rsyslog.restart(),
            Restart::Kill => rsyslog.kill_and_restart(),
        }
    });
    l4rs::shutdown();
    let received: Vec<String> = rsyslog.received().into_iter().map(|r| r.msg).collect();
    let mut seen: HashMap<String, usize> = HashMap::new();
    for message in &received {
        *seen.entry(message.clone()).or_default() += 1;
    }
    let in_file = l4rs_tests::read_lines(&out.join("failover.log"));
    for line in &in_file {
        *seen.entry(line.clone()).or_default() += 1;
    }
    (seen, received, in_file.len())
}

/// The acceptance test of the restart: behind a Failover, every event is in rsyslog's output
/// or in the failover file. RELP guarantees no loss; what it cannot exclude is a duplicate:
/// an event rsyslog wrote whose acknowledgement was lost when the session broke is failed
/// (and written to the file) or sent again on the next session. Each thread has one event
/// in flight at a time and the restart breaks one session, so each thread may see at most
/// one such event; any other count is a failure.
#[test]
fn a_restart_behind_a_failover_loses_no_event() {
    let _serial = serial();
    if !Rsyslog::relp_available() {
        return;
    }
    behind_a_failover_no_event_is_lost("relp-restart-failover", Restart::Stop);
}

/// The same with rsyslog killed (SIGKILL) instead of stopped: nothing tells the appender, the
/// unacknowledged events fail when the connection breaks.
#[test]
fn a_killed_receiver_behind_a_failover_loses_no_event() {
    let _serial = serial();
    if !Rsyslog::relp_available() {
        return;
    }
    behind_a_failover_no_event_is_lost("relp-kill-failover", Restart::Kill);
}

/// The body of the two tests above (see the first one's documentation).
fn behind_a_failover_no_event_is_lost(name: &str, restart: Restart) {
    let per_thread = 1000;
    let (seen, in_rsyslog, in_file) = run_through_a_restart(
        name,
        restart,
        |port, dir| {
            format!(
                r#"<Syslog name="S" host="127.0.0.1" port="{port}" protocol="RELP" format="RFC5424" ignoreExceptions="false" reconnectionDelayMillis="100" connectTimeoutMillis="2000"/>
<File name="F" fileName="{dir}/failover.log"><PatternLayout pattern="%m%n"/></File>
<Failover name="Root" primary="S" retryIntervalSeconds="1"><Failovers><AppenderRef ref="F"/></Failovers></Failover>"#
            )
        },
        per_thread,
    );
    let mut lost = Vec::new();
    let mut doubled = Vec::new();
    for thread in 0..4 {
        let mut doubled_here = 0;
        for sequence in 0..per_thread {
            let event = format!("T{thread}-{sequence}");
            match seen.get(&event).copied().unwrap_or(0) {
                0 => lost.push(event),
                1 => {}
                2 => {
                    doubled_here += 1;
                    doubled.push(event);
                }
                n => panic!("{event} is there {n} times"),
            }
        }
        assert!(
            doubled_here <= 1,
            "thread {thread} has {doubled_here} events twice: {doubled:?}"
        );
    }
    eprintln!(
        "{name}: rsyslog {}, failover file {in_file}, lost {}, twice {doubled:?}",
        in_rsyslog.len(),
        lost.len()
    );
    assert!(lost.is_empty(), "lost: {lost:?}");
    assert!(in_file > 0, "the restart sent nothing to the failover");
    // The Failover went back to the primary, which had reconnected: every thread's last
    // event is in rsyslog.
    for thread in 0..4 {
        let last = format!("T{thread}-{}", per_thread - 1);
        assert!(in_rsyslog.contains(&last), "{last} is not in rsyslog");
    }
    assert_eq!(
        seen.len(),
        4 * per_thread,
        "lines the test did not log are among {:?}",
        seen.keys()
            .filter(|k| !k.starts_with('T'))
            .collect::<Vec<_>>()
    );
}

/// Without a Failover, the events logged while rsyslog was down are lost (each with its
/// error); the appender reconnects and every thread's last events arrive.
#[test]
fn a_restart_without_a_failover_reconnects_and_keeps_logging() {
    let _serial = serial();
    if !Rsyslog::relp_available() {
        return;
    }
    let per_thread = 1000;
    let (seen, in_rsyslog, _) = run_through_a_restart(
        "relp-restart-plain",
        Restart::Stop,
        |port, _| {
            format!(
                r#"<Syslog name="Root" host="127.0.0.1" port="{port}" protocol="RELP" format="RFC5424" reconnectionDelayMillis="100"/>"#
            )
        },
        per_thread,
    );
    let missing = 4 * per_thread - seen.len();
    eprintln!(
        "RELP restart without a Failover: {} received, {missing} missing",
        in_rsyslog.len()
    );
    assert!(
        missing > 0,
        "the restart cost nothing: was rsyslog restarted?"
    );
    for thread in 0..4 {
        assert!(seen.contains_key(&format!("T{thread}-{}", per_thread - 1)));
    }
}

#[test]
fn relp_over_tls_delivers_every_event() {
    let _serial = serial();
    if !Rsyslog::relp_available() {
        return;
    }
    let dir = l4rs_tests::fresh_output_dir("relp-tls");
    let Some(certificates) = Certificates::generate(&dir.join("certs")) else {
        return;
    };
    let rsyslog = Rsyslog::start_relp(&dir.join("rsyslog"), Some(&certificates));
    let (_, problems) = start("relp-tls-l4rs", |_| {
        config(
            &format!(
                r#"<Syslog name="R" host="localhost" port="{port}" protocol="RELP" format="RFC5424" appName="tls">
  <Ssl verifyHostName="true">
    <KeyStore location="{p12}" password="{STORE_PASSWORD}"/>
    <TrustStore location="{ca}" type="PEM"/>
  </Ssl>
</Syslog>"#,
                port = rsyslog.relp_tls_port(),
                p12 = certificates.file("client.p12"),
                ca = certificates.file("ca.pem"),
            ),
            &["R"],
        )
    });
    assert!(problems.is_empty(), "{problems:#?}");
    let logger = l4rs::get_logger("relp.tls");
    for index in 0..200 {
        l4rs::info!(logger, "tls event {index}");
    }
    // Acknowledged, so written: no waiting.
    let received = rsyslog.received();
    l4rs::shutdown();
    let messages: Vec<&str> = received.iter().map(|r| r.msg.as_str()).collect();
    let expected: Vec<String> = (0..200).map(|i| format!("tls event {i}")).collect();
    assert_eq!(messages, expected, "{}", rsyslog.stderr());
    assert!(received.iter().all(|r| r.app_name == "tls"));
}

#[test]
fn a_refused_port_is_reported_and_the_failover_takes_every_event_at_once() {
    let _serial = serial();
    let port = l4rs_tests::net::refused_port();
    let capture = GlobalCapture::start();
    let (out, building) = start("relp-refused", |dir| {
        config(
            &format!(
                r#"<Syslog name="S" host="127.0.0.1" port="{port}" protocol="RELP" ignoreExceptions="false" reconnectionDelayMillis="100"/>
<File name="F" fileName="{dir}/failover.log"><PatternLayout pattern="%m%n"/></File>
<Failover name="Root" primary="S" retryIntervalSeconds="1"><Failovers><AppenderRef ref="F"/></Failovers></Failover>"#
            ),
            &["Root"],
        )
    });
    let logger = l4rs::get_logger("relp.refused");
    let began = Instant::now();
    for index in 0..50 {
        l4rs::info!(logger, "spooled {index}");
    }
    let elapsed = began.elapsed();
    l4rs::shutdown();
    assert!(elapsed < Duration::from_secs(5), "took {elapsed:?}");
    let all = messages(&capture, &building);
    let creation = format!(
        "RelpSocketManager (RELP:127.0.0.1:{port}) caught exception and will continue: java.io.IOException: Unable to create socket for 127.0.0.1 at port {port}"
    );
    assert!(
        all.iter().any(|m| m.starts_with(&creation)),
        "{creation}\n{all:#?}"
    );
    let expected: Vec<String> = (0..50).map(|i| format!("spooled {i}")).collect();
    assert_eq!(l4rs_tests::read_lines(&out.join("failover.log")), expected);
}

/// rsyslog frozen (SIGSTOP) keeps the session open and acknowledges nothing: the event
/// fails after the acknowledgement timeout and goes to the failover; the events after it fail
/// at once until the reconnector's delay. No call waits longer than the bounds.
#[test]
fn a_receiver_that_stops_acknowledging_fails_the_event_within_the_timeout() {
    let _serial = serial();
    if !Rsyslog::relp_available() {
        return;
    }
    let dir = l4rs_tests::fresh_output_dir("relp-stall");
    let rsyslog = Rsyslog::start_relp(&dir.join("rsyslog"), None);
    let timeout = Duration::from_millis(500);
    let capture = GlobalCapture::start();
    let (out, building) = start("relp-stall-l4rs", |dir| {
        config(
            &format!(
                r#"<Syslog name="S" host="127.0.0.1" port="{port}" protocol="RELP" ignoreExceptions="false" connectTimeoutMillis="{millis}" reconnectionDelayMillis="60000"/>
<File name="F" fileName="{dir}/failover.log"><PatternLayout pattern="%m%n"/></File>
<Failover name="Root" primary="S" retryIntervalSeconds="60"><Failovers><AppenderRef ref="F"/></Failovers></Failover>"#,
                port = rsyslog.relp_port(),
                millis = timeout.as_millis(),
            ),
            &["Root"],
        )
    });
    assert!(building.is_empty(), "{building:#?}");
    let logger = l4rs::get_logger("relp.stall");
    l4rs::info!(logger, "before the stall");
    assert_eq!(rsyslog.received().len(), 1);
    rsyslog.set_frozen(true);
    let mut slowest = Duration::ZERO;
    for index in 0..5 {
        let began = Instant::now();
        l4rs::info!(logger, "stalled {index}");
        slowest = slowest.max(began.elapsed());
    }
    rsyslog.set_frozen(false);
    l4rs::shutdown();
    // One acknowledgement timeout, with half a timeout of slack for a loaded machine.
    assert!(
        slowest < timeout * 3 / 2,
        "one event blocked for {slowest:?} (timeout {timeout:?})"
    );
    assert!(
        slowest >= timeout,
        "no event waited for its acknowledgement"
    );
    let expected: Vec<String> = (0..5).map(|i| format!("stalled {i}")).collect();
    assert_eq!(l4rs_tests::read_lines(&out.join("failover.log")), expected);
    let all = messages(&capture, &building);
    assert!(
        all.iter()
            .any(|m| m.contains("the receiver did not acknowledge the event within 500 ms")),
        "{all:#?}"
    );
}

/// `config-samples/syslog-relp-failover.xml` as shipped: RELP over TLS to rsyslog, and to its
/// failover file once rsyslog is gone.
#[test]
fn the_relp_failover_sample_ships_to_rsyslog_and_spools_when_it_is_down() {
    let _serial = serial();
    if !Rsyslog::relp_available() {
        return;
    }
    let dir = l4rs_tests::fresh_output_dir("relp-sample");
    let Some(certificates) = Certificates::generate(&dir.join("certs")) else {
        return;
    };
    let mut rsyslog = Rsyslog::start_relp(&dir.join("rsyslog"), Some(&certificates));
    let port = rsyslog.relp_tls_port();
    let sample = FailoverSample {
        file: "syslog-relp-failover.xml",
        prefix: "RELP",
        spool_file: "relp-failover.log",
        acknowledged: true,
    };
    sample.check(&mut rsyslog, port, &certificates, &dir);
}

/// A Socket's layout bytes are the RELP message as they are; a line end at the end (`%n`)
/// travels inside it (RELP frames carry their length), and rsyslog drops it: both appenders'
/// events (sharing the manager `RELP:127.0.0.1:port`) are parsed alike.
#[test]
fn a_socket_with_a_pattern_layout_sends_its_bytes_as_they_are() {
    let _serial = serial();
    if !Rsyslog::relp_available() {
        return;
    }
    let dir = l4rs_tests::fresh_output_dir("relp-socket");
    let rsyslog = Rsyslog::start_relp(&dir.join("rsyslog"), None);
    let (_, problems) = start("relp-socket-l4rs", |_| {
        config(
            &format!(
                r#"<Socket name="S" host="127.0.0.1" port="{port}" protocol="RELP"><PatternLayout pattern="&lt;14&gt;1 - - app - - - %m"/></Socket>
<Socket name="N" host="127.0.0.1" port="{port}" protocol="RELP"><PatternLayout pattern="&lt;14&gt;1 - - app - - - %m%n"/></Socket>"#,
                port = rsyslog.relp_port()
            ),
            &["S", "N"],
        )
    });
    assert!(problems.is_empty(), "{problems:#?}");
    let logger = l4rs::get_logger("relp.socket");
    l4rs::info!(logger, "plain pattern");
    let received = rsyslog.received();
    l4rs::shutdown();
    assert_eq!(received.len(), 2, "{}", rsyslog.stderr());
    for message in &received {
        assert_eq!(
            (
                message.facility.as_str(),
                message.severity.as_str(),
                message.app_name.as_str(),
                message.msg.as_str()
            ),
            ("user", "info", "app", "plain pattern")
        );
    }
}
