//! The broker down at start, stopped mid-run and restarted, with `syncSend="true"` behind a
//! Failover appender whose failover is a file: no call panics or hangs past the timeout, the
//! failed sends are reported in log4j2's words, and every event ends up in exactly one place,
//! Kafka or the file. With syncSend, a send that timed out is also given up by librdkafka
//! (`message.timeout.ms` is the appender's timeout), so it is not delivered later behind the
//! file's back.

use std::time::{Duration, Instant};

use l4rs_tests::kafka::{kafka_config, parse_value, require_kafka_tools, Broker, StatusLog};

const TOPIC: &str = "outage";
/// The Failover appender's `retryIntervalSeconds`: after a failure, Kafka is left alone this long.
const RETRY: Duration = Duration::from_secs(1);

fn log_all(prefix: &str, count: usize) {
    let logger = l4rs::get_logger("kafka.outage");
    for n in 0..count {
        let started = Instant::now();
        l4rs::info!(logger, "{}-{}", prefix, n);
        // The appender's timeout (3 s) plus librdkafka's last report: never longer.
        assert!(
            started.elapsed() < Duration::from_secs(8),
            "{prefix}-{n} hung"
        );
    }
}

fn messages(records: &[l4rs_tests::kafka::Record]) -> Vec<String> {
    records.iter().map(|r| parse_value(r).message).collect()
}

fn names(prefix: &str, count: usize) -> Vec<String> {
    (0..count).map(|n| format!("{prefix}-{n}")).collect()
}

#[test]
fn failover_takes_what_the_broker_cannot() {
    if !require_kafka_tools("the Kafka outage test") {
        return;
    }
    let dir = l4rs_tests::fresh_output_dir("kafka-outage");
    let fallback = dir.join("fallback.log");
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
    let status = StatusLog::start();
    l4rs::init_with_file(l4rs_tests::write_config(&dir, &xml)).expect("configuration loads");

    // Down at start: the first send times out, the rest go straight to the file.
    log_all("down", 3);
    let errors = status.messages(l4rs::Level::ERROR);
    assert!(
        errors
            .iter()
            .any(|e| e.starts_with("Unable to write to Kafka in appender [kafka]")),
        "{errors:?}"
    );

    // Up: after the retry interval, events reach Kafka again.
    broker.restart().expect("start the broker");
    broker.create_topic(TOPIC, 1).expect("create the topic");
    std::thread::sleep(RETRY + Duration::from_millis(200));
    log_all("up", 5);
    let records = broker
        .consume(TOPIC, 5, Duration::from_secs(20))
        .expect("consume");
    assert_eq!(messages(&records), names("up", 5));

    // Stopped mid-run (its in-memory records go with it): the file takes over.
    broker.stop();
    log_all("gone", 3);

    // Restarted: Kafka again, and nothing that went to the file shows up there.
    broker.restart().expect("restart the broker");
    broker.create_topic(TOPIC, 1).expect("create the topic");
    std::thread::sleep(RETRY + Duration::from_millis(200));
    log_all("back", 5);
    let records = broker
        .consume(TOPIC, 5, Duration::from_secs(20))
        .expect("consume");
    assert_eq!(messages(&records), names("back", 5));

    l4rs::shutdown();
    let mut expected = names("down", 3);
    expected.extend(names("gone", 3));
    assert_eq!(l4rs_tests::read_lines(&fallback), expected);
}
