//! `syncSend="true"` (log4j2's default) against a real broker: each call returns once the
//! broker acknowledged the record, so the records are there without any flush or shutdown;
//! with the broker down, a call waits for the manager's timeout (`timeout.ms`) and then fails
//! with log4j2's status error, without panicking.

use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use l4rs_tests::kafka::{
    kafka_config, parse_value, require_kafka_tools, sequences_by_thread, Broker, StatusLog,
};

const THREADS: usize = 4;
const PER_THREAD: u64 = 500;

fn now_millis() -> i64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64
}

#[test]
fn a_synchronous_send_is_acknowledged_before_it_returns() {
    if !require_kafka_tools("the Kafka syncSend test") {
        return;
    }
    let dir = l4rs_tests::fresh_output_dir("kafka-sync-send");
    let status = StatusLog::start();

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
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).expect("configuration loads");
    let logger = l4rs::get_logger("kafka.sync");
    let started = Instant::now();
    l4rs::info!(logger, "lost-0");
    let waited = started.elapsed();
    assert!(
        waited >= Duration::from_millis(1000),
        "returned after {waited:?}"
    );
    assert!(
        waited < Duration::from_secs(10),
        "returned after {waited:?}"
    );
    let errors = status.messages(l4rs::Level::ERROR);
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("Unable to write to Kafka in appender [kafka]")),
        "{errors:?}"
    );

    // The broker is up: every call is acknowledged when it returns.
    let broker = Broker::start().expect("start the broker");
    broker.create_topic("sync", 1).expect("create the topic");
    let xml = kafka_config(
        &broker,
        r#"topic="sync" key="fixed-key""#,
        &[("acks", "all")],
        false,
        "",
        "kafka",
    );
    l4rs::reconfigure_with_file(l4rs_tests::write_config(&dir, &xml)).expect("reconfigure");
    let before = now_millis();
    let handles: Vec<_> = (0..THREADS)
        .map(|thread| {
            std::thread::Builder::new()
                .name(format!("sync-{thread}"))
                .spawn(|| {
                    let logger = l4rs::get_logger("kafka.sync");
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
    let in_order: Vec<u64> = (0..PER_THREAD).collect();
    let sequences = sequences_by_thread(&records);
    assert_eq!(sequences.len(), THREADS);
    for (thread, numbers) in &sequences {
        assert!(
            *numbers == in_order,
            "{thread}: not every event once and in order"
        );
    }
    l4rs::shutdown();
}
