//! `syncSend="false"` behind an `AsyncRoot` with the broker down: the calls return at once and
//! librdkafka keeps the records. A broker that comes up before the records time out gets every
//! one of them when the appender stops (stopping flushes for the timeout); a broker that never
//! comes up loses them, and stopping says how many.

use std::time::{Duration, Instant};

use l4rs_tests::kafka::{kafka_config, log_numbered, messages, numbered, Broker, KafkaTest};

const EVENTS: usize = 100;

/// Logs `prefix-0` … `prefix-(count-1)`; returns how long that took.
fn log_all(prefix: &str, count: usize) -> Duration {
    let started = Instant::now();
    log_numbered("kafka.async", prefix, count, Duration::from_secs(5));
    started.elapsed()
}

#[test]
fn queued_records_survive_a_late_broker_and_are_counted_when_lost() {
    let Some(test) = KafkaTest::start("kafka-async-outage") else {
        return;
    };
    let properties = [
        ("timeout.ms", "15000"),
        ("reconnect.backoff.ms", "50"),
        ("reconnect.backoff.max.ms", "200"),
    ];

    // Down at start, up a moment later: nothing is lost.
    let mut late = Broker::stopped().expect("a free port");
    let xml = kafka_config(
        &late,
        r#"topic="late" syncSend="false" key="late""#,
        &properties,
        true,
        "",
        "kafka",
    );
    test.load(&xml);
    let took = log_all("late", EVENTS);
    assert!(
        took < Duration::from_secs(5),
        "the calls waited for the broker: {took:?}"
    );
    std::thread::sleep(Duration::from_millis(500));
    late.restart().expect("start the broker");
    late.create_topic("late", 1).expect("create the topic");

    // Reconfiguring stops the appender, which flushes the records to the broker now up.
    let never = Broker::stopped().expect("a free port");
    let xml = kafka_config(
        &never,
        r#"topic="never" syncSend="false""#,
        &[("timeout.ms", "1000")],
        true,
        "",
        "kafka",
    );
    test.load(&xml);
    let records = late
        .consume("late", EVENTS, Duration::from_secs(30))
        .expect("consume");
    assert_eq!(messages(&records), numbered("late", EVENTS));
    let errors = test.status.messages(l4rs::Level::ERROR);
    assert!(
        !errors.iter().any(|e| e.contains("could not be delivered")),
        "{errors:?}"
    );

    // Never up: stopping gives up after the timeout and counts what is lost.
    log_all("never", 10);
    l4rs::shutdown();
    let errors = test.status.messages(l4rs::Level::ERROR);
    assert!(
        errors.iter().any(|e| e
            == "KafkaAppender kafka: 10 records could not be delivered to topic never within 1000 ms of stopping; they are lost"),
        "{errors:?}"
    );
}
