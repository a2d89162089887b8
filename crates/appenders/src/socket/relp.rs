//! RELP, the Reliable Event Logging Protocol of rsyslog's `imrelp` (`protocol="RELP"` on
//! `<Socket>` and `<Syslog>`, an l4rs extension: log4j2 has no RELP transport).
//!
//! Plain TCP cannot tell the sender which bytes the receiver's program read: what the
//! receiver's kernel had accepted when the program stopped is lost without an error. RELP
//! answers every command with a response carrying its transaction number, so here an event
//! counts as written only once the receiver acknowledged it; a broken session, a refusal or an
//! acknowledgement that does not come within the timeout makes the append fail, and a Failover
//! can write the event elsewhere.
//!
//! The protocol (librelp's doc/relp.md): frames `TXNR SP COMMAND SP DATALEN [SP DATA] LF`; the
//! client opens the session with `open` and its offers, sends one `syslog` command per event
//! and ends with `close`; the server answers each command with `rsp` (`200 OK`, or `500 …`),
//! in the order the commands came, and may send the hint `0 serverclose 0` before it closes.
//! Transaction numbers start at 1 and rise by one per command; at 999 999 999 the manager opens
//! a new session instead of wrapping (librelp's own wrap is not one its parser accepts).
//!
//! Concurrent callers pipeline: each sends its frame under the write lock (which keeps the
//! numbers in wire order) and then waits for its own acknowledgement; one waiter at a time
//! reads the responses for all and wakes the others. The connection is the TCP manager's
//! (`tcp::connect`: the same addresses, timeouts, socket options and TLS handshake); the
//! reconnection follows the TCP manager's rules. Frames are built in a reused buffer, so a
//! plain RELP event allocates nothing in steady state (TLS: rustls's records, as for TCP).

use std::io::{self, Read, Write};
use std::net::TcpStream;
use std::os::fd::{AsRawFd, RawFd};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use rustls::ClientConnection;

use super::reconnect::{self, ConnectionState, Link, Reconnecting};
use super::tcp::{self, Stream, TcpOptions};
use crate::file_manager::WriteError;
use crate::lock;

/// The last transaction number a session uses (RELP's nine digits).
const MAX_TXNR: u32 = 999_999_999;
/// The largest response accepted: RELP's default maximum data size.
const MAX_RESPONSE: usize = 128 * 1024;
/// How much one read of responses takes from the socket.
const READ_BUFFER: usize = 16 * 1024;
/// How long closing waits for the receiver to answer `close`, at most.
const CLOSE_WAIT: Duration = Duration::from_secs(2);

/// One frame from the receiver.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Frame<'a> {
    /// Its transaction number (0 for a hint).
    pub txnr: u32,
    /// The command: `rsp` for a response, `serverclose` for the closing hint.
    pub command: &'a [u8],
    /// What follows the length.
    pub data: &'a [u8],
}

/// Where the reader is in a frame.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Part {
    Txnr,
    Command,
    Length,
    Data,
    Trailer,
}

/// Reads RELP frames from a byte stream, in pieces as they arrive, into reused buffers.
pub(crate) struct FrameReader {
    part: Part,
    digits: usize,
    txnr: u32,
    command: [u8; 32],
    command_len: usize,
    length: usize,
    data: Vec<u8>,
}

impl Default for FrameReader {
    fn default() -> Self {
        FrameReader {
            part: Part::Txnr,
            digits: 0,
            txnr: 0,
            command: [0; 32],
            command_len: 0,
            length: 0,
            data: Vec::new(),
        }
    }
}

impl FrameReader {
    /// Reads `bytes`, calling `on_frame` for every frame they complete. An error is a framing
    /// error, after which the stream cannot be read on (the session must be dropped).
    pub(crate) fn feed(
        &mut self,
        mut bytes: &[u8],
        mut on_frame: impl FnMut(Frame<'_>),
    ) -> Result<(), String> {
        while let Some((&byte, rest)) = bytes.split_first() {
            match self.part {
                Part::Txnr | Part::Length if byte.is_ascii_digit() => {
                    if self.digits == 9 {
                        return Err("a number of more than nine digits".into());
                    }
                    self.digits += 1;
                    let digit = u32::from(byte - b'0');
                    if self.part == Part::Txnr {
                        self.txnr = self.txnr * 10 + digit;
                    } else {
                        self.length = self.length * 10 + digit as usize;
                        if self.length > MAX_RESPONSE {
                            return Err(format!("a response of more than {MAX_RESPONSE} bytes"));
                        }
                    }
                }
                Part::Txnr if byte == b' ' && self.digits > 0 => {
                    self.part = Part::Command;
                    self.digits = 0;
                }
                Part::Command if byte.is_ascii_alphabetic() => {
                    if self.command_len == self.command.len() {
                        return Err("a command of more than 32 letters".into());
                    }
                    self.command[self.command_len] = byte;
                    self.command_len += 1;
                }
                Part::Command if byte == b' ' && self.command_len > 0 => {
                    self.part = Part::Length;
                }
                // As librelp: without data, the length is followed by the trailer.
                Part::Length if self.digits > 0 && self.length == 0 && byte == b'\n' => {
                    self.emit(&mut on_frame);
                }
                Part::Length if self.digits > 0 && self.length > 0 && byte == b' ' => {
                    self.part = Part::Data;
                    self.data.clear();
                }
                Part::Data => {
                    let wanted = self.length - self.data.len();
                    let taken = wanted.min(bytes.len());
                    self.data.extend_from_slice(&bytes[..taken]);
                    if self.data.len() == self.length {
                        self.part = Part::Trailer;
                    }
                    bytes = &bytes[taken..];
                    continue;
                }
                Part::Trailer if byte == b'\n' => self.emit(&mut on_frame),
                part => {
                    return Err(format!(
                        "an unexpected byte 0x{byte:02x} in the {} of a frame",
                        match part {
                            Part::Txnr => "transaction number",
                            Part::Command => "command",
                            Part::Length => "data length",
                            Part::Data | Part::Trailer => "trailer",
                        }
                    ))
                }
            }
            bytes = rest;
        }
        Ok(())
    }

    fn emit(&mut self, on_frame: &mut impl FnMut(Frame<'_>)) {
        let data: &[u8] = if self.length == 0 { &[] } else { &self.data };
        on_frame(Frame {
            txnr: self.txnr,
            command: &self.command[..self.command_len],
            data,
        });
        self.part = Part::Txnr;
        self.digits = 0;
        self.txnr = 0;
        self.command_len = 0;
        self.length = 0;
    }
}

/// The fuzz target `relp_frames`: feeds `data` to a frame reader in pieces of `piece` bytes;
/// the frames read, or the framing error.
#[cfg(any(test, fuzzing))]
pub(crate) fn fuzz_frames(data: &[u8], piece: usize) -> Result<usize, String> {
    let mut reader = FrameReader::default();
    let mut frames = 0;
    for chunk in data.chunks(piece.max(1)) {
        reader.feed(chunk, |_| frames += 1)?;
    }
    Ok(frames)
}

/// The write side of a session, under its lock: the order of the lock is the order on the wire.
struct Output {
    socket: TcpStream,
    next_txnr: u32,
    /// The frame being sent (reused).
    frame: Vec<u8>,
    /// Its TLS records (reused).
    sealed: Vec<u8>,
}

/// The read side, used by one waiter at a time.
struct Input {
    socket: TcpStream,
    raw: Box<[u8]>,
    plain: Vec<u8>,
    frames: FrameReader,
}

/// What the waiters share.
#[derive(Default)]
struct Acks {
    /// The highest transaction number the receiver acknowledged (responses come in order).
    acked: u32,
    /// Why the session cannot deliver any more, once it cannot.
    broken: Option<(io::ErrorKind, String)>,
    /// True while a waiter reads the responses.
    reading: bool,
}

/// What one read of responses found.
#[derive(Default)]
struct Responses {
    acked: Option<u32>,
    fault: Option<(io::ErrorKind, String)>,
}

/// An open RELP session.
pub(super) struct Session {
    output: Mutex<Output>,
    input: Mutex<Input>,
    tls: Option<Mutex<ClientConnection>>,
    acks: Mutex<Acks>,
    acked_changed: Condvar,
    /// How long a command may wait for its response.
    timeout: Duration,
    /// The connection's descriptor, to shut it down without waiting for a reader.
    fd: RawFd,
}

/// The offers of l4rs's `open`: the protocol version librelp speaks, the software, and the one
/// command used.
fn offers() -> String {
    format!(
        "relp_version=0\nrelp_software=l4rs,{}\ncommands=syslog",
        env!("CARGO_PKG_VERSION")
    )
}

impl Session {
    /// Opens a session over a new connection: the `open` handshake, bounded by the timeout.
    fn open(stream: Stream, timeout: Duration) -> io::Result<Session> {
        let (socket, tls) = match stream {
            Stream::Plain(socket) => (socket, None),
            Stream::Tls(stream) => {
                let rustls::StreamOwned { conn, sock } = *stream;
                (sock, Some(Mutex::new(conn)))
            }
        };
        let reader = socket.try_clone()?;
        let fd = socket.as_raw_fd();
        let session = Session {
            output: Mutex::new(Output {
                socket,
                next_txnr: 1,
                frame: Vec::with_capacity(1024),
                sealed: Vec::new(),
            }),
            input: Mutex::new(Input {
                socket: reader,
                raw: vec![0; READ_BUFFER].into_boxed_slice(),
                // One read's worth, decrypted or not: reading never grows it.
                plain: Vec::with_capacity(READ_BUFFER),
                frames: FrameReader::default(),
            }),
            tls,
            acks: Mutex::new(Acks::default()),
            acked_changed: Condvar::new(),
            timeout,
            fd,
        };
        let offers = offers();
        let txnr = session.send(b"open", offers.as_bytes())?;
        // The open response carries the offers the receiver accepted.
        let deadline = Instant::now() + timeout;
        let mut accepted = None;
        let mut fault = None;
        while accepted.is_none() && fault.is_none() {
            let now = Instant::now();
            if now >= deadline {
                return Err(io::Error::new(
                    io::ErrorKind::TimedOut,
                    format!("no answer to RELP open within {} ms", timeout.as_millis()),
                ));
            }
            let mut input = lock(&session.input);
            let input = &mut *input;
            let read = session.read_into(input, deadline - now)?;
            if read.is_none() {
                continue;
            }
            let result = input.frames.feed(&input.plain, |frame| {
                if frame.txnr == txnr && frame.command == b"rsp" {
                    accepted = Some(String::from_utf8_lossy(frame.data).into_owned());
                } else if frame.command == b"serverclose" {
                    fault = Some("the receiver closed the session".to_string());
                }
            });
            input.plain.clear();
            if let Err(error) = result {
                fault = Some(format!("the receiver's answer to open holds {error}"));
            }
        }
        if let Some(fault) = fault {
            return Err(io::Error::new(io::ErrorKind::InvalidData, fault));
        }
        let answer = accepted.unwrap_or_default();
        let mut lines = answer.lines();
        let status = lines.next().unwrap_or_default();
        if !status.starts_with("200") {
            return Err(io::Error::new(
                io::ErrorKind::ConnectionRefused,
                format!("the receiver refused the RELP session: {status}"),
            ));
        }
        let offered: Vec<&str> = lines.collect();
        let syslog = offered.iter().any(|offer| {
            offer
                .strip_prefix("commands=")
                .is_some_and(|commands| commands.split(',').any(|c| c == "syslog"))
        });
        if !offered.iter().any(|o| o.starts_with("relp_version=")) || !syslog {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "the receiver does not accept RELP syslog commands (its offers: {})",
                    offered.join(" ")
                ),
            ));
        }
        lock(&session.acks).acked = txnr;
        Ok(session)
    }

    /// Sends one command; its transaction number. A number space used up is `Other`.
    fn send(&self, command: &[u8], data: &[u8]) -> io::Result<u32> {
        let mut output = lock(&self.output);
        if let Some((kind, reason)) = &lock(&self.acks).broken {
            return Err(io::Error::new(*kind, reason.clone()));
        }
        let Output {
            socket,
            next_txnr,
            frame,
            sealed,
        } = &mut *output;
        let txnr = *next_txnr;
        if txnr > MAX_TXNR {
            return Err(io::Error::other(
                "the session used its last transaction number",
            ));
        }
        *next_txnr += 1;
        frame.clear();
        frame.extend_from_slice(itoa(txnr, &mut [0; 10]));
        frame.push(b' ');
        frame.extend_from_slice(command);
        frame.push(b' ');
        frame.extend_from_slice(itoa(data.len() as u32, &mut [0; 10]));
        if !data.is_empty() {
            frame.push(b' ');
            frame.extend_from_slice(data);
        }
        frame.push(b'\n');
        let result = match &self.tls {
            None => socket.write_all(frame),
            Some(tls) => {
                sealed.clear();
                let mut rest = &frame[..];
                let mut result = Ok(());
                while !rest.is_empty() && result.is_ok() {
                    let mut conn = lock(tls);
                    result = conn.writer().write(rest).and_then(|taken| {
                        rest = &rest[taken..];
                        while conn.wants_write() {
                            conn.write_tls(sealed)?;
                        }
                        if taken == 0 {
                            return Err(io::ErrorKind::WriteZero.into());
                        }
                        Ok(())
                    });
                }
                result.and_then(|()| socket.write_all(sealed))
            }
        };
        result.map(|()| txnr)
    }

    /// Waits for the receiver to acknowledge `txnr`, reading the responses while no other
    /// waiter does.
    fn wait(&self, txnr: u32, deadline: Instant) -> io::Result<()> {
        let mut acks = lock(&self.acks);
        loop {
            if acks.acked >= txnr {
                return Ok(());
            }
            if let Some((kind, reason)) = &acks.broken {
                return Err(io::Error::new(*kind, reason.clone()));
            }
            let now = Instant::now();
            if now >= deadline {
                let reason = format!(
                    "the receiver did not acknowledge the event within {} ms",
                    self.timeout.as_millis()
                );
                drop(acks);
                self.break_with(io::ErrorKind::TimedOut, reason.clone());
                return Err(io::Error::new(io::ErrorKind::TimedOut, reason));
            }
            if acks.reading {
                acks = self
                    .acked_changed
                    .wait_timeout(acks, deadline - now)
                    .map(|(acks, _)| acks)
                    .unwrap_or_else(|e| e.into_inner().0);
                continue;
            }
            acks.reading = true;
            drop(acks);
            let read = self.read_responses(deadline - now);
            acks = lock(&self.acks);
            acks.reading = false;
            if let Some(acked) = read.acked {
                acks.acked = acks.acked.max(acked);
            }
            if let Some(fault) = read.fault {
                acks.broken.get_or_insert(fault);
            }
            self.acked_changed.notify_all();
        }
    }

    /// Reads what responses arrive within `wait`.
    fn read_responses(&self, wait: Duration) -> Responses {
        let mut found = Responses::default();
        let mut input = lock(&self.input);
        let input = &mut *input;
        match self.read_into(input, wait) {
            Ok(None) => return found,
            Ok(Some(())) => {}
            Err(error) => {
                found.fault = Some((error.kind(), crate::os_reason(&error)));
                return found;
            }
        }
        let result = input
            .frames
            .feed(&input.plain, |frame| match frame.command {
                b"rsp" if frame.txnr > 0 => {
                    let status = frame.data.split(|b| *b == b'\n').next().unwrap_or(&[]);
                    // `close` is answered with no data at all.
                    if status.is_empty() || status.starts_with(b"200") {
                        found.acked = Some(frame.txnr);
                    } else if found.fault.is_none() {
                        found.fault = Some((
                            io::ErrorKind::InvalidData,
                            format!(
                                "the receiver refused event {}: {}",
                                frame.txnr,
                                String::from_utf8_lossy(status)
                            ),
                        ));
                    }
                }
                b"serverclose" => {
                    found.fault.get_or_insert((
                        io::ErrorKind::ConnectionReset,
                        "the receiver closed the session (serverclose)".into(),
                    ));
                }
                _ => {}
            });
        input.plain.clear();
        if let Err(error) = result {
            found.fault.get_or_insert((
                io::ErrorKind::InvalidData,
                format!("the receiver's response holds {error}"),
            ));
        }
        found
    }

    /// Waits at most `wait` for bytes and appends what came (decrypted) to `input.plain`;
    /// `None` when nothing came. The end of the stream is an error.
    fn read_into(&self, input: &mut Input, wait: Duration) -> io::Result<Option<()>> {
        let mut poll = libc::pollfd {
            fd: input.socket.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let millis = libc::c_int::try_from(wait.as_millis().max(1)).unwrap_or(libc::c_int::MAX);
        // SAFETY: one pollfd, ours, for a descriptor the session owns.
        let ready = unsafe { libc::poll(&mut poll, 1, millis) };
        if ready < 0 {
            let error = io::Error::last_os_error();
            return if error.kind() == io::ErrorKind::Interrupted {
                Ok(None)
            } else {
                Err(error)
            };
        }
        if ready == 0 {
            return Ok(None);
        }
        // SAFETY: reads at most `raw.len()` bytes into `raw`, from a descriptor the session
        // owns, without blocking.
        let read = unsafe {
            libc::recv(
                input.socket.as_raw_fd(),
                input.raw.as_mut_ptr().cast(),
                input.raw.len(),
                libc::MSG_DONTWAIT,
            )
        };
        let read = match usize::try_from(read) {
            Ok(0) => return Err(closed()),
            Ok(read) => read,
            Err(_) => {
                let error = io::Error::last_os_error();
                return match error.kind() {
                    io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
                    _ => Err(error),
                };
            }
        };
        let raw = &input.raw[..read];
        let Some(tls) = &self.tls else {
            input.plain.extend_from_slice(raw);
            return Ok(Some(()));
        };
        let mut conn = lock(tls);
        let mut rest = raw;
        while !rest.is_empty() {
            conn.read_tls(&mut rest)?;
            let state = conn
                .process_new_packets()
                .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))?;
            let mut available = state.plaintext_bytes_to_read();
            while available > 0 {
                let start = input.plain.len();
                input.plain.resize(start + available, 0);
                let taken = conn.reader().read(&mut input.plain[start..])?;
                input.plain.truncate(start + taken);
                available = available.saturating_sub(taken.max(1));
            }
            if state.peer_has_closed() {
                return Err(closed());
            }
        }
        Ok(Some(()))
    }

    /// Marks the session as unable to deliver, wakes every waiter and shuts the connection
    /// (a writer or reader blocked in it returns).
    fn break_with(&self, kind: io::ErrorKind, reason: String) {
        lock(&self.acks).broken.get_or_insert((kind, reason));
        self.acked_changed.notify_all();
        self.shutdown();
    }

    fn shutdown(&self) {
        // SAFETY: the descriptor stays open while the session (which owns it) lives; shutting
        // it down only ends the connection, for both of the session's handles.
        unsafe {
            libc::shutdown(self.fd, libc::SHUT_RDWR);
        }
    }

    fn is_broken(&self) -> bool {
        lock(&self.acks).broken.is_some()
    }

    /// Sends one event and waits for its acknowledgement.
    fn deliver(&self, bytes: &[u8]) -> io::Result<()> {
        let txnr = self.send(b"syslog", bytes)?;
        self.wait(txnr, Instant::now() + self.timeout)
    }

    /// Ends the session: `close`, its response (bounded), then the connection.
    fn close(&self) {
        if !self.is_broken() {
            if let Ok(txnr) = self.send(b"close", &[]) {
                // Answers still owed to waiters are read by them or here.
                let _ = self.wait(txnr, Instant::now() + self.timeout.min(CLOSE_WAIT));
            }
        }
        if let Some(tls) = &self.tls {
            lock(tls).send_close_notify();
        }
        self.break_with(io::ErrorKind::NotConnected, "the session was closed".into());
    }
}

fn closed() -> io::Error {
    io::Error::new(
        io::ErrorKind::ConnectionReset,
        "java.net.SocketException: Connection closed by the receiver",
    )
}

/// `value` in decimal, written into `buffer`.
fn itoa(mut value: u32, buffer: &mut [u8; 10]) -> &[u8] {
    let mut start = buffer.len();
    loop {
        start -= 1;
        buffer[start] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            return &buffer[start..];
        }
    }
}

/// What the manager's lock guards.
pub(super) struct State {
    session: Option<Arc<Session>>,
    /// The connected address as Java prints it (`host/ip:port`).
    peer: String,
    /// The reconnector thread, while one runs: true once its first attempt is over.
    reconnector: Option<bool>,
}

/// One RELP connection per `host:port` (`RELP:host:port`, `RELP-TLS:host:port`), shared by
/// the appenders that name it.
pub(crate) struct RelpManager {
    options: TcpOptions,
    link: Link<RelpManager>,
}

impl RelpManager {
    /// Connects and opens a session, or reports why not and starts reconnecting.
    pub(crate) fn create(options: TcpOptions) -> Arc<RelpManager> {
        let manager = Arc::new_cyclic(|this| RelpManager {
            link: Link::new(
                State {
                    session: None,
                    peer: format!("{}:{}", options.host, options.port),
                    reconnector: None,
                },
                this,
            ),
            options,
        });
        reconnect::connect_first(&manager, "RelpSocketManager", |_| {});
        manager
    }

    /// The manager's name, `RELP:host:port` (or `RELP-TLS:…`).
    pub(crate) fn name(&self) -> &str {
        &self.options.name
    }

    /// True while a session is open (for tests and `Debug`).
    pub(crate) fn is_connected(&self) -> bool {
        self.lock()
            .session
            .as_ref()
            .is_some_and(|session| !session.is_broken())
    }

    /// The open session, waiting (as the TCP manager) for the reconnector's next attempt when
    /// there is none and `immediateFail` is off.
    fn session(&self) -> Result<Arc<Session>, WriteError> {
        let state = reconnect::await_first_attempt(self, self.lock());
        state.session.clone().ok_or_else(|| {
            WriteError::Io(io::Error::new(
                io::ErrorKind::NotConnected,
                format!(
                    "Error writing to {}: socket not available",
                    self.options.name
                ),
            ))
        })
    }

    /// Sends one event and returns once the receiver acknowledged it, or with the reason it
    /// did not.
    pub(crate) fn write(&self, bytes: &[u8]) -> Result<(), WriteError> {
        if self.is_closed() {
            return Err(WriteError::Closed);
        }
        let session = self.session()?;
        match session.deliver(bytes) {
            Ok(()) => Ok(()),
            Err(error) => self.failed(&session, bytes, error),
        }
    }

    /// A delivery failed on `session`: as the TCP manager, a new session at once (unless the
    /// receiver stalled, reconnection is off or the reconnector runs), the event sent once
    /// more on it, or the failure.
    fn failed(
        &self,
        session: &Arc<Session>,
        bytes: &[u8],
        cause: io::Error,
    ) -> Result<(), WriteError> {
        session.break_with(cause.kind(), crate::os_reason(&cause));
        let mut state = self.lock();
        if state
            .session
            .as_ref()
            .is_some_and(|current| Arc::ptr_eq(current, session))
        {
            state.session = None;
        }
        let peer = state.peer.clone();
        let error = |text: String| {
            Err(WriteError::Io(io::Error::new(
                cause.kind(),
                format!("{text} ({})", crate::os_reason(&cause)),
            )))
        };
        if self.is_closed() {
            return Err(WriteError::Closed);
        }
        let stalled =
            cause.kind() == io::ErrorKind::TimedOut || cause.kind() == io::ErrorKind::WouldBlock;
        if stalled {
            reconnect::start(self, &mut state);
            return error(format!("Error sending to {} for {peer}", self.options.name));
        }
        if !self.options.retry {
            return error(format!(
                "Error writing to {} for connection {peer}",
                self.options.name
            ));
        }
        // Another caller may have opened the next session already.
        let next = match state.session.clone() {
            Some(next) => next,
            None if state.reconnector.is_none() => match self.connect() {
                Ok((next, new_peer)) => {
                    state.session = Some(Arc::clone(&next));
                    state.peer = new_peer;
                    next
                }
                Err(_) => {
                    reconnect::start(self, &mut state);
                    return error(format!("Error sending to {} for {peer}", self.options.name));
                }
            },
            None => return error(format!("Error sending to {} for {peer}", self.options.name)),
        };
        drop(state);
        match next.deliver(bytes) {
            Ok(()) => Ok(()),
            Err(again) => {
                next.break_with(again.kind(), crate::os_reason(&again));
                let mut state = self.lock();
                if state
                    .session
                    .as_ref()
                    .is_some_and(|current| Arc::ptr_eq(current, &next))
                {
                    state.session = None;
                }
                reconnect::start(self, &mut state);
                error(format!(
                    "Error writing to {} after reestablishing connection for {peer}",
                    self.options.name
                ))
            }
        }
    }

    /// Closes the session (`close`, answered or not within a bound) and stops the reconnector.
    pub(crate) fn close(&self) {
        if !self.link.close() {
            return;
        }
        let session = self.lock().session.take();
        if let Some(session) = session {
            session.close();
        }
        self.link.notify_all();
    }
}

impl ConnectionState<Arc<Session>> for State {
    fn reconnector(&mut self) -> &mut Option<bool> {
        &mut self.reconnector
    }

    fn is_connected(&self) -> bool {
        self.session.is_some()
    }

    fn install(&mut self, connection: Arc<Session>, peer: String) {
        self.session = Some(connection);
        self.peer = peer;
    }
}

impl Reconnecting for RelpManager {
    type Connection = Arc<Session>;
    type State = State;
    const THREAD_NAME: &'static str = "RelpSocketManager-Reconnector";

    fn options(&self) -> &TcpOptions {
        &self.options
    }

    fn link(&self) -> &Link<Self> {
        &self.link
    }

    /// Connects as the TCP manager does and opens a RELP session on the connection.
    fn connect(&self) -> io::Result<(Arc<Session>, String)> {
        let (stream, peer) = tcp::connect(&self.options)?;
        let session = Session::open(stream, self.options.write_timeout)?;
        Ok((Arc::new(session), peer))
    }

    fn discard(connection: Arc<Session>) {
        connection.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frames(input: &[u8], piece: usize) -> Result<Vec<(u32, String, String)>, String> {
        let mut reader = FrameReader::default();
        let mut found = Vec::new();
        for chunk in input.chunks(piece) {
            reader.feed(chunk, |frame| {
                found.push((
                    frame.txnr,
                    String::from_utf8_lossy(frame.command).into_owned(),
                    String::from_utf8_lossy(frame.data).into_owned(),
                ))
            })?;
        }
        Ok(found)
    }

    /// The frames librelp's server sends (src/copen.c, scsyslog.c, cclose.c, relpsess.c),
    /// read whole and one byte at a time.
    #[test]
    fn responses_hints_and_empty_data_are_read_in_any_pieces() {
        let wire = b"1 rsp 45 200 OK\nrelp_version=0\ncommands=syslog\nfoo=bar\n2 rsp 6 200 OK\n3 rsp 0\n0 serverclose 0\n";
        let expected = vec![
            (
                1,
                "rsp".to_string(),
                "200 OK\nrelp_version=0\ncommands=syslog\nfoo=bar".to_string(),
            ),
            (2, "rsp".into(), "200 OK".into()),
            (3, "rsp".into(), String::new()),
            (0, "serverclose".into(), String::new()),
        ];
        for piece in [1, 2, 7, wire.len()] {
            assert_eq!(frames(wire, piece).unwrap(), expected, "pieces of {piece}");
        }
    }

    #[test]
    fn framing_errors_are_refused() {
        for (wire, error) in [
            (&b"x rsp 0\n"[..], "transaction number"),
            (b"1 rsp 0 \n", "data length"),
            (b"1 r5p 0\n", "command"),
            (b"1 rsp 2 OK!", "trailer"),
            (b"1234567890 rsp 0\n", "nine digits"),
            (b"1 rsp 999999\n", "more than"),
            (b" rsp 0\n", "transaction number"),
        ] {
            let found = frames(wire, 1).unwrap_err();
            assert!(found.contains(error), "{wire:?}: {found}");
        }
        let long = format!("1 {} 0\n", "a".repeat(33));
        assert!(frames(long.as_bytes(), 3)
            .unwrap_err()
            .contains("32 letters"));
    }

    #[test]
    fn numbers_are_written_in_decimal() {
        for value in [0, 7, 10, 999_999_999, u32::MAX] {
            assert_eq!(itoa(value, &mut [0; 10]), value.to_string().as_bytes());
        }
    }

    /// A RELP server on 127.0.0.1 that checks that each command's number is above the
    /// previous one's (from 1 per session), answers every command with `answer` (the open
    /// with its offers) and records each session's syslog messages.
    struct FakeServer {
        port: u16,
        sessions: Arc<Mutex<Vec<Recorded>>>,
    }

    /// One session's syslog commands: number and message.
    type Recorded = Vec<(u32, String)>;

    impl FakeServer {
        fn start(answer: &'static str) -> FakeServer {
            let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
            let port = listener.local_addr().unwrap().port();
            let sessions = Arc::new(Mutex::new(Vec::new()));
            let recorded = Arc::clone(&sessions);
            std::thread::spawn(move || {
                for stream in listener.incoming() {
                    let Ok(mut stream) = stream else { return };
                    let recorded = Arc::clone(&recorded);
                    std::thread::spawn(move || {
                        let index = {
                            let mut sessions = lock(&recorded);
                            sessions.push(Vec::new());
                            sessions.len() - 1
                        };
                        let mut reader = FrameReader::default();
                        let mut last = 0;
                        let mut buffer = [0u8; 4096];
                        loop {
                            let Ok(read) = stream.read(&mut buffer) else {
                                return;
                            };
                            if read == 0 {
                                return;
                            }
                            let mut replies = Vec::new();
                            reader
                                .feed(&buffer[..read], |frame| {
                                    assert!(frame.txnr > last, "out of order");
                                    last = frame.txnr;
                                    let data = match frame.command {
                                        b"open" => "200 OK\nrelp_version=0\ncommands=syslog",
                                        b"close" => "",
                                        _ => answer,
                                    };
                                    if frame.command == b"syslog" {
                                        lock(&recorded)[index].push((
                                            frame.txnr,
                                            String::from_utf8_lossy(frame.data).into_owned(),
                                        ));
                                    }
                                    replies.extend_from_slice(
                                        format!("{} rsp {} {data}\n", frame.txnr, data.len())
                                            .replace(" 0 \n", " 0\n")
                                            .as_bytes(),
                                    );
                                })
                                .expect("a well-framed command");
                            if stream.write_all(&replies).is_err() {
                                return;
                            }
                        }
                    });
                }
            });
            FakeServer { port, sessions }
        }

        fn sessions(&self) -> Vec<Recorded> {
            lock(&self.sessions).clone()
        }
    }

    fn manager(port: u16) -> Arc<RelpManager> {
        RelpManager::create(TcpOptions {
            name: format!("RELP:127.0.0.1:{port}"),
            host: "127.0.0.1".into(),
            port,
            tls: None,
            connect_timeout: Duration::from_secs(2),
            write_timeout: Duration::from_secs(2),
            reconnect_delay: Duration::from_millis(100),
            retry: true,
            immediate_fail: true,
            buffer_size: 0,
            socket_options: None,
        })
    }

    /// Eight threads pipelining into one session keep the numbers in wire order (the server
    /// asserts it) and each gets its own acknowledgement.
    #[test]
    fn concurrent_callers_keep_the_numbers_in_order() {
        let server = FakeServer::start("200 OK");
        let manager = manager(server.port);
        std::thread::scope(|scope| {
            for thread in 0..8 {
                let manager = &manager;
                scope.spawn(move || {
                    for index in 0..200 {
                        manager
                            .write(format!("T{thread}-{index}").as_bytes())
                            .expect("acknowledged");
                    }
                });
            }
        });
        manager.close();
        let sessions = server.sessions();
        assert_eq!(sessions.len(), 1);
        assert_eq!(sessions[0].len(), 1600);
        // The open was 1.
        assert!(sessions[0].iter().zip(2..).all(|((txnr, _), n)| *txnr == n));
    }

    /// After the last transaction number the next event opens a new session (numbers from 1
    /// again) instead of wrapping; every event is acknowledged.
    #[test]
    fn the_last_transaction_number_opens_a_new_session() {
        let server = FakeServer::start("200 OK");
        let manager = manager(server.port);
        assert!(manager.write(b"first").is_ok());
        let session = manager.lock().session.clone().expect("a session");
        // As if the session had used every number but its last.
        lock(&session.output).next_txnr = MAX_TXNR;
        assert!(manager.write(b"last").is_ok());
        assert!(manager.write(b"next session").is_ok());
        manager.close();
        let sessions = server.sessions();
        assert_eq!(sessions.len(), 2, "{sessions:?}");
        assert_eq!(
            sessions[0],
            [(2, "first".to_string()), (MAX_TXNR, "last".to_string())]
        );
        assert_eq!(sessions[1], [(2, "next session".to_string())]);
    }

    /// A receiver that refuses an event (`500 …`) fails it with its words.
    #[test]
    fn a_refusal_fails_the_event_with_the_receivers_words() {
        let server = FakeServer::start("500 no room");
        let manager = manager(server.port);
        let error = match manager.write(b"refused") {
            Err(WriteError::Io(error)) => error.to_string(),
            Err(WriteError::Closed) => panic!("closed"),
            Ok(()) => panic!("a refused event was acknowledged"),
        };
        manager.close();
        assert!(error.contains("the receiver refused event"), "{error}");
        assert!(error.contains("500 no room"), "{error}");
    }

    #[test]
    fn the_fuzz_entry_counts_frames_or_reports_the_error() {
        assert_eq!(fuzz_frames(b"1 rsp 6 200 OK\n2 rsp 0\n", 3), Ok(2));
        assert!(fuzz_frames(b"1 rsp 6 200 OK\n\n", 0).is_err());
    }
}
