//! The SMTP appender against a real server (aiosmtpd, `src/smtp.rs`): `smtps` with the
//! server's certificate checked against a PEM trust store and a login; `STARTTLS` asked for
//! by JavaMail's `mail.smtp.starttls.required`; an `<Async>` appender in
//! front, with the subject formatted from the event's context map on the queue's thread; a
//! mail the server refuses, whose events the next mail carries; and a server that is not
//! there, whose refused connection fails the call at once (and reaches a caller whose appender
//! has `ignoreExceptions="false"`).
//! (The mails' bytes are compared with log4j2's in crates/conformance/tests/smtp_mail.rs.)

use std::time::{Duration, Instant};

use l4rs_tests::rsyslog::Certificates;
use l4rs_tests::smtp::{SinkOptions, SmtpSink};
use l4rs_tests::trickle::{trickling_tls_server, Turn};
use l4rs_tests::{fresh_output_dir, serial, write_config};

/// The text of the message's one part (the layouts here write ASCII, sent as 7bit).
fn body(data: &[u8]) -> String {
    let text = String::from_utf8_lossy(data).replace("\r\n", "\n");
    let part = text
        .split("Content-Transfer-Encoding: 7bit\n\n")
        .nth(1)
        .unwrap_or("");
    part.split("\n--").next().unwrap_or("").to_string()
}

fn subject(data: &[u8]) -> String {
    String::from_utf8_lossy(data)
        .lines()
        .find_map(|line| line.strip_prefix("Subject: ").map(str::to_string))
        .unwrap_or_default()
}

#[test]
fn smtps_with_a_trust_store_and_a_login() {
    let _turn = serial();
    let dir = fresh_output_dir("smtp-tls");
    let Some(certificates) = Certificates::generate(&dir.join("certificates")) else {
        return;
    };
    let options = SinkOptions {
        login: Some(("ops".to_string(), "s3cret".to_string())),
        tls: Some((
            certificates.dir.join("server.pem"),
            certificates.dir.join("server.key"),
        )),
        ..SinkOptions::default()
    };
    let Some(sink) = SmtpSink::start(&dir.join("mails"), &options) else {
        return;
    };
    let xml = format!(
        r#"<Configuration status="warn"><Appenders>
  <SMTP name="mail" smtpProtocol="smtps" smtpHost="localhost" smtpPort="{port}" smtpUsername="ops" smtpPassword="s3cret"
        to="ops@example.com" from="app@example.com" subject="%p %m" bufferSize="2">
    <PatternLayout pattern="%p %m%n"/>
    <SSL verifyHostName="true"><TrustStore location="{ca}" type="PEM"/></SSL>
  </SMTP>
</Appenders><Loggers><Root level="info"><AppenderRef ref="mail"/></Root></Loggers></Configuration>"#,
        port = sink.port(),
        ca = certificates.dir.join("ca.pem").display(),
    );
    l4rs::init_with_file(write_config(&dir, &xml)).expect("the configuration loads");
    let logger = l4rs::get_logger("app");
    for message in ["one", "two", "three"] {
        l4rs::warn!(logger, "{message}");
    }
    l4rs::error!(logger, "over TLS");
    let mails = sink.wait_for(1, Duration::from_secs(10));
    l4rs::shutdown();
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(mails[0].tls);
    assert_eq!(mails[0].login.as_deref(), Some("ops"));
    assert_eq!(mails[0].mail_from, "app@example.com");
    assert_eq!(mails[0].rcpt_tos, ["ops@example.com"]);
    assert_eq!(subject(&mails[0].data), "ERROR over TLS");
    // bufferSize 2: the oldest kept event is gone.
    assert_eq!(
        body(&mails[0].data),
        "WARN two\nWARN three\nERROR over TLS\n"
    );
}

#[test]
fn starttls_when_the_javamail_property_asks_for_it() {
    let _turn = serial();
    let dir = fresh_output_dir("smtp-starttls");
    let Some(certificates) = Certificates::generate(&dir.join("certificates")) else {
        return;
    };
    // The server takes no mail and offers no login before STARTTLS.
    let options = SinkOptions {
        login: Some(("ops".to_string(), "s3cret".to_string())),
        starttls: Some((
            certificates.dir.join("server.pem"),
            certificates.dir.join("server.key"),
        )),
        ..SinkOptions::default()
    };
    let Some(sink) = SmtpSink::start(&dir.join("mails"), &options) else {
        return;
    };
    l4rs::set_system_property("mail.smtp.starttls.required", "true");
    let xml = format!(
        r#"<Configuration status="warn"><Appenders>
  <SMTP name="mail" smtpHost="localhost" smtpPort="{port}" smtpUsername="ops" smtpPassword="s3cret"
        to="ops@example.com" from="app@example.com" subject="%m">
    <PatternLayout pattern="%p %m%n"/>
    <SSL><TrustStore location="{ca}" type="PEM"/></SSL>
  </SMTP>
</Appenders><Loggers><Root level="info"><AppenderRef ref="mail"/></Root></Loggers></Configuration>"#,
        port = sink.port(),
        ca = certificates.dir.join("ca.pem").display(),
    );
    l4rs::init_with_file(write_config(&dir, &xml)).expect("the configuration loads");
    l4rs::error!(l4rs::get_logger("app"), "after STARTTLS");
    let mails = sink.wait_for(1, Duration::from_secs(10));
    l4rs::shutdown();
    l4rs::clear_system_property("mail.smtp.starttls.required");
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert!(mails[0].tls, "the mail came in clear");
    assert_eq!(mails[0].login.as_deref(), Some("ops"));
    assert_eq!(body(&mails[0].data), "ERROR after STARTTLS\n");
}

#[test]
fn behind_an_async_appender_the_subject_reads_the_context_map() {
    let _turn = serial();
    let dir = fresh_output_dir("smtp-async");
    let Some(sink) = SmtpSink::start(&dir.join("mails"), &SinkOptions::default()) else {
        return;
    };
    // The corpus's SmtpAppenderAsyncTest.xml, with the server's port.
    let xml = format!(
        r#"<Configuration status="warn"><Appenders>
  <SMTP name="mail-sync" to="to@example.com" from="from@example.com" smtpHost="127.0.0.1" smtpPort="{port}"
        ignoreExceptions="false" subject="[%X{{MDC1}}]">
    <PatternLayout pattern="Body:[%X{{MDC1}}]"/>
  </SMTP>
  <Async name="mail-async"><AppenderRef ref="mail-sync"/></Async>
</Appenders><Loggers>
  <Root level="fatal"/>
  <Logger name="sync" level="info"><AppenderRef ref="mail-sync"/></Logger>
  <Logger name="async" level="info"><AppenderRef ref="mail-async"/></Logger>
</Loggers></Configuration>"#,
        port = sink.port()
    );
    l4rs::init_with_file(write_config(&dir, &xml)).expect("the configuration loads");
    l4rs::ThreadContext::put("MDC1", "sync-value");
    l4rs::error!(l4rs::get_logger("sync"), "sent on this thread");
    l4rs::ThreadContext::put("MDC1", "async-value");
    l4rs::error!(l4rs::get_logger("async"), "sent on the queue's thread");
    l4rs::ThreadContext::clear_map();
    l4rs::flush();
    let mails = sink.wait_for(2, Duration::from_secs(10));
    l4rs::shutdown();
    let seen: Vec<(String, String)> = mails
        .iter()
        .map(|mail| (subject(&mail.data), body(&mail.data)))
        .collect();
    assert_eq!(
        seen,
        [
            ("[sync-value]".to_string(), "Body:[sync-value]".to_string()),
            (
                "[async-value]".to_string(),
                "Body:[async-value]".to_string()
            ),
        ]
    );
}

#[test]
fn a_refused_mail_leaves_its_events_for_the_next_one() {
    let _turn = serial();
    let dir = fresh_output_dir("smtp-refused");
    let options = SinkOptions {
        refuse_first: 1,
        ..SinkOptions::default()
    };
    let Some(sink) = SmtpSink::start(&dir.join("mails"), &options) else {
        return;
    };
    let xml = format!(
        r#"<Configuration status="warn"><Appenders>
  <SMTP name="mail" smtpHost="127.0.0.1" smtpPort="{port}" to="ops@example.com" from="app@example.com" subject="%m">
    <PatternLayout pattern="%p %m%n"/>
  </SMTP>
</Appenders><Loggers><Root level="info"><AppenderRef ref="mail"/></Root></Loggers></Configuration>"#,
        port = sink.port()
    );
    l4rs::init_with_file(write_config(&dir, &xml)).expect("the configuration loads");
    let logger = l4rs::get_logger("app");
    l4rs::warn!(logger, "kept");
    l4rs::error!(logger, "refused by the server");
    l4rs::info!(logger, "kept after");
    l4rs::error!(logger, "accepted");
    let mails = sink.wait_for(1, Duration::from_secs(10));
    l4rs::shutdown();
    assert_eq!(mails.len(), 1, "{mails:?}");
    assert_eq!(
        body(&mails[0].data),
        "WARN kept\nERROR refused by the server\nINFO kept after\nERROR accepted\n"
    );
}

#[test]
fn a_server_that_is_not_there_fails_the_call_at_once() {
    let _turn = serial();
    let dir = fresh_output_dir("smtp-unreachable");
    let refused = l4rs_tests::net::refused_port();
    let xml = format!(
        r#"<Configuration status="warn"><Appenders>
  <SMTP name="mail" smtpHost="127.0.0.1" smtpPort="{refused}" to="ops@example.com" subject="%m" ignoreExceptions="false">
    <PatternLayout pattern="%m%n"/>
  </SMTP>
</Appenders><Loggers><Root level="info"><AppenderRef ref="mail"/></Root></Loggers></Configuration>"#
    );
    l4rs::init_with_file(write_config(&dir, &xml)).expect("the configuration loads");
    let logger = l4rs::get_logger("app");
    let started = Instant::now();
    l4rs::warn!(logger, "kept");
    let (sent, records) = l4rs::core::status::capture(|| {
        (0..5)
            .map(|_| {
                logger.log(
                    l4rs::Level::ERROR,
                    None,
                    None,
                    None,
                    format_args!("no server"),
                )
            })
            .collect::<Vec<_>>()
    });
    let elapsed = started.elapsed();
    assert!(
        sent.iter().all(Result::is_err),
        "ignoreExceptions=\"false\" hands the failure to the caller"
    );
    assert!(
        elapsed < Duration::from_secs(5),
        "a refused connection fails at once: {elapsed:?}"
    );
    // log4j2 prints one line per failed mail; l4rs one a second.
    let failures = records
        .iter()
        .filter(|r| {
            r.message
                .contains("Caught exception while sending e-mail notification.")
        })
        .count();
    assert!(
        (1..=1 + elapsed.as_secs() as usize).contains(&failures),
        "{failures} in {elapsed:?}: {records:?}"
    );
    l4rs::shutdown();
}

#[test]
fn an_smtps_greeting_trickled_a_byte_at_a_time_ends_at_the_read_timeout() {
    let _turn = serial();
    let dir = fresh_output_dir("smtp-tls-trickle");
    let Some(certificates) = Certificates::generate(&dir.join("certificates")) else {
        return;
    };
    // About 6 s at a byte per 20 ms, each byte well within the 500 ms read timeout.
    let greeting = format!("220 {}\r\n", "x".repeat(250));
    let (port, server) =
        trickling_tls_server(&certificates, Turn::AfterHandshake, greeting.into_bytes());
    l4rs::set_system_property("mail.smtps.timeout", "500");
    let xml = format!(
        r#"<Configuration status="off"><Appenders>
  <SMTP name="mail" smtpProtocol="smtps" smtpHost="localhost" smtpPort="{port}"
        to="ops@example.com" from="app@example.com" ignoreExceptions="false">
    <PatternLayout pattern="%p %m%n"/>
    <SSL><TrustStore location="{ca}" type="PEM"/></SSL>
  </SMTP>
</Appenders><Loggers><Root level="info"><AppenderRef ref="mail"/></Root></Loggers></Configuration>"#,
        ca = certificates.dir.join("ca.pem").display(),
    );
    l4rs::init_with_file(write_config(&dir, &xml)).expect("the configuration loads");
    let logger = l4rs::get_logger("app");
    let started = Instant::now();
    let (sent, records) = l4rs::core::status::capture(|| {
        logger.log(
            l4rs::Level::ERROR,
            None,
            None,
            None,
            format_args!("trickled"),
        )
    });
    let waited = started.elapsed();
    l4rs::shutdown();
    l4rs::clear_system_property("mail.smtps.timeout");
    assert!(waited < Duration::from_secs(2), "{waited:?}");
    assert!(
        sent.is_err(),
        "ignoreExceptions=\"false\" hands the failure to the caller"
    );
    let messages: Vec<String> = records.into_iter().map(|record| record.message).collect();
    assert!(
        messages
            .iter()
            .any(|message| message.ends_with("notification.: no reply within 500ms")),
        "{messages:?}"
    );
    server.join().expect("the server thread");
}
