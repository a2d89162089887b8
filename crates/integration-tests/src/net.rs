//! Receivers on 127.0.0.1 for the socket appender tests: they record every byte (TCP) or
//! datagram (UDP) they get, on ephemeral ports, and stop when dropped.

use std::io::Read;
use std::net::{Shutdown, TcpListener, TcpStream, UdpSocket};
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

/// A port on 127.0.0.1 where nothing listens (bound, then released): connections are refused.
pub fn refused_port() -> u16 {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind 127.0.0.1");
    listener.local_addr().expect("local address").port()
}
