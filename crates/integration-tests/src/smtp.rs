//! A real SMTP server for the SMTP appender's tests: aiosmtpd (from PyPI, which
//! `.ci/setup/50-smtp.sh` installs), started on 127.0.0.1 by `src/smtp_sink.py`, optionally
//! asking for a login and speaking TLS from the first byte (`smtps`). Each mail it accepts is
//! recorded with its envelope; [`SmtpSink::mails`] reads them back. Without Python's aiosmtpd,
//! [`SmtpSink::start`] returns `None` after `l4rs_test_support::shared::skip_or_fail` (a
//! notice; a failure under CI).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::script_server::{python_script, read_records, wait_for_records, ScriptServer};

/// One mail as the server received it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mail {
    /// `MAIL FROM`.
    pub mail_from: String,
    /// Every `RCPT TO`, in order.
    pub rcpt_tos: Vec<String>,
    /// The user that logged in, if one did.
    pub login: Option<String>,
    /// The name the client gave in `EHLO`/`HELO`.
    pub ehlo: String,
    /// True when the mail came over TLS (from the first byte, or after `STARTTLS`).
    pub tls: bool,
    /// The message, as received (CRLF lines, dot-stuffing undone).
    pub data: Vec<u8>,
}

/// What the server asks of its clients.
#[derive(Clone, Debug, Default)]
pub struct SinkOptions {
    /// A user name and password to require (`AUTH LOGIN` and `AUTH PLAIN` offered).
    pub login: Option<(String, String)>,
    /// A certificate and key in PEM files: TLS from the first byte.
    pub tls: Option<(PathBuf, PathBuf)>,
    /// A certificate and key in PEM files: `STARTTLS` offered and required before any mail
    /// (and before a login).
    pub starttls: Option<(PathBuf, PathBuf)>,
    /// How many messages to answer with 451 (try again later) before accepting any.
    pub refuse_first: usize,
}

/// A running server; stopped when dropped.
pub struct SmtpSink {
    server: ScriptServer,
    out: PathBuf,
}

impl SmtpSink {
    /// Starts a server recording into the fresh directory `out`; `None` (after the notice)
    /// when Python's aiosmtpd is missing.
    pub fn start(out: &Path, options: &SinkOptions) -> Option<SmtpSink> {
        let mut command = python_script(
            "smtp_sink.py",
            out,
            "aiosmtpd",
            "the SMTP server tests",
            "python3 with aiosmtpd is missing (pip install aiosmtpd==1.4.6)",
        )?;
        if let Some((user, password)) = &options.login {
            command.arg("--auth").arg(format!("{user}:{password}"));
        }
        if let Some((certificate, key)) = &options.tls {
            command.arg("--tls").arg(certificate).arg(key);
        }
        if let Some((certificate, key)) = &options.starttls {
            command.arg("--starttls").arg(certificate).arg(key);
        }
        command
            .arg("--refuse-first")
            .arg(options.refuse_first.to_string());
        Some(SmtpSink {
            server: ScriptServer::start("SMTP server", command),
            out: out.to_path_buf(),
        })
    }

    /// The port it listens on, on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.server.port()
    }

    /// The mails received so far, in order.
    pub fn mails(&self) -> Vec<Mail> {
        read_records(&self.out, read_mail)
    }

    /// Waits up to `limit` for `count` mails, and returns what arrived.
    pub fn wait_for(&self, count: usize, limit: Duration) -> Vec<Mail> {
        wait_for_records(count, limit, || self.mails())
    }
}

/// Reads one recorded mail (the small JSON object `smtp_sink.py` writes).
fn read_mail(value: &serde_json::Value) -> Mail {
    let string = |key: &str| value[key].as_str().map(str::to_string);
    Mail {
        mail_from: string("mail_from").unwrap_or_default(),
        rcpt_tos: value["rcpt_tos"]
            .as_array()
            .map(|list| {
                list.iter()
                    .filter_map(|v| v.as_str().map(str::to_string))
                    .collect()
            })
            .unwrap_or_default(),
        login: string("login"),
        ehlo: string("ehlo").unwrap_or_default(),
        tls: value["tls"].as_bool().unwrap_or(false),
        data: base64::Engine::decode(
            &base64::engine::general_purpose::STANDARD,
            string("data").unwrap_or_default(),
        )
        .expect("the message in base64"),
    }
}
