//! The Kafka appender against a real broker (tansu on 127.0.0.1), read back by an independent
//! consumer (kafka-python): 4 threads × 50 000 events through an `AsyncRoot` into
//! `syncSend="false"`, then `l4rs::shutdown()`. Every event must arrive exactly once, each
//! thread's in order within one partition (the key is the thread name), with the event's time
//! as the record timestamp (`sendEventTimestamp`) and the layout's bytes as the value; the
//! shutdown must lose nothing and report no error.

use std::time::{Duration, Instant};

use l4rs_tests::kafka::{
    kafka_config, parse_value, require_kafka_tools, sequences_by_thread, Broker, StatusLog,
};

const THREADS: usize = 4;
const PER_THREAD: u64 = 50_000;
const TOPIC: &str = "delivery";

#[test]
fn every_event_arrives_once_in_order_with_key_and_timestamp() {
    if !require_kafka_tools("the Kafka delivery test") {
        return;
    }
    let broker = Broker::start().expect("start the broker");
    broker.create_topic(TOPIC, 4).expect("create the topic");
    let dir = l4rs_tests::fresh_output_dir("kafka-delivery");
    let xml = kafka_config(
        &broker,
        &format!(
            r#"topic="{TOPIC}" syncSend="false" sendEventTimestamp="true" key="$${{event:ThreadName}}""#
        ),
        &[("acks", "all"), ("timeout.ms", "20000")],
        true,
        "",
        "kafka",
    );
    let status = StatusLog::start();
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).expect("configuration loads");
    let started = Instant::now();
    let handles: Vec<_> = (0..THREADS)
        .map(|thread| {
            std::thread::Builder::new()
                .name(format!("producer-{thread}"))
                .spawn(|| {
                    let logger = l4rs::get_logger("kafka.delivery");
                    for n in 0..PER_THREAD {
                        l4rs::info!(logger, "event-{}", n);
                    }
                })
                .unwrap()
        })
        .collect();
    for handle in handles {
        handle.join().unwrap();
    }
    let logged = started.elapsed();
    l4rs::shutdown();
    let drained = started.elapsed();
    eprintln!(
        "{} events logged in {logged:?}, shutdown (drained) after {drained:?}",
        THREADS as u64 * PER_THREAD
    );
    assert!(
        status.messages(l4rs::Level::ERROR).is_empty(),
        "{:?}",
        status.messages(l4rs::Level::ERROR)
    );

    let expected = THREADS * PER_THREAD as usize;
    let records = broker
        .consume(TOPIC, expected, Duration::from_secs(90))
        .expect("consume");
    assert_eq!(records.len(), expected, "records read back");
    for record in &records {
        let logged = parse_value(record);
        assert_eq!(record.key.as_deref(), Some(logged.thread.as_bytes()), "key");
        assert_eq!(record.timestamp, logged.millis, "timestamp of {logged:?}");
    }
    let sequences = sequences_by_thread(&records);
    assert_eq!(sequences.len(), THREADS);
    let in_order: Vec<u64> = (0..PER_THREAD).collect();
    for (thread, numbers) in &sequences {
        assert!(thread.starts_with("producer-"), "{thread}");
        assert!(
            *numbers == in_order,
            "{thread}: not every event once and in order"
        );
    }
}
