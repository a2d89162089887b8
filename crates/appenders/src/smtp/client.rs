//! One SMTP conversation per mail, as JavaMail's `Transport.send` holds it: connect (TLS from
//! the first byte for `smtps`), `EHLO` (`HELO` when refused), `STARTTLS` when asked for, a
//! login when the appender has a user name and password and the server offers `AUTH` (LOGIN,
//! else PLAIN, JavaMail's order), `MAIL FROM`, a `RCPT TO` per recipient (one refused recipient
//! stops the mail, as JavaMail's default does), `DATA` with the lines dot-stuffed and ended by
//! CRLF, then `QUIT`.
//!
//! Unlike JavaMail's defaults, which wait without limit, the conversation is bounded (see
//! [`Timeouts`]): a server that stops answering fails the mail rather than hanging the thread
//! that logged.

use std::io::{self, BufRead, BufReader, Write};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::ClientConfig;

use crate::client_stream::{ClientStream, StreamLimits};

use super::mime::base64_text;

/// The longest reply line read: a server that sends more without a line end fails the mail
/// (RFC 5321 allows 512 bytes).
const MAX_REPLY_LINE: usize = 64 * 1024;

/// How long the conversation's steps may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Timeouts {
    /// Each connection attempt, to one address of the host (`mail.smtp.connectiontimeout`).
    pub connect: Duration,
    /// Each reply of the server, from the command to its last line, and the TLS handshake
    /// (`mail.smtp.timeout`).
    pub read: Duration,
    /// Each write (`mail.smtp.writetimeout`).
    pub write: Duration,
}

/// When TLS starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Encryption {
    /// Never (`smtp`).
    Plain,
    /// From the first byte (`smtps`).
    Implicit,
    /// After `STARTTLS`, when the server offers it (`mail.smtp.starttls.enable`).
    StartTls,
    /// After `STARTTLS`, which the server must offer (`mail.smtp.starttls.required`).
    StartTlsRequired,
}

/// Where the conversation's debug lines go (`smtpDebug`).
pub(crate) type DebugSink = Arc<dyn Fn(&str) + Send + Sync>;

/// Where and how to send.
pub(crate) struct Server {
    /// The host to connect to.
    pub host: String,
    /// Its port.
    pub port: u16,
    /// When TLS starts.
    pub encryption: Encryption,
    /// The TLS client configuration, unless `encryption` is [`Encryption::Plain`].
    pub tls_config: Option<Arc<ClientConfig>>,
    /// The user name and password to log in with.
    pub login: Option<(String, String)>,
    /// The name this machine gives in `EHLO`.
    pub client_name: String,
    /// The step limits.
    pub timeouts: Timeouts,
    /// `smtpDebug`: where each line of the conversation goes (never the password).
    pub debug: Option<DebugSink>,
}

/// Why a mail was not sent, and whether the server may have taken it anyway.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Failure {
    /// What failed, in l4rs's words with the server's or the network's.
    pub reason: String,
    /// True when the server certainly did not take the message: everything but a reply to the
    /// message's end that never came (the server may have queued it then).
    pub unsent: bool,
}

impl Failure {
    fn unsent(reason: impl Into<String>) -> Failure {
        Failure {
            reason: reason.into(),
            unsent: true,
        }
    }
}

/// A server's reply: its code and the text of its lines.
struct Reply {
    code: u16,
    lines: Vec<String>,
}

impl Reply {
    fn text(&self) -> String {
        format!("{} {}", self.code, self.lines.join(" "))
    }
}

/// One conversation.
struct Conversation<'a> {
    server: &'a Server,
    reader: BufReader<ClientStream>,
}

impl Conversation<'_> {
    fn debug(&self, direction: &str, line: &str) {
        if let Some(debug) = &self.server.debug {
            debug(&format!("{direction} {line}"));
        }
    }

    /// One line of a reply, read before `deadline`.
    fn read_line(&mut self, deadline: Instant) -> io::Result<String> {
        let timeout = self.server.timeouts.read;
        let no_reply = || {
            io::Error::new(
                io::ErrorKind::TimedOut,
                format!("no reply within {timeout:?}"),
            )
        };
        let mut line = Vec::new();
        loop {
            let remaining = deadline.saturating_duration_since(Instant::now());
            if remaining.is_zero() {
                return Err(no_reply());
            }
            self.reader
                .get_ref()
                .tcp()
                .set_read_timeout(Some(remaining))?;
            let available = match self.reader.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                // The socket's limit (a plain read), or the bound on a TLS read
                // (`ClientStream`'s `Read`): said the same way as the deadline above.
                Err(error)
                    if matches!(
                        error.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) =>
                {
                    return Err(no_reply())
                }
                Err(error) => return Err(error),
            };
            if available.is_empty() {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the server closed the connection",
                ));
            }
            let (taken, done) = match available.iter().position(|&byte| byte == b'\n') {
                Some(end) => (end + 1, true),
                None => (available.len(), false),
            };
            line.extend_from_slice(&available[..taken]);
            self.reader.consume(taken);
            if done {
                return Ok(String::from_utf8_lossy(&line).into_owned());
            }
            if line.len() > MAX_REPLY_LINE {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!("a reply line longer than {MAX_REPLY_LINE} bytes"),
                ));
            }
        }
    }

    /// A whole reply (its lines up to the one without `-` after the code), within the read
    /// timeout.
    fn read_reply(&mut self) -> io::Result<Reply> {
        let deadline = Instant::now() + self.server.timeouts.read;
        let mut lines = Vec::new();
        loop {
            let line = self.read_line(deadline)?;
            let line = line.trim_end_matches(['\r', '\n']).to_string();
            self.debug("<", &line);
            let code = line
                .get(..3)
                .and_then(|code| code.parse::<u16>().ok())
                .ok_or_else(|| {
                    io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!("not an SMTP reply: {line:?}"),
                    )
                })?;
            let more = line.as_bytes().get(3) == Some(&b'-');
            lines.push(line.get(4..).unwrap_or("").to_string());
            if !more {
                return Ok(Reply { code, lines });
            }
        }
    }

    /// Sends `command` (shown as `shown` in the debug output) and reads the reply.
    fn command(&mut self, command: &str, shown: &str) -> io::Result<Reply> {
        self.debug(">", shown);
        let stream = self.reader.get_mut();
        stream.write_all(command.as_bytes())?;
        stream.write_all(b"\r\n")?;
        stream.flush()?;
        self.read_reply()
    }

    /// `command`, which must be answered with one of `expected`.
    fn expect(&mut self, command: &str, expected: &[u16]) -> Result<Reply, Failure> {
        let reply = self
            .command(command, command)
            .map_err(|error| Failure::unsent(error.to_string()))?;
        let verb = command.split([' ', ':']).next().unwrap_or(command);
        check(verb, reply, expected)
    }

    /// `EHLO`, or `HELO` when the server refuses it; the extensions the server offers.
    fn hello(&mut self) -> Result<Vec<String>, Failure> {
        let ehlo = format!("EHLO {}", self.server.client_name);
        let reply = self
            .command(&ehlo, &ehlo)
            .map_err(|error| Failure::unsent(error.to_string()))?;
        if reply.code == 250 {
            // The first line is the server's greeting, the others its extensions.
            return Ok(reply.lines.into_iter().skip(1).collect());
        }
        self.expect(&format!("HELO {}", self.server.client_name), &[250])?;
        Ok(Vec::new())
    }
}

/// The reply when its code is one of `expected`; else a failure naming `step` (a command's
/// verb, or what was sent) and what the server said.
fn check(step: &str, reply: Reply, expected: &[u16]) -> Result<Reply, Failure> {
    if expected.contains(&reply.code) {
        Ok(reply)
    } else {
        Err(Failure::unsent(format!(
            "the server answered {step} with {}",
            reply.text()
        )))
    }
}

/// True when the server offers `extension` (a keyword, case-insensitively).
fn offers(extensions: &[String], extension: &str) -> bool {
    extensions.iter().any(|line| {
        line.split([' ', '='])
            .next()
            .is_some_and(|keyword| keyword.eq_ignore_ascii_case(extension))
    })
}

/// Sends `message` from `sender` to every one of `recipients`.
pub(crate) fn send(
    server: &Server,
    sender: &str,
    recipients: &[String],
    message: &[u8],
) -> Result<(), Failure> {
    if recipients.is_empty() {
        return Err(Failure::unsent(
            "No recipient addresses: the appender has no to, cc or bcc",
        ));
    }
    let stream = connect(server).map_err(|error| {
        Failure::unsent(format!(
            "Couldn't connect to host, port: {}, {}: {error}",
            server.host, server.port
        ))
    })?;
    let mut conversation = Conversation {
        server,
        reader: BufReader::new(stream),
    };
    let greeting = conversation
        .read_reply()
        .map_err(|error| Failure::unsent(error.to_string()))?;
    check("the connection with its greeting", greeting, &[220])?;
    let mut extensions = conversation.hello()?;
    if matches!(
        server.encryption,
        Encryption::StartTls | Encryption::StartTlsRequired
    ) {
        if offers(&extensions, "STARTTLS") {
            conversation.expect("STARTTLS", &[220])?;
            conversation = start_tls(conversation)?;
            extensions = conversation.hello()?;
        } else if server.encryption == Encryption::StartTlsRequired {
            return Err(Failure::unsent(
                "STARTTLS is required but host does not support STARTTLS",
            ));
        }
    }
    if let Some((user, password)) = &server.login {
        log_in(&mut conversation, &extensions, user, password)?;
    }
    conversation.expect(&format!("MAIL FROM:<{sender}>"), &[250])?;
    for recipient in recipients {
        conversation.expect(&format!("RCPT TO:<{recipient}>"), &[250, 251])?;
    }
    conversation.expect("DATA", &[354])?;
    let stream = conversation.reader.get_mut();
    write_data(stream, message).map_err(|error| Failure::unsent(error.to_string()))?;
    conversation.debug(">", &format!("({} bytes of message)", message.len()));
    // The message is on its way: a reply that never comes leaves it unknown whether the
    // server took it, so its events are not sent again.
    let reply = conversation.command(".", ".").map_err(|error| Failure {
        reason: format!("{error}; the server may still deliver the mail"),
        unsent: false,
    })?;
    check("the message", reply, &[250])?;
    // The mail is accepted; a failed goodbye changes nothing.
    let _ = conversation.command("QUIT", "QUIT");
    Ok(())
}

/// The conversation after `STARTTLS`'s 220: the same connection, now through TLS.
fn start_tls(conversation: Conversation<'_>) -> Result<Conversation<'_>, Failure> {
    let server = conversation.server;
    let ClientStream::Plain(tcp) = conversation.reader.into_inner() else {
        return Err(Failure::unsent(
            "STARTTLS on a connection that is already TLS",
        ));
    };
    let config = server
        .tls_config
        .as_ref()
        .ok_or_else(|| Failure::unsent("STARTTLS without a TLS configuration"))?;
    tcp.set_read_timeout(Some(server.timeouts.read))
        .map_err(|error| Failure::unsent(error.to_string()))?;
    let stream = crate::socket::tls::handshake(config, &server.host, tcp)
        .map_err(|error| Failure::unsent(error.to_string()))?;
    Ok(Conversation {
        server,
        reader: BufReader::new(ClientStream::Tls(Box::new(stream))),
    })
}

/// Connects to the server, through TLS from the first byte for `smtps`.
fn connect(server: &Server) -> io::Result<ClientStream> {
    let limits = StreamLimits {
        connect: server.timeouts.connect,
        read: server.timeouts.read,
        write: server.timeouts.write,
    };
    let tls = match server.encryption {
        Encryption::Implicit => server.tls_config.as_ref(),
        _ => None,
    };
    ClientStream::connect(&server.host, server.port, limits, tls)
}

/// Logs in with the first mechanism, in JavaMail's order, that the server offers; a server
/// that offers no `AUTH` is written to without logging in, as JavaMail does.
fn log_in(
    conversation: &mut Conversation<'_>,
    extensions: &[String],
    user: &str,
    password: &str,
) -> Result<(), Failure> {
    let Some(mechanisms) = extensions.iter().find_map(|extension| {
        let upper = extension.to_ascii_uppercase();
        upper
            .strip_prefix("AUTH")
            .filter(|rest| rest.is_empty() || rest.starts_with([' ', '=']))
            .map(|rest| {
                rest.trim_start_matches([' ', '='])
                    .split_whitespace()
                    .map(str::to_string)
                    .collect::<Vec<_>>()
            })
    }) else {
        return Ok(());
    };
    let io_failure = |error: io::Error| Failure::unsent(error.to_string());
    let failed = |reply: Reply| Failure::unsent(format!("authentication failed: {}", reply.text()));
    if mechanisms.iter().any(|m| m == "LOGIN") {
        let reply = conversation
            .command("AUTH LOGIN", "AUTH LOGIN")
            .map_err(io_failure)?;
        if reply.code != 334 {
            return Err(failed(reply));
        }
        let user_line = base64_text(user.as_bytes());
        let reply = conversation
            .command(&user_line, &user_line)
            .map_err(io_failure)?;
        if reply.code != 334 {
            return Err(failed(reply));
        }
        let reply = conversation
            .command(&base64_text(password.as_bytes()), "(the password)")
            .map_err(io_failure)?;
        return if reply.code == 235 {
            Ok(())
        } else {
            Err(failed(reply))
        };
    }
    if mechanisms.iter().any(|m| m == "PLAIN") {
        let token = base64_text(format!("\0{user}\0{password}").as_bytes());
        let reply = conversation
            .command(
                &format!("AUTH PLAIN {token}"),
                "AUTH PLAIN (the user name and password)",
            )
            .map_err(io_failure)?;
        return if reply.code == 235 {
            Ok(())
        } else {
            Err(failed(reply))
        };
    }
    Err(Failure::unsent(format!(
        "No authentication mechanisms supported by both server and client: the server offers {}, l4rs logs in with LOGIN or PLAIN",
        mechanisms.join(" ")
    )))
}

/// The message as `DATA` carries it: every line ended by CRLF (a lone CR or LF becomes CRLF)
/// and a line that starts with `.` given another (RFC 5321's transparency), as JavaMail's
/// SMTP output stream writes it; the caller then sends the ending `.` line.
fn write_data(stream: &mut ClientStream, message: &[u8]) -> io::Result<()> {
    let mut out = Vec::with_capacity(message.len() + message.len() / 32 + 2);
    let mut at_line_start = true;
    let mut previous = 0u8;
    for &byte in message {
        match byte {
            b'\n' if previous == b'\r' => {}
            b'\r' | b'\n' => {
                out.extend_from_slice(b"\r\n");
                at_line_start = true;
            }
            _ => {
                if at_line_start && byte == b'.' {
                    out.push(b'.');
                }
                out.push(byte);
                at_line_start = false;
            }
        }
        previous = byte;
    }
    if !at_line_start {
        out.extend_from_slice(b"\r\n");
    }
    stream.write_all(&out)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::net::TcpListener;
    use std::sync::Mutex;

    /// A scripted server on 127.0.0.1: answers each command with the next reply and records
    /// what it was sent. A reply of `""` is no reply: the server stays silent from then on.
    fn scripted(replies: &'static [&'static str]) -> (u16, std::thread::JoinHandle<String>) {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        let server = std::thread::spawn(move || {
            let (stream, _) = listener.accept().expect("accept");
            stream
                .set_read_timeout(Some(Duration::from_secs(10)))
                .expect("timeout");
            let mut reader = BufReader::new(stream.try_clone().expect("clone"));
            let mut writer = stream;
            let mut seen = String::new();
            writer.write_all(b"220 ready\r\n").expect("greet");
            let mut in_data = false;
            let mut replies = replies.iter();
            loop {
                let mut line = String::new();
                if reader.read_line(&mut line).unwrap_or(0) == 0 {
                    break;
                }
                seen.push_str(&line);
                if in_data && line != ".\r\n" {
                    continue;
                }
                in_data = false;
                let Some(reply) = replies.next() else { break };
                if reply.is_empty() {
                    // Silent until the client gives up.
                    let _ = reader.read_line(&mut String::new());
                    break;
                }
                writer.write_all(reply.as_bytes()).expect("reply");
                if reply.starts_with("354") {
                    in_data = true;
                }
            }
            seen
        });
        (port, server)
    }

    fn server(port: u16, login: Option<(&str, &str)>) -> Server {
        Server {
            host: "127.0.0.1".to_string(),
            port,
            encryption: Encryption::Plain,
            tls_config: None,
            login: login.map(|(u, p)| (u.to_string(), p.to_string())),
            client_name: "client.test".to_string(),
            timeouts: Timeouts {
                connect: Duration::from_secs(5),
                read: Duration::from_secs(5),
                write: Duration::from_secs(5),
            },
            debug: None,
        }
    }

    #[test]
    fn holds_the_conversation_with_dot_stuffing_and_crlf_lines() {
        let (port, seen) = scripted(&[
            "250-hello\r\n250-AUTH PLAIN LOGIN\r\n250 8BITMIME\r\n",
            "334 VXNlcm5hbWU6\r\n",
            "334 UGFzc3dvcmQ6\r\n",
            "235 ok\r\n",
            "250 ok\r\n",
            "250 ok\r\n",
            "251 forwarded\r\n",
            "354 go\r\n",
            "250 queued\r\n",
            "221 bye\r\n",
        ]);
        let transcript = Arc::new(Mutex::new(Vec::<String>::new()));
        let mut with_debug = server(port, Some(("user", "secret")));
        let lines = Arc::clone(&transcript);
        with_debug.debug = Some(Arc::new(move |line: &str| {
            lines.lock().unwrap().push(line.to_string())
        }));
        send(
            &with_debug,
            "from@x.org",
            &["a@x.org".to_string(), "b@x.org".to_string()],
            b"Subject: s\r\n\r\n.starts with a dot\nbare lf\rbare cr",
        )
        .expect("sent");
        assert_eq!(
            seen.join().expect("server"),
            "EHLO client.test\r\nAUTH LOGIN\r\ndXNlcg==\r\nc2VjcmV0\r\nMAIL FROM:<from@x.org>\r\nRCPT TO:<a@x.org>\r\nRCPT TO:<b@x.org>\r\nDATA\r\nSubject: s\r\n\r\n..starts with a dot\r\nbare lf\r\nbare cr\r\n.\r\nQUIT\r\n"
        );
        let transcript = transcript.lock().unwrap().join("\n");
        assert!(transcript.contains("> AUTH LOGIN"), "{transcript}");
        assert!(transcript.contains("> (the password)"), "{transcript}");
        assert!(
            !transcript.contains("c2VjcmV0") && !transcript.contains("secret"),
            "the password in the debug output: {transcript}"
        );
    }

    #[test]
    fn a_refused_recipient_stops_the_mail_and_says_what_the_server_said() {
        let (port, _seen) = scripted(&["250 hello\r\n", "250 ok\r\n", "550 no such user\r\n"]);
        let failure = send(
            &server(port, None),
            "f@x.org",
            &["nobody@x.org".to_string()],
            b"m",
        )
        .expect_err("refused");
        assert_eq!(
            failure,
            Failure::unsent("the server answered RCPT with 550 no such user")
        );
    }

    #[test]
    fn a_server_that_stops_answering_fails_within_the_timeout() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        let mut silent = server(port, None);
        silent.timeouts.read = Duration::from_millis(200);
        let started = Instant::now();
        let failure = send(&silent, "f@x.org", &["a@x.org".to_string()], b"m").expect_err("silent");
        assert!(started.elapsed() < Duration::from_secs(5), "{failure:?}");
        assert!(failure.unsent);
        // The socket's own limit ended the read, and it is said as the deadline says it.
        assert!(
            failure.reason.ends_with("no reply within 200ms"),
            "{failure:?}"
        );
        drop(listener);
    }

    #[test]
    fn a_reply_trickled_byte_by_byte_still_ends_at_the_timeout() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        let trickler = std::thread::spawn(move || {
            let (mut stream, _) = listener.accept().expect("accept");
            for _ in 0..40 {
                if stream.write_all(b"2").is_err() {
                    break;
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        });
        let mut slow = server(port, None);
        slow.timeouts.read = Duration::from_millis(300);
        let started = Instant::now();
        let failure = send(&slow, "f@x.org", &["a@x.org".to_string()], b"m").expect_err("slow");
        assert!(
            started.elapsed() < Duration::from_millis(1500),
            "{:?}: {failure:?}",
            started.elapsed()
        );
        trickler.join().expect("trickler");
    }

    #[test]
    fn a_tls_handshake_that_never_completes_fails_within_the_timeout() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        let roots = rustls::RootCertStore::empty();
        let config =
            ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                .with_safe_default_protocol_versions()
                .expect("versions")
                .with_root_certificates(roots)
                .with_no_client_auth();
        let mut silent = server(port, None);
        silent.encryption = Encryption::Implicit;
        silent.tls_config = Some(Arc::new(config));
        silent.timeouts.read = Duration::from_millis(200);
        let started = Instant::now();
        let failure = send(&silent, "f@x.org", &["a@x.org".to_string()], b"m").expect_err("silent");
        assert!(started.elapsed() < Duration::from_secs(5), "{failure:?}");
        drop(listener);
    }

    #[test]
    fn no_reply_to_the_end_of_the_message_may_have_sent_it() {
        let (port, _seen) = scripted(&[
            "250 hello\r\n",
            "250 ok\r\n",
            "250 ok\r\n",
            "354 go\r\n",
            "",
        ]);
        let mut slow = server(port, None);
        slow.timeouts.read = Duration::from_millis(300);
        let failure = send(&slow, "f@x.org", &["a@x.org".to_string()], b"m").expect_err("no reply");
        assert!(!failure.unsent, "{failure:?}");
        assert!(failure.reason.contains("may still deliver"), "{failure:?}");
    }

    #[test]
    fn starttls_required_but_not_offered_stops_before_any_login() {
        let (port, seen) = scripted(&["250-hello\r\n250 AUTH PLAIN\r\n"]);
        let mut required = server(port, Some(("u", "p")));
        required.encryption = Encryption::StartTlsRequired;
        let failure =
            send(&required, "f@x.org", &["a@x.org".to_string()], b"m").expect_err("plain");
        assert_eq!(
            failure,
            Failure::unsent("STARTTLS is required but host does not support STARTTLS")
        );
        assert_eq!(seen.join().expect("server"), "EHLO client.test\r\n");
    }

    #[test]
    fn plain_login_when_the_server_offers_only_plain() {
        let (port, seen) =
            scripted(&["250-hello\r\n250 AUTH PLAIN\r\n", "535 bad credentials\r\n"]);
        let failure = send(
            &server(port, Some(("u", "p"))),
            "f@x.org",
            &["a@x.org".to_string()],
            b"m",
        )
        .expect_err("refused");
        assert_eq!(
            failure,
            Failure::unsent("authentication failed: 535 bad credentials")
        );
        assert!(seen
            .join()
            .expect("server")
            .contains("AUTH PLAIN AHUAcA==\r\n"));
    }
}
