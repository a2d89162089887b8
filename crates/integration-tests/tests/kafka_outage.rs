//! The broker down at start, stopped mid-run and restarted, with `syncSend="true"` behind a
//! Failover appender whose failover is a file: no call panics or hangs past the timeout, the
//! failed sends are reported in log4j2's words, and every event ends up in exactly one place,
//! Kafka or the file. With syncSend, a send that timed out is also given up by librdkafka
//! (`message.timeout.ms` is the appender's timeout), so it is not delivered later behind the
//! file's back.

use std::time::Duration;

use l4rs_tests::kafka::{kafka_config, log_numbered, messages, numbered, Broker, KafkaTest};

const TOPIC: &str = "outage";
/// The Failover appender's `retryIntervalSeconds`: after a failure, Kafka is left alone this long.
const RETRY: Duration = Duration::from_secs(1);

/// Logs `prefix-0` … `prefix-(count-1)`, each call within the appender's timeout (3 s) plus
/// librdkafka's last report: never longer.
fn log_all(prefix: &str, count: usize) {
    log_numbered("kafka.outage", prefix, count, Duration::from_secs(8));
}

/// (Re)starts the broker (empty) with the topic, waits out the Failover's retry interval, logs
/// five `prefix-N` events and checks that exactly those reached Kafka.
fn back_up(broker: &mut Broker, prefix: &str) {
    broker.restart().expect("start the broker");
    broker.create_topic(TOPIC, 1).expect("create the topic");
    std::thread::sleep(RETRY + Duration::from_millis(200));
    log_all(prefix, 5);
    let records = broker
        .consume(TOPIC, 5, Duration::from_secs(20))
        .expect("consume");
    assert_eq!(messages(&records), numbered(prefix, 5));
}

#[test]
fn failover_takes_what_the_broker_cannot() {
    let Some(test) = KafkaTest::start("kafka-outage") else {
        return;
    };
    let fallback = test.dir.join("fallback.log");
    let mut broker = Broker::stopped().expect("a free port");
    let failover = format!(
        r#"<File name="fallback" fileName="{}"><PatternLayout pattern="%m%n"/></File>
  <Failover name="failover" primary="kafka" retryIntervalSeconds="{}">
    <Failovers><AppenderRef ref="fallback"/></Failovers>
  </Failover>"#,
        fallback.display(),
        RETRY.as_secs()
    );
    let xml = kafka_config(
        &broker,
        // One key: every record in one partition, so the read order is the sending order even
        // if the broker created the topic itself with several.
        &format!(r#"topic="{TOPIC}" key="outage" ignoreExceptions="false""#),
        &[
            ("timeout.ms", "3000"),
            ("reconnect.backoff.ms", "50"),
            ("reconnect.backoff.max.ms", "200"),
        ],
        false,
        &failover,
        "failover",
    );
    test.load(&xml);

    // Down at start: the first send times out, the rest go straight to the file.
    log_all("down", 3);
    test.status
        .assert_error_starting_with("Unable to write to Kafka in appender [kafka]");

    // Up: after the retry interval, events reach Kafka again.
    back_up(&mut broker, "up");

    // Stopped mid-run (its in-memory records go with it): the file takes over.
    broker.stop();
    log_all("gone", 3);

    // Restarted: Kafka again, and nothing that went to the file shows up there.
    back_up(&mut broker, "back");

    l4rs::shutdown();
    let mut expected = numbered("down", 3);
    expected.extend(numbered("gone", 3));
    assert_eq!(l4rs_tests::read_lines(&fallback), expected);
}
