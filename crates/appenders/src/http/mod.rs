//! log4j2's HttpAppender: each event's layout bytes are the body of one HTTP/1.1 request to
//! the appender's `url`, sent on the calling thread, as log4j2's `HttpURLConnectionManager`
//! sends them through Java's `HttpURLConnection`.
//!
//! The request is Java's: the method (`POST` by default; `GET` is sent as `POST`, as Java does
//! for a request with a body), the path and query of the URL, then `Content-Type` (the
//! layout's), the `<Property>` headers in order (a value holding `${…}` resolved for each
//! event), `User-Agent`, `Host`, Java's `Accept`, `Connection: keep-alive` and
//! `Content-Length`. Headers Java refuses to let a program set (`Host`, `Connection`,
//! `Content-Length`, …) are dropped, as Java drops them. Only `User-Agent` differs: l4rs names
//! itself.
//!
//! A response of 2xx is success; its body is read and dropped. Any other status fails the
//! event with Java's text (`500 Server Error - <the error body>`), reported as log4j2 reports
//! it: `Unable to send HTTP in appender [name]` and the exception. Connections are kept alive
//! and reused (up to [`MAX_IDLE`] idle ones, each for [`IDLE_LIFETIME`] or the server's
//! `Keep-Alive` parameters), as Java's keep-alive cache does, and checked for a close before
//! reuse. A request written whole is never sent again, as Java never sends a request with a
//! body twice; only one whose writing failed on a kept connection goes once more.
//!
//! Unlike Java's defaults, which wait without limit, every step is bounded: the connection
//! (`connectTimeoutMillis`, else [`DEFAULT_TIMEOUT`]) and the whole response (`readTimeoutMillis`,
//! else [`DEFAULT_TIMEOUT`]; Java's limit is per read).

mod request;
mod response;

use std::cell::RefCell;
use std::io::{self, Read, Write};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use l4rs_config::model::HttpSpec;
use l4rs_core::{AppendError, Appender, Interpolator, Layout, LogEvent};
use rustls::ClientConfig;

use crate::client_stream::{ClientStream, StreamLimits};
use crate::AppenderBuildError;
use request::{HeaderValue, RequestLine};
use response::{read_response, ResponseBuffers, ResponseError};

/// The limit of a step whose timeout is 0 (Java: none).
pub(crate) const DEFAULT_TIMEOUT: Duration = Duration::from_secs(10);
/// The most connections kept alive between events (Java's `http.maxConnections` default).
pub(crate) const MAX_IDLE: usize = 5;
/// How long an idle connection is kept (Java's keep-alive default when the server names none).
pub(crate) const IDLE_LIFETIME: Duration = Duration::from_secs(5);

/// log4j2's HttpAppender (see the module documentation).
pub struct HttpAppender {
    name: String,
    layout: Arc<dyn Layout>,
    /// The request line and the fixed headers, or why no request can be made (a method Java
    /// refuses, a port out of range, a control character in the URL, no host), reported at
    /// each event as Java reports it.
    request: Result<RequestLine, String>,
    headers: Vec<(String, HeaderValue)>,
    interpolator: Arc<dyn Interpolator>,
    /// The host to connect to (an IPv6 address without its brackets) and its port.
    host: String,
    port: u16,
    tls: Option<Arc<ClientConfig>>,
    limits: StreamLimits,
    /// The idle connections; `None` once the appender is stopped.
    idle: Mutex<Option<Vec<Connection>>>,
    stopped: AtomicBool,
}

/// One connection to the server, with the buffers its responses reuse.
struct Connection {
    stream: ClientStream,
    response: ResponseBuffers,
    /// When it may be reused until (the server's `Keep-Alive: timeout`, else [`IDLE_LIFETIME`]
    /// from its last response).
    reusable_until: Instant,
    /// How many more requests the server takes on it (`Keep-Alive: max`).
    uses_left: u64,
}

/// Where a failed exchange stands.
enum Failure {
    /// No connection could be opened.
    Connect(io::Error),
    /// Writing the request failed: the server closed the connection before reading it all,
    /// so it cannot have taken the event (worth one more try when the connection was a kept
    /// one).
    Write(io::Error),
    /// Anything after the request was written, in Java's words: never sent again, as Java
    /// never sends a request with a body again.
    Exchange(String),
}

thread_local! {
    /// The request being sent (head and body), built before a connection is taken.
    static REQUEST: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

impl HttpAppender {
    /// Builds the appender `spec` describes; fails when an `https` trust or key store cannot be
    /// loaded.
    pub fn new(
        name: &str,
        spec: &HttpSpec,
        layout: Arc<dyn Layout>,
        interpolator: Arc<dyn Interpolator>,
    ) -> Result<HttpAppender, AppenderBuildError> {
        let tls = tls_config(name, spec)?;
        let port = spec.port.unwrap_or(if spec.https { 443 } else { 80 });
        let illegal = |text: &str| text.chars().any(|c| c.is_control() || c == ' ');
        let request = RequestLine::new(spec)
            .and_then(|line| {
                u16::try_from(port).map(|_| line).map_err(|_| {
                    format!("java.lang.IllegalArgumentException: port out of range:{port}")
                })
            })
            .and_then(|line| {
                // A line break in the URL would start a header of its own.
                if illegal(&spec.target) || illegal(&spec.host) {
                    Err("java.net.MalformedURLException: Illegal character in URL".to_string())
                } else if spec.host.is_empty() {
                    Err("java.net.UnknownHostException: the url names no host".to_string())
                } else {
                    Ok(line)
                }
            });
        let millis = |value: i32| {
            u64::try_from(value)
                .ok()
                .filter(|millis| *millis > 0)
                .map_or(DEFAULT_TIMEOUT, Duration::from_millis)
        };
        let read = millis(spec.read_timeout_millis);
        let headers = request::header_values(&layout.content_type(), &spec.headers);
        Ok(HttpAppender {
            name: name.to_string(),
            layout,
            request,
            headers,
            interpolator,
            host: spec
                .host
                .strip_prefix('[')
                .and_then(|host| host.strip_suffix(']'))
                .unwrap_or(&spec.host)
                .to_string(),
            port: u16::try_from(port).unwrap_or(0),
            tls,
            limits: StreamLimits {
                connect: millis(spec.connect_timeout_millis),
                read,
                write: read,
            },
            idle: Mutex::new(Some(Vec::new())),
            stopped: AtomicBool::new(false),
        })
    }

    /// Sends one request with `body`; the error is Java's exception text.
    fn send(&self, event: &LogEvent<'_>, body: &[u8]) -> Result<(), String> {
        let line = self.request.as_ref().map_err(Clone::clone)?;
        let build = |request: &mut Vec<u8>| -> Result<(), String> {
            request.clear();
            // The header values are resolved and checked before any connection is taken, as
            // Java checks them when they are set.
            line.write_head(
                request,
                &self.headers,
                |text| self.interpolator.interpolate(text, Some(event)),
                body.len(),
            )?;
            request.extend_from_slice(body);
            self.transmit(request, line.method())
        };
        REQUEST
            .try_with(|request| match request.try_borrow_mut() {
                Ok(mut request) => {
                    let sent = build(&mut request);
                    // One huge event does not keep its buffer on this thread for ever.
                    if request.capacity() > crate::encode::MAX_RETAINED_CAPACITY {
                        *request = Vec::new();
                    }
                    sent
                }
                // A nested send on this thread (an appender of its own logging) gets its own.
                Err(_) => build(&mut Vec::new()),
            })
            .unwrap_or_else(|_| build(&mut Vec::new()))
    }

    /// Sends the `request` built, on a kept connection when one is open, else on a new one.
    fn transmit(&self, request: &[u8], method: &str) -> Result<(), String> {
        let (mut connection, reused) = match self.idle_connection() {
            Some(connection) => (connection, true),
            None => (
                self.connect().map_err(|failure| self.describe(failure))?,
                false,
            ),
        };
        let mut result = self.exchange(&mut connection, request, method);
        if reused && matches!(result, Err(Failure::Write(_))) {
            // The server closed the kept connection before reading the request (between the
            // check and the write): it did not take it, so it goes once more on a new one.
            connection = self.connect().map_err(|failure| self.describe(failure))?;
            result = self.exchange(&mut connection, request, method);
        }
        match result {
            Ok((reusable, status)) => {
                // A connection that carried an error status is as good as any other. One whose
                // request asked for `Connection: close` is kept too, as Java keeps it: the
                // server decides, and the check before reuse sees it closed.
                if reusable {
                    self.keep(connection);
                }
                status
            }
            Err(failure) => Err(self.describe(failure)),
        }
    }

    /// A kept connection that can carry another request: young enough, with uses left, and
    /// with nothing arrived on it since its last response (a server that closed it).
    fn idle_connection(&self) -> Option<Connection> {
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let idle = idle.as_mut()?;
        let now = Instant::now();
        while let Some(mut connection) = idle.pop() {
            if now < connection.reusable_until
                && connection.uses_left > 0
                && connection.stream.is_idle_and_open()
            {
                return Some(connection);
            }
        }
        None
    }

    /// Keeps `connection` for the next request, unless the appender is stopped; the kept ones
    /// past their time are closed now.
    fn keep(&self, connection: Connection) {
        let mut idle = self
            .idle
            .lock()
            .unwrap_or_else(|poison| poison.into_inner());
        let Some(idle) = idle.as_mut() else {
            return;
        };
        let now = Instant::now();
        idle.retain(|kept| now < kept.reusable_until);
        if connection.uses_left > 0 && idle.len() < MAX_IDLE {
            idle.push(connection);
        }
    }

    fn connect(&self) -> Result<Connection, Failure> {
        ClientStream::connect(&self.host, self.port, self.limits, self.tls.as_ref())
            .map(|stream| Connection {
                stream,
                response: ResponseBuffers::default(),
                reusable_until: Instant::now(),
                uses_left: u64::MAX,
            })
            .map_err(Failure::Connect)
    }

    /// Writes the request and reads the response: whether the connection can carry another
    /// request, and the response's status as a result (the error in Java's words).
    fn exchange(
        &self,
        connection: &mut Connection,
        request: &[u8],
        method: &str,
    ) -> Result<(bool, Result<(), String>), Failure> {
        connection
            .stream
            .write_all(request)
            .and_then(|()| connection.stream.flush())
            .map_err(Failure::Write)?;
        let mut reader = UntilDeadline {
            stream: &mut connection.stream,
            deadline: Instant::now() + self.limits.read,
        };
        let response =
            read_response(&mut reader, &mut connection.response, method).map_err(|error| {
                match error {
                    ResponseError::ClosedBeforeResponse => Failure::Exchange(
                        "java.net.SocketException: Unexpected end of file from server".to_string(),
                    ),
                    ResponseError::Io(error) => Failure::Exchange(io_exception(&error, "Read")),
                    ResponseError::Malformed(what) => {
                        Failure::Exchange(format!("java.io.IOException: {what}"))
                    }
                }
            })?;
        // The server's own timeout less a margin (a second, or half of a shorter one), so that
        // a request is not written just as the server closes the connection (it would fail,
        // not being sent again); 0 is Java's default.
        connection.reusable_until = Instant::now()
            + match response.keep_alive_timeout {
                Some(seconds) if seconds > 0 => {
                    let timeout = Duration::from_secs(seconds);
                    timeout - (timeout / 2).min(Duration::from_secs(1))
                }
                _ => IDLE_LIFETIME,
            };
        connection.uses_left = match response.keep_alive_max {
            Some(max) => max.saturating_sub(1),
            None => connection.uses_left.saturating_sub(1),
        };
        let kept = &connection.response.kept;
        let status = match response.code {
            200..=299 => Ok(()),
            code => {
                // Java's text: the code, the reason, and for an error status the error body
                // (read as US-ASCII).
                let mut text = format!("java.io.IOException: {code}");
                let reason = response.reason(kept);
                if !reason.is_empty() {
                    text.push(' ');
                    text.push_str(&String::from_utf8_lossy(reason));
                }
                if code >= 400 {
                    text.push_str(" - ");
                    text.extend(response.body(kept).iter().map(|&b| {
                        if b.is_ascii() {
                            char::from(b)
                        } else {
                            char::REPLACEMENT_CHARACTER
                        }
                    }));
                }
                Err(text)
            }
        };
        // Java gives up a connection whose answer was a redirect it does not follow.
        let reusable =
            response.reusable && !(response.redirect && (300..400).contains(&response.code));
        Ok((reusable, status))
    }

    /// Java's exception text for a failure.
    fn describe(&self, failure: Failure) -> String {
        match failure {
            Failure::Connect(error) if error.kind() == io::ErrorKind::NotFound => {
                format!("java.net.UnknownHostException: {}", self.host)
            }
            Failure::Connect(error) if error.kind() == io::ErrorKind::ConnectionRefused => {
                "java.net.ConnectException: Connection refused".to_string()
            }
            Failure::Connect(error) => io_exception(&error, "Connect"),
            Failure::Write(error) => io_exception(&error, "Write"),
            Failure::Exchange(text) => text,
        }
    }
}

/// Java's exception text for a socket error; a timeout names the `step` (`Read`, `Connect`)
/// that timed out.
fn io_exception(error: &io::Error, step: &str) -> String {
    match error.kind() {
        io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => {
            format!("java.net.SocketTimeoutException: {step} timed out")
        }
        _ => {
            let text = error.to_string();
            if text.starts_with("javax.net.ssl.") {
                text
            } else {
                format!("java.net.SocketException: {text}")
            }
        }
    }
}

/// The TLS configuration of an `https` URL: the `<Ssl>` stores, else (also for an `<Ssl>`
/// without a trust store) the system's certificate authorities; the host name is checked
/// unless `verifyHostname="false"`.
fn tls_config(
    name: &str,
    spec: &HttpSpec,
) -> Result<Option<Arc<ClientConfig>>, AppenderBuildError> {
    if !spec.https {
        return Ok(None);
    }
    let system = crate::socket::tls::system_trust();
    let mut ssl = spec.ssl.clone().unwrap_or_else(|| system.clone());
    // An <Ssl> with a key store alone trusts what Java trusts without one.
    if ssl.trust_store.is_none() {
        ssl.trust_store = system.trust_store;
    }
    ssl.verify_host_name = spec.verify_hostname;
    crate::socket::tls::client_config(name, &ssl)
        .map(Some)
        .map_err(|error| AppenderBuildError::Http {
            message: error.to_string(),
            help: error.help(),
        })
}

/// What `l4rs check` can judge without sending: the trust and key stores.
pub(crate) fn check(name: &str, spec: &HttpSpec) -> Result<(), AppenderBuildError> {
    tls_config(name, spec).map(|_| ())
}

/// A response as the fuzz target (fuzz/fuzz_targets/http_parsers.rs) sees it.
#[cfg(fuzzing)]
#[derive(Debug, PartialEq, Eq)]
pub struct FuzzedResponse {
    /// The status code.
    pub code: u16,
    /// The reason phrase.
    pub reason: Vec<u8>,
    /// The kept start of the body.
    pub body: Vec<u8>,
    /// Whether the connection could carry another request.
    pub reusable: bool,
}

/// The most body bytes a response keeps (for the fuzz target's check).
#[cfg(fuzzing)]
pub const FUZZ_KEPT_BODY: usize = response::KEPT_BODY;

/// Reads `bytes` as the response to a `method` request, delivered by the connection `chunk`
/// bytes at a time (at least one); the error names why it is no response.
#[cfg(fuzzing)]
pub fn fuzz_http_response(
    bytes: &[u8],
    method: &str,
    chunk: usize,
) -> Result<FuzzedResponse, String> {
    /// A connection that delivers at most `chunk` bytes per read.
    struct Trickle<'b> {
        bytes: &'b [u8],
        chunk: usize,
    }
    impl Read for Trickle<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let count = self.bytes.len().min(self.chunk).min(buf.len());
            buf[..count].copy_from_slice(&self.bytes[..count]);
            self.bytes = &self.bytes[count..];
            Ok(count)
        }
    }
    let mut buffers = ResponseBuffers::default();
    let mut reader = Trickle {
        bytes,
        chunk: chunk.max(1),
    };
    let response =
        read_response(&mut reader, &mut buffers, method).map_err(|error| format!("{error:?}"))?;
    Ok(FuzzedResponse {
        code: response.code,
        reason: response.reason(&buffers.kept).to_vec(),
        body: response.body(&buffers.kept).to_vec(),
        reusable: response.reusable,
    })
}

/// A stream whose reads end at a deadline: the whole response is bounded, not each read.
struct UntilDeadline<'s> {
    stream: &'s mut ClientStream,
    deadline: Instant,
}

impl Read for UntilDeadline<'_> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.stream.read_before(buf, self.deadline)
    }
}

impl Appender for HttpAppender {
    fn name(&self) -> &str {
        &self.name
    }

    fn append(&self, event: &LogEvent<'_>) -> Result<(), AppendError> {
        if self.stopped.load(Ordering::Relaxed) {
            return Err(AppendError::NotStarted(self.name.clone()));
        }
        crate::encode::with_encoded(
            &*self.layout,
            |text| self.layout.format(event, text),
            |body| self.send(event, body),
        )
        .map_err(|exception| AppendError::Reported {
            message: format!("Unable to send HTTP in appender [{}]", self.name),
            exception,
        })
    }

    fn stop(&self) {
        self.stopped.store(true, Ordering::Relaxed);
        // Dropping the idle connections closes them; none is kept after this.
        self.idle
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
            .take();
    }

    fn requires_location(&self) -> bool {
        self.layout.requires_location()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::{BufRead, BufReader};
    use std::net::{Shutdown, TcpListener, TcpStream};

    use l4rs_core::{Level, Message};
    use l4rs_test_support::LineLayout;

    /// Leaves `${…}` as written: the requests here have no header to resolve.
    struct Verbatim;

    impl Interpolator for Verbatim {
        fn interpolate(&self, text: &str, _event: Option<&LogEvent<'_>>) -> String {
            text.to_string()
        }
    }

    fn appender(port: u16) -> HttpAppender {
        let spec = HttpSpec {
            url: format!("http://127.0.0.1:{port}/in"),
            https: false,
            host: "127.0.0.1".to_string(),
            port: Some(u32::from(port)),
            target: "/in".to_string(),
            method: "POST".to_string(),
            connect_timeout_millis: 0,
            read_timeout_millis: 5000,
            headers: Vec::new(),
            ssl: None,
            verify_hostname: true,
        };
        HttpAppender::new(
            "web",
            &spec,
            Arc::new(LineLayout::new()),
            Arc::new(Verbatim),
        )
        .expect("builds")
    }

    /// The body of the next request on `reader` (by its `Content-Length`).
    fn request_body(reader: &mut BufReader<TcpStream>) -> String {
        let mut length = 0;
        loop {
            let mut line = String::new();
            let read = reader.read_line(&mut line).expect("a header line");
            assert_ne!(read, 0, "the connection ended before a whole request");
            if line == "\r\n" {
                break;
            }
            if let Some(value) = line.strip_prefix("Content-Length: ") {
                length = value.trim().parse().expect("a length");
            }
        }
        let mut body = vec![0; length];
        reader.read_exact(&mut body).expect("the body");
        String::from_utf8(body).expect("text")
    }

    fn answer(connection: &mut TcpStream) {
        connection
            .write_all(b"HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
            .expect("the answer");
    }

    #[test]
    fn a_request_whose_write_failed_on_a_kept_connection_goes_once_more_on_a_new_one() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        let port = listener.local_addr().expect("the port").port();
        let server = std::thread::spawn(move || {
            // Bounded: a client that never comes fails the test instead of hanging it.
            listener.set_nonblocking(true).expect("non-blocking");
            let accept = || {
                let deadline = Instant::now() + Duration::from_secs(10);
                let connection = loop {
                    match listener.accept() {
                        Ok((connection, _)) => break connection,
                        Err(error)
                            if error.kind() == io::ErrorKind::WouldBlock
                                && Instant::now() < deadline =>
                        {
                            std::thread::sleep(Duration::from_millis(5));
                        }
                        Err(error) => panic!("no connection: {error}"),
                    }
                };
                connection.set_nonblocking(false).expect("blocking");
                connection
                    .set_read_timeout(Some(Duration::from_secs(10)))
                    .expect("a timeout");
                let reader = BufReader::new(connection.try_clone().expect("a clone"));
                (connection, reader)
            };
            // The first connection carries one request and is then held open, unread: nothing
            // arrives on the client's side of it, so it passes the check before reuse.
            let (mut first, mut first_reader) = accept();
            let mut bodies = vec![request_body(&mut first_reader)];
            answer(&mut first);
            let (mut second, mut second_reader) = accept();
            bodies.push(request_body(&mut second_reader));
            answer(&mut second);
            drop(first);
            bodies
        });
        let appender = appender(port);
        let event = |text| LogEvent::new("app", Level::INFO, Message::Text(text));
        appender.append(&event("first")).expect("sent");
        {
            // The client's own side of the kept connection refuses writes from now on: the
            // write fails where a server's close would make it fail, without the race.
            let idle = appender.idle.lock().expect("the pool");
            let kept = &idle.as_ref().expect("running")[0];
            kept.stream.tcp().shutdown(Shutdown::Write).expect("shut");
        }
        appender
            .append(&event("second"))
            .expect("sent on a new connection");
        assert_eq!(
            server.join().expect("the server"),
            ["first\n", "second\n"],
            "each event once, the second on the second connection"
        );
    }
}
