//! A log call into the Kafka appender allocates nothing in steady state, synchronous or not:
//! the event is formatted into the thread's reused buffers and copied by librdkafka into its
//! own (C) memory, which Rust's allocator does not see; the delivery reports, served by the
//! appender's poll thread, allocate nothing either. Counted process-wide, every thread
//! included, flush included.

use std::time::Duration;

use l4rs_tests::allocations::CountingAllocator;
use l4rs_tests::kafka::{kafka_config, require_kafka_tools, Broker};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

#[test]
fn steady_state_kafka_calls_do_not_allocate() {
    if !require_kafka_tools("the Kafka zero-allocation test") {
        return;
    }
    let broker = Broker::start().expect("start the broker");
    broker.create_topic("quiet", 1).expect("create the topic");
    let dir = l4rs_tests::fresh_output_dir("kafka-zero-allocation");
    let error = l4rs_tests::deep_throwable(100);
    let message = "x".repeat(100);
    for sync in ["false", "true"] {
        let xml = kafka_config(
            &broker,
            &format!(r#"topic="quiet" key="fixed" syncSend="{sync}" sendEventTimestamp="true""#),
            &[],
            false,
            "",
            "kafka",
        );
        l4rs::reconfigure_with_file(l4rs_tests::write_config(&dir, &xml)).unwrap();
        let logger = l4rs::get_logger("kafka.quiet");
        let run = |count: usize| {
            for index in 0..count {
                if index % 5 == 0 {
                    l4rs::info!(logger, error = &error, "{message}");
                } else {
                    l4rs::info!(logger, "{message}");
                }
            }
        };
        run(500);
        l4rs::flush();
        let started = std::time::Instant::now();
        let allocations = l4rs_tests::allocations::counted(|| {
            run(2_000);
            // The delivery reports of those records, on rdkafka's thread, count too.
            l4rs::flush();
        });
        eprintln!(
            "syncSend={sync}: 2,000 calls and their flush in {:?}",
            started.elapsed()
        );
        assert_eq!(
            allocations, 0,
            "allocations in 2,000 calls with syncSend={sync}"
        );
    }
    l4rs::shutdown();
    let records = broker
        .consume("quiet", 5_000, Duration::from_secs(60))
        .expect("consume");
    assert_eq!(records.len(), 5_000);
}
