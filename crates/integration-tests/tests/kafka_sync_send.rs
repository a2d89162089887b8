//! `syncSend="true"` (log4j2's default) against a real broker: each call returns once the
//! broker acknowledged the record, so the records are there without any flush or shutdown;
//! with the broker down, a call waits for the manager's timeout (`timeout.ms`) and then fails
//! with log4j2's status error, without panicking.

use std::time::Duration;

use l4rs_tests::kafka::{
    assert_each_thread_in_order, broker_with_topic, kafka_config, log_from_threads, log_numbered,
    parse_value, Broker, KafkaTest,
};
use l4rs_tests::now_millis;

const THREADS: usize = 4;
const PER_THREAD: u64 = 500;

#[test]
fn a_synchronous_send_is_acknowledged_before_it_returns() {
    let Some(test) = KafkaTest::start("kafka-sync-send") else {
        return;
    };

    // The broker is down: the call waits for the timeout, then reports and returns.
    let down = Broker::stopped().expect("a free port");
    let xml = kafka_config(
        &down,
        r#"topic="sync""#,
        &[("timeout.ms", "1000")],
        false,
        "",
        "kafka",
    );
    test.load(&xml);
    let waited = log_numbered("kafka.sync", "lost", 1, Duration::from_secs(10))[0];
    assert!(
        waited >= Duration::from_millis(1000),
        "returned after {waited:?}"
    );
    test.status
        .assert_error_starting_with("Unable to write to Kafka in appender [kafka]");

    // The broker is up: every call is acknowledged when it returns.
    let broker = broker_with_topic("sync", 1);
    let xml = kafka_config(
        &broker,
        r#"topic="sync" key="fixed-key""#,
        &[("acks", "all")],
        false,
        "",
        "kafka",
    );
    test.load(&xml);
    let before = now_millis();
    log_from_threads("kafka.sync", "sync", THREADS, PER_THREAD);
    let after = now_millis();
    // Read back before anything flushes or stops the appender.
    let expected = THREADS * PER_THREAD as usize;
    let records = broker
        .consume("sync", expected, Duration::from_secs(30))
        .expect("consume");
    assert_eq!(records.len(), expected);
    for record in &records {
        assert_eq!(record.key.as_deref(), Some(&b"fixed-key"[..]));
        // Without sendEventTimestamp the producer stamps the record when it is sent.
        assert!(
            (before..=after).contains(&record.timestamp),
            "{} outside {before}..={after}",
            record.timestamp
        );
        assert!(parse_value(record).millis <= record.timestamp + 1);
    }
    assert_each_thread_in_order(&records, "sync-", THREADS, PER_THREAD);
    l4rs::shutdown();
}
