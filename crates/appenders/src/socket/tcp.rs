//! The TCP and TLS manager (log4j2's `TcpSocketManager` and `SslSocketManager`): one connection
//! per `host:port`, shared by every appender that names it, reconnected in the background.
//!
//! As in log4j2, the manager connects when it is created (a failure is reported and a
//! reconnector thread started), and a write that fails drops the connection, tries once to
//! reconnect at once, re-sends the event on success and otherwise starts the reconnector and
//! fails the event. While there is no connection, an event fails at once (`immediateFail`,
//! the default) or waits for the reconnector's next attempt, which is bounded by
//! `reconnectionDelayMillis` plus the connect timeout.
//!
//! Where l4rs does better: every write is bounded by a write timeout (log4j2 blocks for ever on
//! a receiver that stops reading), and before each write the manager checks, without blocking,
//! whether the receiver has closed the connection, so the event is not written into a
//! connection that can no longer deliver it (log4j2 loses that event without an error).

use std::io::{self, Write};
use std::net::{SocketAddr, TcpStream};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::{Arc, MutexGuard};
use std::time::{Duration, Instant};

use l4rs_config::model::SocketOptionsSpec;
use l4rs_core::{socket, status, Layout};
use rustls::{ClientConfig, ClientConnection, StreamOwned};

use super::reconnect::{self, ConnectionState, Link, Reconnecting};
use crate::file_manager::WriteError;

/// How long one write may block when `connectTimeoutMillis` is 0.
pub(crate) const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// What a TCP manager is built from.
pub(crate) struct TcpOptions {
    pub name: String,
    pub host: String,
    pub port: u16,
    pub tls: Option<Arc<ClientConfig>>,
    /// `connectTimeoutMillis`, or [`DEFAULT_WRITE_TIMEOUT`] for 0 (the OS's own would hold
    /// the caller's reconnection attempt for minutes on a host that does not answer).
    pub connect_timeout: Duration,
    pub write_timeout: Duration,
    pub reconnect_delay: Duration,
    /// False for a negative `reconnectionDelayMillis`: as log4j2, a lost connection is then
    /// never re-made (no attempt after a failed write, no reconnector).
    pub retry: bool,
    pub immediate_fail: bool,
    /// 0: no buffer (every event is written at once).
    pub buffer_size: usize,
    /// `<SocketOptions>`, set on every connection.
    pub socket_options: Option<SocketOptionsSpec>,
}

/// Sets the options that are given on the socket `fd` that is to connect to `peer`, as
/// log4j2's `SocketOptions.apply` does (`soTimeout` is a read timeout, and l4rs never reads).
/// Set before connecting, as log4j2 does: a receive buffer set later no longer bounds the
/// window scale the connection announced in its SYN.
fn apply_options(fd: RawFd, options: &SocketOptionsSpec, peer: &SocketAddr) -> io::Result<()> {
    let set = |level, name, value| socket::set_int_option(fd, level, name, value);
    let flags = [
        (options.keep_alive, libc::SOL_SOCKET, libc::SO_KEEPALIVE),
        (options.oob_inline, libc::SOL_SOCKET, libc::SO_OOBINLINE),
        (options.reuse_address, libc::SOL_SOCKET, libc::SO_REUSEADDR),
        (options.tcp_no_delay, libc::IPPROTO_TCP, libc::TCP_NODELAY),
    ];
    for (value, level, name) in flags {
        if let Some(on) = value {
            set(level, name, libc::c_int::from(on))?;
        }
    }
    let sizes = [
        (options.receive_buffer_size, libc::SO_RCVBUF),
        (options.send_buffer_size, libc::SO_SNDBUF),
    ];
    for (value, name) in sizes {
        if let Some(size) = value {
            set(libc::SOL_SOCKET, name, size)?;
        }
    }
    if let Some(class) = options.traffic_class {
        if peer.is_ipv4() {
            set(libc::IPPROTO_IP, libc::IP_TOS, class)?;
        } else {
            set(libc::IPPROTO_IPV6, libc::IPV6_TCLASS, class)?;
        }
    }
    if let Some(seconds) = options.so_linger {
        socket::set_linger(fd, seconds)?;
    }
    Ok(())
}

/// An open connection (RELP reads and writes the two halves itself: socket/relp.rs).
pub(super) enum Stream {
    Plain(TcpStream),
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

impl Stream {
    fn tcp(&self) -> &TcpStream {
        match self {
            Stream::Plain(stream) => stream,
            Stream::Tls(stream) => stream.get_ref(),
        }
    }

    /// True when the receiver has closed its side (or the connection broke), whatever it sent
    /// before: a zero-timeout `poll` reports the receiver's FIN (`POLLRDHUP`), a reset or an
    /// error even when bytes it sent wait unread, which a peek alone cannot see past.
    ///
    /// What a receiver sends on a plain connection is read and discarded (l4rs never reads a
    /// reply, and a syslog receiver owes none): left unread it would fill the receive buffer
    /// and turn the final close into a reset that can cost the receiver its last events. Over
    /// TLS it is read through rustls, so that a `close_notify` behind it is seen too.
    fn closed_by_peer(&mut self) -> bool {
        let mut poll = libc::pollfd {
            fd: self.tcp().as_raw_fd(),
            events: libc::POLLIN | PEER_CLOSED,
            revents: 0,
        };
        // SAFETY: one `pollfd` of a descriptor this stream owns, no waiting.
        let ready = unsafe { libc::poll(&mut poll, 1, 0) };
        if ready <= 0 {
            return false;
        }
        if poll.revents & (PEER_CLOSED | libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0 {
            return true;
        }
        if poll.revents & libc::POLLIN == 0 {
            return false;
        }
        match self {
            Stream::Plain(stream) => discard_received(stream),
            Stream::Tls(stream) => {
                let StreamOwned { conn, sock } = stream.as_mut();
                loop {
                    match conn.read_tls(&mut NonBlocking(sock)) {
                        Ok(0) => return true,
                        Ok(_) => match conn.process_new_packets() {
                            Ok(state) if state.peer_has_closed() => return true,
                            Ok(state) => {
                                // Application data the receiver sent: not for l4rs, and it
                                // would fill rustls's bounded plaintext buffer.
                                let mut rest = state.plaintext_bytes_to_read();
                                let mut sink = [0u8; 512];
                                while rest > 0 {
                                    match io::Read::read(&mut conn.reader(), &mut sink) {
                                        Ok(0) | Err(_) => break,
                                        Ok(read) => rest = rest.saturating_sub(read),
                                    }
                                }
                            }
                            Err(_) => return true,
                        },
                        Err(error) if error.kind() == io::ErrorKind::WouldBlock => return false,
                        Err(_) => return true,
                    }
                }
            }
        }
    }

    fn write_all(&mut self, bytes: &[u8]) -> io::Result<()> {
        match self {
            Stream::Plain(stream) => write_within_timeout(stream, bytes),
            Stream::Tls(stream) => {
                // Not rustls's `StreamOwned::write`: it ignores a failed send of the records
                // it just sealed, so a stalled receiver cost one timeout there and another
                // in the flush after. Here the first timed-out send is the error.
                let StreamOwned { conn, sock } = stream.as_mut();
                let began = Instant::now();
                let mut rest = bytes;
                loop {
                    drain(conn, sock, began)?;
                    if rest.is_empty() {
                        return Ok(());
                    }
                    let taken = conn.writer().write(rest)?;
                    if taken == 0 && !conn.wants_write() {
                        return Err(io::ErrorKind::WriteZero.into());
                    }
                    rest = &rest[taken..];
                }
            }
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Stream::Plain(stream) => stream.flush(),
            Stream::Tls(stream) => {
                let StreamOwned { conn, sock } = stream.as_mut();
                drain(conn, sock, Instant::now())
            }
        }
    }

    fn close(mut self) {
        if let Stream::Tls(stream) = &mut self {
            // Best effort and never blocking: after a timed-out write the receiver is not
            // reading, and waiting for room for the close_notify would cost another timeout.
            let StreamOwned { conn, sock } = stream.as_mut();
            conn.send_close_notify();
            if sock.set_nonblocking(true).is_ok() {
                while conn.wants_write() {
                    if conn.write_tls(sock).is_err() {
                        break;
                    }
                }
            }
        }
        let _ = self.tcp().shutdown(std::net::Shutdown::Both);
    }
}

/// Sends the TLS records `conn` holds. A blocking send that times out after moving some
/// bytes returns their count, not an error, and the next one would wait a whole timeout
/// again: once the write timeout has passed since `began`, a short send is the timeout.
fn drain(conn: &mut ClientConnection, sock: &mut TcpStream, began: Instant) -> io::Result<()> {
    while conn.wants_write() {
        match conn.write_tls(sock) {
            Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
            // Only a short send asks the socket for its timeout (a system call).
            Ok(_)
                if conn.wants_write()
                    && began.elapsed()
                        >= sock.write_timeout()?.unwrap_or(DEFAULT_WRITE_TIMEOUT) =>
            {
                return Err(io::ErrorKind::TimedOut.into())
            }
            Ok(_) => {}
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => return Err(error),
        }
    }
    Ok(())
}

/// `poll`'s report of a receiver that shut down its sending side (Linux's `POLLRDHUP`; elsewhere
/// only a hang-up or a reset is seen, and the end-of-stream read below).
#[cfg(any(target_os = "linux", target_os = "android"))]
const PEER_CLOSED: libc::c_short = libc::POLLRDHUP;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const PEER_CLOSED: libc::c_short = 0;

/// Reads and drops what the receiver sent on a plain connection, at most 64 KiB per check so
/// that a receiver that keeps sending cannot hold the writer; true when the reading reaches
/// the end of the stream or an error.
fn discard_received(stream: &TcpStream) -> bool {
    let mut sink = [0u8; 4096];
    for _ in 0..16 {
        match io::Read::read(&mut NonBlocking(stream), &mut sink) {
            Ok(0) => return true,
            Ok(_) => {}
            Err(error) if error.kind() == io::ErrorKind::WouldBlock => return false,
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(_) => return true,
        }
    }
    false
}

/// Reads what has arrived without waiting for more.
struct NonBlocking<'s>(&'s TcpStream);

impl io::Read for NonBlocking<'_> {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        // SAFETY: reads at most `buffer.len()` bytes into `buffer`, from a descriptor the
        // stream owns.
        let read = unsafe {
            libc::recv(
                self.0.as_raw_fd(),
                buffer.as_mut_ptr().cast(),
                buffer.len(),
                libc::MSG_DONTWAIT,
            )
        };
        usize::try_from(read).map_err(|_| io::Error::last_os_error())
    }
}

/// What the manager's lock guards.
pub(super) struct State {
    stream: Option<Stream>,
    /// The connected address as Java prints `inetAddress:port` (`host/ip:port`).
    peer: String,
    /// Events waiting to be written (`bufferedIo` without `immediateFlush`).
    buffer: Vec<u8>,
    /// The reconnector thread, while one runs: true once its first attempt is over.
    reconnector: Option<bool>,
}

/// One TCP (or TLS) connection.
pub(crate) struct TcpManager {
    options: TcpOptions,
    layout: Arc<dyn Layout>,
    link: Link<TcpManager>,
}

impl TcpManager {
    /// Connects (writing the layout's header), or reports why not and starts reconnecting.
    pub(crate) fn create(options: TcpOptions, layout: Arc<dyn Layout>) -> Arc<TcpManager> {
        let manager = Arc::new_cyclic(|this| TcpManager {
            link: Link::new(
                State {
                    stream: None,
                    peer: format!("{}:{}", options.host, options.port),
                    buffer: Vec::with_capacity(options.buffer_size),
                    reconnector: None,
                },
                this,
            ),
            options,
            layout,
        });
        let kind = if manager.options.tls.is_some() {
            "SslSocketManager"
        } else {
            "TcpSocketManager"
        };
        reconnect::connect_first(&manager, kind, |stream| {
            let header = crate::encode::with_encoded(
                manager.layout.as_ref(),
                |out| manager.layout.header(out),
                <[u8]>::to_vec,
            );
            if !header.is_empty() {
                if let Err(error) = stream.write_all(&header) {
                    status::error(format_args!(
                        "{} Unable to write header: {error}",
                        manager.options.name
                    ));
                }
            }
        });
        manager
    }

    /// The manager's name, `TCP:host:port` (or `TLS:…`).
    pub(crate) fn name(&self) -> &str {
        &self.options.name
    }

    /// True when events may wait in a buffer.
    pub(crate) fn is_buffered(&self) -> bool {
        self.options.buffer_size > 0
    }
}

impl ConnectionState<Stream> for State {
    fn reconnector(&mut self) -> &mut Option<bool> {
        &mut self.reconnector
    }

    fn is_connected(&self) -> bool {
        self.stream.is_some()
    }

    fn install(&mut self, connection: Stream, peer: String) {
        self.stream = Some(connection);
        self.peer = peer;
    }
}

impl Reconnecting for TcpManager {
    type Connection = Stream;
    type State = State;
    const THREAD_NAME: &'static str = "TcpSocketManager-Reconnector";

    fn options(&self) -> &TcpOptions {
        &self.options
    }

    fn link(&self) -> &Link<Self> {
        &self.link
    }

    fn connect(&self) -> io::Result<(Stream, String)> {
        connect(&self.options)
    }

    fn discard(connection: Stream) {
        connection.close();
    }
}

/// Writes all of `bytes` within one write timeout (`SO_SNDTIMEO`, set at connect).
///
/// `Write::write_all` would not: a send that moved some bytes before the timeout returns that
/// count, and the next send waits a whole timeout again, so a receiver that stopped reading
/// cost the caller twice the timeout. After a partial send the timeout is cut to what is left
/// of it (two `setsockopt` calls, only on that path) and a send that runs out is `TimedOut`.
fn write_within_timeout(stream: &mut TcpStream, bytes: &[u8]) -> io::Result<()> {
    let began = Instant::now();
    let mut rest = bytes;
    let mut shortened = None;
    let result = loop {
        match stream.write(rest) {
            Ok(0) => break Err(io::ErrorKind::WriteZero.into()),
            Ok(written) => rest = &rest[written..],
            // A signal: the deadline below still holds for the retry.
            Err(error) if error.kind() == io::ErrorKind::Interrupted => {}
            Err(error) => break Err(error),
        }
        if rest.is_empty() {
            break Ok(());
        }
        let timeout = match shortened {
            Some(timeout) => timeout,
            None => match stream.write_timeout() {
                Ok(Some(timeout)) => *shortened.insert(timeout),
                // No timeout set (cannot happen: connect sets one): nothing to bound.
                Ok(None) => continue,
                Err(error) => break Err(error),
            },
        };
        let left = timeout.saturating_sub(began.elapsed());
        if left.is_zero() {
            break Err(io::ErrorKind::TimedOut.into());
        }
        if let Err(error) = stream.set_write_timeout(Some(left)) {
            break Err(error);
        }
    };
    if let Some(timeout) = shortened {
        // The connection is dropped after a failed write; restoring matters after a success.
        let _ = stream.set_write_timeout(Some(timeout));
    }
    result
}

/// Opens a connection to the first address of the host that accepts one, as log4j2's
/// factory tries each resolved address; the error says which were tried, in log4j2's words.
pub(super) fn connect(options: &TcpOptions) -> io::Result<(Stream, String)> {
    let addresses = super::resolve::resolve(&options.host, options.port).map_err(|error| {
        io::Error::new(
            error.kind(),
            format!("java.net.UnknownHostException: {}: {error}", options.host),
        )
    })?;
    let mut last = None;
    for address in &addresses {
        match connect_to(options, address) {
            Ok(stream) => {
                let peer = format!("{}/{}:{}", options.host, address.ip(), address.port());
                return Ok((stream, peer));
            }
            Err(error) => last = Some(error),
        }
    }
    let mut message = format!(
        "java.io.IOException: Unable to create socket for {} at port {}",
        options.host, options.port
    );
    if let [only] = addresses.as_slice() {
        if only.ip().to_string() != options.host {
            message.push_str(&format!(
                " using ip address {} and port {}",
                only.ip(),
                only.port()
            ));
        }
    } else {
        message.push_str(" using ip addresses and ports ");
        let listed: Vec<String> = addresses.iter().map(ToString::to_string).collect();
        message.push_str(&listed.join(", "));
    }
    if let Some(cause) = last {
        message.push_str(&format!(" ({})", crate::os_reason(&cause)));
    }
    Err(io::Error::new(io::ErrorKind::NotConnected, message))
}

fn connect_to(options: &TcpOptions, address: &SocketAddr) -> io::Result<Stream> {
    let socket = socket2::Socket::new(
        socket2::Domain::for_address(*address),
        socket2::Type::STREAM,
        Some(socket2::Protocol::TCP),
    )?;
    if let Some(socket_options) = &options.socket_options {
        apply_options(socket.as_raw_fd(), socket_options, address)?;
    }
    socket.connect_timeout(&(*address).into(), options.connect_timeout)?;
    let tcp = TcpStream::from(socket);
    tcp.set_write_timeout(Some(options.write_timeout))?;
    let Some(config) = &options.tls else {
        return Ok(Stream::Plain(tcp));
    };
    // The handshake reads; it is bounded as writes are.
    tcp.set_read_timeout(Some(options.write_timeout))?;
    let stream = super::tls::handshake(config, &options.host, tcp)?;
    Ok(Stream::Tls(Box::new(stream)))
}

impl TcpManager {
    /// Writes one event's bytes (into the buffer unless `flush`, or when it has room).
    pub(crate) fn write(&self, bytes: &[u8], flush: bool) -> Result<(), WriteError> {
        if self.is_closed() {
            return Err(WriteError::Closed);
        }
        let mut state = reconnect::await_first_attempt(self, self.lock());
        if state.stream.is_none() {
            return Err(WriteError::Io(io::Error::new(
                io::ErrorKind::NotConnected,
                format!(
                    "Error writing to {}: socket not available",
                    self.options.name
                ),
            )));
        }
        let capacity = self.options.buffer_size;
        if capacity > 0 && !flush && bytes.len() <= capacity {
            // As log4j2's OutputStreamManager: a full buffer goes out first, and the event
            // waits in the emptied one.
            if state.buffer.len() + bytes.len() > capacity {
                if let Err(error) = Self::send(&mut state, &[]) {
                    // The buffer is still whole; the re-send after reconnecting carries this
                    // event after it, or the failure report covers it.
                    return self.failed(state, bytes, error);
                }
            }
            state.buffer.extend_from_slice(bytes);
            return Ok(());
        }
        match Self::send(&mut state, bytes) {
            Ok(()) => Ok(()),
            Err(error) => self.failed(state, bytes, error),
        }
    }

    /// Writes the buffer and then `bytes` to the connection.
    fn send(state: &mut State, bytes: &[u8]) -> io::Result<()> {
        let State { stream, buffer, .. } = state;
        let stream = stream
            .as_mut()
            .ok_or_else(|| io::Error::from(io::ErrorKind::NotConnected))?;
        if stream.closed_by_peer() {
            return Err(io::Error::new(
                io::ErrorKind::ConnectionReset,
                "java.net.SocketException: Connection closed by the receiver",
            ));
        }
        if !buffer.is_empty() {
            stream.write_all(buffer)?;
            buffer.clear();
        }
        if !bytes.is_empty() {
            stream.write_all(bytes)?;
        }
        stream.flush()
    }

    /// A write failed: as log4j2, reconnect once at once and re-send, or start the reconnector.
    fn failed(
        &self,
        mut state: MutexGuard<'_, State>,
        bytes: &[u8],
        cause: io::Error,
    ) -> Result<(), WriteError> {
        if let Some(stream) = state.stream.take() {
            stream.close();
        }
        let peer = state.peer.clone();
        // A write that timed out met a receiver that stopped reading: reconnecting at once
        // would only fill another connection, so the reconnector waits its delay first.
        let stalled = matches!(
            cause.kind(),
            io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
        );
        let cause = if stalled {
            io::Error::new(
                io::ErrorKind::TimedOut,
                format!(
                    "the write timed out after {} ms: the receiver is not reading",
                    self.options.write_timeout.as_millis()
                ),
            )
        } else {
            cause
        };
        if stalled {
            reconnect::start(self, &mut state);
        } else if !self.options.retry {
            // log4j2 without retry: no reconnection, and its own words for the failure.
            state.buffer.clear();
            return Err(WriteError::Io(io::Error::new(
                cause.kind(),
                format!(
                    "Error writing to {} for connection {peer} ({})",
                    self.options.name,
                    crate::os_reason(&cause)
                ),
            )));
        } else if state.reconnector.is_none() {
            match self.connect() {
                Ok((stream, new_peer)) => {
                    state.stream = Some(stream);
                    state.peer = new_peer;
                    return Self::send(&mut state, bytes).map_err(|_| {
                        WriteError::Io(io::Error::new(
                            cause.kind(),
                            format!(
                                "Error writing to {} after reestablishing connection for {peer} ({})",
                                self.options.name,
                                crate::os_reason(&cause)
                            ),
                        ))
                    });
                }
                Err(_) => reconnect::start(self, &mut state),
            }
        }
        // The bytes buffered with the failed write are lost with it.
        state.buffer.clear();
        Err(WriteError::Io(io::Error::new(
            cause.kind(),
            format!(
                "Error sending to {} for {peer} ({})",
                self.options.name,
                crate::os_reason(&cause)
            ),
        )))
    }

    /// Writes out the buffer.
    pub(crate) fn flush(&self) -> Result<(), WriteError> {
        let mut state = self.lock();
        if state.buffer.is_empty() || state.stream.is_none() {
            return Ok(());
        }
        match Self::send(&mut state, &[]) {
            Ok(()) => Ok(()),
            Err(error) => self.failed(state, &[], error),
        }
    }

    /// Writes the buffer and the footer, closes the connection and stops the reconnector.
    pub(crate) fn close(&self) {
        if !self.link.close() {
            return;
        }
        let footer = crate::encode::encoded_footer(self.layout.as_ref());
        let mut state = self.lock();
        // Nothing to send means nothing to report, even from a receiver that has gone.
        if state.stream.is_some() && !(state.buffer.is_empty() && footer.is_empty()) {
            if let Err(error) = Self::send(&mut state, &footer) {
                status::error(format_args!(
                    "Unable to write to stream {} while closing it: {error}",
                    self.options.name
                ));
            }
        }
        if let Some(stream) = state.stream.take() {
            stream.close();
        }
        drop(state);
        self.link.notify_all();
    }

    /// True while connected (for tests and `Debug`).
    pub(crate) fn is_connected(&self) -> bool {
        self.lock().stream.is_some()
    }
}
