//! A client's connection to a server, plain TCP or TLS over it (rustls), as the SMTP and Http
//! appenders open them: each address of the host tried in turn within the connect timeout,
//! with read and write limits set on the socket so that a silent server cannot hang the
//! thread that logged.

use std::io::{self, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::{Duration, Instant};

use rustls::{ClientConfig, ClientConnection, StreamOwned};

/// Plain TCP, or TLS over it.
pub(crate) enum ClientStream {
    /// Plain TCP.
    Plain(TcpStream),
    /// TLS over TCP.
    Tls(Box<StreamOwned<ClientConnection, TcpStream>>),
}

/// The limits a connection is opened with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct StreamLimits {
    /// Each connection attempt, to one address of the host.
    pub connect: Duration,
    /// Each read (and the TLS handshake).
    pub read: Duration,
    /// Each write.
    pub write: Duration,
}

impl ClientStream {
    /// Connects to the first address of `host` that answers, each within the connect limit,
    /// sets the read and write limits, and runs the TLS handshake when `tls` is given. `host`
    /// is a name or an address (an IPv6 one without brackets); it is also the name the
    /// server's certificate must carry. A host without an address fails with `NotFound`.
    pub(crate) fn connect(
        host: &str,
        port: u16,
        limits: StreamLimits,
        tls: Option<&Arc<ClientConfig>>,
    ) -> io::Result<ClientStream> {
        // A name that does not resolve reads as `NotFound`, whatever the resolver's error.
        let addresses: Vec<SocketAddr> = crate::socket::resolve::resolve(host, port)
            .map_err(|error| io::Error::new(io::ErrorKind::NotFound, error))?;
        let mut last_error = io::Error::new(io::ErrorKind::NotFound, "the host has no address");
        for address in addresses {
            match TcpStream::connect_timeout(&address, limits.connect) {
                Ok(tcp) => {
                    tcp.set_read_timeout(Some(limits.read))?;
                    tcp.set_write_timeout(Some(limits.write))?;
                    return match tls {
                        Some(config) => crate::socket::tls::handshake(config, host, tcp)
                            .map(|stream| ClientStream::Tls(Box::new(stream))),
                        None => Ok(ClientStream::Plain(tcp)),
                    };
                }
                Err(error) => last_error = error,
            }
        }
        Err(last_error)
    }

    /// Reads what arrives before `deadline` into `buf`: the deadline bounds the whole read,
    /// also when TLS records come a byte at a time (rustls's own reader would wait the
    /// socket's limit for each). `Ok(0)` is the end of the stream; through TLS, a close
    /// without the peer's `close_notify` is `UnexpectedEof`.
    pub(crate) fn read_before(&mut self, buf: &mut [u8], deadline: Instant) -> io::Result<usize> {
        let remaining = |deadline: Instant| {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                Err(io::Error::from(io::ErrorKind::TimedOut))
            } else {
                Ok(left)
            }
        };
        match self {
            ClientStream::Plain(tcp) => {
                tcp.set_read_timeout(Some(remaining(deadline)?))?;
                tcp.read(buf)
            }
            ClientStream::Tls(stream) => loop {
                match stream.conn.reader().read(buf) {
                    Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                    done => return done,
                }
                while stream.conn.wants_write() {
                    stream.conn.write_tls(&mut stream.sock)?;
                }
                stream.sock.set_read_timeout(Some(remaining(deadline)?))?;
                stream.conn.read_tls(&mut stream.sock)?;
                stream
                    .conn
                    .process_new_packets()
                    .map_err(|error| io::Error::new(io::ErrorKind::InvalidData, error))?;
            },
        }
    }

    /// True when the connection, idle since its last response, can carry another request:
    /// nothing has arrived on it, neither the end of the stream nor a stray byte (a TLS
    /// `close_notify` included, also one rustls has already read). Java checks a kept
    /// connection the same way before reusing it.
    pub(crate) fn is_idle_and_open(&mut self) -> bool {
        if let ClientStream::Tls(stream) = self {
            match stream.conn.reader().read(&mut [0u8; 1]) {
                Err(error) if error.kind() == io::ErrorKind::WouldBlock => {}
                // Data, or the peer's close, already in rustls's hands.
                _ => return false,
            }
        }
        let mut byte = 0u8;
        // SAFETY: a peek of at most one byte into `byte`, on a descriptor `self` owns.
        let peeked = unsafe {
            libc::recv(
                std::os::fd::AsRawFd::as_raw_fd(self.tcp()),
                std::ptr::addr_of_mut!(byte).cast(),
                1,
                libc::MSG_PEEK | libc::MSG_DONTWAIT,
            )
        };
        peeked < 0 && io::Error::last_os_error().kind() == io::ErrorKind::WouldBlock
    }

    /// The TCP connection underneath.
    pub(crate) fn tcp(&self) -> &TcpStream {
        match self {
            ClientStream::Plain(stream) => stream,
            ClientStream::Tls(stream) => &stream.sock,
        }
    }
}

impl Read for ClientStream {
    /// Through TLS, the socket's read timeout bounds the whole read, as it bounds a plain one
    /// (rustls's own reader would wait that long for each record's every byte): the SMTP
    /// client's reply limit holds over `smtps` as Http's does.
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if let ClientStream::Tls(stream) = self {
            if let Some(limit) = stream.sock.read_timeout()? {
                let read = self.read_before(buf, Instant::now() + limit);
                self.tcp().set_read_timeout(Some(limit))?;
                return read;
            }
        }
        match self {
            ClientStream::Plain(stream) => stream.read(buf),
            ClientStream::Tls(stream) => stream.read(buf),
        }
    }
}

impl Write for ClientStream {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            ClientStream::Plain(stream) => stream.write(buf),
            ClientStream::Tls(stream) => stream.write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            ClientStream::Plain(stream) => stream.flush(),
            ClientStream::Tls(stream) => stream.flush(),
        }
    }
}
