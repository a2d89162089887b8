//! An enabled log call into a Socket appender allocates nothing in steady state, over TCP
//! (immediate flush, and buffered) and over UDP: the event is formatted into the thread's
//! reused buffers and written to the socket from them. (TLS is not covered: rustls allocates
//! its records; see docs/appenders.md.)

use std::net::UdpSocket;
use std::time::Duration;

use l4rs_tests::allocations::CountingAllocator;
use l4rs_tests::net::TcpReceiver;

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

#[test]
fn steady_state_socket_log_calls_do_not_allocate() {
    // The receivers record into room reserved up front (src/net.rs), so their own
    // threads do not allocate while the counter runs; the UDP one is read only afterwards.
    let tcp = TcpReceiver::start();
    let buffered = TcpReceiver::start();
    let udp = UdpSocket::bind("127.0.0.1:0").unwrap();
    let dir = l4rs_tests::fresh_output_dir("socket-zero-allocation");
    let xml = format!(
        r#"<Configuration><Appenders>
  <Socket name="T" host="127.0.0.1" port="{tcp}"><PatternLayout pattern="%d %-5level %t %c - %msg%n"/></Socket>
  <Socket name="B" host="127.0.0.1" port="{buffered}" immediateFlush="false"><PatternLayout pattern="%d %-5level %t %c - %msg%n"/></Socket>
  <Socket name="U" host="127.0.0.1" port="{udp}" protocol="UDP"><PatternLayout pattern="%d %-5level %t %c - %msg%n"/></Socket>
</Appenders><Loggers><Root level="debug"><AppenderRef ref="T"/><AppenderRef ref="B"/><AppenderRef ref="U"/></Root></Loggers></Configuration>"#,
        tcp = tcp.port(),
        buffered = buffered.port(),
        udp = udp.local_addr().unwrap().port(),
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    let logger = l4rs::get_logger("SocketLogger");
    let message = "x".repeat(100);
    let run = |count: usize| {
        for _ in 0..count {
            l4rs::debug!(logger, "{message}");
            l4rs::trace!(logger, "disabled");
        }
    };
    run(2_000);
    let allocations = l4rs_tests::allocations::counted(|| run(10_000));
    l4rs::shutdown();
    assert_eq!(allocations, 0, "allocations in 10,000 steady-state calls");
    let lines = |receiver: &TcpReceiver| {
        receiver
            .wait_for(Duration::from_secs(10), |text| {
                text.lines().count() >= 12_000
            })
            .lines()
            .count()
    };
    assert_eq!(lines(&tcp), 12_000);
    assert_eq!(lines(&buffered), 12_000);
    let mut datagram = [0u8; 512];
    udp.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
    let read = udp.recv(&mut datagram).expect("a datagram arrived");
    assert!(datagram[..read].ends_with(format!("{message}\n").as_bytes()));
}
