//! The Kafka appender against a real broker (tansu on 127.0.0.1), read back by an independent
//! consumer (kafka-python): 4 threads × 50 000 events through an `AsyncRoot` into
//! `syncSend="false"`, then `l4rs::shutdown()`. Every event must arrive exactly once, each
//! thread's in order within one partition (the key is the thread name), with the event's time
//! as the record timestamp (`sendEventTimestamp`) and the layout's bytes as the value; the
//! shutdown must lose nothing and report no error.

use std::time::{Duration, Instant};

use l4rs_tests::kafka::{
    assert_each_thread_in_order, broker_with_topic, kafka_config, log_from_threads, parse_value,
    KafkaTest,
};

const THREADS: usize = 4;
const PER_THREAD: u64 = 50_000;
const TOPIC: &str = "delivery";

#[test]
fn every_event_arrives_once_in_order_with_key_and_timestamp() {
    let Some(test) = KafkaTest::start("kafka-delivery") else {
        return;
    };
    let broker = broker_with_topic(TOPIC, 4);
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
    test.load(&xml);
    let started = Instant::now();
    log_from_threads("kafka.delivery", "producer", THREADS, PER_THREAD);
    let logged = started.elapsed();
    l4rs::shutdown();
    let drained = started.elapsed();
    eprintln!(
        "{} events logged in {logged:?}, shutdown (drained) after {drained:?}",
        THREADS as u64 * PER_THREAD
    );
    let errors = test.status.messages(l4rs::Level::ERROR);
    assert!(errors.is_empty(), "{errors:?}");

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
    assert_each_thread_in_order(&records, "producer-", THREADS, PER_THREAD);
}
