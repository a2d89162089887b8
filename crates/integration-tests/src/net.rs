//! Receivers on 127.0.0.1 for the socket appender tests: they record every byte (TCP) or
//! datagram (UDP) they get, on ephemeral ports, and stop when dropped.

use std::io::Read;
use std::net::{Shutdown, TcpListener, TcpStream, UdpSocket};
use std::os::fd::RawFd;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// Room reserved up front for what a receiver records, so that recording does not allocate
/// while a zero-allocation test counts every allocation of the process.
const RESERVED: usize = 32 << 20;

/// What a receiver has recorded.
#[derive(Default)]
struct Recorded {
    bytes: Mutex<Vec<u8>>,
    datagrams: Mutex<Vec<Vec<u8>>>,
    connections: AtomicUsize,
    /// Connections still open (the sender has not closed them).
    open: AtomicUsize,
}

/// A TCP listener on 127.0.0.1 that accepts every connection and records what arrives, in
/// arrival order (connections one after another, or interleaved by read).
pub struct TcpReceiver {
    port: u16,
    recorded: Arc<Recorded>,
    stop: Arc<AtomicBool>,
    accepter: Option<JoinHandle<()>>,
}

impl TcpReceiver {
    /// Listens on an ephemeral port and reads everything.
    pub fn start() -> TcpReceiver {
        TcpReceiver::listen(0, true)
    }

    /// Listens on an ephemeral port, accepts, and never reads (a receiver that stops reading).
    pub fn start_not_reading() -> TcpReceiver {
        TcpReceiver::listen(0, false)
    }

    /// Listens again on `port` (after [`TcpReceiver::stop`] of an earlier receiver), keeping
    /// nothing of what the earlier one recorded.
    pub fn restart_on(port: u16) -> TcpReceiver {
        let deadline = Instant::now() + Duration::from_secs(10);
        loop {
            match TcpListener::bind(("127.0.0.1", port)) {
                Ok(listener) => return TcpReceiver::serve(listener, true),
                Err(error) if Instant::now() < deadline => {
                    let _ = error;
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(error) => panic!("cannot listen on 127.0.0.1:{port} again: {error}"),
            }
        }
    }

    fn listen(port: u16, reading: bool) -> TcpReceiver {
        let listener = TcpListener::bind(("127.0.0.1", port)).expect("bind 127.0.0.1");
        TcpReceiver::serve(listener, reading)
    }

    fn serve(listener: TcpListener, reading: bool) -> TcpReceiver {
        let port = listener.local_addr().expect("local address").port();
        listener
            .set_nonblocking(true)
            .expect("non-blocking listener");
        let recorded = Arc::new(Recorded::default());
        recorded.bytes.lock().unwrap().reserve(RESERVED);
        let stop = Arc::new(AtomicBool::new(false));
        let streams = Arc::new(Mutex::new(Vec::new()));
        let accepter = {
            let (recorded, stop, streams) = (
                Arc::clone(&recorded),
                Arc::clone(&stop),
                Arc::clone(&streams),
            );
            std::thread::spawn(move || {
                let mut readers = Vec::new();
                while !stop.load(Ordering::Acquire) {
                    match listener.accept() {
                        Ok((stream, _)) => {
                            recorded.connections.fetch_add(1, Ordering::AcqRel);
                            recorded.open.fetch_add(1, Ordering::AcqRel);
                            streams
                                .lock()
                                .unwrap()
                                .push(stream.try_clone().expect("clone"));
                            if reading {
                                let recorded = Arc::clone(&recorded);
                                readers
                                    .push(std::thread::spawn(move || read_all(stream, &recorded)));
                            }
                        }
                        Err(_) => std::thread::sleep(Duration::from_millis(5)),
                    }
                }
                for stream in streams.lock().unwrap().iter() {
                    let _ = stream.shutdown(Shutdown::Both);
                }
                for reader in readers {
                    let _ = reader.join();
                }
            })
        };
        TcpReceiver {
            port,
            recorded,
            stop,
            accepter: Some(accepter),
        }
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The connections accepted so far.
    pub fn connections(&self) -> usize {
        self.recorded.connections.load(Ordering::Acquire)
    }

    /// Everything received so far, as text.
    pub fn text(&self) -> String {
        String::from_utf8_lossy(&self.recorded.bytes.lock().unwrap()).into_owned()
    }

    /// Everything received so far.
    pub fn bytes(&self) -> Vec<u8> {
        self.recorded.bytes.lock().unwrap().clone()
    }

    /// Waits (at most `timeout`) until `done` holds for the text received; returns the text.
    pub fn wait_for(&self, timeout: Duration, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + timeout;
        loop {
            let text = self.text();
            if done(&text) || Instant::now() >= deadline {
                return text;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    /// Waits (at most `timeout`) until a sender connected and every sender closed its
    /// connection; returns what was received.
    pub fn wait_until_closed(&self, timeout: Duration) -> String {
        let deadline = Instant::now() + timeout;
        while Instant::now() < deadline
            && (self.connections() == 0 || self.recorded.open.load(Ordering::Acquire) > 0)
        {
            std::thread::sleep(Duration::from_millis(10));
        }
        self.text()
    }

    /// Closes the listener and every connection; returns what was received.
    pub fn stop(mut self) -> String {
        self.shut();
        self.text()
    }

    fn shut(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(accepter) = self.accepter.take() {
            let _ = accepter.join();
        }
    }
}

impl Drop for TcpReceiver {
    fn drop(&mut self) {
        self.shut();
    }
}

fn read_all(mut stream: TcpStream, recorded: &Recorded) {
    let mut chunk = [0u8; 16 * 1024];
    loop {
        match stream.read(&mut chunk) {
            Ok(0) | Err(_) => {
                recorded.open.fetch_sub(1, Ordering::AcqRel);
                return;
            }
            Ok(read) => recorded
                .bytes
                .lock()
                .unwrap()
                .extend_from_slice(&chunk[..read]),
        }
    }
}

/// A UDP socket on 127.0.0.1 that records each datagram.
pub struct UdpReceiver {
    port: u16,
    recorded: Arc<Recorded>,
    stop: Arc<AtomicBool>,
    reader: Option<JoinHandle<()>>,
}

impl UdpReceiver {
    /// Binds an ephemeral port.
    pub fn start() -> UdpReceiver {
        let socket = UdpSocket::bind("127.0.0.1:0").expect("bind 127.0.0.1");
        socket
            .set_read_timeout(Some(Duration::from_millis(20)))
            .expect("read timeout");
        let port = socket.local_addr().expect("local address").port();
        let recorded = Arc::new(Recorded::default());
        let stop = Arc::new(AtomicBool::new(false));
        let reader = {
            let (recorded, stop) = (Arc::clone(&recorded), Arc::clone(&stop));
            std::thread::spawn(move || {
                let mut datagram = vec![0u8; 65_536];
                while !stop.load(Ordering::Acquire) {
                    if let Ok(read) = socket.recv(&mut datagram) {
                        recorded
                            .datagrams
                            .lock()
                            .unwrap()
                            .push(datagram[..read].to_vec());
                    }
                }
            })
        };
        UdpReceiver {
            port,
            recorded,
            stop,
            reader: Some(reader),
        }
    }

    /// The port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Waits (at most `timeout`) until `count` datagrams arrived; returns those received.
    pub fn wait_for(&self, count: usize, timeout: Duration) -> Vec<Vec<u8>> {
        let deadline = Instant::now() + timeout;
        loop {
            let datagrams = self.recorded.datagrams.lock().unwrap().clone();
            if datagrams.len() >= count || Instant::now() >= deadline {
                return datagrams;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
    }
}

impl Drop for UdpReceiver {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
        if let Some(reader) = self.reader.take() {
            let _ = reader.join();
        }
    }
}

/// A receiver on an ephemeral 127.0.0.1 port that accepts one connection, sends it `bytes`,
/// closes it and stops listening (the join handle ends then, at most 10 s after the start):
/// a receiver that said something before it went away.
pub fn say_and_hang_up(bytes: &'static [u8]) -> (u16, JoinHandle<()>) {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    let port = listener.local_addr().expect("local address").port();
    listener
        .set_nonblocking(true)
        .expect("non-blocking listener");
    let speaker = std::thread::spawn(move || {
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            match listener.accept() {
                Ok((mut stream, _)) => {
                    use std::io::Write;
                    let _ = stream.set_nonblocking(false);
                    let _ = stream.write_all(bytes);
                    return;
                }
                Err(_) => std::thread::sleep(Duration::from_millis(5)),
            }
        }
    });
    (port, speaker)
}

/// A port on 127.0.0.1 where nothing listens (bound, then released): connections are refused.
pub fn refused_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    listener.local_addr().expect("local address").port()
}

/// The options of one TCP socket, as `getsockopt` reads them back.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SocketOptionsRead {
    /// `SO_KEEPALIVE`.
    pub keep_alive: bool,
    /// `SO_OOBINLINE`.
    pub oob_inline: bool,
    /// `SO_REUSEADDR`.
    pub reuse_address: bool,
    /// `TCP_NODELAY`.
    pub tcp_no_delay: bool,
    /// `SO_RCVBUF` (what the kernel made of the size asked for).
    pub receive_buffer_size: i32,
    /// `SO_SNDBUF`.
    pub send_buffer_size: i32,
    /// `SO_LINGER`: on, and the seconds.
    pub linger: (bool, i32),
    /// `IP_TOS`.
    pub traffic_class: i32,
    /// `SO_SNDTIMEO`, in milliseconds (0: none).
    pub send_timeout_millis: u128,
    /// The window scale this side announced when it connected (`TCP_INFO`'s
    /// `tcpi_rcv_wscale`): bounded by a receive buffer set before the connection, not after.
    pub receive_window_scale: u8,
}

fn int_option(fd: RawFd, level: libc::c_int, name: libc::c_int) -> i32 {
    let mut value: libc::c_int = 0;
    let mut length = std::mem::size_of::<libc::c_int>() as libc::socklen_t;
    // SAFETY: an int-sized option into a local int, on a descriptor the caller names.
    let result = unsafe {
        libc::getsockopt(
            fd,
            level,
            name,
            (&mut value as *mut libc::c_int).cast(),
            &mut length,
        )
    };
    assert_eq!(result, 0, "getsockopt({level}, {name}) failed");
    value
}

/// Reads back the options of the TCP socket `fd`.
pub fn socket_options(fd: RawFd) -> SocketOptionsRead {
    let mut linger = libc::linger {
        l_onoff: 0,
        l_linger: 0,
    };
    let mut length = std::mem::size_of::<libc::linger>() as libc::socklen_t;
    // SAFETY: a `linger` of its own size, on a descriptor the caller names.
    let result = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_LINGER,
            (&mut linger as *mut libc::linger).cast(),
            &mut length,
        )
    };
    assert_eq!(result, 0, "getsockopt(SO_LINGER) failed");
    let mut timeout = libc::timeval {
        tv_sec: 0,
        tv_usec: 0,
    };
    let mut length = std::mem::size_of::<libc::timeval>() as libc::socklen_t;
    // SAFETY: a `timeval` of its own size, on a descriptor the caller names.
    let result = unsafe {
        libc::getsockopt(
            fd,
            libc::SOL_SOCKET,
            libc::SO_SNDTIMEO,
            (&mut timeout as *mut libc::timeval).cast(),
            &mut length,
        )
    };
    assert_eq!(result, 0, "getsockopt(SO_SNDTIMEO) failed");
    // SAFETY: an all-zero `tcp_info` is valid; getsockopt writes at most its size.
    let mut info: libc::tcp_info = unsafe { std::mem::zeroed() };
    let mut length = std::mem::size_of::<libc::tcp_info>() as libc::socklen_t;
    // SAFETY: a `tcp_info` of its own size, on a descriptor the caller names.
    let result = unsafe {
        libc::getsockopt(
            fd,
            libc::IPPROTO_TCP,
            libc::TCP_INFO,
            (&mut info as *mut libc::tcp_info).cast(),
            &mut length,
        )
    };
    assert_eq!(result, 0, "getsockopt(TCP_INFO) failed");
    SocketOptionsRead {
        // The byte holds two 4-bit fields: tcpi_snd_wscale, then tcpi_rcv_wscale.
        receive_window_scale: info.tcpi_snd_rcv_wscale >> 4,
        keep_alive: int_option(fd, libc::SOL_SOCKET, libc::SO_KEEPALIVE) != 0,
        oob_inline: int_option(fd, libc::SOL_SOCKET, libc::SO_OOBINLINE) != 0,
        reuse_address: int_option(fd, libc::SOL_SOCKET, libc::SO_REUSEADDR) != 0,
        tcp_no_delay: int_option(fd, libc::IPPROTO_TCP, libc::TCP_NODELAY) != 0,
        receive_buffer_size: int_option(fd, libc::SOL_SOCKET, libc::SO_RCVBUF),
        send_buffer_size: int_option(fd, libc::SOL_SOCKET, libc::SO_SNDBUF),
        linger: (linger.l_onoff != 0, linger.l_linger),
        traffic_class: int_option(fd, libc::IPPROTO_IP, libc::IP_TOS),
        send_timeout_millis: Duration::new(timeout.tv_sec as u64, timeout.tv_usec as u32 * 1000)
            .as_millis(),
    }
}

/// Sets an int option on `fd` (for a reference socket to compare with).
pub fn set_int_option(fd: RawFd, level: libc::c_int, name: libc::c_int, value: i32) {
    l4rs::core::socket::set_int_option(fd, level, name, value)
        .unwrap_or_else(|error| panic!("setsockopt({level}, {name}) failed: {error}"));
}

/// The descriptor of this process's one TCP connection to 127.0.0.1:`port` (the sending
/// side: its peer is that port), found among the open descriptors.
pub fn connection_to(port: u16) -> Option<RawFd> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc/self/fd").ok()?.flatten() {
        let Some(fd) = entry
            .file_name()
            .to_str()
            .and_then(|name| name.parse::<RawFd>().ok())
        else {
            continue;
        };
        // SAFETY: an all-zero `sockaddr_in` is valid; getpeername writes at most its size.
        let mut address: libc::sockaddr_in = unsafe { std::mem::zeroed() };
        let mut length = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
        let result = unsafe {
            libc::getpeername(
                fd,
                (&mut address as *mut libc::sockaddr_in).cast(),
                &mut length,
            )
        };
        if result == 0
            && libc::c_int::from(address.sin_family) == libc::AF_INET
            && u16::from_be(address.sin_port) == port
            && u32::from_be(address.sin_addr.s_addr) == u32::from(std::net::Ipv4Addr::LOCALHOST)
        {
            found.push(fd);
        }
    }
    assert!(found.len() <= 1, "more than one connection to port {port}");
    found.first().copied()
}

/// Sets `SO_LINGER` on `fd` to on with `seconds` (for a reference socket to compare with).
pub fn set_linger(fd: RawFd, seconds: i32) {
    l4rs::core::socket::set_linger(fd, seconds)
        .unwrap_or_else(|error| panic!("setsockopt(SO_LINGER) failed: {error}"));
}

/// A connection to 127.0.0.1:`port` whose receive buffer was set to `size` before it connected
/// (a reference for the window scale a sender should announce).
pub fn connect_with_receive_buffer(port: u16, size: i32) -> TcpStream {
    use std::os::fd::FromRawFd;
    // SAFETY: a new socket; its descriptor is owned by the stream made from it below.
    let fd = unsafe { libc::socket(libc::AF_INET, libc::SOCK_STREAM | libc::SOCK_CLOEXEC, 0) };
    assert!(fd >= 0, "socket() failed");
    // SAFETY: `fd` is a fresh socket no one else owns.
    let stream = unsafe { TcpStream::from_raw_fd(fd) };
    set_int_option(fd, libc::SOL_SOCKET, libc::SO_RCVBUF, size);
    let address = libc::sockaddr_in {
        sin_family: libc::AF_INET as libc::sa_family_t,
        sin_port: port.to_be(),
        sin_addr: libc::in_addr {
            s_addr: u32::from(std::net::Ipv4Addr::LOCALHOST).to_be(),
        },
        sin_zero: [0; 8],
    };
    // SAFETY: a `sockaddr_in` of its own size, on the socket made above.
    let result = unsafe {
        libc::connect(
            fd,
            (&address as *const libc::sockaddr_in).cast(),
            std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t,
        )
    };
    assert_eq!(result, 0, "connect to 127.0.0.1:{port} failed");
    stream
}

/// The local IPv4 address the socket `fd` is bound to.
pub fn local_address(fd: RawFd) -> std::net::SocketAddrV4 {
    // SAFETY: an all-zero `sockaddr_in` is valid; getsockname writes at most its size.
    let mut address: libc::sockaddr_in = unsafe { std::mem::zeroed() };
    let mut length = std::mem::size_of::<libc::sockaddr_in>() as libc::socklen_t;
    let result = unsafe {
        libc::getsockname(
            fd,
            (&mut address as *mut libc::sockaddr_in).cast(),
            &mut length,
        )
    };
    assert_eq!(result, 0, "getsockname failed");
    std::net::SocketAddrV4::new(
        u32::from_be(address.sin_addr.s_addr).into(),
        u16::from_be(address.sin_port),
    )
}

/// A UDP port on 127.0.0.1 where nothing listens (bound, then released): datagrams sent there
/// are answered by ICMP port unreachable.
pub fn refused_udp_port() -> u16 {
    let socket = UdpSocket::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    socket.local_addr().expect("local address").port()
}
