//! One SMTP conversation per mail, as JavaMail's `Transport.send` holds it: connect (TLS from
//! the first byte for `smtps`), `EHLO` (`HELO` when refused), a login when the appender has a
//! user name and password and the server offers `AUTH` (LOGIN, else PLAIN, JavaMail's order),
//! `MAIL FROM`, a `RCPT TO` per recipient (one refused recipient stops the mail, as JavaMail's
//! default does), `DATA` with the lines dot-stuffed and ended by CRLF, then `QUIT`.
//!
//! Unlike JavaMail's defaults, which wait without limit, every step is bounded (see
//! [`Timeouts`]): a server that stops answering fails the mail rather than hanging the thread
//! that logged.

use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use rustls::{ClientConfig, ClientConnection, StreamOwned};

use super::mime::base64_text;

/// How long each step may take.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Timeouts {
    /// Connecting (`mail.smtp.connectiontimeout`).
    pub connect: Duration,
    /// Each reply of the server (`mail.smtp.timeout`).
    pub read: Duration,
    /// Each write (`mail.smtp.writetimeout`).
    pub write: Duration,
}

/// Where and how to send.
pub(crate) struct Server {
    /// The host to connect to.
    pub host: String,
    /// Its port.
    pub port: u16,
    /// For `smtps`: the TLS client configuration.
    pub tls: Option<Arc<ClientConfig>>,
    /// The user name and password to log in with.
    pub login: Option<(String, String)>,
    /// The name this machine gives in `EHLO`.
    pub client_name: String,
    /// The step limits.
    pub timeouts: Timeouts,
    /// `smtpDebug`: print the conversation to stderr (never the password).
    pub debug: bool,
}

/// Either stream, read line by line.
enum Stream {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

impl Read for Stream {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(stream) => stream.read(buf),
            Stream::Tls(stream) => stream.read(buf),
        }
    }
}

impl Write for Stream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Stream::Plain(stream) => stream.write(buf),
            Stream::Tls(stream) => stream.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(stream) => stream.flush(),
            Stream::Tls(stream) => stream.flush(),
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
    reader: BufReader<Stream>,
}

impl Conversation<'_> {
    fn debug(&self, direction: &str, line: &str) {
        if self.server.debug {
            eprintln!("DEBUG SMTP: {direction} {line}");
        }
    }

    fn read_reply(&mut self) -> io::Result<Reply> {
        let mut lines = Vec::new();
        loop {
            let mut line = String::new();
            if self.reader.read_line(&mut line)? == 0 {
                return Err(io::Error::new(
                    io::ErrorKind::UnexpectedEof,
                    "the server closed the connection",
                ));
            }
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
    fn expect(&mut self, command: &str, expected: &[u16]) -> Result<Reply, String> {
        let reply = self
            .command(command, command)
            .map_err(|error| error.to_string())?;
        let verb = command.split([' ', ':']).next().unwrap_or(command);
        check(verb, reply, expected)
    }
}

/// The reply when its code is one of `expected`; else an error naming `step` (a command's
/// verb, or what was sent) and what the server said.
fn check(step: &str, reply: Reply, expected: &[u16]) -> Result<Reply, String> {
    if expected.contains(&reply.code) {
        Ok(reply)
    } else {
        Err(format!("the server answered {step} with {}", reply.text()))
    }
}

/// Sends `message` from `sender` to every one of `recipients`; the error says which step
/// failed and what the server or the network said.
pub(crate) fn send(
    server: &Server,
    sender: &str,
    recipients: &[String],
    message: &[u8],
) -> Result<(), String> {
    if recipients.is_empty() {
        return Err("No recipient addresses: the appender has no to, cc or bcc".to_string());
    }
    let stream = connect(server).map_err(|error| {
        format!(
            "Couldn't connect to host, port: {}, {}: {error}",
            server.host, server.port
        )
    })?;
    let mut conversation = Conversation {
        server,
        reader: BufReader::new(stream),
    };
    let greeting = conversation
        .read_reply()
        .map_err(|error| error.to_string())?;
    check("the connection with its greeting", greeting, &[220])?;
    let extensions = match conversation
        .command(
            &format!("EHLO {}", server.client_name),
            &format!("EHLO {}", server.client_name),
        )
        .map_err(|error| error.to_string())?
    {
        reply if reply.code == 250 => reply.lines,
        _ => {
            conversation.expect(&format!("HELO {}", server.client_name), &[250])?;
            Vec::new()
        }
    };
    if let Some((user, password)) = &server.login {
        log_in(&mut conversation, &extensions, user, password)?;
    }
    conversation.expect(&format!("MAIL FROM:<{sender}>"), &[250])?;
    for recipient in recipients {
        conversation.expect(&format!("RCPT TO:<{recipient}>"), &[250, 251])?;
    }
    conversation.expect("DATA", &[354])?;
    let stream = conversation.reader.get_mut();
    write_data(stream, message).map_err(|error| error.to_string())?;
    conversation.debug(">", &format!("({} bytes of message)", message.len()));
    let reply = conversation
        .command(".", ".")
        .map_err(|error| error.to_string())?;
    check("the message", reply, &[250])?;
    // The mail is accepted; a failed goodbye changes nothing.
    let _ = conversation.command("QUIT", "QUIT");
    Ok(())
}

/// Connects to the first address of the host that answers, within the connect timeout, and
/// sets the step limits on the connection.
fn connect(server: &Server) -> io::Result<Stream> {
    let addresses: Vec<SocketAddr> = crate::socket::resolve::resolve(&server.host, server.port)?;
    let mut last_error = io::Error::new(io::ErrorKind::NotFound, "the host has no address");
    for address in addresses {
        match TcpStream::connect_timeout(&address, server.timeouts.connect) {
            Ok(tcp) => {
                tcp.set_read_timeout(Some(server.timeouts.read))?;
                tcp.set_write_timeout(Some(server.timeouts.write))?;
                return match &server.tls {
                    None => Ok(Stream::Plain(tcp)),
                    Some(config) => crate::socket::tls::handshake(config, &server.host, tcp)
                        .map(|stream| Stream::Tls(Box::new(stream))),
                };
            }
            Err(error) => last_error = error,
        }
    }
    Err(last_error)
}

/// Logs in with the first mechanism, in JavaMail's order, that the server offers; a server
/// that offers no `AUTH` is written to without logging in, as JavaMail does.
fn log_in(
    conversation: &mut Conversation<'_>,
    extensions: &[String],
    user: &str,
    password: &str,
) -> Result<(), String> {
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
    let failed = |reply: Reply| format!("authentication failed: {}", reply.text());
    if mechanisms.iter().any(|m| m == "LOGIN") {
        let reply = conversation
            .command("AUTH LOGIN", "AUTH LOGIN")
            .map_err(|error| error.to_string())?;
        if reply.code != 334 {
            return Err(failed(reply));
        }
        let reply = conversation
            .command(&base64_text(user.as_bytes()), &base64_text(user.as_bytes()))
            .map_err(|error| error.to_string())?;
        if reply.code != 334 {
            return Err(failed(reply));
        }
        let reply = conversation
            .command(&base64_text(password.as_bytes()), "(the password)")
            .map_err(|error| error.to_string())?;
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
            .map_err(|error| error.to_string())?;
        return if reply.code == 235 {
            Ok(())
        } else {
            Err(failed(reply))
        };
    }
    Err(format!(
        "No authentication mechanisms supported by both server and client: the server offers {}, l4rs logs in with LOGIN or PLAIN",
        mechanisms.join(" ")
    ))
}

/// The message as `DATA` carries it: every line ended by CRLF (a lone CR or LF becomes CRLF)
/// and a line that starts with `.` given another (RFC 5321's transparency), as JavaMail's
/// SMTP output stream writes it; the caller then sends the ending `.` line.
fn write_data(stream: &mut Stream, message: &[u8]) -> io::Result<()> {
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

    /// A scripted server on 127.0.0.1: answers each command with the next reply and records
    /// what it was sent.
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
            tls: None,
            login: login.map(|(u, p)| (u.to_string(), p.to_string())),
            client_name: "client.test".to_string(),
            timeouts: Timeouts {
                connect: Duration::from_secs(5),
                read: Duration::from_secs(5),
                write: Duration::from_secs(5),
            },
            debug: false,
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
        send(
            &server(port, Some(("user", "secret"))),
            "from@x.org",
            &["a@x.org".to_string(), "b@x.org".to_string()],
            b"Subject: s\r\n\r\n.starts with a dot\nbare lf\rbare cr",
        )
        .expect("sent");
        assert_eq!(
            seen.join().expect("server"),
            "EHLO client.test\r\nAUTH LOGIN\r\ndXNlcg==\r\nc2VjcmV0\r\nMAIL FROM:<from@x.org>\r\nRCPT TO:<a@x.org>\r\nRCPT TO:<b@x.org>\r\nDATA\r\nSubject: s\r\n\r\n..starts with a dot\r\nbare lf\r\nbare cr\r\n.\r\nQUIT\r\n"
        );
    }

    #[test]
    fn a_refused_recipient_stops_the_mail_and_says_what_the_server_said() {
        let (port, seen) = scripted(&["250 hello\r\n", "250 ok\r\n", "550 no such user\r\n"]);
        let error = send(
            &server(port, None),
            "f@x.org",
            &["nobody@x.org".to_string()],
            b"m",
        )
        .expect_err("refused");
        assert_eq!(error, "the server answered RCPT with 550 no such user");
        drop(seen);
    }

    #[test]
    fn a_server_that_stops_answering_fails_within_the_timeout() {
        let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
        let port = listener.local_addr().expect("address").port();
        let mut silent = server(port, None);
        silent.timeouts.read = Duration::from_millis(200);
        let started = std::time::Instant::now();
        let error = send(&silent, "f@x.org", &["a@x.org".to_string()], b"m").expect_err("silent");
        assert!(started.elapsed() < Duration::from_secs(5), "{error}");
        drop(listener);
    }

    #[test]
    fn plain_login_when_the_server_offers_only_plain() {
        let (port, seen) =
            scripted(&["250-hello\r\n250 AUTH PLAIN\r\n", "535 bad credentials\r\n"]);
        let error = send(
            &server(port, Some(("u", "p"))),
            "f@x.org",
            &["a@x.org".to_string()],
            b"m",
        )
        .expect_err("refused");
        assert_eq!(error, "authentication failed: 535 bad credentials");
        assert!(seen
            .join()
            .expect("server")
            .contains("AUTH PLAIN AHUAcA==\r\n"));
    }
}
