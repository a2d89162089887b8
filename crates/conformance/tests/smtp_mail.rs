//! The mails an SMTP appender sends, compared with log4j2's: each scenario of
//! `crates/conformance/tests/smtp/` is replayed by the oracle (log4j2 2.19 sending through
//! Debian's JavaMail 1.6) and by `l4rs-replay`, each against a fresh aiosmtpd server on
//! 127.0.0.1 (crates/integration-tests/src/smtp.rs) whose port is written into the scenario's
//! `log4j2.xml` (`@SMTP_PORT@`). The server asks for no login but accepts one
//! (`log4rs`/`secret`).
//!
//! Every mail must agree: the envelope (`MAIL FROM`, each `RCPT TO`), the user that logged in,
//! and the message byte for byte, but for what differs from run to run: the `Date` and
//! `Message-ID` values, the multipart boundary, and an HtmlLayout's clock readings. The name
//! the client gives in `EHLO` is not compared (JavaMail asks the resolver for a canonical name).
//!
//! Scenarios in [`KNOWN_DIFFERENCES`] must differ as described. Skipped with a notice without
//! Java, Debian's log4j2 jars or aiosmtpd, except under CI.

mod common;

use std::path::Path;

use common::{
    mask_html_clock_readings, materialize, replay_both, replay_into, require_oracle, BothReplays,
};
use l4rs_tests::smtp::{Mail, SinkOptions, SmtpSink};

/// Scenarios where l4rs sends what log4j2 does not, on purpose (docs/compatibility.md).
const KNOWN_DIFFERENCES: &[(&str, &str)] = &[(
    "803-smtp-no-subject",
    "log4j2 2.19 fails every mail of an appender without a subject; l4rs sends it without one",
)];

/// What one mail is compared by.
#[derive(Debug, PartialEq, Eq)]
struct Compared {
    mail_from: String,
    rcpt_tos: Vec<String>,
    login: Option<String>,
    message: String,
}

/// The message with what changes from run to run masked.
fn masked(data: &[u8]) -> String {
    // Whether JavaMail folds the multipart type before `boundary=` depends on the random
    // boundary's length, which is masked too; so is the fold.
    let text = String::from_utf8_lossy(data)
        .replace("\r\n", "\n")
        .replace("; \n\tboundary=", "; boundary=");
    let boundary = text
        .split("boundary=\"")
        .nth(1)
        .and_then(|rest| rest.split('"').next())
        .map(str::to_string);
    let mut lines: Vec<String> = text
        .split('\n')
        .map(|line| {
            if line.starts_with("Date: ") {
                "Date: <DATE>".to_string()
            } else if line.starts_with("Message-ID: ") {
                "Message-ID: <ID>".to_string()
            } else {
                line.to_string()
            }
        })
        .collect();
    if let Some(boundary) = boundary {
        for line in &mut lines {
            *line = line.replace(&boundary, "<BOUNDARY>");
        }
    }
    mask_html_clock_readings(&lines.join("\n"), true)
}

/// Runs `command` (a replay tool, by the contract of shared/oracle/SCENARIO.md; the oracle's
/// when `oracle`) on `scenario` against a fresh server; returns the mails it received, or
/// `None` without aiosmtpd.
fn replay(command: &Path, scenario: &Path, work: &Path, oracle: bool) -> Option<Vec<Compared>> {
    let options = SinkOptions {
        login: Some(("log4rs".to_string(), "secret".to_string())),
        ..SinkOptions::default()
    };
    let sink = SmtpSink::start(&work.join("mails"), &options)?;
    let copy = work.join("scenario");
    materialize(scenario, &copy, &[("@SMTP_PORT@", sink.port().to_string())]);
    let out = work.join("out");
    let _ = std::fs::remove_dir_all(&out);
    replay_into(command, &copy, &out, oracle);
    let mails: Vec<Mail> = sink.mails();
    Some(
        mails
            .into_iter()
            .map(|mail| Compared {
                mail_from: mail.mail_from,
                rcpt_tos: mail.rcpt_tos,
                login: mail.login,
                message: masked(&mail.data),
            })
            .collect(),
    )
}

#[test]
fn mails_are_log4j2s() {
    if !require_oracle("the SMTP appender against log4j2") {
        return;
    }
    let Some(replays) = replay_both("smtp", "smtp-mail", replay) else {
        return;
    };
    let mut differences = Vec::new();
    let mut compared = 0;
    let mut logins = 0;
    for BothReplays { name, theirs, ours } in replays {
        let known = KNOWN_DIFFERENCES.iter().find(|(known, _)| *known == name);
        match known {
            Some((_, reason)) => assert_ne!(
                theirs, ours,
                "{name} is listed as a known difference ({reason}) but l4rs now sends what log4j2 sends"
            ),
            None if theirs != ours => differences.push(format!(
                "{name}:\n  log4j2 sent {} mail(s):\n{theirs:#?}\n  l4rs sent {}:\n{ours:#?}",
                theirs.len(),
                ours.len()
            )),
            None => {
                assert!(!theirs.is_empty(), "{name}: log4j2 sent no mail to compare");
                compared += theirs.len();
                logins += theirs.iter().filter(|mail| mail.login.is_some()).count();
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
    assert!(logins > 0, "no scenario's mails were sent after a login");
    println!("{compared} mails agree with log4j2's ({logins} after a login)");
}

#[test]
fn the_masks_leave_the_rest_of_a_message_alone() {
    let message = b"Date: Mon, 7 Dec 2026 06:28:53 +0000 (UTC)\r\nMessage-ID: <1.2.3@vm>\r\nContent-Type: multipart/mixed; \r\n\tboundary=\"----=_Part_0_1.2\"\r\n\r\n------=_Part_0_1.2\r\nbody 42\r\n------=_Part_0_1.2--\r\n";
    assert_eq!(
        masked(message),
        "Date: <DATE>\nMessage-ID: <ID>\nContent-Type: multipart/mixed; boundary=\"<BOUNDARY>\"\n\n--<BOUNDARY>\nbody 42\n--<BOUNDARY>--\n"
    );
}
