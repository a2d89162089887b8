//! A log call into the Kafka appender allocates nothing in steady state, synchronous or not:
//! the event is formatted into the thread's reused buffers and copied by librdkafka into its
//! own (C) memory, which Rust's allocator does not see; the delivery reports, served by the
//! appender's poll thread, allocate nothing either. Counted process-wide, every thread
//! included, flush included.

use std::time::Duration;

use l4rs_tests::allocations::CountingAllocator;
use l4rs_tests::kafka::{broker_with_topic, kafka_config, KafkaTest};

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator::new(l4rs_tests::allocations::count);

#[test]
fn steady_state_kafka_calls_do_not_allocate() {
    let Some(test) = KafkaTest::start("kafka-zero-allocation") else {
        return;
    };
    let broker = broker_with_topic("quiet", 1);
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
        test.load(&xml);
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
