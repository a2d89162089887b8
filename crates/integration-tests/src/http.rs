//! A real HTTP/1.1 server for the Http appender's tests: `src/http_sink.py` (Python's
//! standard library only), started on 127.0.0.1, optionally speaking TLS, answering chosen
//! statuses, closing each connection or answering late. Each request it reads is recorded as
//! received; [`HttpSink::requests`] reads them back. Without python3, [`HttpSink::start`]
//! returns `None` after `l4rs_test_support::shared::skip_or_fail` (a notice; a failure under
//! CI).

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::script_server::{python_script, read_records, wait_for_records, ScriptServer};

/// One request as the server read it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Request {
    /// The number of the connection it came on (1 for the first the server accepted).
    pub connection: u64,
    /// True when that connection spoke TLS.
    pub tls: bool,
    /// The request line and header lines, CRLF kept, up to and with the blank line.
    pub head: String,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The request line (`POST /logs HTTP/1.1`).
    pub fn request_line(&self) -> &str {
        self.head.split("\r\n").next().unwrap_or_default()
    }

    /// The headers, in order, as `(name, value)`.
    pub fn headers(&self) -> Vec<(String, String)> {
        self.head
            .split("\r\n")
            .skip(1)
            .filter_map(|line| line.split_once(": "))
            .map(|(name, value)| (name.to_string(), value.to_string()))
            .collect()
    }

    /// The value of the header `name` (any case).
    pub fn header(&self, name: &str) -> Option<String> {
        self.headers()
            .into_iter()
            .find(|(header, _)| header.eq_ignore_ascii_case(name))
            .map(|(_, value)| value)
    }

    /// The body as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.body).into_owned()
    }
}

/// How the server answers.
#[derive(Clone, Debug, Default)]
pub struct SinkOptions {
    /// A certificate and key in PEM files: TLS from the first byte.
    pub tls: Option<(PathBuf, PathBuf)>,
    /// The statuses of the first responses, one each; 200 after them.
    pub statuses: Vec<u16>,
    /// Answer with `Connection: close` and close each connection after one request.
    pub close: bool,
    /// Wait this long before answering the first request.
    pub delay_first: Option<Duration>,
    /// Close, without a word, a connection that carries no new request for this long after a
    /// response.
    pub idle_close: Option<Duration>,
    /// The requests (numbered from 1) whose connection is closed after reading them,
    /// unanswered.
    pub no_answer: Vec<usize>,
    /// Seconds named in a `Keep-Alive: timeout=…` header of every response (the server keeps
    /// the connection open longer).
    pub keep_alive_timeout: Option<u64>,
}

/// A running server; stopped when dropped.
pub struct HttpSink {
    server: ScriptServer,
    out: PathBuf,
}

impl HttpSink {
    /// Starts a server recording into the fresh directory `out`; `None` (after the notice)
    /// when python3 is missing.
    pub fn start(out: &Path, options: &SinkOptions) -> Option<HttpSink> {
        let mut command = python_script(
            "http_sink.py",
            out,
            "ssl",
            "the HTTP server tests",
            "python3 is missing (apt-get install python3)",
        )?;
        if let Some((certificate, key)) = &options.tls {
            command.arg("--tls").arg(certificate).arg(key);
        }
        if !options.statuses.is_empty() {
            let statuses: Vec<String> = options.statuses.iter().map(u16::to_string).collect();
            command.arg("--statuses").arg(statuses.join(","));
        }
        if options.close {
            command.arg("--close");
        }
        if let Some(delay) = options.delay_first {
            command
                .arg("--delay-first")
                .arg(delay.as_secs_f64().to_string());
        }
        if let Some(idle) = options.idle_close {
            command
                .arg("--idle-close")
                .arg(idle.as_secs_f64().to_string());
        }
        if let Some(seconds) = options.keep_alive_timeout {
            command.arg("--keep-alive-timeout").arg(seconds.to_string());
        }
        if !options.no_answer.is_empty() {
            let numbers: Vec<String> = options.no_answer.iter().map(usize::to_string).collect();
            command.arg("--no-answer").arg(numbers.join(","));
        }
        Some(HttpSink {
            server: ScriptServer::start("HTTP server", command),
            out: out.to_path_buf(),
        })
    }

    /// The port it listens on, on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.server.port()
    }

    /// The requests read so far, in order.
    pub fn requests(&self) -> Vec<Request> {
        read_records(&self.out, read_request)
    }

    /// Waits up to `limit` for `count` requests, and returns what arrived.
    pub fn wait_for(&self, count: usize, limit: Duration) -> Vec<Request> {
        wait_for_records(count, limit, || self.requests())
    }
}

/// Reads one recorded request (the small JSON object `http_sink.py` writes).
fn read_request(value: &serde_json::Value) -> Request {
    Request {
        connection: value["connection"].as_u64().unwrap_or_default(),
        tls: value["tls"].as_bool().unwrap_or(false),
        head: value["head"].as_str().unwrap_or_default().to_string(),
        body: base64::Engine::decode(
            &base64::engine::general_purpose::STANDARD,
            value["body"].as_str().unwrap_or_default(),
        )
        .expect("the body in base64"),
    }
}
