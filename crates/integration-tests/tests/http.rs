//! The Http appender against a real HTTP server (`src/http_sink.py`): `https` with the
//! server's certificate checked against a PEM trust store, and its host name checked unless
//! `verifyHostname="false"`; error statuses and a redirect reported, and handed to a caller
//! whose appender has `ignoreExceptions="false"`; a server that answers too late, one that is
//! not there, one that closes every connection, one that closes a kept connection while it is
//! idle, and one that reads a request and drops it (never sent again); an `<Async>` appender
//! in front, with a header resolved from the event's context map on the queue's thread.
//! (The requests' bytes are compared with log4j2's in crates/conformance/tests/http_requests.rs.)

use std::time::{Duration, Instant};

use l4rs_tests::http::{HttpSink, SinkOptions};
use l4rs_tests::rsyslog::Certificates;
use l4rs_tests::trickle::{trickling_tls_server, Turn};
use l4rs_tests::{fresh_output_dir, reported, serial, write_config};

const WAIT: Duration = Duration::from_secs(10);

/// Loads a configuration with one Http appender, `appender` (its XML), under the root at INFO.
fn init(dir: &std::path::Path, appender: &str) {
    let xml = format!(
        r#"<Configuration status="warn"><Appenders>{appender}</Appenders><Loggers><Root level="info"><AppenderRef ref="web"/></Root></Loggers></Configuration>"#
    );
    l4rs::init_with_file(write_config(dir, &xml)).expect("the configuration loads");
}

/// An Http appender named `web` sending `%m` to `sink` over plain HTTP, with `attributes`.
fn plain_appender(sink: &HttpSink, attributes: &str) -> String {
    format!(
        r#"<Http name="web" url="http://127.0.0.1:{}/in" {attributes}><PatternLayout pattern="%m"/></Http>"#,
        sink.port()
    )
}

/// The connection and body of each request `sink` got, waiting for `count` of them.
fn received(sink: &HttpSink, count: usize) -> Vec<(u64, String)> {
    sink.wait_for(count, WAIT)
        .iter()
        .map(|request| (request.connection, request.text()))
        .collect()
}

/// Logs `message` at INFO; `Err` when the appender handed its failure to the caller.
fn log(message: &str) -> Result<(), String> {
    l4rs::get_logger("app")
        .log(
            l4rs::Level::INFO,
            None,
            None,
            None,
            format_args!("{message}"),
        )
        .map_err(|error| error.to_string())
}

#[test]
fn https_checks_the_certificate_and_its_host_name() {
    let _turn = serial();
    let dir = fresh_output_dir("http-tls");
    let Some(certificates) = Certificates::generate(&dir.join("certificates")) else {
        return;
    };
    let ca = certificates.dir.join("ca.pem");
    for (certificate, verify, delivered) in [
        ("server", "true", true),
        ("misnamed", "true", false),
        ("misnamed", "false", true),
    ] {
        let options = SinkOptions {
            tls: Some((
                certificates.dir.join(format!("{certificate}.pem")),
                certificates.dir.join(format!("{certificate}.key")),
            )),
            ..SinkOptions::default()
        };
        let Some(sink) = HttpSink::start(&dir.join(format!("{certificate}-{verify}")), &options)
        else {
            return;
        };
        init(
            &dir,
            &format!(
                r#"<Http name="web" url="https://localhost:{port}/in" verifyHostname="{verify}">
  <PatternLayout pattern="%m"/>
  <Ssl><TrustStore location="{ca}" type="PEM"/></Ssl>
</Http>"#,
                port = sink.port(),
                ca = ca.display()
            ),
        );
        let ((), messages) = reported(|| {
            let _ = log("one");
            let _ = log("two");
        });
        l4rs::shutdown();
        let requests = sink.requests();
        if delivered {
            assert!(messages.is_empty(), "{certificate} {verify}: {messages:?}");
            let seen: Vec<(u64, bool, String)> = requests
                .iter()
                .map(|r| (r.connection, r.tls, r.text()))
                .collect();
            assert_eq!(
                seen,
                [(1, true, "one".to_string()), (1, true, "two".to_string())],
                "{certificate} {verify}"
            );
        } else {
            assert!(requests.is_empty(), "{requests:?}");
            assert_eq!(messages.len(), 2, "{messages:?}");
            assert!(
                messages[0].starts_with(
                    "Unable to send HTTP in appender [web] javax.net.ssl.SSLHandshakeException"
                ),
                "{messages:?}"
            );
        }
    }
}

#[test]
fn error_statuses_and_redirects_are_reported_and_reach_a_strict_caller() {
    let _turn = serial();
    let dir = fresh_output_dir("http-statuses");
    let options = SinkOptions {
        statuses: vec![500, 302],
        ..SinkOptions::default()
    };
    let Some(sink) = HttpSink::start(&dir.join("requests"), &options) else {
        return;
    };
    init(&dir, &plain_appender(&sink, r#"ignoreExceptions="false""#));
    // Two failures make four reports, as many as log4j2's error handler prints before it
    // limits them to one per interval.
    let (results, messages) = reported(|| [log("a"), log("b"), log("c")]);
    l4rs::shutdown();
    assert!(results[0].is_err() && results[1].is_err(), "{results:?}");
    assert!(results[2].is_ok(), "{results:?}");
    assert_eq!(
        messages,
        [
            "Unable to send HTTP in appender [web] java.io.IOException: 500 Server Error - error 500 from the sink",
            "An exception occurred processing Appender web org.apache.logging.log4j.core.appender.AppenderLoggingException: Unable to send HTTP in appender [web]",
            "Unable to send HTTP in appender [web] java.io.IOException: 302 Found",
            "An exception occurred processing Appender web org.apache.logging.log4j.core.appender.AppenderLoggingException: Unable to send HTTP in appender [web]",
        ]
    );
    // The connection is kept after an error status, and given up after a redirect, as Java
    // gives it up.
    let connections: Vec<u64> = sink.requests().iter().map(|r| r.connection).collect();
    assert_eq!(connections, [1, 1, 2]);
}

#[test]
fn a_server_that_answers_late_fails_the_call_within_the_read_timeout() {
    let _turn = serial();
    let dir = fresh_output_dir("http-slow");
    let options = SinkOptions {
        delay_first: Some(Duration::from_secs(3)),
        ..SinkOptions::default()
    };
    let Some(sink) = HttpSink::start(&dir.join("requests"), &options) else {
        return;
    };
    init(
        &dir,
        &plain_appender(&sink, r#"readTimeoutMillis="300" ignoreExceptions="false""#),
    );
    let started = Instant::now();
    let (late, messages) = reported(|| log("late"));
    let waited = started.elapsed();
    assert!(late.is_err(), "{late:?}");
    assert!(
        waited >= Duration::from_millis(300) && waited < Duration::from_secs(2),
        "{waited:?}"
    );
    assert_eq!(
        messages[0],
        "Unable to send HTTP in appender [web] java.net.SocketTimeoutException: Read timed out"
    );
    // The timed-out connection is dropped; the next event goes on a new one.
    assert!(log("next").is_ok());
    l4rs::shutdown();
    let seen = received(&sink, 2);
    assert_eq!(seen, [(1, "late".to_string()), (2, "next".to_string())]);
}

#[test]
fn over_https_too_the_read_timeout_bounds_the_response() {
    let _turn = serial();
    let dir = fresh_output_dir("http-tls-slow");
    let Some(certificates) = Certificates::generate(&dir.join("certificates")) else {
        return;
    };
    let options = SinkOptions {
        tls: Some((
            certificates.dir.join("server.pem"),
            certificates.dir.join("server.key"),
        )),
        delay_first: Some(Duration::from_secs(3)),
        ..SinkOptions::default()
    };
    let Some(sink) = HttpSink::start(&dir.join("requests"), &options) else {
        return;
    };
    init(
        &dir,
        &format!(
            r#"<Http name="web" url="https://localhost:{port}/in" readTimeoutMillis="300">
  <PatternLayout pattern="%m"/>
  <Ssl><TrustStore location="{ca}" type="PEM"/></Ssl>
</Http>"#,
            port = sink.port(),
            ca = certificates.dir.join("ca.pem").display()
        ),
    );
    let started = Instant::now();
    let ((), messages) = reported(|| {
        let _ = log("late");
    });
    let waited = started.elapsed();
    l4rs::shutdown();
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    assert_eq!(
        messages,
        ["Unable to send HTTP in appender [web] java.net.SocketTimeoutException: Read timed out"]
    );
    assert_eq!(sink.wait_for(1, WAIT).len(), 1);
}

#[test]
fn a_tls_response_trickled_a_byte_at_a_time_ends_at_the_read_timeout() {
    let _turn = serial();
    let dir = fresh_output_dir("http-tls-trickle");
    let Some(certificates) = Certificates::generate(&dir.join("certificates")) else {
        return;
    };
    let body = "x".repeat(200);
    let response = format!("HTTP/1.1 200 OK\r\nContent-Length: 200\r\n\r\n{body}");
    let (port, server) =
        trickling_tls_server(&certificates, Turn::AfterRequest, response.into_bytes());
    init(
        &dir,
        &format!(
            r#"<Http name="web" url="https://localhost:{port}/in" readTimeoutMillis="500">
  <PatternLayout pattern="%m"/>
  <Ssl><TrustStore location="{ca}" type="PEM"/></Ssl>
</Http>"#,
            ca = certificates.dir.join("ca.pem").display()
        ),
    );
    let started = Instant::now();
    let ((), messages) = reported(|| {
        let _ = log("trickled");
    });
    let waited = started.elapsed();
    l4rs::shutdown();
    // The whole response would take about 6 s at a byte per 20 ms.
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    assert_eq!(
        messages,
        ["Unable to send HTTP in appender [web] java.net.SocketTimeoutException: Read timed out"]
    );
    server.join().expect("the server thread");
}

#[test]
fn a_server_that_is_not_there_fails_the_call_at_once() {
    let _turn = serial();
    let dir = fresh_output_dir("http-refused");
    let refused = l4rs_tests::net::refused_port();
    init(
        &dir,
        &format!(
            r#"<Http name="web" url="http://127.0.0.1:{refused}/in" ignoreExceptions="false"><PatternLayout pattern="%m"/></Http>"#
        ),
    );
    let started = Instant::now();
    let (result, messages) = reported(|| log("nobody listens"));
    assert!(result.is_err());
    assert!(
        started.elapsed() < Duration::from_secs(5),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(
        messages[0],
        "Unable to send HTTP in appender [web] java.net.ConnectException: Connection refused"
    );
    l4rs::shutdown();
}

#[test]
fn a_server_that_closes_each_connection_gets_every_event() {
    let _turn = serial();
    let dir = fresh_output_dir("http-close");
    let options = SinkOptions {
        close: true,
        ..SinkOptions::default()
    };
    let Some(sink) = HttpSink::start(&dir.join("requests"), &options) else {
        return;
    };
    init(&dir, &plain_appender(&sink, r#""#));
    let ((), messages) = reported(|| {
        for message in ["one", "two", "three"] {
            assert!(log(message).is_ok());
        }
    });
    l4rs::shutdown();
    assert!(messages.is_empty(), "{messages:?}");
    let seen = received(&sink, 3);
    assert_eq!(
        seen,
        [
            (1, "one".to_string()),
            (2, "two".to_string()),
            (3, "three".to_string())
        ]
    );
}

#[test]
fn a_kept_connection_the_server_closed_is_not_used() {
    let _turn = serial();
    let dir = fresh_output_dir("http-idle-close");
    let options = SinkOptions {
        idle_close: Some(Duration::from_millis(200)),
        ..SinkOptions::default()
    };
    let Some(sink) = HttpSink::start(&dir.join("requests"), &options) else {
        return;
    };
    init(&dir, &plain_appender(&sink, r#""#));
    let ((), messages) = reported(|| {
        assert!(log("before").is_ok());
        // The server closes the kept connection meanwhile.
        std::thread::sleep(Duration::from_millis(600));
        assert!(log("after").is_ok());
    });
    l4rs::shutdown();
    assert!(messages.is_empty(), "{messages:?}");
    let seen = received(&sink, 2);
    assert_eq!(seen, [(1, "before".to_string()), (2, "after".to_string())]);
}

#[test]
fn a_kept_connection_is_given_up_after_the_servers_keep_alive_timeout() {
    let _turn = serial();
    let dir = fresh_output_dir("http-keep-alive-timeout");
    // The server names 1 s and keeps the connection open longer: past the second, l4rs
    // gives it up itself (its own limit would be 5 s).
    let options = SinkOptions {
        keep_alive_timeout: Some(1),
        ..SinkOptions::default()
    };
    let Some(sink) = HttpSink::start(&dir.join("requests"), &options) else {
        return;
    };
    init(&dir, &plain_appender(&sink, ""));
    assert!(log("first").is_ok());
    assert!(log("soon after").is_ok());
    std::thread::sleep(Duration::from_millis(1300));
    assert!(log("after the timeout").is_ok());
    l4rs::shutdown();
    assert_eq!(
        received(&sink, 3),
        [
            (1, "first".to_string()),
            (1, "soon after".to_string()),
            (2, "after the timeout".to_string())
        ]
    );
}

#[test]
fn a_request_the_server_read_and_dropped_is_not_sent_again() {
    let _turn = serial();
    let dir = fresh_output_dir("http-no-answer");
    // The second request is read and its connection closed without an answer: the server may
    // have taken the event, so sending it again could deliver it twice.
    let options = SinkOptions {
        no_answer: vec![2],
        ..SinkOptions::default()
    };
    let Some(sink) = HttpSink::start(&dir.join("requests"), &options) else {
        return;
    };
    init(&dir, &plain_appender(&sink, r#""#));
    let ((), messages) = reported(|| {
        for message in ["one", "dropped", "three"] {
            let _ = log(message);
        }
    });
    l4rs::shutdown();
    assert_eq!(
        messages,
        ["Unable to send HTTP in appender [web] java.net.SocketException: Unexpected end of file from server"]
    );
    let seen = received(&sink, 3);
    assert_eq!(
        seen,
        [
            (1, "one".to_string()),
            (1, "dropped".to_string()),
            (2, "three".to_string())
        ]
    );
}

#[test]
fn behind_an_async_appender_headers_resolve_with_the_events_context() {
    let _turn = serial();
    let dir = fresh_output_dir("http-async");
    let Some(sink) = HttpSink::start(&dir.join("requests"), &SinkOptions::default()) else {
        return;
    };
    let xml = format!(
        r#"<Configuration status="warn"><Appenders>
  <Http name="http" url="http://127.0.0.1:{port}/in">
    <Property name="X-User" value="$${{ctx:user}}"/>
    <PatternLayout pattern="%X{{user}} %m"/>
  </Http>
  <Async name="web"><AppenderRef ref="http"/></Async>
</Appenders><Loggers><Root level="info"><AppenderRef ref="web"/></Root></Loggers></Configuration>"#,
        port = sink.port()
    );
    l4rs::init_with_file(write_config(&dir, &xml)).expect("the configuration loads");
    l4rs::ThreadContext::put("user", "alice");
    assert!(log("queued").is_ok());
    l4rs::ThreadContext::clear_map();
    l4rs::flush();
    let requests = sink.wait_for(1, WAIT);
    l4rs::shutdown();
    assert_eq!(requests.len(), 1, "{requests:?}");
    assert_eq!(requests[0].header("X-User").as_deref(), Some("alice"));
    assert_eq!(requests[0].text(), "alice queued");
}
