//! Sending an event over a kept-alive HTTP connection allocates nothing once the buffers have
//! grown: the event is formatted into the thread's reused buffers, the request is built in the
//! connection's own buffer and the response read into another it keeps, and the idle pool
//! keeps its room. (Header values with `${…}` allocate their resolved text; TLS is not
//! covered: rustls allocates.)

use l4rs_tests::allocations::CountingAllocator;
use l4rs_tests::http::{HttpSink, SinkOptions};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

#[test]
fn sending_over_a_kept_connection_does_not_allocate() {
    let dir = l4rs_tests::fresh_output_dir("http-zero-allocation");
    let Some(sink) = HttpSink::start(&dir.join("requests"), &SinkOptions::default()) else {
        return;
    };
    let xml = format!(
        r#"<Configuration><Appenders>
  <Http name="web" url="http://127.0.0.1:{}/in">
    <Property name="Authorization" value="Bearer 0123456789"/>
    <PatternLayout pattern="%d %-5level %t %c - %msg%n"/>
  </Http>
</Appenders><Loggers><Root level="info"><AppenderRef ref="web"/></Root></Loggers></Configuration>"#,
        sink.port()
    );
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
    let logger = l4rs::get_logger("HttpLogger");
    let message = "x".repeat(100);
    let run = |count: usize| {
        for _ in 0..count {
            l4rs::info!(logger, "{message}");
            l4rs::debug!(logger, "disabled");
        }
    };
    run(200);
    let allocations = l4rs_tests::allocations::counted(|| run(1_000));
    l4rs::shutdown();
    let received = sink.wait_for(1_200, std::time::Duration::from_secs(30));
    assert_eq!(received.len(), 1_200, "every request arrived");
    assert!(
        received.iter().all(|request| request.connection == 1),
        "all on one kept-alive connection"
    );
    assert_eq!(allocations, 0, "allocations in 1,000 sent events");
}
